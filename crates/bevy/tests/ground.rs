//! The `Ground` marker: a heightfield entity marked as ground is what a grounded flock stands
//! on; without the marker it is an obstacle only (the flock has no ground and stays where it
//! is); on a sphere the marker is refused and the sphere kept as it was.

mod support;

use bevy::math::Vec2;
use bevy::prelude::*;
use boids_bevy::{Boid, BoidSpawn, Boids, BoidsPlugin, Flock, Ground, Heightfield, Obstacle};
use boids_sim::{Bounds, FlockParams, GroundUp, ObstacleAvoidance, Weights};
use support::{app, positions, run_to, tick};

/// The hill's height at `(x, z)`: a plane rising 0.25 a unit along x.
fn hill(x: f32) -> f32 {
    0.25 * (x + 10.0)
}

/// The hill as a heightfield entity marked as ground.
fn hill_field(w: &mut World) -> Entity {
    let n = 21u32;
    let heights: Vec<f32> = (0..n * n).map(|k| hill((k % n) as f32 - 10.0)).collect();
    w.spawn((
        Obstacle::Heightfield(Heightfield {
            columns: n,
            rows: n,
            cell: Vec2::ONE,
            heights: heights.into(),
        }),
        Transform::from_xyz(-10.0, 0.0, -10.0),
        Ground,
    ))
    .id()
}

/// A grounded flock of five walking along +z across the hill, up in their orientation `up`.
fn walkers(w: &mut World, up: GroundUp) -> Entity {
    let params = FlockParams {
        weights: Weights {
            separation: 0.0,
            alignment: 0.0,
            cohesion: 0.0,
            ..Weights::default()
        },
        bounds: Bounds::None,
        obstacle_avoidance: ObstacleAvoidance::None,
        min_speed: 0.5,
        max_speed: 0.5,
        ground: Some(boids_sim::Ground {
            pivot_height: 0.5,
            up,
            ..boids_sim::Ground::default()
        }),
        ..FlockParams::default()
    };
    let flock = w.spawn(Flock::new(params)).id();
    for k in 0..5 {
        w.spawn((
            BoidSpawn {
                flock,
                velocity: Vec3::new(0.0, 0.0, 0.5),
            },
            Transform::from_xyz(-4.0 + 2.0 * k as f32, 8.0, 0.0),
        ));
    }
    flock
}

#[test]
fn a_grounded_flock_stands_on_the_marked_heightfield_and_loses_it_with_the_marker() {
    let mut a = app(BoidsPlugin::default().threads(1), tick());
    let w = a.world_mut();
    let field = hill_field(w);
    let flock = walkers(w, GroundUp::World);
    let rock = w
        .spawn((
            Obstacle::Sphere { radius: 1.0 },
            Transform::from_xyz(0.0, 0.0, 8.0),
        ))
        .id();
    run_to(&mut a, 20);
    for (id, p) in positions(&a, flock) {
        let want = hill(p.x) + 0.5;
        assert!(
            (p.y - want).abs() < 1e-4,
            "boid {id} at {p}: not on the hill ({want})"
        );
    }
    let b = a.world().resource::<Boids>();
    let o = b.world().obstacle_ids().collect::<Vec<_>>();
    assert_eq!(o.len(), 2);
    let grounds = o
        .iter()
        .filter(|&&o| b.world().obstacle(o).unwrap().is_ground());
    assert_eq!(grounds.count(), 1, "the field is ground, the sphere is not");

    // The marker on a sphere: refused, the sphere kept as it was (not ground).
    a.world_mut().entity_mut(rock).insert(Ground);
    // Without the marker the field is an obstacle only: the flock has no ground and stands
    // still where it is.
    a.world_mut().entity_mut(field).remove::<Ground>();
    run_to(&mut a, 21);
    let still = positions(&a, flock);
    run_to(&mut a, 30);
    assert_eq!(positions(&a, flock), still, "no ground: nobody moves");
    let b = a.world().resource::<Boids>();
    let kept: Vec<_> = b.world().obstacle_ids().collect();
    assert_eq!(kept.len(), 2, "the sphere is kept");
    assert!(
        kept.iter()
            .all(|&o| !b.world().obstacle(o).unwrap().is_ground()),
        "nothing is ground now"
    );

    // The marker back: the flock walks again.
    a.world_mut().entity_mut(field).insert(Ground);
    run_to(&mut a, 40);
    assert_ne!(positions(&a, flock), still, "ground again: they walk");
}

#[test]
fn a_leaning_flock_s_transforms_lean_with_the_ground_and_an_upright_one_s_do_not() {
    // The hill's normal: the plane y = 0.25 x has normal (-0.25, 1, 0), normalised.
    let normal = Vec3::new(-0.25, 1.0, 0.0).normalize();
    for (up, want) in [(GroundUp::Normal, normal), (GroundUp::World, Vec3::Y)] {
        let mut a = app(BoidsPlugin::default().threads(1), tick());
        let w = a.world_mut();
        hill_field(w);
        let flock = walkers(w, up);
        run_to(&mut a, 30);
        let mut q = a.world_mut().query::<(&Boid, &Transform)>();
        let mut seen = 0;
        for (boid, t) in q.iter(a.world()) {
            assert_eq!(boid.flock(), flock);
            // Walking along +z (across the slope): forward is +z, up is `want`.
            let (f, u) = (t.forward().as_vec3(), t.up().as_vec3());
            assert!((f - Vec3::Z).length() < 1e-3, "{up:?}: forward {f}");
            assert!((u - want).length() < 1e-3, "{up:?}: up {u}, not {want}");
            seen += 1;
        }
        assert_eq!(seen, 5);
    }
}
