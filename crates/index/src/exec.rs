//! Who runs a step's parallel loops: Rayon's pools (the default), or a host's job system (a
//! game engine's workers, through the C ABI's task callbacks). Every loop of a step hands its
//! work over as ranges of independent items, so the bits never depend on how the ranges are cut,
//! on how many workers run them or in which order.

use rayon::prelude::*;
use std::ops::Range;
use std::sync::{Arc, Mutex};

/// Runs ranges of work in parallel.
pub trait Exec: Send + Sync {
    /// Workers that may run ranges at once (sizes the ranges; at least 1).
    fn workers(&self) -> usize;

    /// Calls `task` once for each of the ranges `0..n` is cut into (each `grain` items long but
    /// the last), in any order and on any threads, and returns when every call has returned.
    /// `n == 0` makes no call.
    fn for_ranges(&self, n: usize, grain: usize, task: &(dyn Fn(Range<usize>) + Sync));

    /// Runs `job` once, soon, on a worker (not on the calling thread): a step that overlaps the
    /// caller's frame.
    fn spawn(&self, job: Box<dyn FnOnce() + Send>);

    /// Called on the thread that ends a step begun on a worker (boids-sim's
    /// `World::step_end`), before it waits for the step: a host's job system may run a step it
    /// has not started yet right there, and releases what the step left with it. Rayon has
    /// nothing to do.
    fn finish_step(&self) {}

    /// A breach of the executor's own contract seen since the last call (a host's job system
    /// that returned from waiting for a task before its calls did, say), described; the step
    /// that saw it fails with it and the world keeps the state before that step. Rayon never
    /// has one.
    fn take_fault(&self) -> Option<String> {
        None
    }

    /// `true` when the ranges run on Rayon, so a library that parallelises with Rayon (kiddo's
    /// tree build) may do so too; a host's job system keeps Rayon's threads out.
    fn is_rayon(&self) -> bool {
        false
    }
}

/// The target has no threads (WebAssembly without the atomics feature): Rayon cannot start a
/// pool, so [`RayonExec`] runs everything on the calling thread.
pub const NO_THREADS: bool = cfg!(all(target_family = "wasm", not(target_feature = "atomics")));

/// Rayon: a pool of the world's (shared by the worlds with the same thread count), or Rayon's
/// global pool. Where there are no threads ([`NO_THREADS`]), the calling thread: ranges in
/// order, a spawned job at once.
#[derive(Clone, Default)]
pub struct RayonExec {
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl RayonExec {
    /// Runs on `pool`, or on Rayon's global pool when `None`.
    pub fn new(pool: Option<Arc<rayon::ThreadPool>>) -> Self {
        RayonExec { pool }
    }

    /// `true` when there is one thread to run on (a pool of one, or no threads at all): the
    /// loops then run on the calling thread, in order, without handing them to the pool and
    /// waiting for it (two thread switches a loop).
    pub fn single(&self) -> bool {
        NO_THREADS
            || self
                .pool
                .as_ref()
                .is_some_and(|p| p.current_num_threads() == 1)
    }
}

impl Exec for RayonExec {
    fn workers(&self) -> usize {
        if NO_THREADS {
            return 1;
        }
        match &self.pool {
            Some(p) => p.current_num_threads(),
            None => rayon::current_num_threads(),
        }
    }

    fn for_ranges(&self, n: usize, grain: usize, task: &(dyn Fn(Range<usize>) + Sync)) {
        if self.single() {
            return SerialExec.for_ranges(n, grain, task);
        }
        let grain = grain.max(1);
        let run = || {
            (0..n.div_ceil(grain))
                .into_par_iter()
                .for_each(|c| task(c * grain..((c + 1) * grain).min(n)));
        };
        match &self.pool {
            // From a worker of this pool, `install` runs the loop right there.
            Some(p) => p.install(run),
            None => run(),
        }
    }

    fn spawn(&self, job: Box<dyn FnOnce() + Send>) {
        if NO_THREADS {
            // Nothing but this thread could run it: now, before `step_end` collects it.
            return job();
        }
        match &self.pool {
            Some(p) => p.spawn(job),
            None => rayon::spawn(job),
        }
    }

    fn is_rayon(&self) -> bool {
        // A pool of one: kiddo's parallel build would run on Rayon's global pool instead.
        !self.single()
    }
}

/// Everything on the calling thread, in order: for reads while a step is in flight (they must
/// not queue behind the step's work) and for tests.
#[derive(Clone, Copy, Default)]
pub struct SerialExec;

impl Exec for SerialExec {
    fn workers(&self) -> usize {
        1
    }

    fn for_ranges(&self, n: usize, grain: usize, task: &(dyn Fn(Range<usize>) + Sync)) {
        let grain = grain.max(1);
        let mut start = 0;
        while start < n {
            let end = (start + grain).min(n);
            task(start..end);
            start = end;
        }
    }

    fn spawn(&self, job: Box<dyn FnOnce() + Send>) {
        std::thread::spawn(job);
    }
}

/// `f(start, chunk)` for the `grain`-long chunks of `data`, in parallel on `exec` (each chunk
/// to exactly one call, so every call writes its own part).
pub fn chunks_mut<T: Send>(
    exec: &dyn Exec,
    data: &mut [T],
    grain: usize,
    f: &(dyn Fn(usize, &mut [T]) + Sync),
) {
    let grain = grain.max(1);
    let pieces: Vec<Mutex<&mut [T]>> = data.chunks_mut(grain).map(Mutex::new).collect();
    exec.for_ranges(pieces.len(), 1, &|r: Range<usize>| {
        for c in r {
            // Each piece is locked by its one call only: never contended, never poisoned
            // unless `f` panicked (then the step is lost anyway).
            let mut piece = pieces[c].lock().unwrap_or_else(|p| p.into_inner());
            f(c * grain, &mut piece);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_every_item_once() {
        let exec = RayonExec::default();
        for (n, grain) in [(0, 4), (1, 4), (10, 3), (4096, 100), (7, 100)] {
            let hits: Vec<std::sync::atomic::AtomicU32> = (0..n).map(|_| 0.into()).collect();
            exec.for_ranges(n, grain, &|r: Range<usize>| {
                assert!(r.len() <= grain.max(1) && !r.is_empty());
                for i in r {
                    hits[i].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            });
            assert!(
                hits.iter()
                    .all(|h| h.load(std::sync::atomic::Ordering::Relaxed) == 1)
            );
            let mut data = vec![0usize; n];
            chunks_mut(&exec, &mut data, grain, &|start, c: &mut [usize]| {
                for (k, x) in c.iter_mut().enumerate() {
                    *x = start + k;
                }
            });
            assert!(data.iter().enumerate().all(|(i, &x)| i == x));
        }
    }
}
