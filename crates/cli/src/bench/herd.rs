//! `boids bench --scenario herd`: grounded sheep over a 2049² heightfield with rocks, timed
//! three ways in one run: walking with bodies, walking without, and the same flock flying
//! (the ground off, no bodies: the plain step).

use super::{BenchArgs, Timed, time_steps};
use boids_sim::IndexKind;
use boids_sim::WorldConfig;
use boids_sim::builtin::{HERD_ROCKS, HerdMode, herd_world};

pub(super) fn herd(a: &BenchArgs, config: WorldConfig, kind: IndexKind) -> Result<(), String> {
    let dt = 1.0 / 60.0;
    let time = |mode| -> Result<(Timed, usize), String> {
        let (mut w, id) = herd_world(a.boids, config, kind, mode).map_err(|e| e.to_string())?;
        Ok((time_steps(&mut w, id, a, dt, false)?, w.threads()))
    };
    let (bodies, threads) = time(HerdMode::Bodies)?;
    let (grounded, _) = time(HerdMode::Grounded)?;
    let (flying, _) = time(HerdMode::Flying)?;
    let ground = grounded.ms / flying.ms;
    let pass = (bodies.ms - grounded.ms) / flying.ms;
    out!(
        "scenario herd: the herd preset's sheep over 2049x2049 samples of hills (a ridge, a ravine, {HERD_ROCKS} rocks, a fence), dt 1/60"
    );
    out!("  boids                    {}", a.boids);
    out!("  threads                  {threads}");
    out!(
        "  timed steps              {} (after {} warm-up), {}",
        a.steps,
        a.warmup,
        if a.free {
            "a free-moving flock"
        } else {
            "every step from the saved state"
        }
    );
    out!("  ms/step, walking, bodies {:.3}", bodies.ms);
    out!("  ms/step, walking         {:.3}", grounded.ms);
    out!(
        "  ms/step, flying          {:.3} (the ground off)",
        flying.ms
    );
    out!("  walking / flying         {ground:.2}x");
    out!("  body pass / flying       {pass:.2}x");
    out!(
        "bench scenario=herd n={} threads={threads} rocks={HERD_ROCKS} bodies_ms={:.4} grounded_ms={:.4} flying_ms={:.4} ground_ratio={ground:.3} body_pass_ratio={pass:.3}",
        a.boids,
        bodies.ms,
        grounded.ms,
        flying.ms
    );
    Ok(())
}
