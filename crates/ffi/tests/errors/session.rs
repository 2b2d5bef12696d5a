//! A whole session through the C ABI, reads into any 4-byte-aligned buffer, and two threads
//! on one world.

use super::*;

#[test]
fn a_full_session_through_the_c_abi() {
    let w = world(2);
    let f = flock(w, "fish", 500);
    let mut g = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_find(w, c"fish".as_ptr(), &mut g) },
        BoidsResult::Ok
    );
    assert_eq!(g, f);
    let mut p = boids_default_flock_params();
    p.has_target = 1;
    p.target_point = BoidsVec3 {
        x: 1.0,
        y: 2.0,
        z: 3.0,
    };
    p.weight_target = 0.5;
    assert_eq!(unsafe { boids_flock_set_params(f, &p) }, BoidsResult::Ok);
    assert_eq!(
        boids_flock_set_target(
            f,
            BoidsVec3 {
                x: 4.0,
                y: 0.0,
                z: 0.0
            }
        ),
        BoidsResult::Ok
    );
    let mut q = boids_default_flock_params();
    assert_eq!(
        unsafe { boids_flock_get_params(f, &mut q) },
        BoidsResult::Ok
    );
    assert_eq!(
        q.target_point,
        BoidsVec3 {
            x: 4.0,
            y: 0.0,
            z: 0.0
        }
    );
    assert_eq!(q.weight_target, 0.5);
    let pos = [BoidsVec3 {
        x: 1.0,
        y: 1.0,
        z: 1.0,
    }; 3];
    let vel = [BoidsVec3 {
        x: 0.0,
        y: 0.0,
        z: 2.0,
    }; 3];
    let mut first = 0;
    assert_eq!(
        unsafe { boids_flock_add_boids(f, pos.as_ptr(), vel.as_ptr(), 3, &mut first) },
        BoidsResult::Ok
    );
    assert_eq!(first, 500);
    let mut removed = 0;
    assert_eq!(
        unsafe { boids_flock_remove_boids(f, [0u32, 501, 0].as_ptr(), 3, &mut removed) },
        BoidsResult::Ok
    );
    assert_eq!(removed, 2);
    assert_eq!(
        unsafe { boids_flock_remove_boids(f, [0u32].as_ptr(), 1, &mut removed) },
        BoidsResult::InvalidArgument,
        "already gone"
    );
    for _ in 0..10 {
        assert_eq!(boids_world_step(w, 1.0 / 60.0), BoidsResult::Ok);
    }
    let mut n = 0;
    let mut q = vec![BoidsQuat::default(); 501];
    assert_eq!(
        unsafe { boids_flock_read_orientations(f, q.as_mut_ptr(), 501, &mut n) },
        BoidsResult::Ok
    );
    assert_eq!(n, 501);
    assert!(
        q.iter()
            .all(|q| ((q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w) - 1.0).abs() < 1e-4)
    );
    // Presets, obstacles, wake regions.
    let mut t = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_create_preset(w, c"fish-tank".as_ptr(), c"tank".as_ptr(), &mut t) },
        BoidsResult::Ok
    );
    assert_eq!(unsafe { boids_flock_count(t, &mut n) }, BoidsResult::Ok);
    assert_eq!(n, 100);
    let far = BoidsVec3 {
        x: 100.0,
        y: 0.0,
        z: 0.0,
    };
    assert_eq!(
        unsafe { boids_world_set_observer(w, &far) },
        BoidsResult::Ok
    );
    assert_eq!(boids_world_step(w, 1.0 / 60.0), BoidsResult::Ok);
    let mut asleep = 0;
    assert_eq!(
        unsafe { boids_flock_is_asleep(t, &mut asleep) },
        BoidsResult::Ok
    );
    assert_eq!(asleep, 1, "the tank sleeps while the player is away");
    assert_eq!(
        unsafe { boids_flock_is_asleep(f, &mut asleep) },
        BoidsResult::Ok
    );
    assert_eq!(asleep, 0, "a flock without a wake region never sleeps");
    let (lo, hi) = (
        BoidsVec3 {
            x: -1.0,
            y: -1.0,
            z: -1.0,
        },
        BoidsVec3 {
            x: 1.0,
            y: 1.0,
            z: 1.0,
        },
    );
    assert_eq!(
        unsafe { boids_flock_set_wake_region(f, &lo, &hi) },
        BoidsResult::Ok
    );
    assert_eq!(
        unsafe { boids_flock_set_wake_region(f, null(), null()) },
        BoidsResult::Ok
    );
    let def = BoidsObstacleDef {
        shape: BOIDS_OBSTACLE_BOX,
        a: lo,
        b: hi,
        radius: 0.0,
        ..boids_default_obstacle_def()
    };
    let mut o = BoidsObstacleId::default();
    assert_eq!(
        unsafe { boids_obstacle_add(w, &def, &mut o) },
        BoidsResult::Ok
    );
    assert_eq!(unsafe { boids_obstacle_set(o, &def) }, BoidsResult::Ok);
    let mut b = q_bounds();
    b.kind = BOIDS_BOUNDS_WRAP;
    assert_eq!(unsafe { boids_flock_set_bounds(f, &b) }, BoidsResult::Ok);
    assert_eq!(boids_world_step(w, 1.0 / 60.0), BoidsResult::Ok);
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
    assert!(
        !unsafe { CStr::from_ptr(boids_version()) }
            .to_bytes()
            .is_empty()
    );
    assert_eq!(boids_abi_version(), BOIDS_ABI_VERSION);
    let s = unsafe { CStr::from_ptr(boids_result_str(5)) }
        .to_str()
        .unwrap();
    assert!(s.starts_with("BOIDS_RESULT_BUSY"));
    assert_eq!(
        unsafe { CStr::from_ptr(boids_result_str(-7)) }
            .to_str()
            .unwrap(),
        "unknown result code"
    );
}

#[test]
fn reads_accept_any_4_byte_aligned_buffer() {
    // C# arrays and C buffers are only guaranteed float alignment; a 16-byte SIMD store into
    // them would crash. Read into buffers deliberately placed 4 bytes past a 16-byte boundary.
    let w = world(2);
    let f = flock(w, "f", 3000);
    assert_eq!(boids_world_step(w, 0.016), BoidsResult::Ok);
    let mut raw = vec![0.0f32; 16 * 3000 + 8];
    let skew = (4 - (raw.as_ptr() as usize / 4) % 4) % 4 + 1;
    let p = raw[skew..].as_mut_ptr();
    assert_eq!(p as usize % 16, 4);
    let mut n = 0;
    assert_eq!(
        unsafe { boids_flock_read_orientations(f, p.cast(), 3000, &mut n) },
        BoidsResult::Ok
    );
    assert_eq!(
        unsafe { boids_flock_read_matrices(f, 1.0, p.cast(), 3000, &mut n) },
        BoidsResult::Ok
    );
    assert_eq!(
        unsafe { boids_flock_read_positions(f, p.cast(), 3000, &mut n) },
        BoidsResult::Ok
    );
    assert_eq!(
        unsafe { boids_flock_read_velocities(f, p.cast(), 3000, &mut n) },
        BoidsResult::Ok
    );
    assert_eq!(n, 3000);
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
}

fn q_bounds() -> BoidsBounds {
    BoidsBounds {
        kind: BOIDS_BOUNDS_SOFT_BOX,
        min: BoidsVec3 {
            x: -10.0,
            y: -10.0,
            z: -10.0,
        },
        max: BoidsVec3 {
            x: 10.0,
            y: 10.0,
            z: 10.0,
        },
        centre: BoidsVec3::default(),
        radius: 10.0,
        distance: 2.0,
        inner: 0.9,
    }
}

#[test]
fn two_threads_on_one_world_never_race() {
    // One thread steps a large world; the other keeps calling into it. Every overlapping call is
    // refused with BUSY, none crashes, and the final state equals a world stepped alone.
    let w = world(1);
    let f = flock(w, "f", 60_000);
    let reference = {
        let r = world(1);
        let _ = flock(r, "f", 60_000);
        for _ in 0..4 {
            assert_eq!(boids_world_step(r, 0.016), BoidsResult::Ok);
        }
        let h = hash(r);
        assert_eq!(boids_world_destroy(r), BoidsResult::Ok);
        h
    };
    let stepping = std::thread::spawn(move || {
        let mut ok = 0;
        while ok < 4 {
            match boids_world_step(w, 0.016) {
                BoidsResult::Ok => ok += 1,
                BoidsResult::Busy => std::thread::yield_now(),
                other => panic!("step: {other:?}"),
            }
        }
    });
    let mut busy = 0;
    let mut buf = vec![BoidsVec3::default(); 60_000];
    let mut n = 0;
    while !stepping.is_finished() {
        match unsafe { boids_flock_read_positions(f, buf.as_mut_ptr(), buf.len(), &mut n) } {
            BoidsResult::Ok => assert_eq!(n, 60_000),
            BoidsResult::Busy => {
                busy += 1;
                assert!(msg().contains("another thread"));
            }
            other => panic!("read: {other:?}"),
        }
    }
    stepping.join().unwrap();
    assert!(busy > 0, "the reader overlapped the steps at least once");
    assert_eq!(hash(w), reference, "the refused reads disturbed nothing");

    // Destroying while another thread steps: refused with BUSY until that step returns; the
    // stepping thread then sees a stale id, never freed memory.
    let stepping = std::thread::spawn(move || {
        loop {
            match boids_world_step(w, 0.016) {
                BoidsResult::Ok | BoidsResult::Busy => {}
                BoidsResult::InvalidId => return,
                other => panic!("step: {other:?}"),
            }
        }
    });
    loop {
        match boids_world_destroy(w) {
            BoidsResult::Ok => break,
            BoidsResult::Busy => std::thread::yield_now(),
            other => panic!("destroy: {other:?}"),
        }
    }
    stepping.join().unwrap();
    assert_eq!(boids_world_is_valid(w), 0);
}
