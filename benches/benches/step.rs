//! The benchmark scenario (README, "Benchmarks"): the fish-tank preset's rules, radius 1, 90° field of view,
//! ~25 others within the radius, box walls, dt 1/60. Every timed step starts from the same saved
//! state. `BOIDS_BENCH_1M=1` adds the one-million-boid rows.

use boids_core::BoidState;
use boids_index::{Index, NeighbourIndex, Points};
use boids_sim::IndexKind;
use boids_sim::builtin::{bench_world, naive_step};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

const DT: f32 = 1.0 / 60.0;

fn sizes() -> Vec<usize> {
    let mut s = vec![1_000, 10_000, 100_000];
    if std::env::var_os("BOIDS_BENCH_1M").is_some() {
        s.push(1_000_000);
    }
    s
}

fn step(c: &mut Criterion) {
    let mut g = c.benchmark_group("step");
    g.sample_size(10);
    for n in sizes() {
        g.throughput(Throughput::Elements(n as u64));
        for (kind, name) in [(IndexKind::Grid, "grid"), (IndexKind::KdTree, "kdtree")] {
            for threads in [1, 2] {
                let (mut world, id) = bench_world(n, cfg(1, threads), kind).unwrap();
                let snap = world.flock(id).unwrap().snapshot();
                g.bench_function(BenchmarkId::new(format!("{name}/{threads}t"), n), |b| {
                    b.iter(|| {
                        world.restore(id, &snap).unwrap();
                        world.step(DT).unwrap();
                    })
                });
            }
        }
        if n <= 100_000 {
            let (mut world, id) = bench_world(n, cfg(1, 2), IndexKind::KdTree).unwrap();
            let mut p = *world.flock(id).unwrap().params();
            p.max_neighbours = 7;
            world.set_params(id, p).unwrap();
            let snap = world.flock(id).unwrap().snapshot();
            g.bench_function(BenchmarkId::new("kdtree-k7/2t", n), |b| {
                b.iter(|| {
                    world.restore(id, &snap).unwrap();
                    world.step(DT).unwrap();
                })
            });
        }
        if n <= 10_000 {
            let (world, id) = bench_world(n, cfg(1, 1), IndexKind::Grid).unwrap();
            let f = world.flock(id).unwrap();
            let start: Vec<BoidState> = (0..f.len()).map(|i| f.boid(i)).collect();
            let params = *f.params();
            g.bench_function(BenchmarkId::new("naive-O(N^2)/1t", n), |b| {
                b.iter(|| black_box(naive_step(&start, &params, DT)))
            });
        }
    }
    g.finish();
}

fn index_build(c: &mut Criterion) {
    let mut g = c.benchmark_group("index-build");
    g.sample_size(10);
    for n in sizes() {
        let (world, id) = bench_world(n, cfg(1, 2), IndexKind::Grid).unwrap();
        let f = world.flock(id).unwrap();
        let pts = Points {
            positions: f.positions(),
            velocities: f.velocities(),
            headings: f.headings(),
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let mut grid = Index::new(IndexKind::Grid);
        g.bench_function(BenchmarkId::new("grid/2t", n), |b| {
            b.iter(|| pool.install(|| grid.build(pts, 1.0, None)))
        });
        let mut tree = Index::new(IndexKind::KdTree);
        g.bench_function(BenchmarkId::new("kdtree", n), |b| {
            b.iter(|| tree.build(pts, 1.0, None))
        });
    }
    g.finish();
}

/// A scene under a moving parent (the Unity controller's static colliders when its object
/// moves): every obstacle set again, then a step of a small flock that casts against them. The
/// world makes the scenery the step casts against once after the changes, not once per set.
fn scene_moved(c: &mut Criterion) {
    use boids_sim::{Obstacle, Quat, Vec3};
    let mut g = c.benchmark_group("scene-moved");
    g.sample_size(10);
    for obstacles in [100usize, 1_000] {
        let (mut world, _) = bench_world(200, cfg(1, 1), IndexKind::Grid).unwrap();
        let boxes = |shift: f32| {
            (0..obstacles).map(move |k| Obstacle::OrientedBox {
                centre: Vec3::new((k % 40) as f32 * 3.0 + shift, 50.0, (k / 40) as f32 * 3.0),
                half_extents: Vec3::splat(0.5),
                rotation: Quat::IDENTITY,
            })
        };
        let ids: Vec<_> = boxes(0.0).map(|o| world.add_obstacle(o).unwrap()).collect();
        g.throughput(Throughput::Elements(obstacles as u64));
        let mut frame = 0u32;
        g.bench_function(BenchmarkId::new("set-all-then-step/1t", obstacles), |b| {
            b.iter(|| {
                frame += 1;
                let shift = (frame % 100) as f32 * 0.01;
                for (id, o) in ids.iter().zip(boxes(shift)) {
                    world.set_obstacle(*id, o).unwrap();
                }
                world.step(DT).unwrap();
            })
        });
    }
    g.finish();
}

criterion_group!(benches, step, index_build, scene_moved);
criterion_main!(benches);

/// A world config with this seed and thread count.
fn cfg(seed: u64, threads: usize) -> boids_sim::WorldConfig {
    boids_sim::WorldConfig {
        seed,
        threads,
        ..boids_sim::WorldConfig::default()
    }
}
