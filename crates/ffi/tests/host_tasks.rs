//! A host's job system through `BoidsWorldDef`'s task interface, as a game engine provides it:
//! a small pool of its own threads that runs the engine's task ranges in a random order.
//! Every preset (and a flock large enough for the parallel path) gives the engine pool's bits
//! with 1, 2 and 7 host workers, stepped whole and by begin/end; every task handle the host
//! gives out is finished exactly once; a world loaded from a save steps on the host too.
//!
//! SAFETY, for every `unsafe` block here: pointers point to live locals of the right type;
//! `user_context` is a `Pool` that outlives every world using it; task contexts are passed back
//! to the engine's task function unchanged.
#![expect(
    unsafe_code,
    reason = "implements the C task callbacks as a C host does"
)]

use boids_ffi::*;
use std::collections::VecDeque;
use std::ffi::{CStr, c_void};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

const DT: f32 = 1.0 / 60.0;

fn msg() -> String {
    unsafe { CStr::from_ptr(boids_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

/// One task the engine enqueued: how many of its ranges have not returned yet.
struct Task {
    left: Mutex<usize>,
    done: Condvar,
}

/// A range to run: the engine's function and context, and the task it belongs to.
struct Job {
    call: BoidsTaskFn,
    start: u32,
    end: u32,
    context: usize,
    task: Arc<Task>,
}

#[derive(Default)]
struct Queue {
    jobs: VecDeque<Job>,
    stop: bool,
}

/// The host's pool.
struct Pool {
    queue: Mutex<Queue>,
    wake: Condvar,
    rng: AtomicU64,
    enqueued: AtomicUsize,
    finished: AtomicUsize,
    ranges_run: AtomicUsize,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl Pool {
    fn new(workers: usize, seed: u64) -> Arc<Pool> {
        let pool = Arc::new(Pool {
            queue: Mutex::new(Queue::default()),
            wake: Condvar::new(),
            rng: AtomicU64::new(seed | 1),
            enqueued: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
            ranges_run: AtomicUsize::new(0),
            threads: Mutex::new(Vec::new()),
        });
        for _ in 0..workers {
            let p = Arc::clone(&pool);
            pool.threads
                .lock()
                .unwrap()
                .push(std::thread::spawn(move || p.work()));
        }
        pool
    }

    fn random(&self) -> u64 {
        let mut s = self.rng.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed);
        s ^= s >> 30;
        s = s.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        s ^= s >> 27;
        s
    }

    /// Runs queued ranges, taken from random places in the queue, until told to stop.
    fn work(&self) {
        loop {
            let job = {
                let mut q = self.queue.lock().unwrap();
                loop {
                    if q.stop {
                        return;
                    }
                    if !q.jobs.is_empty() {
                        let k = (self.random() % q.jobs.len() as u64) as usize;
                        break q.jobs.swap_remove_back(k).unwrap();
                    }
                    q = self.wake.wait(q).unwrap();
                }
            };
            unsafe { (job.call)(job.start, job.end, job.context as *mut c_void) };
            self.ranges_run.fetch_add(1, Ordering::Relaxed);
            let mut left = job.task.left.lock().unwrap();
            *left -= 1;
            if *left == 0 {
                job.task.done.notify_all();
            }
        }
    }

    fn stop(&self) {
        self.queue.lock().unwrap().stop = true;
        self.wake.notify_all();
        for t in self.threads.lock().unwrap().drain(..) {
            t.join().unwrap();
        }
    }
}

/// `enqueue_task`: cut `0..items` into ranges of random length (at least `min_range`), queue
/// them, return the task as the handle.
unsafe extern "C" fn enqueue(
    call: BoidsTaskFn,
    items: u32,
    min_range: u32,
    context: *mut c_void,
    user: *mut c_void,
) -> *mut c_void {
    let pool = unsafe { &*user.cast::<Pool>() };
    pool.enqueued.fetch_add(1, Ordering::Relaxed);
    let min = min_range.max(1);
    let mut ranges = Vec::new();
    let mut start = 0;
    while start < items {
        let len = min * (1 + (pool.random() % 3) as u32);
        let end = items.min(start + len);
        ranges.push((start, end));
        start = end;
    }
    let task = Arc::new(Task {
        left: Mutex::new(ranges.len()),
        done: Condvar::new(),
    });
    {
        let mut q = pool.queue.lock().unwrap();
        for (start, end) in ranges {
            q.jobs.push_back(Job {
                call,
                start,
                end,
                context: context as usize,
                task: Arc::clone(&task),
            });
        }
    }
    pool.wake.notify_all();
    Arc::into_raw(task).cast_mut().cast()
}

/// `finish_task`: wait until every range of the task has returned.
unsafe extern "C" fn finish(handle: *mut c_void, user: *mut c_void) {
    let pool = unsafe { &*user.cast::<Pool>() };
    let task = unsafe { Arc::from_raw(handle.cast_const().cast::<Task>()) };
    let mut left = task.left.lock().unwrap();
    while *left > 0 {
        left = task.done.wait(left).unwrap();
    }
    pool.finished.fetch_add(1, Ordering::Relaxed);
}

fn host_def(pool: &Arc<Pool>, workers: u32) -> BoidsWorldDef {
    let mut d = boids_default_world_def();
    d.seed = 5;
    d.enqueue_task = Some(enqueue);
    d.finish_task = Some(finish);
    d.worker_count = workers;
    d.user_context = Arc::as_ptr(pool).cast_mut().cast();
    d
}

fn engine_world(threads: u32) -> BoidsWorldId {
    let mut d = boids_default_world_def();
    d.seed = 5;
    d.threads = threads;
    let mut w = BoidsWorldId::default();
    assert_eq!(unsafe { boids_world_create(&d, &mut w) }, BoidsResult::Ok);
    w
}

fn hash(w: BoidsWorldId) -> u64 {
    let mut h = 0;
    assert_eq!(
        unsafe { boids_world_state_hash(w, &mut h) },
        BoidsResult::Ok,
        "{}",
        msg()
    );
    h
}

/// Fills a world: a preset by name, or a 6,000-boid school.
fn fill(w: BoidsWorldId, scene: &str) {
    let name = std::ffi::CString::new(scene).unwrap();
    let mut f = BoidsFlockId::default();
    if scene == "school" {
        let mut d = boids_default_flock_def();
        d.name = name.as_ptr();
        assert_eq!(
            unsafe { boids_flock_create(w, &d, &mut f) },
            BoidsResult::Ok
        );
        let s = boids_default_spawn_def();
        let mut first = 0;
        assert_eq!(
            unsafe { boids_flock_spawn(f, 6000, &s, &mut first) },
            BoidsResult::Ok
        );
    } else {
        assert_eq!(
            unsafe { boids_flock_create_preset(w, name.as_ptr(), name.as_ptr(), &mut f) },
            BoidsResult::Ok,
            "{}",
            msg()
        );
    }
}

fn run(w: BoidsWorldId, steps: usize, overlap: bool) -> u64 {
    for _ in 0..steps {
        if overlap {
            assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok, "{}", msg());
            assert_eq!(boids_world_step_end(w), BoidsResult::Ok, "{}", msg());
        } else {
            assert_eq!(boids_world_step(w, DT), BoidsResult::Ok, "{}", msg());
        }
    }
    hash(w)
}

#[test]
fn every_preset_on_the_hosts_pool_gives_the_engines_bits() {
    let mut scenes: Vec<&str> = boids_sim::presets::all().iter().map(|p| p.name).collect();
    scenes.push("school");
    for workers in [1u32, 2, 7] {
        let pool = Pool::new(workers as usize, 77 + u64::from(workers));
        for scene in &scenes {
            let reference = engine_world(2);
            fill(reference, scene);
            let want = run(reference, 40, false);
            boids_world_destroy(reference);
            for overlap in [false, true] {
                let mut w = BoidsWorldId::default();
                let def = host_def(&pool, workers);
                assert_eq!(
                    unsafe { boids_world_create(&def, &mut w) },
                    BoidsResult::Ok,
                    "{}",
                    msg()
                );
                fill(w, scene);
                let ran = pool.ranges_run.load(Ordering::Relaxed);
                assert_eq!(
                    run(w, 40, overlap),
                    want,
                    "{scene}: {workers} host workers, begin/end {overlap}"
                );
                if *scene == "school" {
                    assert!(
                        pool.ranges_run.load(Ordering::Relaxed) > ran + 40,
                        "the host's workers ran the engine's ranges"
                    );
                }
                assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
            }
        }
        assert_eq!(
            pool.enqueued.load(Ordering::Relaxed),
            pool.finished.load(Ordering::Relaxed),
            "every task handle finished exactly once"
        );
        assert!(pool.enqueued.load(Ordering::Relaxed) > 0);
        pool.stop();
    }
}

#[test]
fn a_loaded_world_and_a_destroyed_step_in_flight_on_the_hosts_pool() {
    let pool = Pool::new(3, 9);
    let def = host_def(&pool, 3);
    let reference = engine_world(1);
    fill(reference, "school");
    run(reference, 5, false);
    let mut n = 0;
    let _ = unsafe { boids_world_save(reference, std::ptr::null_mut(), 0, &mut n) };
    let mut bytes = vec![0u8; n];
    assert_eq!(
        unsafe { boids_world_save(reference, bytes.as_mut_ptr(), n, &mut n) },
        BoidsResult::Ok
    );
    let mut w = BoidsWorldId::default();
    assert_eq!(
        unsafe { boids_world_load(&def, bytes.as_ptr(), bytes.len(), &mut w) },
        BoidsResult::Ok,
        "{}",
        msg()
    );
    assert_eq!(run(w, 10, true), run(reference, 10, false));
    // A step in flight on the host's pool, then the world destroyed: the destroy waits.
    for _ in 0..5 {
        assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok);
        assert_eq!(boids_world_step_end(w), BoidsResult::Ok);
    }
    assert_eq!(boids_world_step_begin(w, DT), BoidsResult::Ok);
    assert_eq!(boids_world_destroy(w), BoidsResult::Ok);
    assert_eq!(
        pool.enqueued.load(Ordering::Relaxed),
        pool.finished.load(Ordering::Relaxed)
    );
    boids_world_destroy(reference);
    pool.stop();
}

/// A host that queues tasks but never runs them (all of its workers busy with the game's own
/// work for the whole frame): the engine's loops still end, and a begun step runs at its end.
#[test]
fn a_host_whose_workers_never_come_still_steps() {
    let pool = Pool::new(0, 1);
    let mut def = host_def(&pool, 4);
    // `finish` would wait forever for ranges no worker runs: this host's finish runs them.
    unsafe extern "C" fn finish_by_running(handle: *mut c_void, user: *mut c_void) {
        let pool = unsafe { &*user.cast::<Pool>() };
        loop {
            let job = pool.queue.lock().unwrap().jobs.pop_front();
            let Some(job) = job else { break };
            unsafe { (job.call)(job.start, job.end, job.context as *mut c_void) };
            *job.task.left.lock().unwrap() -= 1;
        }
        unsafe { finish(handle, user) };
    }
    def.finish_task = Some(finish_by_running);
    let reference = engine_world(1);
    fill(reference, "school");
    let mut w = BoidsWorldId::default();
    assert_eq!(unsafe { boids_world_create(&def, &mut w) }, BoidsResult::Ok);
    fill(w, "school");
    assert_eq!(run(w, 6, true), run(reference, 6, false));
    assert_eq!(run(w, 6, false), run(reference, 6, false));
    assert_eq!(
        pool.enqueued.load(Ordering::Relaxed),
        pool.finished.load(Ordering::Relaxed)
    );
    boids_world_destroy(w);
    boids_world_destroy(reference);
}
