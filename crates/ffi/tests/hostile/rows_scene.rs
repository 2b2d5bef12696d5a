//! The matrix's rows for the scene: obstacles, meshes, heightfields, relations, paths, leaders.
//! (SAFETY: see main.rs.)

use boids_ffi::*;
use std::ptr::{null, null_mut};

use crate::fixture::*;

pub(crate) fn rows() -> Vec<Row> {
    vec![
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
