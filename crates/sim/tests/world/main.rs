//! The World: API contract, determinism, bounds, robustness. Each test is short and
//! independent; they share the fixtures at the top (and `worlds`: several worlds at once;
//! `obstacles`: obstacles and the observer).
#![allow(clippy::field_reassign_with_default)] // tests build params step by step

mod obstacles;
mod worlds;

use boids_core::fmath::{Extremes, Order};
use boids_sim::builtin::{bench_world, default_school};
use boids_sim::metrics::measure;
use boids_sim::*;

const DT: f32 = 1.0 / 60.0;

/// A world config with this seed and thread count.
fn cfg(seed: u64, threads: usize) -> boids_sim::WorldConfig {
    boids_sim::WorldConfig {
        seed,
        threads,
        ..boids_sim::WorldConfig::default()
    }
}

/// A world with one flock of every kind of rule set, index and bounds that the stepper has paths
/// for, including randomness (wander).
fn mixed_world(threads: usize, seed: u64) -> World {
    let mut w = World::new(cfg(seed, threads)).unwrap();
    let fish = w
        .create_flock(
            "fish",
            FlockParams {
                weights: Weights {
                    wander: 0.7,
                    ..Weights::default()
                },
                ..FlockParams::default()
            },
        )
        .unwrap();
    w.spawn(fish, 1500, &Spawn::default()).unwrap();
    let torus = w
        .create_flock(
            "torus",
            FlockParams {
                separation: SeparationMode::InverseSquare,
                alignment: AlignmentMode::MeanHeading,
                combine: Combine::Steer,
                bounds: Bounds::Wrap {
                    min: Vec3::ZERO,
                    max: Vec3::new(8.0, 6.0, 7.0),
                },
                perception_radius: 1.3,
                ..FlockParams::default()
            },
        )
        .unwrap();
    let spawn = Spawn {
        shape: SpawnShape::Box {
            min: Vec3::ZERO,
            max: Vec3::new(8.0, 6.0, 7.0),
        },
        ..Spawn::default()
    };
    w.spawn(torus, 900, &spawn).unwrap();
    let knn = w
        .create_flock(
            "starlings",
            FlockParams {
                max_neighbours: 7,
                integrator: Integrator::HeadingSpeed,
                max_turn_rate: 3.0,
                perception_radius: 2.0,
                ..FlockParams::default()
            },
        )
        .unwrap();
    w.spawn(knn, 700, &Spawn::default()).unwrap();
    let flat = w
        .create_flock(
            "flat",
            FlockParams {
                index: IndexKind::BruteForce,
                plane: PlaneLock::XY,
                combine: Combine::WeightedClamped,
                integrator: Integrator::Kinematic,
                drive_factor: 10.0,
                separation: SeparationMode::MeanOffset,
                alignment: AlignmentMode::MeanHeading,
                bounds: Bounds::SoftSphere {
                    centre: Vec3::ZERO,
                    radius: 6.0,
                    inner: 0.9,
                },
                perception_radius: 1.5,
                separation_radius: 0.75,
                ..FlockParams::default()
            },
        )
        .unwrap();
    let disc = Spawn {
        shape: SpawnShape::Disc {
            centre: Vec3::ZERO,
            radius: 5.0,
        },
        ..Spawn::default()
    };
    w.spawn(flat, 300, &disc).unwrap();
    w
}

fn run(mut w: World, steps: usize) -> u64 {
    for _ in 0..steps {
        w.step(DT).unwrap();
    }
    w.state_hash()
}

#[test]
fn state_is_bit_identical_for_any_thread_count() {
    let reference = run(mixed_world(1, 5), 40);
    for threads in [2, 3, 4, 8] {
        assert_eq!(
            run(mixed_world(threads, 5), 40),
            reference,
            "{threads} threads"
        );
    }
    // The global pool, sized by RAYON_NUM_THREADS (the test script runs this under several).
    assert_eq!(run(mixed_world(0, 5), 40), reference, "global pool");
}

#[test]
fn same_seed_same_state_other_seed_other_state() {
    assert_eq!(run(mixed_world(2, 9), 20), run(mixed_world(2, 9), 20));
    assert_ne!(run(mixed_world(2, 9), 20), run(mixed_world(2, 10), 20));
}

#[test]
fn grid_fast_path_agrees_with_brute_force() {
    for kind in [IndexKind::Grid, IndexKind::KdTree] {
        let (mut a, fa) = bench_world(3000, cfg(4, 2), kind).unwrap();
        let (mut b, fb) = bench_world(3000, cfg(4, 2), IndexKind::BruteForce).unwrap();
        for _ in 0..3 {
            a.step(DT).unwrap();
            b.step(DT).unwrap();
            let (x, y) = (a.flock(fa).unwrap(), b.flock(fb).unwrap());
            // Exactly the same neighbours were used...
            assert_eq!(
                x.last_step_neighbours(),
                y.last_step_neighbours(),
                "{kind:?}"
            );
            // ...and the states agree up to the order of floating-point sums.
            for i in 0..x.len() {
                assert!((x.positions()[i] - y.positions()[i]).length() < 1e-4);
                assert!((x.velocities()[i] - y.velocities()[i]).length() < 1e-3);
            }
        }
    }
}

#[test]
fn the_naive_tutorial_loop_agrees_with_the_engine() {
    // An independent, straightforward implementation of the fish-tank rules (the benchmark baseline) and
    // the engine give the same step from the same state.
    for kind in [IndexKind::Grid, IndexKind::BruteForce] {
        let (mut w, f) = bench_world(2000, cfg(12, 2), kind).unwrap();
        for _ in 0..3 {
            let fl = w.flock(f).unwrap();
            let state: Vec<BoidState> = (0..fl.len()).map(|i| fl.boid(i)).collect();
            let (expect, used) = boids_sim::builtin::naive_step(&state, fl.params(), DT);
            w.step(DT).unwrap();
            let fl = w.flock(f).unwrap();
            assert_eq!(fl.last_step_neighbours(), used, "{kind:?}");
            for (i, e) in expect.iter().enumerate() {
                let scale = 1.0 + e.velocity.length();
                assert!(
                    (fl.velocities()[i] - e.velocity).length() <= 1e-5 * scale,
                    "{kind:?} boid {i}"
                );
                assert!(
                    (fl.positions()[i] - e.position).length() <= 1e-5 * (1.0 + e.position.length())
                );
            }
        }
    }
}

#[test]
fn k_nearest_is_bit_identical_on_every_index() {
    // The k nearest are offered to the rules in (distance, index) order on every path, so the
    // states match to the bit, in a plain box and in a periodic one.
    for bounds in [
        None,
        Some(Bounds::Wrap {
            min: Vec3::ZERO,
            max: Vec3::splat(9.0),
        }),
    ] {
        let hashes: Vec<(u64, u64)> = [IndexKind::Grid, IndexKind::KdTree, IndexKind::BruteForce]
            .into_iter()
            .map(|kind| {
                let (mut w, f) = bench_world(2500, cfg(8, 2), kind).unwrap();
                let mut p = *w.flock(f).unwrap().params();
                p.max_neighbours = 7;
                if let Some(b) = bounds {
                    p.bounds = b;
                }
                w.set_params(f, p).unwrap();
                for _ in 0..5 {
                    w.step(DT).unwrap();
                }
                (w.state_hash(), w.flock(f).unwrap().last_step_neighbours())
            })
            .collect();
        assert!(hashes[0].1 > 0);
        assert_eq!(hashes[0], hashes[1], "grid vs k-d tree, {bounds:?}");
        assert_eq!(hashes[0], hashes[2], "grid vs brute force, {bounds:?}");
    }
}

#[test]
fn every_bounds_kind_keeps_boids_inside_for_10000_steps() {
    let lo = Vec3::splat(-8.0);
    let hi = Vec3::splat(8.0);
    // (bounds, tolerance beyond the surface a soft bound may let a boid overshoot)
    let kinds = [
        (
            Bounds::SoftBox {
                min: lo,
                max: hi,
                distance: 3.0,
            },
            1.0,
        ),
        (
            Bounds::SoftSphere {
                centre: Vec3::ZERO,
                radius: 8.0,
                inner: 0.9,
            },
            2.0,
        ),
        (Bounds::Wrap { min: lo, max: hi }, 0.0),
        (Bounds::Clamp { min: lo, max: hi }, 0.0),
    ];
    for (bounds, tol) in kinds {
        let mut w = World::new(cfg(3, 2)).unwrap();
        let id = w
            .create_flock(
                "f",
                FlockParams {
                    bounds,
                    ..FlockParams::default()
                },
            )
            .unwrap();
        let spawn = Spawn {
            shape: SpawnShape::Sphere {
                centre: Vec3::ZERO,
                radius: 6.0,
            },
            ..Spawn::default()
        };
        w.spawn(id, 300, &spawn).unwrap();
        let mut worst = 0.0f32;
        for _ in 0..10_000 {
            w.step(DT).unwrap();
            for &p in w.flock(id).unwrap().positions() {
                let out = match bounds {
                    Bounds::SoftSphere { centre, radius, .. } => (p - centre).length() - radius,
                    _ => (lo - p).at_least(p - hi).largest(),
                };
                worst = worst.at_least(out);
                assert!(p.is_finite());
            }
        }
        assert!(
            worst <= tol,
            "{bounds:?}: a boid got {worst} beyond the bounds (allowed {tol})"
        );
        if let Bounds::Wrap { .. } = bounds {
            assert!(
                w.flock(id)
                    .unwrap()
                    .positions()
                    .iter()
                    .all(|p| p.cmplt(hi).all())
            );
        }
    }
}

#[test]
fn extreme_params_leave_no_nan_over_10000_steps() {
    let huge = FlockParams {
        weights: Weights {
            separation: 1e9,
            alignment: 1e9,
            cohesion: 1e9,
            target: 1e9,
            target_avoid: 1e9,
            bounds: 1e9,
            obstacles: 0.0,
            wander: 1e9,
            path: 0.0,
        },
        target: Some(Target {
            point: Vec3::splat(3.0),
            avoid_distance: 1.0,
        }),
        max_speed: 1e6,
        ..FlockParams::default()
    };
    let zero_radii = FlockParams {
        perception_radius: 0.0,
        separation_radius: 0.0,
        ..FlockParams::default()
    };
    let zero_speed = FlockParams {
        min_speed: 0.0,
        max_speed: 0.0,
        ..FlockParams::default()
    };
    let steer = FlockParams {
        combine: Combine::Steer,
        max_force: 1e9,
        ..huge
    };
    let point = Spawn {
        shape: SpawnShape::Sphere {
            centre: Vec3::ONE,
            radius: 0.0,
        },
        ..Spawn::default()
    };
    let cases = [
        ("huge weights", huge, Spawn::default()),
        ("huge steer", steer, Spawn::default()),
        ("zero radii", zero_radii, Spawn::default()),
        ("zero speeds", zero_speed, Spawn::default()),
        ("all at one point", FlockParams::default(), point),
        (
            "all at one point, no speed",
            FlockParams::default(),
            Spawn {
                min_speed: 0.0,
                max_speed: 0.0,
                ..point
            },
        ),
    ];
    for (name, params, spawn) in cases {
        let mut w = World::new(cfg(1, 2)).unwrap();
        let id = w.create_flock("x", params).unwrap();
        w.spawn(id, 64, &spawn).unwrap();
        for step in 0..10_000 {
            w.step(DT).unwrap();
            if step % 500 == 0 || step == 9_999 {
                let f = w.flock(id).unwrap();
                for i in 0..f.len() {
                    assert!(f.boid(i).is_finite(), "{name}: NaN/Inf at step {step}");
                }
            }
        }
    }
}

#[test]
fn flocks_by_id_and_name() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let a = w.create_flock("a", FlockParams::default()).unwrap();
    let b = w.create_flock("b", FlockParams::default()).unwrap();
    assert_eq!(w.find_flock("b"), Some(b));
    assert!(
        w.create_flock("a", FlockParams::default()).is_err(),
        "names are unique"
    );
    assert!(w.create_flock("", FlockParams::default()).is_err());
    assert!(!w.is_valid(FlockId::default()), "the zero id is null");
    w.destroy_flock(a).unwrap();
    assert!(!w.is_valid(a));
    assert_eq!(
        w.destroy_flock(a),
        Err(Error::InvalidId),
        "double destroy is an error"
    );
    assert_eq!(w.spawn(a, 3, &Spawn::default()), Err(Error::InvalidId));
    // The slot is reused with a new generation: the old id stays stale.
    let c = w.create_flock("c", FlockParams::default()).unwrap();
    assert_eq!(c.index, a.index);
    assert_ne!(c.generation, a.generation);
    assert!(!w.is_valid(a));
    let forged = FlockId {
        index: 99,
        generation: 1,
    };
    assert!(w.flock(forged).is_none());
    w.destroy_all();
    assert_eq!(w.flock_ids().count(), 0);
    assert!(!w.is_valid(b) && !w.is_valid(c));
}

#[test]
fn boids_keep_their_ids_through_adds_and_removes() {
    let mut w = World::new(cfg(2, 1)).unwrap();
    let f = w.create_flock("f", FlockParams::default()).unwrap();
    assert_eq!(w.spawn(f, 5, &Spawn::default()).unwrap(), 0);
    let first = w
        .add_boids(f, &[Vec3::ZERO, Vec3::ONE], &[Vec3::X, Vec3::Y])
        .unwrap();
    assert_eq!(first, 5);
    assert_eq!(w.flock(f).unwrap().ids(), &[0, 1, 2, 3, 4, 5, 6]);
    let p6 = w.flock(f).unwrap().positions()[6];
    assert_eq!(w.remove_boids(f, &[1, 3]).unwrap(), 2);
    let fl = w.flock(f).unwrap();
    assert_eq!(fl.ids(), &[0, 2, 4, 5, 6]);
    assert_eq!(fl.positions()[fl.position_of(6).unwrap()], p6);
    // An unknown id removes nothing.
    let before = w.state_hash();
    assert!(w.remove_boids(f, &[0, 77]).is_err());
    assert_eq!(w.state_hash(), before);
    // New ids never reuse old ones.
    assert_eq!(w.spawn(f, 1, &Spawn::default()).unwrap(), 7);
    w.step(DT).unwrap();
    assert_eq!(w.flock(f).unwrap().ids(), &[0, 2, 4, 5, 6, 7]);
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut w = World::new(cfg(2, 1)).unwrap();
    let f = w.create_flock("f", FlockParams::default()).unwrap();
    w.spawn(f, 50, &Spawn::default()).unwrap();
    let before = w.state_hash();
    for dt in [0.0, -1.0, f32::NAN, f32::INFINITY, 2.0] {
        assert!(w.step(dt).is_err(), "dt {dt}");
    }
    assert_eq!(w.steps(), 0);
    let mut bad = FlockParams::default();
    bad.perception_radius = f32::NAN;
    let e = w.set_params(f, bad).unwrap_err();
    assert!(e.to_string().contains("perception_radius"), "{e}");
    assert_eq!(w.flock(f).unwrap().params(), &FlockParams::default());
    assert!(w.create_flock("g", bad).is_err());
    assert!(w.add_boids(f, &[Vec3::NAN], &[Vec3::ZERO]).is_err());
    assert!(w.add_boids(f, &[Vec3::ZERO], &[]).is_err());
    assert!(
        w.add_boids(
            f,
            &[Vec3::ZERO, Vec3::splat(f32::INFINITY)],
            &[Vec3::ZERO; 2]
        )
        .is_err()
    );
    assert!(
        w.write_state(f, Some(&[Vec3::ZERO; 3]), None).is_err(),
        "wrong length"
    );
    let mut nan_vel = vec![Vec3::ZERO; 50];
    nan_vel[49] = Vec3::new(0.0, f32::NAN, 0.0);
    assert!(w.write_state(f, None, Some(&nan_vel)).is_err());
    assert!(w.set_target(f, Vec3::ZERO).is_err(), "no target settings");
    assert!(w.spawn(f, usize::MAX, &Spawn::default()).is_err());
    let bad_spawn = Spawn {
        min_speed: 3.0,
        max_speed: 1.0,
        ..Spawn::default()
    };
    assert!(w.spawn(f, 1, &bad_spawn).is_err());
    assert_eq!(w.state_hash(), before, "nothing changed");
    assert_eq!(w.flock(f).unwrap().len(), 50);
}

#[test]
fn live_params_and_moving_targets_take_effect() {
    let mut w = World::new(cfg(2, 1)).unwrap();
    let p = FlockParams {
        target: Some(Target {
            point: Vec3::new(50.0, 0.0, 0.0),
            avoid_distance: 0.0,
        }),
        weights: Weights {
            target: 5.0,
            ..Weights::default()
        },
        bounds: Bounds::None,
        ..FlockParams::default()
    };
    let f = w.create_flock("f", p).unwrap();
    w.spawn(f, 100, &Spawn::default()).unwrap();
    for _ in 0..300 {
        w.step(DT).unwrap();
    }
    let mean_x = |w: &World| {
        w.flock(f)
            .unwrap()
            .positions()
            .iter()
            .map(|p| p.x)
            .sum::<f32>()
            / 100.0
    };
    assert!(mean_x(&w) > 10.0, "drawn toward +x: {}", mean_x(&w));
    w.set_target(f, Vec3::new(-50.0, 0.0, 0.0)).unwrap();
    let before = mean_x(&w);
    for _ in 0..300 {
        w.step(DT).unwrap();
    }
    assert!(
        mean_x(&w) < before - 10.0,
        "moved target pulls back: {} -> {}",
        before,
        mean_x(&w)
    );
    // Turning every weight off but alignment keeps the flock's polarisation from falling.
    let mut q = *w.flock(f).unwrap().params();
    q.max_speed = 2.0;
    w.set_params(f, q).unwrap();
    w.step(DT).unwrap();
    assert!(
        w.flock(f)
            .unwrap()
            .velocities()
            .iter()
            .all(|v| v.length() <= 2.0 + 1e-4)
    );
}

#[test]
fn default_school_trajectory_digest() {
    let (mut w, id) = default_school(400, 1, 1).unwrap();
    let mut digest = String::new();
    for step in 1..=300 {
        w.step(DT).unwrap();
        if step % 100 == 0 {
            let f = w.flock(id).unwrap();
            let m = measure(f);
            digest += &format!(
                "step {step}: hash {:016x} polarisation {:.3} speed {:.3} nn {:.3}\n",
                w.state_hash(),
                m.polarisation,
                m.mean_speed,
                m.mean_nearest_distance
            );
            for i in [0usize, 199, 399] {
                let p = f.positions()[i];
                digest += &format!("  boid {i}: ({:.2}, {:.2}, {:.2})\n", p.x, p.y, p.z);
            }
        }
    }
    insta::assert_snapshot!(digest);
}

#[test]
fn metrics_measure_alignment_and_spacing() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let f = w.create_flock("f", FlockParams::default()).unwrap();
    let pos: Vec<Vec3> = (0..10)
        .map(|i| Vec3::new(i as f32 * 2.0, 0.0, 0.0))
        .collect();
    w.add_boids(f, &pos, &[Vec3::new(0.0, 3.0, 0.0); 10])
        .unwrap();
    let m = measure(w.flock(f).unwrap());
    assert!((m.polarisation - 1.0).abs() < 1e-6);
    assert!((m.mean_speed - 3.0).abs() < 1e-6);
    assert!((m.mean_nearest_distance - 2.0).abs() < 1e-6);
    assert_eq!(m.groups, 10, "2 apart with radius 1: every boid alone");
    assert_eq!(
        boids_sim::metrics::count_groups(&pos, 2.5),
        1,
        "linked in a chain"
    );
    let two: Vec<Vec3> = [0.0, 0.5, 1.0, 10.0, 10.5]
        .iter()
        .map(|&x| Vec3::new(x, 0.0, 0.0))
        .collect();
    assert_eq!(boids_sim::metrics::count_groups(&two, 0.6), 2);
    assert_eq!(boids_sim::metrics::count_groups(&[], 1.0), 0);
    let opposite: Vec<Vec3> = (0..10)
        .map(|i| if i % 2 == 0 { Vec3::X } else { -Vec3::X })
        .collect();
    w.write_state(f, None, Some(&opposite)).unwrap();
    assert!(measure(w.flock(f).unwrap()).polarisation < 1e-6);
}

#[test]
fn a_flock_resizes_to_a_requested_count() {
    let mut w = World::new(cfg(4, 1)).unwrap();
    let f = w.create_flock("f", FlockParams::default()).unwrap();
    w.resize_flock(f, 100, &Spawn::default()).unwrap();
    w.step(DT).unwrap();
    w.resize_flock(f, 40, &Spawn::default()).unwrap();
    assert_eq!(
        w.flock(f).unwrap().ids(),
        &(0..40).collect::<Vec<u32>>()[..],
        "the newest go first"
    );
    w.resize_flock(f, 60, &Spawn::default()).unwrap();
    assert_eq!(w.flock(f).unwrap().len(), 60);
    assert_eq!(
        *w.flock(f).unwrap().ids().last().unwrap(),
        119,
        "ids are never reused"
    );
}

#[test]
fn orientations_and_instance_matrices_follow_headings() {
    let mut w = World::new(cfg(4, 2)).unwrap();
    let f = w.create_flock("f", FlockParams::default()).unwrap();
    w.spawn(f, 5000, &Spawn::default()).unwrap();
    // One boid straight up, where "up" is undefined.
    w.add_boids(f, &[Vec3::ONE], &[Vec3::new(0.0, 3.0, 0.0)])
        .unwrap();
    w.step(DT).unwrap();
    let n = w.flock(f).unwrap().len();
    let mut q = vec![[0.0f32; 4]; n];
    let mut m = vec![[0.0f32; 16]; n + 3];
    assert_eq!(w.read_orientations(f, &mut q).unwrap(), n);
    assert_eq!(w.read_matrices(f, 0.5, &mut m).unwrap(), n);
    assert_eq!(
        w.read_matrices(f, 1.0, &mut m[..n - 1]),
        Err(Error::BufferTooSmall { needed: n })
    );
    assert!(w.read_matrices(f, f32::NAN, &mut m).is_err());
    let fl = w.flock(f).unwrap();
    for i in 0..n {
        let h = fl.headings()[i];
        assert!(
            (Quat::from_array(q[i]) * Vec3::Z - h).length() < 1e-4,
            "orientation forward = heading"
        );
        let col = |c: usize| Vec3::new(m[i][4 * c], m[i][4 * c + 1], m[i][4 * c + 2]);
        assert!(
            (col(2) - h * 0.5).length() < 1e-4,
            "third column = forward * scale"
        );
        assert_eq!(col(3), fl.positions()[i], "translation");
        assert_eq!([m[i][3], m[i][7], m[i][11], m[i][15]], [0.0, 0.0, 0.0, 1.0]);
        assert!(col(0).dot(col(1)).abs() < 1e-5 && col(0).dot(col(2)).abs() < 1e-5);
        assert!((col(0).length() - 0.5).abs() < 1e-4 && (col(1).length() - 0.5).abs() < 1e-4);
        // Right-handed like Unity's LookRotation: right x up = forward.
        assert!((col(0).cross(col(1)) * 2.0 - col(2)).length() < 1e-3);
    }
}
