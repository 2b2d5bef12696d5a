//! [`Index`]: one flock's boids sorted by grid cell, with the query structures of its kind.

use crate::kernel::{self, Cols, GROUP, Head, PAD, Rec, Spec, dist2};
use crate::layout::{Layout, Run, counting_sort};
use crate::{Hit, NeighbourIndex, Period, Points, kdtree::Tree, offset};
use boids_core::{IndexKind, Neighbourhood, Vec3};
use rayon::prelude::*;

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
/// flocks.
pub fn permute<T: Copy + Send + Sync, U: Send + Default + Clone>(
    order: &[u32],
    src: &[T],
    out: &mut Vec<U>,
    f: impl Fn(T) -> U + Sync + Send,
) {
    out.clear();
    out.resize(order.len(), U::default());
    if order.len() < PARALLEL_MIN {
        for (o, &i) in out.iter_mut().zip(order) {
            *o = f(src[i as usize]);
        }
    } else {
        out.par_chunks_mut(4096)
            .zip(order.par_chunks(4096))
            .for_each(|(o, ord)| {
                for (o, &i) in o.iter_mut().zip(ord) {
                    *o = f(src[i as usize]);
                }
            });
    }
}

impl NeighbourIndex for Index {
    fn build(&mut self, points: Points<'_>, radius: f32, period: Option<Period>) {
        let n = points.positions.len();
        let wrap = |p: Vec3| period.map_or(p, |per| per.wrap(p));
        self.radius = radius;
        self.layout = Layout::choose(points.positions, radius, period);
        let layout = self.layout;
        // Cell of every boid, then the stable sort by cell.
        self.keys.clear();
        self.keys.resize(n, 0);
        let key = |(k, &p): (&mut u32, &Vec3)| *k = layout.key(wrap(p));
        if n < PARALLEL_MIN {
            self.keys.iter_mut().zip(points.positions).for_each(key);
        } else {
            self.keys
                .par_iter_mut()
                .zip(points.positions.par_iter())
                .with_min_len(4096)
                .for_each(key);
        }
        counting_sort(
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
        #[allow(clippy::type_complexity)]
        let fill = |(((((r, h), x), y), z), ord): (
            (
                (((&mut [Rec], &mut [Head]), &mut [f32]), &mut [f32]),
                &mut [f32],
            ),
            &[u32],
        )| {
            for k in 0..ord.len() {
                let i = ord[k] as usize;
                let p = wrap(pos[i]);
                r[k] = Rec::new(p, vel[i]);
                if let Some(&hd) = heads.get(i) {
                    h[k] = Head::new(hd);
                }
                (x[k], y[k], z[k]) = (p.x, p.y, p.z);
            }
        };
        const CH: usize = 4096;
        if n < PARALLEL_MIN {
            fill((
                (
                    (
                        ((&mut self.rec[..], &mut self.head[..]), &mut cx[..n]),
                        &mut cy[..n],
                    ),
                    &mut cz[..n],
                ),
                &order[..],
            ));
        } else {
            self.rec
                .par_chunks_mut(CH)
                .zip(self.head.par_chunks_mut(CH))
                .zip(cx[..n].par_chunks_mut(CH))
                .zip(cy[..n].par_chunks_mut(CH))
                .zip(cz[..n].par_chunks_mut(CH))
                .zip(order.par_chunks(CH))
                .for_each(fill);
        }
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
            Tree::build(rec)
        } else {
            None
        };
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
