//! [`Index`]: one flock's boids sorted by grid cell, with the query structures of its kind.

use crate::exec::{Exec, RayonExec, chunks_mut};
use crate::kernel::{self, PAD, Raw, Soa, Spec, dist2};
use crate::layout::{Layout, Run, counting_sort_with};
use crate::{Hit, NeighbourIndex, Period, Points, kdtree::Tree, offset};
use boids_core::fmath::{Extremes, Order};
use boids_core::{IndexKind, Neighbourhood, Vec3};

mod build;
mod walk;

/// Below this many boids a build runs on the calling thread: waking workers costs more than
/// the work.
pub const PARALLEL_MIN: usize = 2048;

/// Below this many boids a world steps on the calling thread, and a flock's step sums its
/// neighbourhoods in one piece. Lower than [`PARALLEL_MIN`]: a synchronous step keeps its
/// workers with it (no wake between its loops), and the sums are most of a step (2 threads,
/// Intel Xeon: 1,500 boids 0.175 -> 0.150 ms, 2,000 0.23 -> 0.16; even at 1,000; 700 boids
/// 0.08 -> 0.10, slower).
pub const STEP_PARALLEL_MIN: usize = 1024;

/// Scratch a thread reuses across queries (no allocation per query once warm).
#[derive(Default, Clone, Debug)]
pub struct Scratch {
    runs: Vec<Run>,
    block: Vec<u32>,
    list: Vec<u32>,
    /// Candidates as `d2 bits << 32 | slot` (so they order by distance, then slot).
    near: Vec<u64>,
}

/// A flock's boids in cell order, one array per coordinate (positions, velocities, headings:
/// what the kernel reads, eight slots at a time), and its neighbour-search structure: a uniform
/// grid, a k-d tree (kiddo) or none (brute force). Every kind hands the same kernel the same
/// candidates in ascending slot order, so every kind gives the same bits.
pub struct Index {
    kind: IndexKind,
    layout: Layout,
    cell_start: Vec<u32>,
    keys: Vec<u32>,
    order: Vec<u32>,
    /// Positions, velocities and headings by real axis, each `len + PAD` long.
    p: [Vec<f32>; 3],
    v: [Vec<f32>; 3],
    h: [Vec<f32>; 3],
    /// Axis permutation putting a flat axis last, and whether the third axis is needed.
    axes: [usize; 3],
    d3: bool,
    tree: Option<Tree>,
    radius: f32,
}

impl Default for Index {
    fn default() -> Self {
        Index::new(IndexKind::Grid)
    }
}

impl Index {
    /// An empty index of the given kind (`Auto` is the grid).
    pub fn new(kind: IndexKind) -> Self {
        Index {
            kind: match kind {
                IndexKind::Auto => IndexKind::Grid,
                k => k,
            },
            layout: Layout::default(),
            cell_start: vec![0, 0],
            keys: Vec::new(),
            order: Vec::new(),
            p: std::array::from_fn(|_| vec![f32::INFINITY; PAD]),
            v: std::array::from_fn(|_| vec![0.0; PAD]),
            h: std::array::from_fn(|_| vec![0.0; PAD]),
            axes: [0, 1, 2],
            d3: true,
            tree: None,
            radius: 0.0,
        }
    }

    /// Makes room for `n` boids in every per-boid array of a build, or fails without
    /// changing anything; a later build of at most `n` boids then allocates nothing per boid
    /// here (the k-d tree and the cell table aside).
    pub fn try_reserve(&mut self, n: usize) -> Result<(), std::collections::TryReserveError> {
        fn room<T>(v: &mut Vec<T>, n: usize) -> Result<(), std::collections::TryReserveError> {
            v.try_reserve(n.saturating_sub(v.len()))
        }
        room(&mut self.keys, n)?;
        room(&mut self.order, n)?;
        for c in self.p.iter_mut().chain(&mut self.v).chain(&mut self.h) {
            room(c, n + PAD)?;
        }
        Ok(())
    }

    /// The kind (never `Auto`).
    pub fn kind(&self) -> IndexKind {
        self.kind
    }

    /// Approximate heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        let u = |v: &Vec<u32>| v.capacity() * 4;
        u(&self.cell_start)
            + u(&self.keys)
            + u(&self.order)
            + self
                .p
                .iter()
                .chain(&self.v)
                .chain(&self.h)
                .map(|c| c.capacity() * 4)
                .sum::<usize>()
            + self.tree.as_ref().map_or(0, Tree::heap_bytes)
    }

    /// `order()[slot]`: the index, in the points the index was built from, of the boid in
    /// each slot (the cell order).
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// Position in `slot` (wrapped into the period, if any).
    #[inline]
    pub fn position(&self, slot: usize) -> Vec3 {
        Vec3::new(self.p[0][slot], self.p[1][slot], self.p[2][slot])
    }

    /// Velocity in `slot`.
    #[inline]
    pub fn velocity_at(&self, slot: usize) -> Vec3 {
        Vec3::new(self.v[0][slot], self.v[1][slot], self.v[2][slot])
    }

    /// Heading in `slot`.
    #[inline]
    pub fn heading_at(&self, slot: usize) -> Vec3 {
        Vec3::new(self.h[0][slot], self.h[1][slot], self.h[2][slot])
    }

    /// The grid layout (also built, for cell order, when the kind is not the grid).
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// `cell_starts()[c]..cell_starts()[c + 1]` are the slots of cell `c`.
    pub fn cell_starts(&self) -> &[u32] {
        &self.cell_start
    }

    /// The radius the index was built for.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The arrays as the kernel reads them, in its axis order.
    fn soa(&self) -> Soa<'_> {
        let [a, b, c] = self.axes;
        Soa::new(
            [&self.p[a], &self.p[b], &self.p[c]],
            [&self.v[a], &self.v[b], &self.v[c]],
            [&self.h[a], &self.h[b], &self.h[c]],
            self.d3,
        )
    }

    /// Everything the boid in `slot` sees of its flockmates: the sums over the others strictly
    /// within the perception radius and inside the field of view (or over the `k` nearest
    /// within the radius, when `k > 0`, ties by slot). `spec.r2` must be the build radius
    /// squared or less.
    pub fn neighbourhood(
        &self,
        slot: usize,
        spec: &Spec,
        k: usize,
        scratch: &mut Scratch,
    ) -> Neighbourhood {
        self.query_raw(slot, spec, k, scratch).hood(self.axes)
    }

    /// [`Index::neighbourhood`] as the kernel leaves it (kernel axis order).
    pub(crate) fn query_raw(
        &self,
        slot: usize,
        spec: &Spec,
        k: usize,
        scratch: &mut Scratch,
    ) -> Raw {
        let q = self.position(slot);
        let n = self.len();
        let radius = spec.r2.sqrt();
        match self.kind {
            IndexKind::KdTree => {
                let mut block = std::mem::take(&mut scratch.block);
                block.clear();
                if let Some(tree) = &self.tree {
                    tree.within(q, radius, self.layout.period.as_ref(), |j| block.push(j));
                }
                block.sort_unstable();
                block.dedup();
                let r = self.list_raw(slot, spec, k, &block, scratch);
                scratch.block = block;
                r
            }
            IndexKind::Grid => {
                // The chords the walk takes through the rows around the boid's own, where the
                // walk takes them (the same runs, so the same bits).
                let nx = self.layout.dims[0] as usize;
                let ny = self.layout.dims[1] as usize;
                let row = self.layout.key(q) as usize / nx;
                if let Some(rows) = self.layout.rows(row % ny, row / ny, radius) {
                    let chords = self.layout.chords(radius);
                    let mut runs = [(0u32, 0u32); 18];
                    let nr = self
                        .layout
                        .chord_runs(&chords, &rows, &self.cell_start, q, &mut runs);
                    return self.runs_raw(slot, spec, k, &runs[..nr], scratch);
                }
                let mut runs = std::mem::take(&mut scratch.runs);
                self.layout.runs(&self.cell_start, q, radius, &mut runs);
                let r = self.runs_raw(slot, spec, k, &runs, scratch);
                scratch.runs = runs;
                r
            }
            _ => self.runs_raw(slot, spec, k, &[(0, n as u32)], scratch),
        }
    }

    /// The kernel over `runs` (or over the `k` nearest of their slots, when `k > 0`).
    pub(crate) fn runs_raw(
        &self,
        slot: usize,
        spec: &Spec,
        k: usize,
        runs: &[Run],
        scratch: &mut Scratch,
    ) -> Raw {
        let size = kernel::kernel_size(self.axes, spec.period);
        let cands = runs.iter().flat_map(|&(a, b)| a as usize..b as usize);
        if k > 0 {
            let mut near = std::mem::take(&mut scratch.list);
            if self.layout.period.is_none() && k <= SMALL_K {
                self.nearest_in_runs(slot, k, spec.r2, runs, &mut near);
            } else {
                let total = runs.iter().map(|&(a, b)| (b - a) as usize).sum();
                self.keep_nearest(slot, k, spec.r2, cands, total, &mut near, &mut scratch.near);
            }
            let raw = kernel::one_boid(
                &self.soa(),
                spec,
                size,
                slot,
                near.iter().map(|&j| j as usize),
            );
            scratch.list = near;
            return raw;
        }
        kernel::one_boid(&self.soa(), spec, size, slot, cands)
    }

    /// The kernel over the candidate slots in `list` (ascending; any may be out of radius), or
    /// over the `k` nearest of them within the radius, when `k > 0`.
    pub(crate) fn list_raw(
        &self,
        slot: usize,
        spec: &Spec,
        k: usize,
        list: &[u32],
        scratch: &mut Scratch,
    ) -> Raw {
        let size = kernel::kernel_size(self.axes, spec.period);
        let soa = self.soa();
        if k > 0 {
            let mut near = std::mem::take(&mut scratch.list);
            let cands = list.iter().map(|&j| j as usize);
            self.keep_nearest(
                slot,
                k,
                spec.r2,
                cands,
                list.len(),
                &mut near,
                &mut scratch.near,
            );
            let raw = kernel::one_boid(&soa, spec, size, slot, near.iter().map(|&j| j as usize));
            scratch.list = near;
            return raw;
        }
        kernel::one_boid(&soa, spec, size, slot, list.iter().map(|&j| j as usize))
    }

    /// The sums the boid in `slot` gets from the given neighbour slots (ascending), with the
    /// field of view and separation tests but no radius test (the target-flock tutorial's
    /// nearest-boid fallback).
    pub fn neighbourhood_of(
        &self,
        slot: usize,
        neighbours: &[u32],
        spec: &Spec,
        scratch: &mut Scratch,
    ) -> Neighbourhood {
        let everywhere = Spec {
            r2: f32::INFINITY,
            ..*spec
        };
        self.list_raw(slot, &everywhere, 0, neighbours, scratch)
            .hood(self.axes)
    }

    /// Into `out`, the `k` nearest (k <= [`SMALL_K`]) of the candidates of `runs` strictly
    /// within `r2` of the boid in `slot` (itself excluded), ties by slot, in ascending slot
    /// order, without a wrapping space. Eight candidates at a time: their squared distances (a
    /// loop the compiler vectorizes), then, only when one of them is as near as the k-th best
    /// so far (once k are kept, few are), each offered to the k best.
    fn nearest_in_runs(&self, slot: usize, k: usize, r2: f32, runs: &[Run], out: &mut Vec<u32>) {
        const CH: usize = 8;
        let q = self.position(slot);
        let [px, py, pz] = &self.p;
        let mut best = Best::new(k, r2);
        for &(a, b) in runs {
            let (a, b) = (a as usize, b as usize);
            let mut j = a;
            while j < b {
                // The arrays run PAD >= 8 slots past the last boid, so eight slots from `j`
                // exist; the ones past the run or the boid itself get a NaN (never kept).
                let (Some(x), Some(y), Some(z)) =
                    (px.get(j..j + CH), py.get(j..j + CH), pz.get(j..j + CH))
                else {
                    unreachable!("the coordinate arrays are padded")
                };
                let mut d = [0u32; CH];
                for i in 0..CH {
                    // `dist2`'s sum, lane by lane.
                    let (dx, dy, dz) = (x[i] - q.x, y[i] - q.y, z[i] - q.z);
                    d[i] = ((dx * dx + dy * dy) + dz * dz).to_bits();
                }
                if j + CH > b {
                    d[b - j..].fill(f32::NAN.to_bits());
                }
                if let Some(own) = d.get_mut(slot.wrapping_sub(j)) {
                    *own = f32::NAN.to_bits();
                }
                let near = best.bound_bits();
                if d.iter().fold(false, |any, &d2| any | (d2 <= near)) {
                    for (i, &d2) in d.iter().enumerate() {
                        best.offer(f32::from_bits(d2), j + i);
                    }
                }
                j += CH;
            }
        }
        best.into_slots(out);
    }

    /// Into `out`, the `k` nearest of the candidates `list` strictly within `r2` of the boid in
    /// `slot` (itself excluded), ties by slot, in ascending slot order.
    #[allow(clippy::too_many_arguments)]
    fn keep_nearest(
        &self,
        slot: usize,
        k: usize,
        r2: f32,
        cands: impl Iterator<Item = usize>,
        total: usize,
        out: &mut Vec<u32>,
        near: &mut Vec<u64>,
    ) {
        let q = self.position(slot);
        let period = self.layout.period;
        let d2_of = |j: usize| match period {
            // Straight from the coordinate arrays (the common case: no wrapping space).
            None => {
                let [px, py, pz] = &self.p;
                dist2(Vec3::new(px[j] - q.x, py[j] - q.y, pz[j] - q.z))
            }
            Some(per) => dist2(offset(self.position(j), q, Some(&per))),
        };
        if k <= SMALL_K {
            let mut best = Best::new(k, r2);
            for j in cands {
                best.offer(if j == slot { f32::NAN } else { d2_of(j) }, j);
            }
            best.into_slots(out);
            return;
        }
        // Every candidate written, the count advanced only for those within `r2` (no branch
        // to mispredict: about a third of a boid's candidates are within its radius).
        near.clear();
        near.resize(total.max(1), 0);
        let last = total.max(1) - 1;
        let mut m = 0;
        for j in cands {
            let d2 = d2_of(j);
            // d2 >= 0, so its bits order like the number.
            near[m.min(last)] = (u64::from(d2.to_bits()) << 32) | j as u64;
            m += usize::from(d2 < r2 && j != slot);
        }
        near.truncate(m);
        nearest_k(k, near, out);
    }
}

/// The `k` searched by insertion, up to this many.
const SMALL_K: usize = 16;

/// The `k` nearest candidates seen so far (k <= [`SMALL_K`]), as keys `d2 bits << 32 | slot`
/// (they order by distance, then slot: d2 >= 0, whose bits order like the number), ascending.
/// The places not yet filled hold the radius's key, so one compare against the last place
/// tests the radius (strictly: a candidate at exactly `r2` has a key at or above it) and the
/// k-th distance together.
struct Best {
    keys: [u64; SMALL_K],
    k: usize,
    bound: u64,
}

impl Best {
    fn new(k: usize, r2: f32) -> Self {
        debug_assert!((1..=SMALL_K).contains(&k));
        // Nothing is strictly within a radius of 0, a negative one or a NaN.
        let bound = if r2 > 0.0 {
            u64::from(r2.to_bits()) << 32
        } else {
            0
        };
        Best {
            keys: [bound; SMALL_K],
            k,
            bound,
        }
    }

    /// The bits of the k-th best distance so far (or the radius's): a candidate whose
    /// distance's bits are above them cannot be kept.
    #[inline(always)]
    fn bound_bits(&self) -> u32 {
        (self.keys[self.k - 1] >> 32) as u32
    }

    /// Offers the candidate in `slot` at squared distance `d2` (a NaN is never kept: its key
    /// is above every bound, as is an infinite distance's).
    #[inline(always)]
    fn offer(&mut self, d2: f32, slot: usize) {
        let key = (u64::from(d2.to_bits()) << 32) | slot as u64;
        if key < self.keys[self.k - 1] {
            let mut i = self.k - 1;
            while i > 0 && self.keys[i - 1] > key {
                self.keys[i] = self.keys[i - 1];
                i -= 1;
            }
            self.keys[i] = key;
        }
    }

    /// The slots kept, ascending, into `out`.
    fn into_slots(self, out: &mut Vec<u32>) {
        out.clear();
        out.extend(
            self.keys[..self.k]
                .iter()
                .filter(|&&x| x < self.bound)
                .map(|&x| x as u32),
        );
        out.sort_unstable();
    }
}

/// Of the candidates in `near` (`d2 bits << 32 | slot`), the `k` nearest, ties by slot, into
/// `out` in ascending slot order.
fn nearest_k(k: usize, near: &mut Vec<u64>, out: &mut Vec<u32>) {
    out.clear();
    if near.len() > k {
        near.select_nth_unstable(k - 1);
        near.truncate(k);
    }
    out.extend(near.iter().map(|&x| x as u32));
    out.sort_unstable();
}

/// Copies `src[order[s]]` into `out[s]` for every slot, with `f` applied, in parallel for large
/// flocks (on Rayon's current pool).
pub fn permute<T: Copy + Send + Sync, U: Send + Default + Clone>(
    order: &[u32],
    src: &[T],
    out: &mut Vec<U>,
    f: impl Fn(T) -> U + Sync + Send,
) {
    permute_with(&RayonExec::default(), order, src, out, f);
}

/// [`permute`] on `exec`.
pub fn permute_with<T: Copy + Send + Sync, U: Send + Default + Clone>(
    exec: &dyn Exec,
    order: &[u32],
    src: &[T],
    out: &mut Vec<U>,
    f: impl Fn(T) -> U + Sync + Send,
) {
    // Every entry is written below: only a longer array's new tail needs a value first.
    out.resize(order.len(), U::default());
    let fill = |start: usize, o: &mut [U]| {
        for (k, o) in o.iter_mut().enumerate() {
            *o = f(src[order[start + k] as usize]);
        }
    };
    if order.len() < PARALLEL_MIN {
        fill(0, out);
    } else {
        chunks_mut(exec, out, 4096, &fill);
    }
}

impl NeighbourIndex for Index {
    fn build(&mut self, points: Points<'_>, radius: f32, period: Option<Period>) {
        self.build_with(&RayonExec::default(), points, radius, period);
    }

    fn len(&self) -> usize {
        self.order.len()
    }

    #[inline]
    fn velocity(&self, slot: u32) -> Vec3 {
        self.velocity_at(slot as usize)
    }

    #[inline]
    fn heading(&self, slot: u32) -> Vec3 {
        self.heading_at(slot as usize)
    }

    fn for_each_within<F: FnMut(Hit)>(&self, q: Vec3, radius: f32, exclude: u32, mut f: F) {
        let n = self.len();
        if n == 0 || radius.is_nan() || !q.is_finite() {
            return;
        }
        let period = self.layout.period;
        let q = period.map_or(q, |per| per.wrap(q));
        let r2 = radius * radius;
        let mut hit = |j: u32| {
            let o = offset(self.position(j as usize), q, period.as_ref());
            let d2 = dist2(o);
            let index = self.order[j as usize];
            if d2 < r2 && index != exclude {
                f(Hit {
                    index,
                    slot: j,
                    offset: o,
                    d2,
                });
            }
        };
        match (self.kind, &self.tree) {
            (IndexKind::KdTree, Some(tree)) => {
                let mut js = Vec::new();
                tree.within(q, radius, period.as_ref(), |j| js.push(j));
                js.sort_unstable();
                js.dedup();
                js.into_iter().for_each(hit);
            }
            (IndexKind::Grid, _) if radius.is_finite() => {
                let mut runs = Vec::new();
                self.layout.runs(&self.cell_start, q, radius, &mut runs);
                for (s0, s1) in runs {
                    (s0..s1).for_each(&mut hit);
                }
            }
            _ => (0..n as u32).for_each(hit),
        }
    }

    fn k_nearest(&self, q: Vec3, radius: f32, k: usize, exclude: u32, out: &mut Vec<Hit>) {
        out.clear();
        if k == 0 || radius.is_nan() {
            return;
        }
        if self.kind == IndexKind::Grid {
            // Grow the search radius from a cell until it holds k points (or everything).
            let e = Vec3::from_array(self.layout.dims.map(|d| d as f32)) / self.layout.inv;
            let (lo, hi) = (self.layout.min, self.layout.min + e);
            let outside = (lo - q).at_least(q - hi).at_least(Vec3::ZERO).length();
            // A sphere this large around q holds every point of the grid.
            let everything = outside + e.length() + 1.0;
            let mut r = (1.0 / self.layout.inv.largest()).at_least(f32::MIN_POSITIVE);
            loop {
                let reach = r.at_most(radius);
                out.clear();
                self.for_each_within(q, reach, exclude, |h| out.push(h));
                if out.len() >= k || reach >= radius || r >= everything {
                    break;
                }
                r *= 2.0;
            }
        } else if let (IndexKind::KdTree, Some(tree)) = (self.kind, &self.tree)
            && self.layout.period.is_none()
        {
            let r2 = radius * radius;
            tree.nearest(q, k, radius, exclude, &self.order, |j| {
                let o = self.position(j as usize) - q;
                let d2 = dist2(o);
                if d2 < r2 {
                    out.push(Hit {
                        index: self.order[j as usize],
                        slot: j,
                        offset: o,
                        d2,
                    });
                }
            });
            crate::keep_k_nearest(out, k + 1);
            if out.len() > k {
                let (kth, next) = (out[k - 1].d2, out[k].d2);
                // A clear gap after the k-th: nothing unseen can tie with it.
                if next > kth * (1.0 + 1e-5) + f32::MIN_POSITIVE {
                    out.truncate(k);
                    return;
                }
                // A tie (or a near one, where kiddo's rounding could differ from ours): take
                // every point at distance <= the k-th and break ties by slot, as everywhere.
                out.clear();
                let reach = (kth.sqrt() * (1.0 + 1e-4)).at_least(1e-18).at_most(radius);
                self.for_each_within(q, reach, exclude, |h| {
                    if h.d2 <= kth {
                        out.push(h)
                    }
                });
            }
        } else {
            self.for_each_within(q, radius, exclude, |h| out.push(h));
        }
        crate::keep_k_nearest(out, k);
    }
}
