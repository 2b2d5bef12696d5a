//! Several steps in one overlapped begin ([`World::step_begin_n`]): a game at 30 frames a
//! second with a 1/60 s fixed step begins both of a frame's steps at once, so neither runs on
//! its main thread.
//!
//! The world lends a worker a copy of what a step's bookkeeping reads and writes (a
//! [`Chain`]: the flocks with their boids shared and their working state moved, the
//! relations, the scene, the flow fields, the step counter), and the worker runs the steps on
//! it one after the other, each exactly as [`World::step`] would (the same [`Books`] code), so
//! the bits are those of the steps one by one. Meanwhile the world's own flocks still hold the
//! state before the first step, for readers. [`World::step_end`] takes the chain's results
//! back.

use super::step::{Books, CANCELLED, StepBuffers, Task, run_caught};
use super::{FlockId, Relation, Scenery, World, flow::Flows};
use crate::error::{Error, invalid};
use crate::flock::Flock;
use crate::slotmap::SlotMap;
use boids_core::Vec3;
use boids_index::{Exec, SimdLevel};

/// The steps of one [`World::step_begin_n`], and what they run on.
pub(crate) struct Chain {
    dt: f32,
    count: u32,
    seed: u64,
    steps: u64,
    flocks: SlotMap<FlockId, Flock>,
    observer: Option<Vec3>,
    relations: Vec<Relation>,
    level: SimdLevel,
    scenery: Scenery,
    step_buffers: StepBuffers,
    flows: Flows,
    /// Why the steps stopped early (those before it stand, as one-by-one steps would).
    error: Option<Error>,
    /// Set when a step's bookkeeping panicked outside its job: the boids of a flock may be
    /// missing (taken by the job), so the world keeps the state before the steps.
    broken: bool,
}

impl Chain {
    fn new(level: SimdLevel) -> Box<Chain> {
        Box::new(Chain {
            dt: 0.0,
            count: 0,
            seed: 0,
            steps: 0,
            flocks: SlotMap::default(),
            observer: None,
            relations: Vec::new(),
            level,
            scenery: Scenery::default(),
            step_buffers: StepBuffers::default(),
            flows: Flows::default(),
            error: None,
            broken: false,
        })
    }

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

    /// Runs the steps, each as [`World::step`] does (a synchronous job: the chain's
    /// intermediate states are its own), stopping at the first that fails or once the world
    /// cancels (it was dropped).
    pub(crate) fn run(&mut self, exec: &dyn Exec, cancelled: &dyn Fn() -> bool) {
        let steps = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            for _ in 0..self.count {
                if cancelled() {
                    return Err(Error::Internal(format!("the step failed: {CANCELLED}")));
                }
                let (dt, scenery) = (self.dt, self.scenery.clone());
                let mut job = self.books().begin(dt, true, scenery);
                let panic = run_caught(&mut job, exec);
                let fault = exec.take_fault();
                self.books().finish(job, panic.or(fault))?;
            }
            Ok(())
        }));
        self.error = match steps {
            Ok(r) => r.err(),
            Err(_) => {
                self.broken = true;
                Some(Error::Internal(
                    "the steps failed: their bookkeeping panicked".into(),
                ))
            }
        };
    }
}

impl World {
    /// Starts `count` steps of `dt` seconds each on the world's workers and returns at once:
    /// the same bits as `count` calls of [`World::step`], and, like [`World::step_begin`], the
    /// world can be read until [`World::step_end`] (each read sees the state before the first
    /// step, its targets, sleep and level of detail included), every change is refused with
    /// [`Error::Busy`], and dropping the world cancels the steps not yet started. A game whose
    /// frame is longer than its fixed step (30 frames a second, 60 steps) begins all of a
    /// frame's steps here, so none runs on its main thread.
    ///
    /// `count` 0 is refused; 1 is [`World::step_begin`]. If step k fails, [`World::step_end`]
    /// installs the k steps before it and returns that step's error, as one-by-one calls would
    /// have left the world.
    pub fn step_begin_n(&mut self, dt: f32, count: u32) -> Result<(), Error> {
        if count == 0 {
            return Err(invalid("count must be at least 1 step, got 0"));
        }
        if count == 1 {
            return self.step_begin(dt);
        }
        self.check_begin(dt)?;
        let mut chain = self
            .spare_chain
            .take()
            .unwrap_or_else(|| Chain::new(self.level));
        chain.scenery = self.live().clone();
        chain.dt = dt;
        chain.count = count;
        chain.seed = self.seed;
        chain.steps = self.steps;
        self.flocks.twin_into(&mut chain.flocks, Flock::lend);
        chain.observer = self.observer;
        chain.relations.clone_from(&self.relations);
        chain.level = self.level;
        chain.step_buffers = std::mem::take(&mut self.step_buffers);
        self.flows_seen = self.flows.history_mark();
        let settings = self.flows.settings();
        chain.flows = std::mem::replace(&mut self.flows, settings);
        chain.error = None;
        chain.broken = false;
        self.launch(Task::Chain(chain));
        Ok(())
    }

    /// Takes back what a chain of steps made ([`World::step_begin_n`]) and returns its error,
    /// if a step failed.
    pub(crate) fn adopt(&mut self, mut chain: Box<Chain>) -> Result<(), Error> {
        for (id, lent) in chain.flocks.iter_mut() {
            self.flocks
                .get_mut(id)
                .expect("flocks are not destroyed while a step is in flight")
                .adopt(lent, chain.broken);
        }
        if !chain.broken {
            self.steps = chain.steps;
            self.flows = std::mem::take(&mut chain.flows);
        }
        self.step_buffers = std::mem::take(&mut chain.step_buffers);
        let error = chain.error.take();
        // Keep the lists' memory for the next chain, not the boids or the scene.
        chain.flocks.clear_twin();
        chain.scenery = Scenery::default();
        self.spare_chain = Some(chain);
        error.map_or(Ok(()), Err)
    }
}
