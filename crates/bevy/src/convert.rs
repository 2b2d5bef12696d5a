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

/// The rotation whose -Z (Bevy's `Transform::forward`) points along `heading` and whose +Y is
/// as near world up as it can be (no roll: Unity's `LookRotation`, as the engine's orientations,
/// turned to Bevy's forward). Yaw about Y, then pitch about the boid's X, each from half-angle
/// square roots: no trigonometry. A zero heading gives the identity; straight up or down, a
/// pitch of a quarter turn with no yaw.
#[inline]
pub(crate) fn look(heading: BVec3) -> BQuat {
    let len = heading.length();
    if !(len > 0.0 && len.is_finite()) {
        return BQuat::IDENTITY;
    }
    let BVec3 { x, y, z } = heading / len;
    let r = (x * x + z * z).sqrt();
    // Yaw psi takes -Z to (x, 0, z) / r: sin psi = -x / r, cos psi = -z / r.
    let (sy, cy) = if r > 1e-6 {
        half(-z / r, -x / r)
    } else {
        (0.0, 1.0)
    };
    // Pitch phi about X takes -Z to (0, y, -r): sin phi = y, cos phi = r.
    let (sx, cx) = half(r, y);
    // (0, sy, 0, cy) * (sx, 0, 0, cx).
    BQuat::from_xyzw(cy * sx, sy * cx, -sy * sx, cy * cx)
}

/// (sin, cos) of half the angle whose cosine and sine are given: the larger of the two from its
/// square root, the other from `sin = 2 sin(a/2) cos(a/2)` (a square root of `1 - cos` alone
/// loses every digit near a zero angle).
#[inline]
fn half(cos: f32, sin: f32) -> (f32, f32) {
    if cos >= 0.0 {
        let c = ((1.0 + cos) * 0.5).sqrt();
        (sin / (2.0 * c), c)
    } else {
        let s = ((1.0 - cos) * 0.5).sqrt();
        (s, sin / (2.0 * s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_points_forward_along_the_heading_with_up_kept_up() {
        let mut seen = 0;
        for i in 0..2000 {
            let t = i as f32 * 0.618;
            let h = BVec3::new(
                t.sin() * (t * 0.37).cos(),
                (t * 1.3).sin(),
                t.cos() * (t * 0.37).cos(),
            );
            let q = look(h * 3.0);
            assert!((q.length() - 1.0).abs() < 1e-5);
            let f = q * BVec3::NEG_Z;
            assert!((f - h.normalize()).length() < 1e-5, "{h}: {f}");
            let up = q * BVec3::Y;
            assert!(up.y >= -1e-6 && up.dot(BVec3::X.cross(BVec3::Y)).abs() <= 1.0);
            // No roll: the boid's X stays horizontal.
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
            assert!((look(h) * BVec3::NEG_Z - h).length() < 1e-6, "{h}");
        }
        assert_eq!(look(BVec3::ZERO), BQuat::IDENTITY);
        assert_eq!(look(BVec3::splat(f32::NAN)), BQuat::IDENTITY);
    }
}
