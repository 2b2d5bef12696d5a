//! `boids-index`: neighbour search for boids behind one trait, [`NeighbourIndex`].
//!
//! Three implementations answer "which boids lie strictly within radius `r` of this point
//! (optionally only the k nearest)": a uniform [`Grid`] (counting sort into cells, contiguous
//! per-cell copies), a [`KdTree`] over `kiddo`, and [`BruteForce`], the oracle the tests compare
//! the others against. All three compute offsets and squared distances with the same formula, so
//! they return exactly the same neighbour sets.

mod brute;
mod grid;
mod kdtree;

pub use brute::BruteForce;
pub use grid::{CandidateBuf, Grid};
pub use kdtree::KdTree;

use boids_core::kernel::wrap_axis;
use glam::Vec3;

/// A periodic box (wrap-around bounds): offsets are taken to the nearest image.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Period {
    /// Minimum corner.
    pub min: Vec3,
    /// Edge lengths (all > 0).
    pub size: Vec3,
}

impl Period {
    /// The box from `min` to `max`.
    pub fn new(min: Vec3, max: Vec3) -> Self {
        Period {
            min,
            size: max - min,
        }
    }

    /// The shortest offset equivalent to `o`, for `o` between two points inside the box
    /// (each component within `±size`).
    #[inline(always)]
    pub fn min_image(&self, o: Vec3) -> Vec3 {
        Vec3::new(
            wrap_axis(o.x, self.size.x),
            wrap_axis(o.y, self.size.y),
            wrap_axis(o.z, self.size.z),
        )
    }

    /// `p` moved into the box `[min, min + size)` by whole periods.
    #[inline]
    pub fn wrap(&self, p: Vec3) -> Vec3 {
        self.min + (p - self.min).rem_euclid(self.size)
    }
}

/// Offset from `q` to `p`, to the nearest image when periodic (both points already wrapped into
/// the box). Every index uses this one formula.
#[inline(always)]
pub fn offset(p: Vec3, q: Vec3, period: Option<&Period>) -> Vec3 {
    let o = p - q;
    match period {
        Some(per) => per.min_image(o),
        None => o,
    }
}

/// The points an index is built over, in the flock's order. `headings` may be empty when the
/// caller does not need them.
#[derive(Clone, Copy, Debug)]
pub struct Points<'a> {
    /// Positions.
    pub positions: &'a [Vec3],
    /// Velocities (same length as `positions`).
    pub velocities: &'a [Vec3],
    /// Headings (same length, or empty).
    pub headings: &'a [Vec3],
}

/// One neighbour found by a query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Index of the point in the order the index was built from.
    pub index: u32,
    /// Index of the point in the index's own storage (for [`NeighbourIndex::velocities`]).
    pub slot: u32,
    /// `p_j - q` (nearest image when periodic).
    pub offset: Vec3,
    /// `|offset|²`.
    pub d2: f32,
}

/// Neighbour search over one snapshot of a flock.
pub trait NeighbourIndex: Send + Sync {
    /// Rebuilds over `points`; `radius` is the radius queries will mostly use (it sizes grid
    /// cells); `period` makes space wrap around.
    fn build(&mut self, points: Points<'_>, radius: f32, period: Option<Period>);

    /// Number of points indexed.
    fn len(&self) -> usize;

    /// `true` when no point is indexed.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Velocity of the point in `slot`.
    fn velocity(&self, slot: u32) -> Vec3;

    /// Heading of the point in `slot` (zero when built without headings).
    fn heading(&self, slot: u32) -> Vec3;

    /// Calls `f` for every point `j != exclude` with `|offset|² < radius²` (any radius; the
    /// build radius is only a hint). Pass `u32::MAX` to exclude nothing.
    fn for_each_within<F: FnMut(Hit)>(&self, q: Vec3, radius: f32, exclude: u32, f: F);

    /// The `k` nearest points `j != exclude` strictly within `radius`, sorted by
    /// `(d2, index)`, into `out` (cleared first). Ties are broken by index, so every
    /// implementation returns the same set.
    fn k_nearest(&self, q: Vec3, radius: f32, k: usize, exclude: u32, out: &mut Vec<Hit>) {
        out.clear();
        self.for_each_within(q, radius, exclude, |h| out.push(h));
        keep_k_nearest(out, k);
    }
}

/// Sorts hits by `(d2, index)` and keeps the first `k`.
pub fn keep_k_nearest(out: &mut Vec<Hit>, k: usize) {
    let key = |h: &Hit| (h.d2, h.index);
    if out.len() > k && k > 0 {
        out.select_nth_unstable_by(k - 1, |a, b| key(a).partial_cmp(&key(b)).unwrap());
        out.truncate(k);
    } else if k == 0 {
        out.clear();
    }
    out.sort_unstable_by(|a, b| key(a).partial_cmp(&key(b)).unwrap());
}

/// Which implementation an [`AnyIndex`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// [`Grid`].
    Grid,
    /// [`KdTree`].
    KdTree,
    /// [`BruteForce`].
    BruteForce,
}

/// One of the three indices, chosen at run time, dispatched statically per call.
#[allow(clippy::large_enum_variant)]
pub enum AnyIndex {
    /// Uniform grid.
    Grid(Grid),
    /// k-d tree.
    KdTree(KdTree),
    /// Brute force.
    BruteForce(BruteForce),
}

impl AnyIndex {
    /// An empty index of the given kind.
    pub fn new(kind: Kind) -> Self {
        match kind {
            Kind::Grid => AnyIndex::Grid(Grid::default()),
            Kind::KdTree => AnyIndex::KdTree(KdTree::default()),
            Kind::BruteForce => AnyIndex::BruteForce(BruteForce::default()),
        }
    }

    /// The kind held.
    pub fn kind(&self) -> Kind {
        match self {
            AnyIndex::Grid(_) => Kind::Grid,
            AnyIndex::KdTree(_) => Kind::KdTree,
            AnyIndex::BruteForce(_) => Kind::BruteForce,
        }
    }

    /// Approximate heap bytes held.
    pub fn heap_bytes(&self) -> usize {
        match self {
            AnyIndex::Grid(g) => g.heap_bytes(),
            AnyIndex::KdTree(t) => t.heap_bytes(),
            AnyIndex::BruteForce(b) => b.heap_bytes(),
        }
    }
}

macro_rules! dispatch {
    ($self:ident, $i:ident => $e:expr) => {
        match $self {
            AnyIndex::Grid($i) => $e,
            AnyIndex::KdTree($i) => $e,
            AnyIndex::BruteForce($i) => $e,
        }
    };
}

impl NeighbourIndex for AnyIndex {
    fn build(&mut self, points: Points<'_>, radius: f32, period: Option<Period>) {
        dispatch!(self, i => i.build(points, radius, period))
    }
    fn len(&self) -> usize {
        dispatch!(self, i => i.len())
    }
    #[inline]
    fn velocity(&self, slot: u32) -> Vec3 {
        dispatch!(self, i => i.velocity(slot))
    }
    #[inline]
    fn heading(&self, slot: u32) -> Vec3 {
        dispatch!(self, i => i.heading(slot))
    }
    #[inline]
    fn for_each_within<F: FnMut(Hit)>(&self, q: Vec3, radius: f32, exclude: u32, f: F) {
        dispatch!(self, i => i.for_each_within(q, radius, exclude, f))
    }
    fn k_nearest(&self, q: Vec3, radius: f32, k: usize, exclude: u32, out: &mut Vec<Hit>) {
        dispatch!(self, i => i.k_nearest(q, radius, k, exclude, out))
    }
}

/// Copies `src` into `dst` (wrapped into the period, if any), reusing its allocation.
pub(crate) fn copy_into(dst: &mut Vec<Vec3>, src: &[Vec3], period: Option<&Period>) {
    dst.clear();
    match period {
        Some(per) => dst.extend(src.iter().map(|&p| per.wrap(p))),
        None => dst.extend_from_slice(src),
    }
}

/// Reads `v[slot]`, or zero when `v` is empty.
#[inline(always)]
pub(crate) fn at_or_zero(v: &[Vec3], slot: u32) -> Vec3 {
    v.get(slot as usize).copied().unwrap_or(Vec3::ZERO)
}
