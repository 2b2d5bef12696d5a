//! Where a Rayon world's overlapped steps start: one thread for each of the process's pools
//! (and one for Rayon's global pool), shared by every world on it. Rayon's `spawn` allocates
//! its record of each job it is given; waiting in the pool (`install`) from a thread outside
//! it does not (Rayon's queue of work entering the pool allocates one block per 63 entries).
//! So the world hands its step to this thread, which waits in the pool while the pool's
//! workers take steps from the list of those begun, one each, as they come: each worker runs
//! one with `join` (no allocation either) and leaves taking the next to the other side of the
//! join, which an idle worker steals. Sixteen small worlds begun one after another run on both
//! workers of a pool of two.
//!
//! Also the process's pools themselves (one per thread count, shared by the worlds that ask
//! for it), what each of the engine's threads does as it starts (`serve_the_frame`), and where
//! a world's loops run (`Runner`: its pool, the calling thread, or the host's workers).

use super::step::Overlap;
use super::{Runner, lock};
use crate::error::{Error, invalid};
use boids_index::{Exec, RayonExec, Spawned};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, Weak};

/// Run by each of the engine's own threads (its pools' workers, a pool's launcher) as it
/// starts: on Apple platforms, the quality of service of the frame it works for.
///
/// A thread made with `pthread_create` runs at the default QoS, below the user-interactive
/// class of the main and render threads that wait for the step (`step_end` blocks on it).
/// The scheduler cannot see through that wait, so an iPhone would run the step on its
/// efficiency cores, or late, while the frame stalls. User-interactive is Apple's class for
/// work a frame needs in time; the workers are few (the Unity package defaults to two on a
/// phone) and sleep between steps.
#[cfg(target_vendor = "apple")]
#[allow(unsafe_code)]
pub(crate) fn serve_the_frame() {
    // SAFETY: sets the calling thread's own QoS class; it takes no pointers and touches no
    // other state. A failure leaves the thread at its default class, which is only slower.
    let _ = unsafe {
        libc::pthread_set_qos_class_self_np(libc::qos_class_t::QOS_CLASS_USER_INTERACTIVE, 0)
    };
}

/// Elsewhere threads keep the platform's default priority (see the Apple version).
#[cfg(not(target_vendor = "apple"))]
pub(crate) fn serve_the_frame() {}

/// The process's pool of `threads` workers: every world that asks for the same count shares it
/// (ten worlds of 4 threads run on 4 workers, not 40), and it ends with the last such world.
pub(crate) fn shared_pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, Error> {
    static POOLS: Mutex<Vec<(usize, Weak<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    let mut pools = lock(&POOLS);
    pools.retain(|(_, w)| w.strong_count() > 0);
    if let Some(pool) = pools
        .iter()
        .filter(|(n, _)| *n == threads)
        .find_map(|(_, w)| w.upgrade())
    {
        return Ok(pool);
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(move |i| format!("boids-{threads}-{i}"))
            .start_handler(|_| serve_the_frame())
            .build()
            .map_err(|e| invalid(format!("cannot start thread pool: {e}")))?,
    );
    pools.push((threads, Arc::downgrade(&pool)));
    Ok(pool)
}

/// Steps a launcher's lists hold before they grow (a step begun allocates nothing until more
/// than this many worlds of one pool have steps waiting to start at once).
const ROOM: usize = 64;

/// The launcher of one pool.
pub(crate) struct Launcher {
    shared: Arc<Shared>,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    exec: Arc<RayonExec>,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
}

struct State {
    /// Steps begun and not started yet, in the order they were begun.
    pending: VecDeque<Arc<Overlap>>,
    /// The pool's last world is gone: the thread ends.
    stop: bool,
}

/// The launcher for the worlds on `exec` (`threads` as the world asked: 0 for Rayon's global
/// pool), shared by them: made by the first, ended (its thread joined) with the last.
pub(crate) fn shared_launcher(threads: usize, exec: &Arc<RayonExec>) -> Arc<Launcher> {
    static LAUNCHERS: Mutex<Vec<(usize, Weak<Launcher>)>> = Mutex::new(Vec::new());
    let mut all = lock(&LAUNCHERS);
    all.retain(|(_, w)| w.strong_count() > 0);
    // The launcher keeps its pool alive, so a live one for this count is on this pool.
    if let Some(l) = all
        .iter()
        .filter(|(n, _)| *n == threads)
        .find_map(|(_, w)| w.upgrade())
        .filter(|l| l.exec.same_pool(exec))
    {
        return l;
    }
    let l = Arc::new(Launcher {
        shared: Arc::new(Shared {
            state: Mutex::new(State {
                pending: VecDeque::with_capacity(ROOM),
                stop: false,
            }),
            wake: Condvar::new(),
        }),
        thread: Mutex::new(None),
        exec: Arc::clone(exec),
    });
    all.push((threads, Arc::downgrade(&l)));
    l
}

impl Launcher {
    /// Starts `step` (already holding its job) in the pool, soon. Its thread is made at the
    /// first step; when the system will not make one, the step goes to Rayon's `spawn`.
    pub(crate) fn start(&self, step: &Arc<Overlap>) {
        {
            let mut thread = lock(&self.thread);
            if thread.is_none() {
                *thread = self.spawn_thread();
                if thread.is_none() {
                    boids_index::Exec::spawn(&*self.exec, Arc::clone(step) as Arc<dyn Spawned>);
                    return;
                }
            }
        }
        lock(&self.shared.state).pending.push_back(Arc::clone(step));
        self.shared.wake.notify_one();
    }

    fn spawn_thread(&self) -> Option<std::thread::JoinHandle<()>> {
        let shared = Arc::clone(&self.shared);
        let exec = Arc::clone(&self.exec);
        std::thread::Builder::new()
            .name("boids-step".into())
            // It only waits: the steps run on the pool's workers.
            .stack_size(256 << 10)
            .spawn(move || {
                serve_the_frame();
                loop {
                    let st = shared
                        .wake
                        .wait_while(lock(&shared.state), |st| st.pending.is_empty() && !st.stop)
                        .unwrap_or_else(|p| p.into_inner());
                    if st.pending.is_empty() {
                        return;
                    }
                    drop(st);
                    exec.run_in_pool(|| drain(&shared));
                }
            })
            .ok()
    }
}

/// Runs the steps begun until none is left: the next one here, and the rest on the other side
/// of a `join` (which waits on the stack), for an idle worker to steal.
fn drain(shared: &Shared) {
    let next = lock(&shared.state).pending.pop_front();
    if let Some(step) = next {
        rayon::join(|| step.run(), || drain(shared));
    }
}

impl Drop for Launcher {
    fn drop(&mut self) {
        lock(&self.shared.state).stop = true;
        self.shared.wake.notify_one();
        if let Some(t) = lock(&self.thread).take() {
            // Its worlds ended their steps (`World::settle`): the thread is asleep, or about to
            // be, and ends now.
            let _ = t.join();
        }
    }
}

impl Runner {
    /// The executor the step's loops run on.
    pub(crate) fn exec(&self) -> Arc<dyn Exec> {
        match self {
            Runner::Rayon(e, _) => Arc::clone(e) as Arc<dyn Exec>,
            Runner::Host(e) => Arc::clone(e),
        }
    }

    /// Runs `f` where the step's loops belong: inside the world's Rayon pool, or on the
    /// calling thread for Rayon's global pool, a pool of one thread and a host's job system.
    pub(crate) fn install(&self, f: &mut (dyn FnMut() + Send)) {
        match self {
            // A pool of one thread: this thread does the same work without two thread
            // switches (its loops run in order: `RayonExec::single`).
            Runner::Rayon(e, Some(pool)) if !e.single() => pool.install(f),
            _ => f(),
        }
    }

    /// [`Runner::install`] for a synchronous step: in a Rayon pool of several threads, the
    /// pool's other workers stay with the step until it is done, taking its loops' work as it
    /// comes ([`linger`]) instead of falling asleep between two loops and being woken for the
    /// next (a thread switch each, tens of microseconds in a virtual machine: about ten a
    /// 10,000-boid step). The calling thread waits meanwhile, so the cores they spin on would
    /// otherwise be idle. A step begun with `step_begin` runs while the caller works: there, a
    /// worker that has nothing to do sleeps.
    pub(crate) fn install_step(&self, f: &mut (dyn FnMut() + Send)) {
        match self {
            Runner::Rayon(e, Some(pool)) if !e.single() => {
                let helpers = pool.current_num_threads() - 1;
                pool.install(|| {
                    let done = AtomicBool::new(false);
                    rayon::join(
                        || {
                            // Set even if `f` unwinds, so no helper spins on.
                            let _done = Done(&done);
                            f();
                        },
                        || stay(helpers, &done),
                    );
                });
            }
            _ => f(),
        }
    }

    /// Runs `job` on a worker: a Rayon pool's, or the host's.
    pub(crate) fn spawn(&self, job: Arc<dyn Spawned>) {
        match self {
            Runner::Rayon(e, _) => e.spawn(job),
            Runner::Host(e) => e.spawn(job),
        }
    }
}

/// Sets its flag when dropped.
struct Done<'a>(&'a AtomicBool);

impl Drop for Done<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// `helpers` workers of the current pool [`linger`] until `done` (each one that steals its
/// part; a part no one stole finds `done` set and returns at once).
fn stay(helpers: usize, done: &AtomicBool) {
    if helpers == 0 || done.load(Ordering::Acquire) {
        return;
    }
    rayon::join(|| linger(done), || stay(helpers - 1, done));
}

/// Runs the pool's pending work, one piece at a time, until `done`.
fn linger(done: &AtomicBool) {
    while !done.load(Ordering::Acquire) {
        if rayon::yield_now() != Some(rayon::Yield::Executed) {
            std::hint::spin_loop();
        }
    }
}
