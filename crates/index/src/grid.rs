//! Uniform grid: boids counting-sorted into cells no smaller than the radius, with positions,
//! velocities and headings copied contiguously in cell order (structure of arrays), so a query
//! scans a few short, dense runs of memory.

use crate::{Hit, NeighbourIndex, Period, Points, offset};
use boids_core::kernel::{CandidateSlices, LANES};
use glam::Vec3;
use rayon::prelude::*;
use std::ops::Range;

/// Uniform-grid neighbour search.
#[derive(Default)]
pub struct Grid {
    min: Vec3,
    inv_cell: Vec3,
    dims: [u32; 3],
    /// `cell_start[c]..cell_start[c + 1]` are the slots of cell `c`.
    cell_start: Vec<u32>,
    px: Vec<f32>,
    py: Vec<f32>,
    pz: Vec<f32>,
    vx: Vec<f32>,
    vy: Vec<f32>,
    vz: Vec<f32>,
    hx: Vec<f32>,
    hy: Vec<f32>,
    hz: Vec<f32>,
    /// Original index of each slot.
    original: Vec<u32>,
    /// Slot of each original index (the inverse of `original`).
    rank: Vec<u32>,
    period: Option<Period>,
}

/// Scratch for [`Grid::gather_candidates`]: the boids of a cell's neighbourhood, structure of
/// arrays, padded to a multiple of [`LANES`].
#[derive(Default, Clone)]
pub struct CandidateBuf {
    x: Vec<f32>,
    y: Vec<f32>,
    z: Vec<f32>,
    vx: Vec<f32>,
    vy: Vec<f32>,
    vz: Vec<f32>,
    hx: Vec<f32>,
    hy: Vec<f32>,
    hz: Vec<f32>,
    slot: Vec<u32>,
    /// Block index of the first boid of the cell the block was gathered for.
    own_base: usize,
    len: usize,
}

impl CandidateBuf {
    /// The gathered candidates.
    pub fn slices(&self) -> CandidateSlices<'_> {
        CandidateSlices {
            x: &self.x,
            y: &self.y,
            z: &self.z,
            vx: &self.vx,
            vy: &self.vy,
            vz: &self.vz,
            hx: &self.hx,
            hy: &self.hy,
            hz: &self.hz,
        }
    }

    /// Grid slot of each candidate (filled only when asked for; padding is `u32::MAX`).
    pub fn slots(&self) -> &[u32] {
        &self.slot
    }

    /// Index in the block of the boid in `slot` of the cell the block was gathered for.
    pub fn own_index(&self, slot_in_cell: usize) -> usize {
        self.own_base + slot_in_cell
    }

    fn clear(&mut self) {
        for v in [
            &mut self.x,
            &mut self.y,
            &mut self.z,
            &mut self.vx,
            &mut self.vy,
            &mut self.vz,
            &mut self.hx,
            &mut self.hy,
            &mut self.hz,
        ] {
            v.clear();
        }
        self.len = 0;
        self.own_base = usize::MAX;
    }
}

/// Cells allowed per point before the cell size grows (bounds memory for sparse flocks).
const MAX_CELLS_PER_POINT: usize = 4;
/// Parallel chunk length for per-point passes.
const CHUNK: usize = 4096;

impl Grid {
    /// Approximate heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        let f = |v: &Vec<f32>| v.capacity() * 4;
        f(&self.px)
            + f(&self.py)
            + f(&self.pz)
            + f(&self.vx)
            + f(&self.vy)
            + f(&self.vz)
            + f(&self.hx)
            + f(&self.hy)
            + f(&self.hz)
            + (self.original.capacity() + self.rank.capacity() + self.cell_start.capacity()) * 4
    }

    /// Cells along each axis.
    pub fn dims(&self) -> [u32; 3] {
        self.dims
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.cell_start.len().saturating_sub(1)
    }

    /// Slots of cell `c`.
    pub fn cell_slots(&self, c: usize) -> Range<usize> {
        self.cell_start[c] as usize..self.cell_start[c + 1] as usize
    }

    /// First slot of each cell, and one past the last slot at the end.
    pub fn cell_starts(&self) -> &[u32] {
        &self.cell_start
    }

    /// Original index of each slot (cell order).
    pub fn original(&self) -> &[u32] {
        &self.original
    }

    /// Slot of each original index.
    pub fn rank(&self) -> &[u32] {
        &self.rank
    }

    /// Position in `slot` (wrapped into the period, if any).
    #[inline]
    pub fn position(&self, slot: usize) -> Vec3 {
        Vec3::new(self.px[slot], self.py[slot], self.pz[slot])
    }

    /// The period the grid was built with.
    pub fn period(&self) -> Option<Period> {
        self.period
    }

    #[inline(always)]
    fn cell_coord(&self, p: Vec3) -> [i64; 3] {
        let mut rel = p - self.min;
        if let Some(per) = &self.period {
            rel = rel.rem_euclid(per.size);
        }
        let c = rel * self.inv_cell;
        [c.x.floor() as i64, c.y.floor() as i64, c.z.floor() as i64]
    }

    /// Cell of a point known to lie inside the grid's box (coordinates ≥ min): truncation is
    /// floor there, and cheaper.
    #[inline(always)]
    fn cell_of_inside(&self, p: Vec3) -> u32 {
        let c = (p - self.min) * self.inv_cell;
        let x = (c.x.max(0.0) as u32).min(self.dims[0] - 1);
        let y = (c.y.max(0.0) as u32).min(self.dims[1] - 1);
        let z = (c.z.max(0.0) as u32).min(self.dims[2] - 1);
        self.cell_index(x, y, z) as u32
    }

    #[inline(always)]
    fn cell_index(&self, x: u32, y: u32, z: u32) -> usize {
        ((z as usize * self.dims[1] as usize) + y as usize) * self.dims[0] as usize + x as usize
    }

    fn choose_layout(&mut self, positions: &[Vec3], radius: f32) {
        let n = positions.len();
        let max_cells = (n * MAX_CELLS_PER_POINT + 64) as f64;
        let (min, extent) = match &self.period {
            Some(per) => (per.min, per.size),
            None => {
                let (lo, hi) = positions
                    .par_chunks(CHUNK)
                    .map(|c| {
                        c.iter().fold(
                            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
                            |(lo, hi), &p| (lo.min(p), hi.max(p)),
                        )
                    })
                    .reduce(
                        || (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
                        |a, b| (a.0.min(b.0), a.1.max(b.1)),
                    );
                if n == 0 {
                    (Vec3::ZERO, Vec3::ZERO)
                } else {
                    (lo, hi - lo)
                }
            }
        };
        let mut cell = if radius > 0.0 && radius.is_finite() {
            f64::from(radius)
        } else {
            f64::from(extent.max_element()).max(1.0)
        };
        let periodic = self.period.is_some();
        let dims_for = |cell: f64| -> [u64; 3] {
            let e = extent.to_array();
            std::array::from_fn(|i| {
                let k = (f64::from(e[i]) / cell).floor();
                let k = if periodic { k.max(1.0) } else { k + 1.0 };
                k.min(1e9) as u64
            })
        };
        let mut dims = dims_for(cell);
        while (dims[0] * dims[1] * dims[2]) as f64 > max_cells {
            let over = (dims[0] * dims[1] * dims[2]) as f64 / max_cells;
            cell *= over.cbrt().max(1.01);
            dims = dims_for(cell);
        }
        self.dims = dims.map(|d| d.max(1) as u32);
        self.min = min;
        self.inv_cell = if periodic {
            // Cells divide the periodic box exactly; each is at least the radius wide.
            Vec3::from_array(std::array::from_fn(|i| self.dims[i] as f32 / extent[i]))
        } else {
            // Rounded down so a cell is never narrower than `cell` ≥ radius.
            Vec3::splat((1.0 / cell) as f32 * (1.0 - f32::EPSILON))
        };
    }

    /// Calls `f` with each run of slots in the cells within `reach` cells of cell `c`, every
    /// cell once (periodic axes with fewer than `2 reach + 1` cells are scanned whole).
    #[inline(always)]
    fn runs<F: FnMut(usize, usize)>(&self, c: [i64; 3], reach: [i64; 3], mut f: F) {
        let mut ranges: [[(u32, u32); 2]; 3] = [[(0, 0); 2]; 3];
        let mut counts = [0usize; 3];
        for axis in 0..3 {
            let dim = i64::from(self.dims[axis]);
            let r = reach[axis];
            if self.period.is_some() {
                if 2 * r + 1 >= dim {
                    ranges[axis][0] = (0, dim as u32 - 1);
                    counts[axis] = 1;
                } else {
                    let lo = (c[axis] - r).rem_euclid(dim);
                    let hi = (c[axis] + r).rem_euclid(dim);
                    if lo <= hi {
                        ranges[axis][0] = (lo as u32, hi as u32);
                        counts[axis] = 1;
                    } else {
                        ranges[axis] = [(lo as u32, dim as u32 - 1), (0, hi as u32)];
                        counts[axis] = 2;
                    }
                }
            } else {
                let lo = (c[axis] - r).max(0);
                let hi = (c[axis] + r).min(dim - 1);
                if lo > hi {
                    return;
                }
                ranges[axis][0] = (lo as u32, hi as u32);
                counts[axis] = 1;
            }
        }
        for &(z0, z1) in &ranges[2][..counts[2]] {
            for z in z0..=z1 {
                for &(y0, y1) in &ranges[1][..counts[1]] {
                    for y in y0..=y1 {
                        for &(x0, x1) in &ranges[0][..counts[0]] {
                            let s0 = self.cell_start[self.cell_index(x0, y, z)] as usize;
                            let s1 = self.cell_start[self.cell_index(x1, y, z) + 1] as usize;
                            if s0 < s1 {
                                f(s0, s1);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Fills `buf` with every boid in cell `c` and its 26 neighbours (the candidates for any boid
    /// of cell `c` at the build radius), padded to a multiple of [`LANES`].
    /// Neighbours' headings are copied only when `with_headings` (and the grid has them), their
    /// slots only when `with_slots`.
    pub fn gather_candidates(
        &self,
        c: usize,
        buf: &mut CandidateBuf,
        with_headings: bool,
        with_slots: bool,
    ) {
        buf.clear();
        let nx = self.dims[0] as usize;
        let ny = self.dims[1] as usize;
        let cc = [
            (c % nx) as i64,
            ((c / nx) % ny) as i64,
            (c / (nx * ny)) as i64,
        ];
        let heads = with_headings && !self.hx.is_empty();
        let own_start = self.cell_start[c] as usize;
        let mut runs = [(0usize, 0usize); 27];
        let mut nr = 0;
        let mut total = 0;
        self.runs(cc, [1, 1, 1], |s0, s1| {
            if (s0..s1).contains(&own_start) {
                buf.own_base = total + (own_start - s0);
            }
            runs[nr] = (s0, s1);
            nr += 1;
            total += s1 - s0;
        });
        let padded = total.div_ceil(LANES) * LANES;
        buf.len = total;
        let fill = |v: &mut Vec<f32>, pad: f32, src: &[f32]| {
            v.resize(padded, pad);
            let mut at = 0;
            for &(s0, s1) in &runs[..nr] {
                for (d, &x) in v[at..at + s1 - s0].iter_mut().zip(&src[s0..s1]) {
                    *d = x;
                }
                at += s1 - s0;
            }
            v[total..].fill(pad);
        };
        fill(&mut buf.x, f32::INFINITY, &self.px);
        fill(&mut buf.y, f32::INFINITY, &self.py);
        fill(&mut buf.z, f32::INFINITY, &self.pz);
        fill(&mut buf.vx, 0.0, &self.vx);
        fill(&mut buf.vy, 0.0, &self.vy);
        fill(&mut buf.vz, 0.0, &self.vz);
        if heads {
            fill(&mut buf.hx, 0.0, &self.hx);
            fill(&mut buf.hy, 0.0, &self.hy);
            fill(&mut buf.hz, 0.0, &self.hz);
        }
        buf.slot.clear();
        if with_slots {
            for &(s0, s1) in &runs[..nr] {
                buf.slot.extend(s0 as u32..s1 as u32);
            }
            buf.slot.resize(padded, u32::MAX);
        }
    }
}

fn gather_soa(dst: [&mut Vec<f32>; 3], src: &[Vec3], original: &[u32], wrap: Option<&Period>) {
    let [dx, dy, dz] = dst;
    let n = if src.is_empty() { 0 } else { original.len() };
    for d in [&mut *dx, &mut *dy, &mut *dz] {
        d.clear();
        d.resize(n, 0.0);
    }
    if n == 0 {
        return;
    }
    dx.par_chunks_mut(CHUNK)
        .zip(dy.par_chunks_mut(CHUNK))
        .zip(dz.par_chunks_mut(CHUNK))
        .zip(original.par_chunks(CHUNK))
        .for_each(|(((x, y), z), orig)| {
            for k in 0..orig.len() {
                let mut p = src[orig[k] as usize];
                if let Some(per) = wrap {
                    p = per.wrap(p);
                }
                x[k] = p.x;
                y[k] = p.y;
                z[k] = p.z;
            }
        });
}

impl NeighbourIndex for Grid {
    fn build(&mut self, points: Points<'_>, radius: f32, period: Option<Period>) {
        let n = points.positions.len();
        self.period = period;
        self.choose_layout(points.positions, radius);
        let cells = self.dims.iter().map(|&d| d as usize).product::<usize>();

        // Cell of every point (kept in `rank` until the scatter overwrites it with the slot).
        self.rank.clear();
        self.rank.resize(n, 0);
        {
            let mut rank = std::mem::take(&mut self.rank);
            let this = &*self;
            rank.par_chunks_mut(CHUNK)
                .zip(points.positions.par_chunks(CHUNK))
                .for_each(|(out, ps)| {
                    for (o, &p) in out.iter_mut().zip(ps) {
                        let p = match &this.period {
                            Some(per) => per.wrap(p),
                            None => p,
                        };
                        *o = this.cell_of_inside(p);
                    }
                });
            self.rank = rank;
        }
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        for &c in &self.rank {
            self.cell_start[c as usize + 1] += 1;
        }
        for c in 0..cells {
            self.cell_start[c + 1] += self.cell_start[c];
        }
        // Stable scatter: within a cell, points keep their original order.
        self.original.clear();
        self.original.resize(n, 0);
        let mut cursor = self.cell_start[..cells].to_vec();
        for (j, c) in self.rank.iter_mut().enumerate() {
            let s = &mut cursor[*c as usize];
            self.original[*s as usize] = j as u32;
            *c = *s;
            *s += 1;
        }
        let per = self.period;
        gather_soa(
            [&mut self.px, &mut self.py, &mut self.pz],
            points.positions,
            &self.original,
            per.as_ref(),
        );
        gather_soa(
            [&mut self.vx, &mut self.vy, &mut self.vz],
            points.velocities,
            &self.original,
            None,
        );
        gather_soa(
            [&mut self.hx, &mut self.hy, &mut self.hz],
            points.headings,
            &self.original,
            None,
        );
    }

    fn len(&self) -> usize {
        self.px.len()
    }

    #[inline]
    fn velocity(&self, slot: u32) -> Vec3 {
        let s = slot as usize;
        Vec3::new(self.vx[s], self.vy[s], self.vz[s])
    }

    #[inline]
    fn heading(&self, slot: u32) -> Vec3 {
        let s = slot as usize;
        if self.hx.is_empty() {
            Vec3::ZERO
        } else {
            Vec3::new(self.hx[s], self.hy[s], self.hz[s])
        }
    }

    #[inline]
    fn for_each_within<F: FnMut(Hit)>(&self, q: Vec3, radius: f32, exclude: u32, mut f: F) {
        if self.px.is_empty() || radius.is_nan() {
            return;
        }
        let q = self.period.map_or(q, |per| per.wrap(q));
        let r2 = radius * radius;
        let qc = self.cell_coord(q);
        let reach: [i64; 3] = std::array::from_fn(|axis| {
            (f64::from(radius) * f64::from(self.inv_cell[axis]))
                .ceil()
                .min(1e9) as i64
        });
        let period = self.period.as_ref();
        self.runs(qc, reach, |s0, s1| {
            for s in s0..s1 {
                let o = offset(self.position(s), q, period);
                let d2 = o.length_squared();
                if d2 < r2 && self.original[s] != exclude {
                    f(Hit {
                        index: self.original[s],
                        slot: s as u32,
                        offset: o,
                        d2,
                    });
                }
            }
        });
    }
}
