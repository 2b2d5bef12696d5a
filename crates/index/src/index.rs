//! [`Index`]: one flock's boids sorted by grid cell, with the query structures of its kind.

use crate::exec::{Exec, RayonExec, chunks_mut};
use crate::kernel::{self, Cols, GROUP, Head, PAD, Rec, Spec, dist2};
use crate::layout::{Layout, Run, counting_sort_with};
use crate::{Hit, NeighbourIndex, Period, Points, kdtree::Tree, offset};
use boids_core::{IndexKind, Neighbourhood, Vec3};

mod walk;

/// Below this many boids a build runs on the calling thread: waking workers costs more than
/// the work.
pub const PARALLEL_MIN: usize = 2048;

/// Scratch a thread reuses across queries (no allocation per query once warm).
#[derive(Default, Clone, Debug)]
pub struct Scratch {
    runs: Vec<Run>,
    list2: Vec<u32>,
    block: Block,
    list: Vec<u32>,
    near: Vec<(u64, u32)>,
}

/// Candidates gathered from the k-d tree for a group of boids: their slots (ascending) and
/// coordinates in the filter's layout.
#[derive(Default, Clone, Debug)]
struct Block {
    slots: Vec<u32>,
    cols: [Vec<f32>; 3],
}

/// A flock's boids in cell order (structure of arrays for the filter, one record a boid for
/// the accumulation) and its neighbour-search structure: a uniform grid, a k-d tree (kiddo) or
/// none (brute force). Every kind hands the same kernel the same candidates in the same
/// (ascending slot) order, so every kind gives the same bits.
pub struct Index {
    kind: IndexKind,
    layout: Layout,
    cell_start: Vec<u32>,
    keys: Vec<u32>,
    order: Vec<u32>,
    cols: [Vec<f32>; 3],
    /// Axis permutation putting a flat axis last, and whether the third axis is needed.
    axes: [usize; 3],
    d3: bool,
    rec: Vec<Rec>,
    head: Vec<Head>,
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
            cols: [
                vec![f32::INFINITY; PAD],
                vec![f32::INFINITY; PAD],
                vec![f32::INFINITY; PAD],
            ],
            axes: [0, 1, 2],
            d3: true,
            rec: Vec::new(),
            head: Vec::new(),
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
        for c in &mut self.cols {
            room(c, n + PAD)?;
        }
        room(&mut self.rec, n)?;
        room(&mut self.head, n)
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
            + self.cols.iter().map(|c| c.capacity() * 4).sum::<usize>()
            + self.rec.capacity() * size_of::<Rec>()
            + self.head.capacity() * size_of::<Head>()
            + self.tree.as_ref().map_or(0, Tree::heap_bytes)
    }

    /// `order()[slot]`: the index, in the points the index was built from, of the boid in
    /// each slot (the cell order).
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// The boid in `slot`: its record (position, velocity, speed).
    #[inline]
    pub fn rec(&self, slot: usize) -> &Rec {
        &self.rec[slot]
    }

    /// Position in `slot` (wrapped into the period, if any).
    #[inline]
    pub fn position(&self, slot: usize) -> Vec3 {
        self.rec[slot].position()
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

    fn cols(&self) -> Cols<'_> {
        let [a, b, c] = self.axes;
        Cols {
            a: [&self.cols[a], &self.cols[b], &self.cols[c]],
            d3: self.d3,
            axes: self.axes,
        }
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
        let q = self.rec[slot].position();
        let len = self.candidates(q, spec, scratch);
        self.finish_hood(slot, len, spec, k, scratch)
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
        let list = &mut scratch.list;
        list.clear();
        list.extend_from_slice(neighbours);
        let padded = list.len().div_ceil(GROUP).max(1) * GROUP;
        list.resize(padded, slot as u32);
        let (q, h) = (self.rec[slot].position(), self.head[slot].get());
        kernel::accumulate(spec, slot as u32, q, h, list, &self.rec, &self.head)
    }

    /// Fills `scratch.list[..len]` with the slots (self included) strictly within the radius of
    /// `q`, ascending; returns `len`.
    fn candidates(&self, q: Vec3, spec: &Spec, scratch: &mut Scratch) -> usize {
        let n = self.rec.len();
        let radius = spec.r2.sqrt();
        if self.kind == IndexKind::KdTree {
            return self.tree_candidates(q, radius, spec.r2, scratch);
        }
        if self.kind == IndexKind::Grid {
            let mut runs = std::mem::take(&mut scratch.runs);
            self.layout.runs(&self.cell_start, q, radius, &mut runs);
            let len = self.filter_runs(q, spec, &runs, scratch);
            scratch.runs = runs;
            len
        } else {
            self.filter_runs(q, spec, &[(0, n as u32)], scratch)
        }
    }

    fn tree_candidates(&self, q: Vec3, radius: f32, r2: f32, scratch: &mut Scratch) -> usize {
        let list = &mut scratch.list;
        list.clear();
        if let Some(tree) = &self.tree {
            tree.within(q, radius, self.layout.period.as_ref(), |j| list.push(j));
        }
        list.sort_unstable();
        list.dedup();
        let period = self.layout.period;
        let mut len = 0;
        for k in 0..list.len() {
            let j = list[k];
            let o = offset(self.rec[j as usize].position(), q, period.as_ref());
            if dist2(o) < r2 {
                list[len] = j;
                len += 1;
            }
        }
        list.truncate(len);
        len
    }

    /// [`Index::keep_nearest`] on any list.
    fn keep_nearest_in(
        &self,
        slot: usize,
        k: usize,
        list: &mut [u32],
        len: usize,
        near: &mut Vec<(u64, u32)>,
    ) -> usize {
        let q = self.rec[slot].position();
        let period = self.layout.period;
        near.clear();
        for &j in &list[..len] {
            if j as usize == slot {
                continue;
            }
            let d2 = dist2(offset(self.rec[j as usize].position(), q, period.as_ref()));
            // d2 >= 0, so its bits order like the number.
            near.push(((u64::from(d2.to_bits()) << 32) | u64::from(j), j));
        }
        if near.len() > k {
            near.select_nth_unstable(k - 1);
            near.truncate(k);
        }
        near.sort_unstable_by_key(|&(_, j)| j);
        for (i, &(_, j)) in near.iter().enumerate() {
            list[i] = j;
        }
        near.len()
    }

    /// Keeps the `k` nearest of the `len` candidates in `scratch.list` (the boid in `slot`
    /// excluded), ties by slot, in ascending slot order; returns how many.
    fn keep_nearest(&self, slot: usize, k: usize, len: usize, s: &mut Scratch) -> usize {
        self.keep_nearest_in(slot, k, &mut s.list, len, &mut s.near)
    }
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
    out.clear();
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

impl Index {
    /// [`NeighbourIndex::build`] with its parallel loops on `exec` (Rayon, or a host's job
    /// system): the same index either way.
    pub fn build_with(
        &mut self,
        exec: &dyn Exec,
        points: Points<'_>,
        radius: f32,
        period: Option<Period>,
    ) {
        let n = points.positions.len();
        let wrap = |p: Vec3| period.map_or(p, |per| per.wrap(p));
        self.radius = radius;
        self.layout = Layout::choose_with(exec, points.positions, radius, period);
        let layout = self.layout;
        // Cell of every boid, then the stable sort by cell.
        self.keys.clear();
        self.keys.resize(n, 0);
        let key = |start: usize, keys: &mut [u32]| {
            for (k, p) in keys.iter_mut().zip(&points.positions[start..]) {
                *k = layout.key(wrap(*p));
            }
        };
        if n < PARALLEL_MIN {
            key(0, &mut self.keys);
        } else {
            chunks_mut(exec, &mut self.keys, 4096, &key);
        }
        counting_sort_with(
            exec,
            &self.keys,
            layout.cells(),
            &mut self.cell_start,
            &mut self.order,
        );
        // Everything in cell order: records, headings and the filter's coordinate arrays.
        let order = &self.order;
        self.rec.clear();
        self.rec.resize(n, Rec::default());
        self.head.clear();
        self.head.resize(n, Head::default());
        let [cx, cy, cz] = &mut self.cols;
        for c in [&mut *cx, &mut *cy, &mut *cz] {
            c.clear();
            c.resize(n + PAD, f32::INFINITY);
        }
        let (pos, vel, heads) = (points.positions, points.velocities, points.headings);
        // One piece of every array per chunk of slots, so each call writes its own.
        struct Piece<'a> {
            r: &'a mut [Rec],
            h: &'a mut [Head],
            x: &'a mut [f32],
            y: &'a mut [f32],
            z: &'a mut [f32],
        }
        let fill = |start: usize, p: &mut Piece<'_>| {
            for k in 0..p.r.len() {
                let i = order[start + k] as usize;
                let q = wrap(pos[i]);
                p.r[k] = Rec::new(q, vel[i]);
                if let Some(&hd) = heads.get(i) {
                    p.h[k] = Head::new(hd);
                }
                (p.x[k], p.y[k], p.z[k]) = (q.x, q.y, q.z);
            }
        };
        const CH: usize = 4096;
        let mut pieces: Vec<std::sync::Mutex<Piece<'_>>> = self
            .rec
            .chunks_mut(CH)
            .zip(self.head.chunks_mut(CH))
            .zip(cx[..n].chunks_mut(CH))
            .zip(cy[..n].chunks_mut(CH))
            .zip(cz[..n].chunks_mut(CH))
            .map(|((((r, h), x), y), z)| std::sync::Mutex::new(Piece { r, h, x, y, z }))
            .collect();
        if n < PARALLEL_MIN {
            for (c, p) in pieces.iter_mut().enumerate() {
                fill(c * CH, p.get_mut().unwrap_or_else(|e| e.into_inner()));
            }
        } else {
            exec.for_ranges(pieces.len(), 1, &|r: std::ops::Range<usize>| {
                for c in r {
                    let mut p = pieces[c].lock().unwrap_or_else(|e| e.into_inner());
                    fill(c * CH, &mut p);
                }
            });
        }
        drop(pieces);
        let rec = &self.rec;
        // A flat axis (every boid at the same coordinate: a plane lock) goes last and is
        // skipped by the filter: its offsets are exactly zero.
        let flat = (0..3).rev().find(|&a| {
            let c = &self.cols[a][..n];
            c.iter().all(|&x| x.to_bits() == c[0].to_bits())
        });
        (self.axes, self.d3) = match flat {
            Some(2) | None => ([0, 1, 2], flat.is_none()),
            Some(1) => ([0, 2, 1], false),
            Some(_) => ([1, 2, 0], false),
        };
        self.tree = if self.kind == IndexKind::KdTree && n > 0 {
            Tree::build(rec, exec.is_rayon())
        } else {
            None
        };
    }
}

impl NeighbourIndex for Index {
    fn build(&mut self, points: Points<'_>, radius: f32, period: Option<Period>) {
        self.build_with(&RayonExec::default(), points, radius, period);
    }

    fn len(&self) -> usize {
        self.rec.len()
    }

    #[inline]
    fn velocity(&self, slot: u32) -> Vec3 {
        self.rec[slot as usize].velocity()
    }

    #[inline]
    fn heading(&self, slot: u32) -> Vec3 {
        self.head[slot as usize].get()
    }

    fn for_each_within<F: FnMut(Hit)>(&self, q: Vec3, radius: f32, exclude: u32, mut f: F) {
        let n = self.rec.len();
        if n == 0 || radius.is_nan() || !q.is_finite() {
            return;
        }
        let period = self.layout.period;
        let q = period.map_or(q, |per| per.wrap(q));
        let r2 = radius * radius;
        let mut hit = |j: u32| {
            let o = offset(self.rec[j as usize].position(), q, period.as_ref());
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
            let outside = (lo - q).max(q - hi).max(Vec3::ZERO).length();
            // A sphere this large around q holds every point of the grid.
            let everything = outside + e.length() + 1.0;
            let mut r = (1.0 / self.layout.inv.max_element()).max(f32::MIN_POSITIVE);
            loop {
                let reach = r.min(radius);
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
                let o = self.rec[j as usize].position() - q;
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
                let reach = (kth.sqrt() * (1.0 + 1e-4)).max(1e-18).min(radius);
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
