//! What the plugin tests share: a headless `App` with the fixed clock stepped by hand, the
//! shark preset's scene through entities and through the engine alone.
#![allow(dead_code, reason = "each test binary uses some of these")]

use std::time::Duration;

use bevy::asset::AssetPlugin;
use bevy::mesh::Mesh;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use boids_bevy::{BoidSpawn, Boids, BoidsPlugin, Flock, FlockRelation, Obstacle, RelationKind};
use boids_sim::{FlockParams, World as Engine, WorldConfig};

/// One fixed tick a frame: 60 Hz on both clocks.
pub fn tick() -> Duration {
    Duration::from_secs_f64(1.0 / 60.0)
}

pub fn app(plugin: BoidsPlugin, frame: Duration) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        AssetPlugin::default(),
        plugin,
    ));
    app.init_asset::<Mesh>();
    app.insert_resource(Time::<Fixed>::from_duration(tick()));
    app.insert_resource(TimeUpdateStrategy::ManualDuration(frame));
    app
}

/// The step the fixed clock gives, as the plugin passes it to the engine.
pub fn dt() -> f32 {
    tick().as_secs_f32()
}

pub fn steps(app: &App) -> u64 {
    app.world().resource::<Boids>().world().steps()
}

/// Frames until the engine has taken `n` steps in all.
pub fn run_to(app: &mut App, n: u64) {
    let mut guard = 0;
    while steps(app) < n {
        app.update();
        guard += 1;
        assert!(guard < 4 * n + 10, "the fixed clock does not tick");
    }
    assert_eq!(steps(app), n, "one step a frame at most");
}

pub fn hash(app: &App) -> u64 {
    app.world().resource::<Boids>().world().state_hash()
}

pub fn shark_params() -> (FlockParams, FlockParams) {
    let scene = boids_sim::presets::get("shark").unwrap().scene("school");
    (scene.flock[0].params, scene.flock[1].params)
}

/// The shark preset's scene through entities: the school (spawned), the shark (a `BoidSpawn`),
/// two sphere rocks, flee and chase. Returns the school's entity.
pub fn shark_entities(app: &mut App, school_size: usize) -> Entity {
    let (fish, shark) = shark_params();
    let (_, spawn) = Flock::preset("shark", school_size).unwrap();
    let w = app.world_mut();
    let school = w.spawn((Name::new("school"), Flock::new(fish), spawn)).id();
    let predator = w.spawn((Name::new("shark"), Flock::new(shark))).id();
    w.spawn((
        BoidSpawn {
            flock: predator,
            velocity: Vec3::new(3.0, 0.0, 3.0),
        },
        Transform::from_xyz(-10.0, 0.0, -10.0),
    ));
    for c in [Vec3::new(6.0, -3.0, 4.0), Vec3::new(-5.0, 2.0, -6.0)] {
        w.spawn((
            Obstacle::Sphere { radius: 2.5 },
            Transform::from_translation(c),
        ));
    }
    for (from, to, kind, radius, weight) in [
        (school, predator, RelationKind::Flee, 5.0, 20.0),
        (predator, school, RelationKind::Chase, 10.0, 8.0),
    ] {
        w.spawn(FlockRelation {
            from,
            to,
            kind,
            radius,
            weight,
        });
    }
    school
}

/// The same scene on the engine alone, in the order the plugin's sets add it.
pub fn shark_engine(config: WorldConfig, school_size: usize) -> (Engine, boids_sim::FlockId) {
    let (fish, shark) = shark_params();
    let (_, spawn) = Flock::preset("shark", school_size).unwrap();
    let mut w = Engine::new(config).unwrap();
    let school = w.create_flock("school", fish).unwrap();
    w.spawn(school, school_size, &spawn.spawn).unwrap();
    let predator = w.create_flock("shark", shark).unwrap();
    let e = |v: Vec3| boids_sim::Vec3::from_array(v.to_array());
    w.add_boids(
        predator,
        &[e(Vec3::new(-10.0, 0.0, -10.0))],
        &[e(Vec3::new(3.0, 0.0, 3.0))],
    )
    .unwrap();
    for c in [Vec3::new(6.0, -3.0, 4.0), Vec3::new(-5.0, 2.0, -6.0)] {
        w.add_obstacle(boids_sim::Obstacle::Sphere {
            centre: e(c),
            radius: 2.5,
        })
        .unwrap();
    }
    w.set_relation(school, predator, RelationKind::Flee, 5.0, 20.0)
        .unwrap();
    w.set_relation(predator, school, RelationKind::Chase, 10.0, 8.0)
        .unwrap();
    (w, school)
}

/// The positions of a flock in the engine, by id.
pub fn positions(app: &App, flock: Entity) -> Vec<(u32, Vec3)> {
    let b = app.world().resource::<Boids>();
    let f = b.world().flock(b.flock_id(flock).unwrap()).unwrap();
    f.ids()
        .iter()
        .zip(f.positions())
        .map(|(&id, p)| (id, Vec3::from_array(p.to_array())))
        .collect()
}

pub fn app_with_shark(seed: u64, n: usize) -> App {
    let mut a = app(BoidsPlugin::default().seed(seed).threads(2), tick());
    shark_entities(&mut a, n);
    a
}
