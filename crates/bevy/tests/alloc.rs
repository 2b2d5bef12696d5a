//! The write back allocates nothing a frame: every `Transform` written, interpolated, with no
//! heap allocation between the start and the end of `BoidsSet::WriteBack` once the flock has
//! been read once (a counting global allocator; its own test binary, so no other test's
//! allocations count).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use bevy::app::{TaskPoolOptions, TaskPoolPlugin};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use boids_bevy::{BoidsPlugin, BoidsSet, Flock};

struct Counting;
static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call goes to the system allocator with the same arguments; the counter is
// an atomic add.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: a pointer this allocator (the system's) gave, with its layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        // SAFETY: as `dealloc`, and the caller's new size.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn start() {
    COUNTING.store(true, Ordering::SeqCst);
}
fn stop() {
    COUNTING.store(false, Ordering::SeqCst);
}

#[test]
fn the_write_back_allocates_nothing_a_frame() {
    let tick = Duration::from_secs_f64(1.0 / 60.0);
    let mut app = App::new();
    // Bevy's compute pool on this thread: its parallel iteration then runs in line, so what is
    // counted is the plugin's own work (a pool of workers allocates its task handles).
    app.add_plugins((
        MinimalPlugins.set(TaskPoolPlugin {
            task_pool_options: TaskPoolOptions::with_num_threads(1),
        }),
        TransformPlugin,
        BoidsPlugin::default().threads(2),
    ));
    // And PostUpdate's systems one after another on this thread: Bevy's multi-threaded
    // executor allocates as it hands systems to workers (4 allocations a frame here).
    app.edit_schedule(PostUpdate, |s| {
        s.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
    });
    app.insert_resource(Time::<Fixed>::from_duration(tick));
    // Two frames a tick: frames with and without a step, interpolated half-way.
    app.insert_resource(TimeUpdateStrategy::ManualDuration(tick / 2));
    app.add_systems(PostUpdate, start.before(BoidsSet::WriteBack));
    app.add_systems(
        PostUpdate,
        stop.after(BoidsSet::WriteBack)
            .before(bevy::transform::TransformSystems::Propagate),
    );
    let (flock, spawn) = Flock::preset("fish-tank", 5_000).unwrap();
    app.world_mut().spawn((flock, spawn));
    for _ in 0..20 {
        app.update();
    }
    ALLOCATIONS.store(0, Ordering::SeqCst);
    for _ in 0..40 {
        app.update();
    }
    let steps = app.world().resource::<boids_bevy::Boids>().world().steps();
    assert!(steps >= 25, "{steps} steps");
    assert_eq!(
        ALLOCATIONS.load(Ordering::SeqCst),
        0,
        "allocations in 40 write backs"
    );
    // The counter works: an allocation inside the window counts.
    start();
    let v = std::hint::black_box(vec![1u8; 64]);
    stop();
    drop(v);
    assert_eq!(ALLOCATIONS.load(Ordering::SeqCst), 1);
}
