//! `boids bench --scenario worlds`: many small worlds (a game's many small flocks), 16 of
//! `--boids` boids each (the benchmark scenario), timed three ways in turns:
//!
//! - one after another: each world's `step` in turn (a small world steps on the calling
//!   thread);
//! - overlapped on the engine's pool: every world's `step_begin`, then every `step_end` (the
//!   worlds share the pool of their thread count, so their steps run side by side);
//! - overlapped on a host's job system: the same, each world given a small job system of the
//!   host's own (`--threads` worker threads running the jobs handed to them), as a game engine
//!   would.
//!
//! Every timed frame restarts each world from the state after a first step. The three ways give
//! the same bits (checked after the run).

use super::{BenchArgs, bench_restore, median};
use boids_sim::builtin::bench_flock;
use boids_sim::{Exec, FlockId, FlockSnapshot, IndexKind, World, WorldConfig};
use std::collections::VecDeque;
use std::ops::Range;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// Worlds stepped each frame.
const WORLDS: usize = 16;

/// The jobs waiting for a worker, and whether the workers should stop.
type Queue = (VecDeque<Arc<dyn boids_sim::Spawned>>, bool);

/// A host's job system as small as one can be: worker threads that run the jobs queued for
/// them; a loop's ranges run on the calling thread (small worlds have no parallel loops).
struct Jobs {
    queue: Mutex<Queue>,
    wake: Condvar,
    workers: usize,
}

impl Jobs {
    fn start(workers: usize) -> Arc<Jobs> {
        let jobs = Arc::new(Jobs {
            queue: Mutex::new((VecDeque::new(), false)),
            wake: Condvar::new(),
            workers,
        });
        for _ in 0..workers {
            let j = Arc::clone(&jobs);
            std::thread::spawn(move || j.work());
        }
        jobs
    }

    fn work(&self) {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(job) = q.0.pop_front() {
                drop(q);
                job.run();
                q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            } else if q.1 {
                return;
            } else {
                q = self.wake.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        }
    }

    fn stop(&self) {
        self.queue.lock().unwrap_or_else(|e| e.into_inner()).1 = true;
        self.wake.notify_all();
    }
}

impl Exec for Jobs {
    fn workers(&self) -> usize {
        self.workers
    }

    fn for_ranges(&self, n: usize, grain: usize, task: &(dyn Fn(Range<usize>) + Sync)) {
        boids_sim::SerialExec.for_ranges(n, grain, task);
    }

    fn spawn(&self, job: Arc<dyn boids_sim::Spawned>) {
        self.queue
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .0
            .push_back(job);
        self.wake.notify_one();
    }
}

struct Way {
    worlds: Vec<(World, FlockId, FlockSnapshot)>,
    overlapped: bool,
    ms: Vec<f64>,
}

impl Way {
    fn new(
        n: usize,
        config: WorldConfig,
        kind: IndexKind,
        exec: Option<&Arc<Jobs>>,
        overlapped: bool,
    ) -> Result<Way, String> {
        let dt = 1.0 / 60.0;
        let mut worlds = Vec::with_capacity(WORLDS);
        for k in 0..WORLDS {
            let config = WorldConfig {
                seed: config.seed + k as u64,
                ..config
            };
            let mut world = match exec {
                Some(jobs) => World::with_exec(config, jobs.clone() as Arc<dyn Exec>),
                None => World::new(config),
            }
            .map_err(|e| e.to_string())?;
            let id = bench_flock(&mut world, n, kind).map_err(|e| e.to_string())?;
            world.step(dt).map_err(|e| e.to_string())?;
            let saved = world.flock(id).expect("bench flock").snapshot();
            worlds.push((world, id, saved));
        }
        Ok(Way {
            worlds,
            overlapped,
            ms: Vec::new(),
        })
    }

    fn frame(&mut self) -> Result<(), String> {
        let dt = 1.0 / 60.0;
        for (w, id, saved) in &mut self.worlds {
            bench_restore(w, *id, saved)?;
        }
        let t = Instant::now();
        if self.overlapped {
            for (w, _, _) in &mut self.worlds {
                w.step_begin(dt).map_err(|e| e.to_string())?;
            }
            for (w, _, _) in &mut self.worlds {
                w.step_end().map_err(|e| e.to_string())?;
            }
        } else {
            for (w, _, _) in &mut self.worlds {
                w.step(dt).map_err(|e| e.to_string())?;
            }
        }
        self.ms.push(t.elapsed().as_secs_f64() * 1e3);
        Ok(())
    }

    fn hash(&self) -> Vec<u64> {
        self.worlds.iter().map(|(w, _, _)| w.state_hash()).collect()
    }
}

pub(super) fn worlds(a: &BenchArgs, config: WorldConfig, kind: IndexKind) -> Result<(), String> {
    let serial = Way::new(a.boids, config, kind, None, false)?;
    let pool = Way::new(a.boids, config, kind, None, true)?;
    // As many host workers as the engine's pool has threads.
    let threads = pool.worlds[0].0.threads();
    let jobs = Jobs::start(threads);
    let host = Way::new(a.boids, config, kind, Some(&jobs), true)?;
    let mut ways = [serial, pool, host];
    for k in 0..a.warmup + a.steps {
        for way in &mut ways {
            way.frame()?;
            if k < a.warmup {
                way.ms.clear();
            }
        }
    }
    jobs.stop();
    let hashes = ways.each_ref().map(Way::hash);
    if hashes.iter().any(|h| *h != hashes[0]) {
        return Err("the three ways stepped to different states".into());
    }
    let [serial, pool, host] = [0, 1, 2].map(|k| median(&mut ways[k].ms));
    out!(
        "scenario worlds: {WORLDS} worlds of the benchmark scenario, each frame a step of every world, dt 1/60"
    );
    out!("  boids per world          {}", a.boids);
    out!("  threads                  {threads}");
    out!("  one after another        {serial:.3} ms a frame");
    out!(
        "  overlapped, engine pool  {pool:.3} ms a frame ({:.2}x faster)",
        serial / pool
    );
    out!(
        "  overlapped, host jobs    {host:.3} ms a frame ({:.2}x faster, {} host workers)",
        serial / host,
        jobs.workers
    );
    out!(
        "bench scenario=worlds n={} worlds={WORLDS} threads={threads} serial_ms={serial:.4} pool_ms={pool:.4} host_ms={host:.4} pool_speedup={:.3} host_speedup={:.3}",
        a.boids,
        serial / pool,
        serial / host
    );
    Ok(())
}
