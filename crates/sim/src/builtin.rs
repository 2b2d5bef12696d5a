//! Built-in worlds: the benchmark scenarios everyone compares on (`bench`, `torus2d`,
//! `clustered`, `reef`; see `shared/design/bench-scenario.md` and the README) and the default school of
//! `boids run`.

use crate::flock::{Spawn, SpawnShape};
use crate::scene::{FlockSpec, Scene};
use crate::world::{FlockId, World, WorldConfig};
use crate::{
    AlignmentMode, Bounds, Error, FlockParams, IndexKind, ObstacleAvoidance, PlaneLock,
    SeparationMode, Weights,
};
use boids_core::fmath::Order;
use boids_core::{BoidState, Vec3, fmath};

/// Mean number of others within radius 1 the benchmark's density gives (far from walls).
pub const BENCH_NEIGHBOURS: f32 = 25.0;

/// Edge of the benchmark cube for `n` boids: `(n / ρ)^(1/3)` with `ρ = 25 / (4/3 π)`.
pub fn bench_cube_side(n: usize) -> f32 {
    let rho = f64::from(BENCH_NEIGHBOURS) / (4.0 / 3.0 * std::f64::consts::PI);
    fmath::cbrt64(n as f64 / rho) as f32
}

/// The fish-tank preset's rules in the benchmark cube `[0, side]³`.
pub fn bench_params(side: f32, index: IndexKind) -> FlockParams {
    FlockParams {
        bounds: Bounds::SoftBox {
            min: Vec3::ZERO,
            max: Vec3::splat(side),
            distance: 3.0,
        },
        index,
        ..FlockParams::default()
    }
}

/// The benchmark scenario (see `shared/design/bench-scenario.md` and the README): `n` boids
/// uniform in the cube, random directions at speeds 2..5, the fish-tank preset's rules, radius 1, 90° field
/// of view, dt 1/60.
pub fn bench_world(
    n: usize,
    config: WorldConfig,
    index: IndexKind,
) -> Result<(World, FlockId), Error> {
    let mut world = World::new(config)?;
    let id = bench_flock(&mut world, n, index)?;
    Ok((world, id))
}

/// The benchmark scenario's flock of `n` boids, in `world` (any world: one on a host's job
/// system too).
pub fn bench_flock(world: &mut World, n: usize, index: IndexKind) -> Result<FlockId, Error> {
    let side = bench_cube_side(n);
    let id = world.create_flock("bench", bench_params(side, index))?;
    world.spawn(
        id,
        n,
        &Spawn {
            shape: SpawnShape::Box {
                min: Vec3::ZERO,
                max: Vec3::splat(side),
            },
            min_speed: 2.0,
            max_speed: 5.0,
            direction: None,
        },
    )?;
    Ok(id)
}

/// Side of the `torus2d` field for `n` agents: `floor(sqrt(10 n))` (0.1 agents per unit²).
pub fn torus2d_side(n: usize) -> f32 {
    (10.0 * n as f64).sqrt().floor().at_least(1.0) as f32
}

/// The time step of `torus2d`: one unit of time a step (agents move 0.7 units a step).
pub const TORUS2D_DT: f32 = 1.0;

/// The rules of `torus2d`, krABMaga's "Flockers" load: a 2-D torus of side `side`, radius 10,
/// no field-of-view limit, cohesion 0.08, mean-velocity alignment 0.02, inverse-square
/// separation over the whole radius 3.0, a near-fresh random wander direction each step 0.055,
/// every agent at exactly 0.7 units a step.
pub fn torus2d_params(side: f32, index: IndexKind) -> FlockParams {
    FlockParams {
        perception_radius: 10.0,
        fov_half_angle_deg: 360.0,
        separation_radius: 10.0,
        separation: SeparationMode::InverseSquare,
        alignment: AlignmentMode::MeanVelocity,
        weights: Weights {
            separation: 3.0,
            alignment: 0.02,
            cohesion: 0.08,
            wander: 0.055,
            bounds: 0.0,
            obstacles: 0.0,
            target: 0.0,
            target_avoid: 0.0,
            path: 0.0,
        },
        min_speed: 0.7,
        max_speed: 0.7,
        bounds: Bounds::Wrap {
            min: Vec3::new(0.0, 0.0, -1.0),
            max: Vec3::new(side, side, 1.0),
        },
        plane: PlaneLock::XY,
        obstacle_avoidance: ObstacleAvoidance::None,
        wander_radius: 1.0,
        wander_distance: 0.0,
        wander_jitter: 1000.0,
        index,
        ..FlockParams::default()
    }
}

/// The `torus2d` scenario: `n` agents uniform on the torus, random directions in the plane.
pub fn torus2d_world(
    n: usize,
    config: WorldConfig,
    index: IndexKind,
) -> Result<(World, FlockId), Error> {
    let side = torus2d_side(n);
    let mut world = World::new(config)?;
    let id = world.create_flock("torus2d", torus2d_params(side, index))?;
    world.spawn(
        id,
        n,
        &Spawn {
            shape: SpawnShape::Box {
                min: Vec3::ZERO,
                max: Vec3::new(side, side, 0.0),
            },
            min_speed: 0.7,
            max_speed: 0.7,
            direction: None,
        },
    )?;
    Ok((world, id))
}

/// Clusters of the `clustered` scenario.
pub const CLUSTERS: usize = 32;
/// Radius of each cluster (the perception radius is 1; a boid has about 25 others within it
/// at 100,000 boids).
pub const CLUSTER_RADIUS: f32 = 5.0;
/// Edge of the cube the clusters' centres are drawn from.
pub const CLUSTER_SPREAD: f32 = 1000.0;

/// The `clustered` scenario: the benchmark's rules, but `n` boids in [`CLUSTERS`] balls of
/// radius [`CLUSTER_RADIUS`] scattered over a cube of edge [`CLUSTER_SPREAD`]. Nearly every cell
/// of a uniform grid over that cube is empty and a few hold thousands: the k-d tree's job.
pub fn clustered_world(
    n: usize,
    config: WorldConfig,
    index: IndexKind,
) -> Result<(World, FlockId), Error> {
    let mut world = World::new(config)?;
    let id = world.create_flock("clustered", bench_params(CLUSTER_SPREAD, index))?;
    let mut rng = boids_core::Rng::keyed(config.seed, u32::MAX, 0, 7);
    let margin = CLUSTER_RADIUS + 5.0;
    for k in 0..CLUSTERS {
        let centre = Vec3::new(
            rng.range(margin, CLUSTER_SPREAD - margin),
            rng.range(margin, CLUSTER_SPREAD - margin),
            rng.range(margin, CLUSTER_SPREAD - margin),
        );
        let count = n / CLUSTERS + usize::from(k < n % CLUSTERS);
        world.spawn(
            id,
            count,
            &Spawn {
                shape: SpawnShape::Sphere {
                    centre,
                    radius: CLUSTER_RADIUS,
                },
                min_speed: 2.0,
                max_speed: 5.0,
                direction: None,
            },
        )?;
    }
    Ok((world, id))
}

/// The default 3-D school of `boids run` as a scene: the fish-tank rules with a wider view
/// (radius 2.5, 135° half-angle), stronger alignment and weaker cohesion (separation 6,
/// alignment 4, cohesion 1.5) and gentler walls (distance 4, weight 2), in a box sized so a boid
/// has about four others within its radius, so the picture shows a school rather than a ball.
pub fn default_school_scene(n: usize) -> Scene {
    let radius = 2.5f64;
    let rho = 4.0 / (4.0 / 3.0 * std::f64::consts::PI * (radius * radius * radius));
    let half = (fmath::cbrt64(n as f64 / rho) as f32 / 2.0).at_least(6.0);
    let params = FlockParams {
        perception_radius: radius as f32,
        separation_radius: 1.0,
        fov_half_angle_deg: 135.0,
        weights: crate::Weights {
            separation: 6.0,
            alignment: 4.0,
            cohesion: 1.5,
            bounds: 2.0,
            ..crate::Weights::default()
        },
        bounds: Bounds::SoftBox {
            min: Vec3::splat(-half),
            max: Vec3::splat(half),
            distance: 4.0_f32.at_most(half),
        },
        ..FlockParams::default()
    };
    Scene {
        flock: vec![FlockSpec {
            params,
            spawn: Spawn {
                shape: SpawnShape::Box {
                    min: Vec3::splat(-half * 0.6),
                    max: Vec3::splat(half * 0.6),
                },
                min_speed: 2.0,
                max_speed: 5.0,
                direction: None,
            },
            ..FlockSpec::new("school", n)
        }],
        ..Scene::default()
    }
}

/// [`default_school_scene`] built: a world and its flock.
pub fn default_school(n: usize, seed: u64, threads: usize) -> Result<(World, FlockId), Error> {
    let scene = Scene {
        seed,
        threads,
        ..default_school_scene(n)
    };
    let mut world = World::new(WorldConfig {
        seed,
        threads,
        ..WorldConfig::default()
    })?;
    let id = scene.add_to(&mut world)?[0];
    Ok((world, id))
}

/// The baseline the benchmarks compare against: what the tutorials do, every boid scanning every
/// other boid, one thread, the fish-tank preset's rules (soft box bounds only), double-buffered.
/// Returns the next states and the number of neighbours used.
pub fn naive_step(boids: &[BoidState], p: &FlockParams, dt: f32) -> (Vec<BoidState>, u64) {
    let r2 = p.perception_radius * p.perception_radius;
    let cos = fmath::cos(fmath::to_radians(p.fov_half_angle_deg));
    let (lo, hi, dist) = match p.bounds {
        Bounds::SoftBox { min, max, distance } => (min, max, distance),
        _ => unreachable!("the benchmark uses a box"),
    };
    let mut used = 0u64;
    let next = boids
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let (mut n, mut sep, mut vel, mut pos) = (0.0f32, Vec3::ZERO, Vec3::ZERO, Vec3::ZERO);
            for (j, o) in boids.iter().enumerate() {
                let d = o.position - b.position;
                if i == j || d.length_squared() >= r2 {
                    continue;
                }
                if b.heading.dot(d.normalize_or_zero()) <= cos {
                    continue;
                }
                n += 1.0;
                sep -= d.normalize_or_zero();
                vel += o.velocity;
                pos += o.position;
            }
            used += n as u64;
            let mut a = Vec3::ZERO;
            if n > 0.0 {
                a += p.weights.separation * sep / n;
                a += p.weights.alignment * (vel / n - b.velocity);
                a += p.weights.cohesion * (pos / n - b.position);
            }
            for k in 0..3 {
                let (dl, dh) = (b.position[k] - lo[k], hi[k] - b.position[k]);
                if dl < dist {
                    a[k] += p.weights.bounds / (dl / dist).abs().at_least(1e-6);
                }
                if dh < dist {
                    a[k] -= p.weights.bounds / (dh / dist).abs().at_least(1e-6);
                }
            }
            let v = b.velocity + a * dt;
            let v = v.normalize_or_zero() * v.length().clamp(p.min_speed, p.max_speed);
            BoidState {
                position: b.position + v * dt,
                velocity: v,
                heading: v.normalize_or_zero(),
                extra: b.extra,
            }
        })
        .collect();
    (next, used)
}

/// What stands in the `reef` scenario's water.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReefObstacles {
    /// Generated rocks (triangle meshes) over a seabed (a heightfield): the scenario.
    Meshes,
    /// Every rock replaced by its bounding sphere, the seabed by a plane at its mean height.
    StandIns,
    /// No obstacles at all (the flock alone: what the casts cost is the difference).
    None,
}

/// The `reef` scenario's layout for `n` boids: water 12 deep over a square seabed holding one
/// boid per unit³, with rocks in proportion (at 100,000 boids: a 91 × 91 seabed of 16,200
/// triangles and 40 rocks of eight shapes, 512 triangles each: 20,480 triangles).
pub fn reef_layout(n: usize) -> crate::presets::ReefLayout {
    let depth = 12.0f32;
    let area = n as f32 / depth;
    let half = (area.sqrt() * 0.5).at_least(6.0);
    crate::presets::ReefLayout {
        boids: n,
        half,
        depth,
        rocks: ((40.0 * area / 8333.0).round() as usize).max(4),
        shapes: 8,
        detail: 3,
    }
}

/// The `reef` scenario: `n` fish among generated rocks over a seabed, with the free-direction
/// search around obstacles (the `reef` preset's rules; see [`reef_layout`]).
pub fn reef_world(
    n: usize,
    config: WorldConfig,
    index: IndexKind,
    obstacles: ReefObstacles,
) -> Result<(World, FlockId), Error> {
    let mut scene =
        crate::presets::reef("reef", reef_layout(n), obstacles == ReefObstacles::StandIns);
    if obstacles == ReefObstacles::None {
        scene.obstacle.clear();
        scene.mesh.clear();
    }
    scene.flock[0].params.index = index;
    let mut world = World::new(config)?;
    let id = scene.add_to(&mut world)?[0];
    Ok((world, id))
}

/// The ground the `level` scenario stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelGround {
    /// One triangle mesh of about a million triangles: a 512 × 512-cell terrain (524,288
    /// triangles) and 60 rocks of 8,192 triangles each (491,520), 1,015,808 in all.
    Mesh,
    /// A 2049 × 2049 heightfield (16 MB of heights; 8,388,608 triangles as a mesh).
    Heightfield,
}

/// Side of the `level` scenario's square by default, in units (the terrain spans `[-64, 64]` in
/// x, z). A smaller side packs the same triangles closer (`boids bench --level-side`).
pub const LEVEL_SIDE: f32 = 128.0;

/// Height of the `level` scenario's hills above and below the reef's floor: most of the school
/// swims among them, so most boids cast against the ground every step.
pub const LEVEL_HILLS: f32 = 5.0;

/// The `level` scenario's ground as shape data, and where to place it: a game level's scale
/// (a million triangles, or a 2049² terrain) under the `reef` scenario's school of `n` fish
/// (see [`reef_layout`]): rolling hills about 20 units apart, [`LEVEL_HILLS`] high around the
/// reef's floor, and rocks thickest where the school swims, over a square of `side` units
/// ([`LEVEL_SIDE`] in the benchmark tables; a smaller side packs the same triangles closer under
/// the same hills). Generated here, deterministically.
pub fn level_ground(n: usize, ground: LevelGround, side: f32) -> (crate::scene::MeshSpec, Vec3) {
    use crate::scene::{MeshSpec, rock, seabed};
    let layout = reef_layout(n);
    let floor = -layout.depth * 0.5;
    let half = side * 0.5;
    let corner = Vec3::new(-half, floor, -half);
    match ground {
        LevelGround::Heightfield => {
            let cell = side / 2048.0;
            // The waves of `seabed`, three times as close.
            let heights = seabed(21, 2049, 2049, cell * 3.0, LEVEL_HILLS);
            let spec = MeshSpec::Heightfield {
                columns: 2049,
                rows: 2049,
                cell_x: cell,
                cell_z: cell,
                heights,
            };
            (spec, corner)
        }
        LevelGround::Mesh => {
            let cells = 512u32;
            let cell = side / cells as f32;
            let samples = cells + 1;
            let heights = seabed(21, samples, samples, cell * 3.0, LEVEL_HILLS);
            let mut vertices: Vec<Vec3> = (0..samples * samples)
                .map(|k| {
                    let (i, j) = (k % samples, k / samples);
                    Vec3::new(i as f32 * cell, heights[k as usize], j as f32 * cell)
                })
                .collect();
            let mut indices = Vec::with_capacity(6 * (cells * cells) as usize + 60 * 3 * 8192);
            for j in 0..cells {
                for i in 0..cells {
                    let v00 = j * samples + i;
                    let (v10, v01, v11) = (v00 + 1, v00 + samples, v00 + samples + 1);
                    indices.extend([v00, v10, v11, v00, v11, v01]);
                }
            }
            // Rocks: within the school's square (at least 64 wide) and, a third of them,
            // anywhere on the level.
            let near = layout.half.at_least(32.0).at_most(half * 0.95);
            let ground_at = |x: f32, z: f32| {
                let (i, j) = (
                    ((x / cell) as u32).min(cells),
                    ((z / cell) as u32).min(cells),
                );
                heights[(j * samples + i) as usize]
            };
            for r in 0..60u32 {
                let mut g = boids_core::Rng::keyed(23, r, 0, 0x1E7E1);
                let spread = if r % 3 == 2 { half * 0.95 } else { near };
                let (x, z) = (
                    half + g.range(-spread, spread),
                    half + g.range(-spread, spread),
                );
                let scale = Vec3::new(g.range(1.5, 5.0), g.range(1.2, 4.0), g.range(1.5, 5.0));
                let rotation =
                    boids_core::Quat::from_rotation_y(g.range(0.0, std::f32::consts::TAU));
                let at = Vec3::new(x, ground_at(x, z) + scale.y * 0.3, z);
                let (rv, ri) = rock(100 + u64::from(r % 8), 1.0, 5, 0.35);
                let base = vertices.len() as u32;
                vertices.extend(rv.iter().map(|&p| at + rotation * (scale * p)));
                indices.extend(ri.iter().map(|&i| base + i));
            }
            (MeshSpec::Mesh { vertices, indices }, corner)
        }
    }
}

/// The `level` scenario's flock alone: the `reef` scenario's school of `n` fish with no
/// obstacles, avoiding obstacles as `avoidance` says (add the ground with [`level_ground`]).
pub fn level_world(
    n: usize,
    config: WorldConfig,
    index: IndexKind,
    avoidance: ObstacleAvoidance,
) -> Result<(World, FlockId), Error> {
    let (mut world, id) = reef_world(n, config, index, ReefObstacles::None)?;
    let mut p = *world.flock(id).expect("the school").params();
    p.obstacle_avoidance = avoidance;
    world.set_params(id, p)?;
    Ok((world, id))
}

/// What the `herd` scenario's flock does ([`herd_world`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HerdMode {
    /// Grounded, with bodies of radius 0.4 (the `herd` preset's sheep).
    Bodies,
    /// Grounded, bodies off.
    Grounded,
    /// The same flock with the ground off: it flies over the same scene (the hills a floor, the
    /// rocks obstacles), bodies off: the plain step the others are compared with.
    Flying,
}

/// Rocks of the `herd` scenario: one per 10,000 square units of hills.
pub const HERD_ROCKS: usize = 40;

/// The `herd` scenario: `n` sheep with the `herd` preset's rules over its hills, 2049 × 2049
/// samples one unit apart (a ridge, a ravine, [`HERD_ROCKS`] rocks, a fence), packed as the
/// preset packs them (about 0.8 a square unit, in a square of side `1.1 √n` in the rock-free
/// field), no dog and no birds.
pub fn herd_world(
    n: usize,
    config: WorldConfig,
    index: IndexKind,
    mode: HerdMode,
) -> Result<(World, FlockId), Error> {
    let layout = crate::presets::HerdLayout {
        sheep: n,
        birds: 0,
        dog: false,
        samples: 2049,
        cell: 1.0,
        rocks: HERD_ROCKS,
        grounded: mode != HerdMode::Flying,
    };
    let mut scene = crate::presets::herd("herd", layout);
    let sheep = &mut scene.flock[0];
    sheep.params.index = index;
    if mode != HerdMode::Bodies {
        sheep.params.body_radius = 0.0;
    }
    if let crate::flock::SpawnShape::Box { min, max } = &mut sheep.spawn.shape {
        let centre = (*min + *max) * 0.5;
        let half = (n as f32).sqrt() * 0.55;
        (min.x, max.x, min.z, max.z) = (
            centre.x - half,
            centre.x + half,
            centre.z - half,
            centre.z + half,
        );
    }
    let mut world = World::new(config)?;
    let id = scene.add_to(&mut world)?[0];
    Ok((world, id))
}
