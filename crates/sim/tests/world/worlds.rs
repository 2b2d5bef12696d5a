//! Several worlds at once (side by side, sharing a pool), refused scenes, and matrices under a
//! parent transform.

use super::*;

fn world_for(seed: u64, threads: usize) -> World {
    let mut w = World::new(cfg(seed, threads)).unwrap();
    let f = w
        .create_flock(
            "f",
            FlockParams {
                weights: Weights {
                    wander: 0.5,
                    ..Weights::default()
                },
                ..FlockParams::default()
            },
        )
        .unwrap();
    w.spawn(f, 3000, &Spawn::default()).unwrap();
    w
}

#[test]
fn many_worlds_on_many_threads_match_one_by_one() {
    let seeds: Vec<u64> = (1..=6).collect();
    let alone: Vec<u64> = seeds
        .iter()
        .map(|&s| {
            let mut w = world_for(s, 1);
            for _ in 0..30 {
                w.step(DT).unwrap();
            }
            w.state_hash()
        })
        .collect();
    let together: Vec<u64> = std::thread::scope(|scope| {
        let handles: Vec<_> = seeds
            .iter()
            .map(|&s| {
                scope.spawn(move || {
                    let mut w = world_for(s, 1 + (s as usize % 3));
                    for _ in 0..30 {
                        w.step(DT).unwrap();
                    }
                    w.state_hash()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(together, alone);
}

/// Found by fuzzing the C ABI: a preset whose second flock's name was taken left its first flock
/// behind. Adding a scene is all or nothing.
#[test]
fn a_refused_preset_or_scene_leaves_the_world_as_it_was() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let taken = w
        .create_flock("p-predator", FlockParams::default())
        .unwrap();
    w.spawn(taken, 10, &Spawn::default()).unwrap();
    let before = (w.state_hash(), w.flock_ids().count(), w.obstacles().len());
    let e = boids_sim::presets::create(&mut w, "shark", "p").unwrap_err();
    assert!(e.to_string().contains("p-predator"), "{e}");
    assert_eq!(
        (w.state_hash(), w.flock_ids().count(), w.obstacles().len()),
        before,
        "the shark's school and rocks were taken back"
    );
    assert!(w.find_flock("p").is_none());
}

/// Worlds that ask for the same number of threads share one pool: ten worlds of 3 threads start
/// 3 workers, not 30 (several Unity controllers, several C hosts' worlds), and they still step
/// to the bits of a world alone. The pool ends with its last world.
#[cfg(target_os = "linux")]
#[test]
fn worlds_with_the_same_thread_count_share_one_pool() {
    fn threads_named(prefix: &str) -> usize {
        std::fs::read_dir("/proc/self/task")
            .unwrap()
            .filter(|t| {
                let comm = t.as_ref().unwrap().path().join("comm");
                std::fs::read_to_string(comm).is_ok_and(|n| n.starts_with(prefix))
            })
            .count()
    }
    // Rayon's workers start and leave a little after their pool is made or dropped: wait for
    // the count, failing only when it stops changing for a minute without reaching it (a
    // loaded machine starts and ends threads slowly, but it does).
    let settle = |want: usize| {
        let mut seen = (threads_named("boids-7-"), std::time::Instant::now());
        while seen.0 != want {
            assert!(
                seen.1.elapsed().as_secs() < 60,
                "{} threads named boids-7-, not {want}",
                seen.0
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
            let now = threads_named("boids-7-");
            if now != seen.0 {
                seen = (now, std::time::Instant::now());
            }
        }
    };
    // 7 threads: no other test in this binary asks for 7.
    let alone = run(mixed_world(7, 5), 40);
    settle(0); // the pool ended with its world
    let worlds: Vec<World> = (0..10).map(|k| mixed_world(7, 100 + k)).collect();
    settle(7); // ten worlds, one pool of 7
    let mut hashes = Vec::new();
    std::thread::scope(|s| {
        let handles: Vec<_> = worlds
            .into_iter()
            .map(|w| s.spawn(move || run(w, 40)))
            .collect();
        hashes = handles.into_iter().map(|h| h.join().unwrap()).collect();
    });
    assert_eq!(hashes.len(), 10);
    assert_eq!(run(mixed_world(7, 5), 40), alone, "sharing changes no bit");
    let again = run(mixed_world(7, 100), 40);
    assert_eq!(
        hashes[0], again,
        "a world stepped beside nine others gives its own bits"
    );
}

/// The transformed read is the parent transform times each boid's matrix (a Unity object's
/// localToWorldMatrix times the flock's local matrices); a bad transform is refused.
#[test]
fn transformed_matrices_are_the_parent_times_each_boid() {
    let mut w = World::new(cfg(3, 1)).unwrap();
    let fish = w.create_flock("fish", FlockParams::default()).unwrap();
    w.spawn(fish, 300, &Spawn::default()).unwrap();
    w.step(DT).unwrap();
    let parent = glam::Mat4::from_scale_rotation_translation(
        glam::Vec3::new(2.0, 2.0, 0.5),
        glam::Quat::from_rotation_y(0.7),
        glam::Vec3::new(10.0, -4.0, 3.0),
    );
    let mut local = vec![[0.0f32; 16]; 300];
    let mut placed = vec![[0.0f32; 16]; 300];
    w.read_matrices(fish, 0.5, &mut local).unwrap();
    let t = parent.to_cols_array();
    assert_eq!(
        w.read_matrices_transformed(fish, &t, 0.5, &mut placed)
            .unwrap(),
        300
    );
    for (l, p) in local.iter().zip(&placed) {
        let want = parent * glam::Mat4::from_cols_array(l);
        let got = glam::Mat4::from_cols_array(p);
        assert!(want.abs_diff_eq(got, 1e-4), "{want} vs {got}");
    }
    // The boid at the local origin of its own matrix sits where the parent puts its position.
    let p0 = glam::Vec3::from_slice(&local[0][12..15]);
    let placed0 = glam::Vec3::from_slice(&placed[0][12..15]);
    assert!(parent.transform_point3(p0).abs_diff_eq(placed0, 1e-4));
    for (k, bad) in [(3, f32::NAN), (12, 2e9), (0, f32::INFINITY)] {
        let mut t = t;
        t[k] = bad;
        let e = w
            .read_matrices_transformed(fish, &t, 1.0, &mut placed)
            .unwrap_err()
            .to_string();
        assert!(e.contains(&format!("transform[{k}]")), "{e}");
    }
    assert!(matches!(
        w.read_matrices_transformed(fish, &t, 1.0, &mut placed[..10]),
        Err(Error::BufferTooSmall { needed: 300 })
    ));
}
