//! The matrix's rows for the library's own functions and worlds.
//! (SAFETY: see main.rs.)

use boids_ffi::*;
use std::ffi::CStr;
use std::ptr::{null, null_mut};

use crate::fixture::*;

pub(crate) fn rows() -> Vec<Row> {
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
        ("boids_world_step_begin_n", |fx| {
            world_ids(fx, |w| boids_world_step_begin_n(w, 0.016, 2));
            for (dt, n) in [
                (0.0, 2),
                (-1.0, 3),
                (f32::NAN, 2),
                (f32::INFINITY, 1),
                (1.0001, 9),
            ]
            .into_iter()
            .chain([(0.016, 0)])
            {
                refused(fx, &format!("dt {dt}, {n} steps"), InvalidArgument, || {
                    boids_world_step_begin_n(fx.w, dt, n)
                });
                let mut s = 7;
                assert_eq!(unsafe { boids_world_is_stepping(fx.w, &mut s) }, Ok);
                assert_eq!(s, 0, "a refused begin starts nothing");
            }
            assert!(msg().contains("count must be at least 1"), "{}", msg());
            busy("step_begin_n", |b| boids_world_step_begin_n(b.w, 0.016, 2));
            // A twin of the world (its save loaded) stepped three times, one by one.
            let mut n = 0usize;
            unsafe { boids_world_save(fx.w, null_mut(), 0, &mut n) };
            let mut bytes = vec![0u8; n];
            assert_eq!(
                unsafe { boids_world_save(fx.w, bytes.as_mut_ptr(), n, &mut n) },
                Ok
            );
            let def = boids_default_world_def();
            let mut twin = BoidsWorldId::default();
            assert_eq!(
                unsafe { boids_world_load(&def, bytes.as_ptr(), n, &mut twin) },
                Ok
            );
            for _ in 0..3 {
                assert_eq!(boids_world_step(twin, 0.016), Ok);
            }
            assert_eq!(boids_world_step_begin_n(fx.w, 0.016, 3), Ok);
            assert_eq!(boids_world_step_begin_n(fx.w, 0.016, 3), Busy);
            assert_eq!(boids_world_step_begin(fx.w, 0.016), Busy);
            assert_eq!(boids_world_step_end(fx.w), Ok);
            assert_eq!(
                hash(fx.w),
                hash(twin),
                "three steps, the bits of one by one"
            );
            assert_eq!(boids_world_destroy(twin), Ok);
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
        ("boids_world_set_flow_cell_size", |fx| {
            for bad in [f32::NAN, -1.0, f32::INFINITY, f32::NEG_INFINITY] {
                refused(fx, "bad flow cell size", InvalidArgument, || {
                    boids_world_set_flow_cell_size(fx.w, bad)
                });
                assert!(msg().contains("flow cell size"), "{}", msg());
            }
            world_ids(fx, |w| boids_world_set_flow_cell_size(w, 1.0));
            busy("flow cell size", |b| {
                boids_world_set_flow_cell_size(b.w, 1.0)
            });
        }),
        ("boids_world_get_flow_cell_size", |fx| {
            let mut c = 0.0f32;
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_world_get_flow_cell_size(fx.w, null_mut())
            });
            world_ids(fx, |w| unsafe { boids_world_get_flow_cell_size(w, &mut c) });
            busy("get flow cell size", |b| unsafe {
                boids_world_get_flow_cell_size(b.w, &mut c)
            });
        }),
        ("boids_world_set_flow_budget", |fx| {
            // Every u32 is a budget (0: no limit): only ids and busy worlds are refused.
            world_ids(fx, |w| boids_world_set_flow_budget(w, u32::MAX));
            busy("flow budget", |b| boids_world_set_flow_budget(b.w, 1));
        }),
        ("boids_world_get_flow_budget", |fx| {
            let mut u = 0u32;
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_world_get_flow_budget(fx.w, null_mut())
            });
            world_ids(fx, |w| unsafe { boids_world_get_flow_budget(w, &mut u) });
            busy("get flow budget", |b| unsafe {
                boids_world_get_flow_budget(b.w, &mut u)
            });
        }),
        ("boids_world_get_ground_height", |fx| {
            let mut h = 0.0f32;
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_world_get_ground_height(fx.w, 0.0, 0.0, null_mut())
            });
            for (x, z) in [(f32::NAN, 0.0), (0.0, f32::NEG_INFINITY), (0.0, 2e9)] {
                refused(
                    fx,
                    "coordinate not finite or too far",
                    InvalidArgument,
                    || unsafe { boids_world_get_ground_height(fx.w, x, z, &mut h) },
                );
            }
            world_ids(fx, |w| unsafe {
                boids_world_get_ground_height(w, 0.0, 0.0, &mut h)
            });
            busy("ground height", |b| unsafe {
                boids_world_get_ground_height(b.w, 0.0, 0.0, &mut h)
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
    ]
}
