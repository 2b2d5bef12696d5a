//! The `herd` preset against an oracle in double precision, after every one of 600 steps: each
//! sheep stands on the hills at its pivot height (the heightfield's triangles, taken from its
//! samples with the documented diagonal), on ground no steeper than its 35°, its body clear of
//! every rock (the meshes' triangles) and fence board, and no two sheep overlap by more than 1%
//! of the radius. Also: the sheep never cross the ridge or enter the ravine, and the dog is as
//! grounded as they are, and so are two flocks of walkers with the sheep's settings that seek
//! targets straight across the ridge and the ravine: they reach the walls and stop there.

#[path = "support/oracle.rs"]
mod oracle;

use boids_core::fmath::Order;
use boids_core::geometry::{ShapeData, Transform};
use boids_sim::scene::{FlockSpec, MeshSpec};
use boids_sim::{
    FlockId, Obstacle, Spawn, SpawnShape, Target, Vec3, Weights, World, WorldConfig, presets,
};
use oracle::{V, cross, distance, dot, inside, sub, v};

const DT: f32 = 1.0 / 60.0;

struct Rock {
    triangles: Vec<[V; 3]>,
    centre: V,
    reach: f64,
}

struct Oracle {
    /// The hills: heights, samples per side, spacing, corner.
    heights: Vec<f64>,
    samples: usize,
    cell: f64,
    corner: V,
    rocks: Vec<Rock>,
    boards: Vec<(Vec3, Vec3)>,
}

impl Oracle {
    fn new(scene: &boids_sim::scene::Scene) -> Oracle {
        let shapes: Vec<_> = scene.mesh.iter().map(|m| m.build().unwrap()).collect();
        let mut o = Oracle {
            heights: Vec::new(),
            samples: 0,
            cell: 0.0,
            corner: [0.0; 3],
            rocks: Vec::new(),
            boards: Vec::new(),
        };
        for ob in &scene.obstacle {
            match *ob {
                Obstacle::Heightfield {
                    field,
                    position,
                    ground,
                    ..
                } => {
                    assert!(ground, "the hills are ground");
                    let ShapeData::Heightfield(g) = shapes[field.index as usize].data() else {
                        panic!("not a heightfield")
                    };
                    assert!(matches!(scene.mesh[0], MeshSpec::Terrain { .. }));
                    o.heights = g.heights.iter().map(|&h| f64::from(h)).collect();
                    o.samples = g.columns as usize;
                    o.cell = f64::from(g.cell_x);
                    o.corner = v(position);
                }
                Obstacle::Mesh {
                    mesh,
                    position,
                    rotation,
                    scale,
                    ground,
                } => {
                    assert!(!ground, "rocks are walls");
                    let xf = Transform::new(position, rotation, scale);
                    let (verts, tris) = shapes[mesh.index as usize].mesh_data().unwrap();
                    let world: Vec<V> = verts.iter().map(|&p| v(xf.point(p))).collect();
                    let centre = v(position);
                    let reach = world
                        .iter()
                        .map(|&p| dot(sub(p, centre), sub(p, centre)).sqrt())
                        .fold(0.0, f64::at_least);
                    o.rocks.push(Rock {
                        triangles: tris.iter().map(|t| t.map(|k| world[k as usize])).collect(),
                        centre,
                        reach,
                    });
                }
                Obstacle::Box { min, max } => o.boards.push((min, max)),
                ref other => panic!("unexpected obstacle {other:?}"),
            }
        }
        assert!(o.samples > 0 && o.rocks.len() >= 8 && o.boards.len() >= 10);
        o
    }

    /// The hills' surfaces under `(x, z)`: (height, normal's y) of each triangle of the cells
    /// around whose shadow holds the point (within a hair: a point on an edge has two).
    fn under(&self, x: f64, z: f64) -> Vec<(f64, f64)> {
        let (fx, fz) = (
            (x - self.corner[0]) / self.cell,
            (z - self.corner[2]) / self.cell,
        );
        let n = self.samples;
        let mut out = Vec::new();
        let corner = |i: usize, j: usize| {
            [
                self.corner[0] + i as f64 * self.cell,
                self.corner[1] + self.heights[j * n + i],
                self.corner[2] + j as f64 * self.cell,
            ]
        };
        for j in (fz.floor() as i64 - 1).max(0)..=(fz.floor() as i64 + 1).min(n as i64 - 2) {
            for i in (fx.floor() as i64 - 1).max(0)..=(fx.floor() as i64 + 1).min(n as i64 - 2) {
                let (i, j) = (i as usize, j as usize);
                let (a, b, c, d) = (
                    corner(i, j),
                    corner(i + 1, j),
                    corner(i + 1, j + 1),
                    corner(i, j + 1),
                );
                // The diagonal from sample (i, j) to (i + 1, j + 1).
                for [p, q, r] in [[a, b, c], [a, c, d]] {
                    let (e1, e2) = (sub(q, p), sub(r, p));
                    let det = e1[0] * e2[2] - e1[2] * e2[0];
                    let (px, pz) = (x - p[0], z - p[2]);
                    let u = (px * e2[2] - pz * e2[0]) / det;
                    let w = (e1[0] * pz - e1[2] * px) / det;
                    let tol = 1e-6;
                    if u < -tol || w < -tol || u + w > 1.0 + tol {
                        continue;
                    }
                    let nrm = cross(e1, e2);
                    out.push((
                        p[1] + u * e1[1] + w * e2[1],
                        nrm[1].abs() / dot(nrm, nrm).sqrt(),
                    ));
                }
            }
        }
        out
    }

    /// Checks one grounded flock after `step`.
    fn check(&self, world: &World, id: FlockId, step: usize) {
        let f = world.flock(id).unwrap();
        let p = f.params();
        let g = p.ground.expect("grounded");
        let r = f64::from(p.body_radius);
        let cos = f64::from(g.max_slope_deg).to_radians().cos();
        let pos = f.positions();
        for (b, &q) in pos.iter().enumerate() {
            let at = v(q);
            let feet = at[1] - f64::from(g.pivot_height);
            let surfaces = self.under(at[0], at[2]);
            let stood: Vec<_> = surfaces
                .iter()
                .filter(|(h, _)| (h - feet).abs() <= 1e-3)
                .collect();
            assert!(
                !stood.is_empty(),
                "step {step}, {} {b} at {q}: not on the hills ({surfaces:?})",
                f.name()
            );
            assert!(
                stood.iter().any(|(_, ny)| *ny >= cos - 1e-4),
                "step {step}, {} {b} at {q}: on ground steeper than {}° ({stood:?})",
                f.name(),
                g.max_slope_deg
            );
            for rock in &self.rocks {
                let c = sub(at, rock.centre);
                if dot(c, c).sqrt() > rock.reach + r {
                    continue;
                }
                let within = inside(at, &rock.triangles);
                let near = rock
                    .triangles
                    .iter()
                    .map(|t| distance(at, *t))
                    .fold(f64::INFINITY, f64::at_most);
                assert!(
                    !within && near >= r * 0.99 - 1e-3,
                    "step {step}, {} {b} at {q}: body {near} from a rock (inside: {within})",
                    f.name()
                );
            }
            for &(lo, hi) in &self.boards {
                let (lo, hi) = (v(lo), v(hi));
                let out2: f64 = (0..3)
                    .map(|k| {
                        (lo[k] - at[k])
                            .at_least(at[k] - hi[k])
                            .at_least(0.0)
                            .powi(2)
                    })
                    .sum();
                assert!(
                    out2.sqrt() >= r * 0.99 - 1e-3,
                    "step {step}, {} {b} at {q}: body {} from a fence board",
                    f.name(),
                    out2.sqrt()
                );
            }
        }
        // Pairs, by a sweep along x.
        let mut order: Vec<usize> = (0..pos.len()).collect();
        order.sort_by(|&a, &b| pos[a].x.total_cmp(&pos[b].x));
        for (k, &i) in order.iter().enumerate() {
            for &j in &order[k + 1..] {
                if f64::from(pos[j].x) - f64::from(pos[i].x) >= 2.0 * r {
                    break;
                }
                let d = sub(v(pos[i]), v(pos[j]));
                let d = dot(d, d).sqrt();
                assert!(
                    d >= 2.0 * r * (1.0 - 0.005),
                    "step {step}, {}: bodies {i} and {j} overlap by {} of the radius",
                    f.name(),
                    (2.0 * r - d) / r
                );
            }
        }
    }
}

#[test]
fn the_herd_stands_on_walkable_ground_clear_of_rocks_fence_and_each_other_for_600_steps() {
    let mut scene = presets::get("herd").unwrap().scene("herd");
    // The ridge's crest runs along x = 0.4 of the half width, the ravine along z = 0.64 of it
    // (MeshSpec::Terrain's layout): the sheep start west of the one and south of the other.
    let half = 80.0;
    let ridge_x = 0.4 * half;
    let ravine_z = 0.64 * half;
    // Walkers with the sheep's settings, started just short of each wall and seeking a target
    // straight across it: without the walls they would be over in a few seconds.
    let sheep_params = scene.flock[0].params;
    // Spawned at the sheep's height, above every hill: the first step stands them on the ground.
    let SpawnShape::Box { min: above, .. } = scene.flock[0].spawn.shape else {
        panic!("the sheep spawn in a box")
    };
    let walkers = |name: &str, min: Vec3, max: Vec3, goal: Vec3| {
        let mut params = sheep_params;
        params.target = Some(Target {
            point: goal,
            avoid_distance: 0.0,
        });
        params.weights = Weights {
            target: 3.0,
            ..params.weights
        };
        FlockSpec {
            spawn: Spawn {
                shape: SpawnShape::Box { min, max },
                min_speed: 0.0,
                max_speed: 0.5,
                direction: None,
            },
            params,
            ..FlockSpec::new(name, 60)
        }
    };
    let y = above.y;
    scene.flock.push(walkers(
        "to-the-ridge",
        Vec3::new(ridge_x - 9.0, y, -0.6 * half),
        Vec3::new(ridge_x - 6.0, y, 0.2 * half),
        Vec3::new(ridge_x + 25.0, 0.0, -0.2 * half),
    ));
    scene.flock.push(walkers(
        "to-the-ravine",
        Vec3::new(-0.6 * half, y, ravine_z - 9.0),
        Vec3::new(0.1 * half, y, ravine_z - 6.0),
        Vec3::new(-0.25 * half, 0.0, ravine_z + 20.0),
    ));
    let oracle = Oracle::new(&scene);
    let mut world = World::new(WorldConfig {
        seed: 1,
        threads: 2,
        ..WorldConfig::default()
    })
    .unwrap();
    let ids = scene.add_to(&mut world).unwrap();
    let (sheep, dog, birds) = (ids[0], ids[1], ids[2]);
    let (to_ridge, to_ravine) = (ids[3], ids[4]);
    assert_eq!(world.flock(sheep).unwrap().len(), 2000);
    assert!(world.flock(birds).unwrap().params().ground.is_none());
    let (mut nearest_ridge, mut nearest_ravine) = (f32::INFINITY, f32::INFINITY);
    let mut travelled = 0.0;
    for step in 0..600 {
        let before = world.flock(sheep).unwrap().positions().to_vec();
        world.step(DT).unwrap();
        oracle.check(&world, sheep, step);
        oracle.check(&world, dog, step);
        oracle.check(&world, to_ridge, step);
        oracle.check(&world, to_ravine, step);
        let after = world.flock(sheep).unwrap().positions();
        let flocks = [sheep, to_ridge, to_ravine];
        for q in flocks
            .iter()
            .flat_map(|&f| world.flock(f).unwrap().positions())
        {
            // The ridge stands from z = -0.7 to 0.3 of the half width: north or south of it a
            // sheep may walk round, but never over its crest.
            if (-0.7 * half..0.3 * half).contains(&q.z) {
                assert!(
                    q.x < ridge_x,
                    "step {step}: a sheep on or past the ridge at {q}"
                );
            }
            if (-0.7 * half..0.2 * half).contains(&q.x) {
                assert!(
                    (q.z - ravine_z).abs() > 3.0,
                    "step {step}: a sheep in the ravine at {q}"
                );
            }
        }
        for q in world.flock(to_ridge).unwrap().positions() {
            nearest_ridge = nearest_ridge.at_most(ridge_x - q.x);
        }
        for q in world.flock(to_ravine).unwrap().positions() {
            nearest_ravine = nearest_ravine.at_most(ravine_z - q.z);
        }
        travelled += before
            .iter()
            .zip(after)
            .map(|(a, b)| f64::from((*a - *b).length()))
            .sum::<f64>();
    }
    // They walked: more than 2 units each on average in 10 s.
    assert!(travelled / 2000.0 > 2.0, "{}", travelled / 2000.0);
    // The walkers went up to the walls: the ridge's foot is 3 from its crest, the ravine's lip
    // 3 from its middle.
    assert!(
        nearest_ridge < 4.5,
        "no walker came near the ridge: {nearest_ridge}"
    );
    assert!(
        nearest_ravine < 4.5,
        "no walker came near the ravine: {nearest_ravine}"
    );
}

/// The herd benchmark's sheep, more than run on one thread (`PARALLEL_MIN`): walking with
/// bodies, the step and the body pass's parts that run on the workers give the same bits on
/// one and two threads.
#[test]
fn a_crowd_above_the_parallel_threshold_gives_the_same_bits_on_one_and_two_threads() {
    let n = boids_sim::PARALLEL_MIN + 1000;
    let hashes: Vec<u64> = [1, 2]
        .iter()
        .map(|&threads| {
            let config = WorldConfig {
                seed: 3,
                threads,
                ..WorldConfig::default()
            };
            let (mut w, id) = boids_sim::builtin::herd_world(
                n,
                config,
                boids_sim::IndexKind::Grid,
                boids_sim::builtin::HerdMode::Bodies,
            )
            .unwrap();
            assert_eq!(w.flock(id).unwrap().len(), n);
            assert!(w.flock(id).unwrap().params().body_radius > 0.0);
            for _ in 0..20 {
                w.step(DT).unwrap();
            }
            w.state_hash()
        })
        .collect();
    assert_eq!(hashes[0], hashes[1]);
}
