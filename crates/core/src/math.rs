//! Small vector helpers that never produce NaN or infinity from finite input.

use crate::fmath;
use crate::fmath::Order;
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
            .at_most(self.max - self.size * f32::EPSILON)
            .at_least(self.min)
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

/// [`look_rotation`] in closed form, for the reads that write a flock's orientations: the
/// same rotation, with the same sign (`w > 0` when `forward.z > 0`, else `y > 0`: the
/// component `Quat::from_mat3` makes positive), within an ulp of the exact quaternion of the
/// heading as stored (`look_rotation` is within a few), and no branch but the rare vertical
/// one.
///
/// It is the yaw about +Y times the pitch about +X, each written as an unnormalised half
/// angle: the yaw `(0, fx, 0, h + fz)` or, when `fz <= 0`, the same rotation as
/// `(0, h - fz, 0, fx)` (no cancellation either way, and defined at -Z), the pitch
/// `(-fy, 0, 0, |f| + h)`, where `h = sqrt(fx^2 + fz^2)`; one reciprocal normalises the
/// product. In f64, rounded once to f32 at the end; only correctly rounded operations (no
/// fused multiply-add, no library call), so every build and instruction set gives the same
/// bits. Vertical and zero headings take [`look_rotation`]'s own answer, decided by the same
/// test.
#[inline]
pub fn look_rotation_direct(forward: Vec3) -> Quat {
    // `Vec3::Y.cross(f).length_squared()` of the normalised heading, as `look_rotation`
    // tests it; the quaternion itself is computed from `forward` unnormalised (the half
    // angles are the same at any scale), one rounding fewer.
    let u = normalize_or_zero(forward); // never NaN: zero when it cannot normalise
    if u.z * u.z + u.x * u.x < 1e-12 {
        return look_rotation(forward);
    }
    let [x, y, z] = [forward.x as f64, forward.y as f64, forward.z as f64];
    let h2 = z * z + x * x;
    let h = h2.sqrt();
    let len = (h2 + y * y).sqrt();
    let (ay, aw) = if z > 0.0 { (x, h + z) } else { (h - z, x) };
    let (bx, bw) = (-y, len + h);
    let q = [aw * bx, bw * ay, -(ay * bx), aw * bw];
    let r = 1.0 / ((q[0] * q[0] + q[1] * q[1]) + (q[2] * q[2] + q[3] * q[3])).sqrt();
    Quat::from_xyzw(
        (q[0] * r) as f32,
        (q[1] * r) as f32,
        (q[2] * r) as f32,
        (q[3] * r) as f32,
    )
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
    let smooth_time = smooth_time.at_least(1e-4);
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

    /// The exact `LookRotation` of `forward`'s direction, in f64 (`[x, y, z, w]`): the basis
    /// (right, up, forward), then the quaternion of that matrix from its largest component,
    /// made positive as `Quat::from_mat3` does (`w` when forward's z > 0, else `y`).
    fn look_rotation_f64(forward: Vec3) -> [f64; 4] {
        let v = [forward.x as f64, forward.y as f64, forward.z as f64];
        let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        let f = v.map(|c| c / n);
        let h = (f[0] * f[0] + f[2] * f[2]).sqrt();
        let r = [f[2] / h, 0.0, -f[0] / h];
        let u = [
            f[1] * r[2] - f[2] * r[1],
            f[2] * r[0] - f[0] * r[2],
            f[0] * r[1] - f[1] * r[0],
        ];
        // Columns r, u, f: m(row, col).
        let m = |row: usize, col: usize| [r, u, f][col][row];
        let q = if f[2] > 0.0 {
            let w4 = 2.0 * (1.0 + m(0, 0) + m(1, 1) + m(2, 2)).sqrt();
            [
                (m(2, 1) - m(1, 2)) / w4,
                (m(0, 2) - m(2, 0)) / w4,
                (m(1, 0) - m(0, 1)) / w4,
                w4 / 4.0,
            ]
        } else {
            let y4 = 2.0 * (1.0 - m(0, 0) + m(1, 1) - m(2, 2)).sqrt();
            [
                (m(0, 1) + m(1, 0)) / y4,
                y4 / 4.0,
                (m(1, 2) + m(2, 1)) / y4,
                (m(0, 2) - m(2, 0)) / y4,
            ]
        };
        let l = q.iter().map(|c| c * c).sum::<f64>().sqrt();
        q.map(|c| c / l)
    }

    /// Distance of `got` from `want` in units of the f32 spacing at `want`.
    fn ulps(got: f32, want: f64) -> f64 {
        let w = want as f32;
        let spacing = if w == 0.0 {
            f32::from_bits(1) as f64
        } else {
            (f32::from_bits(w.abs().to_bits() + 1) - w.abs()) as f64
        };
        (got as f64 - want).abs() / spacing
    }

    #[test]
    fn look_rotation_direct_is_within_an_ulp_of_the_exact_rotation_with_its_sign() {
        // Random headings (a fixed xorshift), unit as the state stores them and not, plus the
        // cases where a half angle would cancel: near -Z, near +Z, on the axes.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
        };
        let mut cases: Vec<Vec3> = vec![
            Vec3::X,
            Vec3::NEG_X,
            Vec3::Z,
            Vec3::NEG_Z,
            Vec3::new(1e-3, 0.0, -1.0),
            Vec3::new(-1e-3, 1e-4, -1.0),
            Vec3::new(1e-5, 0.5, -1.0),
            Vec3::new(-2e-5, -0.3, 1.0),
            Vec3::new(0.0, 0.7, -0.7),
            Vec3::new(3.0, 4.0, 0.0),
            Vec3::new(-3.0, -4.0, 0.0),
        ];
        for k in 0..200_000 {
            let v = Vec3::new(next(), next(), next());
            cases.push(if k % 2 == 0 { v.normalize_or_zero() } else { v });
        }
        let mut worst = 0.0f64;
        for f in cases {
            if f == Vec3::ZERO {
                continue;
            }
            let q = look_rotation_direct(f);
            let want = look_rotation_f64(f);
            // The sign `Quat::from_mat3` gives: the same as the old path's.
            let old = look_rotation(f);
            assert!(q.dot(old) > 0.999_99, "{f}: {q} against {old}");
            for (got, want) in q.to_array().into_iter().zip(want) {
                let u = ulps(got, want);
                worst = worst.at_least(u);
                assert!(u <= 1.0, "{f}: {q} against {want:?} ({u:.2} ulp)");
            }
        }
        assert!(worst > 0.0, "compared against something");
        // Vertical and zero headings keep `look_rotation`'s answer, bit for bit.
        for f in [Vec3::Y, Vec3::NEG_Y, Vec3::new(1e-8, 1.0, 0.0), Vec3::ZERO] {
            assert_eq!(look_rotation_direct(f), look_rotation(f), "{f}");
        }
    }

    #[test]
    fn turn_towards_moves_part_way() {
        let f = turn_towards(Vec3::Z, Vec3::X, 0.5);
        let expect = Vec3::new(1.0, 0.0, 1.0).normalize();
        assert!((f - expect).length() < 1e-5, "{f}");
        assert!((turn_towards(Vec3::Z, Vec3::X, 7.0) - Vec3::X).length() < 1e-5);
    }
}
