//! A step that overlaps the caller's frame, and steps on a host's job system:
//! - `step_begin` then `step_end` gives exactly `step`'s bits, for every preset and for a flock
//!   large enough to run in parallel;
//! - while a step is in flight, reads return the state before it and every change is refused
//!   with `Busy` and changes nothing; `step_end` without a step is an error; dropping a world
//!   with a step in flight waits for it;
//! - a host executor that runs the ranges on 1, 2 or 7 threads of its own, in a random order,
//!   gives Rayon's bits.

#[path = "support/scenes.rs"]
mod scenes;

use boids_sim::*;
use scenes::scenes;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

const DT: f32 = 1.0 / 60.0;

fn world(threads: usize) -> World {
    World::new(WorldConfig {
        seed: 9,
        threads,
        ..WorldConfig::default()
    })
    .unwrap()
}

fn hash_after(mut w: World, make: &dyn Fn(&mut World), steps: usize, overlap: bool) -> u64 {
    make(&mut w);
    for _ in 0..steps {
        if overlap {
            w.step_begin(DT).unwrap();
            w.step_end().unwrap();
        } else {
            w.step(DT).unwrap();
        }
    }
    w.state_hash()
}

#[test]
fn begin_and_end_give_steps_bits() {
    for (name, make) in scenes() {
        let want = hash_after(world(1), &*make, 60, false);
        for threads in [0, 1, 2] {
            assert_eq!(
                hash_after(world(threads), &*make, 60, true),
                want,
                "{name}: begin/end on {threads} threads"
            );
        }
    }
}

#[test]
fn while_a_step_runs_reads_see_the_state_before_and_changes_are_refused() {
    let mut w = world(2);
    let f = presets::create(&mut w, "shark", "shark").unwrap();
    let big = w.create_flock("big", FlockParams::default()).unwrap();
    w.spawn(big, 5000, &Spawn::default()).unwrap();
    for _ in 0..3 {
        w.step(DT).unwrap();
    }
    let before_hash = w.state_hash();
    let flocks_before = w.flock_ids().count();
    let before_pos = w.flock(big).unwrap().positions().to_vec();
    let before_save = w.save();
    let mut m = vec![[0.0f32; 16]; 5000];
    w.read_matrices(big, 1.0, &mut m).unwrap();
    let before_m = m.clone();

    w.step_begin(DT).unwrap();
    assert!(w.is_stepping());
    // Reads: the state before the step, through every path.
    assert_eq!(w.state_hash(), before_hash);
    assert_eq!(w.flock(big).unwrap().positions(), &before_pos[..]);
    let mut pos = vec![Vec3::ZERO; 5000];
    w.read_positions(big, &mut pos).unwrap();
    assert_eq!(pos, before_pos);
    w.read_matrices(big, 1.0, &mut m).unwrap();
    assert_eq!(m, before_m);
    assert_eq!(w.save(), before_save);
    // Changes: Busy, and nothing changes.
    let p = *w.flock(f).unwrap().params();
    let changes: Vec<(&str, Result<(), Error>)> = vec![
        ("step", w.step(DT)),
        ("step_begin", w.step_begin(DT)),
        ("set_params", w.set_params(f, p)),
        ("spawn", w.spawn(f, 1, &Spawn::default()).map(|_| ())),
        (
            "add_boids",
            w.add_boids(f, &[Vec3::ZERO], &[Vec3::X]).map(|_| ()),
        ),
        ("remove_boids", w.remove_boids(f, &[0]).map(|_| ())),
        ("write_state", w.write_state(f, Some(&[]), None)),
        ("create_flock", w.create_flock("x", p).map(|_| ())),
        ("destroy_flock", w.destroy_flock(f)),
        (
            "add_obstacle",
            w.add_obstacle(Obstacle::Sphere {
                centre: Vec3::ZERO,
                radius: 1.0,
            })
            .map(|_| ()),
        ),
        ("set_observer", w.set_observer(Some(Vec3::ZERO))),
        ("set_path", w.set_path(f, &[], false)),
        ("resize_flock", w.resize_flock(f, 3, &Spawn::default())),
    ];
    for (what, r) in changes {
        assert_eq!(r, Err(Error::Busy), "{what} during a step");
    }
    w.destroy_all();
    assert_eq!(
        w.flock_ids().count(),
        flocks_before,
        "destroy_all waits for no step: it does nothing"
    );
    assert_eq!(
        w.state_hash(),
        before_hash,
        "refused changes changed nothing"
    );
    w.step_end().unwrap();
    assert!(!w.is_stepping());
    assert_ne!(w.state_hash(), before_hash, "the step happened");
    assert!(
        matches!(w.step_end(), Err(Error::InvalidArgument(_))),
        "no second end"
    );
    // The same as a world that stepped without overlap.
    let mut plain = world(1);
    presets::create(&mut plain, "shark", "shark").unwrap();
    let b = plain.create_flock("big", FlockParams::default()).unwrap();
    plain.spawn(b, 5000, &Spawn::default()).unwrap();
    for _ in 0..4 {
        plain.step(DT).unwrap();
    }
    assert_eq!(w.state_hash(), plain.state_hash());
}

#[test]
fn dropping_a_world_with_a_step_in_flight_waits_for_it() {
    for _ in 0..20 {
        let mut w = world(2);
        let f = w.create_flock("f", FlockParams::default()).unwrap();
        w.spawn(f, 8000, &Spawn::default()).unwrap();
        w.step_begin(DT).unwrap();
        drop(w);
    }
}

/// A host's job system, as a test: each call's ranges, shuffled, run on `workers` threads of
/// its own; spawned jobs run on a new thread.
struct Shuffled {
    workers: usize,
    seed: AtomicU64,
    calls: AtomicU64,
}

impl Exec for Shuffled {
    fn workers(&self) -> usize {
        self.workers
    }

    fn for_ranges(&self, n: usize, grain: usize, task: &(dyn Fn(Range<usize>) + Sync)) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let grain = grain.max(1);
        let mut ranges: Vec<Range<usize>> = (0..n.div_ceil(grain))
            .map(|c| c * grain..((c + 1) * grain).min(n))
            .collect();
        // Fisher-Yates with a counter-based generator: a different order on every call.
        let mut s = self
            .seed
            .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed);
        for i in (1..ranges.len()).rev() {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ranges.swap(i, (s % (i as u64 + 1)) as usize);
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..self.workers {
                scope.spawn(|| {
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(r) = ranges.get(k) else { break };
                        task(r.clone());
                    }
                });
            }
        });
    }

    fn spawn(&self, job: Arc<dyn boids_sim::Spawned>) {
        std::thread::spawn(move || job.run());
    }
}

#[test]
fn a_host_job_system_gives_rayons_bits_for_any_worker_count_and_order() {
    for (name, make) in scenes() {
        let want = hash_after(world(2), &*make, 40, false);
        for workers in [1, 2, 7] {
            let exec = Arc::new(Shuffled {
                workers,
                seed: AtomicU64::new(workers as u64 * 7919 + 1),
                calls: AtomicU64::new(0),
            });
            let config = WorldConfig {
                seed: 9,
                ..WorldConfig::default()
            };
            for overlap in [false, true] {
                let w = World::with_exec(config, exec.clone()).unwrap();
                assert_eq!(w.threads(), workers);
                assert_eq!(
                    hash_after(w, &*make, 40, overlap),
                    want,
                    "{name}: {workers} host workers (overlap {overlap})"
                );
            }
            if name.starts_with("school") {
                assert!(
                    exec.calls.load(Ordering::Relaxed) > 40,
                    "the parallel loops ran on the host"
                );
            }
        }
    }
}
