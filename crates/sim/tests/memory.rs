//! Bounded memory (docs/reliability.md): no accepted parameter lets one step allocate more than
//! `STEP_BYTES_PER_BOID` bytes per boid plus `STEP_BYTES_FIXED`, measured by a counting global
//! allocator over random accepted params and flocks of up to 3,000 boids (256 cases), on two
//! worker threads, for the first step (which builds the index) and a later one.
#![expect(
    unsafe_code,
    reason = "a counting global allocator wraps the system one"
)]

#[path = "support/strategies.rs"]
mod strategies;

use boids_sim::*;
use proptest::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use strategies::*;

/// The stated bound (docs/reliability.md).
const STEP_BYTES_PER_BOID: usize = 1024;
const STEP_BYTES_FIXED: usize = 4 << 20;

struct Counting;
static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = NOW.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is passed to the system allocator unchanged; the counters only observe.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        NOW.fetch_sub(layout.size(), Relaxed);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size >= layout.size() {
            grew(new_size - layout.size());
        } else {
            NOW.fetch_sub(layout.size() - new_size, Relaxed);
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Bytes allocated at the peak of `f`, above what was live before it.
fn peak_of(f: impl FnOnce()) -> usize {
    let base = NOW.load(Relaxed);
    PEAK.store(base, Relaxed);
    f();
    PEAK.load(Relaxed).saturating_sub(base)
}

fn spawn_box() -> impl Strategy<Value = SpawnShape> {
    prop_oneof![
        Just(SpawnShape::Box {
            min: Vec3::splat(-5.0),
            max: Vec3::splat(5.0)
        }),
        Just(SpawnShape::Box {
            min: Vec3::splat(-1e9),
            max: Vec3::splat(1e9)
        }),
        Just(SpawnShape::Sphere {
            centre: Vec3::ZERO,
            radius: 0.0
        }),
        Just(SpawnShape::Box {
            min: Vec3::splat(-50.0),
            max: Vec3::splat(50.0)
        }),
    ]
}

proptest! {
    // One test: the counters are global, so nothing may allocate beside it.
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_step_allocates_at_most_a_stated_multiple_of_the_flock(
        params in params(),
        n in prop_oneof![1usize..=50, 50usize..=3000],
        shape in spawn_box(),
        obstacle in obstacle(),
    ) {
        let mut w = World::new(WorldConfig {
            seed: 3,
            threads: 2,
            ..WorldConfig::default()
        })
        .unwrap();
        let f = w.create_flock("f", params).unwrap();
        let spawn = Spawn {
            shape,
            ..Spawn::default()
        };
        w.spawn(f, n, &spawn).unwrap();
        w.add_obstacle(obstacle).unwrap();
        let bound = STEP_BYTES_PER_BOID * n + STEP_BYTES_FIXED;
        for which in ["first", "second", "third"] {
            let used = peak_of(|| w.step(1.0 / 60.0).unwrap());
            if std::env::var_os("BOIDS_MEMORY_REPORT").is_some() {
                eprintln!("memory: {which} step, {n} boids, {used} bytes");
            }
            prop_assert!(
                used <= bound,
                "{} step of {} boids allocated {} bytes ({} a boid), above the bound {}",
                which,
                n,
                used,
                used / n,
                bound
            );
        }
    }
}

/// What a flock keeps between steps (`Flock::heap_bytes`): the benchmark scenario's 10,000
/// boids after a few steps hold one copy of their state, one set of buffers the next state is
/// written into, the sorted ids and ranks and the index: 158.8 bytes a boid today. Three copies
/// of the ids and ranks (166.8, the first overlap build) or a leftover id-order view would fail.
#[test]
fn a_flock_keeps_at_most_160_bytes_a_boid_between_steps() {
    let n = 10_000;
    let (mut world, id) = builtin::bench_world(n, WorldConfig::default(), IndexKind::Grid).unwrap();
    for _ in 0..3 {
        world.step(1.0 / 60.0).unwrap();
        // A read in id order builds the id-order views of the current state; the next step
        // must not keep them with the buffers it reuses.
        let mut out = vec![Vec3::ZERO; n];
        world.read_positions(id, &mut out).unwrap();
    }
    world.step(1.0 / 60.0).unwrap();
    let per_boid = world.flock(id).unwrap().heap_bytes() as f64 / n as f64;
    assert!(per_boid <= 160.0, "{per_boid:.1} bytes a boid");
}
