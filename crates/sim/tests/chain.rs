//! Several steps in one overlapped begin (`step_begin_n`):
//! - `step_begin_n(dt, n)` then `step_end` gives exactly the bits (state hash and save file)
//!   of n calls of `step`, for every preset, a flock large enough to run in parallel, and a
//!   world with relations, a leader, goal jumps, sleep, level of detail and flow fields built
//!   over several steps; on 0, 1 and 2 threads and on a host's job system;
//! - meanwhile reads see the state before the first step (targets included) and changes are
//!   refused with `Busy`;
//! - a step that fails part way leaves the steps before it installed, as one-by-one calls
//!   would; `count` 0 is refused; dropping a world cancels what has not started.

#[path = "support/scenes.rs"]
mod scenes;

use boids_sim::*;
use scenes::Scene;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

const DT: f32 = 1.0 / 60.0;

fn world(threads: usize) -> World {
    World::new(WorldConfig {
        seed: 5,
        threads,
        ..WorldConfig::default()
    })
    .unwrap()
}

/// A world where every piece of a step's bookkeeping matters: goal jumps (goal-swarm), a chase
/// between flocks (shark), a leader, level of detail, a flock asleep for its distance to the
/// observer and one for its wake region, and the maze's flow fields built under a budget (so
/// they are history carried from step to step).
fn busy(w: &mut World) {
    presets::create(w, "goal-swarm", "swarm").unwrap();
    presets::create(w, "shark", "shark").unwrap();
    let led = w
        .create_flock(
            "led",
            FlockParams {
                target: Some(Target {
                    point: Vec3::ZERO,
                    avoid_distance: 0.0,
                }),
                update_every: 2,
                ..FlockParams::default()
            },
        )
        .unwrap();
    w.spawn(led, 300, &Spawn::default()).unwrap();
    w.set_leader(led, Some((7, Vec3::new(0.0, 0.0, -3.0))))
        .unwrap();
    let lod = w
        .create_flock(
            "lod",
            FlockParams {
                update_every: 3,
                ..FlockParams::default()
            },
        )
        .unwrap();
    w.spawn(lod, 200, &Spawn::default()).unwrap();
    let far = w
        .create_flock(
            "far",
            FlockParams {
                sleep_distance: 5.0,
                ..FlockParams::default()
            },
        )
        .unwrap();
    w.spawn(far, 100, &Spawn::default()).unwrap();
    let region = w.create_flock("region", FlockParams::default()).unwrap();
    w.spawn(region, 100, &Spawn::default()).unwrap();
    w.set_wake_region(region, Some((Vec3::splat(500.0), Vec3::splat(600.0))))
        .unwrap();
    w.set_observer(Some(Vec3::new(0.0, 100.0, 0.0))).unwrap();
    let scene = presets::maze("walkers", presets::MazeLayout::PRESET);
    scene.add_to(w).unwrap();
    w.set_flow_budget(20_000).unwrap();
}

fn scenes() -> Vec<Scene> {
    let mut out = scenes::scenes();
    out.push(("busy".into(), Box::new(busy)));
    out
}

/// The state hash and save file after `rounds` rounds of `n` steps (one call each when
/// `chained`, else `n` calls of `step`).
fn after(
    mut w: World,
    make: &dyn Fn(&mut World),
    rounds: usize,
    n: u32,
    chained: bool,
) -> (u64, Vec<u8>) {
    make(&mut w);
    for _ in 0..rounds {
        if chained {
            w.step_begin_n(DT, n).unwrap();
            w.step_end().unwrap();
        } else {
            for _ in 0..n {
                w.step(DT).unwrap();
            }
        }
    }
    (w.state_hash(), w.save())
}

#[test]
fn n_steps_in_one_begin_give_the_steps_bits() {
    for (name, make) in scenes() {
        let want = after(world(1), &*make, 12, 3, false);
        for threads in [0, 1, 2] {
            for n in [2, 3] {
                let rounds = 36 / n as usize;
                let got = after(world(threads), &*make, rounds, n, true);
                assert_eq!(
                    got.0, want.0,
                    "{name}: {rounds} × {n} steps on {threads} threads"
                );
                assert!(
                    got.1 == want.1,
                    "{name}: the save files differ ({threads} threads, {n})"
                );
            }
        }
    }
}

#[test]
fn the_busy_world_really_has_everything_moving() {
    let mut w = world(1);
    busy(&mut w);
    let ids: Vec<FlockId> = w.flock_ids().collect();
    let swarm = w.find_flock("swarm").unwrap();
    let targets_before = w.flock(swarm).unwrap().target();
    let lod = w.find_flock("lod").unwrap();
    let mut lod_stepped = Vec::new();
    for _ in 0..3 {
        // Steps 0..=3, 4..=7, 8..=11: the last of each is 0, 1 and 2 modulo 3.
        w.step_begin_n(DT, 4).unwrap();
        w.step_end().unwrap();
        lod_stepped.push(w.flock(lod).unwrap().was_stepped());
    }
    assert_eq!(w.steps(), 12);
    assert_eq!(
        lod_stepped.iter().filter(|&&s| s).count(),
        1,
        "level of detail: one step in 3 ({lod_stepped:?})"
    );
    assert_ne!(
        w.flock(swarm).unwrap().target(),
        targets_before,
        "the goal jumped"
    );
    let by = |name: &str| w.flock(w.find_flock(name).unwrap()).unwrap();
    assert!(
        by("far").is_asleep() && by("region").is_asleep(),
        "both sleep"
    );
    assert!(ids.len() >= 7);
}

#[test]
fn while_steps_run_reads_see_the_state_before_and_changes_are_refused() {
    let mut w = world(2);
    busy(&mut w);
    let big = w.create_flock("big", FlockParams::default()).unwrap();
    w.spawn(big, 5000, &Spawn::default()).unwrap();
    w.step(DT).unwrap();
    let swarm = w.find_flock("swarm").unwrap();
    let (hash, save, target) = (w.state_hash(), w.save(), w.flock(swarm).unwrap().target());
    let pos = w.flock(big).unwrap().positions().to_vec();
    w.step_begin_n(DT, 4).unwrap();
    assert!(w.is_stepping());
    assert_eq!(w.state_hash(), hash);
    assert!(w.save() == save);
    assert_eq!(w.flock(swarm).unwrap().target(), target);
    let mut read = vec![Vec3::ZERO; 5000];
    w.read_positions(big, &mut read).unwrap();
    assert_eq!(read, pos);
    assert_eq!(w.steps(), 1);
    assert_eq!(w.step(DT), Err(Error::Busy));
    assert_eq!(w.step_begin_n(DT, 2), Err(Error::Busy));
    assert_eq!(w.set_observer(None), Err(Error::Busy));
    w.step_end().unwrap();
    assert_eq!(w.steps(), 5);
    let mut plain = world(1);
    busy(&mut plain);
    let b = plain.create_flock("big", FlockParams::default()).unwrap();
    plain.spawn(b, 5000, &Spawn::default()).unwrap();
    for _ in 0..5 {
        plain.step(DT).unwrap();
    }
    assert_eq!(w.state_hash(), plain.state_hash());
    assert!(w.save() == plain.save());
    // One step in flight too: a save holds the flow fields' history as it stood.
    let save = w.save();
    w.step_begin(DT).unwrap();
    assert!(w.save() == save, "a save during step_begin");
    w.step_end().unwrap();
}

#[test]
fn bad_counts_and_dt_are_refused_and_change_nothing() {
    let mut w = world(1);
    presets::create(&mut w, "fish-tank", "fish").unwrap();
    let h = w.state_hash();
    assert!(matches!(
        w.step_begin_n(DT, 0),
        Err(Error::InvalidArgument(_))
    ));
    for dt in [0.0, -1.0, f32::NAN, f32::INFINITY, 2.0] {
        assert!(
            matches!(w.step_begin_n(dt, 3), Err(Error::InvalidArgument(_))),
            "dt {dt}"
        );
    }
    assert!(!w.is_stepping());
    assert_eq!((w.state_hash(), w.steps()), (h, 0));
    // One step in one begin is `step_begin`.
    w.step_begin_n(DT, 1).unwrap();
    w.step_end().unwrap();
    assert_eq!(w.steps(), 1);
}

#[test]
fn dropping_a_world_with_steps_in_flight_cancels_them() {
    for _ in 0..10 {
        let mut w = world(2);
        let f = w.create_flock("f", FlockParams::default()).unwrap();
        w.spawn(f, 8000, &Spawn::default()).unwrap();
        w.step_begin_n(DT, 50).unwrap();
        drop(w);
    }
}

/// A host's job system that runs everything on the calling thread and reports a breach of its
/// contract once, on the `fail_at`-th step's check (counting from 1).
struct Faulty {
    checks: AtomicU64,
    fail_at: u64,
}

impl Exec for Faulty {
    fn workers(&self) -> usize {
        1
    }

    fn for_ranges(&self, n: usize, grain: usize, task: &(dyn Fn(Range<usize>) + Sync)) {
        let grain = grain.max(1);
        for c in 0..n.div_ceil(grain) {
            task(c * grain..((c + 1) * grain).min(n));
        }
    }

    fn spawn(&self, job: Arc<dyn boids_sim::Spawned>) {
        std::thread::spawn(move || job.run());
    }

    fn take_fault(&self) -> Option<String> {
        let k = self.checks.fetch_add(1, Ordering::Relaxed) + 1;
        (k == self.fail_at).then(|| "a breach, as a test".to_string())
    }
}

#[test]
fn a_failing_step_keeps_the_steps_before_it_as_one_by_one_calls_would() {
    let config = WorldConfig {
        seed: 5,
        ..WorldConfig::default()
    };
    let make = |fail_at| {
        let exec = Arc::new(Faulty {
            checks: AtomicU64::new(0),
            fail_at,
        });
        let mut w = World::with_exec(config, exec).unwrap();
        busy(&mut w);
        w
    };
    // One by one: the third step fails, the world keeps two.
    let mut one = make(3);
    one.step(DT).unwrap();
    one.step(DT).unwrap();
    assert!(matches!(one.step(DT), Err(Error::Internal(_))));
    assert_eq!(one.steps(), 2);
    // In one begin: the same world after `step_end`'s error.
    let mut chained = make(3);
    chained.step_begin_n(DT, 4).unwrap();
    let err = chained.step_end();
    assert!(
        matches!(&err, Err(Error::Internal(m)) if m.contains("a breach")),
        "{err:?}"
    );
    assert!(!chained.is_stepping());
    assert_eq!(chained.steps(), 2);
    assert_eq!(chained.state_hash(), one.state_hash());
    assert!(chained.save() == one.save());
    // And both go on alike.
    one.step_begin_n(DT, 3).unwrap();
    one.step_end().unwrap();
    for _ in 0..3 {
        chained.step(DT).unwrap();
    }
    assert_eq!(chained.state_hash(), one.state_hash());
}
