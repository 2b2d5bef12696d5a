//! The plugin under misuse, each case with its documented outcome (the crate's docs, "Misuse,
//! and what it does"): entities despawned while a step is in flight, components taken off live
//! entities, a spawn request with no flock, NaN transforms on obstacle entities, a second
//! plugin. No panic escapes into the App but Bevy's own for a duplicate plugin.

mod support;

use bevy::prelude::*;
use boids_bevy::{Boid, Boids, BoidsPlugin, Flock, FlockSpawn, Obstacle};
use boids_sim::FlockParams;
use support::*;

/// The flock entity named `name`.
fn named(app: &mut App, name: &str) -> Entity {
    let mut q = app.world_mut().query::<(Entity, &Name)>();
    q.iter(app.world())
        .find(|(_, n)| n.as_str() == name)
        .unwrap()
        .0
}

/// The boid entities of `flock` with ids in `ids`.
fn boids_with(app: &mut App, flock: Entity, ids: &[u32]) -> Vec<Entity> {
    let mut q = app.world_mut().query::<(Entity, &Boid)>();
    q.iter(app.world())
        .filter(|(_, b)| b.flock() == flock && ids.contains(&b.id()))
        .map(|(e, _)| e)
        .collect()
}

/// Entities to despawn from the next frame's `Update`, and whether a step was in flight then.
#[derive(Resource, Default)]
struct Doomed {
    next: Vec<Entity>,
    stepping: Vec<bool>,
}

fn despawn_doomed(mut doomed: ResMut<Doomed>, boids: Res<Boids>, mut commands: Commands) {
    if doomed.next.is_empty() {
        return;
    }
    let stepping = boids.world().is_stepping();
    doomed.stepping.push(stepping);
    for e in std::mem::take(&mut doomed.next) {
        commands.entity(e).despawn();
    }
}

/// Boids, a flock and a rock despawned in `Update` (with an overlapped plugin: while the step
/// runs on the engine's threads), tick after tick: every frame goes on, the engine drops what
/// went before its next step, and the bits are those of a blocking plugin given the same
/// despawns.
#[test]
fn entities_despawned_while_a_step_is_in_flight_leave_before_the_next_step() {
    let mut hashes = Vec::new();
    for overlapped in [true, false] {
        let mut app = app(
            BoidsPlugin::default()
                .seed(5)
                .threads(2)
                .overlapped(overlapped),
            tick(),
        );
        app.init_resource::<Doomed>();
        app.add_systems(Update, despawn_doomed);
        let school = shark_entities(&mut app, 300);
        run_to(&mut app, 10);
        for (round, ids) in [[3u32, 40, 41], [7, 200, 299], [0, 1, 2]]
            .iter()
            .enumerate()
        {
            let mut doomed = boids_with(&mut app, school, ids);
            if round == 1 {
                doomed.push(named(&mut app, "shark"));
                let mut rocks = app.world_mut().query_filtered::<Entity, With<Obstacle>>();
                doomed.push(rocks.iter(app.world()).next().unwrap());
            }
            app.world_mut().resource_mut::<Doomed>().next = doomed;
            app.update();
        }
        assert_eq!(
            app.world().resource::<Doomed>().stepping,
            vec![overlapped; 3],
            "despawned while a step ran (overlapped), or between steps"
        );
        run_to(&mut app, 20);
        let b = app.world().resource::<Boids>();
        assert_eq!(b.boids_of(school).len(), 291);
        let w = b.world();
        assert_eq!(
            w.flock_ids().count(),
            1,
            "the shark's flock went with its entity"
        );
        assert_eq!(w.obstacle_ids().count(), 1);
        assert_eq!(w.flock(b.flock_id(school).unwrap()).unwrap().len(), 291);
        let mut q = app.world_mut().query::<&Boid>();
        assert_eq!(
            q.iter(app.world()).count(),
            291,
            "the shark's boid entity went too"
        );
        hashes.push(hash(&app));
    }
    assert_eq!(hashes[0], hashes[1], "overlapped or not, the same removals");
}

/// Components taken off live entities act as despawns of what they made: `Flock` (the flock and
/// its boid entities go), `Boid` (the boid leaves the engine, and its entity, kept, is no longer
/// written); a `FlockSpawn` on an entity with no `Flock` spawns nothing and is taken away.
#[test]
fn components_taken_off_live_entities_and_a_spawn_with_no_flock() {
    let mut app = app(BoidsPlugin::default().seed(6), tick());
    let school = shark_entities(&mut app, 100);
    run_to(&mut app, 3);
    // `Boid` off a live boid entity.
    let stripped = boids_with(&mut app, school, &[12])[0];
    app.world_mut().entity_mut(stripped).remove::<Boid>();
    let parked = Transform::from_xyz(1e6, 0.0, 0.0);
    *app.world_mut().get_mut::<Transform>(stripped).unwrap() = parked;
    // `Flock` off the shark's flock entity.
    let shark = named(&mut app, "shark");
    app.world_mut().entity_mut(shark).remove::<Flock>();
    // A spawn request with no flock on its entity.
    let stray = app
        .world_mut()
        .spawn(FlockSpawn {
            count: 50,
            spawn: boids_bevy::Spawn::default(),
        })
        .id();
    run_to(&mut app, 6);
    assert!(app.world().get_entity(stripped).is_ok(), "the entity stays");
    assert_eq!(
        *app.world().get::<Transform>(stripped).unwrap(),
        parked,
        "a boid entity without its Boid is no longer written"
    );
    assert!(app.world().get_entity(shark).is_ok());
    assert!(app.world().get::<FlockSpawn>(stray).is_none(), "taken away");
    let b = app.world().resource::<Boids>();
    assert_eq!(b.boids_of(school).len(), 99);
    assert_eq!(b.world().flock_ids().count(), 1, "only the school is left");
    assert!(b.flock_id(shark).is_none());
    let mut q = app.world_mut().query::<&Boid>();
    assert_eq!(
        q.iter(app.world()).count(),
        99,
        "the shark's boid entity despawned"
    );
    // A flock whose `Flock` comes back is a new flock.
    app.world_mut()
        .entity_mut(shark)
        .insert(Flock::new(FlockParams::default()));
    app.update();
    let b = app.world().resource::<Boids>();
    assert_eq!(b.world().flock_ids().count(), 2);
}

/// A placed obstacle whose entity moves to NaN (or infinity): refused, logged, and the engine's
/// obstacle stays where it was (the state hash of a run that never moved it); moved back to a
/// good place, it follows again.
#[test]
fn an_obstacle_moved_to_nan_stays_where_it_was_until_it_is_moved_again() {
    let run = |poison: bool| {
        let mut app = app(BoidsPlugin::default().seed(8), tick());
        shark_entities(&mut app, 120);
        run_to(&mut app, 5);
        let mut rocks = app.world_mut().query_filtered::<Entity, With<Obstacle>>();
        let rock = rocks.iter(app.world()).next().unwrap();
        let id = app.world().resource::<Boids>().obstacle_id(rock).unwrap();
        let before = app.world().resource::<Boids>().world().obstacle(id);
        if poison {
            for bad in [f32::NAN, f32::INFINITY] {
                app.world_mut()
                    .get_mut::<Transform>(rock)
                    .unwrap()
                    .translation
                    .y = bad;
                app.update();
                let b = app.world().resource::<Boids>();
                assert_eq!(b.obstacle_id(rock), Some(id), "still placed");
                assert_eq!(b.world().obstacle(id), before, "kept where it was");
            }
        }
        run_to(&mut app, 40);
        let kept = hash(&app);
        // Moved back to a good place: the engine's obstacle follows.
        app.world_mut()
            .get_mut::<Transform>(rock)
            .unwrap()
            .translation = Vec3::new(0.0, 30.0, 0.0);
        app.update();
        let b = app.world().resource::<Boids>();
        assert_ne!(b.world().obstacle(id), before, "moved");
        kept
    };
    assert_eq!(run(true), run(false), "the NaN frames changed nothing");
}

/// A second `BoidsPlugin`: Bevy refuses a unique plugin added twice with a panic when it is
/// added (its convention), before any system runs; the first plugin's app goes on.
#[test]
fn a_second_plugin_is_refused_by_bevy_when_it_is_added() {
    let mut app = app(BoidsPlugin::default(), tick());
    let second = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        app.add_plugins(BoidsPlugin::default().seed(2));
    }));
    let err = second.expect_err("a second BoidsPlugin is refused");
    let text = err
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    assert!(text.contains("already added"), "{text}");
    shark_entities(&mut app, 50);
    run_to(&mut app, 3);
    assert_eq!(
        app.world().resource::<Boids>().world().flock_ids().count(),
        2
    );
}
