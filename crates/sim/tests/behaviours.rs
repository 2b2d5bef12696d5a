//! Interacting flocks (flee, chase), wander, arrival, leader and path following, and the level
//! of detail tiers.

use boids_core::fmath::Order;
use boids_sim::*;

const DT: f32 = 1.0 / 60.0;

fn quiet(bounds: Bounds) -> FlockParams {
    FlockParams {
        weights: Weights {
            separation: 0.0,
            alignment: 0.0,
            cohesion: 0.0,
            bounds: 2.0,
            obstacles: 0.0,
            ..Weights::default()
        },
        bounds,
        obstacle_avoidance: ObstacleAvoidance::None,
        ..FlockParams::default()
    }
}

fn arena() -> Bounds {
    Bounds::SoftBox {
        min: Vec3::splat(-15.0),
        max: Vec3::splat(15.0),
        distance: 4.0,
    }
}

/// Mean over steps 60..300 of the distance from the predator to its nearest prey.
fn predator_distance(flee: bool, seed: u64) -> f32 {
    let mut w = World::new(WorldConfig {
        seed,
        threads: 2,
        ..WorldConfig::default()
    })
    .unwrap();
    let prey = w
        .create_flock(
            "prey",
            FlockParams {
                bounds: arena(),
                ..FlockParams::default()
            },
        )
        .unwrap();
    w.spawn(
        prey,
        200,
        &Spawn {
            shape: SpawnShape::Sphere {
                centre: Vec3::ZERO,
                radius: 6.0,
            },
            ..Spawn::default()
        },
    )
    .unwrap();
    let shark = w
        .create_flock(
            "shark",
            FlockParams {
                max_speed: 5.0,
                ..quiet(arena())
            },
        )
        .unwrap();
    w.add_boids(
        shark,
        &[Vec3::new(-10.0, 0.0, 0.0)],
        &[Vec3::new(3.0, 0.0, 0.0)],
    )
    .unwrap();
    w.set_relation(shark, prey, RelationKind::Chase, 20.0, 10.0)
        .unwrap();
    if flee {
        w.set_relation(prey, shark, RelationKind::Flee, 5.0, 30.0)
            .unwrap();
    }
    let mut total = 0.0;
    for step in 0..300 {
        w.step(DT).unwrap();
        if step >= 60 {
            let s = w.flock(shark).unwrap().positions()[0];
            let d = w
                .flock(prey)
                .unwrap()
                .positions()
                .iter()
                .map(|p| (*p - s).length())
                .fold(f32::INFINITY, f32::at_most);
            total += d;
        }
    }
    total / 240.0
}

#[test]
fn prey_that_flee_keep_further_from_the_predator() {
    for seed in [1, 2, 3] {
        let (with, without) = (
            predator_distance(true, seed),
            predator_distance(false, seed),
        );
        assert!(
            with > without + 0.3,
            "seed {seed}: fleeing {with:.2} vs not {without:.2}"
        );
    }
}

#[test]
fn a_chaser_closes_in_on_a_single_target() {
    let mut w = World::new(WorldConfig {
        seed: 1,
        threads: 1,
        ..WorldConfig::default()
    })
    .unwrap();
    let target = w
        .create_flock(
            "target",
            FlockParams {
                min_speed: 2.0,
                max_speed: 2.0,
                ..quiet(Bounds::None)
            },
        )
        .unwrap();
    w.add_boids(
        target,
        &[Vec3::new(0.0, 0.0, 0.0)],
        &[Vec3::new(2.0, 0.0, 0.0)],
    )
    .unwrap();
    let chaser = w
        .create_flock(
            "chaser",
            FlockParams {
                max_speed: 5.0,
                ..quiet(Bounds::None)
            },
        )
        .unwrap();
    w.add_boids(
        chaser,
        &[Vec3::new(-6.0, 4.0, 3.0)],
        &[Vec3::new(0.0, 0.0, 3.0)],
    )
    .unwrap();
    w.set_relation(chaser, target, RelationKind::Chase, 50.0, 20.0)
        .unwrap();
    let dist = |w: &World| {
        (w.flock(chaser).unwrap().positions()[0] - w.flock(target).unwrap().positions()[0]).length()
    };
    let d0 = dist(&w);
    let mut closest = d0;
    for _ in 0..600 {
        w.step(DT).unwrap();
        closest = closest.at_most(dist(&w));
    }
    assert!(closest < 0.5, "got within {closest} (started {d0})");
}

#[test]
fn wander_turns_the_flock_but_stays_deterministic() {
    let run = |seed| {
        let mut w = World::new(WorldConfig {
            seed,
            threads: 2,
            ..WorldConfig::default()
        })
        .unwrap();
        let p = FlockParams {
            weights: Weights {
                wander: 3.0,
                separation: 0.0,
                alignment: 0.0,
                cohesion: 0.0,
                bounds: 0.0,
                ..Weights::default()
            },
            bounds: Bounds::None,
            ..FlockParams::default()
        };
        let f = w.create_flock("w", p).unwrap();
        w.add_boids(f, &[Vec3::ZERO; 20], &[Vec3::new(0.0, 0.0, 3.0); 20])
            .unwrap();
        for _ in 0..240 {
            w.step(DT).unwrap();
        }
        let turned = w
            .flock(f)
            .unwrap()
            .headings()
            .iter()
            .filter(|h| h.dot(Vec3::Z) < 0.9)
            .count();
        (w.state_hash(), turned)
    };
    let (a, turned) = run(4);
    assert!(turned >= 15, "{turned} of 20 turned more than 25 degrees");
    assert_eq!(run(4).0, a, "same seed, same wander");
    assert_ne!(run(5).0, a, "other seed, other wander");
}

#[test]
fn path_followers_stay_near_the_path() {
    let mut w = World::new(WorldConfig {
        seed: 3,
        threads: 2,
        ..WorldConfig::default()
    })
    .unwrap();
    let p = FlockParams {
        weights: Weights {
            path: 4.0,
            separation: 1.0,
            alignment: 0.0,
            cohesion: 0.0,
            bounds: 0.0,
            ..Weights::default()
        },
        bounds: Bounds::None,
        path_lookahead: 2.0,
        ..FlockParams::default()
    };
    let f = w.create_flock("p", p).unwrap();
    let square = [
        Vec3::new(-10.0, 0.0, -10.0),
        Vec3::new(10.0, 0.0, -10.0),
        Vec3::new(10.0, 0.0, 10.0),
        Vec3::new(-10.0, 0.0, 10.0),
    ];
    w.set_path(f, &square, true).unwrap();
    w.spawn(
        f,
        50,
        &Spawn {
            shape: SpawnShape::Sphere {
                centre: Vec3::new(-10.0, 0.0, 0.0),
                radius: 2.0,
            },
            ..Spawn::default()
        },
    )
    .unwrap();
    let off_path = |q: Vec3| {
        (0..4)
            .map(|k| {
                let (a, b) = (square[k], square[(k + 1) % 4]);
                let t = ((q - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
                (a + (b - a) * t - q).length()
            })
            .fold(f32::INFINITY, f32::at_most)
    };
    let mut worst = 0.0f32;
    let start = w.flock(f).unwrap().positions()[0];
    for step in 0..900 {
        w.step(DT).unwrap();
        if step > 120 {
            for &q in w.flock(f).unwrap().positions() {
                worst = worst.at_least(off_path(q));
            }
        }
    }
    assert!(worst < 2.5, "a follower got {worst} from the path");
    assert!(
        (w.flock(f).unwrap().positions()[0] - start).length() > 1.0,
        "they move along it"
    );
    assert!(w.set_path(f, &[Vec3::NAN, Vec3::ZERO], false).is_err());
}

#[test]
fn arrival_slows_down_at_the_target_and_leaders_are_followed() {
    let mut w = World::new(WorldConfig {
        seed: 3,
        threads: 1,
        ..WorldConfig::default()
    })
    .unwrap();
    let p = FlockParams {
        weights: Weights {
            target: 1.0,
            separation: 0.0,
            alignment: 0.0,
            cohesion: 0.0,
            bounds: 0.0,
            ..Weights::default()
        },
        combine: Combine::Steer,
        max_force: 10.0,
        min_speed: 0.0,
        arrival_radius: 4.0,
        target: Some(Target {
            point: Vec3::new(10.0, 0.0, 0.0),
            avoid_distance: 0.0,
        }),
        bounds: Bounds::None,
        ..FlockParams::default()
    };
    let f = w.create_flock("a", p).unwrap();
    w.add_boids(f, &[Vec3::ZERO], &[Vec3::new(0.0, 0.0, 1.0)])
        .unwrap();
    for _ in 0..600 {
        w.step(DT).unwrap();
    }
    let b = w.flock(f).unwrap().boid(0);
    assert!(
        (b.position - Vec3::new(10.0, 0.0, 0.0)).length() < 0.3,
        "arrived at {}",
        b.position
    );
    assert!(
        b.velocity.length() < 0.5,
        "and slowed down: {}",
        b.velocity.length()
    );

    // Leader following: nine boids follow boid 0, which wanders off on its own.
    let mut w = World::new(WorldConfig {
        seed: 3,
        threads: 1,
        ..WorldConfig::default()
    })
    .unwrap();
    let p = FlockParams {
        weights: Weights {
            target: 3.0,
            separation: 1.0,
            alignment: 0.0,
            cohesion: 0.0,
            bounds: 0.0,
            wander: 0.5,
            ..Weights::default()
        },
        combine: Combine::Steer,
        max_force: 8.0,
        min_speed: 0.0,
        arrival_radius: 2.0,
        bounds: Bounds::None,
        ..FlockParams::default()
    };
    let f = w.create_flock("l", p).unwrap();
    w.spawn(
        f,
        10,
        &Spawn {
            shape: SpawnShape::Sphere {
                centre: Vec3::ZERO,
                radius: 3.0,
            },
            ..Spawn::default()
        },
    )
    .unwrap();
    w.set_leader(f, Some((0, Vec3::new(0.0, 0.0, -2.0))))
        .unwrap();
    assert!(w.set_leader(f, Some((99, Vec3::ZERO))).is_err());
    let centre = |w: &World| {
        w.flock(f).unwrap().positions()[1..]
            .iter()
            .copied()
            .sum::<Vec3>()
            / 9.0
    };
    let (l0, c0) = (w.flock(f).unwrap().positions()[0], centre(&w));
    for _ in 0..900 {
        w.step(DT).unwrap();
    }
    let fl = w.flock(f).unwrap();
    let leader = fl.positions()[0];
    let mean = fl.positions()[1..]
        .iter()
        .map(|&q| (q - leader).length())
        .sum::<f32>()
        / 9.0;
    let (went, followed) = (leader - l0, centre(&w) - c0);
    assert!(went.length() > 20.0, "the leader went somewhere: {went}");
    assert!(
        followed.dot(went.normalize()) > 0.8 * went.length(),
        "the followers went along: {followed} vs {went}"
    );
    assert!(mean < 10.0, "and stay near the leader: {mean}");
}

#[test]
fn a_sleeping_flock_costs_nothing_and_does_not_move() {
    let mut w = World::new(WorldConfig {
        seed: 3,
        threads: 2,
        ..WorldConfig::default()
    })
    .unwrap();
    let f = w
        .create_flock(
            "far",
            FlockParams {
                sleep_distance: 20.0,
                ..FlockParams::default()
            },
        )
        .unwrap();
    w.spawn(f, 500, &Spawn::default()).unwrap();
    w.step(DT).unwrap();
    let used = w.flock(f).unwrap().last_step_neighbours();
    assert!(used > 0);
    w.set_observer(Some(Vec3::new(100.0, 0.0, 0.0))).unwrap();
    let before = w.state_hash();
    for _ in 0..50 {
        w.step(DT).unwrap();
    }
    let fl = w.flock(f).unwrap();
    assert!(fl.is_asleep() && !fl.was_stepped());
    assert_eq!(w.state_hash(), before, "frozen");
    assert_eq!(
        fl.last_step_neighbours(),
        used,
        "no neighbour query since it fell asleep"
    );
    // Waking: the next step is an ordinary step of dt, no catching up.
    let p0 = w.flock(f).unwrap().positions().to_vec();
    w.set_observer(Some(Vec3::ZERO)).unwrap();
    w.step(DT).unwrap();
    let fl = w.flock(f).unwrap();
    let jump = fl
        .positions()
        .iter()
        .zip(&p0)
        .map(|(a, b)| (*a - *b).length())
        .fold(0.0f32, f32::at_least);
    assert!(
        jump <= 5.0 * DT + 1e-4,
        "one step of motion at most, got {jump}"
    );
}

#[test]
fn every_second_step_tier_tracks_the_full_rate_flock() {
    // Over 120 steps (2 s) a flock updated every 2nd step with 2 dt stays close to the same flock
    // updated every step: its centre within 0.5 and its mean speed within 0.3.
    let run = |every: u32| {
        let mut w = World::new(WorldConfig {
            seed: 9,
            threads: 2,
            ..WorldConfig::default()
        })
        .unwrap();
        let p = FlockParams {
            update_every: every,
            weights: Weights {
                target: 0.5,
                ..Weights::default()
            },
            target: Some(Target {
                point: Vec3::new(8.0, 2.0, -3.0),
                avoid_distance: 0.0,
            }),
            bounds: Bounds::None,
            ..FlockParams::default()
        };
        let f = w.create_flock("f", p).unwrap();
        w.spawn(f, 300, &Spawn::default()).unwrap();
        for _ in 0..120 {
            w.step(DT).unwrap();
        }
        let m = boids_sim::metrics::measure(w.flock(f).unwrap());
        (w.flock(f).unwrap().centre(), m.mean_speed)
    };
    let (c1, s1) = run(1);
    let (c2, s2) = run(2);
    assert!((c1 - c2).length() < 0.5, "centres {c1} vs {c2}");
    assert!((s1 - s2).abs() < 0.3, "speeds {s1} vs {s2}");
}

#[test]
fn interacting_flocks_are_deterministic_for_any_thread_count() {
    let run = |threads| {
        let mut w = World::new(WorldConfig {
            seed: 21,
            threads,
            ..WorldConfig::default()
        })
        .unwrap();
        let fish = presets::create(&mut w, "shark", "fish").unwrap();
        let extra = w
            .create_flock(
                "birds",
                FlockParams {
                    weights: Weights {
                        wander: 1.0,
                        ..Weights::default()
                    },
                    update_every: 3,
                    ..FlockParams::default()
                },
            )
            .unwrap();
        w.spawn(extra, 300, &Spawn::default()).unwrap();
        w.set_relation(extra, fish, RelationKind::Avoid, 3.0, 5.0)
            .unwrap();
        w.set_relation(fish, extra, RelationKind::FlockTogether, 2.0, 1.0)
            .unwrap();
        for _ in 0..60 {
            w.step(DT).unwrap();
        }
        w.state_hash()
    };
    let one = run(1);
    for t in [2, 3, 4, 8] {
        assert_eq!(run(t), one, "{t} threads");
    }
}

#[test]
fn relations_are_validated() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let a = w.create_flock("a", FlockParams::default()).unwrap();
    let b = w.create_flock("b", FlockParams::default()).unwrap();
    assert!(w.set_relation(a, a, RelationKind::Flee, 1.0, 1.0).is_err());
    assert!(w.set_relation(a, b, RelationKind::Flee, 0.0, 1.0).is_err());
    assert!(
        w.set_relation(a, b, RelationKind::Flee, 1.0, f32::NAN)
            .is_err()
    );
    w.set_relation(a, b, RelationKind::Chase, 2.0, 1.0).unwrap();
    w.set_relation(a, b, RelationKind::Flee, 3.0, 1.0).unwrap();
    assert_eq!(w.relations().len(), 1, "one relation per ordered pair");
    w.set_relation(a, b, RelationKind::Ignore, 1.0, 1.0)
        .unwrap();
    assert!(w.relations().is_empty());
    w.set_relation(a, b, RelationKind::Avoid, 1.0, 1.0).unwrap();
    w.destroy_flock(b).unwrap();
    assert!(
        w.relations().is_empty(),
        "relations to a destroyed flock lapse"
    );
    w.step(DT).unwrap();
}
