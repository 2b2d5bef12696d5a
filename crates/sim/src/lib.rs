//! `boids-sim`: the [`World`] and its parallel, double-buffered stepper.
//!
//! A world holds flocks; each step rebuilds every flock's neighbour index from the current
//! snapshot, computes every boid's next state from that snapshot only (in parallel with Rayon)
//! and then swaps buffers. Randomness is keyed by (world seed, boid id, step), so the result is
//! bit-identical for any thread count.
//!
//! ```
//! use boids_sim::{FlockParams, Spawn, World, WorldConfig};
//! let mut world = World::new(WorldConfig { seed: 7, threads: 1, ..WorldConfig::default() }).unwrap();
//! let fish = world.create_flock("fish", FlockParams::default()).unwrap();
//! world.spawn(fish, 200, &Spawn::default()).unwrap();
//! for _ in 0..10 {
//!     world.step(1.0 / 60.0).unwrap();
//! }
//! assert_eq!(world.flock(fish).unwrap().len(), 200);
//! ```
#![deny(missing_docs)]

pub mod builtin;
mod error;
mod flock;
use boids_core::fnv;
pub mod metrics;
pub mod presets;
pub mod record;
pub mod scene;
pub mod slotmap;

/// The built-in worlds under their old name.
#[deprecated(since = "0.2.0", note = "renamed to `boids_sim::builtin`")]
pub mod scenario {
    pub use crate::builtin::*;
}
mod world;

pub use boids_core::flow::{self, FlowField, FlowGrid};
pub use boids_core::fmath::{Extremes, Order};
pub use boids_core::geometry::{MAX_HEIGHTFIELD_SAMPLES, MAX_TRIANGLES, MAX_VERTICES};
pub use boids_core::table::CEnum;
pub use boids_core::{
    AlignmentMode, BoidState, Bounds, BoundsKind, Combine, FlockParams, Ground, GroundUp,
    IndexKind, Integrator, MAX_MAGNITUDE, MeshId, MeshShape, Obstacle, ObstacleAvoidance,
    ObstacleKind, ParamError, Placed, PlaneLock, Quat, SeparationMode, Target, TargetRelocation,
    Vec3, Weights,
};
/// Flocks with fewer boids than this build their index on one thread.
pub use boids_index::PARALLEL_MIN;
/// Worlds with fewer boids than this (all flocks together) step on the calling thread: handing
/// work to a pool costs more than it saves.
pub use boids_index::STEP_PARALLEL_MIN;
pub use boids_index::exec::{self, Exec, RayonExec, SerialExec, Spawned};
pub use boids_index::{Index, NeighbourIndex, SimdLevel};
pub use error::Error;
pub use flock::{Flock, FlockSnapshot, Spawn, SpawnKind, SpawnShape};
pub use record::Recorder;
pub use scene::{BoidSpec, FlockSpec, PathSpec, RegionSpec, RelationSpec, Scene};
#[cfg(feature = "save")]
pub use world::SAVE_FORMAT_VERSION;
pub use world::{
    FlockId, FlowArrow, MAX_BOIDS_PER_FLOCK, MAX_DT, ObstacleId, READ_PARALLEL_MIN, Relation,
    RelationKind, World, WorldConfig,
};

/// The README's Rust code blocks, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

/// This crate's README (its crates.io page): its Rust code block runs as a doctest too.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadmeDoctests;
