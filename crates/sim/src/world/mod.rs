//! The world: flocks by generational id, a seed, a step counter and an optional thread pool,
//! shared with every other world of the process that asked for the same number of threads.

use crate::error::{Error, invalid};
use crate::flock::{Flock, FlockSnapshot, Spawn};
use crate::slotmap::SlotMap;
use boids_core::{FlockParams, MAX_MAGNITUDE, MeshId, MeshShape, Obstacle, Placed, Vec3, limits};
use boids_index::{Exec, NO_THREADS, SerialExec, SimdLevel};
use std::sync::{Arc, Mutex, OnceLock};

/// Most boids one flock may hold: 16.7 million (about 2 GiB of state and index).
pub const MAX_BOIDS_PER_FLOCK: usize = 1 << 24;

/// Reads of a flock this large or larger (positions, orientations, matrices and the rest)
/// run on the world's threads; smaller ones on the calling thread, where they finish before
/// a pool's worker would wake.
pub const READ_PARALLEL_MIN: usize = 1 << 16;
/// Random stream of flock-level draws (target relocation).
const GOAL_STREAM: u32 = 2;

mod chain;
mod flow;
mod launch;
mod meshes;
#[cfg(feature = "save")]
mod save;
mod step;
pub use flow::FlowArrow;
#[cfg(feature = "save")]
pub use save::SAVE_FORMAT_VERSION;

/// Largest time step accepted, seconds.
pub const MAX_DT: f32 = 1.0;

/// Who runs a world's steps: Rayon (a pool shared by the worlds of the same thread count, or
/// Rayon's global pool), or a host's job system.
pub(crate) enum Runner {
    Rayon(Arc<boids_index::RayonExec>, Option<Arc<rayon::ThreadPool>>),
    Host(Arc<dyn Exec>),
}

/// Locks `m`, whether or not a thread panicked holding it: everything the world's mutexes
/// guard is plain data, whole after every write.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn check_room(have: usize, need: usize) -> Result<(), Error> {
    if have < need {
        return Err(Error::BufferTooSmall { needed: need });
    }
    Ok(())
}

crate::slot_key!(
    /// A flock handle: an index and a generation. The generation starts at 1, so the all-zero
    /// id is never valid; destroying a flock bumps its slot's generation, so old ids go stale.
    FlockId
);

/// World settings. The default is seed 0 on Rayon's global pool, with the fastest kernel the
/// CPU supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct WorldConfig {
    /// Seed of every random draw in the world.
    pub seed: u64,
    /// Worker threads: 0 uses Rayon's global pool (`RAYON_NUM_THREADS`); n > 0 runs the world
    /// on a pool of n threads, shared by every world of the process that asked for n (so
    /// several worlds never oversubscribe the CPU). With 1, `step` runs on the calling thread
    /// (no hand-over to the pool) and only `step_begin` uses the pool's thread. In
    /// WebAssembly without threads: 0 or 1, both the calling thread; more is refused.
    pub threads: usize,
    /// The instruction set of the neighbour kernel: `None` takes `BOIDS_SIMD` from the
    /// environment, or else the fastest this CPU supports. Every choice gives the same bits;
    /// forcing one is for checking exactly that (or for timing). A level this CPU lacks is
    /// refused by [`World::new`].
    pub simd: Option<SimdLevel>,
}

crate::slot_key!(
    /// An obstacle handle: index and generation, like [`FlockId`].
    ObstacleId
);

boids_core::c_enum! {
    /// How one flock reacts to another.
    pub enum RelationKind: "relation kind", "BOIDS_RELATION_", "RelationKind" {
        /// No reaction (removes a relation).
        Ignore = 0, "ignore", "IGNORE",
        /// Move with the other flock's boids in range: toward their centre and along their mean heading.
        FlockTogether = 1, "flock-together", "FLOCK_TOGETHER",
        /// Keep away from the other flock's boids in range (mean unit vector away).
        Avoid = 2, "avoid", "AVOID",
        /// Prey: evade the nearest boid in range, from where it will be (Reynolds evasion).
        Flee = 3, "flee", "FLEE",
        /// Predator: pursue the nearest boid in range, toward where it will be (Reynolds pursuit).
        Chase = 4, "chase", "CHASE",
    }
}

/// A reaction of the boids of `from` to the boids of `to` within `radius`, with `weight`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Relation {
    /// The flock that reacts.
    pub from: FlockId,
    /// The flock it reacts to.
    pub to: FlockId,
    /// How.
    pub kind: RelationKind,
    /// Range.
    pub radius: f32,
    /// Weight of the steering it adds.
    pub weight: f32,
}

/// The live obstacles as a step casts against them, in slot order: all of them (what a flock
/// that flies sees), and split into the ground and the rest (what a grounded flock walks on,
/// and the walls it meets).
#[derive(Clone, Default)]
pub(crate) struct Scenery {
    pub(crate) all: Arc<[Placed]>,
    pub(crate) ground: Arc<[Placed]>,
    pub(crate) solids: Arc<[Placed]>,
}

/// A simulation: any number of named flocks, stepped together.
pub struct World {
    seed: u64,
    steps: u64,
    flocks: SlotMap<FlockId, Flock>,
    /// Each obstacle as given, and as a step casts against it (a mesh placement's world-space
    /// vertices are computed once, when it is placed or moved).
    obstacles: SlotMap<ObstacleId, (Obstacle, Placed)>,
    /// Shape data (triangle meshes and heightfields), shared by the obstacles that place it.
    meshes: SlotMap<MeshId, Arc<MeshShape>>,
    /// The live obstacles in slot order as a step casts against them, made when first needed
    /// after a change (a step, a ground query), so that a frame that moves every obstacle
    /// (a scene under a moving parent) builds them once, not once per obstacle; a step shares
    /// them (no copy).
    live: OnceLock<Scenery>,
    observer: Option<Vec3>,
    relations: Vec<Relation>,
    runner: Runner,
    level: SimdLevel,
    /// A step begun and not yet ended ([`World::step_begin`]).
    in_flight: bool,
    /// The overlapped step's job, handed to a worker at every [`World::step_begin`].
    overlap: Arc<step::Overlap>,
    /// Where a Rayon world's overlapped steps start: its pool's launcher (none without
    /// threads, or on a host's job system).
    launcher: Option<Arc<launch::Launcher>>,
    /// A step's lists, reused from step to step.
    step_buffers: step::StepBuffers,
    /// Flow fields, and the cell size they are built at.
    flows: flow::Flows,
    /// While a step is in flight, where the flow fields' history stood before it (with a
    /// budget: what a save made meanwhile holds).
    flows_seen: Option<flow::FlowsMark>,
    /// The last chain of steps ([`World::step_begin_n`]), kept for its lists' memory.
    spare_chain: Option<Box<chain::Chain>>,
}

impl Drop for World {
    /// A step in flight is cancelled: one no worker has started never runs, and one that is
    /// running is waited for (its job holds the world's working state).
    fn drop(&mut self) {
        self.settle();
    }
}

impl World {
    /// A new, empty world.
    pub fn new(config: WorldConfig) -> Result<World, Error> {
        World::build(config, None)
    }

    /// A new, empty world whose steps run on `exec` (a host's job system) instead of Rayon;
    /// `config.threads` is ignored. Every executor gives the same bits.
    pub fn with_exec(config: WorldConfig, exec: Arc<dyn Exec>) -> Result<World, Error> {
        World::build(config, Some(exec))
    }

    pub(crate) fn build(config: WorldConfig, exec: Option<Arc<dyn Exec>>) -> Result<World, Error> {
        let level = match config.simd {
            Some(l) => l.check().map_err(invalid)?,
            None => SimdLevel::from_env()
                .map_err(invalid)?
                .unwrap_or_else(SimdLevel::detect),
        };
        let runner = match exec {
            Some(e) => Runner::Host(e),
            None => {
                let pool = if NO_THREADS {
                    // The calling thread is all there is (RayonExec runs everything on it): a
                    // world may ask for 0 or 1 threads, no more.
                    if config.threads > 1 {
                        return Err(invalid(format!(
                            "threads must be 0 or 1 here: this build has no threads (WebAssembly), got {}",
                            config.threads
                        )));
                    }
                    None
                } else if config.threads > 0 {
                    if config.threads > 1024 {
                        return Err(invalid(format!(
                            "threads must be 0..=1024, got {}",
                            config.threads
                        )));
                    }
                    Some(launch::shared_pool(config.threads)?)
                } else {
                    None
                };
                Runner::Rayon(Arc::new(boids_index::RayonExec::new(pool.clone())), pool)
            }
        };
        let launcher = match &runner {
            Runner::Rayon(e, _) if !NO_THREADS => Some(launch::shared_launcher(config.threads, e)),
            _ => None,
        };
        Ok(World {
            seed: config.seed,
            steps: 0,
            flocks: SlotMap::default(),
            obstacles: SlotMap::default(),
            meshes: SlotMap::default(),
            live: OnceLock::new(),
            observer: None,
            relations: Vec::new(),
            runner,
            level,
            in_flight: false,
            overlap: Arc::default(),
            launcher,
            step_buffers: Default::default(),
            spare_chain: None,
            flows_seen: None,
            flows: Default::default(),
        })
    }

    /// The instruction set the neighbour kernel runs on.
    pub fn simd(&self) -> SimdLevel {
        self.level
    }

    /// The seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Steps taken so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Threads a step uses (a host's job system: the workers it reported).
    pub fn threads(&self) -> usize {
        self.runner.exec().workers()
    }

    /// `Err(Error::Busy)` while a step is in flight: changes wait for [`World::step_end`].
    fn idle(&self) -> Result<(), Error> {
        if self.in_flight {
            Err(Error::Busy)
        } else {
            Ok(())
        }
    }

    /// Runs a read over `n` boids with the executor it should use: the world's own pool for
    /// large flocks ([`READ_PARALLEL_MIN`] boids and more) on several threads; else the calling
    /// thread alone, as always while a step is in flight (reads must not queue behind the
    /// step's work) and on a host's job system (a read must never wait for the host: a host
    /// worker blocked on this world, say by a change that waits for the read, could never run
    /// it). A read is a copy at memory speed: below that size, waking the pool costs more
    /// than a second thread saves.
    fn read_with<R: Send>(&self, n: usize, f: impl FnOnce(&dyn Exec) -> R + Send) -> R {
        match &self.runner {
            Runner::Rayon(e, pool) if !self.in_flight && n >= READ_PARALLEL_MIN && !e.single() => {
                match pool {
                    Some(pool) => pool.install(|| f(&**e)),
                    // Rayon's global pool (`threads` 0): its loops go there from any thread.
                    None => f(&**e),
                }
            }
            _ => f(&SerialExec),
        }
    }

    /// Creates a flock with a unique, non-empty name.
    pub fn create_flock(&mut self, name: &str, params: FlockParams) -> Result<FlockId, Error> {
        self.idle()?;
        params.validate()?;
        if name.is_empty() {
            return Err(invalid("flock name must not be empty"));
        }
        if self.find_flock(name).is_some() {
            return Err(invalid(format!("a flock named '{name}' already exists")));
        }
        self.flocks
            .insert(Flock::new(name.to_owned(), params))
            .ok_or_else(|| invalid("a world holds at most 2^32 flocks"))
    }

    /// `true` while `id` names a live flock.
    pub fn is_valid(&self, id: FlockId) -> bool {
        self.flock(id).is_some()
    }

    /// The flock, if `id` is valid.
    pub fn flock(&self, id: FlockId) -> Option<&Flock> {
        self.flocks.get(id)
    }

    fn flock_mut(&mut self, id: FlockId) -> Result<&mut Flock, Error> {
        self.flocks.get_mut(id).ok_or(Error::InvalidId)
    }

    /// The live flock with this name.
    pub fn find_flock(&self, name: &str) -> Option<FlockId> {
        self.flocks
            .iter()
            .find(|(_, f)| f.name == name)
            .map(|(id, _)| id)
    }

    /// Ids of the live flocks, in slot order.
    pub fn flock_ids(&self) -> impl Iterator<Item = FlockId> + '_ {
        self.flocks.keys()
    }

    /// Destroys a flock; its id (and every copy) goes stale. Destroying twice is `InvalidId`.
    pub fn destroy_flock(&mut self, id: FlockId) -> Result<(), Error> {
        self.idle()?;
        self.flocks.remove(id).map(|_| ()).ok_or(Error::InvalidId)
    }

    /// Destroys every flock (nothing while a step is in flight).
    pub fn destroy_all(&mut self) {
        if self.in_flight {
            return;
        }
        let ids: Vec<FlockId> = self.flock_ids().collect();
        for id in ids {
            let _ = self.destroy_flock(id);
        }
    }

    /// Replaces a flock's parameters (validated first; on error nothing changes).
    pub fn set_params(&mut self, id: FlockId, params: FlockParams) -> Result<(), Error> {
        self.idle()?;
        self.flock_mut(id)?.set_params(params)
    }

    /// Moves a flock's target point (the flock's params must have a target).
    pub fn set_target(&mut self, id: FlockId, point: Vec3) -> Result<(), Error> {
        self.idle()?;
        self.flock_mut(id)?.set_target(point)
    }

    /// Spawns `n` boids; returns the first new id (ids are consecutive).
    pub fn spawn(&mut self, id: FlockId, n: usize, spawn: &Spawn) -> Result<u32, Error> {
        self.idle()?;
        let seed = self.seed;
        self.flock_mut(id)?.spawn(n, spawn, seed)
    }

    /// Adds boids with given positions and velocities; returns the first new id.
    pub fn add_boids(
        &mut self,
        id: FlockId,
        positions: &[Vec3],
        velocities: &[Vec3],
    ) -> Result<u32, Error> {
        self.idle()?;
        self.flock_mut(id)?.add(positions, velocities)
    }

    /// Removes boids by id (all or nothing: an unknown id removes none). Returns how many went.
    pub fn remove_boids(&mut self, id: FlockId, ids: &[u32]) -> Result<usize, Error> {
        self.idle()?;
        self.flock_mut(id)?.remove(ids)
    }

    /// Overwrites positions and/or velocities of every boid (in id order).
    pub fn write_state(
        &mut self,
        id: FlockId,
        positions: Option<&[Vec3]>,
        velocities: Option<&[Vec3]>,
    ) -> Result<(), Error> {
        self.idle()?;
        self.flock_mut(id)?.write(positions, velocities)
    }

    /// Overwrites every boid's full state, in id order, as [`Flock::states`] reads it:
    /// position, velocity, heading and, for models that keep them, orientation (with its
    /// roll), SmoothDamp velocity and wander point (ignored for models that keep none). All
    /// or nothing; every vector must be inside the limit and on the flock's plane, headings
    /// and orientations of unit length. With it a test can start a step from any state.
    pub fn write_states(
        &mut self,
        id: FlockId,
        states: &[boids_core::BoidState],
    ) -> Result<(), Error> {
        self.idle()?;
        self.flock_mut(id)?.write_states(states)
    }

    /// Puts back a flock's boids from a [`Flock::snapshot`].
    pub fn restore(&mut self, id: FlockId, snapshot: &FlockSnapshot) -> Result<(), Error> {
        self.idle()?;
        self.flock_mut(id)?.restore(snapshot);
        Ok(())
    }

    /// Grows (spawning with `spawn`) or shrinks (removing the newest boids) a flock to `n` boids.
    pub fn resize_flock(&mut self, id: FlockId, n: usize, spawn: &Spawn) -> Result<(), Error> {
        self.idle()?;
        let seed = self.seed;
        self.flock_mut(id)?.resize(n, spawn, seed)
    }

    /// Adds an obstacle every flock will avoid (per its params). A mesh or heightfield
    /// placement names shape data of this world ([`World::add_mesh`],
    /// [`World::add_heightfield`]) of that kind.
    ///
    /// With a flow cell size ([`World::set_flow_cell_size`]), ground that would take the flow
    /// grid over the ground's extent past [`boids_core::flow::MAX_FLOW_CELLS`] cells is
    /// refused ([`Error::InvalidArgument`]): set a larger cell size first.
    pub fn add_obstacle(&mut self, shape: Obstacle) -> Result<ObstacleId, Error> {
        self.idle()?;
        let placed = self.place(&shape)?;
        self.check_flow_extent(&shape, &placed, None)?;
        let id = self
            .obstacles
            .insert((shape, placed))
            .ok_or_else(|| invalid("a world holds at most 2^32 obstacles"))?;
        self.obstacles_changed();
        Ok(id)
    }

    /// The obstacle checked for this world and made ready for casts.
    pub(crate) fn place(&self, shape: &Obstacle) -> Result<Placed, Error> {
        self.check_obstacle(shape)?;
        let data = shape.mesh().and_then(|m| self.meshes.get(m).cloned());
        Ok(Placed::new(shape, data))
    }

    /// Refuses a ground placement (new, or replacing obstacle `replacing`) that would take the
    /// flow grid past its cap: flocks would silently seek in a straight line instead.
    fn check_flow_extent(
        &self,
        shape: &Obstacle,
        placed: &Placed,
        replacing: Option<ObstacleId>,
    ) -> Result<(), Error> {
        let cell = self.flow_cell_size();
        if cell <= 0.0 || !shape.is_ground() {
            return Ok(());
        }
        let ground: Vec<Placed> = (self.obstacles.iter())
            .filter(|(k, (o, _))| o.is_ground() && Some(*k) != replacing)
            .map(|(_, (_, p))| p.clone())
            .chain(std::iter::once(placed.clone()))
            .collect();
        match flow::grid_over(&ground, cell) {
            Some(Err(e)) => Err(invalid(format!(
                "this ground would make the flow grid too large at the flow cell size {cell}: {e}"
            ))),
            _ => Ok(()),
        }
    }

    /// After any change to the obstacles: the live scenery is made again when next needed.
    pub(crate) fn obstacles_changed(&mut self) {
        self.live = OnceLock::new();
    }

    /// The live obstacles as a step casts against them (made now if a change left none).
    pub(crate) fn live(&self) -> &Scenery {
        self.live.get_or_init(|| {
            let pick = |keep: fn(&Obstacle) -> bool| -> Arc<[Placed]> {
                self.obstacles
                    .values()
                    .filter(|(o, _)| keep(o))
                    .map(|(_, p)| p.clone())
                    .collect()
            };
            Scenery {
                all: pick(|_| true),
                ground: pick(Obstacle::is_ground),
                solids: pick(|o| !o.is_ground()),
            }
        })
    }

    /// Replaces an obstacle's shape (moves it). Moving a mesh or heightfield placement
    /// rebuilds and copies nothing (O(1)): its data is shared, and casts place the vertices
    /// they test. Ground moved or scaled so far that the flow grid would pass its cap is
    /// refused, as [`World::add_obstacle`] refuses it.
    pub fn set_obstacle(&mut self, id: ObstacleId, shape: Obstacle) -> Result<(), Error> {
        self.idle()?;
        if !self.obstacles.contains(id) {
            return Err(Error::InvalidId);
        }
        let placed = self.place(&shape)?;
        self.check_flow_extent(&shape, &placed, Some(id))?;
        *self.obstacles.get_mut(id).ok_or(Error::InvalidId)? = (shape, placed);
        self.obstacles_changed();
        Ok(())
    }

    /// Removes an obstacle; its id goes stale.
    pub fn remove_obstacle(&mut self, id: ObstacleId) -> Result<(), Error> {
        self.idle()?;
        self.obstacles.remove(id).ok_or(Error::InvalidId)?;
        self.obstacles_changed();
        Ok(())
    }

    /// The obstacle, if `id` is valid.
    pub fn obstacle(&self, id: ObstacleId) -> Option<Obstacle> {
        self.obstacles.get(id).map(|(o, _)| *o)
    }

    /// Every live obstacle, in slot order.
    pub fn obstacles(&self) -> Vec<Obstacle> {
        self.obstacles.values().map(|(o, _)| *o).collect()
    }

    /// Every live obstacle as a step casts against it, in slot order (meshes and heightfields
    /// with their shape data and placement).
    pub fn placed_obstacles(&self) -> &[Placed] {
        &self.live().all
    }

    /// Ids of the live obstacles, in slot order.
    pub fn obstacle_ids(&self) -> impl Iterator<Item = ObstacleId> + '_ {
        self.obstacles.keys()
    }

    /// Sets (or clears) the observer point: a flock with a wake region moves only while the
    /// observer is inside it (the fish-tank preset's "active while the player is near"). With no observer,
    /// every flock is awake.
    pub fn set_observer(&mut self, point: Option<Vec3>) -> Result<(), Error> {
        self.idle()?;
        if let Some(p) = point {
            crate::flock::check_point("observer", p)?;
        }
        self.observer = point;
        Ok(())
    }

    /// The observer point.
    pub fn observer(&self) -> Option<Vec3> {
        self.observer
    }

    /// Sets (or clears) a flock's wake region, the box the observer must be in for it to move.
    pub fn set_wake_region(
        &mut self,
        id: FlockId,
        region: Option<(Vec3, Vec3)>,
    ) -> Result<(), Error> {
        self.idle()?;
        if let Some((lo, hi)) = region {
            crate::flock::check_point("wake region min", lo)?;
            crate::flock::check_point("wake region max", hi)?;
            if !lo.cmple(hi).all() {
                return Err(invalid(format!(
                    "wake region min {lo} must not exceed max {hi} on any axis"
                )));
            }
        }
        self.flock_mut(id)?.wake_region = region;
        Ok(())
    }

    /// Sets how flock `from` reacts to flock `to` (replacing any earlier relation of that
    /// ordered pair; `Ignore` removes it). The other flock is found through its neighbour index.
    pub fn set_relation(
        &mut self,
        from: FlockId,
        to: FlockId,
        kind: RelationKind,
        radius: f32,
        weight: f32,
    ) -> Result<(), Error> {
        self.idle()?;
        if !self.is_valid(from) || !self.is_valid(to) {
            return Err(Error::InvalidId);
        }
        if from == to {
            return Err(invalid("a relation needs two different flocks"));
        }
        if !(radius > 0.0 && radius <= MAX_MAGNITUDE) {
            return Err(invalid(format!(
                "relation radius must be finite and in (0, {}], got {radius}",
                limits::show(MAX_MAGNITUDE)
            )));
        }
        limits::in_range(weight, -MAX_MAGNITUDE, MAX_MAGNITUDE)
            .map_err(|e| invalid(format!("relation weight {e}")))?;
        self.relations.retain(|r| !(r.from == from && r.to == to));
        if kind != RelationKind::Ignore {
            self.relations.push(Relation {
                from,
                to,
                kind,
                radius,
                weight,
            });
        }
        Ok(())
    }

    /// The relations in force (between live flocks).
    pub fn relations(&self) -> Vec<Relation> {
        self.relations
            .iter()
            .filter(|r| self.is_valid(r.from) && self.is_valid(r.to))
            .copied()
            .collect()
    }

    /// Sets the polyline the flock follows with `weights.path` (fewer than two points clears it).
    pub fn set_path(&mut self, id: FlockId, points: &[Vec3], closed: bool) -> Result<(), Error> {
        self.idle()?;
        for (i, &p) in points.iter().enumerate() {
            crate::flock::check_vec("path", i, p)?;
        }
        let f = self.flock_mut(id)?;
        f.path = if points.len() >= 2 {
            points.to_vec()
        } else {
            Vec::new()
        };
        f.path_closed = closed;
        Ok(())
    }

    /// Makes boid `leader` (an id of the flock) the leader: every step the flock's target moves to
    /// the leader's position plus `offset` in the leader's frame (+Z ahead, +Y up; e.g.
    /// `(0, 0, -2)` is two units behind it), and the leader itself ignores the target. The flock
    /// follows with `weights.target` (and `arrival_radius` to slow down). `None` clears it.
    pub fn set_leader(&mut self, id: FlockId, leader: Option<(u32, Vec3)>) -> Result<(), Error> {
        self.idle()?;
        let f = self.flock_mut(id)?;
        if let Some((boid, offset)) = leader {
            if f.position_of(boid).is_none() {
                return Err(invalid(format!(
                    "flock '{}' has no boid with id {boid}",
                    f.name
                )));
            }
            limits::point(offset).map_err(|e| invalid(format!("leader offset {e}")))?;
            if f.params.target.is_none() {
                let mut p = f.params;
                p.target = Some(boids_core::Target {
                    point: Vec3::ZERO,
                    avoid_distance: 0.0,
                });
                f.set_params(p)?;
            }
        }
        f.leader = leader;
        Ok(())
    }

    /// Runs `f` in the world's thread pool (or on the calling thread: with Rayon's global pool,
    /// a host's job system, or while a step is in flight), e.g. to read back in parallel.
    pub fn in_pool<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.runner {
            Runner::Rayon(_, Some(pool)) if !self.in_flight => pool.install(f),
            _ => f(),
        }
    }

    /// Copies a flock's positions, in id order, into `out` (see [`Flock::read_positions`]);
    /// returns the number written. `out` must hold every boid. Allowed while a step is in
    /// flight: it reads the state before the step.
    pub fn read_positions<T: From<Vec3> + Send>(
        &self,
        id: FlockId,
        out: &mut [T],
    ) -> Result<usize, Error> {
        let f = self.flock(id).ok_or(Error::InvalidId)?;
        check_room(out.len(), f.len())?;
        self.read_with(f.len(), |e| f.read_positions_with(e, out));
        Ok(f.len())
    }

    /// Copies a flock's velocities, in id order; as [`World::read_positions`].
    pub fn read_velocities<T: From<Vec3> + Send>(
        &self,
        id: FlockId,
        out: &mut [T],
    ) -> Result<usize, Error> {
        let f = self.flock(id).ok_or(Error::InvalidId)?;
        check_room(out.len(), f.len())?;
        self.read_with(f.len(), |e| f.read_velocities_with(e, out));
        Ok(f.len())
    }

    /// Copies a flock's ids, ascending; as [`World::read_positions`].
    pub fn read_ids(&self, id: FlockId, out: &mut [u32]) -> Result<usize, Error> {
        let f = self.flock(id).ok_or(Error::InvalidId)?;
        check_room(out.len(), f.len())?;
        self.read_with(f.len(), |e| f.read_ids_with(e, out));
        Ok(f.len())
    }

    /// Writes a flock's orientations into `out` (see [`Flock::write_orientations`]); returns the
    /// number written. `out` must hold every boid.
    pub fn read_orientations(&self, id: FlockId, out: &mut [[f32; 4]]) -> Result<usize, Error> {
        let f = self.flock(id).ok_or(Error::InvalidId)?;
        check_room(out.len(), f.len())?;
        self.read_with(f.len(), |e| f.write_orientations_with(e, self.level, out));
        Ok(f.len())
    }

    /// Writes a flock's 4×4 instance matrices into `out` (see [`Flock::write_matrices`]);
    /// returns the number written. `out` must hold every boid.
    pub fn read_matrices(
        &self,
        id: FlockId,
        scale: f32,
        out: &mut [[f32; 16]],
    ) -> Result<usize, Error> {
        if !scale.is_finite() {
            return Err(invalid(format!("matrix scale must be finite, got {scale}")));
        }
        let f = self.flock(id).ok_or(Error::InvalidId)?;
        check_room(out.len(), f.len())?;
        self.read_with(f.len(), |e| {
            f.write_matrices_with(e, self.level, scale, out)
        });
        Ok(f.len())
    }

    /// As [`World::read_matrices`], each matrix multiplied on the left by `transform` (4×4,
    /// column-major; every element finite and within [`MAX_MAGNITUDE`]): draw a flock that
    /// lives in a parent object's local space without a pass over the matrices on the host.
    pub fn read_matrices_transformed(
        &self,
        id: FlockId,
        transform: &[f32; 16],
        scale: f32,
        out: &mut [[f32; 16]],
    ) -> Result<usize, Error> {
        if !scale.is_finite() {
            return Err(invalid(format!("matrix scale must be finite, got {scale}")));
        }
        if let Some((k, v)) = transform
            .iter()
            .enumerate()
            .find(|(_, v)| !(v.is_finite() && v.abs() <= MAX_MAGNITUDE))
        {
            return Err(invalid(format!(
                "transform[{k}] must be finite and within {MAX_MAGNITUDE:e}, got {v}"
            )));
        }
        let f = self.flock(id).ok_or(Error::InvalidId)?;
        check_room(out.len(), f.len())?;
        self.read_with(f.len(), |e| {
            f.write_matrices_transformed_with(e, self.level, transform, scale, out)
        });
        Ok(f.len())
    }
}
