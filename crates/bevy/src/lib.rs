//! A [Bevy](https://bevyengine.org) plugin for the boids engine: flocks of entities, stepped by
//! [`boids_sim::World`] with the engine's exact bits.
//!
//! - A flock is an entity with a [`Flock`] (its parameters: a preset's, or hand-made) and, to
//!   fill it, a [`FlockSpawn`] request. Each boid becomes an entity with a [`Boid`] (its flock
//!   and its stable id) and a `Transform`: gameplay queries, tags and despawns boids like any
//!   entity, and spawns one with a [`BoidSpawn`].
//! - Obstacles are entities with an [`Obstacle`] whose shape follows their `GlobalTransform`:
//!   sphere, cuboid, capsule, half-space, a triangle mesh from a `Mesh` asset (uploaded once per
//!   asset), a [`Heightfield`].
//! - A [`FlockTarget`] makes an entity a flock's target; a [`FlockObserver`] is the world's
//!   observer (the player a sleeping flock wakes for); a [`FlockRelation`] sets how one flock
//!   reacts to another (flee, chase, …).
//! - The [`FlowFields`] resource gives grounded flocks with a target a flow field to walk
//!   along around walls and cliffs; with the crate's `gizmos` feature, a `FlowFieldGizmos` on a
//!   flock entity draws its field with Bevy's gizmos (arrows along the way, on the ground).
//!
//! The step runs in `FixedUpdate` by default ([`BoidsPlugin::in_schedule`]) in the system sets
//! [`BoidsSet::SyncIn`] → [`BoidsSet::Step`], and [`BoidsSet::WriteBack`] writes every boid's
//! `Transform` in `PostUpdate`, interpolated between the last two states (in parallel, without
//! allocating). With [`BoidsPlugin::overlapped`] the step runs on the engine's threads while the
//! frame's `Update` runs, and ends in the write back.
//!
//! ```no_run
//! use bevy::prelude::*;
//! use boids_bevy::{BoidsPlugin, Flock, Boid};
//!
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, TransformPlugin, BoidsPlugin::default()));
//! // The fish-tank tutorial's school: its parameters and its spawn request (1,000 fish).
//! let (flock, spawn) = Flock::preset("fish-tank", 1000).unwrap();
//! app.world_mut().spawn((flock, spawn));
//! app.add_systems(Update, |fish: Query<(&Boid, &Transform)>| {
//!     for (boid, t) in &fish {
//!         let _ = (boid.id(), t.translation, t.forward());
//!     }
//! });
//! app.update();
//! ```
//!
//! A boid's `Transform::forward()` (Bevy's -Z) is its heading, with +Y kept as near world up
//! as possible. Bad values (a parameter out of range, a degenerate obstacle, a mesh without
//! triangles, a NaN `Transform` on an obstacle entity) are refused with an `error!` log that
//! names the entity and the field, and change nothing in the engine (a placed obstacle stays
//! where it was; each is tried again once it changes); no system of the plugin panics on them.
//!
//! Misuse, and what it does:
//! - entities despawned at any time, with a step in flight too (overlapped): a boid leaves its
//!   flock, a flock entity takes the flock and its boid entities with it, an obstacle, target,
//!   relation or observer entity ends what it made, all before the next step;
//! - a component taken off a live entity acts as a despawn of what it made: `Flock` (the flock
//!   and its boid entities go), `Boid` (the boid leaves the engine and the entity is no longer
//!   written), `Obstacle`, `FlockRelation`, `FlockObserver`;
//! - a [`FlockSpawn`] on an entity without a [`Flock`], a [`BoidSpawn`] or [`FlockTarget`]
//!   naming an entity that is not a flock: logged, nothing made;
//! - a second `BoidsPlugin` in one `App`: Bevy's own rule for a plugin that is unique
//!   (`Plugin::is_unique`) refuses it with a panic when it is added, before the app runs; one
//!   plugin holds one engine world, and every flock of the app lives in it.

mod convert;
#[cfg(feature = "gizmos")]
mod overlay;
mod shapes;
mod sync;
mod write;

use std::collections::HashMap;

use bevy::app::{App, FixedUpdate, Plugin, PostUpdate};
use bevy::ecs::intern::Interned;
use bevy::ecs::prelude::*;
use bevy::ecs::schedule::ScheduleLabel;
use bevy::math::Vec3 as BVec3;
use bevy::transform::TransformSystems;
use boids_sim::{FlockId, FlockParams, World, WorldConfig};

pub use boids_sim::{Error as BoidsError, RelationKind, Spawn, SpawnShape};
#[cfg(feature = "gizmos")]
pub use overlay::FlowFieldGizmos;
pub use shapes::{Ground, Heightfield, Obstacle};

/// The plugin: one engine world, its flocks, obstacles and relations mirrored from entities.
#[derive(Clone, Debug)]
pub struct BoidsPlugin {
    schedule: Interned<dyn ScheduleLabel>,
    config: WorldConfig,
    overlapped: bool,
    interpolate: bool,
}

impl Default for BoidsPlugin {
    /// Steps in `FixedUpdate`, seed 0, on Rayon's global pool, not overlapped, interpolated.
    fn default() -> Self {
        BoidsPlugin {
            schedule: FixedUpdate.intern(),
            config: WorldConfig::default(),
            overlapped: false,
            interpolate: true,
        }
    }
}

impl BoidsPlugin {
    /// Runs [`BoidsSet::SyncIn`] and [`BoidsSet::Step`] in `schedule` (e.g. `FixedPostUpdate`;
    /// `Update` steps once a frame with the frame's time: turn interpolation off then).
    pub fn in_schedule(mut self, schedule: impl ScheduleLabel) -> Self {
        self.schedule = schedule.intern();
        self
    }
    /// The seed of every random draw (spawns, wander): the same seed, the same bits.
    pub fn seed(mut self, seed: u64) -> Self {
        self.config.seed = seed;
        self
    }
    /// The engine's worker threads (see [`WorldConfig::threads`]): 0 is Rayon's global pool.
    /// Any count gives the same bits.
    pub fn threads(mut self, threads: usize) -> Self {
        self.config.threads = threads;
        self
    }
    /// The whole engine configuration.
    pub fn config(mut self, config: WorldConfig) -> Self {
        self.config = config;
        self
    }
    /// Begins each step in [`BoidsSet::Step`] and ends it in [`BoidsSet::WriteBack`] (or at the
    /// next tick's [`BoidsSet::SyncIn`]), so it runs on the engine's threads beside `Update`.
    /// The same bits as a blocking step.
    pub fn overlapped(mut self, on: bool) -> Self {
        self.overlapped = on;
        self
    }
    /// Writes `Transform`s between the last two states by `Time<Fixed>`'s overstep (the
    /// default), or the last state as it is.
    pub fn interpolated(mut self, on: bool) -> Self {
        self.interpolate = on;
        self
    }
}

/// The plugin's system sets, in order: the first two in the plugin's schedule, the third in
/// `PostUpdate` before transform propagation.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoidsSet {
    /// Entities into the engine: despawns, flocks and their parameters, spawns, obstacles,
    /// targets, the observer, relations.
    SyncIn,
    /// The step (or, overlapped, its beginning) and the read of its result.
    Step,
    /// Every boid's `Transform`, interpolated; new boid entities' indices.
    WriteBack,
}

impl Plugin for BoidsPlugin {
    fn build(&self, app: &mut App) {
        let world = match World::new(self.config) {
            Ok(w) => w,
            Err(e) => {
                bevy::log::error!("BoidsPlugin: cannot create the engine's world: {e}");
                return;
            }
        };
        app.insert_resource(Boids::new(world, self.overlapped, self.interpolate));
        app.configure_sets(self.schedule, (BoidsSet::SyncIn, BoidsSet::Step).chain());
        app.configure_sets(
            PostUpdate,
            BoidsSet::WriteBack.before(TransformSystems::Propagate),
        );
        app.add_systems(self.schedule, sync::sync_in.in_set(BoidsSet::SyncIn));
        app.add_systems(self.schedule, write::step.in_set(BoidsSet::Step));
        app.add_systems(
            PostUpdate,
            (write::finish, write::reindex, write::transforms)
                .chain()
                .in_set(BoidsSet::WriteBack),
        );
        #[cfg(feature = "gizmos")]
        app.add_systems(
            PostUpdate,
            overlay::draw
                .after(BoidsSet::WriteBack)
                // Without Bevy's `GizmoPlugin` (a headless app) there is nothing to draw with.
                .run_if(resource_exists::<bevy::gizmos::config::GizmoConfigStore>),
        );
    }
}

/// A flock: its parameters. Changing them changes the live flock (refused values are logged
/// and the component is set back to the flock's). Despawning the entity removes the flock and
/// despawns its boids. The engine names the flock after the entity's `Name`, if any.
#[derive(Component, Clone, Debug, PartialEq)]
pub struct Flock {
    /// The rules and their weights (see [`FlockParams`]).
    pub params: FlockParams,
}

impl Flock {
    /// A flock with these parameters.
    pub fn new(params: FlockParams) -> Self {
        Flock { params }
    }

    /// A preset's flock (its first, e.g. `fish-tank`, `reef`, `shark`'s school) and a request
    /// to spawn `count` boids where and as the preset spawns them.
    pub fn preset(name: &str, count: usize) -> Result<(Flock, FlockSpawn), BoidsError> {
        let scene = boids_sim::presets::get(name)?.scene(name);
        let f = &scene.flock[0];
        Ok((
            Flock { params: f.params },
            FlockSpawn {
                count,
                spawn: f.spawn,
            },
        ))
    }
}

/// A request to spawn `count` boids into the flock of this entity (taken away once done).
/// Each becomes an entity with a [`Boid`] and a `Transform`.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct FlockSpawn {
    /// How many.
    pub count: usize,
    /// Where and how fast (see [`Spawn`]).
    pub spawn: Spawn,
}

/// A boid: its flock's entity and its stable id in that flock (the engine's; ids are never
/// reused). Added by the plugin; despawning the entity removes the boid from the engine.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Boid {
    flock: Entity,
    id: u32,
}

impl Boid {
    /// The flock's entity.
    pub fn flock(&self) -> Entity {
        self.flock
    }
    /// The stable id (as the engine reports it: ascending, never reused).
    pub fn id(&self) -> u32 {
        self.id
    }
}

/// Put on an entity with a `Transform` to add it to `flock` as a new boid at that position with
/// this velocity; the plugin replaces it with a [`Boid`] carrying the engine's id.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[require(bevy::transform::components::Transform)]
pub struct BoidSpawn {
    /// The flock's entity.
    pub flock: Entity,
    /// Initial velocity, world units a second.
    pub velocity: BVec3,
}

/// Makes this entity's position the target of `flock` (`FlockParams::target`), following it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
#[require(bevy::transform::components::Transform)]
pub struct FlockTarget(pub Entity);

/// Makes this entity's position the world's observer (flocks with a wake distance sleep away
/// from it). At most one: with several, the first found wins and an error is logged.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[require(bevy::transform::components::Transform)]
pub struct FlockObserver;

/// How the boids of flock `from` react to those of flock `to` (both flock entities): put it on
/// any entity; despawning it (or removing it) ends the relation.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct FlockRelation {
    /// The flock that reacts.
    pub from: Entity,
    /// The flock it reacts to.
    pub to: Entity,
    /// How (flee, chase, avoid, flock together).
    pub kind: RelationKind,
    /// Range, world units.
    pub radius: f32,
    /// Weight of the steering it adds.
    pub weight: f32,
}

/// The world's flow fields, as a resource: with a cell size above 0, a grounded flock with a
/// target walks to it around walls, cliffs and obstacles along a flow field over the ground
/// ([`World::set_flow_cell_size`]); the budget spreads a new field's build over steps
/// ([`World::set_flow_budget`]). Insert or change it at any time: it reaches the engine in the
/// next [`BoidsSet::SyncIn`]; a refused value (a NaN or negative cell, a grid over the cap) is
/// logged and the engine keeps its settings. Without the resource: no flow fields (or what a
/// removed one last set).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct FlowFields {
    /// The width of a cell, world units (0: none, grounded flocks seek in a straight line).
    pub cell_size: f32,
    /// The work a step may spend building fields, in units of about one cell settled
    /// (0: no limit).
    pub budget: u32,
}

/// Where a boid's state sits in its flock's buffers (kept by the plugin).
#[derive(Component, Clone, Copy, Debug)]
struct BoidSlot {
    flock: u32,
    index: u32,
}

/// One flock as the plugin mirrors it.
struct FlockEntry {
    id: FlockId,
    /// Boid entities, in id order (the engine's read order).
    boids: Vec<Entity>,
    /// Their ids.
    ids: Vec<u32>,
    /// The last two states read (id order, `ids`), and a scratch buffer for re-mapping.
    states: write::States,
    /// Members added or removed since `BoidSlot`s were last set.
    reindex: bool,
}

/// The engine's world and what the plugin maps onto it.
#[derive(Resource)]
pub struct Boids {
    world: World,
    flocks: Vec<Option<FlockEntry>>,
    flock_of: HashMap<Entity, usize>,
    boid_of: HashMap<Entity, (usize, u32)>,
    shapes: shapes::Registry,
    relations: HashMap<Entity, (FlockId, FlockId)>,
    observer: Option<Entity>,
    overlapped: bool,
    interpolate: bool,
    in_flight: bool,
}

impl Boids {
    fn new(world: World, overlapped: bool, interpolate: bool) -> Self {
        Boids {
            world,
            flocks: Vec::new(),
            flock_of: HashMap::new(),
            boid_of: HashMap::new(),
            shapes: shapes::Registry::default(),
            relations: HashMap::new(),
            observer: None,
            overlapped,
            interpolate,
            in_flight: false,
        }
    }

    /// The engine's world (read-only: flocks, obstacles, `state_hash`). Between the plugin's
    /// sets it is idle; an overlapped step in flight ends at the write back.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The engine's id of a flock entity's flock.
    pub fn flock_id(&self, flock: Entity) -> Option<FlockId> {
        self.flock_of
            .get(&flock)
            .and_then(|&i| self.flocks[i].as_ref())
            .map(|f| f.id)
    }

    /// A flock entity's boid entities, in id order.
    pub fn boids_of(&self, flock: Entity) -> &[Entity] {
        self.flock_of
            .get(&flock)
            .and_then(|&i| self.flocks[i].as_ref())
            .map_or(&[], |f| &f.boids[..])
    }

    /// The engine's obstacle for an obstacle entity (once uploaded).
    pub fn obstacle_id(&self, entity: Entity) -> Option<boids_sim::ObstacleId> {
        self.shapes.obstacle_id(entity)
    }
}

/// This crate's README (its crates.io page, and the main README's Bevy quick start): its code
/// compiles as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadmeDoctests;
