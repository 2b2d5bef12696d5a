//! A school of 10,000 fish for ten seconds of simulated time, read back every frame as a game
//! would. Run with `cargo run --release -p boids-examples --example school`.

use boids_sim::metrics::measure;
use boids_sim::{FlockParams, Spawn, SpawnShape, Vec3, World, WorldConfig};

fn main() -> Result<(), boids_sim::Error> {
    let mut world = World::new(WorldConfig {
        seed: 42,
        threads: 0,
        ..WorldConfig::default()
    })?;
    let fish = world.create_flock(
        "fish",
        FlockParams {
            bounds: boids_sim::Bounds::SoftBox {
                min: Vec3::splat(-20.0),
                max: Vec3::splat(20.0),
                distance: 3.0,
            },
            ..FlockParams::default()
        },
    )?;
    world.spawn(
        fish,
        10_000,
        &Spawn {
            shape: SpawnShape::Box {
                min: Vec3::splat(-15.0),
                max: Vec3::splat(15.0),
            },
            min_speed: 2.0,
            max_speed: 5.0,
            direction: None,
        },
    )?;
    let start = std::time::Instant::now();
    let mut centre = Vec3::ZERO;
    for _ in 0..600 {
        world.step(1.0 / 60.0)?;
        // A renderer would copy these into its instance buffer.
        let f = world.flock(fish).expect("live flock");
        centre = f.positions().iter().copied().sum::<Vec3>() / f.len() as f32;
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / 600.0;
    let m = measure(world.flock(fish).expect("live flock"));
    println!(
        "10000 fish, 600 steps: {ms:.2} ms/step, centre {centre:.2}, polarisation {:.3}, mean speed {:.2}",
        m.polarisation, m.mean_speed
    );
    Ok(())
}
