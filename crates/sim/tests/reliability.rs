//! Long runs (alone in this test binary, so the resident-memory check sees only the soak). `BOIDS_SOAK_STEPS` sets the soak length (100,000 by default, the
//! CI version; 1,000,000 for the full soak).

use boids_core::fmath::{Extremes, Order};
use boids_sim::*;
use std::time::Instant;

const DT: f32 = 1.0 / 60.0;

fn rss_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = s
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// How far outside its bounds a boid is (0 inside).
fn outside(b: &Bounds, p: Vec3) -> f32 {
    match *b {
        Bounds::SoftBox { min, max, .. }
        | Bounds::Wrap { min, max }
        | Bounds::Clamp { min, max }
        | Bounds::TurnBack { min, max } => (min - p).at_least(p - max).largest().at_least(0.0),
        Bounds::SoftSphere { centre, radius, .. } => ((p - centre).length() - radius).at_least(0.0),
        Bounds::None => 0.0,
    }
}

#[test]
fn soak_every_bounds_kind_with_extreme_params() {
    let steps: u64 = std::env::var("BOIDS_SOAK_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let (lo, hi) = (Vec3::splat(-6.0), Vec3::splat(6.0));
    // (bounds, integrator, stated tolerance beyond the surface for soft bounds)
    let kinds = [
        (
            "soft box",
            Bounds::SoftBox {
                min: lo,
                max: hi,
                distance: 3.0,
            },
            Integrator::Acceleration,
            3.0,
        ),
        (
            "soft sphere",
            Bounds::SoftSphere {
                centre: Vec3::ZERO,
                radius: 6.0,
                inner: 0.9,
            },
            Integrator::Acceleration,
            3.0,
        ),
        (
            "wrap",
            Bounds::Wrap { min: lo, max: hi },
            Integrator::Acceleration,
            0.0,
        ),
        (
            "clamp",
            Bounds::Clamp { min: lo, max: hi },
            Integrator::Acceleration,
            0.0,
        ),
        (
            "turn back",
            Bounds::TurnBack { min: lo, max: hi },
            Integrator::HeadingSpeed,
            3.0,
        ),
    ];
    for (name, bounds, integrator, tolerance) in kinds {
        let params = FlockParams {
            perception_radius: 3.0,
            separation_radius: 3.0,
            weights: Weights {
                separation: 1e4,
                alignment: 1e4,
                cohesion: 1e4,
                bounds: 1e5,
                wander: 1e3,
                ..Weights::default()
            },
            min_speed: 0.0,
            max_speed: 12.0,
            max_turn_rate: 20.0,
            integrator,
            bounds,
            ..FlockParams::default()
        };
        let mut w = World::new(WorldConfig {
            seed: 11,
            threads: 2,
            ..WorldConfig::default()
        })
        .unwrap();
        let id = w.create_flock("soak", params).unwrap();
        let spawn = Spawn {
            shape: SpawnShape::Sphere {
                centre: Vec3::ZERO,
                radius: 3.0,
            },
            min_speed: 0.0,
            max_speed: 12.0,
            direction: None,
        };
        w.spawn(id, 32, &spawn).unwrap();
        // A second flock that is coincident and motionless: the degenerate case.
        let still = w
            .create_flock(
                "still",
                FlockParams {
                    bounds,
                    min_speed: 0.0,
                    max_speed: 0.0,
                    ..FlockParams::default()
                },
            )
            .unwrap();
        w.add_boids(still, &[Vec3::ZERO; 8], &[Vec3::ZERO; 8])
            .unwrap();
        let (mut worst, mut heap0, mut rss0) = (0.0f32, 0, None);
        let start = Instant::now();
        for step in 0..steps {
            w.step(DT).unwrap();
            if step == 1000 {
                // After a read, so the id-order view the final check reads is counted both times.
                let f = w.flock(id).unwrap();
                let _ = f.boid(0);
                heap0 = f.heap_bytes();
                rss0 = rss_bytes();
            }
            if step % 97 == 0 || step + 1 == steps {
                let f = w.flock(id).unwrap();
                for i in 0..f.len() {
                    let b = f.boid(i);
                    assert!(b.is_finite(), "{bounds:?}: NaN at step {step}");
                    worst = worst.at_least(outside(&bounds, b.position));
                }
            }
        }
        let f = w.flock(id).unwrap();
        // The grid's cell table can reach its high-water mark (at most 4 cells a boid) after the
        // first 1,000 steps; anything beyond that would be a leak.
        let limit = heap0 + (4 * 32 + 64 + 1) * 4;
        assert!(
            f.heap_bytes() <= limit,
            "{bounds:?}: the flock's memory grew from {heap0} to {}",
            f.heap_bytes()
        );
        if let (Some(a), Some(b)) = (rss0, rss_bytes()) {
            assert!(
                b <= a + (4 << 20),
                "{bounds:?}: resident memory grew from {a} to {b}"
            );
        }
        println!(
            "soak {name}: {steps} steps in {:.1} s, worst distance outside the bounds {worst:.3} (allowed {tolerance})",
            start.elapsed().as_secs_f64()
        );
        assert!(
            worst <= tolerance,
            "{bounds:?}: a boid got {worst} outside (allowed {tolerance})"
        );
    }
}
