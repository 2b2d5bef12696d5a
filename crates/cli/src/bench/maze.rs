//! `boids bench --scenario maze`: the maze preset's walls over a 2049² heightfield (spacing 1)
//! with flow cells of 2 (a 1025 × 1025 field), timed through the world as a game meets it:
//! - the first step with a flow cell size (the terrain's survey, the field, the step);
//! - a step after the target moved to another cell (the field again, the terrain kept), less a
//!   plain step: what a target move stalls a step by;
//! - the same with a flow budget: the steps the field takes, and the worst step's excess;
//! - a world that starts with the budget: the steps until its flock reads a field (the
//!   terrain's survey, then the field), and the worst step's excess;
//! - the step of `--boids` walkers reading the field against the same flock seeking in a
//!   straight line (cell size 0), the two taking turns in rounds, each step from one saved
//!   state.

use super::{BenchArgs, bench_restore, median};
use boids_sim::Order;
use boids_sim::presets::{MazeLayout, maze, maze_target};
use boids_sim::{FlockId, IndexKind, Vec3, World, WorldConfig};
use std::time::Instant;

/// Samples along each side of the benchmark's heightfield.
const SAMPLES: u32 = 2049;

/// Width of its flow cells.
const CELL: f32 = 2.0;

/// Target moves timed.
const MOVES: usize = 5;

/// The flow budget of the budgeted refresh, in units (about one cell settled each).
const BUDGET: u32 = 100_000;

/// Rounds the step comparison is split into.
const ROUNDS: usize = 4;

fn world_of(
    a: &BenchArgs,
    config: WorldConfig,
    kind: IndexKind,
    cell: f32,
) -> Result<(World, FlockId), String> {
    let mut scene = maze(
        "walkers",
        MazeLayout {
            walkers: a.boids,
            samples: SAMPLES,
            flow_cell: 0.0,
        },
    );
    scene.flock[0].params.index = kind;
    let mut world = World::new(config).map_err(|e| e.to_string())?;
    let id = scene.add_to(&mut world).map_err(|e| e.to_string())?[0];
    world.set_flow_cell_size(cell).map_err(|e| e.to_string())?;
    Ok((world, id))
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Steps `world` until `done`: the steps, and the worst one's time over `plain` ms.
fn steps_until(
    world: &mut World,
    dt: f32,
    plain: f64,
    done: &dyn Fn(&World) -> bool,
) -> Result<(usize, f64), String> {
    let (mut steps, mut worst) = (0usize, 0.0f64);
    while !done(world) {
        let s = Instant::now();
        world.step(dt).map_err(|e| e.to_string())?;
        worst = worst.at_least(ms(s) - plain);
        steps += 1;
        if steps > 100_000 {
            return Err("the budgeted field never came".into());
        }
    }
    Ok((steps, worst))
}

pub(super) fn maze_bench(
    a: &BenchArgs,
    config: WorldConfig,
    kind: IndexKind,
) -> Result<(), String> {
    let dt = 1.0 / 60.0;
    let half = (SAMPLES - 1) as f32 * 0.5;
    let (mut flow, fid) = world_of(a, config, kind, CELL)?;
    let (mut straight, sid) = world_of(a, config, kind, 0.0)?;
    let threads = flow.threads();
    // The first step: survey, field, step.
    let t = Instant::now();
    flow.step(dt).map_err(|e| e.to_string())?;
    let first = ms(t);
    let grid = flow
        .flow_field(fid)
        .ok_or("the maze flock read no field")?
        .grid;
    straight.step(dt).map_err(|e| e.to_string())?;
    let saved_flow = flow.flock(fid).expect("flock").snapshot();
    let saved_straight = straight.flock(sid).expect("flock").snapshot();
    // Plain steps of each, in turns.
    let per_round = a.steps.div_ceil(ROUNDS).max(1);
    let (mut along, mut line) = (Vec::new(), Vec::new());
    for round in 0..a.steps.div_ceil(per_round) {
        let timed = per_round.min(a.steps - round * per_round);
        for (w, id, saved, out) in [
            (&mut flow, fid, &saved_flow, &mut along),
            (&mut straight, sid, &saved_straight, &mut line),
        ] {
            for k in 0..a.warmup + timed {
                bench_restore(w, id, saved)?;
                let t = Instant::now();
                w.step(dt).map_err(|e| e.to_string())?;
                if k >= a.warmup {
                    out.push(ms(t));
                }
            }
        }
    }
    let (along, line) = (median(&mut along), median(&mut line));
    // Target moves: each to another cell, one step with the new field, less a plain step.
    let target = maze_target(half);
    let mut moved = Vec::new();
    for k in 0..MOVES {
        bench_restore(&mut flow, fid, &saved_flow)?;
        let t = target + Vec3::new(0.0, 0.0, (k as f32 + 1.0) * 3.0 * CELL);
        flow.set_target(fid, t).map_err(|e| e.to_string())?;
        let s = Instant::now();
        flow.step(dt).map_err(|e| e.to_string())?;
        moved.push(ms(s) - along);
    }
    let refresh = median(&mut moved);
    // With a budget: the steps until the flock reads the field to a moved target, and the
    // worst of them less a plain step.
    flow.set_flow_budget(BUDGET).map_err(|e| e.to_string())?;
    bench_restore(&mut flow, fid, &saved_flow)?;
    let t = target - Vec3::new(0.0, 0.0, 4.0 * CELL);
    flow.set_target(fid, t).map_err(|e| e.to_string())?;
    let want = grid.cell_at(t.x, t.z);
    let (budget_steps, worst) = steps_until(&mut flow, dt, along, &|w| {
        w.flow_field(fid).map(|f| Some(f.target)) == Some(want)
    })?;
    // A world that starts with the budget: the terrain's survey, then the field, a budget at
    // a time (no step pays the whole survey).
    let (mut fresh, nid) = world_of(a, config, kind, CELL)?;
    fresh.set_flow_budget(BUDGET).map_err(|e| e.to_string())?;
    let (start_steps, start_worst) =
        steps_until(&mut fresh, dt, along, &|w| w.flow_field(nid).is_some())?;
    drop(fresh);
    let survey = first - refresh - along;
    let ratio = along / line;
    out!(
        "scenario maze: the maze preset's walls over {SAMPLES}x{SAMPLES} samples of low hills, flow cells of {CELL} ({} x {} cells), dt 1/60",
        grid.size[0],
        grid.size[1]
    );
    out!("  boids                    {}", a.boids);
    out!("  threads                  {threads}");
    out!(
        "  timed steps              {} in rounds, along the field and in a straight line in turn (each after {} warm-up), every step from the saved state",
        a.steps,
        a.warmup
    );
    out!("  first step               {first:.3} ms (the terrain's survey, the field, the step)");
    out!("  terrain survey           {survey:.3} ms (the first step less a target move's)");
    out!(
        "  field after a move       {refresh:.3} ms (a step after the target moved to another cell, less a plain step; median of {MOVES})"
    );
    out!(
        "  budgeted refresh         {budget_steps} steps at a budget of {BUDGET} units, the worst {worst:.3} ms over a plain step"
    );
    out!(
        "  budgeted start           {start_steps} steps at a budget of {BUDGET} units (the survey, then the field), the worst {start_worst:.3} ms over a plain step"
    );
    out!("  ms/step, along the field {along:.3}");
    out!("  ms/step, straight line   {line:.3} (flow cell size 0)");
    out!("  field / straight         {ratio:.2}x");
    out!(
        "bench scenario=maze n={} threads={threads} cells={} first_ms={first:.4} survey_ms={survey:.4} field_ms={refresh:.4} budget={BUDGET} budget_steps={budget_steps} budget_worst_ms={worst:.4} start_steps={start_steps} start_worst_ms={start_worst:.4} along_ms={along:.4} straight_ms={line:.4} ratio={ratio:.3}",
        a.boids,
        grid.cells()
    );
    Ok(())
}
