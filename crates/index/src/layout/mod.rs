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
                // Four running boxes (four independent chains of compares, not one), then
                // their union: minimum and maximum are exact whatever the grouping.
                let fold = |(lo, hi): (Vec3, Vec3), ps: &[Vec3]| {
                    let mut b = [empty; 4];
                    let mut quads = ps.chunks_exact(4);
                    for q in &mut quads {
                        for (b, p) in b.iter_mut().zip(q) {
                            *b = (b.0.at_most(*p), b.1.at_least(*p));
                        }
                    }
                    for p in quads.remainder() {
                        b[0] = (b[0].0.at_most(*p), b[0].1.at_least(*p));
                    }
                    b.iter()
                        .fold((lo, hi), |(lo, hi), b| (lo.at_most(b.0), hi.at_least(b.1)))
                };
                let (lo, hi) = if n < 16_384 {
                    fold(empty, positions)
                } else {
                    // Minimum and maximum are exact whatever the grouping.
                    // (The parts' boxes on the stack: nothing allocated.)
                    let ch = crate::exec::piece_grain(n, 8192);
                    let mut parts = [empty; crate::exec::MAX_PIECES];
                    let parts = &mut parts[..n.div_ceil(ch)];
                    chunks_mut(exec, parts, 1, &|c: usize, part: &mut [(Vec3, Vec3)]| {
                        let end = ((c + 1) * ch).min(n);
                        part[0] = fold(empty, &positions[c * ch..end]);
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
    pub fn key(&self, p: Vec3) -> u32 {
        let c: [u32; 3] = std::array::from_fn(|a| {
            // `coord` clamped into the grid, without the saturating conversion: a coordinate
            // below 0 (or a NaN, which `max` sends to 0) is cell 0, and at or above 0 the
            // truncation is the floor; 4e9 (an exact f32) keeps the conversion in range and
            // is past the last cell (dims <= MAX_CELLS_PER_AXIS = 1e9). The same cell as
            // `coord(a, x).clamp(0, dims - 1)` for every x (`key_is_the_clamped_coord`).
            #[allow(
                clippy::manual_clamp,
                reason = "`max` sends a NaN to 0; `clamp` keeps it"
            )]
            let t = ((p[a] - self.min[a]) * self.inv[a])
                .at_least(0.0)
                .at_most(4.0e9);
            (t as u32).min(self.dims[a] - 1)
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
    }
}
