//! Trajectories as text and digests, for snapshot tests of a flock's behaviour
//! (docs/snapshot-testing.md).
//!
//! Two fingerprints, with different guarantees:
//!
//! - [`World::state_hash`](crate::World::state_hash) is exact: a hash of every bit of every
//!   boid's state. It is the same for any thread count, any SIMD path (SSE2, AVX2, AVX-512,
//!   scalar) and any build of the same source (debug, release, baseline x86-64 or
//!   `-C target-cpu=native`); tests and `scripts/check-portable` hold that. A change of
//!   compiler version could in principle change it (it never has been seen to: the model uses
//!   only correctly rounded operations and a pure-Rust libm), so pin it in tests that run with
//!   one toolchain.
//! - A [`Recorder`]'s text and [`Recorder::digest`] round every coordinate to a stated number of
//!   significant digits (6 by default) with Rust's own float formatting (no C library), and
//!   write `-0` as `0`. A difference in the last bit of a float does not show at 6 digits, so
//!   the digest is the one to pin across compiler versions and operating systems. What can be
//!   known here: it is the same for every thread count, SIMD path and build, as the exact hash
//!   is; other OSes and compilers are not on this machine to check.
//!
//! The text has one line per boid per recorded step, in flock creation order and ascending
//! id: `step flock id x y z vx vy vz`. It diffs line by line, so a snapshot (`insta`) shows
//! which boid moved where.

use crate::World;
use crate::fnv::Fnv1a;
use std::fmt::Write as _;

/// Records chosen flocks every `every` steps as rounded text; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct Recorder {
    every: u64,
    digits: usize,
    flocks: Option<Vec<String>>,
    text: String,
}

impl Recorder {
    /// Records every flock every `every` steps (at least 1), `digits` significant digits
    /// (1..=9; 9 is exact for `f32`).
    pub fn new(every: u64, digits: usize) -> Recorder {
        Recorder {
            every: every.max(1),
            digits: digits.clamp(1, 9),
            flocks: None,
            text: String::new(),
        }
    }

    /// Records only the flocks with these names.
    pub fn flocks(mut self, names: &[&str]) -> Recorder {
        self.flocks = Some(names.iter().map(|s| (*s).to_owned()).collect());
        self
    }

    /// Records the world's chosen flocks if its step count is a multiple of `every`; returns
    /// whether it did.
    pub fn record(&mut self, world: &World) -> bool {
        let step = world.steps();
        if !step.is_multiple_of(self.every) {
            return false;
        }
        for id in world.flock_ids() {
            let f = world.flock(id).expect("listed");
            if let Some(names) = &self.flocks
                && !names.iter().any(|n| n == f.name())
            {
                continue;
            }
            let (ids, p, v) = (f.ids(), f.positions(), f.velocities());
            for i in 0..f.len() {
                let _ = write!(self.text, "{step} {} {}", f.name(), ids[i]);
                for c in p[i].to_array().into_iter().chain(v[i].to_array()) {
                    self.text.push(' ');
                    self.text.push_str(&round(c, self.digits));
                }
                self.text.push('\n');
            }
        }
        true
    }

    /// Steps `world` `steps` times by `dt`, recording before the first step and after each.
    pub fn run(&mut self, world: &mut World, steps: u64, dt: f32) -> Result<(), crate::Error> {
        self.record(world);
        for _ in 0..steps {
            world.step(dt)?;
            self.record(world);
        }
        Ok(())
    }

    /// The rounded trajectory so far, one line per boid per recorded step.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// A 16-hex-digit digest of [`Recorder::text`] (FNV-1a 64).
    pub fn digest(&self) -> String {
        format!("{:016x}", Fnv1a::of(self.text.as_bytes()))
    }
}

/// `x` with `digits` significant digits, in Rust's float formatting (`1.23457e2`), `-0` as `0`.
pub fn round(x: f32, digits: usize) -> String {
    let s = format!("{:.*e}", digits.saturating_sub(1), x);
    // A negative number that rounds to zero, or -0 itself.
    if s.starts_with('-') && s[1..].bytes().all(|b| b == b'0' || b == b'.' || b == b'e') {
        return s[1..].to_owned();
    }
    s
}

impl World {
    /// A 64-bit digest of the current state rounded to `digits` significant digits (1..=9):
    /// the [`Recorder`] line of every boid of every flock at this step, hashed. Where
    /// [`World::state_hash`] is exact, this one ignores differences below the rounding (see the
    /// [`record`](crate::record) module for which to pin).
    pub fn rounded_digest(&self, digits: usize) -> u64 {
        let mut r = Recorder::new(1, digits);
        r.record(self);
        // The scene, when there is one: a line per obstacle (slot, kind, its numbers rounded,
        // the shape data it places) and per shape data (slot, its exact digest: input data,
        // the same bits everywhere).
        for id in self.obstacle_ids() {
            let o = self.obstacle(id).expect("listed");
            let _ = write!(
                r.text,
                "obstacle {}:{} {}",
                id.index + 1,
                id.generation,
                o.kind().text()
            );
            for c in o.numbers() {
                r.text.push(' ');
                r.text.push_str(&round(c, r.digits));
            }
            if let Some(m) = o.mesh() {
                let _ = write!(r.text, " mesh {}:{}", m.index + 1, m.generation);
            }
            r.text.push('\n');
        }
        for id in self.mesh_ids() {
            let m = self.mesh(id).expect("listed");
            let _ = writeln!(
                r.text,
                "mesh {}:{} {:016x}",
                id.index + 1,
                id.generation,
                m.digest()
            );
        }
        Fnv1a::of(r.text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::round;

    #[test]
    fn rounding_is_stated_and_signless_at_zero() {
        assert_eq!(round(123.456_79, 6), "1.23457e2");
        assert_eq!(round(-0.0, 6), "0.00000e0");
        assert_eq!(round(-1e-30, 3), "-1.00e-30", "a tiny number is not zero");
        assert_eq!(round(1.0, 1), "1e0");
        assert_eq!(
            round(0.1, 9),
            "1.00000001e-1",
            "9 digits show every f32 bit"
        );
    }
}
