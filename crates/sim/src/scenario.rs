//! Built-in scenarios: the benchmark everyone compares on, and the default school.

use crate::flock::{Spawn, SpawnShape};
use crate::world::{FlockId, World, WorldConfig};
use crate::{Bounds, Error, FlockParams, IndexKind};
use boids_core::{BoidState, Vec3, fmath};

/// Mean number of others within radius 1 the benchmark's density gives (far from walls).
pub const BENCH_NEIGHBOURS: f32 = 25.0;

/// Edge of the benchmark cube for `n` boids: `(n / ρ)^(1/3)` with `ρ = 25 / (4/3 π)`.
pub fn bench_cube_side(n: usize) -> f32 {
    let rho = f64::from(BENCH_NEIGHBOURS) / (4.0 / 3.0 * std::f64::consts::PI);
    fmath::cbrt64(n as f64 / rho) as f32
}

/// Seed 000's rules in the benchmark cube `[0, side]³`.
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
/// uniform in the cube, random directions at speeds 2..5, seed 000's rules, radius 1, 90° field
/// of view, dt 1/60.
pub fn bench_world(
    n: usize,
    threads: usize,
    index: IndexKind,
    seed: u64,
) -> Result<(World, FlockId), Error> {
    let side = bench_cube_side(n);
    let mut world = World::new(WorldConfig {
        seed,
        threads,
        ..WorldConfig::default()
    })?;
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
    Ok((world, id))
}

/// The default 3-D school of `boids run`: seed 000's rules with a wider view (radius 2.5,
/// 135° half-angle), stronger alignment and weaker cohesion (separation 6, alignment 4,
/// cohesion 1.5) and gentler walls (distance 4, weight 2), in a box sized so a boid has about
/// four others within its radius, so the picture shows a school rather than a ball.
pub fn default_school(n: usize, seed: u64, threads: usize) -> Result<(World, FlockId), Error> {
    let radius = 2.5f64;
    let rho = 4.0 / (4.0 / 3.0 * std::f64::consts::PI * radius.powi(3));
    let half = (fmath::cbrt64(n as f64 / rho) as f32 / 2.0).max(6.0);
    let mut world = World::new(WorldConfig {
        seed,
        threads,
        ..WorldConfig::default()
    })?;
    let params = FlockParams {
        perception_radius: radius as f32,
        separation_radius: 1.0,
        field_of_view_deg: 135.0,
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
            distance: 4.0_f32.min(half),
        },
        ..FlockParams::default()
    };
    let id = world.create_flock("school", params)?;
    world.spawn(
        id,
        n,
        &Spawn {
            shape: SpawnShape::Box {
                min: Vec3::splat(-half * 0.6),
                max: Vec3::splat(half * 0.6),
            },
            min_speed: 2.0,
            max_speed: 5.0,
            direction: None,
        },
    )?;
    Ok((world, id))
}

/// The baseline the benchmarks compare against: what the tutorials do, every boid scanning every
/// other boid, one thread, seed 000's rules (soft box bounds only), double-buffered.
/// Returns the next states and the number of neighbours used.
pub fn naive_step(boids: &[BoidState], p: &FlockParams, dt: f32) -> (Vec<BoidState>, u64) {
    let r2 = p.perception_radius * p.perception_radius;
    let cos = fmath::cos(fmath::to_radians(p.field_of_view_deg));
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
                    a[k] += p.weights.bounds / (dl / dist).abs().max(1e-6);
                }
                if dh < dist {
                    a[k] -= p.weights.bounds / (dh / dist).abs().max(1e-6);
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
