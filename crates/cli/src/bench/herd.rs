//! `boids bench --scenario herd`: grounded sheep over a 2049² heightfield with rocks, timed
//! three ways in one run: walking with bodies, walking without, and the same flock flying
//! (the ground off, no bodies: the plain step). The three take turns, in [`ROUNDS`] rounds of
//! a few steps each, so that a machine whose speed drifts during the run (a shared host) slows
//! all three alike and the ratios hold.
//!
//! With `--free` the three flocks move on from step to step; otherwise each step restarts
//! from the state after a first step.

use super::{BenchArgs, bench_restore, median};
use boids_sim::builtin::{HERD_ROCKS, HerdMode, herd_world};
use boids_sim::{FlockId, FlockSnapshot, IndexKind, World, WorldConfig};
use std::time::Instant;

/// Rounds the timed steps are split into, the three ways taking turns.
const ROUNDS: usize = 4;

struct Way {
    world: World,
    id: FlockId,
    saved: FlockSnapshot,
    ms: Vec<f64>,
}

pub(super) fn herd(a: &BenchArgs, config: WorldConfig, kind: IndexKind) -> Result<(), String> {
    let dt = 1.0 / 60.0;
    let mut ways = Vec::new();
    for mode in [HerdMode::Bodies, HerdMode::Grounded, HerdMode::Flying] {
        let (mut world, id) = herd_world(a.boids, config, kind, mode).map_err(|e| e.to_string())?;
        // The state a running world steps from (the boids in the grid's cell order).
        world.step(dt).map_err(|e| e.to_string())?;
        let saved = world.flock(id).expect("bench flock").snapshot();
        ways.push(Way {
            world,
            id,
            saved,
            ms: Vec::with_capacity(a.steps),
        });
    }
    let threads = ways[0].world.threads();
    let per_round = a.steps.div_ceil(ROUNDS).max(1);
    let rounds = a.steps.div_ceil(per_round);
    for round in 0..rounds {
        let timed = per_round.min(a.steps - round * per_round);
        for w in &mut ways {
            for k in 0..a.warmup + timed {
                if !a.free {
                    bench_restore(&mut w.world, w.id, &w.saved)?;
                }
                let t = Instant::now();
                w.world.step(dt).map_err(|e| e.to_string())?;
                if k >= a.warmup {
                    w.ms.push(t.elapsed().as_secs_f64() * 1e3);
                }
            }
        }
    }
    let [bodies, grounded, flying] = [0, 1, 2].map(|k| median(&mut ways[k].ms));
    let ground = grounded / flying;
    let pass = (bodies - grounded) / flying;
    out!(
        "scenario herd: the herd preset's sheep over 2049x2049 samples of hills (a ridge, a ravine, {HERD_ROCKS} rocks, a fence), dt 1/60"
    );
    out!("  boids                    {}", a.boids);
    out!("  threads                  {threads}");
    out!(
        "  timed steps              {} in {rounds} rounds, the three ways in turn (each after {} warm-up), {}",
        a.steps,
        a.warmup,
        if a.free {
            "a free-moving flock"
        } else {
            "every step from the saved state"
        }
    );
    out!("  ms/step, walking, bodies {bodies:.3}");
    out!("  ms/step, walking         {grounded:.3}");
    out!("  ms/step, flying          {flying:.3} (the ground off)");
    out!("  walking / flying         {ground:.2}x");
    out!("  body pass / flying       {pass:.2}x");
    out!(
        "bench scenario=herd n={} threads={threads} rocks={HERD_ROCKS} bodies_ms={bodies:.4} grounded_ms={grounded:.4} flying_ms={flying:.4} ground_ratio={ground:.3} body_pass_ratio={pass:.3}",
        a.boids
    );
    Ok(())
}
