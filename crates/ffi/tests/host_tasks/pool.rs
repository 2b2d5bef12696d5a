//! The host of the host-task tests: a game engine's job system as `BoidsWorldDef`'s task
//! interface expects it. A pool of its own threads takes ranges from one queue (in a random
//! order, or first in first out), and may also run the game's own jobs. A worker may run a
//! "wrapper" of the host's between taking a range and running it (what a host's job wrapper
//! does: profiling, bookkeeping, or a call into the library), and `finish_task` waits for the
//! task's ranges without helping. Every handle the host gives out is counted, and so is every
//! one it is asked to finish. Everything the pool does counts as progress for the tests' hang
//! detector ([`PROGRESS`]).
//!
//! SAFETY, for every `unsafe` block here: `user_context` is a `Pool` that outlives every world
//! using it; task contexts are passed back to the engine's task function unchanged; a handle
//! is an `Arc<Task>` turned into a raw pointer by `enqueue` and back once by `finish`.

use boids_ffi::BoidsTaskFn;
use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// Calls made through the host and by the tests: a hang detector fails a test when this stops
/// moving, not when a slow machine takes long.
pub static PROGRESS: AtomicU64 = AtomicU64::new(0);

/// Counts one unit of progress.
pub fn tick() {
    PROGRESS.fetch_add(1, Ordering::Relaxed);
}

/// One task the engine enqueued: how many of its ranges have not returned yet.
pub struct Task {
    left: Mutex<usize>,
    done: Condvar,
}

/// A range to run: the engine's function and context, the task it belongs to, and whether the
/// task was enqueued while the pool was armed (`Pool::arm`).
pub struct Range {
    pub call: BoidsTaskFn,
    pub start: u32,
    pub end: u32,
    pub context: usize,
    pub task: Arc<Task>,
    pub marked: bool,
}

impl Range {
    /// Makes the engine's call, then counts the range as returned.
    pub fn run(self, pool: &Pool) {
        unsafe { (self.call)(self.start, self.end, self.context as *mut c_void) };
        pool.ranges_run.fetch_add(1, Ordering::Relaxed);
        tick();
        let mut left = self.task.left.lock().unwrap();
        *left -= 1;
        if *left == 0 {
            self.task.done.notify_all();
        }
    }
}

/// What a worker takes from the queue.
pub enum Item {
    Range(Range),
    /// A job of the game's own.
    Game(Box<dyn FnOnce() + Send>),
}

#[derive(Default)]
struct Queue {
    items: VecDeque<Item>,
    /// Items the workers have taken and not finished.
    running: usize,
    stop: bool,
}

/// What a worker does with a range it took, before running it (it may run it itself, later or
/// never; by default it runs it).
pub type Wrapper = Box<dyn Fn(Range) + Send + Sync>;

/// The host's pool.
pub struct Pool {
    queue: Mutex<Queue>,
    wake: Condvar,
    /// Signalled whenever a worker finishes an item.
    settled: Condvar,
    rng: AtomicU64,
    /// Ranges are taken first in first out (else from random places).
    fifo: bool,
    /// The next task enqueued is marked (see `Range::marked`).
    armed: AtomicBool,
    wrapper: Mutex<Option<Arc<Wrapper>>>,
    pub enqueued: AtomicUsize,
    pub finished: AtomicUsize,
    pub ranges_run: AtomicUsize,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

impl Pool {
    /// A pool of `workers` threads taking ranges from random places in the queue.
    pub fn new(workers: usize, seed: u64) -> Arc<Pool> {
        Pool::build(workers, seed, false)
    }

    /// A pool of `workers` threads that take the queue in order (a game's job first, then the
    /// ranges queued after it).
    pub fn fifo(workers: usize) -> Arc<Pool> {
        Pool::build(workers, 1, true)
    }

    fn build(workers: usize, seed: u64, fifo: bool) -> Arc<Pool> {
        let pool = Arc::new(Pool {
            queue: Mutex::new(Queue::default()),
            wake: Condvar::new(),
            settled: Condvar::new(),
            rng: AtomicU64::new(seed | 1),
            fifo,
            armed: AtomicBool::new(false),
            wrapper: Mutex::new(None),
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

    /// Marks the next task enqueued (the one a `boids_world_step_begin` about to be called
    /// hands over, say).
    pub fn arm(&self) {
        self.armed.store(true, Ordering::SeqCst);
    }

    /// What the workers do with each range they take before running it.
    pub fn set_wrapper(&self, w: Option<Wrapper>) {
        *self.wrapper.lock().unwrap() = w.map(Arc::new);
    }

    /// Queues a job of the game's own.
    pub fn push_game(&self, job: impl FnOnce() + Send + 'static) {
        self.queue
            .lock()
            .unwrap()
            .items
            .push_back(Item::Game(Box::new(job)));
        self.wake.notify_all();
    }

    /// Takes every queued range (none run): for a test that plays the host's late workers.
    pub fn take_all(&self) -> Vec<Item> {
        self.queue.lock().unwrap().items.drain(..).collect()
    }

    /// Ranges waiting in the queue.
    pub fn queued(&self) -> usize {
        self.queue.lock().unwrap().items.len()
    }

    /// Waits until the queue is empty and only `others` items are still running (a worker's
    /// own item counts as one): a counted handshake, with no time in it.
    pub fn wait_until_drained(&self, others: usize) {
        let mut q = self.queue.lock().unwrap();
        while !q.items.is_empty() || q.running > others {
            q = self.settled.wait(q).unwrap();
        }
    }

    /// Runs queued items until told to stop.
    fn work(&self) {
        loop {
            let item = {
                let mut q = self.queue.lock().unwrap();
                loop {
                    if q.stop {
                        return;
                    }
                    if !q.items.is_empty() {
                        let k = if self.fifo {
                            0
                        } else {
                            (self.random() % q.items.len() as u64) as usize
                        };
                        q.running += 1;
                        break q.items.swap_remove_back(k).unwrap();
                    }
                    q = self.wake.wait(q).unwrap();
                }
            };
            match item {
                Item::Game(job) => job(),
                Item::Range(r) => {
                    let wrapper = self.wrapper.lock().unwrap().clone();
                    match wrapper {
                        Some(w) => w(r),
                        None => r.run(self),
                    }
                }
            }
            self.queue.lock().unwrap().running -= 1;
            self.settled.notify_all();
        }
    }

    /// Stops the workers (what is still queued is dropped) and joins them.
    pub fn stop(&self) {
        self.queue.lock().unwrap().stop = true;
        self.wake.notify_all();
        for t in self.threads.lock().unwrap().drain(..) {
            t.join().unwrap();
        }
    }

    /// `user_context` for a world def.
    pub fn context(self: &Arc<Pool>) -> *mut c_void {
        Arc::as_ptr(self).cast_mut().cast()
    }
}

/// `enqueue_task`: cut `0..items` into ranges of random length (at least `min_range`), queue
/// them, return the task as the handle.
pub unsafe extern "C" fn enqueue(
    call: BoidsTaskFn,
    items: u32,
    min_range: u32,
    context: *mut c_void,
    user: *mut c_void,
) -> *mut c_void {
    let pool = unsafe { &*user.cast::<Pool>() };
    pool.enqueued.fetch_add(1, Ordering::Relaxed);
    tick();
    let marked = pool.armed.swap(false, Ordering::SeqCst);
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
            q.items.push_back(Item::Range(Range {
                call,
                start,
                end,
                context: context as usize,
                task: Arc::clone(&task),
                marked,
            }));
        }
    }
    pool.wake.notify_all();
    Arc::into_raw(task).cast_mut().cast()
}

/// `finish_task`: wait until every range of the task has returned (without helping).
pub unsafe extern "C" fn finish(handle: *mut c_void, user: *mut c_void) {
    let pool = unsafe { &*user.cast::<Pool>() };
    let task = unsafe { Arc::from_raw(handle.cast_const().cast::<Task>()) };
    let mut left = task.left.lock().unwrap();
    while *left > 0 {
        left = task.done.wait(left).unwrap();
    }
    pool.finished.fetch_add(1, Ordering::Relaxed);
    tick();
}
