//! Every transcendental function the model uses, from one pure-Rust implementation (the `libm`
//! crate), so results do not depend on the platform's C library.
//!
//! The model may use IEEE-754 operations with one correctly rounded result (add, subtract,
//! multiply, divide, square root, compare, conversions) directly; everything else goes through
//! here. Fused multiply-add is used nowhere (see ARCHITECTURE.md, "Determinism").

/// `sin(x)`.
#[inline]
pub fn sin(x: f32) -> f32 {
    libm::sinf(x)
}

/// `cos(x)`.
#[inline]
pub fn cos(x: f32) -> f32 {
    libm::cosf(x)
}

/// `acos(x)`.
#[inline]
pub fn acos(x: f32) -> f32 {
    libm::acosf(x)
}

/// `atan2(y, x)`.
#[inline]
pub fn atan2(y: f32, x: f32) -> f32 {
    libm::atan2f(y, x)
}

/// `exp(x)`.
#[inline]
pub fn exp(x: f32) -> f32 {
    libm::expf(x)
}

/// `x^y`.
#[inline]
pub fn powf(x: f32, y: f32) -> f32 {
    libm::powf(x, y)
}

/// Cube root.
#[inline]
pub fn cbrt(x: f32) -> f32 {
    libm::cbrtf(x)
}

/// Cube root, double precision (layout and scenario sizes).
#[inline]
pub fn cbrt64(x: f64) -> f64 {
    libm::cbrt(x)
}

/// Euclidean remainder: `x mod m` in `[0, m)` for `m > 0` (the remainder itself is exact;
/// adding `m` to a negative one rounds).
///
/// Within one period of `[0, m)` (a wrapped position after a step) no division is needed, and
/// the result is the same bits: `fmod` of `x` in `[0, m)` is `x`, in `[m, 2m)` it is `x - m`
/// (exact there: the two are within a factor of 2), and in `(-m, 0)` it is `x`, to which `m`
/// is added as below.
#[inline]
pub fn rem_euclid(x: f32, m: f32) -> f32 {
    if m > 0.0 && m < f32::INFINITY {
        if (0.0..m).contains(&x) {
            return x;
        }
        if x >= m && x < m + m {
            return x - m;
        }
        if x < 0.0 && x > -m {
            return x + m;
        }
    }
    let r = libm::fmodf(x, m);
    if r < 0.0 { r + m.abs() } else { r }
}

/// Degrees to radians, as `f32::to_radians` (a single correctly rounded multiplication).
#[inline]
pub fn to_radians(deg: f32) -> f32 {
    deg * (std::f32::consts::PI / 180.0)
}

/// `x.floor() as i32` (saturating at the ends of `i32`, 0 for NaN) without a call to the
/// platform's `floor` (a libm call on targets without a rounding instruction, such as
/// baseline x86-64 and armv7): truncation toward zero, less one for a negative non-integer.
/// Exact: a float that truncation changes is below 2^23 in size, where the truncated integer
/// converts back exactly.
#[inline]
pub fn floor_i32(x: f32) -> i32 {
    let t = x as i32;
    if (t as f32) > x && t != i32::MIN {
        t - 1
    } else {
        t
    }
}

/// The larger or smaller of two values, with one answer on every platform: what the model uses
/// instead of `f32::max`/`min` (and glam's `max`, `min`, `clamp`, `max_element`,
/// `min_element`, which call them lane by lane). The lint `clippy::disallowed_methods` (the
/// workspace's `clippy.toml`) keeps those out of the engine's crates.
///
/// Why: the standard library's `max`/`min` are IEEE 754 maxNum/minNum, which leave the sign of
/// a zero result to the implementation. x86-64 and AArch64 compile them to instructions, but
/// 32-bit ARM (VFPv3 has no such instruction) calls the C library's `fmaxf`/`fminf`, and
/// Android's bionic is not glibc. These are compares and selects only, which are exact on
/// every IEEE 754 machine, so the answer is this code's:
///
/// - `a.at_least(b)` is the larger, `a.at_most(b)` the smaller;
/// - of `-0.0` and `+0.0` (in either order) the larger is `+0.0`, the smaller `-0.0`
///   (IEEE 754-2019's `maximum`/`minimum`);
/// - when one operand is NaN, the result is the other (as `f32::max`); NaN only when both are.
///
/// (`floor` is the one other libm function the library calls on 32-bit ARM. It is kept: its
/// result is exact, the integer part, with no rounding left to choose, so every correct C
/// library gives the same bits, the sign of a zero included.)
pub trait Order: Copy {
    /// The larger of `self` and `lo`: `self` raised to at least `lo`.
    fn at_least(self, lo: Self) -> Self;
    /// The smaller of `self` and `hi`: `self` lowered to at most `hi`.
    fn at_most(self, hi: Self) -> Self;
}

macro_rules! order_float {
    ($t:ty) => {
        impl Order for $t {
            // Written as two selects without a branch (the compiler keeps them in vector
            // lanes: a chain of `if`s became branches a lane, and the hot loops that clamp,
            // such as the integration's, stopped vectorising). Case by case: `self` larger, or
            // `o` NaN: `self`; `o` larger, or `self` NaN: `o`; equal (the two zeros among
            // them): the AND of their bits, +0 for the zeros. (`ordering_is_the_reference`
            // checks every case against the chain of `if`s.)
            #[inline]
            fn at_least(self, o: Self) -> Self {
                let same = <$t>::from_bits(self.to_bits() & o.to_bits());
                let other = (o > self) | self.is_nan();
                let r = if other { o } else { self };
                if self == o { same } else { r }
            }
            #[inline]
            fn at_most(self, o: Self) -> Self {
                let same = <$t>::from_bits(self.to_bits() | o.to_bits());
                let other = (o < self) | self.is_nan();
                let r = if other { o } else { self };
                if self == o { same } else { r }
            }
        }
    };
}
order_float!(f32);
order_float!(f64);

impl Order for glam::Vec3 {
    #[inline]
    fn at_least(self, o: Self) -> Self {
        glam::Vec3::new(
            self.x.at_least(o.x),
            self.y.at_least(o.y),
            self.z.at_least(o.z),
        )
    }
    #[inline]
    fn at_most(self, o: Self) -> Self {
        glam::Vec3::new(
            self.x.at_most(o.x),
            self.y.at_most(o.y),
            self.z.at_most(o.z),
        )
    }
}

/// Lane-wise extremes of a vector, by [`Order`]: glam's `max_element`, `min_element` and
/// `clamp` with one answer on every platform.
pub trait Extremes: Order {
    /// The largest lane.
    fn largest(self) -> f32;
    /// The smallest lane.
    fn smallest(self) -> f32;
    /// Each lane held within `lo..=hi` (`lo` wins where `lo > hi`, as it would in glam).
    #[inline]
    fn within(self, lo: Self, hi: Self) -> Self {
        self.at_least(lo).at_most(hi)
    }
}

impl Extremes for glam::Vec3 {
    #[inline]
    fn largest(self) -> f32 {
        self.x.at_least(self.y.at_least(self.z))
    }
    #[inline]
    fn smallest(self) -> f32 {
        self.x.at_most(self.y.at_most(self.z))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition the selects must give, case by case, as a chain of `if`s.
    fn reference_at_least(a: f32, b: f32) -> f32 {
        if a > b {
            a
        } else if b > a {
            b
        } else if a == b {
            f32::from_bits(a.to_bits() & b.to_bits())
        } else if a.is_nan() {
            b
        } else {
            a
        }
    }

    fn reference_at_most(a: f32, b: f32) -> f32 {
        if a < b {
            a
        } else if b < a {
            b
        } else if a == b {
            f32::from_bits(a.to_bits() | b.to_bits())
        } else if a.is_nan() {
            b
        } else {
            a
        }
    }

    #[test]
    fn ordering_is_the_reference() {
        // Every pair of a set of special values (zeros, NaNs with payloads and signs, the
        // infinities, subnormals, extremes), then random bit patterns; same bits.
        let mut xs: Vec<f32> = vec![
            0.0,
            -0.0,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7fc0_1234),
            f32::from_bits(0xff80_0001),
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MAX,
            f32::MIN,
            1e-45,
            -1e-45,
            f32::MIN_POSITIVE,
            1.0,
            -1.0,
            1.0 + f32::EPSILON,
        ];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..4000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            xs.push(f32::from_bits((x >> 32) as u32));
        }
        for &a in &xs[..200] {
            for &b in &xs {
                let r = (a.at_least(b).to_bits(), a.at_most(b).to_bits());
                let want = (
                    reference_at_least(a, b).to_bits(),
                    reference_at_most(a, b).to_bits(),
                );
                assert_eq!(
                    r,
                    want,
                    "{a:e} ({:#x}), {b:e} ({:#x})",
                    a.to_bits(),
                    b.to_bits()
                );
                let (a64, b64) = (f64::from(a), f64::from(b));
                let r64 = (a64.at_least(b64), a64.at_most(b64));
                assert_eq!(
                    (r64.0.to_bits(), r64.1.to_bits()),
                    (
                        f64::from(f32::from_bits(want.0)).to_bits(),
                        f64::from(f32::from_bits(want.1)).to_bits()
                    ),
                    "f64 {a:e}, {b:e}"
                );
            }
        }
    }

    /// `floor_i32` is `floor` then `as i32` for every kind of float: integers, halves, values
    /// just off integers, both zeros, the ends of `i32` and beyond, infinities and NaN.
    #[test]
    fn floor_i32_is_floor_as_i32() {
        let mut xs = vec![
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            8_388_607.5,
            -8_388_607.5,
            16_777_217.0,
            -16_777_217.0,
            2_147_483_520.0,
            -2_147_483_648.0,
            3.0e9,
            -3.0e9,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        for k in -2_000..2_000 {
            let x = k as f32 * 0.25;
            xs.extend([
                x,
                f32::from_bits(x.to_bits() + 1),
                f32::from_bits(x.to_bits().wrapping_sub(1)),
            ]);
        }
        for x in xs {
            assert_eq!(floor_i32(x), x.floor() as i32, "{x:e}");
        }
    }

    /// The remainder's shortcuts give `fmod`'s bits: every float of a few periods around 0 for
    /// moduli of several sizes (small, awkward, large), the ends of each range, and zeros.
    #[test]
    fn rem_euclid_shortcuts_give_fmods_bits() {
        let slow = |x: f32, m: f32| {
            let r = libm::fmodf(x, m);
            if r < 0.0 { r + m.abs() } else { r }
        };
        let mut checked = 0u64;
        for m in [
            1.0f32,
            0.7,
            3.0,
            100.0,
            1e-3,
            123_456.79,
            f32::MIN_POSITIVE,
            3.4e38,
        ] {
            let mut xs = vec![0.0f32, -0.0, m, -m, m + m, -(m + m), 3.0 * m];
            for k in [-2.5f32, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5] {
                let c = k * m;
                let mut x = c;
                for _ in 0..20_000 {
                    xs.push(x);
                    xs.push(-x);
                    x = f32::from_bits(x.to_bits() + 1);
                }
            }
            for &x in xs.iter().filter(|x| x.is_finite()) {
                assert_eq!(
                    rem_euclid(x, m).to_bits(),
                    slow(x, m).to_bits(),
                    "{x} mod {m}"
                );
                checked += 1;
            }
        }
        assert!(checked > 1_000_000);
    }

    /// The zeros' order is pinned (+0 the larger, -0 the smaller, in both orders), NaN gives
    /// way to the other operand, and everything else is the ordinary larger or smaller.
    #[test]
    fn order_pins_zeros_and_nan() {
        let bits = |x: f32| x.to_bits();
        for (a, b) in [(-0.0f32, 0.0f32), (0.0, -0.0)] {
            assert_eq!(bits(a.at_least(b)), bits(0.0), "max({a}, {b})");
            assert_eq!(bits(a.at_most(b)), bits(-0.0), "min({a}, {b})");
        }
        for z in [0.0f32, -0.0] {
            assert_eq!(bits(z.at_least(z)), bits(z));
            assert_eq!(bits(z.at_most(z)), bits(z));
        }
        for (a, b) in [(-0.0f64, 0.0f64), (0.0, -0.0)] {
            assert_eq!(a.at_least(b).to_bits(), 0.0f64.to_bits());
            assert_eq!(a.at_most(b).to_bits(), (-0.0f64).to_bits());
        }
        assert_eq!(f32::NAN.at_least(2.0), 2.0);
        assert_eq!(2.0f32.at_least(f32::NAN), 2.0);
        assert_eq!(f32::NAN.at_most(-2.0), -2.0);
        assert_eq!((-2.0f32).at_most(f32::NAN), -2.0);
        assert!(f32::NAN.at_least(f32::NAN).is_nan());
        assert!(f64::NAN.at_most(f64::NAN).is_nan());
        let xs = [
            f32::NEG_INFINITY,
            -3.5,
            -f32::MIN_POSITIVE,
            -1e-45,
            1e-45,
            1.0,
            1.0 + f32::EPSILON,
            f32::MAX,
            f32::INFINITY,
        ];
        for a in xs {
            for b in xs {
                let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
                assert_eq!(bits(a.at_least(b)), bits(hi), "max({a}, {b})");
                assert_eq!(bits(a.at_most(b)), bits(lo), "min({a}, {b})");
            }
        }
        let v = glam::Vec3::new(-0.0, 3.0, f32::NAN);
        let w = glam::Vec3::new(0.0, -1.0, 5.0);
        assert_eq!(
            v.at_least(w).to_array().map(bits),
            [0.0f32, 3.0, 5.0].map(bits)
        );
        assert_eq!(
            v.at_most(w).to_array().map(bits),
            [-0.0f32, -1.0, 5.0].map(bits)
        );
        assert_eq!(
            glam::Vec3::new(-0.0, 0.0, -0.0).largest().to_bits(),
            bits(0.0)
        );
        assert_eq!(
            glam::Vec3::new(0.0, -0.0, 0.0).smallest().to_bits(),
            bits(-0.0)
        );
        assert_eq!(glam::Vec3::new(1.0, 7.0, -2.0).largest(), 7.0);
        assert_eq!(glam::Vec3::new(1.0, 7.0, -2.0).smallest(), -2.0);
        let c = glam::Vec3::new(-5.0, 0.5, 9.0).within(glam::Vec3::ZERO, glam::Vec3::ONE);
        assert_eq!(c, glam::Vec3::new(0.0, 0.5, 1.0));
    }

    #[test]
    fn known_values() {
        assert_eq!(cos(0.0), 1.0);
        assert_eq!(sin(0.0), 0.0);
        assert!((acos(-1.0) - std::f32::consts::PI).abs() < 1e-6);
        assert_eq!(cbrt(27.0), 3.0);
        assert_eq!(rem_euclid(-1.0, 4.0), 3.0);
        assert_eq!(rem_euclid(5.0, 4.0), 1.0);
        assert_eq!(to_radians(180.0), std::f32::consts::PI);
        // Unity computes the field-of-view cosine in single precision: cos(90°) is not 0.
        assert!(cos(to_radians(90.0)) < 0.0);
    }
}
