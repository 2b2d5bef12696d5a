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
    /// caller's frame. The job is shared (a world makes it once and hands the same one over at
    /// every step): keeping the `Arc` is free, and a job system that keeps its own record of it
    /// can reuse that too, so a frame allocates nothing.
    fn spawn(&self, job: Arc<dyn Spawned>);

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

/// A job [`Exec::spawn`] runs on a worker: a world's overlapped step.
pub trait Spawned: Send + Sync {
    /// Runs it. Called once a hand-over; a call after the job has run (the thread that ends the
    /// step may run one no worker has started) finds nothing to do.
    fn run(&self);
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
    /// Runs `f` on a worker of this executor's pool (Rayon's global pool for `None`) and waits
    /// for it: from a thread outside the pool, without allocating (Rayon waits on the stack).
    pub fn run_in_pool(&self, f: impl FnOnce() + Send) {
        match &self.pool {
            Some(p) => p.install(f),
            None => rayon::scope(|_| f()),
        }
    }

    /// `true` when both run on the same pool (or both on Rayon's global pool).
    pub fn same_pool(&self, other: &RayonExec) -> bool {
        match (&self.pool, &other.pool) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }

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

    /// Rayon's `spawn`, which allocates its record of the job (a world on Rayon starts its
    /// steps from a thread of its own instead: `boids-sim`'s launcher, which does not).
    fn spawn(&self, job: Arc<dyn Spawned>) {
        if NO_THREADS {
            // Nothing but this thread could run it: now, before `step_end` collects it.
            return job.run();
        }
        match &self.pool {
            Some(p) => p.spawn(move || job.run()),
            None => rayon::spawn(move || job.run()),
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

    fn spawn(&self, job: Arc<dyn Spawned>) {
        std::thread::spawn(move || job.run());
    }
}

/// Most pieces [`for_pieces`] hands out in one call: enough to balance the work of a pool of
/// tens of threads, few enough to wait for their calls in slots on the stack.
pub const MAX_PIECES: usize = 128;

/// Runs `f(k, piece)` once for the `k`-th of `pieces` (at most [`MAX_PIECES`]), in parallel on
/// `exec`. Nothing is allocated: each piece waits in a slot on the stack for the one call that
/// takes it (an executor that ran a range twice would find the slot empty, never a second
/// borrow of the piece).
///
/// # Panics
/// If there are more than [`MAX_PIECES`] pieces.
pub fn for_pieces<P: Send>(
    exec: &dyn Exec,
    pieces: impl IntoIterator<Item = P>,
    f: &(dyn Fn(usize, P) + Sync),
) {
    let mut slots: [Mutex<Option<P>>; MAX_PIECES] = std::array::from_fn(|_| Mutex::new(None));
    let mut n = 0;
    for p in pieces {
        assert!(n < MAX_PIECES, "at most {MAX_PIECES} pieces");
        *slots[n].get_mut().unwrap_or_else(|e| e.into_inner()) = Some(p);
        n += 1;
    }
    exec.for_ranges(n, 1, &|r: Range<usize>| {
        for k in r {
            // Each slot is locked by its one call only: never contended, never poisoned
            // unless `f` panicked (then the step is lost anyway).
            let piece = slots[k].lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(piece) = piece {
                f(k, piece);
            }
        }
    });
}

/// The grain [`chunks_mut`] cuts `n` items with: `grain`, or the smallest multiple of it that
/// makes at most [`MAX_PIECES`] chunks.
pub fn piece_grain(n: usize, grain: usize) -> usize {
    let grain = grain.max(1);
    grain * n.div_ceil(grain).div_ceil(MAX_PIECES).max(1)
}

/// `f(start, chunk)` for the chunks of `data`, in parallel on `exec` (each chunk to exactly one
/// call, so every call writes its own part), allocating nothing. The chunks are `grain` long
/// (the last shorter), or a multiple of it for long `data` ([`piece_grain`]).
pub fn chunks_mut<T: Send>(
    exec: &dyn Exec,
    data: &mut [T],
    grain: usize,
    f: &(dyn Fn(usize, &mut [T]) + Sync),
) {
    let grain = piece_grain(data.len(), grain);
    for_pieces(exec, data.chunks_mut(grain), &|k, piece: &mut [T]| {
        f(k * grain, piece)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cover_every_item_once() {
        let exec = RayonExec::default();
        for (n, grain) in [(0, 4), (1, 4), (10, 3), (4096, 100), (7, 100), (100_000, 7)] {
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
            let calls = std::sync::atomic::AtomicUsize::new(0);
            chunks_mut(&exec, &mut data, grain, &|start, c: &mut [usize]| {
                // Chunks of a multiple of the grain, at most `MAX_PIECES` of them.
                assert_eq!(start % grain, 0);
                calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                for (k, x) in c.iter_mut().enumerate() {
                    *x = start + k;
                }
            });
            assert!(calls.into_inner() <= MAX_PIECES);
            assert!(data.iter().enumerate().all(|(i, &x)| i == x));
        }
    }
}
