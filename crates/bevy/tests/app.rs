//! The plugin inside a real, headless Bevy `App` (`MinimalPlugins`, transforms, assets, the
//! fixed clock stepped by `TimeUpdateStrategy::ManualDuration`), against the engine alone.

mod support;

use bevy::asset::Assets;
use bevy::mesh::{Mesh, Meshable};
use bevy::prelude::*;
use boids_bevy::{
    Boid, BoidSpawn, Boids, BoidsPlugin, Flock, FlockRelation, Obstacle, RelationKind,
};
use boids_sim::{FlockParams, WorldConfig};
use support::*;

#[test]
fn three_hundred_fixed_steps_give_the_engines_own_bits_on_one_and_two_threads() {
    for threads in [1, 2] {
        for overlapped in [false, true] {
            let plugin = BoidsPlugin::default()
                .seed(9)
                .threads(threads)
                .overlapped(overlapped);
            let mut app = app(plugin, tick());
            shark_entities(&mut app, 400);
            run_to(&mut app, 300);
            // An overlapped step in flight ends in the frame's write back: nothing is in flight.
            let config = WorldConfig {
                seed: 9,
                threads,
                simd: None,
            };
            let (mut alone, _) = shark_engine(config, 400);
            let before = alone.state_hash();
            for _ in 0..300 {
                alone.step(dt()).unwrap();
            }
            assert_ne!(before, alone.state_hash());
            assert_eq!(
                hash(&app),
                alone.state_hash(),
                "threads {threads}, overlapped {overlapped}"
            );
        }
    }
}
#[test]
fn a_boid_despawned_mid_run_leaves_the_engine_and_the_others_go_on_as_the_engine_alone() {
    let mut app = app(BoidsPlugin::default().seed(3).threads(2), tick());
    let school = shark_entities(&mut app, 300);
    run_to(&mut app, 100);
    let victim = {
        let mut q = app.world_mut().query::<(Entity, &Boid)>();
        q.iter(app.world())
            .find(|(_, b)| b.flock() == school && b.id() == 7)
            .unwrap()
            .0
    };
    app.world_mut().despawn(victim);
    run_to(&mut app, 200);
    let ids: Vec<u32> = positions(&app, school).iter().map(|p| p.0).collect();
    assert_eq!(ids.len(), 299);
    assert!(!ids.contains(&7) && ids.contains(&6) && ids.contains(&8));
    assert_eq!(app.world().resource::<Boids>().boids_of(school).len(), 299);

    let config = WorldConfig {
        seed: 3,
        threads: 2,
        simd: None,
    };
    let (mut alone, id) = shark_engine(config, 300);
    for _ in 0..100 {
        alone.step(dt()).unwrap();
    }
    alone.remove_boids(id, &[7]).unwrap();
    for _ in 0..100 {
        alone.step(dt()).unwrap();
    }
    assert_eq!(hash(&app), alone.state_hash());
    // And a plugin that never despawned differs: the test sees the removal.
    let mut other = app_with_shark(3, 300);
    run_to(&mut other, 200);
    assert_ne!(hash(&other), hash(&app));
}

#[test]
fn despawning_a_flock_entity_removes_the_flock_and_its_boid_entities() {
    let mut app = app_with_shark(1, 200);
    run_to(&mut app, 5);
    let school = {
        let mut q = app.world_mut().query::<(Entity, &Name)>();
        q.iter(app.world())
            .find(|(_, n)| n.as_str() == "school")
            .unwrap()
            .0
    };
    let before = app.world().resource::<Boids>().world().flock_ids().count();
    app.world_mut().despawn(school);
    app.update();
    app.update();
    let b = app.world().resource::<Boids>();
    assert_eq!(b.world().flock_ids().count(), before - 1);
    assert!(b.flock_id(school).is_none());
    let mut q = app.world_mut().query::<&Boid>();
    let left: Vec<_> = q.iter(app.world()).collect();
    assert_eq!(left.len(), 1, "only the shark is left: {left:?}");
}

#[test]
fn spawned_boid_entities_carry_the_ids_the_engine_reports() {
    let mut app = app_with_shark(5, 50);
    run_to(&mut app, 1);
    let mut q = app.world_mut().query::<(&Boid, &Transform)>();
    let mut seen: Vec<(Entity, u32, Vec3)> = q
        .iter(app.world())
        .map(|(b, t)| (b.flock(), b.id(), t.translation))
        .collect();
    seen.sort_by_key(|s| (s.0, s.1));
    let flocks: Vec<Entity> = {
        let mut f: Vec<Entity> = seen.iter().map(|s| s.0).collect();
        f.dedup();
        f
    };
    assert_eq!(flocks.len(), 2);
    for flock in flocks {
        let engine: Vec<u32> = positions(&app, flock).iter().map(|p| p.0).collect();
        let mine: Vec<u32> = seen.iter().filter(|s| s.0 == flock).map(|s| s.1).collect();
        assert_eq!(mine, engine);
    }
    // A BoidSpawn added later joins with the next id, where it was put.
    let shark = {
        let mut q = app.world_mut().query::<(Entity, &Name)>();
        q.iter(app.world())
            .find(|(_, n)| n.as_str() == "shark")
            .unwrap()
            .0
    };
    let e = app
        .world_mut()
        .spawn((
            BoidSpawn {
                flock: shark,
                velocity: Vec3::X,
            },
            Transform::from_xyz(1.0, 2.0, 3.0),
        ))
        .id();
    let n = steps(&app);
    run_to(&mut app, n + 1);
    let boid = *app.world().get::<Boid>(e).expect("became a boid");
    assert_eq!((boid.flock(), boid.id()), (shark, 1));
    assert!(app.world().get::<BoidSpawn>(e).is_none());
    assert_eq!(positions(&app, shark).len(), 2);
}

#[test]
fn a_moved_obstacle_entity_moves_the_engines_obstacle() {
    let mut app = app(BoidsPlugin::default(), tick());
    let ball = app
        .world_mut()
        .spawn((
            Obstacle::Sphere { radius: 2.0 },
            Transform::from_xyz(5.0, 0.0, 0.0),
        ))
        .id();
    let rot = Quat::from_rotation_y(0.5);
    let cube = app
        .world_mut()
        .spawn((
            Obstacle::Cuboid {
                half_size: Vec3::new(1.0, 2.0, 3.0),
            },
            Transform::from_xyz(0.0, 1.0, 0.0).with_rotation(rot),
        ))
        .id();
    let mesh = app
        .world_mut()
        .resource_mut::<Assets<Mesh>>()
        .add(Cuboid::new(1.0, 1.0, 1.0).mesh().build());
    let rocks: Vec<Entity> = (0..2)
        .map(|k| {
            app.world_mut()
                .spawn((
                    Obstacle::Mesh(mesh.clone()),
                    Transform::from_xyz(10.0 * k as f32, 0.0, 0.0),
                ))
                .id()
        })
        .collect();
    run_to(&mut app, 1);
    let shape = |app: &App, e: Entity| {
        let b = app.world().resource::<Boids>();
        b.world()
            .obstacle(b.obstacle_id(e).expect("placed"))
            .unwrap()
    };
    let v = |x: f32, y: f32, z: f32| boids_sim::Vec3::new(x, y, z);
    assert_eq!(
        shape(&app, ball),
        boids_sim::Obstacle::Sphere {
            centre: v(5.0, 0.0, 0.0),
            radius: 2.0
        }
    );
    let boids_sim::Obstacle::OrientedBox {
        centre,
        half_extents,
        rotation,
    } = shape(&app, cube)
    else {
        panic!("a cuboid is an oriented box")
    };
    assert_eq!((centre, half_extents), (v(0.0, 1.0, 0.0), v(1.0, 2.0, 3.0)));
    assert_eq!(rotation.to_array(), rot.to_array());
    // One upload for the two placements of one asset.
    assert_eq!(
        app.world().resource::<Boids>().world().mesh_ids().count(),
        1
    );

    // Move and scale the ball, move one rock.
    app.world_mut()
        .get_mut::<Transform>(ball)
        .unwrap()
        .translation = Vec3::new(-3.0, 1.0, 2.0);
    app.world_mut().get_mut::<Transform>(ball).unwrap().scale = Vec3::splat(2.0);
    app.world_mut()
        .get_mut::<Transform>(rocks[1])
        .unwrap()
        .translation = Vec3::new(0.0, 7.0, 0.0);
    let n = steps(&app);
    run_to(&mut app, n + 1);
    assert_eq!(
        shape(&app, ball),
        boids_sim::Obstacle::Sphere {
            centre: v(-3.0, 1.0, 2.0),
            radius: 4.0
        }
    );
    let boids_sim::Obstacle::Mesh { position, .. } = shape(&app, rocks[1]) else {
        panic!("a mesh")
    };
    assert_eq!(position, v(0.0, 7.0, 0.0));

    // Despawned: gone from the engine, and the shared mesh with its last placement.
    app.world_mut().despawn(ball);
    app.world_mut().despawn(rocks[0]);
    app.update();
    let b = app.world().resource::<Boids>();
    assert_eq!(b.world().obstacle_ids().count(), 2);
    assert_eq!(b.world().mesh_ids().count(), 1);
    app.world_mut().despawn(rocks[1]);
    app.update();
    assert_eq!(
        app.world().resource::<Boids>().world().mesh_ids().count(),
        0
    );
}

#[test]
fn a_refused_obstacle_is_logged_and_changes_nothing_until_it_is_mended() {
    let mut app = app(BoidsPlugin::default(), tick());
    let e = app
        .world_mut()
        .spawn((Obstacle::Sphere { radius: f32::NAN }, Transform::default()))
        .id();
    let before = hash(&app);
    app.update();
    app.update();
    assert!(app.world().resource::<Boids>().obstacle_id(e).is_none());
    assert_eq!(hash(&app), before);
    *app.world_mut().get_mut::<Obstacle>(e).unwrap() = Obstacle::Sphere { radius: 1.0 };
    app.update();
    assert!(app.world().resource::<Boids>().obstacle_id(e).is_some());
}

#[test]
fn interpolated_transforms_lie_between_the_last_two_states() {
    // Two frames a tick: every other frame shows the state half-way.
    let mut app = app(BoidsPlugin::default().seed(4), tick() / 2);
    let (flock, spawn) = Flock::preset("fish-tank", 200).unwrap();
    let school = app.world_mut().spawn((flock, spawn)).id();
    // The engine's state after each step, as the frames go.
    let mut seen: Vec<(u64, Vec<(u32, Vec3)>)> = Vec::new();
    let mut checked_frames = 0;
    for _ in 0..60 {
        app.update();
        let n = steps(&app);
        if n > 0 && seen.last().is_none_or(|s| s.0 != n) {
            seen.push((n, positions(&app, school)));
        }
        let alpha = app.world().resource::<Time<Fixed>>().overstep_fraction();
        if n < 5 || (alpha - 0.5).abs() > 1e-3 {
            continue;
        }
        let [.., (n0, older), (n1, newer)] = &seen[..] else {
            continue;
        };
        assert_eq!((*n0 + 1, *n1), (n, n));
        let mut q = app.world_mut().query::<(&Boid, &Transform)>();
        let mut moving = 0;
        for (boid, t) in q.iter(app.world()) {
            let k = newer.binary_search_by_key(&boid.id(), |p| p.0).unwrap();
            let (a, b) = (older[k].1, newer[k].1);
            let mid = a.lerp(b, alpha);
            assert!(
                (t.translation - mid).length() <= 1e-5 * (1.0 + mid.length()),
                "{} not between {a} and {b}",
                t.translation
            );
            if (b - a).length() > 1e-3 {
                assert!((t.translation - a).length() > 1e-4 && (t.translation - b).length() > 1e-4);
                moving += 1;
            }
        }
        assert!(moving > 150, "{moving} moving boids checked");
        checked_frames += 1;
    }
    assert!(checked_frames >= 10, "{checked_frames} half-way frames");
}

#[test]
fn without_interpolation_transforms_are_the_engines_state_facing_the_heading() {
    let mut app = app(BoidsPlugin::default().interpolated(false), tick());
    let (flock, spawn) = Flock::preset("goal-swarm", 100).unwrap();
    let school = app.world_mut().spawn((flock, spawn)).id();
    run_to(&mut app, 3);
    let b = app.world().resource::<Boids>();
    let f = b.world().flock(b.flock_id(school).unwrap()).unwrap();
    let (ids, pos, head) = (
        f.ids().to_vec(),
        f.positions().to_vec(),
        f.headings().to_vec(),
    );
    let mut q = app.world_mut().query::<(&Boid, &Transform)>();
    for (boid, t) in q.iter(app.world()) {
        let k = ids.binary_search(&boid.id()).unwrap();
        assert_eq!(t.translation.to_array(), pos[k].to_array());
        let h = Vec3::from_array(head[k].to_array());
        assert!(
            (t.forward().as_vec3() - h).length() < 1e-5,
            "{} vs {h}",
            t.forward()
        );
        assert!(t.up().y >= -1e-6, "up stays up");
    }
}

#[test]
fn a_changed_parameter_component_reaches_the_flock_and_a_bad_one_is_refused() {
    let mut app = app(BoidsPlugin::default(), tick());
    let (flock, spawn) = Flock::preset("fish-tank", 100).unwrap();
    let school = app.world_mut().spawn((flock.clone(), spawn)).id();
    run_to(&mut app, 2);
    let params = |app: &App| {
        let b = app.world().resource::<Boids>();
        *b.world()
            .flock(b.flock_id(school).unwrap())
            .unwrap()
            .params()
    };
    assert_eq!(params(&app), flock.params);
    app.world_mut()
        .get_mut::<Flock>(school)
        .unwrap()
        .params
        .max_speed = 9.5;
    run_to(&mut app, 3);
    assert_eq!(params(&app).max_speed, 9.5);
    // NaN: refused, the flock unchanged and the component set back to the flock's.
    app.world_mut()
        .get_mut::<Flock>(school)
        .unwrap()
        .params
        .perception_radius = f32::NAN;
    run_to(&mut app, 4);
    assert_eq!(params(&app).max_speed, 9.5);
    assert_eq!(
        params(&app).perception_radius,
        flock.params.perception_radius
    );
    let now = app.world().get::<Flock>(school).unwrap().params;
    assert_eq!(now, params(&app));
    run_to(&mut app, 6);
}

#[test]
fn a_target_entity_and_the_observer_follow_their_entities() {
    let mut app = app(BoidsPlugin::default(), tick());
    let (flock, spawn) = Flock::preset("target-flock", 50).unwrap();
    let school = app.world_mut().spawn((flock, spawn)).id();
    let goal = app
        .world_mut()
        .spawn((
            boids_bevy::FlockTarget(school),
            Transform::from_xyz(1.0, 2.0, 3.0),
        ))
        .id();
    let eye = app
        .world_mut()
        .spawn((
            boids_bevy::FlockObserver,
            Transform::from_xyz(-4.0, 0.0, 4.0),
        ))
        .id();
    run_to(&mut app, 1);
    let target = |app: &App| {
        let b = app.world().resource::<Boids>();
        b.world()
            .flock(b.flock_id(school).unwrap())
            .unwrap()
            .target()
    };
    let observer = |app: &App| app.world().resource::<Boids>().world().observer();
    let v = |x: f32, y: f32, z: f32| Some(boids_sim::Vec3::new(x, y, z));
    assert_eq!(target(&app), v(1.0, 2.0, 3.0));
    assert_eq!(observer(&app), v(-4.0, 0.0, 4.0));
    app.world_mut()
        .get_mut::<Transform>(goal)
        .unwrap()
        .translation = Vec3::new(7.0, 0.0, -1.0);
    app.world_mut()
        .get_mut::<Transform>(eye)
        .unwrap()
        .translation = Vec3::new(0.0, 9.0, 0.0);
    run_to(&mut app, 2);
    assert_eq!(target(&app), v(7.0, 0.0, -1.0));
    assert_eq!(observer(&app), v(0.0, 9.0, 0.0));
    app.world_mut().despawn(eye);
    run_to(&mut app, 3);
    assert_eq!(observer(&app), None);
}

#[test]
fn hostile_entities_are_refused_without_a_panic_and_change_nothing() {
    let mut app = app(BoidsPlugin::default().seed(2), tick());
    let school = shark_entities(&mut app, 100);
    run_to(&mut app, 3);
    let before = hash(&app);
    let w = app.world_mut();
    let nan = Vec3::splat(f32::NAN);
    // A boid at NaN, a boid for an entity that is not a flock, a spawn far too large, a flock
    // with NaN parameters, a relation of NaN radius, a target naming no flock, degenerate
    // shapes (NaN, zero size, a mesh with no triangles, a heightfield of one sample).
    w.spawn((
        BoidSpawn {
            flock: school,
            velocity: Vec3::X,
        },
        Transform::from_translation(nan),
    ));
    let stray = w.spawn_empty().id();
    w.spawn((
        BoidSpawn {
            flock: stray,
            velocity: Vec3::X,
        },
        Transform::default(),
    ));
    let huge = boids_bevy::FlockSpawn {
        count: usize::MAX,
        spawn: boids_bevy::Spawn::default(),
    };
    let bad = FlockParams {
        max_speed: f32::NAN,
        ..FlockParams::default()
    };
    w.spawn((Flock::new(bad), huge));
    let other = w.spawn(Flock::new(FlockParams::default())).id();
    w.entity_mut(other).insert(boids_bevy::FlockSpawn {
        count: usize::MAX,
        spawn: boids_bevy::Spawn::default(),
    });
    w.spawn(FlockRelation {
        from: school,
        to: other,
        kind: RelationKind::Flee,
        radius: f32::NAN,
        weight: 1.0,
    });
    w.spawn((boids_bevy::FlockTarget(stray), Transform::default()));
    w.spawn((
        Obstacle::Cuboid {
            half_size: Vec3::ZERO,
        },
        Transform::default(),
    ));
    w.spawn((
        Obstacle::Capsule {
            radius: -1.0,
            half_length: 1.0,
        },
        Transform::default(),
    ));
    w.spawn((
        Obstacle::Sphere { radius: 1.0 },
        Transform::from_translation(nan),
    ));
    let empty = w.resource_mut::<Assets<Mesh>>().add(Mesh::new(
        bevy::mesh::PrimitiveTopology::TriangleList,
        bevy::asset::RenderAssetUsages::default(),
    ));
    w.spawn((Obstacle::Mesh(empty), Transform::default()));
    w.spawn((
        Obstacle::Heightfield(boids_bevy::Heightfield {
            columns: 1,
            rows: 1,
            cell: Vec2::ONE,
            heights: vec![0.0].into(),
        }),
        Transform::default(),
    ));
    // Frames go on; only the new, valid, empty flock `other` is added (with no boids).
    let n = steps(&app);
    app.update();
    app.update();
    assert_eq!(steps(&app), n + 2);
    let b = app.world().resource::<Boids>();
    assert_eq!(
        b.world().flock_ids().count(),
        3,
        "the school, the shark, `other`"
    );
    assert_eq!(b.world().obstacle_ids().count(), 2, "the two rocks");
    assert_eq!(b.world().mesh_ids().count(), 0);
    assert_eq!(b.world().relations().len(), 2);
    assert_eq!(
        b.world().flock(b.flock_id(other).unwrap()).unwrap().len(),
        0
    );
    assert_eq!(
        b.world().flock(b.flock_id(school).unwrap()).unwrap().len(),
        100
    );
    // Against the same run without the hostile entities (plus the empty flock): same bits.
    let mut clean = app_with_shark(2, 100);
    run_to(&mut clean, 3);
    assert_eq!(hash(&clean), before);
    clean.world_mut().spawn(Flock::new(FlockParams::default()));
    run_to(&mut clean, n + 2);
    assert_eq!(hash(&clean), hash(&app));
}
