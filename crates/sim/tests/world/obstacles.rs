//! Obstacles avoided, moved and removed; a scene set obstacle by obstacle; a flock asleep while
//! the observer is away.

use super::*;

#[test]
fn obstacles_are_avoided_and_can_move_and_go() {
    for mode in [ObstacleAvoidance::FreeDirection, ObstacleAvoidance::Reflect] {
        let mut w = World::new(cfg(4, 2)).unwrap();
        let p = FlockParams {
            obstacle_avoidance: mode,
            combine: Combine::Steer,
            max_force: 20.0,
            look_ahead: 4.0,
            boid_radius: 0.3,
            bounds: Bounds::None,
            weights: Weights {
                separation: 0.0,
                alignment: 0.0,
                cohesion: 0.0,
                obstacles: 10.0,
                ..Weights::default()
            },
            ..FlockParams::default()
        };
        let f = w.create_flock("f", p).unwrap();
        // A column of boids flying straight at a ball.
        let pos: Vec<Vec3> = (0..40)
            .map(|i| {
                Vec3::new(
                    (i % 8) as f32 * 0.4 - 1.4,
                    (i / 8) as f32 * 0.4 - 0.8,
                    -10.0,
                )
            })
            .collect();
        w.add_boids(f, &pos, &vec![Vec3::new(0.0, 0.0, 4.0); 40])
            .unwrap();
        let ball = Obstacle::Sphere {
            centre: Vec3::ZERO,
            radius: 2.0,
        };
        let id = w.add_obstacle(ball).unwrap();
        for _ in 0..400 {
            w.step(DT).unwrap();
            for p in w.flock(f).unwrap().positions() {
                assert!(p.length() > 2.0, "{mode:?}: a boid entered the ball at {p}");
            }
        }
        // Moving and removing the obstacle works; a stale id is refused.
        w.set_obstacle(
            id,
            Obstacle::Sphere {
                centre: Vec3::splat(50.0),
                radius: 1.0,
            },
        )
        .unwrap();
        assert_eq!(w.obstacles().len(), 1);
        w.remove_obstacle(id).unwrap();
        assert!(w.remove_obstacle(id).is_err());
        assert!(w.set_obstacle(id, ball).is_err());
        assert!(w.obstacles().is_empty());
        assert!(
            w.add_obstacle(Obstacle::Sphere {
                centre: Vec3::ZERO,
                radius: f32::NAN
            })
            .is_err()
        );
    }
}

/// A scene moved obstacle by obstacle (a parent that moves every frame sets every obstacle
/// again) is the scene the next step casts against and the ground queries see: the same bits
/// as a world whose obstacles were put there in the first place.
#[test]
fn a_scene_set_obstacle_by_obstacle_is_the_one_the_step_sees() {
    let make = |start: Vec3| {
        let mut w = World::new(cfg(8, 1)).unwrap();
        let f = w.create_flock("f", FlockParams::default()).unwrap();
        w.spawn(f, 400, &Spawn::default()).unwrap();
        let ids: Vec<_> = (0..60)
            .map(|k| {
                w.add_obstacle(Obstacle::Sphere {
                    centre: start
                        + Vec3::new((k % 8) as f32 * 1.5 - 6.0, (k / 8) as f32 * 1.5 - 6.0, 0.0),
                    radius: 0.6,
                })
                .unwrap()
            })
            .collect();
        (w, ids)
    };
    let (mut moved, ids) = make(Vec3::new(500.0, 0.0, 0.0));
    // The scene as it was, made for casts before the moves.
    assert_eq!(moved.placed_obstacles().len(), 60);
    for (k, id) in ids.iter().enumerate() {
        moved
            .set_obstacle(
                *id,
                Obstacle::Sphere {
                    centre: Vec3::new((k % 8) as f32 * 1.5 - 6.0, (k / 8) as f32 * 1.5 - 6.0, 0.0),
                    radius: 0.6,
                },
            )
            .unwrap();
    }
    let (mut placed, _) = make(Vec3::ZERO);
    assert_eq!(moved.placed_obstacles().len(), 60);
    for (a, b) in moved.obstacles().iter().zip(placed.obstacles()) {
        assert_eq!(*a, b);
    }
    for _ in 0..30 {
        moved.step(DT).unwrap();
        placed.step(DT).unwrap();
    }
    assert_eq!(moved.state_hash(), placed.state_hash());
}

#[test]
fn a_flock_sleeps_while_the_observer_is_away() {
    let mut w = World::new(cfg(4, 2)).unwrap();
    let f = w.create_flock("f", FlockParams::default()).unwrap();
    w.spawn(f, 300, &Spawn::default()).unwrap();
    w.set_wake_region(f, Some((Vec3::splat(-5.0), Vec3::splat(5.0))))
        .unwrap();
    w.set_observer(Some(Vec3::splat(20.0))).unwrap();
    let before = w.state_hash();
    for _ in 0..30 {
        w.step(DT).unwrap();
    }
    assert!(w.flock(f).unwrap().is_asleep());
    assert_eq!(w.state_hash(), before, "a sleeping flock does not move");
    assert_eq!(
        w.flock(f).unwrap().last_step_neighbours(),
        0,
        "and queried nothing"
    );
    w.set_observer(Some(Vec3::ZERO)).unwrap();
    w.step(DT).unwrap();
    assert!(!w.flock(f).unwrap().is_asleep());
    assert_ne!(w.state_hash(), before, "awake again");
    assert!(w.set_observer(Some(Vec3::NAN)).is_err());
}
