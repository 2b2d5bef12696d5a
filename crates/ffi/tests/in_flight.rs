//! A step in flight, through the C ABI, as a game uses it (`boids_world_step_begin`, render,
//! `boids_world_step_end`):
//! - every preset stepped by begin/end gives `boids_world_step`'s bits;
//! - while the step runs, the boid reads succeed and return the state before the step;
//! - every other export that names the world, one of its flocks or obstacles returns
//!   `BOIDS_RESULT_BUSY` and changes nothing (one row per export; a test fails when an export of
//!   `include/boids.h` is in no list);
//! - destroying a world with a step in flight cancels it (or waits for it, once it runs).
//!
//! SAFETY, for every `unsafe` block here: pointers point to live locals of the right type and
//! length; strings are NUL-terminated literals.
#![expect(unsafe_code, reason = "calls the C ABI as C does")]

use boids_ffi::*;
use std::ffi::CStr;
use std::ptr::null_mut;

use BoidsResult::{Busy, Ok};

const DT: f32 = 1.0 / 60.0;

fn msg() -> String {
    unsafe { CStr::from_ptr(boids_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

fn world(threads: u32) -> BoidsWorldId {
    let mut d = boids_default_world_def();
    d.seed = 11;
    d.threads = threads;
    let mut w = BoidsWorldId::default();
    assert_eq!(unsafe { boids_world_create(&d, &mut w) }, Ok);
    w
}

fn hash(w: BoidsWorldId) -> u64 {
    let mut h = 0;
    assert_eq!(
        unsafe { boids_world_state_hash(w, &mut h) },
        Ok,
        "{}",
        msg()
    );
    h
}

fn save(w: BoidsWorldId) -> Vec<u8> {
    let mut n = 0;
    let _ = unsafe { boids_world_save(w, null_mut(), 0, &mut n) };
    let mut out = vec![0u8; n];
    assert_eq!(
        unsafe { boids_world_save(w, out.as_mut_ptr(), n, &mut n) },
        Ok
    );
    out
}

fn load(bytes: &[u8], threads: u32) -> BoidsWorldId {
    let mut d = boids_default_world_def();
    d.threads = threads;
    let mut w = BoidsWorldId::default();
    assert_eq!(
        unsafe { boids_world_load(&d, bytes.as_ptr(), bytes.len(), &mut w) },
        Ok,
        "{}",
        msg()
    );
    w
}

fn preset(w: BoidsWorldId, name: &CStr) -> BoidsFlockId {
    let mut f = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_create_preset(w, name.as_ptr(), name.as_ptr(), &mut f) },
        Ok,
        "{}",
        msg()
    );
    f
}

fn presets() -> Vec<std::ffi::CString> {
    boids_sim::presets::all()
        .iter()
        .map(|p| std::ffi::CString::new(p.name).unwrap())
        .collect()
}

#[test]
fn begin_and_end_give_steps_bits_for_every_preset() {
    for name in presets() {
        for threads in [0, 1, 2] {
            let (a, b) = (world(threads), world(threads));
            preset(a, &name);
            preset(b, &name);
            for _ in 0..90 {
                assert_eq!(boids_world_step(a, DT), Ok);
                assert_eq!(boids_world_step_begin(b, DT), Ok, "{}", msg());
                assert_eq!(boids_world_step_end(b), Ok, "{}", msg());
            }
            assert_eq!(hash(a), hash(b), "{name:?} on {threads} threads");
            assert_eq!(
                save(a),
                save(b),
                "{name:?}: the whole world, not only the boids"
            );
            boids_world_destroy(a);
            boids_world_destroy(b);
        }
    }
}

/// A world with two flocks (one large enough to step in parallel), an obstacle, a relation.
struct Fx {
    w: BoidsWorldId,
    f: BoidsFlockId,
    big: BoidsFlockId,
    o: BoidsObstacleId,
    m: BoidsMeshId,
}

fn fixture() -> Fx {
    let w = world(2);
    let f = preset(w, c"fish-tank");
    let mut def = boids_default_flock_def();
    def.name = c"big".as_ptr();
    let mut big = BoidsFlockId::default();
    assert_eq!(unsafe { boids_flock_create(w, &def, &mut big) }, Ok);
    let mut first = 0;
    let spawn = boids_default_spawn_def();
    assert_eq!(
        unsafe { boids_flock_spawn(big, 6000, &spawn, &mut first) },
        Ok
    );
    let sphere = BoidsObstacleDef {
        shape: BOIDS_OBSTACLE_SPHERE,
        a: BoidsVec3 {
            x: 3.0,
            y: 0.0,
            z: 0.0,
        },
        b: BoidsVec3::default(),
        radius: 1.0,
        ..boids_default_obstacle_def()
    };
    let mut o = BoidsObstacleId::default();
    assert_eq!(unsafe { boids_obstacle_add(w, &sphere, &mut o) }, Ok);
    let mut m = BoidsMeshId::default();
    let tri = [v3(0.0, 0.0, 9.0), v3(1.0, 0.0, 9.0), v3(0.0, 1.0, 9.0)];
    assert_eq!(
        unsafe { boids_mesh_create(w, tri.as_ptr(), 3, [0u32, 1, 2].as_ptr(), 3, &mut m) },
        Ok
    );
    assert_eq!(
        boids_world_set_relation(w, f, big, BOIDS_RELATION_FLEE, 2.0, 1.0),
        Ok,
        "{}",
        msg()
    );
    for _ in 0..3 {
        assert_eq!(boids_world_step(w, DT), Ok);
    }
    Fx { w, f, big, o, m }
}

/// Exports that touch no existing world.
const NO_WORLD: &[&str] = &[
    "boids_version",
    "boids_abi_version",
    "boids_struct_size",
    "boids_result_str",
    "boids_last_error_message",
    "boids_default_world_def",
    "boids_default_flock_params",
    "boids_default_flock_def",
    "boids_default_spawn_def",
    "boids_default_obstacle_def",
    "boids_world_create",
    "boids_world_load",
];

/// Exports allowed while a step is in flight (each checked below).
const ALLOWED: &[&str] = &[
    "boids_flock_count",
    "boids_flock_name",
    "boids_flock_read_positions",
    "boids_flock_read_velocities",
    "boids_flock_read_ids",
    "boids_flock_read_orientations",
    "boids_flock_read_matrices",
    "boids_flock_read_matrices_transformed",
    "boids_flock_count_at_target",
    "boids_world_is_valid",
    "boids_flock_is_valid",
    "boids_mesh_is_valid",
    "boids_world_is_stepping",
    "boids_world_step_end",
    "boids_world_destroy",
];

type Row = (&'static str, fn(&Fx) -> BoidsResult);

fn v3(x: f32, y: f32, z: f32) -> BoidsVec3 {
    BoidsVec3 { x, y, z }
}

/// One valid call of each export that must be refused while a step is in flight.
fn refused_rows() -> Vec<Row> {
    vec![
        ("boids_world_step", |fx| boids_world_step(fx.w, DT)),
        ("boids_world_step_begin", |fx| {
            boids_world_step_begin(fx.w, DT)
        }),
        ("boids_world_step_begin_n", |fx| {
            boids_world_step_begin_n(fx.w, DT, 2)
        }),
        ("boids_world_state_hash", |fx| {
            let mut h = 0;
            unsafe { boids_world_state_hash(fx.w, &mut h) }
        }),
        ("boids_world_rounded_digest", |fx| {
            let mut h = 0;
            unsafe { boids_world_rounded_digest(fx.w, 6, &mut h) }
        }),
        ("boids_world_save", |fx| {
            let mut n = 0;
            unsafe { boids_world_save(fx.w, null_mut(), 0, &mut n) }
        }),
        ("boids_world_list_flocks", |fx| {
            let mut n = 0;
            unsafe { boids_world_list_flocks(fx.w, null_mut(), 0, &mut n) }
        }),
        ("boids_world_read_scene_triangles", |fx| {
            let mut n = 0;
            unsafe { boids_world_read_scene_triangles(fx.w, null_mut(), 0, &mut n) }
        }),
        ("boids_world_set_observer", |fx| {
            let p = v3(1.0, 2.0, 3.0);
            unsafe { boids_world_set_observer(fx.w, &p) }
        }),
        ("boids_world_set_flow_cell_size", |fx| {
            boids_world_set_flow_cell_size(fx.w, 1.0)
        }),
        ("boids_world_get_flow_cell_size", |fx| {
            let mut c = 0.0;
            unsafe { boids_world_get_flow_cell_size(fx.w, &mut c) }
        }),
        ("boids_world_set_flow_budget", |fx| {
            boids_world_set_flow_budget(fx.w, 1_000)
        }),
        ("boids_world_get_flow_budget", |fx| {
            let mut u = 0;
            unsafe { boids_world_get_flow_budget(fx.w, &mut u) }
        }),
        ("boids_world_get_ground_height", |fx| {
            let mut h = 0.0;
            unsafe { boids_world_get_ground_height(fx.w, 0.0, 0.0, &mut h) }
        }),
        ("boids_flock_get_flow_grid", |fx| {
            let (mut o, mut c, mut x, mut z) = (v3(0.0, 0.0, 0.0), 0.0, 0, 0);
            unsafe { boids_flock_get_flow_grid(fx.f, &mut o, &mut c, &mut x, &mut z) }
        }),
        ("boids_flock_read_flow_distances", |fx| {
            let mut n = 0;
            unsafe { boids_flock_read_flow_distances(fx.f, null_mut(), 0, &mut n) }
        }),
        ("boids_flock_read_flow_directions", |fx| {
            let mut n = 0;
            unsafe { boids_flock_read_flow_directions(fx.f, null_mut(), 0, &mut n) }
        }),
        ("boids_world_set_relation", |fx| {
            boids_world_set_relation(fx.w, fx.big, fx.f, BOIDS_RELATION_CHASE, 2.0, 1.0)
        }),
        ("boids_flock_create", |fx| {
            let mut d = boids_default_flock_def();
            d.name = c"new".as_ptr();
            let mut out = BoidsFlockId::default();
            unsafe { boids_flock_create(fx.w, &d, &mut out) }
        }),
        ("boids_flock_create_preset", |fx| {
            let mut out = BoidsFlockId::default();
            unsafe {
                boids_flock_create_preset(fx.w, c"flock-2d".as_ptr(), c"p".as_ptr(), &mut out)
            }
        }),
        ("boids_flock_destroy", |fx| boids_flock_destroy(fx.f)),
        ("boids_flock_find", |fx| {
            let mut out = BoidsFlockId::default();
            unsafe { boids_flock_find(fx.w, c"big".as_ptr(), &mut out) }
        }),
        ("boids_flock_get_params", |fx| {
            let mut p = boids_default_flock_params();
            unsafe { boids_flock_get_params(fx.f, &mut p) }
        }),
        ("boids_flock_set_params", |fx| {
            let mut p = boids_default_flock_params();
            p.max_speed = 7.0;
            unsafe { boids_flock_set_params(fx.f, &p) }
        }),
        ("boids_flock_set_target", |fx| {
            boids_flock_set_target(fx.f, v3(1.0, 1.0, 1.0))
        }),
        ("boids_flock_set_bounds", |fx| {
            let b = boids_default_flock_params().bounds;
            unsafe { boids_flock_set_bounds(fx.f, &b) }
        }),
        ("boids_flock_set_wake_region", |fx| {
            let (lo, hi) = (v3(-1.0, -1.0, -1.0), v3(1.0, 1.0, 1.0));
            unsafe { boids_flock_set_wake_region(fx.f, &lo, &hi) }
        }),
        ("boids_flock_is_asleep", |fx| {
            let mut a = 0;
            unsafe { boids_flock_is_asleep(fx.f, &mut a) }
        }),
        ("boids_flock_spawn", |fx| {
            let s = boids_default_spawn_def();
            let mut first = 0;
            unsafe { boids_flock_spawn(fx.f, 5, &s, &mut first) }
        }),
        ("boids_flock_resize", |fx| {
            let s = boids_default_spawn_def();
            unsafe { boids_flock_resize(fx.f, 3, &s) }
        }),
        ("boids_flock_add_boids", |fx| {
            let (p, v) = ([v3(0.0, 0.0, 0.0)], [v3(1.0, 0.0, 0.0)]);
            let mut first = 0;
            unsafe { boids_flock_add_boids(fx.f, p.as_ptr(), v.as_ptr(), 1, &mut first) }
        }),
        ("boids_flock_remove_boids", |fx| {
            let ids = [0u32, 1];
            let mut n = 0;
            unsafe { boids_flock_remove_boids(fx.f, ids.as_ptr(), 2, &mut n) }
        }),
        ("boids_flock_write_positions", |fx| {
            let mut n = 0;
            unsafe { boids_flock_count(fx.f, &mut n) };
            let p = vec![v3(0.5, 0.5, 0.5); n];
            unsafe { boids_flock_write_positions(fx.f, p.as_ptr(), n) }
        }),
        ("boids_flock_write_velocities", |fx| {
            let mut n = 0;
            unsafe { boids_flock_count(fx.f, &mut n) };
            let v = vec![v3(1.0, 0.0, 0.0); n];
            unsafe { boids_flock_write_velocities(fx.f, v.as_ptr(), n) }
        }),
        ("boids_flock_set_path", |fx| {
            let pts = [v3(0.0, 0.0, 0.0), v3(5.0, 0.0, 0.0)];
            unsafe { boids_flock_set_path(fx.f, pts.as_ptr(), 2, 1) }
        }),
        ("boids_flock_set_leader", |fx| {
            boids_flock_set_leader(fx.f, 0, v3(0.0, 0.0, -1.0))
        }),
        ("boids_flock_clear_leader", |fx| {
            boids_flock_clear_leader(fx.f)
        }),
        ("boids_obstacle_add", |fx| {
            let d = BoidsObstacleDef {
                shape: BOIDS_OBSTACLE_SPHERE,
                a: v3(-3.0, 0.0, 0.0),
                b: BoidsVec3::default(),
                radius: 0.5,
                ..boids_default_obstacle_def()
            };
            let mut o = BoidsObstacleId::default();
            unsafe { boids_obstacle_add(fx.w, &d, &mut o) }
        }),
        ("boids_obstacle_set", |fx| {
            let d = BoidsObstacleDef {
                shape: BOIDS_OBSTACLE_SPHERE,
                a: v3(0.0, 3.0, 0.0),
                b: BoidsVec3::default(),
                radius: 2.0,
                ..boids_default_obstacle_def()
            };
            unsafe { boids_obstacle_set(fx.o, &d) }
        }),
        ("boids_obstacle_remove", |fx| boids_obstacle_remove(fx.o)),
        ("boids_mesh_create", |fx| {
            let v = [v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0), v3(0.0, 1.0, 0.0)];
            let mut m = BoidsMeshId::default();
            unsafe { boids_mesh_create(fx.w, v.as_ptr(), 3, [0u32, 1, 2].as_ptr(), 3, &mut m) }
        }),
        ("boids_heightfield_create", |fx| {
            let mut m = BoidsMeshId::default();
            unsafe { boids_heightfield_create(fx.w, [0.0f32; 4].as_ptr(), 2, 2, 1.0, 1.0, &mut m) }
        }),
        ("boids_mesh_destroy", |fx| boids_mesh_destroy(fx.m)),
    ]
}

#[test]
fn every_export_is_in_a_list() {
    let header = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../include/boids.h"
    ))
    .unwrap();
    let rows: Vec<&str> = refused_rows().iter().map(|r| r.0).collect();
    let mut exports: Vec<String> = header
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("boids_") && header.contains(&format!("{w}(")))
        .map(str::to_owned)
        .collect();
    exports.sort();
    exports.dedup();
    assert!(exports.len() >= 50, "{exports:?}");
    for e in &exports {
        let lists = [
            rows.contains(&e.as_str()),
            ALLOWED.contains(&e.as_str()),
            NO_WORLD.contains(&e.as_str()),
        ];
        assert_eq!(
            lists.iter().filter(|&&x| x).count(),
            1,
            "export {e}: in exactly one of refused_rows, ALLOWED, NO_WORLD"
        );
    }
}

/// Every boid read of a flock, as bytes, for comparison.
fn reads(f: BoidsFlockId) -> Vec<Vec<u8>> {
    fn bytes<T: Copy>(v: &[T]) -> Vec<u8> {
        // SAFETY: plain-old-data structs of f32/u32 with no padding, read as bytes.
        unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
            .to_vec()
    }
    let mut n = 0;
    assert_eq!(unsafe { boids_flock_count(f, &mut n) }, Ok, "{}", msg());
    let mut c = 0;
    let mut p = vec![BoidsVec3::default(); n];
    let mut v = vec![BoidsVec3::default(); n];
    let mut ids = vec![0u32; n];
    let mut q = vec![BoidsQuat::default(); n];
    let mut m = vec![BoidsMat4::default(); n];
    let mut t = vec![BoidsMat4::default(); n];
    let mut transform = BoidsMat4::default();
    for (k, x) in transform.m.iter_mut().enumerate() {
        *x = if k % 5 == 0 { 2.0 } else { 0.0 };
    }
    transform.m[12] = 4.0;
    unsafe {
        assert_eq!(boids_flock_read_positions(f, p.as_mut_ptr(), n, &mut c), Ok);
        assert_eq!(
            boids_flock_read_velocities(f, v.as_mut_ptr(), n, &mut c),
            Ok
        );
        assert_eq!(boids_flock_read_ids(f, ids.as_mut_ptr(), n, &mut c), Ok);
        assert_eq!(
            boids_flock_read_orientations(f, q.as_mut_ptr(), n, &mut c),
            Ok
        );
        assert_eq!(
            boids_flock_read_matrices(f, 0.5, m.as_mut_ptr(), n, &mut c),
            Ok
        );
        assert_eq!(
            boids_flock_read_matrices_transformed(f, &transform, 0.5, t.as_mut_ptr(), n, &mut c),
            Ok
        );
    }
    assert_eq!(c, n);
    vec![
        bytes(&[n]),
        bytes(&p),
        bytes(&v),
        bytes(&ids),
        bytes(&q),
        bytes(&m),
        bytes(&t),
    ]
}

#[test]
fn while_a_step_runs_the_reads_see_the_state_before_and_everything_else_is_busy() {
    let fx = fixture();
    let before_save = save(fx.w);
    let before = [reads(fx.f), reads(fx.big)];
    // What the world must be after one step, whatever was tried during it.
    let twin = load(&before_save, 1);
    assert_eq!(boids_world_step(twin, DT), Ok);

    assert_eq!(boids_world_step_begin(fx.w, DT), Ok, "{}", msg());
    let mut s = 0;
    assert_eq!(unsafe { boids_world_is_stepping(fx.w, &mut s) }, Ok);
    assert_eq!(s, 1);
    assert_eq!(boids_world_is_valid(fx.w), 1);
    assert_eq!(boids_flock_is_valid(fx.f), 1);
    assert_eq!(boids_flock_is_valid(fx.big), 1);
    assert_eq!(boids_mesh_is_valid(fx.m), 1);
    let mut name = [0 as std::ffi::c_char; 64];
    let mut len = 0;
    assert_eq!(
        unsafe { boids_flock_name(fx.big, name.as_mut_ptr(), name.len(), &mut len) },
        Ok,
        "{}",
        msg()
    );
    assert!(
        len > 0 && name[len] == 0,
        "the name, NUL-terminated, during a step"
    );
    assert_eq!(
        [reads(fx.f), reads(fx.big)],
        before,
        "reads during the step see the state before it"
    );
    for (name, call) in refused_rows() {
        assert_eq!(call(&fx), Busy, "{name} during a step: {}", msg());
        assert!(msg().contains("in flight"), "{name}: {}", msg());
    }
    // The reads still see the state before, after every refused call.
    assert_eq!([reads(fx.f), reads(fx.big)], before);
    assert_eq!(boids_world_step_end(fx.w), Ok, "{}", msg());
    assert_eq!(unsafe { boids_world_is_stepping(fx.w, &mut s) }, Ok);
    assert_eq!(s, 0);
    assert_eq!(
        save(fx.w),
        save(twin),
        "nothing refused changed anything: the world is one plain step on"
    );
    assert_ne!([reads(fx.f), reads(fx.big)], before, "the step happened");
    assert_eq!(boids_world_step_end(fx.w), BoidsResult::InvalidArgument);
    assert!(msg().contains("without step_begin"), "{}", msg());
    boids_world_destroy(twin);
    boids_world_destroy(fx.w);
}

#[test]
fn destroying_a_world_with_a_step_in_flight_cancels_or_waits_for_it() {
    for _ in 0..10 {
        let fx = fixture();
        assert_eq!(boids_world_step_begin(fx.w, DT), Ok);
        assert_eq!(boids_world_destroy(fx.w), Ok, "{}", msg());
        assert_eq!(boids_world_is_valid(fx.w), 0);
        assert_eq!(boids_world_step_end(fx.w), BoidsResult::InvalidId);
        let mut n = 0;
        assert_eq!(
            unsafe { boids_flock_count(fx.big, &mut n) },
            BoidsResult::InvalidId
        );
    }
}

#[test]
fn a_step_may_end_on_another_thread() {
    let fx = fixture();
    let twin = load(&save(fx.w), 1);
    for _ in 0..5 {
        assert_eq!(boids_world_step(twin, DT), Ok);
        assert_eq!(boids_world_step_begin(fx.w, DT), Ok);
        let w = fx.w;
        let r = std::thread::spawn(move || boids_world_step_end(w))
            .join()
            .unwrap();
        assert_eq!(r, Ok);
    }
    assert_eq!(hash(fx.w), hash(twin));
    boids_world_destroy(twin);
    boids_world_destroy(fx.w);
}

/// Readers on three threads read all the time while the main thread runs 200 frames of
/// begin / end: every `step_end` succeeds (it waits for the readers, never `BUSY`), every read
/// succeeds and sees a whole state (the one before a step, or after it: never a mix),
/// `is_stepping` always answers, and the world ends where `boids_world_step` takes it.
#[test]
fn step_end_waits_for_readers_on_other_threads_and_reads_run_together() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let w = world(2);
    let mut def = boids_default_flock_def();
    def.name = c"school".as_ptr();
    let mut f = BoidsFlockId::default();
    assert_eq!(unsafe { boids_flock_create(w, &def, &mut f) }, Ok);
    let mut first = 0;
    let spawn = boids_default_spawn_def();
    assert_eq!(
        unsafe { boids_flock_spawn(f, 3000, &spawn, &mut first) },
        Ok
    );
    let reference = load(&save(w), 1);
    let stop = Arc::new(AtomicBool::new(false));
    let reads = Arc::new(AtomicUsize::new(0));
    let overlapping = Arc::new(AtomicUsize::new(0));
    let most_at_once = Arc::new(AtomicUsize::new(0));
    let readers: Vec<_> = (0..3)
        .map(|_| {
            let (stop, reads) = (stop.clone(), reads.clone());
            let (overlapping, most) = (overlapping.clone(), most_at_once.clone());
            std::thread::spawn(move || {
                let mut pos = vec![BoidsVec3::default(); 3000];
                let mut ids = vec![0u32; 3000];
                while !stop.load(Ordering::Relaxed) {
                    let mut n = 0;
                    let now = overlapping.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    let r =
                        unsafe { boids_flock_read_positions(f, pos.as_mut_ptr(), 3000, &mut n) };
                    overlapping.fetch_sub(1, Ordering::SeqCst);
                    assert_eq!(r, Ok, "a read during a step: {}", msg());
                    assert_eq!(n, 3000);
                    let r = unsafe { boids_flock_read_ids(f, ids.as_mut_ptr(), 3000, &mut n) };
                    assert_eq!(r, Ok, "{}", msg());
                    assert!(ids.iter().enumerate().all(|(i, &id)| id == i as u32));
                    let mut s = 7;
                    assert_eq!(
                        unsafe { boids_world_is_stepping(w, &mut s) },
                        Ok,
                        "{}",
                        msg()
                    );
                    assert!(s == 0 || s == 1);
                    reads.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for frame in 0..200 {
        assert_eq!(
            boids_world_step_begin(w, DT),
            Ok,
            "frame {frame}: {}",
            msg()
        );
        std::thread::yield_now();
        assert_eq!(boids_world_step_end(w), Ok, "frame {frame}: {}", msg());
        assert_eq!(boids_world_step(reference, DT), Ok);
    }
    stop.store(true, Ordering::Relaxed);
    for r in readers {
        r.join().expect("a reader failed");
    }
    assert!(reads.load(Ordering::Relaxed) > 200, "the readers ran");
    assert_eq!(hash(w), hash(reference), "the readers changed nothing");
    boids_world_destroy(w);
    boids_world_destroy(reference);
}

/// Two threads end one step at once, 200 times: exactly one gets `OK`, the other waits for it
/// and gets `INVALID_ARGUMENT` (no step in flight any more); neither gets `BUSY`.
#[test]
fn two_step_ends_racing_one_wins_the_other_finds_no_step() {
    let w = world(2);
    let f = preset(w, c"fish-tank");
    let _ = f;
    for round in 0..200 {
        assert_eq!(boids_world_step_begin(w, DT), Ok);
        let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
        let b = barrier.clone();
        let other = std::thread::spawn(move || {
            b.wait();
            boids_world_step_end(w)
        });
        barrier.wait();
        let mine = boids_world_step_end(w);
        let theirs = other.join().unwrap();
        let mut got = [mine, theirs];
        got.sort_by_key(|r| *r as i32);
        assert_eq!(got, [Ok, BoidsResult::InvalidArgument], "round {round}");
        let mut s = 7;
        assert_eq!(unsafe { boids_world_is_stepping(w, &mut s) }, Ok);
        assert_eq!(s, 0, "round {round}: the step ended");
    }
    boids_world_destroy(w);
}

/// Calls that only read (the state hash, a save's size, a flock by name, its settings, the
/// positions) run together on several threads: none is `BUSY` because another thread reads.
/// Then a change made while they read (a step, on this thread) waits for them and is never
/// refused; a read that comes while a change runs or waits is `BUSY`, as documented.
#[test]
fn reads_that_change_nothing_run_together_and_a_change_waits_for_them() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let w = world(2);
    let f = preset(w, c"fish-tank");
    // 0: readers only; 1: this thread steps among them; 2: done.
    let phase = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let (ok, busy) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (inside, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let readers: Vec<_> = (0..3)
        .map(|k| {
            let (phase, stop) = (phase.clone(), stop.clone());
            let (ok, busy) = (ok.clone(), busy.clone());
            let (inside, most) = (inside.clone(), most.clone());
            std::thread::spawn(move || {
                let mut pos = vec![BoidsVec3::default(); 4096];
                let mut p = boids_default_flock_params();
                let mut found = BoidsFlockId::default();
                while !stop.load(Ordering::Relaxed) {
                    let (mut h, mut n) = (0, 0);
                    let before = phase.load(Ordering::SeqCst);
                    most.fetch_max(inside.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
                    let results = [
                        unsafe { boids_world_state_hash(w, &mut h) },
                        unsafe { boids_flock_find(w, c"fish-tank".as_ptr(), &mut found) },
                        unsafe { boids_flock_get_params(f, &mut p) },
                        unsafe { boids_world_save(w, null_mut(), 0, &mut n) },
                        unsafe { boids_flock_read_positions(f, pos.as_mut_ptr(), 4096, &mut n) },
                    ];
                    inside.fetch_sub(1, Ordering::SeqCst);
                    // A change may have run during these calls only if one did in phase 1.
                    let changing = before == 1 || (before == 0 && phase.load(Ordering::SeqCst) > 0);
                    for (i, r) in results.into_iter().enumerate() {
                        let want = if i == 3 {
                            BoidsResult::BufferTooSmall
                        } else {
                            Ok
                        };
                        if r == Busy && changing {
                            busy.fetch_add(1, Ordering::Relaxed);
                        } else {
                            assert_eq!(r, want, "reader {k}, call {i}: {}", msg());
                            ok.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }
            })
        })
        .collect();
    // Fails only when the readers stop making progress (a hang), not when a loaded machine
    // makes them slow.
    let wait_for = |count: &AtomicUsize, at_least: usize| {
        let mut seen = (count.load(Ordering::Relaxed), std::time::Instant::now());
        while seen.0 < at_least {
            std::thread::sleep(std::time::Duration::from_millis(1));
            let now = count.load(Ordering::Relaxed);
            if now != seen.0 {
                seen = (now, std::time::Instant::now());
            }
            assert!(
                seen.1.elapsed().as_secs() < 60,
                "the readers stopped at {now} reads"
            );
        }
    };
    // Readers only: all of them succeed, several at once.
    wait_for(&ok, 20_000);
    assert!(most.load(Ordering::SeqCst) >= 2, "reads ran together");
    // A change among the readers: it waits for them, never refused.
    phase.store(1, Ordering::SeqCst);
    for frame in 0..100 {
        assert_eq!(
            boids_world_step(w, DT),
            Ok,
            "step {frame} among readers: {}",
            msg()
        );
    }
    phase.store(2, Ordering::SeqCst);
    stop.store(true, Ordering::Relaxed);
    for r in readers {
        r.join().expect("a reader failed");
    }
    boids_world_destroy(w);
}
