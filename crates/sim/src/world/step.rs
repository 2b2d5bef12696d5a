//! One step of a world: per-flock bookkeeping (goal jumps, leaders, sleep, level of detail),
//! the indices, the steering between flocks, then every flock's step; and the state hash.

use super::{GOAL_STREAM, Relation, World, install};
use crate::error::{Error, invalid};
use crate::flock::{Flock, StepInput};
use crate::fnv::Fnv1a;
use crate::world::{FlockId, MAX_DT};
use boids_core::Vec3;
use boids_index::PARALLEL_MIN;

impl World {
    /// Rebuilds every flock's neighbour index from the current state (a step does this itself;
    /// exposed so benchmarks can time the build alone).
    pub fn build_indices(&mut self) {
        let flocks = &mut self.flocks;
        let run = move || {
            for (_, f) in flocks.iter_mut() {
                f.prepare();
            }
        };
        install(&self.pool, run);
    }

    /// Advances every flock by `dt` seconds (`0 < dt <= 1`, finite). Every boid reads the
    /// snapshot of the previous step only.
    pub fn step(&mut self, dt: f32) -> Result<(), Error> {
        if !(dt.is_finite() && dt > 0.0 && dt <= MAX_DT) {
            return Err(invalid(format!(
                "dt must be finite and in (0, {MAX_DT}], got {dt}"
            )));
        }
        let seed = self.seed;
        let step = self.steps;
        let observer = self.observer;
        let level = self.level;
        let obstacles = &self.live_obstacles;
        let flocks = &mut self.flocks;
        let relations: Vec<Relation> = self
            .relations
            .iter()
            .filter(|r| flocks.contains(r.from) && flocks.contains(r.to))
            .copied()
            .collect();
        let total: usize = flocks.values().map(Flock::len).sum();
        for (id, f) in flocks.iter_mut() {
            let k = id.index;
            // The goal-swarm tutorial's goal: a flock-level draw, keyed by (seed, slot, step)
            // like a boid's.
            if let Some(r) = f.params.target_relocation
                && f.params.target.is_some()
            {
                let mut rng = boids_core::Rng::keyed(seed, u32::MAX - k, step, GOAL_STREAM);
                if rng.chance(r.probability) {
                    f.target = Some(Vec3::new(
                        rng.range(r.min.x, r.max.x),
                        rng.range(r.min.y, r.max.y),
                        rng.range(r.min.z, r.max.z),
                    ));
                }
            }
            // Leader following: the target rides on the leader.
            // (Only while the params have a target: params set later without one stop it.)
            if let Some((boid, offset)) = f.leader
                && f.params.target.is_some()
                && let Some(s) = f.slot_of(boid)
            {
                let b = f.boid_in_slot(s);
                // Inside the world's limits, so the target a host reads back is one it may set.
                let m = Vec3::splat(boids_core::MAX_MAGNITUDE);
                let t = b.position + boids_core::math::look_rotation(b.heading) * offset;
                f.target = Some(t.clamp(-m, m));
            }
            let by_region = match (f.wake_region, observer) {
                (Some((lo, hi)), Some(o)) => !(o.cmpge(lo).all() && o.cmple(hi).all()),
                _ => false,
            };
            let by_distance = match observer {
                Some(o) if f.params.sleep_distance > 0.0 => {
                    (f.centre() - o).length() > f.params.sleep_distance
                }
                _ => false,
            };
            f.asleep = by_region || by_distance;
            // Level of detail: every k-th step (flocks spread over the k phases by slot).
            let every = u64::from(f.params.update_every.max(1));
            f.active = (step + u64::from(k)).is_multiple_of(every);
        }
        let moving = |f: &Flock| f.active && !f.asleep;
        // Indices: of every flock that moves, and of every flock a moving flock reacts to.
        let mut needed = vec![false; flocks.slot_count()];
        for (id, f) in flocks.iter() {
            needed[id.index as usize] = moving(f);
        }
        for r in &relations {
            if needed[r.from.index as usize] {
                needed[r.to.index as usize] = true;
            }
        }
        let mut run = move || {
            for (id, f) in flocks.iter_mut() {
                if needed[id.index as usize] {
                    f.prepare();
                }
            }
            // Steering from other flocks, read from their indices only (the state before this
            // step).
            let external: Vec<(FlockId, Vec<Vec3>)> = flocks
                .iter()
                .filter(|(_, f)| moving(f))
                .filter_map(|(id, f)| {
                    let others: Vec<(&Relation, &Flock)> = relations
                        .iter()
                        .filter(|r| r.from == id)
                        .filter_map(|r| flocks.get(r.to).map(|o| (r, o)))
                        .collect();
                    (!others.is_empty()).then(|| (id, crate::flock::external_steering(f, &others)))
                })
                .collect();
            for (id, f) in flocks.iter_mut() {
                if moving(f) {
                    let ext = external.iter().find(|(k, _)| *k == id);
                    let every = f.params.update_every.max(1) as f32;
                    f.step(&StepInput {
                        dt: dt * every,
                        seed,
                        step,
                        obstacles,
                        external: ext.map_or(&[][..], |(_, v)| v),
                        level,
                    });
                }
            }
        };
        // Small worlds step on the calling thread: handing work to a pool costs more.
        if total < PARALLEL_MIN {
            run();
        } else {
            install(&self.pool, run);
        }
        self.steps += 1;
        Ok(())
    }

    /// A 64-bit hash of every flock's ids, positions, velocities and headings (bit patterns),
    /// for determinism checks.
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv1a::new();
        for id in self.flock_ids() {
            let f = self.flock(id).expect("live id");
            h.u32(f.len() as u32);
            for i in 0..f.len() {
                h.u32(f.ids()[i]);
                for v in [f.positions()[i], f.velocities()[i], f.headings()[i]] {
                    for c in v.to_array() {
                        h.u32(c.to_bits());
                    }
                }
            }
        }
        h.finish()
    }
}
