//! The hostile-input matrix: one row per export of `include/boids.h`, each calling it the wrong
//! way in every way that applies — NULL for each pointer, stale, forged and destroyed ids,
//! NaN/Inf/negative/absurd numbers, dt <= 0, bad buffers, counts near the limits, and calls
//! while another thread steps the world — and asserting the documented result code and that the
//! world's state hash did not change. A test fails when an export has no row.
//!
//! One file on purpose (over ~600 lines): the matrix is one table, one row per export.
//!
//! SAFETY, for every `unsafe` block here: pointers are NULL on purpose or point to live locals
//! of the right type and length; strings are NUL-terminated.
#![expect(unsafe_code, reason = "calls the C ABI as C does")]

use boids_ffi::*;
use std::ffi::{CStr, c_char};
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use BoidsResult::{
    BufferTooSmall, Busy, InvalidArgument, InvalidDef, InvalidId, NotFound, NullPointer, Ok,
};

struct Fx {
    w: BoidsWorldId,
    f: BoidsFlockId,
    o: BoidsObstacleId,
    dead_w: BoidsWorldId,
    dead_f: BoidsFlockId,
    dead_o: BoidsObstacleId,
}

fn msg() -> String {
    unsafe { CStr::from_ptr(boids_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

fn hash(w: BoidsWorldId) -> u64 {
    let mut h = 0;
    assert_eq!(unsafe { boids_world_state_hash(w, &mut h) }, Ok);
    h
}

fn new_world(threads: u32) -> BoidsWorldId {
    let mut d = boids_default_world_def();
    d.threads = threads;
    let mut w = BoidsWorldId::default();
    assert_eq!(unsafe { boids_world_create(&d, &mut w) }, Ok);
    w
}

fn new_flock(w: BoidsWorldId, name: &CStr, n: u32) -> BoidsFlockId {
    let mut d = boids_default_flock_def();
    d.name = name.as_ptr();
    let mut f = BoidsFlockId::default();
    assert_eq!(
        unsafe { boids_flock_create(w, &d, &mut f) },
        Ok,
        "{}",
        msg()
    );
    let s = boids_default_spawn_def();
    let mut first = 0;
    assert_eq!(unsafe { boids_flock_spawn(f, n, &s, &mut first) }, Ok);
    f
}

fn sphere() -> BoidsObstacleDef {
    BoidsObstacleDef {
        shape: BOIDS_OBSTACLE_SPHERE,
        a: BoidsVec3 {
            x: 20.0,
            y: 0.0,
            z: 0.0,
        },
        b: BoidsVec3::default(),
        radius: 1.0,
        ..boids_default_obstacle_def()
    }
}

fn fixture() -> Fx {
    let w = new_world(1);
    let f = new_flock(w, c"f", 64);
    let mut o = BoidsObstacleId::default();
    assert_eq!(unsafe { boids_obstacle_add(w, &sphere(), &mut o) }, Ok);
    let g = new_flock(w, c"gone", 3);
    assert_eq!(boids_flock_destroy(g), Ok);
    let mut dead_o = BoidsObstacleId::default();
    assert_eq!(unsafe { boids_obstacle_add(w, &sphere(), &mut dead_o) }, Ok);
    assert_eq!(boids_obstacle_remove(dead_o), Ok);
    let dead_w = new_world(1);
    assert_eq!(boids_world_destroy(dead_w), Ok);
    Fx {
        w,
        f,
        o,
        dead_w,
        dead_f: g,
        dead_o,
    }
}

/// Runs `call`, expects `code`, and checks the world did not change.
fn refused(fx: &Fx, case: &str, code: BoidsResult, call: impl FnOnce() -> BoidsResult) {
    let before = hash(fx.w);
    let got = call();
    assert_eq!(got, code, "{case}: {}", msg());
    assert!(!msg().is_empty(), "{case}: a message");
    assert_eq!(hash(fx.w), before, "{case}: state changed");
}

/// Every kind of bad flock id.
fn bad_flocks(fx: &Fx) -> Vec<(&'static str, BoidsFlockId)> {
    vec![
        ("null flock", BoidsFlockId::default()),
        (
            "forged flock",
            BoidsFlockId {
                world: fx.w,
                index: 999,
                generation: 1,
            },
        ),
        (
            "wrong generation",
            BoidsFlockId {
                generation: fx.f.generation + 7,
                ..fx.f
            },
        ),
        ("destroyed flock", fx.dead_f),
        (
            "flock of a destroyed world",
            BoidsFlockId {
                world: fx.dead_w,
                ..fx.f
            },
        ),
    ]
}

fn bad_worlds(fx: &Fx) -> Vec<(&'static str, BoidsWorldId)> {
    vec![
        ("null world", BoidsWorldId::default()),
        (
            "forged world",
            BoidsWorldId {
                index: 60_000,
                generation: 1,
            },
        ),
        (
            "wrong generation",
            BoidsWorldId {
                generation: fx.w.generation + 9,
                ..fx.w
            },
        ),
        ("destroyed world", fx.dead_w),
    ]
}

fn bad_obstacles(fx: &Fx) -> Vec<(&'static str, BoidsObstacleId)> {
    vec![
        ("null obstacle", BoidsObstacleId::default()),
        (
            "forged obstacle",
            BoidsObstacleId {
                world: fx.w,
                index: 77,
                generation: 1,
            },
        ),
        ("removed obstacle", fx.dead_o),
        (
            "obstacle of a destroyed world",
            BoidsObstacleId {
                world: fx.dead_w,
                ..fx.o
            },
        ),
    ]
}

/// Flock ids: every bad one gives INVALID_ID, the world unchanged.
fn flock_ids(fx: &Fx, mut call: impl FnMut(BoidsFlockId) -> BoidsResult) {
    for (case, id) in bad_flocks(fx) {
        refused(fx, case, InvalidId, || call(id));
    }
}

fn world_ids(fx: &Fx, mut call: impl FnMut(BoidsWorldId) -> BoidsResult) {
    for (case, id) in bad_worlds(fx) {
        refused(fx, case, InvalidId, || call(id));
    }
}

/// A world stepping in another thread for the whole test binary: calls on it must get BUSY.
struct BusyWorld {
    w: BoidsWorldId,
    f: BoidsFlockId,
    o: BoidsObstacleId,
}

fn busy_world() -> &'static BusyWorld {
    static B: OnceLock<BusyWorld> = OnceLock::new();
    B.get_or_init(|| {
        let w = new_world(1);
        let f = new_flock(w, c"heavy", 150_000);
        let mut o = BoidsObstacleId::default();
        assert_eq!(unsafe { boids_obstacle_add(w, &sphere(), &mut o) }, Ok);
        let started = Arc::new(AtomicBool::new(false));
        let s = started.clone();
        std::thread::spawn(move || {
            loop {
                s.store(true, Ordering::SeqCst);
                let _ = boids_world_step(w, 0.001);
            }
        });
        while !started.load(Ordering::SeqCst) {
            std::thread::yield_now();
        }
        BusyWorld { w, f, o }
    })
}

/// While the world steps in another thread, `call` is refused with BUSY (retried: the stepping
/// thread briefly releases the world between steps).
fn busy(case: &str, mut call: impl FnMut(&BusyWorld) -> BoidsResult) {
    let b = busy_world();
    for _ in 0..10_000 {
        let mut h = 0;
        if unsafe { boids_world_state_hash(b.w, &mut h) } != Busy {
            std::thread::yield_now();
            continue;
        }
        if call(b) == Busy {
            assert!(msg().contains("another thread"), "{case}: {}", msg());
            return;
        }
    }
    panic!("{case}: never refused with BUSY while the world was stepping");
}

/// A host job system that runs every task at once, on the calling thread.
unsafe extern "C" fn inline_enqueue(
    task: BoidsTaskFn,
    items: u32,
    _min: u32,
    task_context: *mut std::ffi::c_void,
    _user: *mut std::ffi::c_void,
) -> *mut std::ffi::c_void {
    unsafe { task(0, items, task_context) };
    null_mut()
}

/// Never called: `inline_enqueue` returns no handle.
unsafe extern "C" fn no_finish(_task: *mut std::ffi::c_void, _user: *mut std::ffi::c_void) {
    unreachable!("no handle was given out")
}

fn cstr(s: &str) -> Vec<u8> {
    let mut v = s.as_bytes().to_vec();
    v.push(0);
    v
}

type Row = (&'static str, fn(&Fx));

fn v3(x: f32, y: f32, z: f32) -> BoidsVec3 {
    BoidsVec3 { x, y, z }
}

fn matrix() -> Vec<Row> {
    vec![
        ("boids_version", |_| {
            let v = unsafe { CStr::from_ptr(boids_version()) };
            assert!(!v.to_bytes().is_empty());
        }),
        ("boids_abi_version", |_| {
            assert_eq!(boids_abi_version(), BOIDS_ABI_VERSION)
        }),
        ("boids_struct_size", |_| {
            for k in [-1, 13, i32::MAX, i32::MIN] {
                assert_eq!(boids_struct_size(k), 0, "unknown kind {k}");
            }
            for k in 0..13 {
                assert!(boids_struct_size(k) > 0);
            }
        }),
        ("boids_result_str", |_| {
            for code in [-1, 9, 1000, i32::MIN, i32::MAX] {
                assert_eq!(
                    unsafe { CStr::from_ptr(boids_result_str(code)) }
                        .to_str()
                        .unwrap(),
                    "unknown result code"
                );
            }
            for code in 0..=8 {
                assert!(
                    unsafe { CStr::from_ptr(boids_result_str(code)) }
                        .to_str()
                        .unwrap()
                        .starts_with("BOIDS_RESULT_")
                );
            }
        }),
        ("boids_last_error_message", |fx| {
            assert_eq!(boids_world_step(fx.w, f32::NAN), InvalidArgument);
            assert!(msg().contains("NaN"), "{}", msg());
            assert!(!boids_last_error_message().is_null());
        }),
        ("boids_default_world_def", |_| {
            assert_ne!(boids_default_world_def().internal_cookie, 0)
        }),
        ("boids_default_flock_params", |_| {
            assert_eq!(boids_default_flock_params().perception_radius, 1.0)
        }),
        ("boids_default_flock_def", |_| {
            assert!(boids_default_flock_def().name.is_null())
        }),
        ("boids_default_spawn_def", |_| {
            assert_ne!(boids_default_spawn_def().internal_cookie, 0)
        }),
        ("boids_default_obstacle_def", |fx| {
            let d = boids_default_obstacle_def();
            assert_ne!(d.internal_cookie, 0);
            // Not from the default function: refused as such, whatever else it holds.
            let mut o = BoidsObstacleId::default();
            refused(fx, "a def without the cookie", InvalidDef, || unsafe {
                boids_obstacle_add(
                    fx.w,
                    &BoidsObstacleDef {
                        internal_cookie: 0,
                        ..d
                    },
                    &mut o,
                )
            });
        }),
        ("boids_world_create", |fx| {
            let mut out = BoidsWorldId::default();
            let good = boids_default_world_def();
            refused(fx, "NULL def", NullPointer, || unsafe {
                boids_world_create(null(), &mut out)
            });
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_world_create(&good, null_mut())
            });
            let zeroed = BoidsWorldDef {
                seed: 0,
                threads: 0,
                internal_cookie: 0,
                worker_count: 0,
                enqueue_task: None,
                finish_task: None,
                user_context: null_mut(),
            };
            refused(fx, "zeroed def", InvalidDef, || unsafe {
                boids_world_create(&zeroed, &mut out)
            });
            for threads in [1025, u32::MAX] {
                let d = BoidsWorldDef { threads, ..good };
                refused(fx, "absurd threads", InvalidArgument, || unsafe {
                    boids_world_create(&d, &mut out)
                });
            }
            // The host's task interface: both functions or neither, a worker count only with
            // them (1..=1024), and no engine pool beside them.
            let host = BoidsWorldDef {
                enqueue_task: Some(inline_enqueue),
                finish_task: Some(no_finish),
                worker_count: 2,
                ..good
            };
            for (case, d, says) in [
                (
                    "enqueue without finish",
                    BoidsWorldDef {
                        finish_task: None,
                        ..host
                    },
                    "set together",
                ),
                (
                    "finish without enqueue",
                    BoidsWorldDef {
                        enqueue_task: None,
                        ..host
                    },
                    "set together",
                ),
                (
                    "no workers",
                    BoidsWorldDef {
                        worker_count: 0,
                        ..host
                    },
                    "worker_count must be 1..=1024",
                ),
                (
                    "absurd workers",
                    BoidsWorldDef {
                        worker_count: 1025,
                        ..host
                    },
                    "worker_count must be 1..=1024",
                ),
                (
                    "threads beside the host",
                    BoidsWorldDef { threads: 2, ..host },
                    "threads must be 0",
                ),
                (
                    "workers without the host",
                    BoidsWorldDef {
                        worker_count: 3,
                        ..good
                    },
                    "enqueue_task and finish_task are NULL",
                ),
            ] {
                refused(fx, case, InvalidArgument, || unsafe {
                    boids_world_create(&d, &mut out)
                });
                assert!(msg().contains(says), "{case}: {}", msg());
            }
            assert_eq!(out, BoidsWorldId::default(), "out untouched");
        }),
        ("boids_world_destroy", |fx| {
            world_ids(fx, |w| boids_world_destroy(w));
            busy("destroy", |b| boids_world_destroy(b.w));
        }),
        ("boids_world_is_valid", |fx| {
            for (case, id) in bad_worlds(fx) {
                assert_eq!(boids_world_is_valid(id), 0, "{case}");
            }
            assert_eq!(boids_world_is_valid(fx.w), 1);
        }),
        ("boids_world_step", |fx| {
            world_ids(fx, |w| boids_world_step(w, 0.016));
            for dt in [
                0.0,
                -0.0,
                -1.0,
                f32::NAN,
                f32::INFINITY,
                f32::NEG_INFINITY,
                1.0001,
                f32::MAX,
                -f32::MIN_POSITIVE,
            ] {
                refused(fx, &format!("dt {dt}"), InvalidArgument, || {
                    boids_world_step(fx.w, dt)
                });
            }
            busy("step", |b| boids_world_step(b.w, 0.016));
        }),
        ("boids_world_step_begin", |fx| {
            world_ids(fx, |w| boids_world_step_begin(w, 0.016));
            for dt in [0.0, -1.0, f32::NAN, f32::INFINITY, 1.0001] {
                refused(fx, &format!("dt {dt}"), InvalidArgument, || {
                    boids_world_step_begin(fx.w, dt)
                });
                let mut s = 7;
                assert_eq!(unsafe { boids_world_is_stepping(fx.w, &mut s) }, Ok);
                assert_eq!(s, 0, "a refused begin starts nothing");
            }
            busy("step_begin", |b| boids_world_step_begin(b.w, 0.016));
            // A second begin while one is in flight: BUSY, and the first still ends well.
            let before = hash(fx.w);
            assert_eq!(boids_world_step_begin(fx.w, 0.016), Ok);
            assert_eq!(boids_world_step_begin(fx.w, 0.016), Busy);
            assert!(msg().contains("in flight"), "{}", msg());
            assert_eq!(boids_world_step_end(fx.w), Ok);
            assert_ne!(hash(fx.w), before, "one step happened");
        }),
        ("boids_world_step_end", |fx| {
            world_ids(fx, |w| boids_world_step_end(w));
            refused(fx, "no step in flight", InvalidArgument, || {
                boids_world_step_end(fx.w)
            });
            assert!(msg().contains("step_end without step_begin"), "{}", msg());
            // Never BUSY because of another thread: a world another thread is stepping
            // synchronously has no step in flight.
            let b = busy_world();
            for _ in 0..200 {
                assert_eq!(boids_world_step_end(b.w), InvalidArgument, "{}", msg());
            }
        }),
        ("boids_world_is_stepping", |fx| {
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_world_is_stepping(fx.w, null_mut())
            });
            let mut s = 0;
            world_ids(fx, |w| unsafe { boids_world_is_stepping(w, &mut s) });
            // Answers whatever another thread is doing.
            let b = busy_world();
            for _ in 0..200 {
                s = 7;
                assert_eq!(unsafe { boids_world_is_stepping(b.w, &mut s) }, Ok);
                assert_eq!(s, 0);
            }
        }),
        ("boids_world_state_hash", |fx| {
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_world_state_hash(fx.w, null_mut())
            });
            let mut h = 0;
            world_ids(fx, |w| unsafe { boids_world_state_hash(w, &mut h) });
            busy("hash", |b| unsafe { boids_world_state_hash(b.w, &mut h) });
        }),
        ("boids_world_rounded_digest", |fx| {
            let mut d = 0u64;
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_world_rounded_digest(fx.w, 6, null_mut())
            });
            for digits in [0, 10, u32::MAX] {
                refused(fx, "digits out of range", InvalidArgument, || unsafe {
                    boids_world_rounded_digest(fx.w, digits, &mut d)
                });
            }
            assert_eq!(unsafe { boids_world_rounded_digest(fx.w, 6, &mut d) }, Ok);
            world_ids(fx, |w| unsafe { boids_world_rounded_digest(w, 6, &mut d) });
            busy("digest", |b| unsafe {
                boids_world_rounded_digest(b.w, 6, &mut d)
            });
        }),
        ("boids_world_save", |fx| {
            let mut n = 0usize;
            let mut buf = vec![0u8; 64];
            refused(fx, "NULL len", NullPointer, || unsafe {
                boids_world_save(fx.w, buf.as_mut_ptr(), buf.len(), null_mut())
            });
            refused(fx, "NULL buffer", NullPointer, || unsafe {
                boids_world_save(fx.w, null_mut(), 8, &mut n)
            });
            refused(fx, "size query", BufferTooSmall, || unsafe {
                boids_world_save(fx.w, null_mut(), 0, &mut n)
            });
            let needed = n;
            assert!(needed > 64);
            refused(fx, "too small", BufferTooSmall, || unsafe {
                boids_world_save(fx.w, buf.as_mut_ptr(), buf.len(), &mut n)
            });
            assert!(buf.iter().all(|&b| b == 0), "buffer untouched");
            buf.resize(needed, 0);
            assert_eq!(
                unsafe { boids_world_save(fx.w, buf.as_mut_ptr(), buf.len(), &mut n) },
                Ok
            );
            assert_eq!(n, needed);
            world_ids(fx, |w| unsafe {
                boids_world_save(w, buf.as_mut_ptr(), buf.len(), &mut n)
            });
            busy("save", |b| unsafe {
                boids_world_save(b.w, buf.as_mut_ptr(), buf.len(), &mut n)
            });
        }),
        ("boids_world_load", |fx| {
            let mut n = 0usize;
            unsafe { boids_world_save(fx.w, null_mut(), 0, &mut n) };
            let mut good = vec![0u8; n];
            assert_eq!(
                unsafe { boids_world_save(fx.w, good.as_mut_ptr(), n, &mut n) },
                Ok
            );
            let def = boids_default_world_def();
            let mut out = BoidsWorldId::default();
            refused(fx, "NULL def", NullPointer, || unsafe {
                boids_world_load(null(), good.as_ptr(), good.len(), &mut out)
            });
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_world_load(&def, good.as_ptr(), good.len(), null_mut())
            });
            refused(fx, "NULL bytes", NullPointer, || unsafe {
                boids_world_load(&def, null(), good.len(), &mut out)
            });
            let zeroed = BoidsWorldDef {
                seed: 0,
                threads: 0,
                internal_cookie: 0,
                worker_count: 0,
                enqueue_task: None,
                finish_task: None,
                user_context: null_mut(),
            };
            refused(fx, "zeroed def", InvalidDef, || unsafe {
                boids_world_load(&zeroed, good.as_ptr(), good.len(), &mut out)
            });
            let mut flipped = good.clone();
            let mid = flipped.len() / 2;
            flipped[mid] ^= 4;
            let mut newer = good.clone();
            newer[8] = 9;
            for (case, bytes) in [
                ("empty", &good[..0]),
                ("truncated", &good[..good.len() - 1]),
                ("header only", &good[..28]),
                ("corrupt", &flipped[..]),
                ("newer version", &newer[..]),
                ("not a save", &b"{\"flocks\": []} and more text"[..]),
            ] {
                refused(fx, case, InvalidArgument, || unsafe {
                    boids_world_load(&def, bytes.as_ptr(), bytes.len(), &mut out)
                });
            }
            assert_eq!(out, BoidsWorldId::default(), "out untouched");
            assert_eq!(
                unsafe { boids_world_load(&def, good.as_ptr(), good.len(), &mut out) },
                Ok
            );
            assert_eq!(hash(out), hash(fx.w), "the loaded world is the saved one");
            assert_eq!(boids_world_destroy(out), Ok);
        }),
        ("boids_world_list_flocks", |fx| {
            let mut n = 0usize;
            let mut ids = [BoidsFlockId::default(); 8];
            refused(fx, "NULL count", NullPointer, || unsafe {
                boids_world_list_flocks(fx.w, ids.as_mut_ptr(), 8, null_mut())
            });
            refused(fx, "NULL buffer", NullPointer, || unsafe {
                boids_world_list_flocks(fx.w, null_mut(), 8, &mut n)
            });
            refused(fx, "size query", BufferTooSmall, || unsafe {
                boids_world_list_flocks(fx.w, null_mut(), 0, &mut n)
            });
            assert_eq!(n, 1, "one live flock");
            assert_eq!(
                unsafe { boids_world_list_flocks(fx.w, ids.as_mut_ptr(), 8, &mut n) },
                Ok
            );
            assert_eq!(ids[0], fx.f);
            world_ids(fx, |w| unsafe {
                boids_world_list_flocks(w, ids.as_mut_ptr(), 8, &mut n)
            });
            busy("list", |b| unsafe {
                boids_world_list_flocks(b.w, ids.as_mut_ptr(), 8, &mut n)
            });
        }),
        ("boids_world_read_scene_triangles", |fx| {
            // The fixture's sphere has no faces: nothing, and OK with no buffer.
            let mut n = 7usize;
            assert_eq!(
                unsafe { boids_world_read_scene_triangles(fx.w, null_mut(), 0, &mut n) },
                Ok
            );
            assert_eq!(n, 0, "a sphere has no faces");
            // A world with a 3 x 3 heightfield (8 triangles) and a box (12): 60 points.
            let w = new_world(1);
            let heights = [0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
            let mut field = BoidsMeshId::default();
            let mut o = BoidsObstacleId::default();
            let at = BoidsVec3 {
                x: 10.0,
                y: -2.0,
                z: 4.0,
            };
            unsafe {
                assert_eq!(
                    boids_heightfield_create(w, heights.as_ptr(), 3, 3, 0.5, 0.25, &mut field),
                    Ok
                );
                let d = BoidsObstacleDef {
                    shape: BOIDS_OBSTACLE_HEIGHTFIELD,
                    a: at,
                    mesh: field,
                    ..boids_default_obstacle_def()
                };
                assert_eq!(boids_obstacle_add(w, &d, &mut o), Ok);
                let b = BoidsObstacleDef {
                    shape: BOIDS_OBSTACLE_BOX,
                    a: v3(-1.0, -2.0, -3.0),
                    b: v3(1.0, 2.0, 3.0),
                    ..boids_default_obstacle_def()
                };
                assert_eq!(boids_obstacle_add(w, &b, &mut o), Ok);
            }
            let sized = Fx { w, ..*fx };
            let nan = v3(f32::NAN, f32::NAN, f32::NAN);
            let mut out = vec![nan; 60];
            refused(&sized, "size query", BufferTooSmall, || unsafe {
                boids_world_read_scene_triangles(w, null_mut(), 0, &mut n)
            });
            assert_eq!(
                n, 60,
                "8 heightfield triangles and a box's 12, three points each"
            );
            refused(&sized, "one point short", BufferTooSmall, || unsafe {
                boids_world_read_scene_triangles(w, out.as_mut_ptr(), 59, &mut n)
            });
            assert_eq!(n, 60);
            assert!(
                out.iter().all(|p| p.x.is_nan()),
                "nothing written when too small"
            );
            refused(&sized, "NULL count", NullPointer, || unsafe {
                boids_world_read_scene_triangles(w, out.as_mut_ptr(), 60, null_mut())
            });
            refused(&sized, "NULL buffer", NullPointer, || unsafe {
                boids_world_read_scene_triangles(w, null_mut(), 60, &mut n)
            });
            assert_eq!(
                unsafe { boids_world_read_scene_triangles(w, out.as_mut_ptr(), 60, &mut n) },
                Ok
            );
            assert_eq!(n, 60);
            // Cell (0, 0)'s lower triangle: samples 00, 10, 11, placed at `at`.
            let sample = |i: usize, j: usize| {
                v3(
                    at.x + i as f32 * 0.5,
                    at.y + heights[j * 3 + i],
                    at.z + j as f32 * 0.25,
                )
            };
            for (k, want) in [sample(0, 0), sample(1, 0), sample(1, 1)]
                .iter()
                .enumerate()
            {
                assert_eq!((out[k].x, out[k].y, out[k].z), (want.x, want.y, want.z));
            }
            // Cell (1, 1)'s upper triangle, the field's last: samples 11, 22, 12.
            for (k, want) in [sample(1, 1), sample(2, 2), sample(1, 2)]
                .iter()
                .enumerate()
            {
                let p = out[21 + k];
                assert_eq!((p.x, p.y, p.z), (want.x, want.y, want.z));
            }
            // The box's 36 points are its corners, each face wound outward.
            for t in out[24..].chunks(3) {
                let p: Vec<[f32; 3]> = t.iter().map(|p| [p.x, p.y, p.z]).collect();
                for q in &p {
                    assert!(q[0].abs() == 1.0 && q[1].abs() == 2.0 && q[2].abs() == 3.0);
                }
                let e1 = [p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]];
                let e2 = [p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]];
                let n = [
                    e1[1] * e2[2] - e1[2] * e2[1],
                    e1[2] * e2[0] - e1[0] * e2[2],
                    e1[0] * e2[1] - e1[1] * e2[0],
                ];
                let c = [
                    (p[0][0] + p[1][0] + p[2][0]) / 3.0,
                    (p[0][1] + p[1][1] + p[2][1]) / 3.0,
                    (p[0][2] + p[1][2] + p[2][2]) / 3.0,
                ];
                assert!(
                    n[0] * c[0] + n[1] * c[1] + n[2] * c[2] > 0.0,
                    "outward: {p:?}"
                );
            }
            world_ids(&sized, |id| unsafe {
                boids_world_read_scene_triangles(id, out.as_mut_ptr(), 60, &mut n)
            });
            assert_eq!(boids_world_destroy(w), Ok);
            busy("scene triangles", |b| unsafe {
                boids_world_read_scene_triangles(b.w, out.as_mut_ptr(), 60, &mut n)
            });
        }),
        ("boids_world_set_observer", |fx| {
            for p in [v3(f32::NAN, 0.0, 0.0), v3(0.0, f32::INFINITY, 0.0)] {
                refused(fx, "non-finite observer", InvalidArgument, || unsafe {
                    boids_world_set_observer(fx.w, &p)
                });
            }
            let p = v3(0.0, 0.0, 0.0);
            world_ids(fx, |w| unsafe { boids_world_set_observer(w, &p) });
            busy("observer", |b| unsafe { boids_world_set_observer(b.w, &p) });
        }),
        ("boids_flock_create", |fx| {
            let mut out = BoidsFlockId::default();
            let name = c"new";
            let mut d = boids_default_flock_def();
            d.name = name.as_ptr();
            refused(fx, "NULL def", NullPointer, || unsafe {
                boids_flock_create(fx.w, null(), &mut out)
            });
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_flock_create(fx.w, &d, null_mut())
            });
            let mut no_name = d;
            no_name.name = null();
            refused(fx, "NULL name", NullPointer, || unsafe {
                boids_flock_create(fx.w, &no_name, &mut out)
            });
            let long = cstr(&"n".repeat(256));
            let bad_utf8 = [0xc3u8, 0x28, 0];
            for (case, n) in [
                ("empty name", c"".as_ptr()),
                ("long name", long.as_ptr().cast::<c_char>()),
                ("invalid UTF-8", bad_utf8.as_ptr().cast()),
                ("duplicate", c"f".as_ptr()),
            ] {
                let dd = BoidsFlockDef { name: n, ..d };
                refused(fx, case, InvalidArgument, || unsafe {
                    boids_flock_create(fx.w, &dd, &mut out)
                });
            }
            let forged = BoidsFlockDef {
                internal_cookie: 0,
                ..d
            };
            refused(fx, "forged def", InvalidDef, || unsafe {
                boids_flock_create(fx.w, &forged, &mut out)
            });
            for (case, edit) in bad_params() {
                let mut dd = d;
                edit(&mut dd.params);
                refused(fx, case, InvalidArgument, || unsafe {
                    boids_flock_create(fx.w, &dd, &mut out)
                });
            }
            world_ids(fx, |w| unsafe { boids_flock_create(w, &d, &mut out) });
            busy("flock create", |b| unsafe {
                boids_flock_create(b.w, &d, &mut out)
            });
            assert_eq!(out, BoidsFlockId::default());
        }),
        ("boids_flock_create_preset", |fx| {
            let mut out = BoidsFlockId::default();
            let (p, n) = (c"fish-tank".as_ptr(), c"tank2".as_ptr());
            refused(fx, "NULL preset", NullPointer, || unsafe {
                boids_flock_create_preset(fx.w, null(), n, &mut out)
            });
            refused(fx, "NULL name", NullPointer, || unsafe {
                boids_flock_create_preset(fx.w, p, null(), &mut out)
            });
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_flock_create_preset(fx.w, p, n, null_mut())
            });
            refused(fx, "unknown preset", NotFound, || unsafe {
                boids_flock_create_preset(fx.w, c"dragons".as_ptr(), n, &mut out)
            });
            refused(fx, "duplicate name", InvalidArgument, || unsafe {
                boids_flock_create_preset(fx.w, p, c"f".as_ptr(), &mut out)
            });
            world_ids(fx, |w| unsafe {
                boids_flock_create_preset(w, p, n, &mut out)
            });
            busy("preset", |b| unsafe {
                boids_flock_create_preset(b.w, p, n, &mut out)
            });
        }),
        ("boids_flock_destroy", |fx| {
            flock_ids(fx, |f| boids_flock_destroy(f));
            busy("flock destroy", |b| boids_flock_destroy(b.f));
        }),
        ("boids_flock_is_valid", |fx| {
            for (case, id) in bad_flocks(fx) {
                assert_eq!(boids_flock_is_valid(id), 0, "{case}");
            }
            assert_eq!(boids_flock_is_valid(fx.f), 1);
        }),
        ("boids_flock_find", |fx| {
            let mut out = BoidsFlockId::default();
            refused(fx, "NULL name", NullPointer, || unsafe {
                boids_flock_find(fx.w, null(), &mut out)
            });
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_flock_find(fx.w, c"f".as_ptr(), null_mut())
            });
            refused(fx, "not found", NotFound, || unsafe {
                boids_flock_find(fx.w, c"gone".as_ptr(), &mut out)
            });
            world_ids(fx, |w| unsafe {
                boids_flock_find(w, c"f".as_ptr(), &mut out)
            });
            busy("find", |b| unsafe {
                boids_flock_find(b.w, c"heavy".as_ptr(), &mut out)
            });
        }),
        ("boids_flock_get_params", |fx| {
            let mut p = boids_default_flock_params();
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_flock_get_params(fx.f, null_mut())
            });
            flock_ids(fx, |f| unsafe { boids_flock_get_params(f, &mut p) });
            busy("get params", |b| unsafe {
                boids_flock_get_params(b.f, &mut p)
            });
        }),
        ("boids_flock_set_params", |fx| {
            refused(fx, "NULL params", NullPointer, || unsafe {
                boids_flock_set_params(fx.f, null())
            });
            let mut before = boids_default_flock_params();
            assert_eq!(unsafe { boids_flock_get_params(fx.f, &mut before) }, Ok);
            for (case, edit) in bad_params() {
                let mut p = before;
                edit(&mut p);
                refused(fx, case, InvalidArgument, || unsafe {
                    boids_flock_set_params(fx.f, &p)
                });
            }
            let mut after = boids_default_flock_params();
            assert_eq!(unsafe { boids_flock_get_params(fx.f, &mut after) }, Ok);
            assert_eq!(
                format!("{after:?}"),
                format!("{before:?}"),
                "params unchanged (NaN too)"
            );
            flock_ids(fx, |f| unsafe { boids_flock_set_params(f, &before) });
            busy("set params", |b| unsafe {
                boids_flock_set_params(b.f, &before)
            });
        }),
        ("boids_flock_set_target", |fx| {
            refused(fx, "no target settings", InvalidArgument, || {
                boids_flock_set_target(fx.f, v3(1.0, 2.0, 3.0))
            });
            flock_ids(fx, |f| boids_flock_set_target(f, v3(0.0, 0.0, 0.0)));
            busy("target", |b| boids_flock_set_target(b.f, v3(0.0, 0.0, 0.0)));
        }),
        ("boids_flock_set_bounds", |fx| {
            let good = boids_default_flock_params().bounds;
            refused(fx, "NULL bounds", NullPointer, || unsafe {
                boids_flock_set_bounds(fx.f, null())
            });
            let cases = [
                ("kind 99", BoidsBounds { kind: 99, ..good }),
                ("kind -1", BoidsBounds { kind: -1, ..good }),
                (
                    "NaN min",
                    BoidsBounds {
                        min: v3(f32::NAN, 0.0, 0.0),
                        ..good
                    },
                ),
                (
                    "min above max",
                    BoidsBounds {
                        min: v3(9.0, 9.0, 9.0),
                        max: v3(1.0, 1.0, 1.0),
                        ..good
                    },
                ),
                (
                    "negative distance",
                    BoidsBounds {
                        distance: -1.0,
                        ..good
                    },
                ),
                (
                    "absurd size",
                    BoidsBounds {
                        max: v3(1e30, 1e30, 1e30),
                        ..good
                    },
                ),
                (
                    "sphere radius 0",
                    BoidsBounds {
                        kind: BOIDS_BOUNDS_SOFT_SPHERE,
                        radius: 0.0,
                        ..good
                    },
                ),
                (
                    "sphere inner 2",
                    BoidsBounds {
                        kind: BOIDS_BOUNDS_SOFT_SPHERE,
                        radius: 5.0,
                        inner: 2.0,
                        ..good
                    },
                ),
            ];
            for (case, b) in cases {
                refused(fx, case, InvalidArgument, || unsafe {
                    boids_flock_set_bounds(fx.f, &b)
                });
            }
            flock_ids(fx, |f| unsafe { boids_flock_set_bounds(f, &good) });
            busy("bounds", |b| unsafe { boids_flock_set_bounds(b.f, &good) });
        }),
        ("boids_flock_set_wake_region", |fx| {
            let (lo, hi) = (v3(-1.0, -1.0, -1.0), v3(1.0, 1.0, 1.0));
            refused(fx, "NULL max", NullPointer, || unsafe {
                boids_flock_set_wake_region(fx.f, &lo, null())
            });
            refused(fx, "NULL min", NullPointer, || unsafe {
                boids_flock_set_wake_region(fx.f, null(), &hi)
            });
            refused(fx, "min above max", InvalidArgument, || unsafe {
                boids_flock_set_wake_region(fx.f, &hi, &lo)
            });
            let nan = v3(f32::NAN, 0.0, 0.0);
            refused(fx, "NaN", InvalidArgument, || unsafe {
                boids_flock_set_wake_region(fx.f, &nan, &hi)
            });
            flock_ids(fx, |f| unsafe { boids_flock_set_wake_region(f, &lo, &hi) });
            busy("wake", |b| unsafe {
                boids_flock_set_wake_region(b.f, &lo, &hi)
            });
        }),
        ("boids_flock_is_asleep", |fx| {
            let mut a = 0;
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_flock_is_asleep(fx.f, null_mut())
            });
            flock_ids(fx, |f| unsafe { boids_flock_is_asleep(f, &mut a) });
            busy("asleep", |b| unsafe { boids_flock_is_asleep(b.f, &mut a) });
        }),
        ("boids_flock_name", |fx| {
            let mut len = 0usize;
            let mut buf = [0 as std::ffi::c_char; 1];
            refused(fx, "NULL out_len", NullPointer, || unsafe {
                boids_flock_name(fx.f, buf.as_mut_ptr(), buf.len(), null_mut())
            });
            refused(fx, "NULL out with a capacity", NullPointer, || unsafe {
                boids_flock_name(fx.f, null_mut(), 8, &mut len)
            });
            // The fixture's flock is "f": a byte and its NUL do not fit in one.
            refused(fx, "buffer one byte short", BufferTooSmall, || unsafe {
                boids_flock_name(fx.f, buf.as_mut_ptr(), buf.len(), &mut len)
            });
            assert_eq!(len, 1, "the length needed comes with BUFFER_TOO_SMALL");
            assert_eq!(buf, [0; 1], "nothing written to a buffer too small");
            flock_ids(fx, |f| unsafe {
                boids_flock_name(f, buf.as_mut_ptr(), buf.len(), &mut len)
            });
            busy("name", |b| unsafe {
                boids_flock_name(b.f, buf.as_mut_ptr(), buf.len(), &mut len)
            });
        }),
        ("boids_flock_spawn", |fx| {
            let s = boids_default_spawn_def();
            let mut first = 0;
            refused(fx, "NULL spawn", NullPointer, || unsafe {
                boids_flock_spawn(fx.f, 1, null(), &mut first)
            });
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_flock_spawn(fx.f, 1, &s, null_mut())
            });
            refused(fx, "forged def", InvalidDef, || unsafe {
                boids_flock_spawn(
                    fx.f,
                    1,
                    &BoidsSpawnDef {
                        internal_cookie: 1,
                        ..s
                    },
                    &mut first,
                )
            });
            for count in [u32::MAX, u32::MAX - 1, (1 << 24) + 1] {
                refused(fx, "huge count", InvalidArgument, || unsafe {
                    boids_flock_spawn(fx.f, count, &s, &mut first)
                });
            }
            let bad = [
                BoidsSpawnDef { shape: 9, ..s },
                BoidsSpawnDef {
                    min_speed: f32::NAN,
                    ..s
                },
                BoidsSpawnDef {
                    min_speed: 6.0,
                    max_speed: 1.0,
                    ..s
                },
                BoidsSpawnDef {
                    max_speed: -1.0,
                    ..s
                },
                BoidsSpawnDef {
                    min: v3(0.0, f32::INFINITY, 0.0),
                    ..s
                },
                BoidsSpawnDef {
                    shape: BOIDS_SPAWN_SPHERE,
                    radius: -2.0,
                    ..s
                },
                BoidsSpawnDef {
                    has_direction: 1,
                    direction: v3(0.0, 0.0, 0.0),
                    ..s
                },
                BoidsSpawnDef {
                    has_direction: 2,
                    ..s
                },
            ];
            for b in bad {
                refused(fx, "bad spawn", InvalidArgument, || unsafe {
                    boids_flock_spawn(fx.f, 5, &b, &mut first)
                });
            }
            flock_ids(fx, |f| unsafe { boids_flock_spawn(f, 1, &s, &mut first) });
            busy("spawn", |b| unsafe {
                boids_flock_spawn(b.f, 1, &s, &mut first)
            });
        }),
        ("boids_flock_resize", |fx| {
            let s = boids_default_spawn_def();
            refused(fx, "NULL spawn", NullPointer, || unsafe {
                boids_flock_resize(fx.f, 1, null())
            });
            refused(fx, "huge count", InvalidArgument, || unsafe {
                boids_flock_resize(fx.f, u32::MAX, &s)
            });
            refused(fx, "forged def", InvalidDef, || unsafe {
                boids_flock_resize(
                    fx.f,
                    3,
                    &BoidsSpawnDef {
                        internal_cookie: 0,
                        ..s
                    },
                )
            });
            flock_ids(fx, |f| unsafe { boids_flock_resize(f, 1, &s) });
            busy("resize", |b| unsafe {
                boids_flock_resize(b.f, 150_000, &s)
            });
        }),
        ("boids_flock_add_boids", |fx| {
            let (p, v) = ([v3(0.0, 0.0, 0.0); 2], [v3(1.0, 0.0, 0.0); 2]);
            let mut first = 0;
            refused(fx, "NULL positions", NullPointer, || unsafe {
                boids_flock_add_boids(fx.f, null(), v.as_ptr(), 2, &mut first)
            });
            refused(fx, "NULL velocities", NullPointer, || unsafe {
                boids_flock_add_boids(fx.f, p.as_ptr(), null(), 2, &mut first)
            });
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_flock_add_boids(fx.f, p.as_ptr(), v.as_ptr(), 2, null_mut())
            });
            for count in [usize::MAX, u32::MAX as usize, (1 << 24) + 1] {
                refused(fx, "huge count", InvalidArgument, || unsafe {
                    boids_flock_add_boids(fx.f, p.as_ptr(), v.as_ptr(), count, &mut first)
                });
            }
            for bad in [
                v3(f32::NAN, 0.0, 0.0),
                v3(0.0, f32::INFINITY, 0.0),
                v3(0.0, 0.0, -1e30),
            ] {
                let pp = [v3(0.0, 0.0, 0.0), bad];
                refused(fx, "bad position", InvalidArgument, || unsafe {
                    boids_flock_add_boids(fx.f, pp.as_ptr(), v.as_ptr(), 2, &mut first)
                });
                refused(fx, "bad velocity", InvalidArgument, || unsafe {
                    boids_flock_add_boids(fx.f, p.as_ptr(), pp.as_ptr(), 2, &mut first)
                });
            }
            flock_ids(fx, |f| unsafe {
                boids_flock_add_boids(f, p.as_ptr(), v.as_ptr(), 2, &mut first)
            });
            busy("add", |b| unsafe {
                boids_flock_add_boids(b.f, p.as_ptr(), v.as_ptr(), 2, &mut first)
            });
        }),
        ("boids_flock_remove_boids", |fx| {
            let mut n = 0usize;
            refused(fx, "NULL ids", NullPointer, || unsafe {
                boids_flock_remove_boids(fx.f, null(), 3, &mut n)
            });
            refused(fx, "unknown id", InvalidArgument, || unsafe {
                boids_flock_remove_boids(fx.f, [1u32, 9999].as_ptr(), 2, &mut n)
            });
            refused(fx, "huge count", InvalidArgument, || unsafe {
                boids_flock_remove_boids(fx.f, [1u32].as_ptr(), usize::MAX, &mut n)
            });
            flock_ids(fx, |f| unsafe {
                boids_flock_remove_boids(f, [0u32].as_ptr(), 1, &mut n)
            });
            busy("remove", |b| unsafe {
                boids_flock_remove_boids(b.f, [0u32].as_ptr(), 1, &mut n)
            });
        }),
        ("boids_flock_count", |fx| {
            let mut n = 0usize;
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_flock_count(fx.f, null_mut())
            });
            flock_ids(fx, |f| unsafe { boids_flock_count(f, &mut n) });
            busy("count", |b| unsafe { boids_flock_count(b.f, &mut n) });
        }),
        ("boids_flock_read_positions", |fx| {
            reads(fx, |f, c, n| unsafe {
                boids_flock_read_positions(f, c.as_mut_ptr().cast(), c.len() / 3, n)
            })
        }),
        ("boids_flock_read_velocities", |fx| {
            reads(fx, |f, c, n| unsafe {
                boids_flock_read_velocities(f, c.as_mut_ptr().cast(), c.len() / 3, n)
            })
        }),
        ("boids_flock_read_ids", |fx| {
            reads(fx, |f, c, n| unsafe {
                boids_flock_read_ids(f, c.as_mut_ptr().cast(), c.len(), n)
            })
        }),
        ("boids_flock_read_orientations", |fx| {
            reads(fx, |f, c, n| unsafe {
                boids_flock_read_orientations(f, c.as_mut_ptr().cast(), c.len() / 4, n)
            })
        }),
        ("boids_flock_read_matrices", |fx| {
            reads(fx, |f, c, n| unsafe {
                boids_flock_read_matrices(f, 1.0, c.as_mut_ptr().cast(), c.len() / 16, n)
            });
            let mut m = vec![BoidsMat4::default(); 64];
            let mut n = 0;
            for scale in [f32::NAN, f32::INFINITY] {
                refused(fx, "bad scale", InvalidArgument, || unsafe {
                    boids_flock_read_matrices(fx.f, scale, m.as_mut_ptr(), 64, &mut n)
                });
            }
        }),
        ("boids_flock_read_matrices_transformed", |fx| {
            reads(fx, |f, c, n| unsafe {
                let t = identity();
                boids_flock_read_matrices_transformed(
                    f,
                    &t,
                    1.0,
                    c.as_mut_ptr().cast(),
                    c.len() / 16,
                    n,
                )
            });
            let mut m = vec![BoidsMat4::default(); 64];
            let mut n = 0;
            refused(fx, "NULL transform", NullPointer, || unsafe {
                boids_flock_read_matrices_transformed(fx.f, null(), 1.0, m.as_mut_ptr(), 64, &mut n)
            });
            for bad in [f32::NAN, f32::INFINITY, -2e9] {
                for k in [0, 7, 15] {
                    let mut t = identity();
                    t.m[k] = bad;
                    refused(fx, "bad transform element", InvalidArgument, || unsafe {
                        boids_flock_read_matrices_transformed(
                            fx.f,
                            &t,
                            1.0,
                            m.as_mut_ptr(),
                            64,
                            &mut n,
                        )
                    });
                    assert!(msg().contains(&format!("transform[{k}]")), "{}", msg());
                }
            }
            refused(fx, "bad scale", InvalidArgument, || unsafe {
                let t = identity();
                boids_flock_read_matrices_transformed(
                    fx.f,
                    &t,
                    f32::NAN,
                    m.as_mut_ptr(),
                    64,
                    &mut n,
                )
            });
        }),
        ("boids_flock_write_positions", |fx| {
            writes(fx, |f, p, n| unsafe {
                boids_flock_write_positions(f, p, n)
            })
        }),
        ("boids_flock_write_velocities", |fx| {
            writes(fx, |f, p, n| unsafe {
                boids_flock_write_velocities(f, p, n)
            })
        }),
        ("boids_obstacle_add", |fx| {
            let mut o = BoidsObstacleId::default();
            refused(fx, "NULL def", NullPointer, || unsafe {
                boids_obstacle_add(fx.w, null(), &mut o)
            });
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_obstacle_add(fx.w, &sphere(), null_mut())
            });
            for d in bad_obstacle_defs() {
                refused(fx, "bad shape", InvalidArgument, || unsafe {
                    boids_obstacle_add(fx.w, &d, &mut o)
                });
            }
            world_ids(fx, |w| unsafe { boids_obstacle_add(w, &sphere(), &mut o) });
            busy("obstacle add", |b| unsafe {
                boids_obstacle_add(b.w, &sphere(), &mut o)
            });
        }),
        ("boids_obstacle_set", |fx| {
            refused(fx, "NULL def", NullPointer, || unsafe {
                boids_obstacle_set(fx.o, null())
            });
            for d in bad_obstacle_defs() {
                refused(fx, "bad shape", InvalidArgument, || unsafe {
                    boids_obstacle_set(fx.o, &d)
                });
            }
            for (case, id) in bad_obstacles(fx) {
                refused(fx, case, InvalidId, || unsafe {
                    boids_obstacle_set(id, &sphere())
                });
            }
            busy("obstacle set", |b| unsafe {
                boids_obstacle_set(b.o, &sphere())
            });
        }),
        ("boids_mesh_create", |fx| {
            let mut m = BoidsMeshId::default();
            let v = tetra_vertices();
            let i = TETRA;
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_mesh_create(fx.w, v.as_ptr(), 4, i.as_ptr(), 12, null_mut())
            });
            refused(fx, "NULL vertices", NullPointer, || unsafe {
                boids_mesh_create(fx.w, null(), 4, i.as_ptr(), 12, &mut m)
            });
            refused(fx, "NULL indices", NullPointer, || unsafe {
                boids_mesh_create(fx.w, v.as_ptr(), 4, null(), 12, &mut m)
            });
            let mut nan = v;
            nan[2].y = f32::NAN;
            let mut inf = v;
            inf[1].x = f32::INFINITY;
            for (case, verts, idx, count, field) in [
                ("a NaN vertex", nan, &i[..], 12, "vertices[2]"),
                ("an infinite vertex", inf, &i[..], 12, "vertices[1]"),
                (
                    "an index out of range",
                    v,
                    &[0u32, 1, 4][..],
                    3,
                    "indices[2]",
                ),
                ("no triangle", v, &[][..], 0, "no triangle"),
                ("a partial triangle", v, &i[..], 4, "multiple of 3"),
            ] {
                refused(fx, case, InvalidArgument, || unsafe {
                    boids_mesh_create(fx.w, verts.as_ptr(), 4, idx.as_ptr(), count, &mut m)
                });
                assert!(msg().contains(field), "{case}: {}", msg());
            }
            // More than 2^24 triangles: refused before an index is read.
            let many = vec![0u32; 3 * ((1 << 24) + 1)];
            refused(fx, "more than 2^24 triangles", InvalidArgument, || unsafe {
                boids_mesh_create(fx.w, v.as_ptr(), 4, many.as_ptr(), many.len(), &mut m)
            });
            assert!(msg().contains("2^24"), "{}", msg());
            world_ids(fx, |w| unsafe {
                boids_mesh_create(w, v.as_ptr(), 4, i.as_ptr(), 12, &mut m)
            });
            busy("mesh create", |b| unsafe {
                boids_mesh_create(b.w, v.as_ptr(), 4, i.as_ptr(), 12, &mut m)
            });
        }),
        ("boids_heightfield_create", |fx| {
            let mut m = BoidsMeshId::default();
            let h = [0.0f32; 9];
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_heightfield_create(fx.w, h.as_ptr(), 3, 3, 1.0, 1.0, null_mut())
            });
            refused(fx, "NULL heights", NullPointer, || unsafe {
                boids_heightfield_create(fx.w, null(), 3, 3, 1.0, 1.0, &mut m)
            });
            let mut nan = h;
            nan[4] = f32::NAN;
            for (case, heights, c, r, cell, field) in [
                ("no cell", h, 1, 9, 1.0, "at least 2"),
                ("zero rows", h, 3, 0, 1.0, "at least 2"),
                ("a NaN height", nan, 3, 3, 1.0, "heights[4]"),
                ("a zero cell", h, 3, 3, 0.0, "cell_x"),
                ("a negative cell", h, 3, 3, -1.0, "cell_x"),
                ("more than 2^26 samples", h, 9000, 9000, 1.0, "2^26"),
            ] {
                refused(fx, case, InvalidArgument, || unsafe {
                    boids_heightfield_create(fx.w, heights.as_ptr(), c, r, cell, 1.0, &mut m)
                });
                assert!(msg().contains(field), "{case}: {}", msg());
            }
            world_ids(fx, |w| unsafe {
                boids_heightfield_create(w, h.as_ptr(), 3, 3, 1.0, 1.0, &mut m)
            });
            busy("heightfield create", |b| unsafe {
                boids_heightfield_create(b.w, h.as_ptr(), 3, 3, 1.0, 1.0, &mut m)
            });
        }),
        ("boids_mesh_destroy", |fx| {
            let m = tetra(fx.w);
            let mut o = BoidsObstacleId::default();
            let placed = BoidsObstacleDef {
                shape: BOIDS_OBSTACLE_MESH,
                mesh: m,
                ..boids_default_obstacle_def()
            };
            assert_eq!(unsafe { boids_obstacle_add(fx.w, &placed, &mut o) }, Ok);
            // A mesh freed while placed: refused, the placement still valid.
            refused(fx, "freed while placed", InvalidArgument, || {
                boids_mesh_destroy(m)
            });
            assert!(msg().contains("placed by 1"), "{}", msg());
            assert_eq!(boids_mesh_is_valid(m), 1);
            assert_eq!(boids_obstacle_remove(o), Ok);
            assert_eq!(boids_mesh_destroy(m), Ok);
            refused(fx, "twice", InvalidId, || boids_mesh_destroy(m));
            refused(fx, "null", InvalidId, || {
                boids_mesh_destroy(BoidsMeshId::default())
            });
            // Placing a destroyed mesh, or one of another world: refused.
            refused(fx, "a destroyed mesh", InvalidArgument, || unsafe {
                boids_obstacle_add(fx.w, &placed, &mut o)
            });
            let other = tetra(fx.dead_w_alive());
            refused(fx, "another world's mesh", InvalidArgument, || unsafe {
                boids_obstacle_add(
                    fx.w,
                    &BoidsObstacleDef {
                        mesh: other,
                        ..placed
                    },
                    &mut o,
                )
            });
            assert!(msg().contains("world"), "{}", msg());
            for scale in [
                v3(1.0, 0.0, 1.0),
                v3(-1.0, 1.0, 1.0),
                v3(f32::NAN, 1.0, 1.0),
            ] {
                let m = tetra(fx.w);
                refused(fx, "a bad scale", InvalidArgument, || unsafe {
                    boids_obstacle_add(
                        fx.w,
                        &BoidsObstacleDef {
                            mesh: m,
                            scale,
                            ..placed
                        },
                        &mut o,
                    )
                });
                assert!(msg().contains("scale"), "{}", msg());
            }
        }),
        ("boids_mesh_is_valid", |fx| {
            assert_eq!(boids_mesh_is_valid(BoidsMeshId::default()), 0);
            let m = tetra(fx.w);
            assert_eq!(boids_mesh_is_valid(m), 1);
            assert_eq!(
                boids_mesh_is_valid(BoidsMeshId {
                    generation: m.generation + 1,
                    ..m
                }),
                0
            );
            assert_eq!(
                boids_mesh_is_valid(BoidsMeshId {
                    world: fx.dead_w,
                    ..m
                }),
                0
            );
        }),
        ("boids_obstacle_remove", |fx| {
            for (case, id) in bad_obstacles(fx) {
                refused(fx, case, InvalidId, || boids_obstacle_remove(id));
            }
            busy("obstacle remove", |b| boids_obstacle_remove(b.o));
        }),
        ("boids_world_set_relation", |fx| {
            let other = new_flock(fx.w, c"other", 4);
            let (f, w) = (fx.f, fx.w);
            for kind in [5, -1, i32::MAX] {
                refused(fx, "kind", InvalidArgument, || {
                    boids_world_set_relation(w, f, other, kind, 1.0, 1.0)
                });
            }
            for radius in [0.0, -1.0, f32::NAN, f32::INFINITY] {
                refused(fx, "radius", InvalidArgument, || {
                    boids_world_set_relation(w, f, other, BOIDS_RELATION_FLEE, radius, 1.0)
                });
            }
            refused(fx, "weight NaN", InvalidArgument, || {
                boids_world_set_relation(w, f, other, BOIDS_RELATION_FLEE, 1.0, f32::NAN)
            });
            refused(fx, "same flock", InvalidArgument, || {
                boids_world_set_relation(w, f, f, BOIDS_RELATION_FLEE, 1.0, 1.0)
            });
            for (case, bad) in bad_flocks(fx) {
                refused(fx, case, InvalidId, || {
                    boids_world_set_relation(w, f, bad, BOIDS_RELATION_CHASE, 1.0, 1.0)
                });
                refused(fx, case, InvalidId, || {
                    boids_world_set_relation(w, bad, f, BOIDS_RELATION_CHASE, 1.0, 1.0)
                });
            }
            world_ids(fx, |wid| {
                boids_world_set_relation(wid, f, other, BOIDS_RELATION_FLEE, 1.0, 1.0)
            });
            busy("relation", |b| {
                boids_world_set_relation(b.w, b.f, b.f, BOIDS_RELATION_FLEE, 1.0, 1.0)
            });
        }),
        ("boids_flock_set_path", |fx| {
            let pts = [v3(0.0, 0.0, 0.0), v3(1.0, 0.0, 0.0), v3(f32::NAN, 0.0, 0.0)];
            refused(fx, "NULL points", NullPointer, || unsafe {
                boids_flock_set_path(fx.f, null(), 3, 0)
            });
            refused(fx, "NaN point", InvalidArgument, || unsafe {
                boids_flock_set_path(fx.f, pts.as_ptr(), 3, 0)
            });
            refused(fx, "closed 2", InvalidArgument, || unsafe {
                boids_flock_set_path(fx.f, pts.as_ptr(), 2, 2)
            });
            refused(fx, "huge count", InvalidArgument, || unsafe {
                boids_flock_set_path(fx.f, pts.as_ptr(), usize::MAX, 0)
            });
            flock_ids(fx, |f| unsafe {
                boids_flock_set_path(f, pts.as_ptr(), 2, 0)
            });
            busy("path", |b| unsafe {
                boids_flock_set_path(b.f, pts.as_ptr(), 2, 0)
            });
        }),
        ("boids_flock_set_leader", |fx| {
            refused(fx, "unknown boid", InvalidArgument, || {
                boids_flock_set_leader(fx.f, 99_999, v3(0.0, 0.0, -1.0))
            });
            refused(fx, "NaN offset", InvalidArgument, || {
                boids_flock_set_leader(fx.f, 0, v3(f32::NAN, 0.0, 0.0))
            });
            flock_ids(fx, |f| boids_flock_set_leader(f, 0, v3(0.0, 0.0, -1.0)));
            busy("leader", |b| {
                boids_flock_set_leader(b.f, 0, v3(0.0, 0.0, -1.0))
            });
        }),
        ("boids_flock_clear_leader", |fx| {
            flock_ids(fx, boids_flock_clear_leader_call);
            busy("clear leader", |b| boids_flock_clear_leader(b.f));
        }),
    ]
}

fn boids_flock_clear_leader_call(f: BoidsFlockId) -> BoidsResult {
    boids_flock_clear_leader(f)
}

type ParamEdit = (&'static str, fn(&mut BoidsFlockParams));

fn bad_params() -> Vec<ParamEdit> {
    vec![
        ("radius NaN", |p| p.perception_radius = f32::NAN),
        ("radius negative", |p| p.perception_radius = -1.0),
        ("radius absurd", |p| p.perception_radius = 1e20),
        ("fov 361", |p| p.fov_half_angle_deg = 361.0),
        ("weight Inf", |p| p.weight_alignment = f32::INFINITY),
        ("weight absurd", |p| p.weight_wander = -1e12),
        ("min over max", |p| p.min_speed = 99.0),
        ("max speed NaN", |p| p.max_speed = f32::NAN),
        ("smoothing 2", |p| p.velocity_smoothing = 2.0),
        ("turn rate negative", |p| p.max_turn_rate = -1.0),
        ("separation mode 7", |p| p.separation_mode = 7),
        ("alignment mode -1", |p| p.alignment_mode = -1),
        ("combine 3", |p| p.combine = 3),
        ("integrator 4", |p| p.integrator = 4),
        ("plane 3", |p| p.plane = 3),
        ("index 4", |p| p.index = 4),
        ("obstacle mode 3", |p| p.obstacle_avoidance = 3),
        ("has_target 5", |p| p.has_target = 5),
        ("target NaN", |p| {
            p.has_target = 1;
            p.target_point.x = f32::NAN;
        }),
        ("rule probability 1.5", |p| p.rule_probability = 1.5),
        ("speed change probability NaN", |p| {
            p.speed_change_probability = f32::NAN
        }),
        ("relocation flag 3", |p| p.has_target_relocation = 3),
        ("relocation min above max", |p| {
            p.has_target_relocation = 1;
            p.target_relocation_min = v3(1.0, 1.0, 1.0);
        }),
        ("smooth time negative", |p| p.cohesion_smooth_time = -0.5),
        ("fallback flag -1", |p| p.fallback_to_nearest = -1),
        ("bounds kind 6", |p| p.bounds.kind = 6),
        ("update every 0", |p| p.update_every = 0),
        ("update every 5000", |p| p.update_every = 5000),
        ("sleep distance NaN", |p| p.sleep_distance = f32::NAN),
        ("wander radius negative", |p| p.wander_radius = -1.0),
        ("arrival radius Inf", |p| p.arrival_radius = f32::INFINITY),
        ("path weight NaN", |p| p.weight_path = f32::NAN),
    ]
}

/// A tetrahedron's vertices and indices.
fn tetra_vertices() -> [BoidsVec3; 4] {
    [
        v3(0.0, 0.0, 0.0),
        v3(1.0, 0.0, 0.0),
        v3(0.0, 1.0, 0.0),
        v3(0.0, 0.0, 1.0),
    ]
}
const TETRA: [u32; 12] = [0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3];

/// A tetrahedron in world `w`.
fn tetra(w: BoidsWorldId) -> BoidsMeshId {
    let mut m = BoidsMeshId::default();
    let v = tetra_vertices();
    assert_eq!(
        unsafe { boids_mesh_create(w, v.as_ptr(), 4, TETRA.as_ptr(), 12, &mut m) },
        Ok,
        "{}",
        msg()
    );
    m
}

impl Fx {
    /// A live world other than `w` (for ids of another world).
    fn dead_w_alive(&self) -> BoidsWorldId {
        new_world(1)
    }
}

fn bad_obstacle_defs() -> Vec<BoidsObstacleDef> {
    let s = sphere();
    vec![
        BoidsObstacleDef { shape: 7, ..s },
        BoidsObstacleDef { shape: -1, ..s },
        // A placement without a mesh.
        BoidsObstacleDef {
            shape: BOIDS_OBSTACLE_MESH,
            ..s
        },
        BoidsObstacleDef {
            shape: BOIDS_OBSTACLE_HEIGHTFIELD,
            ..s
        },
        BoidsObstacleDef {
            shape: BOIDS_OBSTACLE_ORIENTED_BOX,
            b: v3(1.0, -1.0, 1.0),
            ..s
        },
        BoidsObstacleDef {
            shape: BOIDS_OBSTACLE_ORIENTED_BOX,
            b: v3(1.0, 1.0, 1.0),
            rotation: BoidsQuat {
                x: 0.0,
                y: 0.0,
                z: 0.0,
                w: 0.0,
            },
            ..s
        },
        BoidsObstacleDef {
            shape: BOIDS_OBSTACLE_CAPSULE,
            b: v3(f32::NAN, 0.0, 0.0),
            ..s
        },
        BoidsObstacleDef { radius: 0.0, ..s },
        BoidsObstacleDef { radius: -1.0, ..s },
        BoidsObstacleDef {
            radius: f32::NAN,
            ..s
        },
        BoidsObstacleDef {
            a: v3(f32::INFINITY, 0.0, 0.0),
            ..s
        },
        BoidsObstacleDef {
            shape: BOIDS_OBSTACLE_BOX,
            a: v3(1.0, 1.0, 1.0),
            b: v3(0.0, 0.0, 0.0),
            radius: 0.0,
            ..boids_default_obstacle_def()
        },
        BoidsObstacleDef {
            shape: BOIDS_OBSTACLE_PLANE,
            a: v3(0.0, 0.0, 0.0),
            b: v3(0.0, 0.0, 0.0),
            radius: 0.0,
            ..boids_default_obstacle_def()
        },
    ]
}

/// A bulk read: NULL buffer with capacity, NULL count, too-small buffer (count reports the
/// need), zero-size size query, bad ids, BUSY. `f32` storage is big enough for every element
/// type (read functions are given element capacities).
fn identity() -> BoidsMat4 {
    let mut t = BoidsMat4::default();
    for k in [0, 5, 10, 15] {
        t.m[k] = 1.0;
    }
    t
}

fn reads(fx: &Fx, read: fn(BoidsFlockId, &mut [f32], *mut usize) -> BoidsResult) {
    let mut n = 0usize;
    let mut big = vec![0.0f32; 64 * 16];
    let mut small = vec![0.0f32; 16];
    refused(fx, "NULL count", NullPointer, || {
        read(fx.f, &mut big, null_mut())
    });
    refused(fx, "too small", BufferTooSmall, || {
        read(fx.f, &mut small, &mut n)
    });
    assert_eq!(n, 64, "the size needed");
    refused(fx, "zero-size query", BufferTooSmall, || {
        read(fx.f, &mut [], &mut n)
    });
    assert_eq!(n, 64);
    assert_eq!(read(fx.f, &mut big, &mut n), Ok);
    flock_ids(fx, |f| read(f, &mut big, &mut n));
    busy("read", |b| {
        read(b.f, &mut vec![0.0f32; 150_000 * 16], &mut n)
    });
}

fn writes(fx: &Fx, write: unsafe fn(BoidsFlockId, *const BoidsVec3, usize) -> BoidsResult) {
    let good = vec![v3(0.5, 0.5, 0.5); 64];
    refused(fx, "NULL data", NullPointer, || unsafe {
        write(fx.f, null(), 64)
    });
    for count in [0usize, 63, 65, usize::MAX] {
        refused(fx, "wrong count", InvalidArgument, || unsafe {
            write(fx.f, good.as_ptr(), count)
        });
    }
    let mut bad = good.clone();
    bad[40] = v3(0.0, f32::NAN, 0.0);
    refused(fx, "NaN", InvalidArgument, || unsafe {
        write(fx.f, bad.as_ptr(), 64)
    });
    bad[40] = v3(2e9, 0.0, 0.0);
    refused(fx, "absurd", InvalidArgument, || unsafe {
        write(fx.f, bad.as_ptr(), 64)
    });
    flock_ids(fx, |f| unsafe { write(f, good.as_ptr(), 64) });
    busy("write", |b| unsafe { write(b.f, null(), 0) });
}

#[test]
fn every_export_has_a_row() {
    let header = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../include/boids.h"
    ))
    .unwrap();
    let rows: Vec<&str> = matrix().iter().map(|r| r.0).collect();
    let mut exports: Vec<String> = header
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("boids_"))
        .map(str::to_owned)
        .collect();
    exports.sort();
    exports.dedup();
    // Keep only names followed by '(' somewhere: functions, not constants.
    exports.retain(|e| header.contains(&format!("{e}(")));
    assert!(exports.len() >= 41, "{exports:?}");
    for e in &exports {
        assert!(
            rows.contains(&e.as_str()),
            "export {e} has no row in the hostile-input matrix"
        );
    }
}

#[test]
fn hostile_input_matrix() {
    for (name, row) in matrix() {
        let fx = fixture();
        row(&fx);
        // The fixture world still works after all of it.
        assert_eq!(boids_world_step(fx.w, 0.016), Ok, "{name}");
        let mut n = 0;
        assert_eq!(unsafe { boids_flock_count(fx.f, &mut n) }, Ok, "{name}");
        assert_eq!(boids_world_destroy(fx.w), Ok, "{name}");
    }
}
