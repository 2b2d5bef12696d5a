//! Small vector helpers that never produce NaN or infinity from finite input.

use crate::fmath;
use glam::{Quat, Vec3};

/// A periodic box (wrap-around bounds): leaving one face re-enters at the opposite one, and
/// offsets between points are taken to the nearest image. The one wrapping formula of the
/// workspace: the bounds rule, every index and every kernel path use it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Period {
    /// Minimum corner.
    pub min: Vec3,
    /// Maximum corner.
    pub max: Vec3,
    /// Edge lengths, `max - min` (all > 0).
    pub size: Vec3,
}

impl Period {
    /// The box from `min` to `max`.
    pub fn new(min: Vec3, max: Vec3) -> Self {
        Period {
            min,
            max,
            size: max - min,
        }
    }

    /// The shortest offset equivalent to `o`, for `o` between two points inside the box (each
    /// component within `±size`).
    #[inline(always)]
    pub fn min_image(&self, o: Vec3) -> Vec3 {
        Vec3::new(
            wrap_axis(o.x, self.size.x),
            wrap_axis(o.y, self.size.y),
            wrap_axis(o.z, self.size.z),
        )
    }

    /// `p` moved into the box `[min, max)` by whole periods.
    #[inline]
    pub fn wrap(&self, p: Vec3) -> Vec3 {
        let r = p - self.min;
        let r = Vec3::new(
            fmath::rem_euclid(r.x, self.size.x),
            fmath::rem_euclid(r.y, self.size.y),
            fmath::rem_euclid(r.z, self.size.z),
        );
        // Adding `min` back may round up to exactly `max`.
        (self.min + r)
            .min(self.max - self.size * f32::EPSILON)
            .max(self.min)
    }
}

/// Nearest-image offset along one axis, for an offset between two coordinates inside a periodic
/// box of edge `size`.
#[inline(always)]
pub fn wrap_axis(o: f32, size: f32) -> f32 {
    let half = 0.5 * size;
    if o > half {
        o - size
    } else if o < -half {
        o + size
    } else {
        o
    }
}

/// `v / |v|`, or zero when `v` is zero, denormal-small or not finite.
#[inline]
pub fn normalize_or_zero(v: Vec3) -> Vec3 {
    v.normalize_or_zero()
}

/// `v` shortened to at most `max` (a non-positive `max` gives zero).
#[inline]
pub fn clamp_length(v: Vec3, max: f32) -> Vec3 {
    let len2 = v.length_squared();
    if max <= 0.0 {
        Vec3::ZERO
    } else if len2 > max * max {
        normalize_or_zero(v) * max
    } else {
        v
    }
}

/// Unity's `Quaternion.LookRotation(forward)` with world +Y as the up hint: an orientation whose
/// +Z axis is `forward` and whose +Y axis is as close to world +Y as possible. A zero `forward`
/// gives the identity; a vertical `forward` (where "up" is undefined) uses the shortest rotation
/// from +Z.
pub fn look_rotation(forward: Vec3) -> Quat {
    let f = normalize_or_zero(forward);
    if f == Vec3::ZERO {
        return Quat::IDENTITY;
    }
    let right = Vec3::Y.cross(f);
    if right.length_squared() < 1e-12 {
        // Looking straight up or down: rotate about X so that +Z maps to `f`.
        return Quat::from_rotation_arc(Vec3::Z, f);
    }
    let (right, up, f) = look_basis(f);
    Quat::from_mat3(&glam::Mat3::from_cols(right, up, f)).normalize()
}

/// An orientation whose +Z axis is `forward` and whose +Y axis is as close to `up` as possible
/// (Unity's `Quaternion.LookRotation(forward, up)`): how a grounded boid leans with the ground
/// under it. A zero `forward` gives the identity; `forward` along `up` (or a zero `up`) gives
/// [`look_rotation`]`(forward)`.
pub fn look_rotation_up(forward: Vec3, up: Vec3) -> Quat {
    let f = normalize_or_zero(forward);
    if f == Vec3::ZERO {
        return Quat::IDENTITY;
    }
    let right = up.cross(f);
    let len2 = right.length_squared();
    if len2.is_nan() || len2 < 1e-12 {
        return look_rotation(f);
    }
    let right = right * (1.0 / len2.sqrt());
    Quat::from_mat3(&glam::Mat3::from_cols(right, f.cross(right), f)).normalize()
}

/// The axes (right, up, forward) of [`look_rotation`]`(forward)`, computed directly (the fast
/// path for writing instance matrices).
#[inline]
pub fn look_basis(forward: Vec3) -> (Vec3, Vec3, Vec3) {
    let f = normalize_or_zero(forward);
    if f == Vec3::ZERO {
        return (Vec3::X, Vec3::Y, Vec3::Z);
    }
    let right = Vec3::Y.cross(f);
    let len2 = right.length_squared();
    if len2 < 1e-12 {
        let q = Quat::from_rotation_arc(Vec3::Z, f);
        return (q * Vec3::X, q * Vec3::Y, f);
    }
    let right = right * (1.0 / len2.sqrt());
    (right, f.cross(right), f)
}

/// Unity's `Vector3.SmoothDamp` with no speed limit: moves `current` toward `target` with a
/// critically damped spring of smooth time `smooth_time`, updating `velocity` (the caller's
/// per-object state); never overshoots.
pub fn smooth_damp(
    current: Vec3,
    target: Vec3,
    velocity: &mut Vec3,
    smooth_time: f32,
    dt: f32,
) -> Vec3 {
    let smooth_time = smooth_time.max(1e-4);
    let omega = 2.0 / smooth_time;
    let x = omega * dt;
    let exp = 1.0 / (1.0 + x + 0.48 * x * x + 0.235 * x * x * x);
    let change = current - target;
    let temp = (*velocity + omega * change) * dt;
    *velocity = (*velocity - omega * temp) * exp;
    let mut out = target + (change + temp) * exp;
    if (target - current).dot(out - target) > 0.0 {
        out = target;
        *velocity = (out - target) / dt;
    }
    out
}

/// Rotates unit vector `from` toward unit vector `to` the way Unity's
/// `Slerp(LookRotation(from), LookRotation(to), t)` does, returning the new forward vector.
/// `t` is clamped to `[0, 1]`.
pub fn turn_towards(from: Vec3, to: Vec3, t: f32) -> Vec3 {
    let t = t.clamp(0.0, 1.0);
    let q = look_rotation(from).slerp(look_rotation(to), t);
    let f = q * Vec3::Z;
    if f.is_finite() { f } else { from }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_zero_stays_zero() {
        assert_eq!(normalize_or_zero(Vec3::ZERO), Vec3::ZERO);
        assert_eq!(normalize_or_zero(Vec3::new(f32::NAN, 0.0, 0.0)), Vec3::ZERO);
        assert_eq!(
            normalize_or_zero(Vec3::new(0.0, 3.0, 4.0)),
            Vec3::new(0.0, 0.6, 0.8)
        );
    }

    #[test]
    fn clamp_length_limits_only_long_vectors() {
        assert_eq!(
            clamp_length(Vec3::new(3.0, 4.0, 0.0), 10.0),
            Vec3::new(3.0, 4.0, 0.0)
        );
        assert_eq!(
            clamp_length(Vec3::new(3.0, 4.0, 0.0), 1.0),
            Vec3::new(0.6, 0.8, 0.0)
        );
        assert_eq!(clamp_length(Vec3::X, 0.0), Vec3::ZERO);
    }

    #[test]
    fn look_rotation_points_forward_with_up_near_y() {
        for f in [
            Vec3::X,
            Vec3::new(1.0, 2.0, -3.0),
            Vec3::NEG_Z,
            Vec3::Y,
            Vec3::NEG_Y,
        ] {
            let q = look_rotation(f);
            let fwd = q * Vec3::Z;
            assert!((fwd - f.normalize()).length() < 1e-5, "{f} -> {fwd}");
            if f.x != 0.0 || f.z != 0.0 {
                // Up has no roll: it lies in the plane of forward and world Y.
                let right = q * Vec3::X;
                assert!(right.y.abs() < 1e-5);
            }
        }
        assert_eq!(look_rotation(Vec3::ZERO), Quat::IDENTITY);
    }

    #[test]
    fn turn_towards_moves_part_way() {
        let f = turn_towards(Vec3::Z, Vec3::X, 0.5);
        let expect = Vec3::new(1.0, 0.0, 1.0).normalize();
        assert!((f - expect).length() < 1e-5, "{f}");
        assert!((turn_towards(Vec3::Z, Vec3::X, 7.0) - Vec3::X).length() < 1e-5);
    }
}
