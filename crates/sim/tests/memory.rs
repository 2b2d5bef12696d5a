//! Bounded memory (docs/reliability.md): no accepted parameter lets one step allocate more than
//! `STEP_BYTES_PER_BOID` bytes per boid plus `STEP_BYTES_FIXED`, measured by a counting global
//! allocator over random accepted params and flocks of up to 3,000 boids (96 cases; set
//! PROPTEST_CASES for more: at 256 the cases took 42-121 s, whole flocks spawned on one point
//! or with bodies far too big for their box cost a second a step), on two
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
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use strategies::*;

/// The stated bound (docs/reliability.md).
const STEP_BYTES_PER_BOID: usize = 1024;
const STEP_BYTES_FIXED: usize = 4 << 20;

struct Counting;
static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Allocations (and growing reallocations) made by this thread.
    static CALLS: Cell<usize> = const { Cell::new(0) };
}

fn grew(by: usize) {
    let now = NOW.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
    // `try_with`: a thread's last frees and allocations may come after its locals are gone.
    let _ = CALLS.try_with(|c| c.set(c.get() + 1));
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

/// Held by every test of this file: the byte counters are global, so nothing else may allocate
/// while one measures.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn alone() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

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
    // The counters are global: each case holds `alone()`.
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn a_step_allocates_at_most_a_stated_multiple_of_the_flock(
        params in params(),
        n in prop_oneof![1usize..=50, 50usize..=3000],
        shape in spawn_box(),
        obstacle in obstacle(),
    ) {
        let _alone = alone();
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
/// boids after a few synchronous steps hold one copy of their state, their ids and ranks sorted
/// for the next step, and the index (its own copy of positions, velocities and headings): at
/// most 128 bytes a boid. A flock read in id order every frame also keeps its positions and
/// headings in id order (24 bytes a boid), one set of them, until it goes unread. A second set
/// of state buffers (the next state's, kept between steps: 36 bytes a boid more), three copies
/// of the ids and ranks, a leftover id-order view or a second set of the arrays in id order
/// would fail. A step in flight (`step_begin`) pays for the second set; the next synchronous
/// step gives it back.
#[test]
fn a_flock_keeps_at_most_128_bytes_a_boid_between_steps() {
    let _alone = alone();
    let n = 10_000;
    let (mut world, id) = builtin::bench_world(n, WorldConfig::default(), IndexKind::Grid).unwrap();
    let per_boid = |world: &World| world.flock(id).unwrap().heap_bytes() as f64 / n as f64;
    for _ in 0..3 {
        world.step(1.0 / 60.0).unwrap();
        // A read in id order builds the id-order views of the current state; the next step
        // must not keep them with the buffers it reuses.
        let mut out = vec![Vec3::ZERO; n];
        world.read_positions(id, &mut out).unwrap();
    }
    world.step(1.0 / 60.0).unwrap();
    let sync = per_boid(&world);
    assert!(sync <= 128.0 + 24.0, "{sync:.1} bytes a boid");
    // Overlapped steps keep the next state's buffers (36 bytes a boid more)...
    for _ in 0..2 {
        world.step_begin(1.0 / 60.0).unwrap();
        world.step_end().unwrap();
    }
    let overlapped = per_boid(&world);
    assert!(
        overlapped >= sync + 35.0,
        "overlapped {overlapped:.1}, synchronous {sync:.1}"
    );
    // ...until a synchronous step gives them back.
    world.step(1.0 / 60.0).unwrap();
    let again = per_boid(&world);
    assert!(again <= 128.0 + 24.0, "{again:.1} bytes a boid");
    // Unread for a while (a frame reads after a few steps at most), the arrays in id order go.
    for _ in 0..10 {
        world.step(1.0 / 60.0).unwrap();
    }
    let unread = per_boid(&world);
    assert!(unread <= 128.0, "{unread:.1} bytes a boid");
    assert!(
        again - unread >= 23.0,
        "read {again:.1}, unread {unread:.1}"
    );
}

/// A small world (under `PARALLEL_MIN`, 2,048 boids) steps on the calling thread and, once its
/// buffers have their sizes, allocates nothing: the benchmark scenario at 300 and 2,000 boids,
/// 20 steps after 5, counted on this thread (where the whole step runs).
#[test]
fn a_small_world_steps_without_allocating() {
    let _alone = alone();
    for n in [300, 2_000] {
        let config = WorldConfig {
            threads: 2,
            ..WorldConfig::default()
        };
        let (mut world, _) = builtin::bench_world(n, config, IndexKind::Grid).unwrap();
        for _ in 0..5 {
            world.step(1.0 / 60.0).unwrap();
        }
        let before = CALLS.with(Cell::get);
        for _ in 0..20 {
            world.step(1.0 / 60.0).unwrap();
        }
        let calls = CALLS.with(Cell::get) - before;
        assert_eq!(calls, 0, "{n} boids: {calls} allocations in 20 steps");
    }
}
