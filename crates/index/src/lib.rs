//! `boids-index`: neighbour search for boids, and the kernel that sums what each boid sees.
//!
//! An [`Index`] holds one flock's boids sorted by grid cell (cells as wide as the radius across
//! y and z, a quarter of it along x, x fastest), as coordinate arrays for the candidate filter
//! and one record a boid for the accumulation. Its kind decides where the candidates come from:
//! the grid's cell runs, a k-d tree (kiddo) built over the sorted boids, or every boid (brute
//! force, the oracle). Every kind hands the same candidates, in ascending slot order, to the same
//! kernel ([`kernel`]), which gives the same bits on every instruction set ([`SimdLevel`]).
//!
//! The generic queries ([`NeighbourIndex`]) serve metrics and relations between flocks:
//!
//! ```
//! use boids_index::{Hit, Index, IndexKind, NeighbourIndex, Points};
//! use glam::Vec3;
//!
//! let positions = [Vec3::ZERO, Vec3::new(0.5, 0.0, 0.0), Vec3::new(3.0, 0.0, 0.0)];
//! let velocities = [Vec3::X; 3];
//! let mut index = Index::new(IndexKind::Grid);
//! index.build(
//!     Points { positions: &positions, velocities: &velocities, headings: &velocities },
//!     1.0,  // perception radius: the grid's cell size
//!     None, // no wrap-around
//! );
//! // Every boid within 1.0 of the origin, in the index's cell order; `Hit::index` is the
//! // boid's place in the arrays the index was built from.
//! let mut found: Vec<u32> = Vec::new();
//! index.for_each_within(Vec3::ZERO, 1.0, u32::MAX, |h: Hit| found.push(h.index));
//! found.sort();
//! assert_eq!(found, [0, 1]);
//! ```
#![deny(missing_docs)]

pub mod exec;
mod index;
mod kdtree;
pub mod kernel;
pub mod layout;
pub mod reads;
pub mod simd;

pub use boids_core::IndexKind;
pub use boids_core::math::{Period, wrap_axis};
pub use exec::{Exec, NO_THREADS, RayonExec, SerialExec, Spawned};
pub use index::{Index, PARALLEL_MIN, STEP_PARALLEL_MIN, Scratch, permute, permute_with};
pub use kernel::Spec;
pub use simd::SimdLevel;

use glam::Vec3;

/// Offset from `q` to `p`, to the nearest image when periodic (both points already wrapped into
/// the box). Every query uses this one formula.
#[inline(always)]
pub fn offset(p: Vec3, q: Vec3, period: Option<&Period>) -> Vec3 {
    let o = p - q;
    match period {
        Some(per) => per.min_image(o),
        None => o,
    }
}

/// The points an index is built over, in the caller's order.
#[derive(Clone, Copy, Debug)]
pub struct Points<'a> {
    /// Positions.
    pub positions: &'a [Vec3],
    /// Velocities (same length as `positions`).
    pub velocities: &'a [Vec3],
    /// Headings (same length, or empty: then zero).
    pub headings: &'a [Vec3],
}

/// One neighbour found by a query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Index of the point in the order the index was built from.
    pub index: u32,
    /// Slot of the point in the index's cell order.
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

    /// Calls `f` for every point `j != exclude` (an index in the build order) with
    /// `|offset|² < radius²`, in ascending slot order (any radius; the build radius is only a
    /// hint). Pass `u32::MAX` to exclude nothing.
    fn for_each_within<F: FnMut(Hit)>(&self, q: Vec3, radius: f32, exclude: u32, f: F);

    /// The `k` nearest points `j != exclude` strictly within `radius` (which may be infinite),
    /// sorted by `(d2, slot)`, into `out` (cleared first). Every kind built from the same points
    /// returns the same list.
    fn k_nearest(&self, q: Vec3, radius: f32, k: usize, exclude: u32, out: &mut Vec<Hit>) {
        out.clear();
        self.for_each_within(q, radius, exclude, |h| out.push(h));
        keep_k_nearest(out, k);
    }
}

/// Sorts hits by `(d2, slot)` and keeps the first `k`.
pub fn keep_k_nearest(out: &mut Vec<Hit>, k: usize) {
    let key = |h: &Hit| (u64::from(h.d2.to_bits()) << 32) | u64::from(h.slot);
    if k == 0 {
        out.clear();
    } else if out.len() > k {
        out.select_nth_unstable_by_key(k - 1, key);
        out.truncate(k);
    }
    out.sort_unstable_by_key(key);
}
