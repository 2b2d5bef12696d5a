//! `boids-core`: the flocking model.
//!
//! Everything here is pure per-boid math on [`glam`] vectors: parameters ([`FlockParams`]),
//! the neighbourhood a boid sees ([`Neighbourhood`]), the rules that turn it into a steering
//! output and the integrators that turn that into the next state ([`step_boid`]).
//! This crate knows nothing of threads, neighbour indices, FFI or I/O.

pub mod fmath;
pub mod limits;
pub mod math;
pub mod obstacle;
mod params;
mod rng;
mod rules;
pub mod table;

pub use glam::{Quat, Vec3};
pub use limits::{MAX_MAGNITUDE, MAX_NEIGHBOURS};
pub use obstacle::{Obstacle, ObstacleKind};
pub use params::{
    AlignmentMode, Bounds, BoundsKind, Combine, FlockParams, IndexKind, Integrator,
    ObstacleAvoidance, ParamError, PlaneLock, SeparationMode, Target, TargetRelocation, Weights,
};
pub use rng::Rng;
pub use rules::{BoidState, Derived, Env, Extra, Neighbourhood, step_boid};
pub use table::CEnum;
