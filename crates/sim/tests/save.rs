//! Exact save and restore: a world saved at step 100 and loaded continues to step 300 with the
//! same state hash as one that never stopped, for every preset and on other thread counts;
//! bytes that are not a save, truncated, corrupt, from a newer format or holding refused values
//! get a clear error.

use boids_sim::*;

fn preset_world(name: &str, threads: usize) -> World {
    let mut scene = presets::get(name).unwrap().scene(name);
    scene.threads = threads;
    scene.build().unwrap()
}

fn steps(w: &mut World, n: usize) {
    for _ in 0..n {
        w.step(1.0 / 60.0).unwrap();
    }
}

fn config(threads: usize) -> WorldConfig {
    WorldConfig {
        threads,
        ..WorldConfig::default()
    }
}

#[test]
fn every_preset_saved_at_100_and_loaded_reaches_the_same_state_at_300() {
    for p in presets::all() {
        let mut straight = preset_world(p.name, 1);
        steps(&mut straight, 300);

        let mut first = preset_world(p.name, 1);
        steps(&mut first, 100);
        let bytes = first.save();
        // Loaded on another thread count: results never depend on it.
        let mut loaded = World::load(&bytes, config(2)).unwrap();
        assert_eq!(
            loaded.state_hash(),
            first.state_hash(),
            "{}: at load",
            p.name
        );
        assert_eq!(loaded.steps(), 100, "{}", p.name);
        assert!(loaded.save() == bytes, "{}: save(load(b)) == b", p.name);
        steps(&mut loaded, 200);
        assert_eq!(
            loaded.state_hash(),
            straight.state_hash(),
            "{}: saved at 100, loaded, run to 300",
            p.name
        );
        // The full state too (the hash covers positions, velocities and headings; extras and
        // everything else show in the bytes).
        assert_eq!(
            loaded.save(),
            straight.save(),
            "{}: every byte at 300",
            p.name
        );
    }
}

#[test]
fn ids_obstacles_relations_paths_leaders_and_the_observer_survive() {
    let mut w = World::new(config(1)).unwrap();
    let gone = w.create_flock("gone", FlockParams::default()).unwrap();
    let a = w.create_flock("a", FlockParams::default()).unwrap();
    w.destroy_flock(gone).unwrap();
    let b = w.create_flock("b", FlockParams::default()).unwrap();
    w.spawn(a, 50, &Spawn::default()).unwrap();
    w.spawn(b, 5, &Spawn::default()).unwrap();
    w.remove_boids(a, &[3, 7]).unwrap();
    let o = w
        .add_obstacle(Obstacle::Sphere {
            centre: Vec3::splat(2.0),
            radius: 1.0,
        })
        .unwrap();
    let dead = w
        .add_obstacle(Obstacle::Sphere {
            centre: Vec3::ZERO,
            radius: 1.0,
        })
        .unwrap();
    w.remove_obstacle(dead).unwrap();
    w.set_relation(a, b, RelationKind::Flee, 4.0, 2.0).unwrap();
    w.set_path(b, &[Vec3::ZERO, Vec3::X * 5.0, Vec3::Z * 5.0], true)
        .unwrap();
    w.set_leader(a, Some((10, Vec3::new(0.0, 0.0, -2.0))))
        .unwrap();
    w.set_observer(Some(Vec3::new(1.0, 2.0, 3.0))).unwrap();
    w.set_wake_region(b, Some((Vec3::splat(-50.0), Vec3::splat(50.0))))
        .unwrap();
    steps(&mut w, 20);

    let mut l = World::load(&w.save(), config(1)).unwrap();
    assert!(l.save() == w.save(), "save(load(b)) == b");
    assert!(l.is_valid(a) && l.is_valid(b) && !l.is_valid(gone));
    assert_eq!(l.flock(a).unwrap().name(), "a");
    assert_eq!(l.flock(a).unwrap().leader(), w.flock(a).unwrap().leader());
    assert_eq!(l.flock(b).unwrap().path(), w.flock(b).unwrap().path());
    assert_eq!(l.observer(), w.observer());
    assert_eq!(l.relations(), w.relations());
    assert_eq!(l.flock(a).unwrap().ids(), w.flock(a).unwrap().ids());
    let moved = Obstacle::Sphere {
        centre: Vec3::ONE,
        radius: 2.0,
    };
    l.set_obstacle(o, moved).unwrap();
    w.set_obstacle(o, moved).unwrap();
    assert!(
        l.remove_obstacle(dead).is_err(),
        "a removed obstacle stays removed"
    );
    // New ids come out as they would have.
    let c1 = w.create_flock("c", FlockParams::default()).unwrap();
    let c2 = l.create_flock("c", FlockParams::default()).unwrap();
    assert_eq!(c1, c2);
    assert_eq!(
        w.spawn(a, 1, &Spawn::default()).unwrap(),
        l.spawn(a, 1, &Spawn::default()).unwrap()
    );
    steps(&mut w, 30);
    steps(&mut l, 30);
    assert_eq!(l.state_hash(), w.state_hash());
}

fn sample() -> Vec<u8> {
    let mut w = preset_world("goal-swarm", 1);
    steps(&mut w, 5);
    w.save()
}

fn refused(bytes: &[u8]) -> String {
    match World::load(bytes, config(1)) {
        Ok(_) => panic!("loaded {} bytes that must be refused", bytes.len()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_bytes_get_a_clear_error() {
    let good = sample();
    assert!(refused(b"").contains("BOIDSAVE"));
    assert!(refused(b"hello, this is not a save file at all").contains("BOIDSAVE"));
    for cut in [28, good.len() / 2, good.len() - 1] {
        let m = refused(&good[..cut]);
        assert!(m.contains("truncated"), "cut at {cut}: {m}");
    }
    let mut padded = good.clone();
    padded.push(0);
    assert!(refused(&padded).contains("truncated or padded"));
    let mut newer = good.clone();
    newer[8..12].copy_from_slice(&(SAVE_FORMAT_VERSION + 1).to_le_bytes());
    let m = refused(&newer);
    assert!(
        m.contains(&format!("version {}", SAVE_FORMAT_VERSION + 1)) && m.contains("newer"),
        "{m}"
    );
    // Any flipped bit in the payload is caught by the checksum.
    for at in [28, 100, good.len() / 2, good.len() - 1] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        assert!(refused(&bad).contains("checksum"), "flip at {at}");
    }
}

/// A payload with a valid header and checksum but a value the API refuses (a NaN position, an
/// unknown field): validation, not the checksum, must stop it.
#[test]
fn a_well_formed_file_with_refused_values_is_refused() {
    fn reseal(mut bytes: Vec<u8>, edit: impl Fn(&mut [u8]) -> bool) -> Vec<u8> {
        assert!(edit(&mut bytes[28..]), "the edit found its target");
        let payload = &bytes[28..];
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in payload {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        bytes[20..28].copy_from_slice(&h.to_le_bytes());
        bytes
    }
    let mut w = World::new(config(1)).unwrap();
    let f = w.create_flock("f", FlockParams::default()).unwrap();
    w.add_boids(f, &[Vec3::new(1234.5, 0.0, 0.0)], &[Vec3::X])
        .unwrap();
    let good = w.save();
    assert!(World::load(&good, config(1)).is_ok());
    // 1234.5 as a CBOR f32 (0xfa, big-endian bits) -> NaN.
    let pat = [&[0xfau8][..], &1234.5f32.to_bits().to_be_bytes()[..]].concat();
    let nan = reseal(good.clone(), |p| {
        let Some(i) = p.windows(5).position(|x| x == pat.as_slice()) else {
            return false;
        };
        p[i + 1..i + 5].copy_from_slice(&f32::NAN.to_bits().to_be_bytes());
        true
    });
    let m = refused(&nan);
    assert!(m.contains("positions[0]") && m.contains("NaN"), "{m}");
    // The flock's name "f" (CBOR text of length 1: 0x61 'f') renamed to "" would be refused
    // too, but renaming to "g" is fine: validation, not byte patterns, decides.
    let renamed = reseal(good.clone(), |p| {
        let Some(i) = p.windows(2).position(|x| x == [0x61, b'f']) else {
            return false;
        };
        p[i + 1] = b'g';
        true
    });
    let l = World::load(&renamed, config(1)).unwrap();
    assert!(l.find_flock("g").is_some());
}

/// A world with shape data (the reef preset: a heightfield and six rock meshes placed 24 times,
/// one of them removed and its slot reused) saves and loads exactly: the loaded world continues
/// bit for bit, and the shape data and placements come back as they were (same ids).
#[test]
fn meshes_and_heightfields_save_and_load_exactly() {
    let mut w = World::new(WorldConfig {
        seed: 9,
        threads: 1,
        ..WorldConfig::default()
    })
    .unwrap();
    boids_sim::presets::create(&mut w, "reef", "reef").unwrap();
    // A removed placement and a reused slot: generations must come back too.
    let first = w.obstacle_ids().next().unwrap();
    let o = w.obstacle(first).unwrap();
    w.remove_obstacle(first).unwrap();
    let again = w.add_obstacle(o).unwrap();
    assert_ne!(first, again);
    for _ in 0..20 {
        w.step(1.0 / 60.0).unwrap();
    }
    let bytes = w.save();
    let mut copy = World::load(&bytes, WorldConfig::default()).unwrap();
    assert_eq!(copy.save(), bytes, "save, load, save: the same bytes");
    assert_eq!(copy.obstacles(), w.obstacles());
    let ids: Vec<_> = w.mesh_ids().collect();
    assert_eq!(copy.mesh_ids().collect::<Vec<_>>(), ids);
    for id in ids {
        assert_eq!(copy.mesh(id), w.mesh(id));
    }
    for _ in 0..40 {
        w.step(1.0 / 60.0).unwrap();
        copy.step(1.0 / 60.0).unwrap();
    }
    assert_eq!(copy.state_hash(), w.state_hash());
}

/// A version 1 file (before shape data) still loads.
#[test]
fn a_version_1_save_still_loads() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    boids_sim::presets::create(&mut w, "shark", "shark").unwrap();
    let good = w.save();
    let mut v: ciborium::Value = ciborium::from_reader(&good[28..]).unwrap();
    let ciborium::Value::Map(m) = &mut v else {
        panic!("a map")
    };
    m.retain(|(k, _)| k.as_text() != Some("meshes"));
    let mut payload = Vec::new();
    ciborium::into_writer(&v, &mut payload).unwrap();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in &payload {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    let mut old = b"BOIDSAVE".to_vec();
    old.extend_from_slice(&1u32.to_le_bytes());
    old.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    old.extend_from_slice(&h.to_le_bytes());
    old.extend_from_slice(&payload);
    let loaded = World::load(&old, WorldConfig::default()).unwrap();
    assert_eq!(loaded.state_hash(), w.state_hash());
    assert_eq!(loaded.obstacles(), w.obstacles());
}
