//! Counter-based random numbers keyed by (seed, boid id, step, stream).
//!
//! A boid's random draws depend only on those keys, never on which thread runs it or on the
//! order boids are visited, which is what makes a parallel step reproducible.

use crate::fmath;
use crate::fmath::Order;
use glam::Vec3;

/// A small deterministic generator (SplitMix64 over a keyed state). The keys are mixed on the
/// first draw, so a generator that is never used costs nothing.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
    keys: Option<(u64, u32, u64, u32)>,
}

#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator for one boid at one step. `stream` separates independent uses
    /// (spawning, rules, …) of the same boid and step.
    #[inline]
    pub fn keyed(seed: u64, id: u32, step: u64, stream: u32) -> Self {
        Rng {
            state: 0,
            keys: Some((seed, id, step, stream)),
        }
    }

    #[inline]
    fn seed_state(&mut self, (seed, id, step, stream): (u64, u32, u64, u32)) {
        let mut s = mix(seed ^ 0x9e37_79b9_7f4a_7c15);
        s = mix(s ^ u64::from(id).wrapping_mul(0xd1b5_4a32_d192_ed03));
        s = mix(s ^ step.wrapping_mul(0x8cb9_2ba7_2f3d_8dd7));
        s = mix(s ^ u64::from(stream).wrapping_mul(0xa24b_aed4_963e_e407));
        self.state = s;
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        if let Some(keys) = self.keys.take() {
            self.seed_state(keys);
        }
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.state)
    }

    /// Uniform in `[0, 1)` with 24 bits of precision.
    #[inline]
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / 16_777_216.0)
    }

    /// Uniform in `[lo, hi]` (either order).
    #[inline]
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next_f32()
    }

    /// `true` with probability `p` (`p ≤ 0` never, `p ≥ 1` always).
    #[inline]
    pub fn chance(&mut self, p: f32) -> bool {
        self.next_f32() < p
    }

    /// A uniformly distributed unit vector.
    pub fn unit_vector(&mut self) -> Vec3 {
        let z = self.range(-1.0, 1.0);
        let a = self.range(0.0, std::f32::consts::TAU);
        let r = (1.0 - z * z).at_least(0.0).sqrt();
        Vec3::new(r * fmath::cos(a), r * fmath::sin(a), z)
    }

    /// A point uniform in the unit ball.
    pub fn in_unit_ball(&mut self) -> Vec3 {
        self.unit_vector() * fmath::cbrt(self.next_f32())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_keys_same_numbers_other_keys_other_numbers() {
        let a: Vec<u64> = (0..4).map(|_| Rng::keyed(1, 2, 3, 0).next_u64()).collect();
        assert!(a.iter().all(|&x| x == a[0]));
        assert_ne!(
            Rng::keyed(1, 2, 3, 0).next_u64(),
            Rng::keyed(1, 2, 4, 0).next_u64()
        );
        assert_ne!(
            Rng::keyed(1, 2, 3, 0).next_u64(),
            Rng::keyed(1, 3, 3, 0).next_u64()
        );
        assert_ne!(
            Rng::keyed(1, 2, 3, 0).next_u64(),
            Rng::keyed(2, 2, 3, 0).next_u64()
        );
        assert_ne!(
            Rng::keyed(1, 2, 3, 0).next_u64(),
            Rng::keyed(1, 2, 3, 1).next_u64()
        );
    }

    #[test]
    fn floats_cover_the_unit_interval_evenly() {
        let mut r = Rng::keyed(7, 0, 0, 0);
        let mut buckets = [0u32; 10];
        for _ in 0..100_000 {
            let x = r.next_f32();
            assert!((0.0..1.0).contains(&x));
            buckets[(x * 10.0) as usize] += 1;
        }
        for b in buckets {
            assert!((9_500..10_500).contains(&b), "{buckets:?}");
        }
        for _ in 0..1000 {
            let u = r.unit_vector();
            assert!((u.length() - 1.0).abs() < 1e-5);
        }
    }
}
