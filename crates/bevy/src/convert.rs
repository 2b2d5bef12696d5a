//! Between Bevy's math types and the engine's (two versions of glam: the same layouts, so each
//! conversion is a copy of the same floats).

use bevy::math::{Quat as BQuat, Vec3 as BVec3};
use boids_core::{Quat, Vec3};

#[inline]
pub(crate) fn to_engine(v: BVec3) -> Vec3 {
    Vec3::from_array(v.to_array())
}

#[inline]
pub(crate) fn to_bevy(v: Vec3) -> BVec3 {
    BVec3::from_array(v.to_array())
}

#[inline]
pub(crate) fn quat_to_engine(q: BQuat) -> Quat {
    Quat::from_array(q.to_array())
}

/// An engine orientation (`[x, y, z, w]`, +Z along the heading, as Unity's `LookRotation`) as
/// Bevy's convention has it: -Z (`Transform::forward`) along the heading, +Y unchanged. A turn
/// of half a circle about the boid's own Y, exact (a product with `(0, 1, 0, 0)` only moves
/// and negates components).
#[inline]
pub(crate) fn heading_rotation(q: [f32; 4]) -> BQuat {
    let [x, y, z, w] = q;
    // (x, y, z, w) * (0, 1, 0, 0) = (-z, w, x, -y).
    BQuat::from_xyzw(-z, w, x, -y)
}
