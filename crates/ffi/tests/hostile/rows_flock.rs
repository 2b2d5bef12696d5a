//! The matrix's rows for flocks: creation, parameters, spawns, reads and writes.
//! (SAFETY: see main.rs.)

use boids_ffi::*;
use std::ffi::c_char;
use std::ptr::{null, null_mut};

use crate::fixture::*;

pub(crate) fn rows() -> Vec<Row> {
    vec![
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
        ("boids_flock_count_at_target", |fx| {
            let mut n = 0usize;
            refused(fx, "NULL out", NullPointer, || unsafe {
                boids_flock_count_at_target(fx.f, null_mut())
            });
            refused(fx, "no target", NotFound, || unsafe {
                boids_flock_count_at_target(fx.f, &mut n)
            });
            flock_ids(fx, |f| unsafe { boids_flock_count_at_target(f, &mut n) });
            busy("count at target", |b| unsafe {
                boids_flock_count_at_target(b.f, &mut n)
            });
        }),
        ("boids_flock_get_flow_grid", |fx| {
            let (mut o, mut c, mut x, mut z) = (BoidsVec3::default(), 0.0f32, 0u32, 0u32);
            refused(fx, "NULL origin", NullPointer, || unsafe {
                boids_flock_get_flow_grid(fx.f, null_mut(), &mut c, &mut x, &mut z)
            });
            refused(fx, "NULL cell", NullPointer, || unsafe {
                boids_flock_get_flow_grid(fx.f, &mut o, null_mut(), &mut x, &mut z)
            });
            refused(fx, "NULL columns", NullPointer, || unsafe {
                boids_flock_get_flow_grid(fx.f, &mut o, &mut c, null_mut(), &mut z)
            });
            refused(fx, "NULL rows", NullPointer, || unsafe {
                boids_flock_get_flow_grid(fx.f, &mut o, &mut c, &mut x, null_mut())
            });
            refused(fx, "no field", NotFound, || unsafe {
                boids_flock_get_flow_grid(fx.f, &mut o, &mut c, &mut x, &mut z)
            });
            flock_ids(fx, |f| unsafe {
                boids_flock_get_flow_grid(f, &mut o, &mut c, &mut x, &mut z)
            });
            busy("flow grid", |b| unsafe {
                boids_flock_get_flow_grid(b.f, &mut o, &mut c, &mut x, &mut z)
            });
        }),
        ("boids_flock_read_flow_distances", |fx| {
            let mut d = [0.0f32; 4];
            let mut n = 0usize;
            refused(fx, "NULL count", NullPointer, || unsafe {
                boids_flock_read_flow_distances(fx.f, d.as_mut_ptr(), 4, null_mut())
            });
            refused(fx, "NULL out with room", NullPointer, || unsafe {
                boids_flock_read_flow_distances(fx.f, null_mut(), 4, &mut n)
            });
            refused(fx, "no field", NotFound, || unsafe {
                boids_flock_read_flow_distances(fx.f, d.as_mut_ptr(), 4, &mut n)
            });
            flock_ids(fx, |f| unsafe {
                boids_flock_read_flow_distances(f, d.as_mut_ptr(), 4, &mut n)
            });
            busy("flow distances", |b| unsafe {
                boids_flock_read_flow_distances(b.f, d.as_mut_ptr(), 4, &mut n)
            });
        }),
        ("boids_flock_read_flow_directions", |fx| {
            let mut d = [BoidsVec3::default(); 4];
            let mut n = 0usize;
            refused(fx, "NULL count", NullPointer, || unsafe {
                boids_flock_read_flow_directions(fx.f, d.as_mut_ptr(), 4, null_mut())
            });
            refused(fx, "NULL out with room", NullPointer, || unsafe {
                boids_flock_read_flow_directions(fx.f, null_mut(), 4, &mut n)
            });
            refused(fx, "no field", NotFound, || unsafe {
                boids_flock_read_flow_directions(fx.f, d.as_mut_ptr(), 4, &mut n)
            });
            flock_ids(fx, |f| unsafe {
                boids_flock_read_flow_directions(f, d.as_mut_ptr(), 4, &mut n)
            });
            busy("flow directions", |b| unsafe {
                boids_flock_read_flow_directions(b.f, d.as_mut_ptr(), 4, &mut n)
            });
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
    ]
}
