//! A host's job system running a world's parallel work: `BoidsWorldDef`'s task interface
//! (shaped after Box2D v3's `enqueueTask` / `finishTask`) as a [`boids_sim::Exec`].
//!
//! The rule everything here rests on: **the engine never waits for the host.** A call into the
//! library waits only for work it can do itself, or for work another thread is already doing
//! inside the library (which never waits on anything). So no pattern of calls, made from any
//! thread (a host worker included, between dequeuing one of the engine's tasks and running it),
//! can close a cycle through a host worker that is busy or blocked:
//!
//! - each parallel loop becomes one task of `chunks` items, and the thread that enqueued it
//!   claims chunks too, from the same counter as the host's calls; it waits only for chunks
//!   another thread has claimed and not finished, so a loop ends even if the host runs none
//!   of its calls;
//! - a step begun by `boids_world_step_begin` is one task whose job is claimable: whoever comes
//!   first runs it (the host's worker, or the thread that ends or destroys the world), and a
//!   call that comes later finds nothing left;
//! - `finish_task` is called only for a task every call of which has returned (the engine adds
//!   up the items of the calls that returned), so it returns at once; a task whose calls have
//!   not all come yet is kept and finished by a later call that steps, begins, ends or destroys
//!   the world, once they have. While [`MAX_OUTSTANDING`] tasks of a world wait for their
//!   calls, the engine enqueues no more and runs its loops on the stepping thread;
//! - dropping the executor (destroying the world) waits for the calls the host still owes while
//!   the host keeps making calls, giving up after [`DESTROY_WAIT`] without one; it finishes those
//!   tasks and forgets the rest (a worker that destroys the world before running a task it
//!   holds): their calls, when they come, find no task;
//! - reads never go through the host (`World::read_with` copies on the calling thread).
//!
//! The host never holds a pointer into the engine's memory: the `task_context` it is given is a
//! token, looked up in a table of live tasks on every call. A call that comes after its task was
//! finished or forgotten finds no task and returns at once. A host that breaks its contract in a
//! way the engine sees for free (an `enqueue_task` that returns NULL with calls left to make,
//! calls that cover more than the task's items) fails the step with `BOIDS_RESULT_PANIC`
//! ("the host's job system broke its contract") and the world keeps the state before it.
//!
//! While the engine runs a world's step on a thread, or calls its host from one, the thread is
//! marked (`registry::inside_step`), and a call on that world from there returns `BUSY`: it
//! could only wait for the step it is part of.

use crate::registry::inside_step;
use crate::types::{BoidsEnqueueTaskFn, BoidsFinishTaskFn};
use boids_sim::exec::NO_THREADS;
use boids_sim::{Exec, Spawned};
use std::any::Any;
use std::collections::HashMap;
use std::ffi::c_void;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

type Enqueue = unsafe extern "C" fn(
    crate::types::BoidsTaskFn,
    u32,
    u32,
    *mut c_void,
    *mut c_void,
) -> *mut c_void;
type Finish = unsafe extern "C" fn(*mut c_void, *mut c_void);

/// Most tasks of one world whose calls the host has not all made yet: beyond it the engine
/// enqueues nothing and runs its loops on the stepping thread (a host whose workers do not come
/// costs a bounded number of handles, not one a loop for ever).
pub(crate) const MAX_OUTSTANDING: usize = 256;

/// Destroying a world waits for the calls its host still owes while the host keeps making calls
/// (of any task: a busy host drains its queue in its own order), and gives up after this long
/// without one: then it forgets the tasks left (never finished: a worker that destroys the world
/// before running a task it holds could only make the call after the destroy returns).
pub(crate) const DESTROY_WAIT: Duration = Duration::from_secs(1);

/// Calls the hosts have made of any task, stale ones included: how a destroy sees a host that
/// is still draining its queue.
static CALLS_MADE: AtomicU64 = AtomicU64::new(0);

/// What the host's calls of one task have done.
struct Calls {
    /// The task's item count, as given to `enqueue_task`.
    items: u64,
    /// Items of the calls that have returned.
    covered: AtomicU64,
    /// Calls inside the task now.
    running: AtomicUsize,
}

impl Calls {
    fn new(items: u32) -> Calls {
        Calls {
            items: u64::from(items),
            covered: AtomicU64::new(0),
            running: AtomicUsize::new(0),
        }
    }

    /// Every call has returned: `finish_task` would not wait.
    fn all_returned(&self) -> bool {
        self.covered.load(Ordering::Acquire) >= self.items
            && self.running.load(Ordering::Acquire) == 0
    }
}

/// What a host's call of a task runs.
trait Task: Send + Sync {
    /// One call of the host's (any range: the engine hands out its own chunks).
    fn call(&self);
    /// The calls made so far.
    fn calls(&self) -> &Calls;
}

/// The tasks the hosts hold tokens of, by token.
static TASKS: Mutex<Option<HashMap<usize, Arc<dyn Task>>>> = Mutex::new(None);
/// The next token (never 0: the host may treat a NULL context specially).
static NEXT_TOKEN: AtomicUsize = AtomicUsize::new(1);

fn tasks<T>(f: impl FnOnce(&mut HashMap<usize, Arc<dyn Task>>) -> T) -> T {
    let mut g = lock(&TASKS);
    // Room for the tasks of a few busy worlds from the start: registering one then allocates
    // nothing.
    f(g.get_or_insert_with(|| HashMap::with_capacity(256)))
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

/// The host's call of the task behind `context` (a token) for `start..end`; a stale token
/// does nothing.
fn call_token(start: u32, end: u32, context: *mut c_void) {
    CALLS_MADE.fetch_add(1, Ordering::Relaxed);
    let token = context.addr();
    let task = tasks(|t| t.get(&token).cloned());
    if let Some(task) = task {
        let calls = task.calls();
        calls.running.fetch_add(1, Ordering::AcqRel);
        // The task catches its own panics; nothing else can unwind here.
        let _ = catch_unwind(AssertUnwindSafe(|| task.call()));
        calls
            .covered
            .fetch_add(u64::from(end.saturating_sub(start)), Ordering::AcqRel);
        calls.running.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A task handle the host returned, with its token; finished once its calls have returned.
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
    /// The step in flight, if the host took its task (claimable until someone runs it).
    begun: Mutex<Option<Arc<Begun>>>,
    /// Tasks handed to the host and not finished yet (their calls have not all returned).
    outstanding: Mutex<Vec<Pending>>,
    /// The first breach of the host's contract seen since the last `take_fault`.
    fault: Mutex<Option<String>>,
    /// The last loops' tasks (at most [`SPARES`]), each reused by a later loop once nothing
    /// else holds it (a host's worker may still hold the last one for a moment after its
    /// call): a step allocates nothing on the host's job system either.
    spare: Mutex<Vec<Arc<Ranges>>>,
    /// The same for the tasks of begun steps.
    spare_begun: Mutex<Vec<Arc<Begun>>>,
}

/// Loop tasks a host's job system keeps for reuse.
const SPARES: usize = 32;

// SAFETY: the world def's contract: the functions are thread-safe and they and `usercontext`
// stay valid until the world is destroyed; the engine never dereferences `user` itself. The
// handles in `outstanding` are opaque values the host gave out and are only passed back to it.
unsafe impl Send for HostExec {}
// SAFETY: as for `Send`; shared use only reads the fields and locks the lists.
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
            // Never more than `MAX_OUTSTANDING`: holding a task never allocates.
            outstanding: Mutex::new(Vec::with_capacity(MAX_OUTSTANDING)),
            fault: Mutex::new(None),
            spare: Mutex::new(Vec::with_capacity(SPARES)),
            spare_begun: Mutex::new(Vec::with_capacity(SPARES)),
        })
    }

    /// This job system's identity (its address), the key of the marker that refuses calls on
    /// its world from inside the world's own step.
    pub(crate) fn key(&self) -> usize {
        self as *const HostExec as usize
    }

    /// Hands `task` to the host as `items` calls of `call`; returns the host's handle (NULL:
    /// the host says it made every call already) and the token. `None`: the host holds
    /// [`MAX_OUTSTANDING`] tasks whose calls have not come, so nothing was enqueued and the
    /// caller runs the work itself.
    fn enqueue(
        &self,
        call: crate::types::BoidsTaskFn,
        items: usize,
        task: Arc<dyn Task>,
    ) -> Option<(*mut c_void, usize)> {
        self.sweep();
        if lock(&self.outstanding).len() >= MAX_OUTSTANDING {
            return None;
        }
        let items = u32::try_from(items).unwrap_or(u32::MAX);
        let token = register(task);
        // SAFETY: the def's contract for `enqueue_task`. The context is a token, not a pointer:
        // a call with it after the task is finished finds nothing.
        let handle = inside_step(self.key(), || unsafe {
            (self.enqueue)(
                call,
                items,
                1,
                std::ptr::without_provenance_mut(token),
                self.user,
            )
        });
        Some((handle, token))
    }

    /// Keeps the task the host took until its calls have returned (finished now if they have).
    fn hold(&self, handle: *mut c_void, token: usize, task: Arc<dyn Task>) {
        if handle.is_null() {
            unregister(token);
            return;
        }
        lock(&self.outstanding).push(Pending {
            handle,
            token,
            task,
        });
        self.sweep();
    }

    /// Finishes every held task whose calls have all returned (the host's `finish_task` then
    /// returns at once). Called without holding the list: `finish_task` is the host's code.
    fn sweep(&self) {
        // One at a time (the list is short: at most `MAX_OUTSTANDING`), so nothing is
        // allocated and the lock is not held while the host finishes.
        loop {
            let done = {
                let mut held = lock(&self.outstanding);
                let k = held.iter().position(|p| p.task.calls().all_returned());
                k.map(|k| held.swap_remove(k))
            };
            match done {
                Some(p) => self.finish_now(p),
                None => return,
            }
        }
    }

    /// Calls the host's `finish_task` for `p` (whose calls have returned), then forgets its
    /// token. Calls that covered more than the task's items are a breach of the contract.
    fn finish_now(&self, p: Pending) {
        // SAFETY: `handle` came from this host's `enqueue_task` and is finished once.
        inside_step(self.key(), || unsafe { (self.finish)(p.handle, self.user) });
        unregister(p.token);
        let calls = p.task.calls();
        if calls.covered.load(Ordering::Acquire) > calls.items {
            self.breach(
                "its calls of a task covered more than the task's item_count (each item must \
                 be in exactly one call)",
            );
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

impl Drop for HostExec {
    /// The world is being destroyed: waits for the calls the host still owes while it keeps
    /// making calls (giving up after [`DESTROY_WAIT`] without one), finishes those tasks, and
    /// forgets the rest: a worker that destroys the world between dequeuing a task and running
    /// it could only make that call after this returns.
    fn drop(&mut self) {
        let mut quiet_since: Option<(Instant, u64)> = None;
        let mut spins = 0u32;
        loop {
            self.sweep();
            if lock(&self.outstanding).is_empty() || NO_THREADS {
                // Without threads nothing could make the calls while this waits.
                break;
            }
            let made = CALLS_MADE.load(Ordering::Relaxed);
            match quiet_since {
                Some((since, seen)) if seen == made => {
                    if since.elapsed() >= DESTROY_WAIT {
                        break;
                    }
                }
                _ => quiet_since = Some((Instant::now(), made)),
            }
            spins += 1;
            if spins < 64 {
                std::thread::yield_now();
            } else {
                std::thread::sleep(Duration::from_micros(100));
            }
        }
        for p in std::mem::take(&mut *lock(&self.outstanding)) {
            unregister(p.token);
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
    calls: Calls,
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
                lock(&self.panic).get_or_insert(p);
            }
            if self.done.fetch_add(1, Ordering::AcqRel) + 1 == self.chunks {
                let _g = lock(&self.wake.0);
                self.wake.1.notify_all();
            }
        }
    }

    /// Waits until every chunk has been run (by any thread): only chunks another thread has
    /// claimed and is running, which never wait on anything.
    fn wait(&self) {
        for _ in 0..256 {
            if self.done.load(Ordering::Acquire) == self.chunks {
                return;
            }
            std::hint::spin_loop();
        }
        let mut g = lock(&self.wake.0);
        while self.done.load(Ordering::Acquire) < self.chunks {
            g = self.wake.1.wait(g).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Task for Ranges {
    fn call(&self) {
        self.work();
    }
    fn calls(&self) -> &Calls {
        &self.calls
    }
}

/// The host calls this for each range of a loop's task.
extern "C" fn run_ranges(start: u32, end: u32, context: *mut c_void) {
    call_token(start, end, context);
}

/// `fresh` in a kept task that the host, the registry and the held list have all let go of
/// (nothing allocated), else in a new one.
fn reuse<T>(spare: &Mutex<Vec<Arc<T>>>, fresh: T) -> Arc<T> {
    let kept = {
        let mut spare = lock(spare);
        let free = spare.iter_mut().position(|r| Arc::get_mut(r).is_some());
        free.map(|k| spare.swap_remove(k))
    };
    match kept {
        Some(mut r) => match Arc::get_mut(&mut r) {
            Some(slot) => {
                *slot = fresh;
                r
            }
            None => Arc::new(fresh),
        },
        None => Arc::new(fresh),
    }
}

/// Keeps `task` for reuse, up to [`SPARES`] of a kind.
fn keep<T>(spare: &Mutex<Vec<Arc<T>>>, task: Arc<T>) {
    let mut spare = lock(spare);
    if spare.len() < SPARES {
        spare.push(task);
    }
}

/// A step begun by `boids_world_step_begin`: its job, for whoever comes first.
struct Begun {
    job: Mutex<Option<Arc<dyn Spawned>>>,
    /// The host job system's key, for the marker.
    key: usize,
    calls: Calls,
}

impl Begun {
    /// Runs the step, if no one has yet (the host's worker, or the thread that ends or
    /// destroys the world).
    fn run(&self) {
        let job = lock(&self.job).take();
        if let Some(job) = job {
            // The job catches its own panics (the world reports them at step end).
            let _ = inside_step(self.key, || catch_unwind(AssertUnwindSafe(|| job.run())));
        }
    }
}

impl Task for Begun {
    fn call(&self) {
        self.run();
    }
    fn calls(&self) -> &Calls {
        &self.calls
    }
}

/// The host calls this for the task of a begun step (one item).
extern "C" fn run_begun(start: u32, end: u32, context: *mut c_void) {
    call_token(start, end, context);
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
        let fresh = Ranges {
            task: erased,
            n,
            grain,
            chunks,
            next: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            calls: Calls::new(u32::try_from(chunks.min(self.workers)).unwrap_or(u32::MAX)),
            panic: Mutex::new(None),
            wake: (Mutex::new(()), Condvar::new()),
        };
        let ranges = reuse(&self.spare, fresh);
        // As many items as the host has workers: each call claims chunks until none is left, so
        // more calls would only be ones that find nothing to do.
        let taken = self.enqueue(run_ranges, chunks.min(self.workers), ranges.clone());
        let own = ranges.work();
        ranges.wait();
        if let Some((handle, token)) = taken {
            if handle.is_null() && own > 0 {
                self.breach(
                    "enqueue_task returned NULL (every call made) before every call of its task \
                     was made",
                );
            }
            self.hold(handle, token, ranges.clone());
        }
        let panic = lock(&ranges.panic).take();
        keep(&self.spare, ranges);
        if let Some(p) = panic {
            resume_unwind(p);
        }
    }

    fn spawn(&self, job: Arc<dyn Spawned>) {
        // Tasks the host has finished with are found free again.
        self.sweep();
        let begun = reuse(
            &self.spare_begun,
            Begun {
                job: Mutex::new(Some(job)),
                key: self.key(),
                calls: Calls::new(1),
            },
        );
        // Kept for the next step now: free again once the host and this step let go of it.
        keep(&self.spare_begun, begun.clone());
        match self.enqueue(run_begun, 1, begun.clone()) {
            // The host says it ran the task (if it did not, the step runs here), or it holds
            // too many of this world's tasks already: the step runs here.
            None => begun.run(),
            Some((handle, token)) if handle.is_null() => {
                unregister(token);
                begun.run();
            }
            Some((handle, token)) => {
                *lock(&self.begun) = Some(begun.clone());
                self.hold(handle, token, begun);
            }
        }
    }

    fn finish_step(&self) {
        // A step no worker has started runs here (the job is taken once), so ending a step
        // never waits on the host's queue, even on the worker that holds the step's task.
        let begun = lock(&self.begun).take();
        if let Some(begun) = begun {
            begun.run();
        }
        self.sweep();
    }

    fn take_fault(&self) -> Option<String> {
        lock(&self.fault).take()
    }
}
