//! The `maze` preset and flow fields in a world: along its field the flock reaches its target
//! behind a U-shaped wall, and seeking in a straight line it never does; arrived, it stands
//! still; the fields give the same bits on any thread count and after a load, are shared, and
//! refuse bad settings.

use boids_core::fmath::Order;
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

/// The steps until flock `id` reads a field to the cell of `target`, at most `most`.
fn steps_until_field(world: &mut World, id: FlockId, target: Vec3, dt: f32, most: usize) -> usize {
    for s in 1..=most {
        world.step(dt).unwrap();
        if let Some(f) = world.flow_field(id)
            && Some(f.target) == f.grid.cell_at(target.x, target.z)
        {
            return s;
        }
    }
    panic!("no field to {target} after {most} steps");
}

#[test]
fn a_budget_spreads_a_field_over_steps_and_keeps_the_bits_across_threads_and_loads() {
    let layout = MazeLayout {
        walkers: 200,
        ..MazeLayout::PRESET
    };
    // 161 × 161 cells: a field takes about 1.2 units a cell, the terrain's survey about 8; at
    // 2,000 units a step, over a hundred steps for both, about 15 for a field alone.
    let budgeted = |threads: usize| {
        let (mut world, id, dt) = maze_world(layout, threads);
        world.set_flow_budget(2_000).unwrap();
        (world, id, dt)
    };
    let (mut world, id, dt) = budgeted(1);
    assert_eq!(world.flow_budget(), 2_000);
    let target = world.flock(id).unwrap().target().unwrap();
    world.step(dt).unwrap();
    assert!(
        world.flow_field(id).is_none(),
        "no whole field after one step"
    );
    let first = 1 + steps_until_field(&mut world, id, target, dt, 400);
    // The terrain's survey first (161² cells at 8 units a cell: over 100 steps), then the
    // field.
    assert!((100..400).contains(&first), "{first} steps");
    // The same field as one built whole.
    let (mut whole, wid, _) = maze_world(layout, 1);
    whole.step(dt).unwrap();
    assert!(world.flow_field(id).unwrap() == whole.flow_field(wid).unwrap());
    // The target moves to another cell: the flock reads the old field until the new one is
    // whole.
    let moved = Vec3::new(-40.0, 0.0, 50.0);
    world.set_target(id, moved).unwrap();
    world.step(dt).unwrap();
    let old = world.flow_field(id).unwrap();
    assert_eq!(Some(old.target), old.grid.cell_at(target.x, target.z));
    let again = 1 + steps_until_field(&mut world, id, moved, dt, 400);
    // The terrain is kept: the field alone.
    assert!((10..100).contains(&again), "{again} steps");

    // The same bits on any thread count, with a target that moves every 10 steps (faster
    // than a field is built), and after a load in the middle of the survey, and after the
    // scene changed under a field being read (and is surveyed again).
    let run = |threads: usize, save_at: Option<usize>| {
        let (mut world, id, dt) = budgeted(threads);
        let mut saved = 0;
        for s in 0..480usize {
            if s % 10 == 0 {
                let a = s as f32 * 0.37;
                let t = Vec3::new(50.0 * a.cos(), 0.0, 50.0 * a.sin());
                world.set_target(id, t).unwrap();
            }
            if s == 260 {
                world
                    .add_obstacle(Obstacle::Box {
                        min: Vec3::new(-30.0, -10.0, -30.0),
                        max: Vec3::new(-25.0, 10.0, 30.0),
                    })
                    .unwrap();
            }
            if save_at == Some(s) {
                let bytes = world.save();
                saved = bytes.len();
                world = World::load(
                    &bytes,
                    WorldConfig {
                        threads,
                        ..WorldConfig::default()
                    },
                )
                .unwrap();
                assert_eq!(world.flow_budget(), 2_000);
            }
            world.step(dt).unwrap();
        }
        (
            (
                world.state_hash(),
                world.flow_field(id).map(|f| (f.target, f.distance.clone())),
            ),
            saved,
        )
    };
    let (one, _) = run(1, None);
    assert_eq!(run(2, None).0, one, "2 threads");
    assert_eq!(run(3, None).0, one, "3 threads");
    // Saved while the terrain is surveyed (step 40), and right after the scene changed (step
    // 261: the flock reads a field over the old scene, which the save holds whole: 161²
    // cells' distances are over 100 kB more).
    let (at40, small) = run(2, Some(40));
    assert_eq!(at40, one, "loaded at 40");
    let (at261, big) = run(1, Some(261));
    assert_eq!(at261, one, "loaded at 261");
    assert!(big > small + 100_000, "{small} and {big} bytes");
    // The budget steers differently from building whole.
    let (mut plain, pid, dt) = maze_world(layout, 1);
    for s in 0..480usize {
        if s % 10 == 0 {
            let a = s as f32 * 0.37;
            plain
                .set_target(pid, Vec3::new(50.0 * a.cos(), 0.0, 50.0 * a.sin()))
                .unwrap();
        }
        plain.step(dt).unwrap();
    }
    assert_ne!(plain.state_hash(), one.0);
}

#[test]
fn a_crafted_save_of_the_flow_budget_state_is_refused() {
    use ciborium::Value;
    let layout = MazeLayout {
        walkers: 50,
        ..MazeLayout::PRESET
    };
    let (mut world, id, dt) = maze_world(layout, 1);
    world.set_flow_budget(2_000).unwrap();
    let target = world.flock(id).unwrap().target().unwrap();
    steps_until_field(&mut world, id, target, dt, 400);
    // Waiting for a moved target's field, over a scene that changed: a read saved whole, a
    // survey and a wait.
    world.set_target(id, Vec3::new(-40.0, 0.0, 50.0)).unwrap();
    world.step(dt).unwrap();
    let building = world.save();
    assert!(World::load(&building, WorldConfig::default()).is_ok());
    world
        .add_obstacle(Obstacle::Box {
            min: Vec3::new(-30.0, -10.0, -30.0),
            max: Vec3::new(-25.0, 10.0, 30.0),
        })
        .unwrap();
    world.step(dt).unwrap();
    let good = world.save();
    assert!(World::load(&good, WorldConfig::default()).is_ok());
    type Entries = Vec<(Value, Value)>;
    let edit_of = |good: &[u8], change: &dyn Fn(&mut Entries)| -> String {
        let mut v: Value = ciborium::from_reader(&good[28..]).unwrap();
        let Value::Map(top) = &mut v else {
            panic!("a map")
        };
        let flows = top
            .iter_mut()
            .find(|(k, _)| k.as_text() == Some("flows"))
            .map(|(_, v)| v)
            .expect("the save holds the flows");
        let Value::Map(flows) = flows else {
            panic!("a map")
        };
        change(flows);
        let mut payload = Vec::new();
        ciborium::into_writer(&v, &mut payload).unwrap();
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in &payload {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        let mut bytes = good[..12].to_vec();
        bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&h.to_le_bytes());
        bytes.extend_from_slice(&payload);
        match World::load(&bytes, WorldConfig::default()) {
            Ok(_) => panic!("a crafted save loaded"),
            Err(e) => e.to_string(),
        }
    };
    let edit = |change: &dyn Fn(&mut Entries)| edit_of(&good, change);
    fn field<'a>(m: &'a mut [(Value, Value)], name: &str) -> &'a mut Value {
        m.iter_mut()
            .find(|(k, _)| k.as_text() == Some(name))
            .map(|(_, v)| v)
            .unwrap_or_else(|| panic!("no {name}"))
    }
    fn first_map(v: &mut Value) -> &mut Vec<(Value, Value)> {
        let Value::Array(a) = v else {
            panic!("an array")
        };
        let Value::Map(m) = &mut a[0] else {
            panic!("a map")
        };
        m
    }
    let e = edit(&|f| *field(f, "budget") = Value::Integer(0.into()));
    assert!(e.contains("flow fields") && e.contains("budget"), "{e}");
    let e = edit(&|f| {
        let read = first_map(field(f, "reads"));
        *field(read, "cell") =
            Value::Array(vec![Value::Integer(9999.into()), Value::Integer(0.into())]);
    });
    assert!(e.contains("off the grid"), "{e}");
    let e = edit(&|f| {
        let read = first_map(field(f, "reads"));
        let Value::Map(saved) = field(read, "field") else {
            panic!("a field saved whole")
        };
        let Value::Array(d) = field(saved, "distance") else {
            panic!("an array")
        };
        d.pop();
    });
    assert!(e.contains("does not fit its grid"), "{e}");
    // The first entry of `list` in `save` names a flock the world does not have.
    let no_flock = |save: &[u8], list: &str| {
        edit_of(save, &|f| {
            let entry = first_map(field(f, list));
            *field(entry, "flock") =
                Value::Array(vec![Value::Integer(999.into()), Value::Integer(1.into())]);
        })
    };
    let e = no_flock(&building, "builds");
    assert!(e.contains("no flock 999:1"), "{e}");
    // The changed scene's terrain is being surveyed.
    let e = no_flock(&good, "surveys");
    assert!(e.contains("no flock 999:1"), "{e}");
    let e = edit(&|f| {
        let survey = first_map(field(f, "surveys"));
        *field(survey, "taken") = Value::Integer(u64::MAX.into());
    });
    assert!(e.contains("already whole"), "{e}");
}

#[test]
fn the_overlay_arrows_follow_the_field_on_the_ground() {
    let (mut world, id, dt) = maze_world(MazeLayout::PRESET, 1);
    let mut arrows = Vec::new();
    assert_eq!(world.flow_arrows(id, 32, &mut arrows), 0, "no field yet");
    assert!(arrows.is_empty());
    world.step(dt).unwrap();
    arrows.push(boids_sim::FlowArrow {
        tail: Vec3::ZERO,
        tip: Vec3::ZERO,
        far: 9.0,
    });
    // 161 cells a side, at most 32 arrows a side: one every 6 cells, from the 3rd.
    assert_eq!(world.flow_arrows(id, 32, &mut arrows), 6);
    let f = world.flow_field(id).unwrap().clone();
    let g = f.grid;
    let far = (0..g.cells())
        .filter_map(|c| f.distance_at(c))
        .fold(0.0f32, f32::at_least);
    // Every sampled cell with a way gets one arrow, in row order (the maze's ground covers the
    // whole grid).
    let mut want = Vec::new();
    for k in (3..161).step_by(6) {
        for i in (3..161).step_by(6) {
            let c = g.index(i, k);
            if f.direction(c).is_some() {
                want.push(c);
            }
        }
    }
    assert_eq!(arrows.len(), want.len());
    assert!(arrows.len() > 600, "{} arrows", arrows.len());
    let mut in_cup = 0;
    for (a, &c) in arrows.iter().zip(&want) {
        let mid = (a.tail + a.tip) * 0.5;
        let (x, z) = g.centre(c as u32 % 161, c as u32 / 161);
        assert_eq!((mid.x, mid.z), (x, z), "through its cell's centre");
        let ground = world.ground_height(x, z).unwrap().unwrap();
        assert!((mid.y - 0.2 - ground).abs() < 1e-4, "{mid} over {ground}");
        let along = (a.tip - a.tail) / 4.8;
        let v = f.direction(c).unwrap();
        assert!((along - v).length() < 1e-5, "{along} along {v}");
        assert!((a.far - f.distance_at(c).unwrap() / far).abs() < 1e-6);
        // In the U's cup the way leads out west, away from the target beyond its base.
        if mid.x > 0.0 && mid.x < 15.0 && mid.z.abs() < 15.0 {
            in_cup += 1;
            assert!(a.tip.x < a.tail.x, "{mid}: {along}");
        }
    }
    assert!(in_cup > 4, "{in_cup} arrows in the cup");
    // No arrow at the target's own cell (the way ends there): the nearest has some way to go.
    assert!(arrows.iter().all(|a| a.far > 0.0));
    // 0 a side is one: a single arrow, at the middle cell (80, 80), in the cup.
    assert_eq!(world.flow_arrows(id, 0, &mut arrows), 161);
    assert_eq!(arrows.len(), 1);
    assert!(arrows[0].tip.x < arrows[0].tail.x);
    // In flight: none.
    world.step_begin(dt).unwrap();
    assert_eq!(world.flow_arrows(id, 32, &mut arrows), 0);
    assert!(arrows.is_empty());
    world.step_end().unwrap();
}

#[test]
fn setting_the_same_cell_size_again_keeps_the_fields() {
    let (mut world, id, dt) = maze_world(MazeLayout::PRESET, 1);
    world.step(dt).unwrap();
    let before = world.flow_field(id).unwrap().clone();
    // With a budget a field takes several steps: one thrown away would leave none to read.
    world.set_flow_budget(5_000).unwrap();
    world.set_flow_cell_size(1.0).unwrap();
    world.step(dt).unwrap();
    assert_eq!(world.flow_field(id), Some(&before));
    // Another size starts over: nothing to read until its field is whole.
    world.set_flow_cell_size(2.0).unwrap();
    world.step(dt).unwrap();
    assert_eq!(world.flow_field(id), None);
}

/// A serial executor that breaks its contract once when told to: the step that sees it fails.
struct Faulty(std::sync::atomic::AtomicBool);

impl boids_sim::Exec for Faulty {
    fn workers(&self) -> usize {
        1
    }
    fn for_ranges(&self, n: usize, grain: usize, task: &(dyn Fn(std::ops::Range<usize>) + Sync)) {
        boids_sim::SerialExec.for_ranges(n, grain, task);
    }
    fn spawn(&self, job: std::sync::Arc<dyn boids_sim::Spawned>) {
        boids_sim::SerialExec.spawn(job);
    }
    fn take_fault(&self) -> Option<String> {
        let fail = self.0.swap(false, std::sync::atomic::Ordering::SeqCst);
        fail.then(|| "a fault, for the test".into())
    }
}

#[test]
fn a_failed_step_leaves_the_fields_being_built_where_it_found_them() {
    let faulty = std::sync::Arc::new(Faulty(false.into()));
    let world = |exec: std::sync::Arc<dyn boids_sim::Exec>| {
        let scene = maze("walkers", MazeLayout::PRESET);
        let mut w = World::with_exec(WorldConfig::default(), exec).unwrap();
        let id = scene.add_to(&mut w).unwrap()[0];
        w.set_flow_budget(3_000).unwrap();
        (w, id, scene.dt)
    };
    let (mut a, id, dt) = world(faulty.clone());
    let (mut b, _, _) = world(std::sync::Arc::new(boids_sim::SerialExec));
    // The first field, then a target move: its field is built over some 20 steps.
    let both = |a: &mut World, b: &mut World, n: usize| {
        for _ in 0..n {
            a.step(dt).unwrap();
            b.step(dt).unwrap();
            assert_eq!(a.state_hash(), b.state_hash());
        }
    };
    // While the terrain is surveyed (a budget at a time too), a step fails: the survey
    // stands where it stood.
    both(&mut a, &mut b, 3);
    let (hash, save) = (a.state_hash(), a.save());
    faulty.0.store(true, std::sync::atomic::Ordering::SeqCst);
    assert!(matches!(a.step(dt), Err(boids_sim::Error::Internal(_))));
    assert_eq!(a.state_hash(), hash);
    assert!(
        a.save() == save,
        "the save after the failed step differs (survey)"
    );
    while b.flow_field(id).is_none() {
        both(&mut a, &mut b, 1);
        assert_eq!(a.flow_field(id), b.flow_field(id));
    }
    for w in [&mut a, &mut b] {
        w.set_target(id, Vec3::new(-40.0, 0.0, 50.0)).unwrap();
    }
    both(&mut a, &mut b, 3);
    let (hash, save) = (a.state_hash(), a.save());
    faulty.0.store(true, std::sync::atomic::Ordering::SeqCst);
    assert!(matches!(a.step(dt), Err(boids_sim::Error::Internal(_))));
    // The state and the fields' history (a save holds where each build stands) as before.
    assert_eq!(a.state_hash(), hash);
    assert!(a.save() == save, "the save after the failed step differs");
    // On, step for step with the world that never failed, through the new field's arrival.
    let old = b.flow_field(id).unwrap().target;
    let mut arrived = None;
    for s in 0..60 {
        both(&mut a, &mut b, 1);
        assert_eq!(a.flow_field(id), b.flow_field(id), "step {s}");
        if arrived.is_none() && b.flow_field(id).unwrap().target != old {
            arrived = Some(s);
        }
    }
    assert!(
        arrived.is_some_and(|s| s > 2),
        "the new field after {arrived:?} steps"
    );
}

#[test]
fn ground_that_would_take_the_flow_grid_past_its_cap_is_refused() {
    let (mut world, id, dt) = maze_world(MazeLayout::PRESET, 1);
    world.step(dt).unwrap();
    let hills = world
        .obstacle_ids()
        .find(|&o| matches!(world.obstacle(o), Some(Obstacle::Heightfield { .. })))
        .unwrap();
    let Some(Obstacle::Heightfield {
        field,
        rotation,
        scale,
        ..
    }) = world.obstacle(hills)
    else {
        unreachable!()
    };
    let far = |x: f32| Obstacle::Heightfield {
        field,
        position: Vec3::new(x, 0.0, x),
        rotation,
        scale,
        ground: true,
    };
    // Ground 5,000 units away: a grid of some 5,160² cells of 1, over the 2^24 cap; added, or
    // a second field 500 away (taken) moved there.
    let e = world.add_obstacle(far(5_000.0)).unwrap_err().to_string();
    assert!(e.contains("flow grid") && e.contains("16777216"), "{e}");
    let near = world.add_obstacle(far(500.0)).unwrap();
    let hash = world.state_hash();
    let e = world
        .set_obstacle(near, far(5_000.0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("flow grid") && e.contains("16777216"), "{e}");
    assert_eq!(world.state_hash(), hash, "nothing changed");
    assert_eq!(world.obstacle(near), Some(far(500.0)));
    // The only ground moved far away is a small grid again: taken.
    world.remove_obstacle(near).unwrap();
    world.set_obstacle(hills, far(5_000.0)).unwrap();
    world.set_obstacle(hills, far(-80.0)).unwrap();
    // Not ground, or no flow cells: taken.
    let solid = Obstacle::Heightfield {
        field,
        position: Vec3::splat(5_000.0),
        rotation,
        scale,
        ground: false,
    };
    world.add_obstacle(solid).unwrap();
    world.step(dt).unwrap();
    assert!(world.flow_field(id).is_some(), "still reading a field");
    world.set_flow_cell_size(0.0).unwrap();
    world.add_obstacle(far(5_000.0)).unwrap();
    // With that ground, a cell of 1 is refused in turn; one of 2 is taken.
    assert!(world.set_flow_cell_size(1.0).is_err());
    world.set_flow_cell_size(2.0).unwrap();
}
