//! Every preset timed at its own size, and again grown to many boids with its space scaled so
//! the crowd per unit of space stays the same: `cargo run --release -p boids-examples --example
//! preset_bench -- [boids] [threads]` (default 100000, 2).

use boids_sim::Order;
use boids_sim::{Bounds, Spawn, SpawnShape, Vec3, World, WorldConfig, presets};
use std::time::Instant;

/// Median ms/step over `steps` steps after two warm-up steps.
fn time(w: &mut World, steps: usize) -> f64 {
    for _ in 0..2 {
        w.step(1.0 / 60.0).unwrap();
    }
    let mut t: Vec<f64> = (0..steps)
        .map(|_| {
            let s = Instant::now();
            w.step(1.0 / 60.0).unwrap();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

/// `b` grown by `s` about its centre.
fn scaled(b: Bounds, s: f32) -> Bounds {
    let grow = |min: Vec3, max: Vec3| {
        let c = (min + max) * 0.5;
        (c + (min - c) * s, c + (max - c) * s)
    };
    match b {
        Bounds::SoftBox { min, max, distance } => {
            let (min, max) = grow(min, max);
            Bounds::SoftBox { min, max, distance }
        }
        Bounds::SoftSphere {
            centre,
            radius,
            inner,
        } => Bounds::SoftSphere {
            centre,
            radius: radius * s,
            inner,
        },
        Bounds::Wrap { min, max } => {
            let (min, max) = grow(min, max);
            Bounds::Wrap { min, max }
        }
        Bounds::TurnBack { min, max } => {
            let (min, max) = grow(min, max);
            Bounds::TurnBack { min, max }
        }
        Bounds::Clamp { min, max } => {
            let (min, max) = grow(min, max);
            Bounds::Clamp { min, max }
        }
        Bounds::None => Bounds::None,
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let big: usize = args.next().map_or(100_000, |s| s.parse().expect("boids"));
    let threads: usize = args.next().map_or(2, |s| s.parse().expect("threads"));
    let config = WorldConfig {
        seed: 1,
        threads,
        ..WorldConfig::default()
    };
    println!("| preset | boids | ms/step | boids | ms/step (space scaled to keep the density) |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for p in presets::all() {
        let mut w = World::new(config).unwrap();
        let id = p.create(&mut w, p.name).unwrap();
        let n0 = w.flock(id).unwrap().len();
        let small = time(&mut w, 50);
        // Grow: space scaled by the cube (square, in 2-D) root of the growth.
        let mut w = World::new(config).unwrap();
        let id = p.create(&mut w, p.name).unwrap();
        let mut params = *w.flock(id).unwrap().params();
        let flat = params.plane != boids_sim::PlaneLock::None;
        let g = big as f32 / n0 as f32;
        let s = if flat { g.sqrt() } else { g.cbrt() };
        params.bounds = scaled(params.bounds, s);
        params.sleep_distance = 0.0;
        w.set_params(id, params).unwrap();
        w.set_wake_region(id, None).unwrap();
        let f = w.flock(id).unwrap();
        let (lo, hi) = f.positions().iter().fold(
            (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)),
            |(a, b), &q| (a.at_most(q), b.at_least(q)),
        );
        let c = (lo + hi) * 0.5;
        let spawn = Spawn {
            shape: SpawnShape::Box {
                min: c + (lo - c) * s,
                max: c + (hi - c) * s,
            },
            min_speed: params.min_speed,
            max_speed: params.max_speed.at_least(params.min_speed),
            direction: None,
        };
        w.resize_flock(id, big, &spawn).unwrap();
        let large = time(&mut w, 5);
        println!("| {} | {n0} | {small:.3} | {big} | {large:.1} |", p.name);
    }
}
