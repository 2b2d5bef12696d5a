//! A heightfield as a grid: its heights, and a min/max pyramid over blocks of cells. Casts walk
//! the pyramid as an implicit quadtree, front to back, and test the two triangles of each cell
//! they reach; no triangle list or triangle hierarchy is stored (a 2049 x 2049 field holds its
//! 16 MB of heights and about 11 MB of pyramid).
//!
//! Triangle `k` of the field is cell `k / 2` (row-major, x fastest), its lower triangle
//! `(00, 10, 11)` for an even `k` and its upper one `(00, 11, 01)` for an odd `k`, with the
//! same vertices, in world space, as a triangle mesh of the grid placed the same way: so a cast
//! gives the bits the brute force over every triangle gives, ties to the lowest index.

use super::bvh::{reaches, slab};
use super::prim::sweep_triangle;
use super::{Aabb, CastHit, keep_nearest};
use crate::fmath::Order;
use crate::fmath::floor_i32;
use glam::Vec3;

/// A heightfield's grid: `columns × rows` heights, row after row (x fastest), a cell
/// `cell_x × cell_z`; sample `(i, j)` is at `(i cell_x, height, j cell_z)` in the shape's own
/// space. Each cell is split along its diagonal from `(i, j)` to `(i + 1, j + 1)`.
#[derive(Clone, Debug, PartialEq)]
pub struct HeightGrid {
    /// Samples along x (at least 2).
    pub columns: u32,
    /// Samples along z (at least 2).
    pub rows: u32,
    /// Spacing along x (> 0).
    pub cell_x: f32,
    /// Spacing along z (> 0).
    pub cell_z: f32,
    /// `columns × rows` heights, row `j` (z) after row `j - 1`, x fastest.
    pub heights: Vec<f32>,
}

impl HeightGrid {
    /// The surface height at `(x, z)` of the shape's space, on the triangle the point falls in;
    /// `None` outside the grid.
    pub fn height_at(&self, x: f32, z: f32) -> Option<f32> {
        self.surface_at(x, z).map(|(h, _)| h)
    }

    /// The surface height at `(x, z)` of the shape's space and the triangle (in the module's
    /// numbering) the point falls in; `None` outside the grid. A point on the diagonal or on a
    /// cell's edge belongs to one triangle, so every point of the grid has exactly one answer.
    pub fn surface_at(&self, x: f32, z: f32) -> Option<(f32, u32)> {
        let fx = x / self.cell_x;
        let fz = z / self.cell_z;
        let (cols, rows) = ((self.columns - 1) as f32, (self.rows - 1) as f32);
        if !(fx >= 0.0 && fz >= 0.0 && fx <= cols && fz <= rows) {
            return None;
        }
        let i = (fx as u32).min(self.columns - 2);
        let j = (fz as u32).min(self.rows - 2);
        let u = fx - i as f32;
        let v = fz - j as f32;
        let h = |i: u32, j: u32| self.heights[(j * self.columns + i) as usize];
        let (h00, h10, h01, h11) = (h(i, j), h(i + 1, j), h(i, j + 1), h(i + 1, j + 1));
        let cell = j * (self.columns - 1) + i;
        // The diagonal from (i, j) to (i + 1, j + 1): below it (u >= v) the triangle
        // (00, 10, 11), above it (00, 11, 01).
        Some(if u >= v {
            (h00 + (h10 - h00) * u + (h11 - h10) * v, 2 * cell)
        } else {
            (h00 + (h11 - h01) * u + (h01 - h00) * v, 2 * cell + 1)
        })
    }

    /// Cells along x and z.
    #[inline]
    pub(crate) fn cells(&self) -> (u32, u32) {
        (self.columns - 1, self.rows - 1)
    }

    /// Sample `(i, j)` in the shape's space (the vertex a mesh of the grid would have).
    #[inline]
    pub(crate) fn vertex(&self, i: u32, j: u32) -> Vec3 {
        Vec3::new(
            i as f32 * self.cell_x,
            self.heights[(j * self.columns + i) as usize],
            j as f32 * self.cell_z,
        )
    }

    /// The sample indices of triangle `k` (see the module's numbering).
    #[inline]
    pub(crate) fn triangle(&self, k: u32) -> [u32; 3] {
        let cell = k / 2;
        let (i, j) = (cell % (self.columns - 1), cell / (self.columns - 1));
        let v00 = j * self.columns + i;
        let (v10, v01, v11) = (v00 + 1, v00 + self.columns, v00 + self.columns + 1);
        if k.is_multiple_of(2) {
            [v00, v10, v11]
        } else {
            [v00, v11, v01]
        }
    }

    /// Sample `v` (an index into `heights`) in the shape's space.
    #[inline]
    pub(crate) fn sample(&self, v: u32) -> Vec3 {
        self.vertex(v % self.columns, v / self.columns)
    }
}

/// Min and max heights over blocks of `2^l × 2^l` cells, for `l = 1, 2, …` up to the level of a
/// single block (level 0, the cells, is read from the heights).
#[derive(Clone, Debug, Default)]
pub(crate) struct Pyramid {
    /// Level `l` at `levels[l - 1]`: blocks along x and z, and `[min, max]` row-major.
    levels: Vec<(u32, u32, Vec<[f32; 2]>)>,
}

impl Pyramid {
    /// The pyramid of `g`.
    pub fn build(g: &HeightGrid) -> Pyramid {
        let (cx, cz) = g.cells();
        let mut levels: Vec<(u32, u32, Vec<[f32; 2]>)> = Vec::new();
        loop {
            let l = levels.len() as u32 + 1;
            let (w, h) = (cx.div_ceil(1 << l), cz.div_ceil(1 << l));
            let mut mm = Vec::with_capacity(w as usize * h as usize);
            for bj in 0..h {
                for bi in 0..w {
                    let mut lo = f32::INFINITY;
                    let mut hi = f32::NEG_INFINITY;
                    if l == 1 {
                        // The samples of up to 2 x 2 cells.
                        for j in 2 * bj..=(2 * bj + 2).min(cz) {
                            let row = &g.heights[(j * g.columns) as usize..];
                            for &y in &row[(2 * bi) as usize..=(2 * bi + 2).min(cx) as usize] {
                                lo = lo.at_most(y);
                                hi = hi.at_least(y);
                            }
                        }
                    } else {
                        let (pw, ph, prev) = &levels[l as usize - 2];
                        for j in 2 * bj..(2 * bj + 2).min(*ph) {
                            for i in 2 * bi..(2 * bi + 2).min(*pw) {
                                let [a, b] = prev[(j * pw + i) as usize];
                                lo = lo.at_most(a);
                                hi = hi.at_least(b);
                            }
                        }
                    }
                    mm.push([lo, hi]);
                }
            }
            levels.push((w, h, mm));
            if w == 1 && h == 1 {
                return Pyramid { levels };
            }
        }
    }

    /// Heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.levels.iter().map(|(_, _, m)| m.capacity() * 8).sum()
    }

    /// The lowest and highest height of block `(i, j)` of `level` (level 0: cell `(i, j)`, from
    /// its four samples).
    #[inline]
    fn heights(&self, g: &HeightGrid, level: u32, i: u32, j: u32) -> (f32, f32) {
        if level == 0 {
            let h = |i: u32, j: u32| g.heights[(j * g.columns + i) as usize];
            let (a, b, c, e) = (h(i, j), h(i + 1, j), h(i, j + 1), h(i + 1, j + 1));
            (
                a.at_most(b).at_most(c.at_most(e)),
                a.at_least(b).at_least(c.at_least(e)),
            )
        } else {
            let (w, _, mm) = &self.levels[level as usize - 1];
            let [lo, hi] = mm[(j * w + i) as usize];
            (lo, hi)
        }
    }

    /// The top level (a single block covering the grid).
    fn top(&self) -> u32 {
        self.levels.len() as u32
    }
}

/// What a cast needs in the shape's space: the sweep there and the margin nodes are grown by.
pub(crate) struct Local {
    pub o: Vec3,
    pub d: Vec3,
    pub inv: Vec3,
    pub grow: Vec3,
}

/// The block [`traverse`] starts from: `(level, i, j)`, the smallest block of the pyramid
/// (level 0: a cell) holding every cell that the sweep's bounds in the shape's space, grown by
/// `local.grow`, overlap; the root when they are not finite or leave the grid.
fn start_block(g: &HeightGrid, top: u32, local: &Local, max: f32) -> (u32, u32, u32) {
    let root = (top, 0, 0);
    let (cx, cz) = g.cells();
    let Local { o, d, grow, .. } = *local;
    let end = o + d * max;
    let (lo, hi) = (o.at_most(end) - grow, o.at_least(end) + grow);
    let cell = |v: f32, size: f32, n: u32| -> Option<u32> {
        let c = (v / size).floor();
        (c >= 0.0 && c < n as f32).then_some(c as u32)
    };
    let (Some(i0), Some(i1), Some(j0), Some(j1)) = (
        cell(lo.x, g.cell_x, cx),
        cell(hi.x, g.cell_x, cx),
        cell(lo.z, g.cell_z, cz),
        cell(hi.z, g.cell_z, cz),
    ) else {
        return root;
    };
    let mut level = 0;
    while level < top && ((i0 >> level) != (i1 >> level) || (j0 >> level) != (j1 >> level)) {
        level += 1;
    }
    if level >= top {
        return root;
    }
    (level, i0 >> level, j0 >> level)
}

/// The box of cells `[i0, i1) x [j0, j1)` of `g` with heights `[lo, hi]`, in the shape's space:
/// what [`traverse`] and [`misses_nearby`] test a block or a cell by.
#[inline]
fn block_box(g: &HeightGrid, (i0, j0): (u32, u32), (i1, j1): (u32, u32), lo: f32, hi: f32) -> Aabb {
    Aabb {
        lo: Vec3::new(i0 as f32 * g.cell_x, lo, j0 as f32 * g.cell_z),
        hi: Vec3::new(i1 as f32 * g.cell_x, hi, j1 as f32 * g.cell_z),
    }
}

/// The most cells a side [`misses_nearby`] looks at: a walking boid's probes cross one or two.
const NEARBY_CELLS: i64 = 5;

/// Whether a short sweep certainly hits nothing, decided cell by cell instead of by a walk down
/// the pyramid: every cell its bounds (grown as the nodes are, and by a margin far above the
/// rounding of the cell numbers) overlap fails the box test [`traverse`] puts a cell to before
/// its triangles (the same [`slab`] on the same box, with a limit no shorter). A cell outside
/// those bounds fails that test as well, and the traversal reaches a cell's triangles only
/// through it: so `true` is the traversal's own answer, `None`. `false` (a cell passes, a long
/// sweep, bounds not finite) decides nothing.
fn misses_nearby(g: &HeightGrid, p: &Pyramid, local: &Local, max: f32) -> bool {
    let Local { o, d, inv, grow } = *local;
    let end = o + d * max;
    let (lo, hi) = (o.at_most(end) - grow, o.at_least(end) + grow);
    if !(lo.is_finite() && hi.is_finite()) {
        return false;
    }
    let (cx, cz) = g.cells();
    // The cells over `a..=b` along one axis (widened by a margin far above the rounding of
    // these numbers), clipped to the grid: `None` for too many, an empty range for none.
    let cells = |a: f32, b: f32, size: f32, n: u32| -> Option<(i64, i64)> {
        let m = 1.0e-5 * (a.abs() + b.abs() + size);
        let first = i64::from(floor_i32((a - m) / size)).max(0);
        let last = i64::from(floor_i32((b + m) / size)).min(i64::from(n) - 1);
        (last - first < NEARBY_CELLS).then_some((first, last))
    };
    let (Some((i0, i1)), Some((j0, j1))) = (
        cells(lo.x, hi.x, g.cell_x, cx),
        cells(lo.z, hi.z, g.cell_z, cz),
    ) else {
        return false;
    };
    if i1 < i0 || j1 < j0 {
        // Not over the grid.
        return true;
    }
    let (i0, i1, j0, j1) = (i0 as u32, i1 as u32, j0 as u32, j1 as u32);
    // First the box over them all (its heights the samples' extremes): it holds every cell's
    // box, so a sweep that misses it misses each. (Heights are finite: plain comparisons.)
    let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
    for j in j0..=j1 + 1 {
        let row = (j * g.columns) as usize;
        for &y in &g.heights[row + i0 as usize..=row + i1 as usize + 1] {
            low = if y < low { y } else { low };
            high = if y > high { y } else { high };
        }
    }
    let all = block_box(g, (i0, j0), (i1 + 1, j1 + 1), low, high);
    if slab(all.lo, all.hi, grow, o, d, inv, max).is_none() {
        return true;
    }
    for j in j0..=j1 {
        for i in i0..=i1 {
            let (low, high) = p.heights(g, 0, i, j);
            let cell = block_box(g, (i, j), (i + 1, j + 1), low, high);
            if slab(cell.lo, cell.hi, grow, o, d, inv, max).is_some() {
                return false;
            }
        }
    }
    true
}

/// The first hit (or, with `ANY`, the first found) of a sphere of radius `r` swept from the
/// world `origin` along `dir` for up to `max` against the field `g` with pyramid `p`, whose
/// samples `world` puts in world space; `local` is the sweep in the shape's space.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn traverse<const ANY: bool>(
    g: &HeightGrid,
    p: &Pyramid,
    world: &impl Fn(Vec3) -> Vec3,
    local: &Local,
    origin: Vec3,
    r: f32,
    dir: Vec3,
    max: f32,
) -> Option<(CastHit, u32)> {
    let Local { o, d, inv, grow } = *local;
    let (cx, cz) = g.cells();
    if misses_nearby(g, p, local, max) {
        return None;
    }
    let mut best: Option<(CastHit, u32)> = None;
    let mut limit = max;
    // The search starts at the smallest block holding every cell the sweep's bounds (grown as
    // the nodes are) overlap: every triangle it can touch is in there, so the hits, and the
    // order they are found in, are the root's; a short cast skips the levels above.
    let (level, bi, bj) = start_block(g, p.top(), local, max);
    let (lo, hi) = p.heights(g, level, bi, bj);
    let (i1, j1) = (((bi + 1) << level).min(cx), ((bj + 1) << level).min(cz));
    let b = block_box(g, (bi << level, bj << level), (i1, j1), lo, hi);
    let t = slab(b.lo, b.hi, grow, o, d, inv, limit)?;
    // (entry distance, level, block i, block j); level 0 is a cell. A node pops one entry and
    // pushes at most four: at most 1 + 3 x 25 entries, 2^26 samples allowing fewer than 2^25
    // cells a side (25 levels).
    let mut stack: [(f32, u32, u32, u32); 96] = [(0.0, 0, 0, 0); 96];
    stack[0] = (t, level, bi, bj);
    let mut n = 1usize;
    while n > 0 {
        n -= 1;
        let (t, level, bi, bj) = stack[n];
        if t > limit {
            continue;
        }
        if level == 0 {
            // One cell: its two triangles, lower index first.
            let (i, j) = (bi, bj);
            let v00 = world(g.vertex(i, j));
            let v10 = world(g.vertex(i + 1, j));
            let v01 = world(g.vertex(i, j + 1));
            let v11 = world(g.vertex(i + 1, j + 1));
            let k0 = 2 * (j * cx + i);
            for (k, (a, b, c)) in [(k0, (v00, v10, v11)), (k0 + 1, (v00, v11, v01))] {
                if let Some(h) = sweep_triangle(origin, r, dir, limit, a, b, c) {
                    if ANY {
                        return Some((h, k));
                    }
                    keep_nearest(&mut best, &mut limit, h, k);
                }
            }
            continue;
        }
        // The children: up to four blocks of the level below (cells below level 1).
        let mut kids: [(f32, u32, u32); 4] = [(f32::INFINITY, 0, 0); 4];
        let mut m = 0usize;
        let child = level - 1;
        for (ci, cj) in [
            (2 * bi, 2 * bj),
            (2 * bi + 1, 2 * bj),
            (2 * bi, 2 * bj + 1),
            (2 * bi + 1, 2 * bj + 1),
        ] {
            let (i0, j0) = (ci << child, cj << child);
            if i0 >= cx || j0 >= cz {
                continue;
            }
            let (i1, j1) = (((ci + 1) << child).min(cx), ((cj + 1) << child).min(cz));
            let (lo, hi) = p.heights(g, child, ci, cj);
            let b = block_box(g, (i0, j0), (i1, j1), lo, hi);
            if let Some(t) = slab(b.lo, b.hi, grow, o, d, inv, limit)
                && reaches(b.lo, b.hi, grow, o, d, limit)
            {
                kids[m] = (t, ci, cj);
                m += 1;
            }
        }
        // Nearest last on the stack (popped first); a fixed order for equal entries.
        kids[..m].sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then((b.1, b.2).cmp(&(a.1, a.2))));
        for &(t, ci, cj) in &kids[..m] {
            stack[n] = (t, child, ci, cj);
            n += 1;
        }
    }
    best
}
