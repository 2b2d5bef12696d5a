//! Scene geometry for the obstacle look-ahead: exact ray and swept-sphere casts against
//! primitives (`prim`), triangle meshes and heightfields with a bounding volume hierarchy
//! (`mesh`, `bvh`), and the box type they share.

mod bvh;
mod contact;
mod field;
pub mod mesh;
pub mod prim;

use glam::Vec3;

pub use field::HeightGrid;
pub use mesh::{
    MAX_HEIGHTFIELD_SAMPLES, MAX_TRIANGLES, MAX_VERTICES, MeshShape, Placement, ShapeData,
    Transform,
};

/// Where a look-ahead query hit an obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// Distance along the query direction.
    pub distance: f32,
    /// Unit surface normal at the hit, pointing back toward the caster.
    pub normal: Vec3,
}

/// Keeps hit `h` on triangle `k` in `best` when it is nearer than the best so far, or as near
/// with a lower triangle index (so the answer never depends on the order of the search), and
/// brings `limit` down to it. Shared by the mesh's and the heightfield's traversals.
#[inline]
pub(crate) fn keep_nearest(best: &mut Option<(CastHit, u32)>, limit: &mut f32, h: CastHit, k: u32) {
    let better = match best {
        None => true,
        Some((bh, bk)) => h.distance < bh.distance || (h.distance == bh.distance && k < *bk),
    };
    if better {
        *limit = h.distance;
        *best = Some((h, k));
    }
}

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Minimum corner.
    pub lo: Vec3,
    /// Maximum corner.
    pub hi: Vec3,
}

impl Aabb {
    /// The empty box (contains nothing; grows to anything).
    pub const EMPTY: Aabb = Aabb {
        lo: Vec3::splat(f32::INFINITY),
        hi: Vec3::splat(f32::NEG_INFINITY),
    };
}
