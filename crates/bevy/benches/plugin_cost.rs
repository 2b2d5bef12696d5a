//! What the Bevy plugin costs a frame beside the step itself: the benchmark scenario (fish-tank
//! rules, ~25 neighbours a boid) at 10,000 and 100,000 boids, every boid an entity, one fixed
//! tick a frame, against `World::step` alone on the same scene. Frames and bare steps are
//! interleaved so machine noise hits both alike. Prints medians:
//!
//! - sync in: `BoidsSet::SyncIn` (nothing changed: the cost of finding that out);
//! - step: `BoidsSet::Step` (the step, and the read of its result into the plugin's buffers);
//! - write back: `BoidsSet::WriteBack` (every `Transform`, interpolated, in parallel);
//! - frame: the whole `App::update` (Bevy's own schedules and transform propagation too).
//!
//! `cargo bench -p boids-bevy --bench plugin_cost` (`BOIDS_BEVY_N=10000,100000`,
//! `BOIDS_BEVY_FRAMES`, `BOIDS_BEVY_THREADS` change the sizes, frames and engine threads).

use boids_sim::Order;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use boids_bevy::{BoidsPlugin, BoidsSet, Flock, FlockSpawn, Spawn, SpawnShape};
use boids_sim::builtin::{bench_cube_side, bench_params, bench_world};
use boids_sim::{IndexKind, WorldConfig};

/// Instants around the plugin's sets, this frame.
#[derive(Resource, Default, Clone, Copy)]
struct Marks([Option<Instant>; 6]);

fn mark<const K: usize>(mut m: ResMut<Marks>) {
    m.0[K] = Some(Instant::now());
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn ms(a: Option<Instant>, b: Option<Instant>) -> f64 {
    match (a, b) {
        (Some(a), Some(b)) => b.duration_since(a).as_secs_f64() * 1e3,
        _ => f64::NAN,
    }
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let sizes: Vec<usize> = std::env::var("BOIDS_BEVY_N")
        .unwrap_or_else(|_| "10000,100000".into())
        .split(',')
        .map(|s| s.trim().parse().expect("BOIDS_BEVY_N: counts"))
        .collect();
    let frames: usize = std::env::var("BOIDS_BEVY_FRAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let threads: usize = std::env::var("BOIDS_BEVY_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let tick = Duration::from_secs_f64(1.0 / 60.0);
    println!("threads {threads}, {frames} frames, medians in ms");
    println!(
        "{:>8} {:>9} {:>9} {:>9} {:>11} {:>9} {:>9} {:>9}",
        "boids", "bare", "sync in", "step", "write back", "frame", "plugin", "plugin %"
    );
    for n in sizes {
        let config = WorldConfig {
            seed: 1,
            threads,
            simd: None,
        };
        let (mut bare, _) = bench_world(n, config, IndexKind::Grid).expect("bench world");
        let side = bench_cube_side(n);
        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            TransformPlugin,
            BoidsPlugin::default().seed(1).threads(threads),
        ));
        app.insert_resource(Time::<Fixed>::from_duration(tick));
        app.insert_resource(TimeUpdateStrategy::ManualDuration(tick));
        app.init_resource::<Marks>();
        app.add_systems(FixedUpdate, mark::<0>.before(BoidsSet::SyncIn));
        app.add_systems(
            FixedUpdate,
            mark::<1>.after(BoidsSet::SyncIn).before(BoidsSet::Step),
        );
        app.add_systems(FixedUpdate, mark::<2>.after(BoidsSet::Step));
        app.add_systems(PostUpdate, mark::<3>.before(BoidsSet::WriteBack));
        app.add_systems(
            PostUpdate,
            mark::<4>
                .after(BoidsSet::WriteBack)
                .before(bevy::transform::TransformSystems::Propagate),
        );
        app.world_mut().spawn((
            Flock::new(bench_params(side, IndexKind::Grid)),
            FlockSpawn {
                count: n,
                spawn: Spawn {
                    shape: SpawnShape::Box {
                        min: boids_sim::Vec3::ZERO,
                        max: boids_sim::Vec3::splat(side),
                    },
                    min_speed: 2.0,
                    max_speed: 5.0,
                    direction: None,
                },
            },
        ));
        // Warm up: the spawn, the first frames, the pools.
        for _ in 0..5 {
            app.update();
            bare.step(1.0 / 60.0).expect("step");
        }
        let (mut b, mut s, mut st, mut w, mut f) = (vec![], vec![], vec![], vec![], vec![]);
        for _ in 0..frames {
            let t = Instant::now();
            bare.step(1.0 / 60.0).expect("step");
            b.push(t.elapsed().as_secs_f64() * 1e3);
            app.world_mut().insert_resource(Marks::default());
            let t = Instant::now();
            app.update();
            f.push(t.elapsed().as_secs_f64() * 1e3);
            let m = app.world().resource::<Marks>().0;
            if m[2].is_none() {
                continue; // no fixed tick this frame
            }
            s.push(ms(m[0], m[1]));
            st.push(ms(m[1], m[2]));
            w.push(ms(m[3], m[4]));
        }
        let bare_ms = median(&mut b);
        let (sync, step, write, frame) = (
            median(&mut s),
            median(&mut st),
            median(&mut w),
            median(&mut f),
        );
        let plugin = sync + (step - bare_ms).at_least(0.0) + write;
        println!(
            "{n:>8} {bare_ms:>9.3} {sync:>9.3} {step:>9.3} {write:>11.3} {frame:>9.3} {plugin:>9.3} {:>8.1}%",
            100.0 * plugin / bare_ms
        );
        println!(
            "bench bevy n={n} threads={threads} bare_ms={bare_ms:.4} sync_in_ms={sync:.4} step_ms={step:.4} write_back_ms={write:.4} frame_ms={frame:.4}"
        );
    }
}
