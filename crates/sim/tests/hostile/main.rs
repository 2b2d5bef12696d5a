//! The hostile-input matrix of the Rust API: one row per fallible public method of `World`
//! (a test fails when `src/world/` gains a `pub fn` without a row), each called with every bad
//! input that applies; every refusal must leave the state hash unchanged.

mod scene;

use boids_sim::*;

struct Fx {
    w: World,
    f: FlockId,
    dead: FlockId,
    o: ObstacleId,
}

fn fixture() -> Fx {
    let mut w = World::new(WorldConfig {
        seed: 5,
        threads: 1,
        ..WorldConfig::default()
    })
    .unwrap();
    let f = w.create_flock("f", FlockParams::default()).unwrap();
    w.spawn(f, 40, &Spawn::default()).unwrap();
    let dead = w.create_flock("dead", FlockParams::default()).unwrap();
    w.destroy_flock(dead).unwrap();
    let o = w
        .add_obstacle(Obstacle::Sphere {
            centre: Vec3::splat(20.0),
            radius: 1.0,
        })
        .unwrap();
    Fx { w, f, dead, o }
}

/// Every bad flock id for `fx`.
fn bad_ids(fx: &Fx) -> [FlockId; 3] {
    [
        FlockId::default(),
        fx.dead,
        FlockId {
            index: 77,
            generation: 1,
        },
    ]
}

/// `call` must fail and leave the state unchanged.
fn refused<T: std::fmt::Debug>(
    fx: &mut Fx,
    case: &str,
    call: impl FnOnce(&mut World) -> Result<T, Error>,
) {
    let before = fx.w.state_hash();
    let r = call(&mut fx.w);
    assert!(r.is_err(), "{case}: accepted: {r:?}");
    assert_eq!(fx.w.state_hash(), before, "{case}: state changed");
}

const NAN3: Vec3 = Vec3::new(f32::NAN, 0.0, 0.0);

/// A tetrahedron added to `w`.
fn tetra(w: &mut World) -> MeshId {
    w.add_mesh(
        &[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z],
        &[0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3],
    )
    .unwrap()
}

/// A save file with its CBOR payload edited by `edit` and a header (length, FNV-1a checksum)
/// that matches it again: a well-formed file whose content is bad.
fn with_payload(save: &[u8], edit: impl FnOnce(&mut ciborium::Value)) -> Vec<u8> {
    let mut v: ciborium::Value = ciborium::from_reader(&save[28..]).unwrap();
    edit(&mut v);
    let mut payload = Vec::new();
    ciborium::into_writer(&v, &mut payload).unwrap();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in &payload {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    let mut out = save[..12].to_vec();
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&h.to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// The value of `key` in a CBOR map.
fn field<'a>(v: &'a mut ciborium::Value, key: &str) -> &'a mut ciborium::Value {
    let ciborium::Value::Map(m) = v else {
        panic!("not a map")
    };
    &mut m
        .iter_mut()
        .find(|(k, _)| k.as_text() == Some(key))
        .unwrap_or_else(|| panic!("no {key}"))
        .1
}

type Row = (&'static str, fn(&mut Fx));

fn rows() -> Vec<Row> {
    let mut rows: Vec<Row> = vec![
        ("new", |_| {
            assert!(
                World::new(WorldConfig {
                    seed: 0,
                    threads: 5000,
                    ..WorldConfig::default()
                })
                .is_err()
            );
            // A kernel this CPU cannot run is refused with the reason, never run (SIGILL).
            for level in boids_sim::SimdLevel::supported() {
                assert!(
                    World::new(WorldConfig {
                        simd: Some(level),
                        ..WorldConfig::default()
                    })
                    .is_ok()
                );
            }
            if !boids_sim::SimdLevel::Avx512.is_supported() {
                let e = World::new(WorldConfig {
                    simd: Some(boids_sim::SimdLevel::Avx512),
                    ..WorldConfig::default()
                })
                .err()
                .expect("refused");
                assert!(e.to_string().contains("avx512"), "{e}");
            }
        }),
        ("create_flock", |fx| {
            let bad = FlockParams {
                max_speed: f32::NAN,
                ..FlockParams::default()
            };
            refused(fx, "NaN param", |w| w.create_flock("x", bad));
            refused(fx, "empty name", |w| {
                w.create_flock("", FlockParams::default())
            });
            refused(fx, "duplicate", |w| {
                w.create_flock("f", FlockParams::default())
            });
        }),
        ("write_states", |fx| {
            let f = fx.f;
            let good = fx.w.flock(f).unwrap().states();
            for id in bad_ids(fx) {
                refused(fx, "bad id", |w| w.write_states(id, &good));
            }
            refused(fx, "short", |w| w.write_states(f, &good[1..]));
            let edits: [fn(&mut BoidState); 5] = [
                |b| b.position = NAN3,
                |b| b.velocity = Vec3::splat(2.0e9),
                |b| b.heading = Vec3::ZERO,
                |b| b.heading = Vec3::new(3.0, 0.0, 0.0),
                |b| b.position = Vec3::new(0.0, f32::INFINITY, 0.0),
            ];
            for edit in edits {
                let mut bad = good.clone();
                edit(&mut bad[7]);
                refused(fx, "bad state", |w| w.write_states(f, &bad));
            }
            let before = fx.w.state_hash();
            fx.w.write_states(f, &good).unwrap();
            assert_eq!(fx.w.state_hash(), before, "read -> write changes nothing");
        }),
        ("load", |fx| {
            let good = fx.w.save();
            let cfg = WorldConfig::default();
            for bad in [
                &b""[..],
                &good[..20],
                &good[..good.len() - 3],
                b"BOIDSAVE and junk",
            ] {
                assert!(World::load(bad, cfg).is_err());
            }
            let mut flipped = good.clone();
            let mid = flipped.len() / 2;
            flipped[mid] ^= 1;
            assert!(World::load(&flipped, cfg).is_err());
            assert!(
                World::load(
                    &good,
                    WorldConfig {
                        threads: 5000,
                        ..cfg
                    }
                )
                .is_err()
            );
            // A well-formed file (checksum and all) whose relation names a flock generation
            // the file does not hold: InvalidArgument naming the save, never InvalidId.
            let mut w = World::new(cfg).unwrap();
            let a = w.create_flock("a", FlockParams::default()).unwrap();
            let b = w.create_flock("b", FlockParams::default()).unwrap();
            w.set_relation(a, b, RelationKind::Flee, 2.0, 1.0).unwrap();
            let bad = with_payload(&w.save(), |v| {
                let rel = field(v, "relations");
                let ciborium::Value::Array(rels) = rel else {
                    panic!("relations")
                };
                let ciborium::Value::Array(to) = field(&mut rels[0], "to") else {
                    panic!("to")
                };
                to[1] = ciborium::Value::Integer(9u32.into()); // generation 9: not in the file
            });
            match World::load(&bad, cfg) {
                Err(Error::InvalidArgument(m)) => {
                    assert!(
                        m.contains("not a loadable boids save") && m.contains("relation"),
                        "{m}"
                    );
                }
                other => panic!("a relation to a flock not in the file: {:?}", other.err()),
            }
        }),
        ("destroy_flock", |fx| {
            for id in bad_ids(fx) {
                refused(fx, "bad id", |w| w.destroy_flock(id));
            }
        }),
        ("set_params", |fx| {
            let f = fx.f;
            for edit in [
                |p: &mut FlockParams| p.perception_radius = -1.0,
                |p: &mut FlockParams| p.fov_half_angle_deg = f32::INFINITY,
                |p: &mut FlockParams| p.weights.cohesion = f32::NAN,
                |p: &mut FlockParams| p.update_every = 0,
                |p: &mut FlockParams| p.rule_probability = 2.0,
                |p: &mut FlockParams| {
                    p.bounds = Bounds::Wrap {
                        min: Vec3::ONE,
                        max: Vec3::ZERO,
                    }
                },
            ] {
                let mut p = FlockParams::default();
                edit(&mut p);
                refused(fx, "bad param", |w| w.set_params(f, p));
            }
            for id in bad_ids(fx) {
                refused(fx, "bad id", |w| w.set_params(id, FlockParams::default()));
            }
        }),
        ("set_flow_cell_size", |fx| {
            for bad in [f32::NAN, -1.0, f32::INFINITY, f32::NEG_INFINITY, -0.0001] {
                refused(fx, "bad cell size", |w| w.set_flow_cell_size(bad));
            }
        }),
        ("ground_height", |fx| {
            for (x, z) in [(f32::NAN, 0.0), (0.0, f32::INFINITY), (-2e9, 0.0)] {
                refused(fx, "bad point", |w| w.ground_height(x, z));
            }
        }),
        ("set_flow_budget", |fx| {
            // Every u32 is a budget (0: no limit); only a step in flight refuses it.
            fx.w.step_begin(1.0 / 60.0).unwrap();
            let r = fx.w.set_flow_budget(5);
            assert!(r.is_err(), "set while a step is in flight: {r:?}");
            fx.w.step_end().unwrap();
            assert_eq!(fx.w.flow_budget(), 0, "a refused budget changes nothing");
        }),
        ("set_target", |fx| {
            let f = fx.f;
            refused(fx, "no target params", |w| w.set_target(f, Vec3::ZERO));
            for id in bad_ids(fx) {
                refused(fx, "bad id", |w| w.set_target(id, Vec3::ZERO));
            }
        }),
        ("spawn", |fx| {
            let f = fx.f;
            refused(fx, "huge", |w| w.spawn(f, usize::MAX, &Spawn::default()));
            refused(fx, "over the limit", |w| {
                w.spawn(f, MAX_BOIDS_PER_FLOCK, &Spawn::default())
            });
            refused(fx, "speeds", |w| {
                w.spawn(
                    f,
                    1,
                    &Spawn {
                        min_speed: 3.0,
                        max_speed: 1.0,
                        ..Spawn::default()
                    },
                )
            });
            refused(fx, "NaN box", |w| {
                w.spawn(
                    f,
                    1,
                    &Spawn {
                        shape: SpawnShape::Box {
                            min: NAN3,
                            max: Vec3::ONE,
                        },
                        ..Spawn::default()
                    },
                )
            });
            refused(fx, "negative radius", |w| {
                w.spawn(
                    f,
                    1,
                    &Spawn {
                        shape: SpawnShape::Sphere {
                            centre: Vec3::ZERO,
                            radius: -1.0,
                        },
                        ..Spawn::default()
                    },
                )
            });
            for id in bad_ids(fx) {
                refused(fx, "bad id", |w| w.spawn(id, 1, &Spawn::default()));
            }
        }),
        ("add_boids", |fx| {
            let f = fx.f;
            refused(fx, "lengths differ", |w| w.add_boids(f, &[Vec3::ZERO], &[]));
            refused(fx, "NaN", |w| w.add_boids(f, &[NAN3], &[Vec3::ZERO]));
            refused(fx, "absurd", |w| {
                w.add_boids(f, &[Vec3::splat(1e30)], &[Vec3::ZERO])
            });
            for id in bad_ids(fx) {
                refused(fx, "bad id", |w| {
                    w.add_boids(id, &[Vec3::ZERO], &[Vec3::ZERO])
                });
            }
        }),
        ("remove_boids", |fx| {
            let f = fx.f;
            refused(fx, "unknown id", |w| w.remove_boids(f, &[0, 4000]));
            for id in bad_ids(fx) {
                refused(fx, "bad id", |w| w.remove_boids(id, &[0]));
            }
        }),
        ("write_state", |fx| {
            let f = fx.f;
            refused(fx, "short", |w| {
                w.write_state(f, Some(&[Vec3::ZERO; 39]), None)
            });
            let mut v = vec![Vec3::ZERO; 40];
            v[7] = NAN3;
            refused(fx, "NaN velocity", |w| w.write_state(f, None, Some(&v)));
            for id in bad_ids(fx) {
                refused(fx, "bad id", |w| w.write_state(id, None, None));
            }
        }),
        ("restore", |fx| {
            let snap = fx.w.flock(fx.f).unwrap().snapshot();
            for id in bad_ids(fx) {
                refused(fx, "bad id", |w| w.restore(id, &snap));
            }
        }),
        ("resize_flock", |fx| {
            let f = fx.f;
            refused(fx, "huge", |w| {
                w.resize_flock(f, usize::MAX, &Spawn::default())
            });
            for id in bad_ids(fx) {
                refused(fx, "bad id", |w| w.resize_flock(id, 3, &Spawn::default()));
            }
        }),
    ];
    rows.extend(scene::rows());
    rows
}

/// Methods that cannot fail (getters, infallible actions) need no row.
const INFALLIBLE: &[&str] = &[
    "save",
    "flow_cell_size",
    "flow_budget",
    "flow_field",
    "flow_arrows",
    "mesh",
    "mesh_ids",
    "placed_obstacles",
    "step_wait",
    "seed",
    "steps",
    "threads",
    "simd",
    "is_valid",
    "flock",
    "find_flock",
    "flock_ids",
    "destroy_all",
    "obstacle",
    "obstacles",
    "obstacle_ids",
    "observer",
    "relations",
    "in_pool",
    "build_indices",
    "state_hash",
    "is_stepping",
];

#[test]
fn every_fallible_world_method_has_a_row() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/world");
    // Every file of the folder and of its subfolders (world/flow/saved.rs).
    fn read_all(dir: &std::path::Path, src: &mut String) {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                read_all(&path, src);
            } else {
                *src += &std::fs::read_to_string(&path).unwrap();
            }
        }
    }
    let mut src = String::new();
    read_all(std::path::Path::new(dir), &mut src);
    assert!(src.contains("pub fn step("), "read every file of {dir}");
    let names: Vec<&str> = rows().iter().map(|r| r.0).collect();
    for line in src.lines() {
        if let Some(rest) = line.trim().strip_prefix("pub fn ") {
            let name = rest.split(['(', '<']).next().unwrap();
            assert!(
                names.contains(&name) || INFALLIBLE.contains(&name),
                "World::{name} has no row in the Rust hostile-input matrix"
            );
        }
    }
}

#[test]
fn hostile_input_matrix_of_the_rust_api() {
    for (name, row) in rows() {
        let mut fx = fixture();
        row(&mut fx);
        fx.w.step(1.0 / 60.0)
            .unwrap_or_else(|e| panic!("{name}: world unusable after: {e}"));
        assert!(
            fx.w.flock(fx.f)
                .unwrap()
                .positions()
                .iter()
                .all(|p| p.is_finite()),
            "{name}"
        );
    }
}

/// Every refusal of a too-large coordinate, length, speed or weight states the one limit.
#[test]
fn every_refused_magnitude_states_the_limit() {
    let mut fx = fixture();
    let f = fx.f;
    let big = 2.0 * MAX_MAGNITUDE;
    let far = Vec3::new(0.0, big, 0.0);
    let p = FlockParams {
        perception_radius: big,
        ..FlockParams::default()
    };
    let w = &mut fx.w;
    let errors: Vec<(&str, Error)> = vec![
        ("params", w.set_params(f, p).unwrap_err()),
        ("add", w.add_boids(f, &[far], &[Vec3::X]).unwrap_err()),
        (
            "write",
            w.write_state(f, Some(&vec![far; 40]), None).unwrap_err(),
        ),
        (
            "path",
            w.set_path(f, &[Vec3::ZERO, far], false).unwrap_err(),
        ),
        (
            "spawn radius",
            w.spawn(
                f,
                1,
                &Spawn {
                    shape: SpawnShape::Sphere {
                        centre: Vec3::ZERO,
                        radius: big,
                    },
                    ..Spawn::default()
                },
            )
            .unwrap_err(),
        ),
        (
            // Centre and radius each inside the limit, the ball reaching past it (found by
            // the `calls` fuzz target: the spawned boids read back where writes refuse them).
            "spawn reach",
            w.spawn(
                f,
                1,
                &Spawn {
                    shape: SpawnShape::Sphere {
                        centre: Vec3::splat(MAX_MAGNITUDE),
                        radius: MAX_MAGNITUDE,
                    },
                    ..Spawn::default()
                },
            )
            .unwrap_err(),
        ),
        (
            "spawn speed",
            w.spawn(
                f,
                1,
                &Spawn {
                    max_speed: big,
                    ..Spawn::default()
                },
            )
            .unwrap_err(),
        ),
        (
            "obstacle",
            w.add_obstacle(Obstacle::Sphere {
                centre: far,
                radius: 1.0,
            })
            .unwrap_err(),
        ),
    ];
    for (what, e) in errors {
        let msg = e.to_string();
        assert!(msg.contains("1e9"), "{what}: {msg}");
        if !["add", "write", "path"].contains(&what) {
            assert!(
                !msg.contains("[0]"),
                "{what}: a single point is not an array: {msg}"
            );
        }
    }
}
