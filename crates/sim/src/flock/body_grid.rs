//! The grid the bodies pass finds pairs with ([`super::bodies`]): boids binned by cell, a cell a
//! little over one body diameter wide, each bucket's boids in storage order. One bucket a cell
//! of the box the boids' cells span when that box has few more cells than there are boids (a
//! crowd's has), so a row of three cells is one run of buckets; else cells hashed into buckets.
//! A dense grid follows boids that move between cells instead of being built again. Either
//! way, the boids around a cell come in the same order.

use boids_core::Vec3;
use boids_core::fmath::floor_i32;

/// A grid over positions (built in the first pass, followed in the others), and which bodies
/// each pass looks at.
#[derive(Default)]
pub(crate) struct Grid {
    /// Cell of each boid when the grid was built.
    pub(super) cell: Vec<[i32; 3]>,
    /// Bucket of each boid.
    bucket: Vec<u32>,
    /// Boids by bucket: `order[starts[b]..starts[b + 1]]`, each bucket in storage order.
    order: Vec<u32>,
    starts: Vec<u32>,
    fill: Vec<u32>,
    /// How cells map to buckets.
    layout: Layout,
    /// Cells per unit of the last build, and whether it was flat.
    inv: f32,
    flat: bool,
    /// The bodies this pass looks at (every one in the first), and those the next one will.
    pub(super) dirty: Vec<bool>,
    pub(super) next_dirty: Vec<bool>,
    /// The height a grounded body's pushes stay within a step of (`resolve`).
    pub(super) level: Vec<f32>,
    /// A grounded flock's positions and velocities as the step left them, before any push.
    pub(super) stepped: Vec<(Vec3, Vec3)>,
    /// The boids around one cell ([`Grid::gather_around`]).
    pub(super) around: Vec<u32>,
}

/// How a [`Grid`]'s cells map to its buckets.
#[derive(Clone, Copy, Debug, Default)]
enum Layout {
    /// One bucket a cell of the box of cells from `lo`, `size` cells a side, x fastest then y
    /// then z: a row of cells is a run of buckets (when the box holds few more cells than there
    /// are boids, as a flock's does).
    Dense { lo: [i32; 3], size: [u32; 3] },
    /// Cells hashed into as many buckets as `starts` has less one (a power of two; a bucket
    /// may hold several cells).
    #[default]
    Hashed,
}

/// Buckets a hashed grid has for `n` boids; a dense grid may have up to as many.
fn buckets_for(n: usize) -> usize {
    (2 * n).next_power_of_two().max(2)
}

/// The bucket of cell `c` in a dense grid over the box from `lo`, `size` cells a side (`c` in
/// it): x fastest, then y, then z.
#[inline]
fn dense_bucket(c: [i32; 3], lo: [i32; 3], size: [u32; 3]) -> u32 {
    let [x, y, z] = [0, 1, 2].map(|a| (c[a] - lo[a]) as u32);
    (z * size[1] + y) * size[0] + x
}

#[inline]
fn cell_of(p: Vec3, inv: f32, flat: bool) -> [i32; 3] {
    // Within ±2^30 by the choice of `inv` in `resolve`.
    [
        floor_i32(p.x * inv),
        if flat { 0 } else { floor_i32(p.y * inv) },
        floor_i32(p.z * inv),
    ]
}

#[inline]
fn hash(c: [i32; 3], mask: u32) -> u32 {
    let h = (c[0] as u32).wrapping_mul(0x9E37_79B1)
        ^ (c[1] as u32).wrapping_mul(0x85EB_CA77)
        ^ (c[2] as u32).wrapping_mul(0xC2B2_AE3D);
    (h ^ (h >> 15)) & mask
}

impl Grid {
    /// Bins `positions` in cells `1 / inv` wide (flat: in x and z only): densely when the box
    /// of their cells has no more cells than a hashed grid would have buckets, else hashed.
    pub(super) fn build(&mut self, positions: &[Vec3], inv: f32, flat: bool) {
        self.build_as(positions, inv, flat, true);
    }

    /// [`Grid::build`], hashed whatever the box of cells when `may_be_dense` is false.
    fn build_as(&mut self, positions: &[Vec3], inv: f32, flat: bool, may_be_dense: bool) {
        let n = positions.len();
        (self.inv, self.flat) = (inv, flat);
        self.cell.clear();
        self.cell
            .extend(positions.iter().map(|&p| cell_of(p, inv, flat)));
        let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
        for c in &self.cell {
            for a in 0..3 {
                lo[a] = lo[a].min(c[a]);
                hi[a] = hi[a].max(c[a]);
            }
        }
        let cap = buckets_for(n) as u64;
        let size = [0, 1, 2].map(|a| (i64::from(hi[a]) - i64::from(lo[a]) + 1).max(1) as u64);
        let dense = may_be_dense
            && size.iter().all(|&s| s <= cap)
            && size[0].saturating_mul(size[1]).saturating_mul(size[2]) <= cap;
        self.bucket.clear();
        let buckets = if dense {
            let size = size.map(|s| s as u32);
            self.layout = Layout::Dense { lo, size };
            self.bucket
                .extend(self.cell.iter().map(|&c| dense_bucket(c, lo, size)));
            (size[0] * size[1] * size[2]) as usize
        } else {
            let mask = cap as u32 - 1;
            self.layout = Layout::Hashed;
            self.bucket.extend(self.cell.iter().map(|&c| hash(c, mask)));
            cap as usize
        };
        self.starts.clear();
        self.starts.resize(buckets + 1, 0);
        for &b in &self.bucket {
            self.starts[b as usize + 1] += 1;
        }
        for b in 0..buckets {
            self.starts[b + 1] += self.starts[b];
        }
        self.order.clear();
        self.order.resize(n, 0);
        self.fill.clear();
        self.fill.extend_from_slice(&self.starts);
        for (i, &b) in self.bucket.iter().enumerate() {
            self.order[self.fill[b as usize] as usize] = i as u32;
            self.fill[b as usize] += 1;
        }
    }

    /// The grid [`Grid::build`] would make of `positions`, when only the boids `moved` may have
    /// moved since the last build (of the same boids): a dense grid whose cells per unit stay
    /// the same moves each boid that changed cell from its bucket to its new one, in storage
    /// order there, which is the build's result; anything else is built again.
    pub(super) fn refresh(&mut self, positions: &[Vec3], inv: f32, flat: bool, moved: &[bool]) {
        let Layout::Dense { lo, size } = self.layout else {
            return self.build(positions, inv, flat);
        };
        if self.inv.to_bits() != inv.to_bits()
            || self.flat != flat
            || self.cell.len() != positions.len()
        {
            return self.build(positions, inv, flat);
        }
        // Moves to make; many (a whole crowd shifting) are cheaper as a build.
        let limit = positions.len() / 16 + 16;
        let mut moves = 0;
        for i in (0..positions.len()).filter(|&i| moved[i]) {
            let c = cell_of(positions[i], inv, flat);
            if c == self.cell[i] {
                continue;
            }
            let inside = (0..3).all(|a| c[a] >= lo[a] && c[a] - lo[a] < size[a] as i32);
            moves += 1;
            if !inside || moves > limit {
                return self.build(positions, inv, flat);
            }
            self.relocate(i as u32, dense_bucket(c, lo, size) as usize);
            self.cell[i] = c;
        }
    }

    /// Moves boid `i` from its bucket to bucket `to`, keeping each bucket in storage order.
    fn relocate(&mut self, i: u32, to: usize) {
        let from = self.bucket[i as usize] as usize;
        let (order, starts) = (&mut self.order, &mut self.starts);
        let at = (starts[from]..starts[from + 1])
            .find(|&m| order[m as usize] == i)
            .expect("a boid is in its bucket") as usize;
        if from < to {
            // Out of `from`: the buckets after it, up to `to`, move down one place, freeing the
            // slot before `to`'s boids, which becomes `to`'s first.
            let end = starts[to] as usize;
            order.copy_within(at + 1..end, at);
            for s in &mut starts[from + 1..=to] {
                *s -= 1;
            }
            let (a, b) = (starts[to] as usize, starts[to + 1] as usize);
            let q = order[a + 1..b].iter().take_while(|&&j| j < i).count();
            order.copy_within(a + 1..a + 1 + q, a);
            order[a + q] = i;
        } else {
            // Out of `from`: the buckets before it, down to after `to`, move up one place,
            // freeing the slot after `to`'s boids, which becomes `to`'s last.
            let begin = starts[to + 1] as usize;
            order.copy_within(begin..at, begin + 1);
            for s in &mut starts[to + 1..=from] {
                *s += 1;
            }
            let (a, b) = (starts[to] as usize, starts[to + 1] as usize);
            let q = order[a..b - 1].iter().take_while(|&&j| j < i).count();
            order.copy_within(a + q..b - 1, a + q + 1);
            order[a + q] = i;
        }
        self.bucket[i as usize] = to as u32;
    }

    /// Fills `self.around` with the boids of the cells around `c` (the 3 × 3 × 3 block, or the
    /// 3 × 3 square at `dys = [0]`), cell by cell in the order z, y, x (each from the lower
    /// side), each cell's boids in storage order: the same list however the grid is laid out.
    pub(super) fn gather_around(&mut self, c: [i32; 3], dys: &[i32]) {
        let mut out = std::mem::take(&mut self.around);
        out.clear();
        match self.layout {
            Layout::Dense { lo, size } => {
                // Within the box, a row's three cells are three buckets in a run.
                let x0 = (c[0] - 1).max(lo[0]);
                let x1 = (c[0] + 1).min(lo[0] + size[0] as i32 - 1);
                for dz in -1..=1 {
                    let z = c[2] + dz - lo[2];
                    if z < 0 || z >= size[2] as i32 || x0 > x1 {
                        continue;
                    }
                    for &dy in dys {
                        let y = c[1] + dy - lo[1];
                        if y < 0 || y >= size[1] as i32 {
                            continue;
                        }
                        let row = [x0, c[1] + dy, c[2] + dz];
                        let a = dense_bucket(row, lo, size) as usize;
                        let b = a + (x1 - x0) as usize + 1;
                        let (from, to) = (self.starts[a] as usize, self.starts[b] as usize);
                        out.extend_from_slice(&self.order[from..to]);
                    }
                }
            }
            Layout::Hashed => {
                let mask = (self.starts.len() - 2) as u32;
                for dz in -1..=1 {
                    for &dy in dys {
                        for dx in -1..=1 {
                            let nc = [c[0] + dx, c[1] + dy, c[2] + dz];
                            let nb = hash(nc, mask) as usize;
                            let list =
                                &self.order[self.starts[nb] as usize..self.starts[nb + 1] as usize];
                            // A bucket shared by several cells lists other cells' boids.
                            out.extend(list.iter().filter(|&&j| self.cell[j as usize] == nc));
                        }
                    }
                }
            }
        }
        self.around = out;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boids_core::Rng;
    use boids_core::fmath::Extremes;

    /// The boids around every boid's cell, as `Grid::gather_around` lists them.
    fn around_all(grid: &mut Grid, dys: &[i32]) -> Vec<Vec<u32>> {
        (0..grid.cell.len())
            .map(|i| {
                grid.gather_around(grid.cell[i], dys);
                grid.around.clone()
            })
            .collect()
    }

    /// A dense grid lists the same boids in the same order as a hashed one (the pass's order,
    /// and so its bits, do not depend on the layout), flat and in 3-D, and a flock spread far
    /// wider than it has boids falls back to hashing.
    #[test]
    fn dense_and_hashed_grids_list_the_same_neighbours() {
        let mut rng = Rng::keyed(7, 0, 0, 1);
        let crowd: Vec<Vec3> = (0..3_000)
            .map(|_| {
                Vec3::new(
                    rng.range(-18.0, 18.0),
                    rng.range(-0.7, 0.7),
                    rng.range(-18.0, 18.0),
                )
            })
            .collect();
        for (flat, dys) in [(true, &[0][..]), (false, &[-1, 0, 1][..])] {
            let (mut dense, mut hashed) = (Grid::default(), Grid::default());
            dense.build(&crowd, 1.0 / 0.8, flat);
            hashed.build_as(&crowd, 1.0 / 0.8, flat, false);
            assert!(matches!(dense.layout, Layout::Dense { .. }));
            assert!(matches!(hashed.layout, Layout::Hashed));
            let listed = around_all(&mut dense, dys);
            assert_eq!(listed, around_all(&mut hashed, dys));
            // Every boid lists itself and its neighbours within a cell.
            for (i, l) in listed.iter().enumerate() {
                assert!(l.contains(&(i as u32)));
                for j in 0..crowd.len() {
                    if (crowd[i] - crowd[j]).abs().largest() < 0.8 {
                        assert!(l.contains(&(j as u32)), "{i} misses {j}");
                    }
                }
            }
        }
        // A grid refreshed after some boids moved (within the box and out of it) is the one
        // a build makes.
        for (flat, far) in [(true, 0.5), (false, 0.5), (true, 3.0), (false, 30.0)] {
            let mut moved = crowd.clone();
            let mut grid = Grid::default();
            grid.build(&moved, 1.0 / 0.8, flat);
            let mut who = vec![false; crowd.len()];
            for round in 0..3 {
                for (i, p) in moved.iter_mut().enumerate() {
                    if (i + round) % 37 == 0 {
                        who[i] = true;
                        *p += Vec3::new(
                            rng.range(-far, far),
                            rng.range(-far, far),
                            rng.range(-far, far),
                        );
                    }
                }
                grid.refresh(&moved, 1.0 / 0.8, flat, &who);
                let mut built = Grid::default();
                built.build(&moved, 1.0 / 0.8, flat);
                assert_eq!(
                    (&grid.cell, &grid.bucket, &grid.order, &grid.starts),
                    (&built.cell, &built.bucket, &built.order, &built.starts),
                    "flat {flat}, moves up to {far}, round {round}"
                );
            }
        }
        let spread = [Vec3::ZERO, Vec3::splat(1.0e6), Vec3::new(-1.0e6, 0.0, 3.0)];
        let mut grid = Grid::default();
        grid.build(&spread, 1.0, false);
        assert!(matches!(grid.layout, Layout::Hashed));
        assert_eq!(
            around_all(&mut grid, &[-1, 0, 1]),
            vec![vec![0], vec![1], vec![2]]
        );
    }
}
