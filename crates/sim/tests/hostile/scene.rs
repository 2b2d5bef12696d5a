//! The Rust API matrix's rows for the scene (obstacles, meshes, heightfields, relations,
//! paths, leaders), the reads and the steps.

use super::*;

pub(super) fn rows() -> Vec<Row> {
    vec![
        ("add_obstacle", |fx| {
            for o in [
                Obstacle::Sphere {
                    centre: NAN3,
                    radius: 1.0,
                },
                Obstacle::Sphere {
                    centre: Vec3::ZERO,
                    radius: 0.0,
                },
                Obstacle::Box {
                    min: Vec3::ONE,
                    max: Vec3::ZERO,
                },
                Obstacle::Plane {
                    point: Vec3::ZERO,
                    normal: Vec3::ZERO,
                },
            ] {
                refused(fx, "bad shape", |w| w.add_obstacle(o));
            }
            // Placements: a bad scale or rotation, a mesh never added or removed, a mesh of the
            // other kind. Each refused with the field named; no obstacle added.
            let mesh = tetra(&mut fx.w);
            let field = fx.w.add_heightfield(2, 2, 1.0, 1.0, &[0.0; 4]).unwrap();
            let place = |m, scale, rotation| Obstacle::Mesh {
                mesh: m,
                position: Vec3::ZERO,
                rotation,
                scale,
                ground: false,
            };
            let gone = tetra(&mut fx.w);
            fx.w.remove_mesh(gone).unwrap();
            let before = fx.w.obstacles().len();
            for (case, o, words) in [
                (
                    "zero scale",
                    place(mesh, Vec3::new(1.0, 0.0, 1.0), Quat::IDENTITY),
                    "scale",
                ),
                (
                    "negative scale",
                    place(mesh, Vec3::new(1.0, -1.0, 1.0), Quat::IDENTITY),
                    "negative",
                ),
                ("NaN scale", place(mesh, Vec3::NAN, Quat::IDENTITY), "scale"),
                (
                    "not a unit rotation",
                    place(mesh, Vec3::ONE, Quat::from_xyzw(0.0, 0.0, 0.0, 3.0)),
                    "rotation",
                ),
                (
                    "a removed mesh",
                    place(gone, Vec3::ONE, Quat::IDENTITY),
                    "not shape data",
                ),
                (
                    "a null mesh",
                    place(MeshId::default(), Vec3::ONE, Quat::IDENTITY),
                    "null",
                ),
                (
                    "a heightfield as a mesh",
                    place(field, Vec3::ONE, Quat::IDENTITY),
                    "heightfield",
                ),
                (
                    "a mesh as a heightfield",
                    Obstacle::Heightfield {
                        field: mesh,
                        position: Vec3::ZERO,
                        rotation: Quat::IDENTITY,
                        scale: Vec3::ONE,
                        ground: false,
                    },
                    "triangle mesh",
                ),
            ] {
                let e = fx.w.add_obstacle(o).unwrap_err().to_string();
                assert!(e.contains(words), "{case}: {e}");
            }
            assert_eq!(fx.w.obstacles().len(), before, "nothing added");
        }),
        ("add_mesh", |fx| {
            let tri = [Vec3::ZERO, Vec3::X, Vec3::Y];
            let bad: [(&str, Vec<Vec3>, Vec<u32>, &str); 5] = [
                (
                    "NaN vertex",
                    vec![Vec3::ZERO, Vec3::NAN, Vec3::Y],
                    vec![0, 1, 2],
                    "vertices[1]",
                ),
                (
                    "huge vertex",
                    vec![Vec3::ZERO, Vec3::splat(1e30), Vec3::Y],
                    vec![0, 1, 2],
                    "vertices[1]",
                ),
                (
                    "index out of range",
                    tri.to_vec(),
                    vec![0, 1, 7],
                    "indices[2]",
                ),
                ("no triangle", tri.to_vec(), vec![], "no triangle"),
                (
                    "a partial triangle",
                    tri.to_vec(),
                    vec![0, 1, 2, 0],
                    "multiple of 3",
                ),
            ];
            for (case, v, i, field) in bad {
                let e = fx.w.add_mesh(&v, &i).unwrap_err().to_string();
                assert!(e.contains(field), "{case}: {e}");
            }
            let many = vec![0u32; 3 * ((1 << 24) + 1)];
            let e = fx.w.add_mesh(&tri, &many).unwrap_err().to_string();
            assert!(e.contains("2^24"), "{e}");
            assert_eq!(fx.w.mesh_ids().count(), 0, "nothing added");
        }),
        ("add_heightfield", |fx| {
            type Case = (&'static str, u32, u32, f32, Vec<f32>, &'static str);
            let bad: [Case; 6] = [
                ("no cell", 1, 4, 1.0, vec![0.0; 4], "at least 2"),
                (
                    "an infinite height",
                    2,
                    2,
                    1.0,
                    vec![0.0, 0.0, f32::INFINITY, 0.0],
                    "heights[2]",
                ),
                ("a zero cell", 2, 2, 0.0, vec![0.0; 4], "cell_x"),
                ("too few heights", 3, 3, 1.0, vec![0.0; 8], "heights"),
                ("more than 2^26 samples", 8193, 8193, 1.0, vec![], "2^26"),
                (
                    "2 x 2^25 + 1 samples",
                    2,
                    (1 << 25) + 1,
                    1.0,
                    vec![],
                    "2^26",
                ),
            ];
            for (case, c, r, cell, h, field) in bad {
                let e =
                    fx.w.add_heightfield(c, r, cell, 1.0, &h)
                        .unwrap_err()
                        .to_string();
                assert!(e.contains(field), "{case}: {e}");
            }
            assert_eq!(fx.w.mesh_ids().count(), 0, "nothing added");
        }),
        ("remove_mesh", |fx| {
            let m = tetra(&mut fx.w);
            let o =
                fx.w.add_obstacle(Obstacle::Mesh {
                    mesh: m,
                    position: Vec3::ZERO,
                    rotation: Quat::IDENTITY,
                    scale: Vec3::ONE,
                    ground: false,
                })
                .unwrap();
            // A mesh freed while placed: refused, and the placement still works.
            let e = fx.w.remove_mesh(m).unwrap_err().to_string();
            assert!(e.contains("placed by 1"), "{e}");
            assert!(fx.w.mesh(m).is_some());
            refused(fx, "null id", |w| w.remove_mesh(MeshId::default()));
            fx.w.remove_obstacle(o).unwrap();
            fx.w.remove_mesh(m).unwrap();
            refused(fx, "twice", |w| w.remove_mesh(m));
        }),
        ("set_obstacle", |fx| {
            let o = fx.o;
            refused(fx, "bad shape", |w| {
                w.set_obstacle(
                    o,
                    Obstacle::Sphere {
                        centre: Vec3::ZERO,
                        radius: f32::INFINITY,
                    },
                )
            });
            refused(fx, "bad id", |w| {
                w.set_obstacle(
                    ObstacleId {
                        index: 9,
                        generation: 1,
                    },
                    Obstacle::Sphere {
                        centre: Vec3::ZERO,
                        radius: 1.0,
                    },
                )
            });
        }),
        ("remove_obstacle", |fx| {
            refused(fx, "null id", |w| w.remove_obstacle(ObstacleId::default()));
            let o = fx.o;
            fx.w.remove_obstacle(o).unwrap();
            refused(fx, "twice", |w| w.remove_obstacle(o));
        }),
        ("set_observer", |fx| {
            refused(fx, "NaN", |w| w.set_observer(Some(NAN3)))
        }),
        ("set_wake_region", |fx| {
            let f = fx.f;
            refused(fx, "min above max", |w| {
                w.set_wake_region(f, Some((Vec3::ONE, Vec3::ZERO)))
            });
            refused(fx, "NaN", |w| w.set_wake_region(f, Some((NAN3, Vec3::ONE))));
            for id in bad_ids(fx) {
                refused(fx, "bad id", |w| w.set_wake_region(id, None));
            }
        }),
        ("set_relation", |fx| {
            let f = fx.f;
            let g = fx.w.create_flock("g", FlockParams::default()).unwrap();
            refused(fx, "same flock", |w| {
                w.set_relation(f, f, RelationKind::Flee, 1.0, 1.0)
            });
            refused(fx, "radius", |w| {
                w.set_relation(f, g, RelationKind::Flee, -1.0, 1.0)
            });
            refused(fx, "weight", |w| {
                w.set_relation(f, g, RelationKind::Flee, 1.0, f32::INFINITY)
            });
            for id in bad_ids(fx) {
                refused(fx, "bad id", |w| {
                    w.set_relation(f, id, RelationKind::Chase, 1.0, 1.0)
                });
            }
        }),
        ("set_path", |fx| {
            let f = fx.f;
            refused(fx, "NaN point", |w| {
                w.set_path(f, &[Vec3::ZERO, NAN3], false)
            });
            for id in bad_ids(fx) {
                refused(fx, "bad id", |w| w.set_path(id, &[], false));
            }
        }),
        ("set_leader", |fx| {
            let f = fx.f;
            refused(fx, "unknown boid", |w| {
                w.set_leader(f, Some((999, Vec3::ZERO)))
            });
            refused(fx, "NaN offset", |w| w.set_leader(f, Some((0, NAN3))));
            for id in bad_ids(fx) {
                refused(fx, "bad id", |w| w.set_leader(id, None));
            }
        }),
        ("read_orientations", |fx| {
            let f = fx.f;
            let mut short = vec![[0.0f32; 4]; 39];
            assert_eq!(
                fx.w.read_orientations(f, &mut short),
                Err(Error::BufferTooSmall { needed: 40 })
            );
            assert_eq!(
                fx.w.read_orientations(fx.dead, &mut short),
                Err(Error::InvalidId)
            );
        }),
        ("read_matrices", |fx| {
            let f = fx.f;
            let mut m = vec![[0.0f32; 16]; 40];
            assert!(fx.w.read_matrices(f, f32::NAN, &mut m).is_err());
            assert_eq!(
                fx.w.read_matrices(f, 1.0, &mut m[..3]),
                Err(Error::BufferTooSmall { needed: 40 })
            );
            assert_eq!(
                fx.w.read_matrices(fx.dead, 1.0, &mut m),
                Err(Error::InvalidId)
            );
        }),
        ("read_matrices_transformed", |fx| {
            let f = fx.f;
            let mut m = vec![[0.0f32; 16]; 40];
            let id = glam::Mat4::IDENTITY.to_cols_array();
            assert!(
                fx.w.read_matrices_transformed(f, &id, f32::NAN, &mut m)
                    .is_err()
            );
            for bad in [f32::NAN, f32::NEG_INFINITY, 1e10] {
                for k in [0, 9, 15] {
                    let mut t = id;
                    t[k] = bad;
                    assert!(fx.w.read_matrices_transformed(f, &t, 1.0, &mut m).is_err());
                }
            }
            assert_eq!(
                fx.w.read_matrices_transformed(f, &id, 1.0, &mut m[..3]),
                Err(Error::BufferTooSmall { needed: 40 })
            );
            assert_eq!(
                fx.w.read_matrices_transformed(fx.dead, &id, 1.0, &mut m),
                Err(Error::InvalidId)
            );
        }),
        ("step", |fx| {
            for dt in [0.0, -1.0, f32::NAN, f32::INFINITY, 1.5, f32::MAX] {
                refused(fx, "bad dt", |w| w.step(dt));
            }
        }),
        ("step_begin", |fx| {
            for dt in [0.0, -1.0, f32::NAN, f32::INFINITY, 1.5, f32::MAX] {
                refused(fx, "bad dt", |w| w.step_begin(dt));
                assert!(!fx.w.is_stepping(), "a refused begin starts nothing");
            }
            fx.w.step_begin(1.0 / 60.0).unwrap();
            assert_eq!(fx.w.step_begin(1.0 / 60.0), Err(Error::Busy));
            fx.w.step_end().unwrap();
        }),
        ("step_begin_n", |fx| {
            for dt in [0.0, -1.0, f32::NAN, f32::INFINITY, 1.5, f32::MAX] {
                for n in [1, 2, u32::MAX] {
                    refused(fx, "bad dt", |w| w.step_begin_n(dt, n));
                    assert!(!fx.w.is_stepping(), "a refused begin starts nothing");
                }
            }
            refused(fx, "no steps", |w| w.step_begin_n(1.0 / 60.0, 0));
            assert!(!fx.w.is_stepping());
            let steps = fx.w.steps();
            fx.w.step_begin_n(1.0 / 60.0, 2).unwrap();
            assert_eq!(fx.w.step_begin_n(1.0 / 60.0, 2), Err(Error::Busy));
            assert_eq!(fx.w.step_begin(1.0 / 60.0), Err(Error::Busy));
            fx.w.step_end().unwrap();
            assert_eq!(fx.w.steps(), steps + 2);
        }),
        ("step_end", |fx| {
            refused(fx, "without a step in flight", |w| w.step_end());
        }),
        ("load_with_exec", |fx| {
            let good = fx.w.save();
            let exec = std::sync::Arc::new(SerialExec);
            let cfg = WorldConfig::default();
            assert!(World::load_with_exec(&good[..good.len() - 1], cfg, exec.clone()).is_err());
            assert!(World::load_with_exec(b"BOIDSAVE", cfg, exec.clone()).is_err());
            let w = World::load_with_exec(&good, cfg, exec).unwrap();
            assert_eq!(w.state_hash(), fx.w.state_hash());
        }),
        ("with_exec", |_| {
            let here = SimdLevel::supported();
            if let Some(l) = ["scalar", "sse2", "avx2", "avx512", "neon"]
                .iter()
                .map(|n| n.parse::<SimdLevel>().unwrap())
                .find(|l| !here.contains(l))
            {
                let config = WorldConfig {
                    simd: Some(l),
                    ..WorldConfig::default()
                };
                let exec = std::sync::Arc::new(SerialExec);
                assert!(World::with_exec(config, exec).is_err(), "{l} is not here");
            }
        }),
        ("read_positions", |fx| {
            let mut out = vec![Vec3::ZERO; 40];
            assert_eq!(
                fx.w.read_positions(fx.f, &mut out[..39]),
                Err(Error::BufferTooSmall { needed: 40 })
            );
            for id in bad_ids(fx) {
                assert_eq!(fx.w.read_positions(id, &mut out), Err(Error::InvalidId));
            }
        }),
        ("read_velocities", |fx| {
            let mut out = vec![Vec3::ZERO; 40];
            assert_eq!(
                fx.w.read_velocities(fx.f, &mut out[..0]),
                Err(Error::BufferTooSmall { needed: 40 })
            );
            for id in bad_ids(fx) {
                assert_eq!(fx.w.read_velocities(id, &mut out), Err(Error::InvalidId));
            }
        }),
        ("read_ids", |fx| {
            let mut out = vec![0u32; 40];
            assert_eq!(
                fx.w.read_ids(fx.f, &mut out[..1]),
                Err(Error::BufferTooSmall { needed: 40 })
            );
            for id in bad_ids(fx) {
                assert_eq!(fx.w.read_ids(id, &mut out), Err(Error::InvalidId));
            }
        }),
    ]
}
