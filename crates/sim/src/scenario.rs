//! Built-in scenarios: the benchmark everyone compares on, and the default school.

use crate::flock::{Spawn, SpawnShape};
use crate::world::{FlockId, World, WorldConfig};
use crate::{Bounds, Error, FlockParams, IndexKind};
use boids_core::Vec3;

/// Mean number of others within radius 1 the benchmark's density gives (far from walls).
pub const BENCH_NEIGHBOURS: f32 = 25.0;

/// Edge of the benchmark cube for `n` boids: `(n / ρ)^(1/3)` with `ρ = 25 / (4/3 π)`.
pub fn bench_cube_side(n: usize) -> f32 {
    let rho = f64::from(BENCH_NEIGHBOURS) / (4.0 / 3.0 * std::f64::consts::PI);
    (n as f64 / rho).cbrt() as f32
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
    let mut world = World::new(WorldConfig { seed, threads })?;
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
        },
    )?;
    Ok((world, id))
}

/// The default 3-D school of `boids run`: seed 000's fish in a cube sized so a boid has about
/// eight others within its perception radius.
pub fn default_school(n: usize, seed: u64, threads: usize) -> Result<(World, FlockId), Error> {
    let rho = 8.0 / (4.0 / 3.0 * std::f64::consts::PI);
    let half = ((n as f64 / rho).cbrt() as f32 / 2.0).max(4.0);
    let mut world = World::new(WorldConfig { seed, threads })?;
    let params = FlockParams {
        bounds: Bounds::SoftBox {
            min: Vec3::splat(-half),
            max: Vec3::splat(half),
            distance: 3.0_f32.min(half),
        },
        ..FlockParams::default()
    };
    let id = world.create_flock("school", params)?;
    world.spawn(
        id,
        n,
        &Spawn {
            shape: SpawnShape::Box {
                min: Vec3::splat(-half * 0.5),
                max: Vec3::splat(half * 0.5),
            },
            min_speed: 2.0,
            max_speed: 2.0,
        },
    )?;
    Ok((world, id))
}
