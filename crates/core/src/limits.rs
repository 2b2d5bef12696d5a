//! The one limit on the numbers a caller gives: every coordinate, length, speed and weight must
//! be finite and at most [`MAX_MAGNITUDE`] in magnitude, and every message that refuses one
//! states that limit. (Probabilities, angles and fractions have their own natural ranges.)

use crate::fmath::Extremes;
use glam::Vec3;

/// Largest magnitude accepted for any coordinate, length, speed or weight: far beyond any
/// sensible scene, small enough that products of two such values stay finite in `f32`.
pub const MAX_MAGNITUDE: f32 = 1.0e9;

/// Most neighbours a boid may be limited to (`FlockParams::max_neighbours`, the k of k-nearest);
/// bounds the memory a step needs per boid.
pub const MAX_NEIGHBOURS: u32 = 1024;

/// A bound for messages: `1e9` rather than `1000000000`.
pub fn show(x: f32) -> String {
    if x != 0.0 && x.abs() >= 1.0e6 {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// `Ok` when `x` is finite and in `lo..=hi`; else the reason, with the range.
pub fn in_range(x: f32, lo: f32, hi: f32) -> Result<(), String> {
    if x.is_finite() && x >= lo && x <= hi {
        Ok(())
    } else {
        Err(format!(
            "must be finite and in [{}, {}], got {x}",
            show(lo),
            show(hi)
        ))
    }
}

/// `Ok` when every component of `v` is finite and at most [`MAX_MAGNITUDE`] in magnitude; else
/// the reason, with the limit.
pub fn point(v: Vec3) -> Result<(), String> {
    if v.is_finite() && v.abs().largest() <= MAX_MAGNITUDE {
        Ok(())
    } else {
        Err(format!(
            "must be finite with every |component| <= {}, got {v}",
            show(MAX_MAGNITUDE)
        ))
    }
}

/// `Ok` when `x` is finite, above 0 and at most [`MAX_MAGNITUDE`] (a size that must not vanish).
pub fn positive(x: f32) -> Result<(), String> {
    if x.is_finite() && x > 0.0 && x <= MAX_MAGNITUDE {
        Ok(())
    } else {
        Err(format!(
            "must be finite and in (0, {}], got {x}",
            show(MAX_MAGNITUDE)
        ))
    }
}

/// `Ok` when `x` is finite and in `0..=MAX_MAGNITUDE` (a length, a speed).
pub fn length(x: f32) -> Result<(), String> {
    in_range(x, 0.0, MAX_MAGNITUDE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_state_the_limit() {
        assert_eq!(
            in_range(f32::NAN, 0.0, MAX_MAGNITUDE).unwrap_err(),
            "must be finite and in [0, 1e9], got NaN"
        );
        assert_eq!(
            in_range(-2.0, -MAX_MAGNITUDE, MAX_MAGNITUDE),
            Ok(()),
            "inside"
        );
        assert!(
            point(Vec3::new(0.0, 2e9, 0.0))
                .unwrap_err()
                .contains("<= 1e9")
        );
        assert!(point(Vec3::splat(1e9)).is_ok());
        assert_eq!(show(0.5), "0.5");
    }
}
