//! A host's job system running a world's parallel work: `BoidsWorldDef`'s task interface
//! (shaped after Box2D v3's `enqueueTask` / `finishTask`) as a [`boids_sim::Exec`].
//!
//! Each parallel loop of a step becomes one task of `chunks` items. The engine does not trust
//! the host to run it soon (a host may have one worker, busy with the step itself): the thread
//! that enqueued the task claims chunks too, from the same counter as the host's calls, and
//! waits only for chunks another thread has claimed and not finished. So a loop ends even if the
//! host runs none of its calls, and never waits on the host's queue.
//!
//! A loop's task may be called after the loop has returned (the counter is exhausted then, and
//! the call returns at once), so its context lives until `finish_task` for it has returned.
//! Inside a step begun by `boids_world_step_begin`, which runs as a task on a host worker, the
//! `finish_task` calls wait until `boids_world_step_end` (a worker that waited for its own
//! queue could wait forever); elsewhere each loop finishes its task before it returns.

use crate::types::{BoidsEnqueueTaskFn, BoidsFinishTaskFn};
use boids_sim::Exec;
use std::any::Any;
use std::cell::Cell;
use std::ffi::c_void;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

type Enqueue = unsafe extern "C" fn(
    crate::types::BoidsTaskFn,
    u32,
    u32,
    *mut c_void,
    *mut c_void,
) -> *mut c_void;
type Finish = unsafe extern "C" fn(*mut c_void, *mut c_void);

thread_local! {
    /// Set while this thread runs a step begun by `boids_world_step_begin` on the host.
    static IN_BEGUN_STEP: Cell<bool> = const { Cell::new(false) };
}

/// A task handle the host returned, with the context its calls use; finished later.
struct Pending {
    handle: *mut c_void,
    context: Arc<dyn Any + Send + Sync>,
}

/// The host's job system, from a world def.
pub(crate) struct HostExec {
    enqueue: Enqueue,
    finish: Finish,
    user: *mut c_void,
    workers: usize,
    /// The task of the step in flight, if the host took it.
    begun: Mutex<Option<Pending>>,
    /// The tasks its loops enqueued, finished by `finish_step`.
    deferred: Mutex<Vec<Pending>>,
}

// SAFETY: the world def's contract: the functions are thread-safe and they and `usercontext`
// stay valid until the world is destroyed; the engine never dereferences `user` itself. The
// handles in `deferred` are opaque values the host gave out and are only passed back to it.
unsafe impl Send for HostExec {}
// SAFETY: as for `Send`; shared use only reads the fields and locks `deferred`.
unsafe impl Sync for HostExec {}

impl HostExec {
    /// The host's job system, when the def names one (both functions set); `None` for neither.
    pub(crate) fn new(
        enqueue: BoidsEnqueueTaskFn,
        finish: BoidsFinishTaskFn,
        user: *mut c_void,
        workers: u32,
    ) -> Option<HostExec> {
        Some(HostExec {
            enqueue: enqueue?,
            finish: finish?,
            user,
            workers: workers.max(1) as usize,
            begun: Mutex::new(None),
            deferred: Mutex::new(Vec::new()),
        })
    }

    /// Hands `context` to the host as a task of `items` calls of `call`; returns the handle
    /// (NULL: the host made every call already).
    fn enqueue(
        &self,
        call: crate::types::BoidsTaskFn,
        items: usize,
        context: &Arc<impl Any + Send + Sync>,
    ) -> *mut c_void {
        let items = u32::try_from(items).unwrap_or(u32::MAX);
        // SAFETY: the def's contract for `enqueue_task`; the context outlives every call the
        // host makes (it is kept until `finish_task` for the handle has returned).
        unsafe {
            (self.enqueue)(
                call,
                items,
                1,
                Arc::as_ptr(context).cast_mut().cast(),
                self.user,
            )
        }
    }

    /// Finishes `handle` now, or at the end of a step begun on the host.
    fn release(&self, handle: *mut c_void, context: Arc<dyn Any + Send + Sync>) {
        if handle.is_null() {
            return;
        }
        if IN_BEGUN_STEP.with(Cell::get) {
            lock(&self.deferred).push(Pending { handle, context });
        } else {
            // SAFETY: `handle` came from this host's `enqueue_task` and is finished once.
            unsafe { (self.finish)(handle, self.user) };
        }
    }
}

/// Locks what the host's calls share (plain data: a panic elsewhere cannot leave it torn).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// One parallel loop, shared with the host's calls.
struct Ranges {
    /// The loop body, its lifetime erased: called only for a claimed chunk, and every chunk is
    /// claimed and finished before `for_ranges` returns.
    task: *const (dyn Fn(Range<usize>) + Sync + 'static),
    n: usize,
    grain: usize,
    chunks: usize,
    next: AtomicUsize,
    done: AtomicUsize,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    wake: (Mutex<()>, Condvar),
}

// SAFETY: `task` points to a `Sync` closure and is only called while `for_ranges` (which owns
// the borrow) waits; everything else is atomics and locks.
unsafe impl Send for Ranges {}
// SAFETY: as for `Send`.
unsafe impl Sync for Ranges {}

impl Ranges {
    /// Claims and runs chunks until none is left. A panic is kept for the loop's thread.
    fn work(&self) {
        loop {
            let c = self.next.fetch_add(1, Ordering::Relaxed);
            if c >= self.chunks {
                return;
            }
            let range = c * self.grain..((c + 1) * self.grain).min(self.n);
            // SAFETY: chunk `c` was claimed, so the loop that owns `task` has not returned (it
            // waits for `done == chunks`, and this chunk is not done yet).
            let task = unsafe { &*self.task };
            if let Err(p) = catch_unwind(AssertUnwindSafe(|| task(range))) {
                let mut slot = self.panic.lock().unwrap_or_else(|e| e.into_inner());
                slot.get_or_insert(p);
            }
            if self.done.fetch_add(1, Ordering::AcqRel) + 1 == self.chunks {
                let _g = self.wake.0.lock().unwrap_or_else(|e| e.into_inner());
                self.wake.1.notify_all();
            }
        }
    }

    /// Waits until every chunk has been run (by any thread).
    fn wait(&self) {
        for _ in 0..256 {
            if self.done.load(Ordering::Acquire) == self.chunks {
                return;
            }
            std::hint::spin_loop();
        }
        let mut g = self.wake.0.lock().unwrap_or_else(|e| e.into_inner());
        while self.done.load(Ordering::Acquire) < self.chunks {
            g = self.wake.1.wait(g).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// The host calls this for each range of a loop's task.
extern "C" fn run_ranges(_start: u32, _end: u32, context: *mut c_void) {
    if context.is_null() {
        return;
    }
    // SAFETY: `context` is the `Ranges` this library passed to `enqueue_task`, kept alive until
    // `finish_task` for its handle returns, which the host's contract puts after this call.
    let ranges = unsafe { &*context.cast::<Ranges>() };
    // `work` catches the loop body's panics; nothing else in it can panic.
    let _ = catch_unwind(AssertUnwindSafe(|| ranges.work()));
}

/// A step begun by `boids_world_step_begin`, waiting for a host worker.
struct Begun {
    job: Mutex<Option<Box<dyn FnOnce() + Send>>>,
}

impl Begun {
    /// Runs the step, if no one has yet, with its loops' tasks kept for `finish_step`.
    fn run(&self) {
        let job = self.job.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(job) = job {
            let was = IN_BEGUN_STEP.with(|f| f.replace(true));
            // The job catches its own panics (the world reports them at step end).
            let _ = catch_unwind(AssertUnwindSafe(job));
            IN_BEGUN_STEP.with(|f| f.set(was));
        }
    }
}

/// The host calls this for the task of a begun step (one item).
extern "C" fn run_begun(_start: u32, _end: u32, context: *mut c_void) {
    if context.is_null() {
        return;
    }
    // SAFETY: `context` is the `Begun` this library passed to `enqueue_task`, kept alive until
    // `finish_task` for its handle returns.
    let begun = unsafe { &*context.cast::<Begun>() };
    let _ = catch_unwind(AssertUnwindSafe(|| begun.run()));
}

impl Exec for HostExec {
    fn workers(&self) -> usize {
        self.workers
    }

    fn for_ranges(&self, n: usize, grain: usize, task: &(dyn Fn(Range<usize>) + Sync)) {
        let grain = grain.max(1);
        let chunks = n.div_ceil(grain);
        if chunks <= 1 {
            if n > 0 {
                task(0..n);
            }
            return;
        }
        // SAFETY: only the lifetime is erased; `Ranges::work` dereferences the pointer only for
        // a claimed chunk, and this function returns only when every chunk is done (below).
        let erased: *const (dyn Fn(Range<usize>) + Sync + 'static) =
            unsafe { std::mem::transmute(task as *const (dyn Fn(Range<usize>) + Sync + '_)) };
        let ranges = Arc::new(Ranges {
            task: erased,
            n,
            grain,
            chunks,
            next: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            panic: Mutex::new(None),
            wake: (Mutex::new(()), Condvar::new()),
        });
        let handle = self.enqueue(run_ranges, chunks, &ranges);
        ranges.work();
        ranges.wait();
        let panic = ranges
            .panic
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        self.release(handle, ranges);
        if let Some(p) = panic {
            resume_unwind(p);
        }
    }

    fn spawn(&self, job: Box<dyn FnOnce() + Send>) {
        let begun = Arc::new(Begun {
            job: Mutex::new(Some(job)),
        });
        let handle = self.enqueue(run_begun, 1, &begun);
        if handle.is_null() {
            // The host says it ran the task; if it did not, the step runs here.
            begun.run();
        } else {
            *lock(&self.begun) = Some(Pending {
                handle,
                context: begun,
            });
        }
    }

    fn finish_step(&self) {
        // A step the host has not started yet runs here (the job is taken once), so step end
        // never waits on the host's queue; then the step's own task is finished, and the
        // tasks its loops enqueued, in order.
        if let Some(p) = lock(&self.begun).take() {
            if let Ok(begun) = Arc::downcast::<Begun>(Arc::clone(&p.context)) {
                begun.run();
            }
            // SAFETY: a handle of this host's, finished once.
            unsafe { (self.finish)(p.handle, self.user) };
        }
        let rest = std::mem::take(&mut *lock(&self.deferred));
        for p in rest {
            // SAFETY: as above.
            unsafe { (self.finish)(p.handle, self.user) };
        }
    }
}
