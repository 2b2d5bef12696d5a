//! `boids-core`: the flocking model.
//!
//! Everything here is pure per-boid math on [`glam`] vectors: parameters ([`FlockParams`]),
//! the neighbourhood a boid sees ([`Neighbourhood`]), the rules that turn it into a steering
//! output and the integrators that turn that into the next state ([`step_boid`]).
//! This crate knows nothing of threads, neighbour indices, FFI or I/O: to step whole flocks,
//! use `boids-sim`'s `World`.
//!
//! One boid with one neighbour ahead of it, inside its separation radius, steers away:
//!
//! ```
//! use boids_core::{BoidState, Derived, Env, FlockParams, Neighbourhood, Rng, Vec3, step_boid};
//!
//! let params = FlockParams::default(); // the fish-tank tutorial's fish
//! params.validate().unwrap();
//! let me = BoidState::new(Vec3::ZERO, Vec3::new(3.0, 0.0, 0.0));
//! let other = BoidState::new(Vec3::new(0.3, 0.1, 0.0), Vec3::new(3.0, 0.0, 0.0));
//!
//! // What the neighbour index does for every candidate in range:
//! let o = other.position - me.position;
//! let mut hood = Neighbourhood::default();
//! let d = Derived::new(&params);
//! hood.consider(&d, me.heading, o, o.length_squared(), other.velocity, other.heading);
//! assert_eq!(hood.count, 1);
//!
//! let env = Env { target: None, obstacles: &[], ground: &[], nearby: None, path: &[], path_closed: false, flow: None,
//!     stand_radius: 0.0 };
//! let mut rng = Rng::keyed(7, 0, 0, 0); // (seed, boid id, step, stream)
//! let next = step_boid(&me, &hood, &params, &env, &mut rng, 1.0 / 60.0);
//! assert!(next.velocity.y < 0.0, "steers away from the neighbour above it");
//! assert!(next.position.x > 0.0, "and keeps moving forward");
//! ```
#![deny(missing_docs)]

pub mod flow;
pub mod fmath;
pub mod fnv;
pub mod geometry;
pub mod ground;
pub mod limits;
pub mod math;
pub mod obstacle;
mod params;
mod rng;
mod rules;
pub mod rules8;
pub mod table;

pub use geometry::{CastHit, MeshShape};
pub use glam::{Quat, Vec3};
pub use limits::{MAX_MAGNITUDE, MAX_NEIGHBOURS};
pub use obstacle::{MeshId, Obstacle, ObstacleKind, Placed};
pub use params::{
    AlignmentMode, Bounds, BoundsKind, Combine, FlockParams, Ground, GroundUp, IndexKind,
    Integrator, MAX_SLOPE_DEG, ObstacleAvoidance, ParamError, PlaneLock, SeparationMode, Target,
    TargetRelocation, Weights,
};
pub use rng::Rng;
pub use rules::{
    BoidState, Derived, Env, Extra, Neighbourhood, STAND_SPEED, confine, fov_cos, stand_radius,
    step_boid, wander,
};
pub use table::CEnum;
