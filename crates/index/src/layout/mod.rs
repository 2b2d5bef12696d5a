//! The grid's geometry: cells as wide as the radius across y and z and a quarter of it along x,
//! numbered with x fastest, so the cells a query needs in one (y, z) row are one contiguous run
//! of slots once the boids are sorted by cell.

use crate::Period;
use crate::exec::{Exec, RayonExec, chunks_mut};
use boids_core::fmath::Order;
use glam::Vec3;

mod sort;
mod windows;

pub use sort::{counting_sort, counting_sort_with};
pub use windows::{Chords, Rows};

/// Cells along x per radius: a query scans `[x - r, x + r]` of each row, rounded out to whole
/// cells, so finer x cells scan fewer candidates (measured at 100k boids: 148 candidates a boid
/// with cubic cells, 112 with four per radius, 106 with eight) at the cost of more cells.
pub const FINE_X: f32 = 4.0;

/// Cells allowed per boid before the cells grow (bounds memory for sparse flocks).
const MAX_CELLS_PER_POINT: f64 = 4.0;
/// Cells along one axis at most, before the per-point cap (keeps the f64 arithmetic exact).
const MAX_CELLS_PER_AXIS: f64 = 1.0e9;

/// Relative slack added to a query window, so that rounding in the cell computation can never
/// leave out a boid the exact distance test would accept (the test happens afterwards).
const WINDOW_SLACK: f32 = 1.0 / (1 << 20) as f32;

/// Where the cells are: origin, size, count per axis and the periodic box, if any.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Corner of cell (0, 0, 0).
    pub min: Vec3,
    /// `1 / cell size` per axis.
    pub inv: Vec3,
    /// Cells per axis (each at least 1).
    pub dims: [u32; 3],
    /// The periodic box (wrap-around bounds), if any.
    pub period: Option<Period>,
}

impl Default for Layout {
    fn default() -> Self {
        Layout {
            min: Vec3::ZERO,
            inv: Vec3::ONE,
            dims: [1, 1, 1],
            period: None,
        }
    }
}

/// A run of consecutive slots.
pub type Run = (u32, u32);

/// Boxes folded at once by [`bounds`]: eight boids' coordinates, 24 independent lanes.
const FOLD_BOIDS: usize = 8;

/// The bounding box of `ps` (empty: +inf, -inf), by [`Order`], so exact whatever the grouping.
/// The coordinates of [`FOLD_BOIDS`] boids are folded as one flat array of lanes, each its own
/// chain of compares, which the compiler keeps in vector registers (four running `Vec3` boxes
/// compiled to scalar selects: 6% of a step at 10,000 boids).
fn bounds(ps: &[Vec3]) -> (Vec3, Vec3) {
    const L: usize = FOLD_BOIDS * 3;
    let mut lo = [f32::INFINITY; L];
    let mut hi = [f32::NEG_INFINITY; L];
    let mut groups = ps.chunks_exact(FOLD_BOIDS);
    for g in &mut groups {
        let v: [f32; L] = std::array::from_fn(|i| g[i / 3][i % 3]);
        for i in 0..L {
            lo[i] = lo[i].at_most(v[i]);
            hi[i] = hi[i].at_least(v[i]);
        }
    }
    let mut b = (Vec3::from_slice(&lo), Vec3::from_slice(&hi));
    for k in 1..FOLD_BOIDS {
        let l = Vec3::from_slice(&lo[3 * k..]);
        let h = Vec3::from_slice(&hi[3 * k..]);
        b = (b.0.at_most(l), b.1.at_least(h));
    }
    for p in groups.remainder() {
        b = (b.0.at_most(*p), b.1.at_least(*p));
    }
    b
}

impl Layout {
    /// A layout for `positions` (all finite; inside the period when there is one) queried at
    /// `radius`.
    pub fn choose(positions: &[Vec3], radius: f32, period: Option<Period>) -> Layout {
        Layout::choose_with(&RayonExec::default(), positions, radius, period)
    }

    /// [`Layout::choose`] with its parallel loop on `exec`.
    pub fn choose_with(
        exec: &dyn Exec,
        positions: &[Vec3],
        radius: f32,
        period: Option<Period>,
    ) -> Layout {
        let n = positions.len();
        let (min, extent) = match &period {
            Some(per) => (per.min, per.size),
            None if n == 0 => (Vec3::ZERO, Vec3::ZERO),
            None => {
                let empty = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
                let (lo, hi) = if n < 16_384 {
                    bounds(positions)
                } else {
                    // Minimum and maximum are exact whatever the grouping.
                    // (The parts' boxes on the stack: nothing allocated.)
                    let ch = crate::exec::piece_grain(n, 8192);
                    let mut parts = [empty; crate::exec::MAX_PIECES];
                    let parts = &mut parts[..n.div_ceil(ch)];
                    chunks_mut(exec, parts, 1, &|c: usize, part: &mut [(Vec3, Vec3)]| {
                        let end = ((c + 1) * ch).min(n);
                        part[0] = bounds(&positions[c * ch..end]);
                    });
                    parts
                        .iter()
                        .fold(empty, |a, b| (a.0.at_most(b.0), a.1.at_least(b.1)))
                };
                (lo, hi - lo)
            }
        };
        let e = extent.to_array().map(f64::from);
        let mut cell = if radius > 0.0 && radius.is_finite() {
            f64::from(radius)
        } else {
            e.iter().copied().fold(1.0, f64::at_least)
        };
        let fine = f64::from(FINE_X);
        let periodic = period.is_some();
        let dims_for = |cell: f64| -> [f64; 3] {
            std::array::from_fn(|i| {
                let c = if i == 0 { cell / fine } else { cell };
                let k = (e[i] / c).floor();
                let k = if periodic { k.at_least(1.0) } else { k + 1.0 };
                k.at_most(MAX_CELLS_PER_AXIS)
            })
        };
        let max_cells = n as f64 * MAX_CELLS_PER_POINT + 64.0;
        let mut dims = dims_for(cell);
        while dims[0] * dims[1] * dims[2] > max_cells {
            let over = dims[0] * dims[1] * dims[2] / max_cells;
            cell *= boids_core::fmath::cbrt64(over).at_least(1.01);
            dims = dims_for(cell);
        }
        let dims = dims.map(|d| d.at_least(1.0) as u32);
        let inv = if periodic {
            // Cells divide the periodic box exactly; each is at least the radius wide (x: a
            // quarter of it).
            Vec3::from_array(std::array::from_fn(|i| (f64::from(dims[i]) / e[i]) as f32))
        } else {
            // Rounded down, so a cell is never narrower than intended.
            let c = [cell / fine, cell, cell];
            Vec3::from_array(std::array::from_fn(|i| {
                (1.0 / c[i]) as f32 * (1.0 - f32::EPSILON)
            }))
        };
        Layout {
            min,
            inv,
            dims,
            period,
        }
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.dims.iter().map(|&d| d as usize).product()
    }

    /// Cell coordinate along `axis` of coordinate `x`, before clamping or wrapping. Monotone in
    /// `x`, which is what makes the query windows safe.
    #[inline(always)]
    fn coord(&self, axis: usize, x: f32) -> i64 {
        floor_i64((x - self.min[axis]) * self.inv[axis])
    }

    /// The cell of a position (wrapped into the period, if any).
    #[inline(always)]
    #[allow(
        unsafe_code,
        reason = "the index build's measured key loop: an unchecked float-to-int conversion \
                  of a value clamped into range"
    )]
    pub fn key(&self, p: Vec3) -> u32 {
        let c: [u32; 3] = std::array::from_fn(|a| {
            // `coord` clamped into the grid: a coordinate below 0 (or a NaN, which fails
            // `t > 0`) is cell 0, and at or above 0 the truncation is the floor; 2e9 (an exact
            // f32) keeps the conversion in range and is past the last cell (dims <=
            // MAX_CELLS_PER_AXIS = 1e9), which the signed compare then takes. Clamped in f32
            // with plain compares (maxps and minps on x86) and converted unchecked, the loop
            // stays in vector lanes (the saturating conversion to u32, done lane by lane, and
            // `Order`'s selects were 8-10 ms of a 1,000,000-boid index build; 3 now). The
            // sign of a zero, which `Order` defines, is cell 0 either way. The same cell as
            // `coord(a, x).clamp(0, dims - 1)` for every x (`key_is_the_clamped_coord`).
            let t = (p[a] - self.min[a]) * self.inv[a];
            let t = if t > 0.0 { t } else { 0.0 };
            let t = if t < 2.0e9 { t } else { 2.0e9 };
            // SAFETY: `t` is in `0..=2e9` (a NaN fails `t > 0` and becomes 0), whose
            // truncation is an i32.
            let c = unsafe { t.to_int_unchecked::<i32>() };
            c.min(self.dims[a] as i32 - 1) as u32
        });
        (c[2] * self.dims[1] + c[1]) * self.dims[0] + c[0]
    }

    /// Rounding slack for a window of `reach` around `x` along `axis`: far more than the few
    /// ulps by which the key computation can misplace a coordinate near a cell boundary.
    #[inline(always)]
    fn slack(&self, axis: usize, x: f32, reach: f32) -> f32 {
        (reach + x.abs() + self.min[axis].abs()) * WINDOW_SLACK
    }

    /// `lo..=hi` (unwrapped cell coordinates) as at most two ascending ranges of real cells.
    #[inline(always)]
    fn wrap_range(&self, dim: i64, lo: i64, hi: i64, out: &mut [(u32, u32); 2]) -> usize {
        if self.period.is_some() {
            if hi.saturating_sub(lo).saturating_add(1) >= dim {
                out[0] = (0, dim as u32 - 1);
                return 1;
            }
            let (lo, hi) = (lo.rem_euclid(dim) as u32, hi.rem_euclid(dim) as u32);
            if lo <= hi {
                out[0] = (lo, hi);
                1
            } else {
                out[0] = (0, hi);
                out[1] = (lo, dim as u32 - 1);
                2
            }
        } else {
            let (lo, hi) = (lo.max(0), hi.min(dim - 1));
            if lo > hi {
                return 0;
            }
            out[0] = (lo as u32, hi as u32);
            1
        }
    }

    /// `(x, y, z)` cell coordinates of cell `c`.
    #[inline]
    pub fn cell_coords(&self, c: usize) -> [usize; 3] {
        let (nx, ny) = (self.dims[0] as usize, self.dims[1] as usize);
        [c % nx, (c / nx) % ny, c / (nx * ny)]
    }
}

/// `floor(t)` as an integer, without a libm call (baseline x86-64 has no rounding
/// instruction); exact, and saturating far outside the `i64` range.
#[inline(always)]
pub fn floor_i64(t: f32) -> i64 {
    let i = t as i64;
    if (i as f32) > t {
        i.saturating_sub(1)
    } else {
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cell a key computes is `coord` clamped into the grid, for every kind of value:
    /// far below and above the grid, at cell boundaries, infinities and NaN.
    #[test]
    fn key_is_the_clamped_coord() {
        let pts = [Vec3::ZERO, Vec3::new(10.0, 3.0, 7.0)];
        let l = Layout::choose(&pts, 0.37, None);
        let mut xs = vec![
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            -1e30,
            1e30,
            -0.0,
            0.0,
            f32::MIN_POSITIVE,
            4.0e9,
            -4.0e9,
        ];
        let mut s = 7u64;
        for i in 0..200_000 {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let u = (s >> 40) as f32 / 16_777_216.0;
            xs.push(match i % 4 {
                0 => u * 14.0 - 2.0,
                1 => (u * 40.0).round() * 0.37 * 0.25,
                2 => f32::from_bits((s >> 32) as u32),
                _ => (u - 0.5) * 1e12,
            });
        }
        let mut checked = 0;
        for &x in &xs {
            for a in 0..3 {
                let mut p = Vec3::new(1.0, 1.0, 1.0);
                p[a] = x;
                let want: [u32; 3] = std::array::from_fn(|b| {
                    l.coord(b, p[b]).clamp(0, i64::from(l.dims[b]) - 1) as u32
                });
                let want = (want[2] * l.dims[1] + want[1]) * l.dims[0] + want[0];
                assert_eq!(l.key(p), want, "x = {x:e} ({:#x}), axis {a}", x.to_bits());
                checked += 1;
            }
        }
        assert!(checked > 600_000 && l.dims[0] > 4);
        // More cells along x than an f32 counts exactly: the last ones are still reached.
        for last in [16_777_216u32, 16_777_217, 16_777_219, 999_999_999] {
            let l = Layout {
                min: Vec3::ZERO,
                inv: Vec3::ONE,
                dims: [last + 1, 2, 2],
                period: None,
            };
            for x in [
                last as f32,
                (last as f32).next_up(),
                (last - 1) as f32,
                2.5e9,
            ] {
                let want = l.coord(0, x).clamp(0, i64::from(last)) as u32;
                assert_eq!(l.key(Vec3::new(x, 0.0, 0.0)), want, "last {last}, x = {x}");
            }
        }
    }

    /// The lane-wise box is the box of a plain fold over the boids one by one, bit for bit
    /// (the zeros' signs included), for every count around the lanes' width, and the box
    /// `choose` uses is the same on one part and on many.
    #[test]
    fn bounds_are_the_plain_fold() {
        let mut s = 11u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 40) as f32 / 16_777_216.0
        };
        for n in 0..3 * FOLD_BOIDS + 2 {
            for trial in 0..40 {
                let ps: Vec<Vec3> = (0..n)
                    .map(|_| {
                        Vec3::from_array(std::array::from_fn(|_| match trial % 3 {
                            0 => next() * 20.0 - 10.0,
                            // Only zeros of both signs: the extremes' signs are the test.
                            1 => [0.0, -0.0][usize::from(next() < 0.5)],
                            _ => (next() * 4.0).floor() - 2.0,
                        }))
                    })
                    .collect();
                let want = ps.iter().fold(
                    (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
                    |(lo, hi), p| (lo.at_most(*p), hi.at_least(*p)),
                );
                let got = bounds(&ps);
                let bits = |v: Vec3| v.to_array().map(f32::to_bits);
                assert_eq!(
                    (bits(got.0), bits(got.1)),
                    (bits(want.0), bits(want.1)),
                    "n = {n}, trial {trial}"
                );
            }
        }
        // A flock large enough to be folded in parts gets the box of one fold.
        let ps: Vec<Vec3> = (0..40_000)
            .map(|i| Vec3::new(next() * 9.0 - 3.0, next() - (i % 7) as f32, next() * 2.0))
            .collect();
        let l = Layout::choose(&ps, 0.5, None);
        let serial = Layout::choose_with(&crate::exec::SerialExec, &ps, 0.5, None);
        assert_eq!(l.min, bounds(&ps).0);
        assert_eq!(l, serial);
    }
}
