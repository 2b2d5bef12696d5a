//! A query's windows: the rows of cells around a boid's row and the chord of its sphere
//! through each, as runs of consecutive slots (one boid's, or a batch's union).

use super::*;
use boids_core::fmath::Order;

/// The rows of cells a query from one (y, z) row reaches: see [`Layout::rows`].
#[derive(Clone, Copy, Debug)]
pub struct Rows {
    /// Index in the cell table of cell x = 0 of each row, ascending.
    bases: [u32; 9],
    /// Where each row lies from the query's row along y and z: 0 the same, 1 below, 2 above.
    sy: [u8; 9],
    sz: [u8; 9],
    /// The same sides as `1.0` or `0.0` per row (below y, above y, below z, above z), padded
    /// to [`ROW_LANES`] rows, for the chord arithmetic done on every row at once.
    side: [[f32; ROW_LANES]; 4],
    count: usize,
    /// The lower sides of the query's row along y and z.
    lo: [f32; 2],
}

/// Rows of [`Rows::side`]: the nine a query can reach, padded to a multiple of four lanes.
const ROW_LANES: usize = 12;

/// The bias of the shifted-exponent square-root estimate (see [`Layout::chord_runs`]).
const SQRT_MAGIC: u32 = 0x1FBD_1DF5;
/// The largest ratio of a square root to its estimate, rounded up.
const SQRT_OVER: f32 = 1.023;

/// What every boid's chords need from the layout, worked out once per walk: see
/// [`Layout::chords`].
#[derive(Clone, Copy, Debug)]
pub struct Chords {
    reach: f32,
    /// `reach²`, widened by the rounding slack.
    r2: f32,
    min_x: f32,
    inv_x: f32,
    /// Cell sizes along y and z (0 for an axis of one cell: no neighbouring rows there).
    cell: [f32; 2],
    /// Rounding slacks: the gaps along y and z are shrunk, the half-widths along x grown.
    slack: [f32; 3],
    nx: u32,
    periodic: bool,
}

impl Layout {
    /// The rows of cells around the (y, z) row `cy, cz` that a query of radius `reach` from
    /// anywhere in it can reach, for [`Layout::chord_runs`] and [`Layout::span_runs`]; `None` where the general
    /// [`Layout::runs`] is needed (a radius wider than a (y, z) cell, or a periodic axis of
    /// fewer than three cells).
    pub fn rows(&self, cy: usize, cz: usize, reach: f32) -> Option<Rows> {
        let periodic = self.period.is_some();
        let [nx, ny, nz] = self.dims.map(|d| d as usize);
        if periodic && (nx < 3 || (ny > 1 && ny < 3) || (nz > 1 && nz < 3)) {
            return None;
        }
        // A radius within one cell across y and z (an axis of one cell, like the flat one of a
        // plane-locked flock, needs no neighbouring rows at all).
        let fits = |n: usize, inv: f32| n == 1 || reach <= 1.0 / inv;
        if !(fits(ny, self.inv.y) && fits(nz, self.inv.z)) {
            return None;
        }
        // Neighbouring rows that exist (wrapped when periodic), with their side.
        let near = |c: usize, n: usize| -> ([(usize, i8); 3], usize) {
            let mut v = [(c, 0i8), (0, 0), (0, 0)];
            let mut k = 1;
            if n > 1 {
                if c > 0 || periodic {
                    v[k] = ((c + n - 1) % n, -1);
                    k += 1;
                }
                if c + 1 < n || periodic {
                    v[k] = ((c + 1) % n, 1);
                    k += 1;
                }
            }
            (v, k)
        };
        let (ys, ky) = near(cy, ny);
        let (zs, kz) = near(cz, nz);
        let mut rows = [(0usize, 0u8, 0u8); 9];
        let mut count = 0;
        let side = |s: i8| match s {
            -1 => 1u8,
            1 => 2,
            _ => 0,
        };
        for &(z, sz) in &zs[..kz] {
            for &(y, sy) in &ys[..ky] {
                rows[count] = ((z * ny + y) * nx, side(sy), side(sz));
                count += 1;
            }
        }
        // Ascending, so the runs come out in slot order.
        rows[..count].sort_unstable_by_key(|r| r.0);
        let lo = |a: usize, c: usize| self.min[a] + c as f32 * (1.0 / self.inv[a]);
        let mut side = [[0.0f32; ROW_LANES]; 4];
        for (i, r) in rows[..count].iter().enumerate() {
            side[0][i] = f32::from(u8::from(r.1 == 1));
            side[1][i] = f32::from(u8::from(r.1 == 2));
            side[2][i] = f32::from(u8::from(r.2 == 1));
            side[3][i] = f32::from(u8::from(r.2 == 2));
        }
        Some(Rows {
            bases: rows.map(|r| r.0 as u32),
            sy: rows.map(|r| r.1),
            sz: rows.map(|r| r.2),
            side,
            count,
            lo: [lo(1, cy), lo(2, cz)],
        })
    }

    /// The per-walk constants of [`Layout::chord_runs`] for queries of radius `reach`.
    pub fn chords(&self, reach: f32) -> Chords {
        let extent = Vec3::from_array(self.dims.map(|d| d as f32)) / self.inv;
        // The largest slack any coordinate of the grid can need (a coordinate is within the
        // grid's extent, and the few boids clamped into an edge cell are near it).
        let slack = |a: usize| {
            (reach + (1.0 / self.inv[a]) + 2.0 * self.min[a].abs() + extent[a].abs() + 1.0)
                * WINDOW_SLACK
        };
        let cell = |a: usize| {
            if self.dims[a] == 1 {
                0.0
            } else {
                1.0 / self.inv[a]
            }
        };
        Chords {
            reach,
            r2: reach * reach * (1.0 + 4.0 * WINDOW_SLACK),
            min_x: self.min.x,
            inv_x: self.inv.x,
            cell: [cell(1), cell(2)],
            slack: [slack(0), slack(1), slack(2)],
            nx: self.dims[0],
            periodic: self.period.is_some(),
        }
    }

    /// The slot runs, ascending, that can hold a point within the chords' reach of `q` (a boid
    /// of the row `rows` was made for), into `out`; returns how many (empty runs included).
    /// Each row is scanned only along the chord the sphere cuts through it,
    /// `|dx| <= √(reach² - gy² - gz²)` with `gy`, `gz` the distances from `q` to the row across y
    /// and z (a row the sphere misses gives no run), rounded out to whole cells and widened by a
    /// rounding slack (the exact test comes later).
    #[inline]
    pub fn chord_runs(
        &self,
        ch: &Chords,
        rows: &Rows,
        cell_start: &[u32],
        q: Vec3,
        out: &mut [Run; 18],
    ) -> usize {
        self.span_runs(ch, rows, cell_start, q, q, out)
    }

    /// [`Layout::chord_runs`] for every point of the box `lo..=hi` at once (a batch of boids
    /// of one row): each row's window is the union of their chords, or more. Ascending and
    /// disjoint.
    #[inline]
    #[allow(
        unsafe_code,
        reason = "the measured per-batch loop: unchecked float-to-int conversions of values \
                  clamped into range, and cell-table reads a bound check covers"
    )]
    pub fn span_runs(
        &self,
        ch: &Chords,
        rows: &Rows,
        cell_start: &[u32],
        lo: Vec3,
        hi: Vec3,
        out: &mut [Run; 18],
    ) -> usize {
        // Squared distances from the box to the rows below and above its own, along y and z
        // (from its lowest point to the row below, its highest to the row above).
        let sides = |a: usize, low: f32, high: f32| -> [f32; 4] {
            let c = ch.cell[a];
            if c == 0.0 {
                return [0.0; 4];
            }
            let below = (low - rows.lo[a] - ch.slack[1 + a]).at_least(0.0);
            let above = (rows.lo[a] + c - high - ch.slack[1 + a]).at_least(0.0);
            [0.0, below * below, above * above, 0.0]
        };
        let (gy, gz) = (sides(0, lo.y, hi.y), sides(1, lo.z, hi.z));
        let nx = ch.nx as f32;
        // Cell coordinates along x, shifted by nx so that every window bound is positive
        // (truncation is then the floor) and clamped to [0, 3 nx].
        let qlo = (lo.x - ch.min_x) * ch.inv_x + nx;
        let qhi = (hi.x - ch.min_x) * ch.inv_x + nx;
        let top = 3.0 * nx;
        let cell_of = |t: f32| -> i64 {
            // `max`/`min` also send a NaN to a bound.
            let t = t.at_least(0.0).at_most(top);
            // SAFETY: `t` is finite and in [0, 3 nx], nx <= 1e9 (MAX_CELLS_PER_AXIS): an i64
            // holds it (one truncating conversion, which is the floor of a non-negative value).
            let c: i64 = unsafe { t.to_int_unchecked() };
            c - i64::from(ch.nx)
        };
        if !ch.periodic {
            // Every row at once (loops the compiler vectorizes): a row's distance across y and
            // z is `below² · [row below] + above² · [row above]` per axis (exact: products
            // by 1 and 0, sums with 0), its chord's half-width and cell bounds follow; then
            // the runs, a row the sphere misses giving an empty run that the next row's
            // overwrites (`k` does not advance).
            let (qlo, qhi, top) = (qlo - nx, qhi - nx, nx - 1.0);
            let (by, ay, bz, az) = (gy[1], gy[2], gz[1], gz[2]);
            let mut x0 = [0i32; ROW_LANES];
            let mut x1 = [0i32; ROW_LANES];
            let mut hit = [0u8; ROW_LANES];
            for i in 0..ROW_LANES {
                let g = (by * rows.side[0][i] + ay * rows.side[1][i])
                    + (bz * rows.side[2][i] + az * rows.side[3][i]);
                let rest = ch.r2 - g;
                // A bound on √rest from above without a square root (whose latency sits on
                // every boid's path to its first candidate): half the exponent by a shift,
                // within 2.3 % below to 4.3 % above √rest for every normal value (checked
                // over an exponent period in `sqrt_bound_is_an_upper_bound`); times 1.023, it
                // is never below. A denormal `rest` (below 2^-126) has a square root below
                // 2^-63, far under the slack.
                let half =
                    f32::from_bits((rest.at_least(0.0).to_bits() >> 1) + SQRT_MAGIC) * SQRT_OVER;
                let w = (half + ch.slack[0]) * ch.inv_x;
                // `max` sends a NaN to 0; the bounds are then in [0, top], top < 2^31
                // (MAX_CELLS_PER_AXIS), where truncation is the floor.
                let a = (qlo - w).at_least(0.0).at_most(top);
                let b = (qhi + w).at_least(0.0).at_most(top);
                // SAFETY: `a` and `b` are in [0, top] (above): an i32 holds each.
                unsafe {
                    x0[i] = a.to_int_unchecked();
                    x1[i] = b.to_int_unchecked();
                }
                hit[i] = u8::from(rest >= 0.0);
            }
            // Rows ascend, so the last is the highest: every read below is inside.
            let count = rows.count.min(9);
            assert!(
                count == 0 || rows.bases[count - 1] as usize + (ch.nx as usize) < cell_start.len(),
                "layout: rows outside the cell table"
            );
            let mut k = 0;
            for i in 0..count {
                let row = rows.bases[i] as usize;
                // SAFETY: x0, x1 <= nx - 1, so `row + x1 + 1 <= row + nx`, which the assert
                // above keeps inside `cell_start` for every row; `k <= i < 9 <= out.len()`.
                unsafe {
                    *out.get_unchecked_mut(k) = (
                        *cell_start.get_unchecked(row + x0[i] as usize),
                        *cell_start.get_unchecked(row + x1[i] as usize + 1),
                    );
                }
                k += usize::from(hit[i]);
            }
            return k;
        }
        let nx = i64::from(ch.nx);
        let mut k = 0;
        for i in 0..rows.count {
            let (sy, sz) = (rows.sy[i] as usize & 3, rows.sz[i] as usize & 3);
            let rest = ch.r2 - (gy[sy] + gz[sz]);
            if rest < 0.0 {
                continue;
            }
            let half = if sy == 0 && sz == 0 {
                ch.reach
            } else {
                rest.sqrt()
            };
            let w = (half + ch.slack[0]) * ch.inv_x;
            let (x0, x1) = (cell_of(qlo - w), cell_of(qhi + w));
            let row = rows.bases[i] as usize;
            if !ch.periodic {
                let (c0, c1) = (x0.max(0), x1.min(nx - 1));
                if c0 <= c1 {
                    out[k] = (
                        cell_start[row + c0 as usize],
                        cell_start[row + c1 as usize + 1],
                    );
                    k += 1;
                }
                continue;
            }
            // One piece, or two where a periodic window wraps (low x first).
            let (c0, c1, split) = if x1 - x0 + 1 >= nx {
                (0, nx - 1, None)
            } else if x0 < 0 {
                (0, x1, Some((x0 + nx, nx - 1)))
            } else if x1 >= nx {
                (0, x1 - nx, Some((x0, nx - 1)))
            } else {
                (x0, x1, None)
            };
            out[k] = (
                cell_start[row + c0 as usize],
                cell_start[row + c1 as usize + 1],
            );
            k += 1;
            if let Some((c, d)) = split {
                out[k] = (
                    cell_start[row + c as usize],
                    cell_start[row + d as usize + 1],
                );
                k += 1;
            }
        }
        k
    }

    /// Appends to `runs` the slot runs that can hold a point within `reach` of `q` (wrapped
    /// into the period, if any), in ascending slot order, each slot once; returns the total
    /// number of slots. `cell_start[c]..cell_start[c + 1]` are the slots of cell `c`.
    ///
    /// Each (y, z) row of cells is scanned only along the chord the sphere cuts through it:
    /// `|dx| <= sqrt(reach² - gy² - gz²)`, where `gy`, `gz` are the distances from `q` to the
    /// row's extent (rows the sphere misses are skipped). That leaves about 70 candidates for
    /// 25 neighbours in 3-D, where the whole 3 × 3 block of rows holds about 110.
    pub fn runs(&self, cell_start: &[u32], q: Vec3, reach: f32, runs: &mut Vec<Run>) -> usize {
        runs.clear();
        if reach.is_nan() || reach < 0.0 {
            return 0;
        }

        let cell = Vec3::ONE / self.inv;
        // Unwrapped cell coordinates of the rows (y and z) the window covers.
        let lo_hi = |a: usize| {
            let r = reach + self.slack(a, q[a], reach);
            (self.coord(a, q[a] - r), self.coord(a, q[a] + r))
        };
        let (y0, y1) = lo_hi(1);
        let (z0, z1) = lo_hi(2);
        // Distance from q to a row's extent along an axis (0 inside), less a rounding slack.
        let gap = |a: usize, c: i64| {
            let lo = self.min[a] + c as f32 * cell[a];
            let hi = lo + cell[a];
            let g = (lo - q[a]).at_least(q[a] - hi).at_least(0.0);
            (g - self.slack(a, q[a], reach + cell[a])).at_least(0.0)
        };
        let r2 = reach * reach * (1.0 + 4.0 * WINDOW_SLACK);
        let (nx, ny, nz) = (
            i64::from(self.dims[0]),
            i64::from(self.dims[1]),
            i64::from(self.dims[2]),
        );
        let periodic = self.period.is_some();
        // A periodic axis narrower than the window is scanned once, whole (gaps 0).
        let whole = |lo: i64, hi: i64, dim: i64| periodic && hi.saturating_sub(lo) >= dim - 1;
        let (y0, y1, whole_y) = if whole(y0, y1, ny) {
            (0, ny - 1, true)
        } else {
            (y0, y1, false)
        };
        let (z0, z1, whole_z) = if whole(z0, z1, nz) {
            (0, nz - 1, true)
        } else {
            (z0, z1, false)
        };
        // Off a non-periodic grid there are no cells: scan only the rows that exist (a query
        // far from the flock, or a tiny cell, would otherwise count through ~2^63 empty rows).
        let (y0, y1, z0, z1) = if periodic {
            (y0, y1, z0, z1)
        } else {
            (y0.max(0), y1.min(ny - 1), z0.max(0), z1.min(nz - 1))
        };
        let mut total = 0usize;
        let mut xw = [(0u32, 0u32); 2];
        for cz in z0..=z1 {
            let wz = if periodic { cz.rem_euclid(nz) } else { cz };
            if !(0..nz).contains(&wz) {
                continue;
            }
            let gz = if whole_z { 0.0 } else { gap(2, cz) };
            for cy in y0..=y1 {
                let wy = if periodic { cy.rem_euclid(ny) } else { cy };
                if !(0..ny).contains(&wy) {
                    continue;
                }
                let gy = if whole_y { 0.0 } else { gap(1, cy) };
                let rest = r2 - (gy * gy + gz * gz);
                if rest < 0.0 {
                    continue;
                }
                let s = rest.sqrt() + self.slack(0, q[0], reach);
                let (x0, x1) = (self.coord(0, q[0] - s), self.coord(0, q[0] + s));
                let nw = self.wrap_range(nx, x0, x1, &mut xw);
                let row = (wz as usize * ny as usize + wy as usize) * nx as usize;
                for &(x0, x1) in &xw[..nw] {
                    let s0 = cell_start[row + x0 as usize];
                    let s1 = cell_start[row + x1 as usize + 1];
                    if s0 < s1 {
                        runs.push((s0, s1));
                        total += (s1 - s0) as usize;
                    }
                }
            }
        }
        // Periodic windows may list rows out of slot order.
        if periodic {
            runs.sort_unstable_by_key(|r| r.0);
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqrt_bound_is_an_upper_bound() {
        // Every float of [1, 4) (one period of the exponent's parity), and a spread of
        // exponents: the estimate times SQRT_OVER is never below the square root, and never
        // more than 7 % above it.
        let bound = |x: f32| f32::from_bits((x.to_bits() >> 1) + SQRT_MAGIC) * SQRT_OVER;
        let mut x = 1.0f32;
        let mut checked = 0u32;
        while x < 4.0 {
            let (b, r) = (bound(x), x.sqrt());
            assert!(b >= r && b <= r * 1.07, "{x}: {b} vs {r}");
            x = f32::from_bits(x.to_bits() + 1);
            checked += 1;
        }
        assert_eq!(checked, 1 << 24);
        for e in -126..127 {
            for m in [1.0f32, 1.3, 1.7, 2.0, 2.9, 3.99] {
                let x = m * 2f32.powi(e);
                if x.is_normal() {
                    assert!(bound(x) >= x.sqrt(), "{x}");
                }
            }
        }
    }
}
