//! The `maze` preset and flow fields in a world: along its field the flock reaches its target
//! behind a U-shaped wall, and seeking in a straight line it never does; arrived, it stands
//! still; the fields give the same bits on any thread count and after a load, are shared, and
//! refuse bad settings.

use boids_sim::presets::{MazeLayout, maze, maze_target};
use boids_sim::{FlockId, Obstacle, Vec3, World, WorldConfig};

/// The maze's world, its flock and its scene's dt.
fn maze_world(layout: MazeLayout, threads: usize) -> (World, FlockId, f32) {
    let scene = maze("walkers", layout);
    let mut world = World::new(WorldConfig {
        seed: 3,
        threads,
        ..WorldConfig::default()
    })
    .unwrap();
    let id = scene.add_to(&mut world).unwrap()[0];
    (world, id, scene.dt)
}

/// Steps of the preset's flock, at 60 a second: 90 seconds.
const BUDGET: usize = 5_400;

#[test]
fn the_maze_flock_reaches_its_target_along_the_field_and_never_in_a_straight_line() {
    let layout = MazeLayout::PRESET;
    // The same flock seeking in a straight line, on another thread meanwhile: it walks into
    // the U's cup and stays there.
    let straight = std::thread::spawn(move || {
        let (mut world, id, dt) = maze_world(
            MazeLayout {
                flow_cell: 0.0,
                ..layout
            },
            1,
        );
        let mut p = vec![Vec3::ZERO; layout.walkers];
        for s in 1..=BUDGET {
            world.step(dt).unwrap();
            if s % 600 == 0 {
                assert_eq!(world.flock(id).unwrap().at_target(), Some(0), "step {s}");
            }
        }
        world.read_positions(id, &mut p).unwrap();
        // Most of it is in the cup: between the arms, east of their open end.
        p.iter()
            .filter(|q| q.x > -10.0 && q.x < 20.0 && q.z.abs() < 25.0)
            .count()
    });
    let (mut world, id, dt) = maze_world(layout, 1);
    for _ in 0..BUDGET {
        world.step(dt).unwrap();
    }
    let arrived = world.flock(id).unwrap().at_target().unwrap();
    assert!(
        arrived * 100 >= layout.walkers * 95,
        "{arrived} of {} at the target after {BUDGET} steps",
        layout.walkers
    );
    // Arrived, they stand: the core of the crowd at the target is still (no velocity at all),
    // and those standing stay where they stand while the rest settle around them.
    let n = layout.walkers;
    let (mut p0, mut v0) = (vec![Vec3::ZERO; n], vec![Vec3::ZERO; n]);
    world.read_positions(id, &mut p0).unwrap();
    world.read_velocities(id, &mut v0).unwrap();
    let standing: Vec<usize> = (0..n).filter(|&k| v0[k] == Vec3::ZERO).collect();
    assert!(standing.len() * 3 > n, "{} stand", standing.len());
    for _ in 0..600 {
        world.step(dt).unwrap();
    }
    let (mut p1, mut v1) = (vec![Vec3::ZERO; n], vec![Vec3::ZERO; n]);
    world.read_positions(id, &mut p1).unwrap();
    world.read_velocities(id, &mut v1).unwrap();
    let moved = standing
        .iter()
        .map(|&k| (p1[k] - p0[k]).length())
        .sum::<f32>()
        / standing.len() as f32;
    assert!(moved < 0.3, "the standing moved {moved} on average in 10 s");
    let still = v1.iter().filter(|v| **v == Vec3::ZERO).count();
    assert!(still * 2 > n, "{still} still after 10 s more");
    let max_speed = world.flock(id).unwrap().params().max_speed;
    let mean = v1.iter().map(|v| v.length()).sum::<f32>() / n as f32;
    assert!(mean < 0.05 * max_speed, "mean speed {mean}");
    let cup = straight.join().expect("the straight run");
    assert!(cup * 2 > layout.walkers, "{cup} in the cup");
}

#[test]
fn fields_give_the_same_bits_on_any_thread_count_and_after_a_load() {
    let layout = MazeLayout {
        walkers: 300,
        ..MazeLayout::PRESET
    };
    let hash = |threads: usize| {
        let (mut world, _, dt) = maze_world(layout, threads);
        for _ in 0..240 {
            world.step(dt).unwrap();
        }
        world.state_hash()
    };
    let one = hash(1);
    assert_eq!(one, hash(2));
    assert_eq!(one, hash(3));
    // Saved at step 120 and loaded: the same field (rebuilt from the saved cell size) and the
    // same state as the world that went on.
    let (mut world, id, dt) = maze_world(layout, 2);
    for _ in 0..120 {
        world.step(dt).unwrap();
    }
    let bytes = world.save();
    let mut loaded = World::load(&bytes, WorldConfig::default()).unwrap();
    assert_eq!(loaded.flow_cell_size(), 1.0);
    for _ in 0..120 {
        world.step(dt).unwrap();
        loaded.step(dt).unwrap();
    }
    assert_eq!(loaded.state_hash(), world.state_hash());
    assert_eq!(loaded.state_hash(), one);
    let (a, b) = (
        world.flow_field(id).unwrap(),
        loaded.flow_field(id).unwrap(),
    );
    assert!(a == b, "the same field");
    // Without a cell size the state differs (the field steers).
    let (mut plain, _, dt) = maze_world(
        MazeLayout {
            flow_cell: 0.0,
            ..layout
        },
        1,
    );
    for _ in 0..240 {
        plain.step(dt).unwrap();
    }
    assert_ne!(plain.state_hash(), one);
    assert!(plain.flow_field(id).is_none());
}

#[test]
fn flocks_with_the_same_settings_and_target_share_one_field() {
    let layout = MazeLayout {
        walkers: 50,
        ..MazeLayout::PRESET
    };
    let scene = maze("a", layout);
    let mut world = World::new(WorldConfig::default()).unwrap();
    let a = scene.add_to(&mut world).unwrap()[0];
    let params = *world.flock(a).unwrap().params();
    let b = world.create_flock("b", params).unwrap();
    let c = world
        .create_flock(
            "c",
            boids_sim::FlockParams {
                body_radius: 0.5,
                ..params
            },
        )
        .unwrap();
    world.step(scene.dt).unwrap();
    let (fa, fb, fc) = (
        world.flow_field(a).unwrap(),
        world.flow_field(b).unwrap(),
        world.flow_field(c).unwrap(),
    );
    assert!(std::ptr::eq(fa, fb), "one field for the same settings");
    assert!(!std::ptr::eq(fa, fc), "another for another body radius");
    // A target moved within its cell keeps the field; to another cell, a new one.
    let t = maze_target(80.0);
    world.set_target(b, t + Vec3::new(0.2, 0.0, 0.2)).unwrap();
    world.step(scene.dt).unwrap();
    assert!(std::ptr::eq(
        world.flow_field(a).unwrap(),
        world.flow_field(b).unwrap()
    ));
    world.set_target(b, t + Vec3::new(-30.0, 0.0, 0.0)).unwrap();
    world.step(scene.dt).unwrap();
    let (fa, fb) = (world.flow_field(a).unwrap(), world.flow_field(b).unwrap());
    assert!(!std::ptr::eq(fa, fb));
    assert_ne!(fa.target, fb.target);
}

#[test]
fn bad_cell_sizes_are_refused_and_hostile_targets_stay_calm() {
    let layout = MazeLayout {
        walkers: 200,
        ..MazeLayout::PRESET
    };
    let (mut world, id, dt) = maze_world(layout, 0);
    for bad in [f32::NAN, -1.0, f32::INFINITY] {
        let e = world.set_flow_cell_size(bad).unwrap_err().to_string();
        assert!(e.contains("flow cell size"), "{e}");
        assert_eq!(
            world.flow_cell_size(),
            1.0,
            "a refused size changes nothing"
        );
    }
    // 161 units of ground in cells of 0.01: 16,100² cells, over the cap.
    let e = world.set_flow_cell_size(0.01).unwrap_err().to_string();
    assert!(
        e.contains("16777216") && e.contains("larger cell size"),
        "{e}"
    );
    assert_eq!(world.flow_cell_size(), 1.0);
    // A target inside the U's base (a wall): the flock goes to the wall beside it and stays
    // on the ground, finite.
    world.set_target(id, Vec3::new(20.5, 0.0, 0.0)).unwrap();
    // A target in a closed pen (four walls around it): no way leads there; the flock does
    // not press against the pen (it does not seek at all).
    let pen = [
        (55.0, -65.0, 56.0, -55.0),
        (65.0, -65.0, 66.0, -55.0),
        (55.0, -66.0, 66.0, -65.0),
        (55.0, -55.0, 66.0, -54.0),
    ];
    for (x0, z0, x1, z1) in pen {
        world
            .add_obstacle(Obstacle::Box {
                min: Vec3::new(x0, -10.0, z0),
                max: Vec3::new(x1, 10.0, z1),
            })
            .unwrap();
    }
    let mut p = vec![Vec3::ZERO; layout.walkers];
    for _ in 0..1800 {
        world.step(dt).unwrap();
    }
    world.read_positions(id, &mut p).unwrap();
    assert!(p.iter().all(|q| q.is_finite()));
    let near_wall = p
        .iter()
        .filter(|q| (**q - Vec3::new(20.5, q.y, 0.0)).length() < 12.0)
        .count();
    assert!(near_wall * 2 > layout.walkers, "{near_wall} by the wall");
    world.set_target(id, Vec3::new(60.5, 0.0, -60.0)).unwrap();
    let before = p.clone();
    for _ in 0..300 {
        world.step(dt).unwrap();
    }
    world.read_positions(id, &mut p).unwrap();
    let field = world.flow_field(id).unwrap();
    let (i, k) = field.grid.cell_at(p[0].x, p[0].z).unwrap();
    assert_eq!(
        field.distance[field.grid.index(i, k)],
        u32::MAX,
        "walled off"
    );
    // Nobody walked toward the pen: the mean distance to it did not shrink by more than the
    // crowd's own shuffling.
    let mean = |q: &[Vec3]| {
        q.iter()
            .map(|v| (*v - Vec3::new(60.5, v.y, -60.0)).length())
            .sum::<f32>()
            / q.len() as f32
    };
    assert!(
        mean(&p) > mean(&before) - 2.0,
        "{} -> {}",
        mean(&before),
        mean(&p)
    );
}
