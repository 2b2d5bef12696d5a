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

/// The engine's orientation `[x, y, z, w]` (+Z forward) as Bevy's (-Z forward,
/// `Transform::forward`): turned half a turn about its own Y, `q * (0, 1, 0, 0)`, which only
/// moves and negates components (exact).
#[inline]
pub(crate) fn bevy_forward([x, y, z, w]: [f32; 4]) -> BQuat {
    BQuat::from_xyzw(-z, w, x, -y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use boids_core::math::look_rotation_direct;

    #[test]
    fn bevy_forward_points_minus_z_along_the_heading_with_up_kept_up() {
        let mut seen = 0;
        for i in 0..2000 {
            let t = i as f32 * 0.618;
            let h = BVec3::new(
                t.sin() * (t * 0.37).cos(),
                (t * 1.3).sin(),
                t.cos() * (t * 0.37).cos(),
            );
            let e = look_rotation_direct(to_engine(h * 3.0));
            let q = bevy_forward(e.to_array());
            assert!((q.length() - 1.0).abs() < 1e-5);
            let f = q * BVec3::NEG_Z;
            assert!((f - h.normalize()).length() < 1e-5, "{h}: {f}");
            // The same up as the engine's, and no roll: the boid's X stays horizontal.
            assert!((q * BVec3::Y - to_bevy(e * Vec3::Y)).length() < 1e-6, "{h}");
            assert!((q * BVec3::Y).y >= -1e-6, "{h}");
            assert!((q * BVec3::X).y.abs() < 1e-5, "{h}");
            seen += 1;
        }
        assert_eq!(seen, 2000);
        for h in [
            BVec3::Y,
            BVec3::NEG_Y,
            BVec3::Z,
            BVec3::NEG_Z,
            BVec3::X,
            BVec3::NEG_X,
        ] {
            let q = bevy_forward(look_rotation_direct(to_engine(h)).to_array());
            assert!((q * BVec3::NEG_Z - h).length() < 1e-6, "{h}");
        }
        // The engine's identity (a zero heading) faces Bevy's +Z turned to -Z: half a turn.
        let q = bevy_forward(Quat::IDENTITY.to_array());
        assert!((q * BVec3::NEG_Z - BVec3::Z).length() < 1e-6);
    }
}
