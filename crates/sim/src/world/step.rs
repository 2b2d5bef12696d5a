//! One step of a world: per-flock bookkeeping (goal jumps, leaders, sleep, level of detail) on
//! the caller's thread, then the step's job (the indices, the steering between flocks, every
//! flock's step) on the world's workers, then the next state installed; and the state hash.
//!
//! The job owns each flock's working state and shares its boids (read only), so while it runs
//! the world can still be read: [`World::step_begin`] returns at once, reads see the state
//! before the step, and [`World::step_end`] waits for the job and installs what it made.
//! [`World::step`] is the two in one, and computes exactly the same bits.

use super::{GOAL_STREAM, Relation, Runner, World, lock};
use crate::error::{Error, invalid};
use crate::flock::{Boids, Flock, StepFlock, StepInput, Stepped, Work, prepare, step};
use crate::fnv::Fnv1a;
use crate::world::{FlockId, MAX_DT};
use boids_core::Vec3;
use boids_core::fmath::Extremes;
use boids_index::{Exec, PARALLEL_MIN, STEP_PARALLEL_MIN, Spawned};
use std::sync::{Arc, Condvar, LazyLock, Mutex, OnceLock};

/// What a flock's state is while a synchronous step holds it (never read: the world is
/// borrowed for the whole step). One shared empty state, so holding it allocates nothing.
static PARKED: LazyLock<Arc<Boids>> = LazyLock::new(|| Arc::new(Boids::default()));

/// One flock in a step's job.
struct JobFlock {
    id: FlockId,
    /// The boids before the step (shared with the world's readers).
    st: Arc<Boids>,
    work: Box<Work>,
    setup: StepFlock,
    /// Stepped this time (not asleep, not skipped by its level of detail).
    moving: bool,
    /// The flock's sleep and level of detail this step (installed by `finish`).
    asleep: bool,
    active: bool,
    /// Its index is needed: it moves, or a moving flock reacts to it.
    needed: bool,
    /// The level of detail's step multiple.
    every: f32,
    result: Option<Stepped>,
    /// The next state is being written into this state's position, velocity and heading
    /// buffers (a synchronous step: nothing can read the state meanwhile); the index holds
    /// the only other copy of them.
    reused: bool,
}

/// A step's work, moved out of the world while it runs.
pub(crate) struct Job {
    dt: f32,
    seed: u64,
    step: u64,
    level: boids_index::SimdLevel,
    obstacles: super::Scenery,
    relations: Vec<Relation>,
    flocks: Vec<JobFlock>,
    /// [`World::step`] (not [`World::step_begin`]): no reader can see the state meanwhile.
    sync: bool,
    /// Which flocks' indices the step needs, by slot.
    needed: Vec<bool>,
    /// Each flock's steering from other flocks (empty without relations).
    externals: Vec<Vec<Vec3>>,
    /// The world's flow fields (back to the world with the job).
    flows: super::flow::Flows,
    flows_before: Option<super::flow::FlowsMark>,
}

/// A step's lists, kept by the world between steps so a step reuses them (a small world's
/// step allocates nothing once they have their sizes).
#[derive(Default)]
pub(crate) struct StepBuffers {
    flocks: Vec<JobFlock>,
    relations: Vec<Relation>,
    needed: Vec<bool>,
    externals: Vec<Vec<Vec3>>,
}

impl JobFlock {
    /// In a synchronous step, once the index holds the boids: hands this state's position,
    /// velocity and heading buffers to the step for the next state (dropping the spare ones),
    /// so no second copy of them is kept between steps. Only where the index's copy restores
    /// them exactly if the step fails (no wrapping space, whose index holds wrapped positions)
    /// and nothing else holds the state (a snapshot, say).
    fn reuse_buffers(&mut self) {
        let n = self.st.ids.len();
        if crate::flock::period_of(&self.setup.params.bounds).is_some() {
            return;
        }
        let Some(b) = Arc::get_mut(&mut self.st) else {
            return;
        };
        if b.positions.len() != n || b.velocities.len() != n || b.headings.len() != n {
            return;
        }
        let spare = &mut self.work.spare;
        spare.positions = std::mem::take(&mut b.positions);
        spare.velocities = std::mem::take(&mut b.velocities);
        spare.headings = std::mem::take(&mut b.headings);
        // Its arrays in id order too (no one reads this state during a synchronous step):
        // one set kept, not two.
        if let Some(o) = b.ordered.take() {
            self.work.keep_ordered(o);
        }
        self.reused = true;
    }
}

impl Job {
    /// The flow fields the grounded flocks with targets read ([`super::flow::Flows::fields_for`]).
    fn flow_fields(&mut self, exec: &dyn Exec) {
        let wants: Vec<super::flow::Want<'_>> = self
            .flocks
            .iter()
            .map(|f| super::flow::Want {
                id: f.id,
                params: &f.setup.params,
                target: f.setup.target,
                moving: f.moving,
            })
            .collect();
        let fields = self.flows.fields_for(&self.obstacles, &wants, exec);
        drop(wants);
        for (f, field) in self.flocks.iter_mut().zip(fields) {
            f.setup.flow = field;
        }
    }

    /// The step: indices, steering between flocks, then every moving flock.
    fn run(&mut self, exec: &dyn Exec) {
        // The flow fields the grounded flocks with targets read: built for a moving flock
        // that has none yet, kept for one that sleeps or skips this step.
        if self.flows.cell > 0.0 {
            self.flow_fields(exec);
        }
        for f in self.flocks.iter_mut().filter(|f| f.needed) {
            prepare(exec, &f.setup.params, &f.st, &mut f.work);
        }
        if self.sync {
            for f in self.flocks.iter_mut().filter(|f| f.moving) {
                f.reuse_buffers();
            }
        }
        // Steering from other flocks, read from their indices only (the state before this
        // step).
        let mut externals = std::mem::take(&mut self.externals);
        externals.clear();
        externals.extend(self.flocks.iter().map(|f| {
            if !f.moving {
                return Vec::new();
            }
            let others: Vec<(&Relation, &boids_index::Index)> = self
                .relations
                .iter()
                .filter(|r| r.from == f.id)
                .filter_map(|r| {
                    self.flocks
                        .iter()
                        .find(|o| o.id == r.to)
                        .map(|o| (r, &o.work.index))
                })
                .collect();
            if others.is_empty() {
                Vec::new()
            } else {
                crate::flock::external_steering(
                    exec,
                    &f.work.index,
                    f.setup.params.max_speed,
                    &others,
                )
            }
        }));
        for (f, external) in self.flocks.iter_mut().zip(&externals) {
            if f.moving {
                let input = StepInput {
                    dt: self.dt * f.every,
                    seed: self.seed,
                    step: self.step,
                    obstacles: &self.obstacles.all,
                    ground: &self.obstacles.ground,
                    solids: &self.obstacles.solids,
                    external,
                    level: self.level,
                    exec,
                };
                f.result = Some(step(&f.setup, &f.st, &mut f.work, &input));
            }
        }
        self.externals = externals;
    }
}

/// A failed synchronous step that was writing into the state's own buffers
/// ([`JobFlock::reuse_buffers`]): the positions, velocities and headings back from the index's
/// copy (exact: no wrapping space), in storage order.
fn restore_from_index(st: &mut Arc<Boids>, index: &boids_index::Index) {
    let b = Arc::get_mut(st).expect("a reused state is held by its flock alone");
    let n = b.ids.len();
    for v in [&mut b.positions, &mut b.velocities, &mut b.headings] {
        v.clear();
        v.resize(n, Vec3::ZERO);
    }
    for (s, &i) in index.order().iter().enumerate() {
        let i = i as usize;
        b.positions[i] = index.position(s);
        b.velocities[i] = index.velocity_at(s);
        b.headings[i] = index.heading_at(s);
    }
}

/// `next` in `spare` (its allocation and, as the second value, its old buffers), when nothing
/// else holds it; else in a new allocation.
fn next_state(spare: Option<Arc<Boids>>, next: Boids) -> (Arc<Boids>, Boids) {
    match spare {
        Some(mut a) => match Arc::get_mut(&mut a) {
            Some(b) => {
                let old = std::mem::replace(b, next);
                (a, old)
            }
            None => (Arc::new(next), Boids::default()),
        },
        None => (Arc::new(next), Boids::default()),
    }
}

/// What a cancelled step reports in place of a panic: it fails, so nothing is installed.
pub(crate) const CANCELLED: &str =
    "the step was cancelled: its world was dropped before it started";

/// A world's overlapped step: made with the world and handed to a worker at every
/// [`World::step_begin`], the same one each time, so beginning a step allocates nothing.
#[derive(Default)]
pub(crate) struct Overlap {
    state: Mutex<OverlapState>,
    done: Condvar,
}

/// What an overlapped begin hands a worker: one step's job, or several steps in a row. (The
/// job is not boxed: a step begun moves it, and allocates nothing.)
#[allow(clippy::large_enum_variant)]
pub(crate) enum Task {
    One(Job),
    Chain(Box<super::chain::Chain>),
}

#[derive(Default)]
struct OverlapState {
    /// The task and the executor it runs on, from `step_begin` until a worker takes them.
    pending: Option<(Task, Arc<dyn Exec>)>,
    /// The task once done, and (one step's) panic message if it panicked.
    result: Option<(Task, Option<String>)>,
    /// Set when the world is dropped: a job no worker has taken yet does not run (its result
    /// would be dropped anyway).
    cancel: bool,
}

impl Spawned for Overlap {
    fn run(&self) {
        let (taken, cancelled) = {
            let mut st = lock(&self.state);
            (st.pending.take(), st.cancel)
        };
        let Some((mut task, exec)) = taken else {
            return;
        };
        let panic = match &mut task {
            // A chain looks for the cancel before each of its steps.
            Task::Chain(chain) => {
                chain.run(&*exec, &|| lock(&self.state).cancel);
                None
            }
            _ if cancelled => Some(CANCELLED.to_owned()),
            Task::One(job) => run_caught(job, &*exec),
        };
        // Let go of the executor before the result shows: once `step_end` sees it, the world
        // holds the last reference, so a host's job system is dropped (its tasks finished) on
        // the thread that destroys the world, never later on this worker.
        drop(exec);
        lock(&self.state).result = Some((task, panic));
        self.done.notify_all();
    }
}

impl Overlap {
    /// Hands the next task over (before a worker is told to run it).
    pub(crate) fn put(&self, task: Task, exec: Arc<dyn Exec>) {
        let mut st = lock(&self.state);
        st.pending = Some((task, exec));
        st.result = None;
        st.cancel = false;
    }

    /// Waits until the job is done; its state, locked, then holds the result.
    fn wait_done(&self) -> std::sync::MutexGuard<'_, OverlapState> {
        self.done
            .wait_while(lock(&self.state), |st| st.result.is_none())
            .unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for the task; returns it and (one step's) panic message, if it panicked.
    fn wait(&self) -> (Task, Option<String>) {
        self.wait_done().result.take().expect("waited for")
    }
}

/// Runs the job, catching a panic so the world gets its flocks back either way. (Never inlined:
/// `scripts/profile` counts what runs inside it.)
#[inline(never)]
pub(crate) fn run_caught(job: &mut Job, exec: &dyn Exec) -> Option<String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job.run(exec)))
        .err()
        .map(|p| {
            p.downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a step panicked".into())
        })
}

impl World {
    /// Rebuilds every flock's neighbour index from the current state (a step does this itself;
    /// exposed so benchmarks can time the build alone). Does nothing while a step is in
    /// flight.
    pub fn build_indices(&mut self) {
        if self.in_flight {
            return;
        }
        let exec = self.runner.exec();
        let total: usize = self.flocks.iter().map(|(_, f)| f.len()).sum();
        let flocks = &mut self.flocks;
        let mut build = || {
            for (_, f) in flocks.iter_mut() {
                f.prepare(&*exec);
            }
        };
        if total < PARALLEL_MIN {
            // Small worlds build on the calling thread, as they step.
            build();
        } else {
            self.runner.install(&mut build);
        }
    }

    /// Advances every flock by `dt` seconds (`0 < dt <= 1`, finite). Every boid reads the
    /// snapshot of the previous step only. The same bits as [`World::step_begin`] then
    /// [`World::step_end`].
    pub fn step(&mut self, dt: f32) -> Result<(), Error> {
        let mut job = self.begin(dt, true)?;
        let total: usize = job.flocks.iter().map(|f| f.st.ids.len()).sum();
        let exec = self.runner.exec();
        let panic = if total < STEP_PARALLEL_MIN {
            // Small worlds step on the calling thread: handing work to a pool costs more.
            run_caught(&mut job, &*exec)
        } else {
            let mut panic = None;
            self.runner
                .install_step(&mut || panic = run_caught(&mut job, &*exec));
            panic
        };
        self.finish(job, panic)
    }

    /// Starts a step of `dt` seconds on the world's workers (its pool, or the host's job
    /// system) and returns at once. Until [`World::step_end`], the world can be read (every
    /// `&self` method: positions, velocities, headings, ids, matrices, the state hash, a save
    /// file), and each read sees the state before the step; every change (`&mut self` method)
    /// is refused with [`Error::Busy`]. Dropping the world cancels a step no worker has started
    /// and waits for one that is running; either way its result is dropped.
    pub fn step_begin(&mut self, dt: f32) -> Result<(), Error> {
        let job = self.begin(dt, false)?;
        self.flows_seen = job.flows_before.clone();
        self.launch(Task::One(job));
        Ok(())
    }

    /// Hands `task` to a worker; a step is in flight from here.
    pub(crate) fn launch(&mut self, task: Task) {
        self.overlap.put(task, self.runner.exec());
        match &self.launcher {
            // Rayon: the pool's launcher starts it (see `launch.rs`).
            Some(l) => l.start(&self.overlap),
            // A host's job system; or, without threads (WebAssembly), Rayon's executor, which
            // runs it here and now (the world still reads as before the step until `step_end`).
            None => self.runner.spawn(self.overlap.clone()),
        }
        self.in_flight = true;
    }

    /// Waits for the step [`World::step_begin`] started and installs its result. Without a
    /// step in flight: an error, and nothing changes.
    pub fn step_end(&mut self) -> Result<(), Error> {
        if !self.in_flight {
            return Err(invalid(
                "step_end without step_begin: no step is in flight on this world",
            ));
        }
        self.in_flight = false;
        self.flows_seen = None;
        // A host's job system may not have started the step: it may run here now.
        if let Runner::Host(e) = &self.runner {
            e.finish_step();
        }
        match self.overlap.wait() {
            (Task::One(job), panic) => self.finish(job, panic),
            (Task::Chain(chain), _) => self.adopt(chain),
        }
    }

    /// Waits until the step in flight, if any, is done, without installing it: a `&self`
    /// method, so reads on other threads go on meanwhile, and [`World::step_end`] then returns
    /// at once. A host's job system that has not started the step runs it here.
    pub fn step_wait(&self) {
        if self.in_flight {
            if let Runner::Host(e) = &self.runner {
                e.finish_step();
            }
            drop(self.overlap.wait_done());
        }
    }

    /// `true` while a step begun with [`World::step_begin`] has not been ended.
    pub fn is_stepping(&self) -> bool {
        self.in_flight
    }

    /// Ends a step in flight, if any, without installing it (used when the world is dropped):
    /// a step no worker has started never runs (a host's job system that has not started it
    /// is handed none of its loops), and one a worker is running is waited for.
    pub(crate) fn settle(&mut self) {
        if self.in_flight {
            lock(&self.overlap.state).cancel = true;
            let _ = self.step_end();
        }
    }

    /// Checks that a step may begin: no step in flight, and `dt` in range.
    pub(crate) fn check_begin(&self, dt: f32) -> Result<(), Error> {
        self.idle()?;
        if !(dt.is_finite() && dt > 0.0 && dt <= MAX_DT) {
            return Err(invalid(format!(
                "dt must be finite and in (0, {MAX_DT}], got {dt}"
            )));
        }
        Ok(())
    }

    /// The world's own fields a step's bookkeeping reads and writes.
    fn books(&mut self) -> Books<'_> {
        Books {
            seed: self.seed,
            steps: &mut self.steps,
            flocks: &mut self.flocks,
            observer: self.observer,
            relations: &self.relations,
            level: self.level,
            step_buffers: &mut self.step_buffers,
            flows: &mut self.flows,
        }
    }

    /// The bookkeeping before a step, then the job ([`Books::begin`]).
    fn begin(&mut self, dt: f32, sync: bool) -> Result<Job, Error> {
        self.check_begin(dt)?;
        let scenery = self.live().clone();
        Ok(self.books().begin(dt, sync, scenery))
    }

    /// Ends a step's job ([`Books::finish`]); a breach of the host's contract fails the step
    /// like a panic.
    fn finish(&mut self, job: Job, panic: Option<String>) -> Result<(), Error> {
        let fault = self.runner.exec().take_fault();
        self.books().finish(job, panic.or(fault))
    }
}

/// What a step's bookkeeping reads and writes: the world's own fields (a step at a time), or a
/// chain's copies of them (several steps on a worker, [`super::chain`]).
pub(crate) struct Books<'a> {
    pub(crate) seed: u64,
    pub(crate) steps: &'a mut u64,
    pub(crate) flocks: &'a mut crate::slotmap::SlotMap<FlockId, Flock>,
    pub(crate) observer: Option<Vec3>,
    pub(crate) relations: &'a [Relation],
    pub(crate) level: boids_index::SimdLevel,
    pub(crate) step_buffers: &'a mut StepBuffers,
    pub(crate) flows: &'a mut super::flow::Flows,
}

impl Books<'_> {
    /// The bookkeeping before a step (goal jumps, leaders, sleep, level of detail), then the
    /// job: each flock's working state taken out, and its state shared (a step in flight) or
    /// taken too (`sync`: no reader can see it meanwhile). `dt` is checked by the caller.
    pub(crate) fn begin(&mut self, dt: f32, sync: bool, obstacles: super::Scenery) -> Job {
        let seed = self.seed;
        let step = *self.steps;
        let observer = self.observer;
        let flocks = &mut *self.flocks;
        let StepBuffers {
            flocks: mut job_flocks,
            mut relations,
            mut needed,
            externals,
        } = std::mem::take(self.step_buffers);
        relations.clear();
        relations.extend(
            self.relations
                .iter()
                .filter(|r| flocks.contains(r.from) && flocks.contains(r.to))
                .copied(),
        );
        // Each flock's bookkeeping goes to its job: the flocks keep the values before the
        // step (what reads see while it is in flight) until `finish` installs them.
        job_flocks.clear();
        for (id, f) in flocks.iter_mut() {
            let k = id.index;
            let mut target = f.target;
            // The goal-swarm tutorial's goal: a flock-level draw, keyed by (seed, slot, step)
            // like a boid's.
            if let Some(r) = f.params.target_relocation
                && f.params.target.is_some()
            {
                let mut rng = boids_core::Rng::keyed(seed, u32::MAX - k, step, GOAL_STREAM);
                if rng.chance(r.probability) {
                    target = Some(Vec3::new(
                        rng.range(r.min.x, r.max.x),
                        rng.range(r.min.y, r.max.y),
                        rng.range(r.min.z, r.max.z),
                    ));
                }
            }
            // Leader following: the target rides on the leader.
            // (Only while the params have a target: params set later without one stop it.)
            if let Some((boid, offset)) = f.leader
                && f.params.target.is_some()
                && let Some(s) = f.slot_of(boid)
            {
                let b = f.boid_in_slot(s);
                // Inside the world's limits, so the target a host reads back is one it may set.
                let m = Vec3::splat(boids_core::MAX_MAGNITUDE);
                let t = b.position + boids_core::math::look_rotation(b.heading) * offset;
                target = Some(t.within(-m, m));
            }
            let by_region = match (f.wake_region, observer) {
                (Some((lo, hi)), Some(o)) => !(o.cmpge(lo).all() && o.cmple(hi).all()),
                _ => false,
            };
            let by_distance = match observer {
                Some(o) if f.params.sleep_distance > 0.0 => {
                    (f.centre() - o).length() > f.params.sleep_distance
                }
                _ => false,
            };
            let asleep = by_region || by_distance;
            // Level of detail: every k-th step (flocks spread over the k phases by slot).
            let every = u64::from(f.params.update_every.max(1));
            let active = (step + u64::from(k)).is_multiple_of(every);
            // From the state before the step (before a synchronous step takes it): how many
            // are at the target, for how far from it they stand.
            let stand_radius = if boids_core::stand_radius(&f.params, usize::MAX) > 0.0 {
                boids_core::stand_radius(&f.params, target.map_or(0, |t| f.count_at(t)))
            } else {
                0.0
            };
            job_flocks.push(JobFlock {
                id,
                st: if sync {
                    std::mem::replace(&mut f.st, Arc::clone(&PARKED))
                } else {
                    Arc::clone(&f.st)
                },
                work: f.work.take().expect("no step in flight"),
                setup: StepFlock {
                    params: f.params,
                    target,
                    path: f.path.clone(),
                    path_closed: f.path_closed,
                    leader: f.leader.map(|(id, _)| id),
                    flow: None,
                    stand_radius,
                },
                moving: active && !asleep,
                asleep,
                active,
                needed: false,
                every: f.params.update_every.max(1) as f32,
                result: None,
                reused: false,
            });
        }
        // Indices: of every flock that moves, and of every flock a moving flock reacts to.
        needed.clear();
        needed.resize(flocks.slot_count(), false);
        for jf in &job_flocks {
            needed[jf.id.index as usize] = jf.moving;
        }
        for r in &relations {
            if job_flocks.iter().any(|jf| jf.id == r.from && jf.moving) {
                needed[r.to.index as usize] = true;
            }
        }
        for jf in &mut job_flocks {
            jf.needed = needed[jf.id.index as usize];
        }
        Job {
            dt,
            seed,
            step,
            level: self.level,
            obstacles,
            relations,
            flocks: job_flocks,
            sync,
            needed,
            externals,
            // The world keeps the settings for readers meanwhile, and, with a budget (when
            // the fields are history, not derived), where they stand for a step that fails.
            flows_before: self.flows.history_mark(),
            flows: {
                let settings = self.flows.settings();
                std::mem::replace(self.flows, settings)
            },
        }
    }

    /// Gives every flock its working state back and installs the next boids of those that
    /// moved. A job that failed (`panic`) installs nothing: the flocks keep the state before
    /// the step.
    pub(crate) fn finish(&mut self, job: Job, panic: Option<String>) -> Result<(), Error> {
        let Job {
            flocks: mut job_flocks,
            relations,
            needed,
            mut externals,
            sync,
            mut flows,
            flows_before,
            ..
        } = job;
        if let (Some(before), Some(_)) = (flows_before, &panic) {
            // A failed step leaves the fields as it found them, as it does the state.
            flows.restore(before);
        } else if flows.cell > 0.0 {
            // Only the fields a flock read (or would have, asleep) are kept.
            flows.end_step();
        }
        *self.flows = flows;
        for jf in job_flocks.drain(..) {
            let f = self
                .flocks
                .get_mut(jf.id)
                .expect("flocks are not destroyed while a step is in flight");
            let JobFlock {
                st,
                mut work,
                result,
                reused,
                asleep,
                active,
                setup,
                ..
            } = jf;
            // The bookkeeping stands whether or not the step did (as the step's draws would
            // make it again).
            f.target = setup.target;
            f.asleep = asleep;
            f.active = active;
            if sync {
                // The state comes back from the job.
                f.st = st;
            } else {
                drop(st);
            }
            if panic.is_some() {
                if reused {
                    restore_from_index(&mut f.st, &work.index);
                }
                work.prepared = false;
            } else if let Some(stepped) = result {
                // The state before gives its place (its allocation too, when nothing else
                // holds it) to the next. Its buffers are for the next step to write into
                // (unless a reader still holds them); its ids and ranks become the buffers the
                // next `prepare` sorts into (this step's sorted ones moved into the new state):
                // two copies of them, not three. Its id-order views are stale: dropped.
                let mut spare = match Arc::get_mut(&mut f.st) {
                    Some(b) => std::mem::replace(b, stepped.next),
                    None => {
                        // Shared (a reader's, or the world's while a chain of steps runs): the
                        // next state goes into a state of its own, the one a chain left over
                        // if there is one (its buffers become the spare ones), else a new one.
                        let (fresh, leftover) = next_state(work.spare_state.take(), stepped.next);
                        let old = std::mem::replace(&mut f.st, fresh);
                        Arc::try_unwrap(old).unwrap_or(leftover)
                    }
                };
                work.ids_sorted = std::mem::take(&mut spare.ids);
                work.rank_sorted = std::mem::take(&mut spare.rank);
                work.id_slots = spare.id_slots.take().unwrap_or_default();
                if let Some(o) = spare.ordered.take() {
                    work.keep_ordered(o);
                }
                spare.id_view = OnceLock::new();
                work.spare = spare;
                f.last_neighbours = stepped.neighbours;
            }
            f.work = Some(work);
        }
        externals.clear();
        *self.step_buffers = StepBuffers {
            flocks: job_flocks,
            relations,
            needed,
            externals,
        };
        if let Some(p) = panic {
            return Err(Error::Internal(format!("the step failed: {p}")));
        }
        *self.steps += 1;
        Ok(())
    }
}

impl World {
    /// A 64-bit hash of every flock's ids, positions, velocities and headings (bit patterns)
    /// with, for a grounded flock or one with bodies, its ground settings and body radius, and,
    /// when the world has any, of its scene (every obstacle's kind, numbers, shape data id and
    /// ground flag, and every shape data's [`digest`](boids_core::MeshShape::digest)), for
    /// determinism checks. (A world without ground or bodies hashes as before they existed.)
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv1a::new();
        for id in self.flock_ids() {
            let f = self.flock(id).expect("live id");
            h.u32(f.len() as u32);
            for i in 0..f.len() {
                h.u32(f.ids()[i]);
                for v in [f.positions()[i], f.velocities()[i], f.headings()[i]] {
                    for c in v.to_array() {
                        h.u32(c.to_bits());
                    }
                }
            }
            let p = f.params();
            if let Some(g) = p.ground {
                h.bytes(b"ground");
                for c in [g.max_slope_deg, g.step_height, g.pivot_height] {
                    h.u32(c.to_bits());
                }
                h.u32(g.up.c_value() as u32);
            }
            if p.body_radius != 0.0 {
                h.bytes(b"body");
                h.u32(p.body_radius.to_bits());
            }
        }
        // The scene, when there is one (a world without obstacles or shape data hashes as it
        // always has): every obstacle in slot order with its kind, numbers and shape data id,
        // and every shape data's digest.
        if !self.obstacles.is_empty() || !self.meshes.is_empty() {
            h.bytes(b"scene");
            for (id, (o, _)) in self.obstacles.iter() {
                h.u32(id.index);
                h.u32(id.generation);
                h.u32(o.kind().c_value() as u32);
                for c in o.numbers() {
                    h.u32(c.to_bits());
                }
                if let Some(m) = o.mesh() {
                    h.u32(m.index);
                    h.u32(m.generation);
                }
                if o.is_ground() {
                    h.bytes(b"ground");
                }
            }
            for (id, m) in self.meshes.iter() {
                h.u32(id.index);
                h.u32(id.generation);
                let d = m.digest();
                h.u32(d as u32);
                h.u32((d >> 32) as u32);
            }
        }
        h.finish()
    }
}
