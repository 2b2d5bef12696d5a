//! A host's job system running a world's parallel work: `BoidsWorldDef`'s task interface
//! (shaped after Box2D v3's `enqueueTask` / `finishTask`) as a [`boids_sim::Exec`].
//!
//! Each parallel loop of a step becomes one task of `chunks` items. The engine does not trust
//! the host to run it soon (a host may have one worker, busy with the step itself): the thread
//! that enqueued the task claims chunks too, from the same counter as the host's calls, and
//! waits only for chunks another thread has claimed and not finished. So a loop ends even if the
//! host runs none of its calls, and never waits on the host's queue.
//!
//! The host never holds a pointer into the engine's memory: the `task_context` it is given is a
//! token, looked up in a table of live tasks on every call. A call that comes after its task was
//! finished (a host whose `finish_task` did not wait, or that ran calls after returning NULL from
//! `enqueue_task`) finds no task and returns at once, and one that is still running when
//! `finish_task` returns is counted: the step then fails with `BOIDS_RESULT_PANIC` ("the host's
//! job system broke its contract") and the world keeps the state before it. Breaking the
//! contract is undefined behaviour by the header's terms; this is what the engine does about it
//! where catching it costs nothing.
//!
//! Inside a step begun by `boids_world_step_begin`, which runs as a task on a host worker, the
//! `finish_task` calls wait until `boids_world_step_end` (a worker that waited for its own
//! queue could wait forever); elsewhere each loop finishes its task before it returns. While the
//! engine runs a world's step on a thread, or calls its host from one, the thread is marked
//! (`registry::inside_step`), and a call on that world from there returns `BUSY`.

use crate::registry::inside_step;
use crate::types::{BoidsEnqueueTaskFn, BoidsFinishTaskFn};
use boids_sim::Exec;
use std::any::Any;
use std::cell::Cell;
use std::collections::HashMap;
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

/// What a host's call of a task runs.
trait Task: Send + Sync {
    /// One call of the host's (any range: the engine hands out its own chunks).
    fn call(&self);
    /// Calls of the host's inside [`Task::call`] now.
    fn calls_running(&self) -> usize;
}

/// The tasks the hosts hold tokens of, by token.
static TASKS: Mutex<Option<HashMap<usize, Arc<dyn Task>>>> = Mutex::new(None);
/// The next token (never 0: the host may treat a NULL context specially).
static NEXT_TOKEN: AtomicUsize = AtomicUsize::new(1);

fn tasks<T>(f: impl FnOnce(&mut HashMap<usize, Arc<dyn Task>>) -> T) -> T {
    let mut g = TASKS.lock().unwrap_or_else(|p| p.into_inner());
    f(g.get_or_insert_with(HashMap::new))
}

/// Registers `task` and returns its token.
fn register(task: Arc<dyn Task>) -> usize {
    tasks(|t| {
        loop {
            let token = NEXT_TOKEN.fetch_add(1, Ordering::Relaxed);
            // Tokens wrap only after usize::MAX tasks; skip 0 and any still live.
            if token != 0 && !t.contains_key(&token) {
                t.insert(token, task);
                return token;
            }
        }
    })
}

fn unregister(token: usize) {
    tasks(|t| t.remove(&token));
}

/// The host's call of the task behind `context` (a token); a stale token does nothing.
fn call_token(context: *mut c_void) {
    let token = context as usize;
    let task = tasks(|t| t.get(&token).cloned());
    if let Some(task) = task {
        // The task catches its own panics; nothing else can unwind here.
        let _ = catch_unwind(AssertUnwindSafe(|| task.call()));
    }
}

/// A task handle the host returned, with its token; finished later.
struct Pending {
    handle: *mut c_void,
    token: usize,
    task: Arc<dyn Task>,
}

/// The host's job system, from a world def.
pub(crate) struct HostExec {
    enqueue: Enqueue,
    finish: Finish,
    user: *mut c_void,
    workers: usize,
    /// The task of the step in flight, if the host took it.
    begun: Mutex<Option<(Pending, Arc<Begun>)>>,
    /// The tasks its loops enqueued, finished by `finish_step`.
    deferred: Mutex<Vec<Pending>>,
    /// The first breach of the host's contract seen since the last `take_fault`.
    fault: Mutex<Option<String>>,
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
            fault: Mutex::new(None),
        })
    }

    /// This job system's identity (its address), the key of the marker that refuses calls on
    /// its world from inside the world's own step.
    pub(crate) fn key(&self) -> usize {
        self as *const HostExec as usize
    }

    /// Hands `task` to the host as `items` calls of `call`; returns the host's handle (NULL:
    /// the host says it made every call already) and the token.
    fn enqueue(
        &self,
        call: crate::types::BoidsTaskFn,
        items: usize,
        task: Arc<dyn Task>,
    ) -> (*mut c_void, usize) {
        let items = u32::try_from(items).unwrap_or(u32::MAX);
        let token = register(task);
        // SAFETY: the def's contract for `enqueue_task`. The context is a token, not a pointer:
        // a call with it after the task is finished finds nothing.
        let handle = inside_step(self.key(), || unsafe {
            (self.enqueue)(call, items, 1, token as *mut c_void, self.user)
        });
        (handle, token)
    }

    /// Calls the host's `finish_task` for `p`, then forgets its token; a call of the task still
    /// running when `finish_task` has returned is a breach of the contract.
    fn finish_now(&self, p: Pending) {
        // SAFETY: `handle` came from this host's `enqueue_task` and is finished once.
        inside_step(self.key(), || unsafe { (self.finish)(p.handle, self.user) });
        unregister(p.token);
        if p.task.calls_running() > 0 {
            self.breach(
                "finish_task returned while a call of its task was still running (finish_task \
                 must wait for every call)",
            );
        }
    }

    /// Finishes `handle` now, or at the end of a step begun on the host.
    fn release(&self, handle: *mut c_void, token: usize, task: Arc<dyn Task>) {
        if handle.is_null() {
            unregister(token);
            return;
        }
        let p = Pending {
            handle,
            token,
            task,
        };
        if IN_BEGUN_STEP.with(Cell::get) {
            lock(&self.deferred).push(p);
        } else {
            self.finish_now(p);
        }
    }

    fn breach(&self, what: &str) {
        lock(&self.fault).get_or_insert_with(|| {
            format!(
                "the host's job system broke its contract: {what}; the step's result was \
                 dropped"
            )
        });
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
    /// The host's calls inside `call` now.
    running: AtomicUsize,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    wake: (Mutex<()>, Condvar),
}

// SAFETY: `task` points to a `Sync` closure and is only called while `for_ranges` (which owns
// the borrow) waits; everything else is atomics and locks.
unsafe impl Send for Ranges {}
// SAFETY: as for `Send`.
unsafe impl Sync for Ranges {}

impl Ranges {
    /// Claims and runs chunks until none is left; returns how many this call ran. A panic is
    /// kept for the loop's thread.
    fn work(&self) -> usize {
        let mut ran = 0;
        loop {
            let c = self.next.fetch_add(1, Ordering::Relaxed);
            if c >= self.chunks {
                return ran;
            }
            ran += 1;
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

impl Task for Ranges {
    fn call(&self) {
        self.running.fetch_add(1, Ordering::AcqRel);
        self.work();
        self.running.fetch_sub(1, Ordering::AcqRel);
    }
    fn calls_running(&self) -> usize {
        self.running.load(Ordering::Acquire)
    }
}

/// The host calls this for each range of a loop's task.
extern "C" fn run_ranges(_start: u32, _end: u32, context: *mut c_void) {
    call_token(context);
}

/// A step begun by `boids_world_step_begin`, waiting for a host worker.
struct Begun {
    job: Mutex<Option<Box<dyn FnOnce() + Send>>>,
    /// The host job system's key, for the marker.
    key: usize,
    running: AtomicUsize,
}

impl Begun {
    /// Runs the step, if no one has yet, with its loops' tasks kept for `finish_step`.
    fn run(&self) {
        let job = self.job.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(job) = job {
            let was = IN_BEGUN_STEP.with(|f| f.replace(true));
            // The job catches its own panics (the world reports them at step end).
            let _ = inside_step(self.key, || catch_unwind(AssertUnwindSafe(job)));
            IN_BEGUN_STEP.with(|f| f.set(was));
        }
    }
}

impl Task for Begun {
    fn call(&self) {
        self.running.fetch_add(1, Ordering::AcqRel);
        self.run();
        self.running.fetch_sub(1, Ordering::AcqRel);
    }
    fn calls_running(&self) -> usize {
        self.running.load(Ordering::Acquire)
    }
}

/// The host calls this for the task of a begun step (one item).
extern "C" fn run_begun(_start: u32, _end: u32, context: *mut c_void) {
    call_token(context);
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
            running: AtomicUsize::new(0),
            panic: Mutex::new(None),
            wake: (Mutex::new(()), Condvar::new()),
        });
        let (handle, token) = self.enqueue(run_ranges, chunks, ranges.clone());
        let own = ranges.work();
        ranges.wait();
        if handle.is_null() && own > 0 {
            self.breach(
                "enqueue_task returned NULL (every call made) before every call of its task \
                 was made",
            );
        }
        let panic = ranges
            .panic
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        self.release(handle, token, ranges);
        if let Some(p) = panic {
            resume_unwind(p);
        }
    }

    fn spawn(&self, job: Box<dyn FnOnce() + Send>) {
        let begun = Arc::new(Begun {
            job: Mutex::new(Some(job)),
            key: self.key(),
            running: AtomicUsize::new(0),
        });
        let (handle, token) = self.enqueue(run_begun, 1, begun.clone());
        if handle.is_null() {
            // The host says it ran the task; if it did not, the step runs here.
            unregister(token);
            begun.run();
        } else {
            let pending = Pending {
                handle,
                token,
                task: begun.clone(),
            };
            *lock(&self.begun) = Some((pending, begun));
        }
    }

    fn finish_step(&self) {
        // A step the host has not started yet runs here (the job is taken once), so step end
        // never waits on the host's queue; then the step's own task is finished, and the
        // tasks its loops enqueued, in order.
        let begun = lock(&self.begun).take();
        if let Some((p, begun)) = begun {
            begun.run();
            self.finish_now(p);
        }
        let rest = std::mem::take(&mut *lock(&self.deferred));
        for p in rest {
            self.finish_now(p);
        }
    }

    fn take_fault(&self) -> Option<String> {
        lock(&self.fault).take()
    }
}
