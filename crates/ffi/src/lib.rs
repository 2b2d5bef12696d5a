//! C ABI of the boids engine. The header `include/boids.h` is generated from this crate by
//! cbindgen; see the README's "C quick start" and "API conventions".
//!
//! Every export runs inside one boundary (the `boundary` module) that catches panics and turns them into
//! `BOIDS_RESULT_PANIC`; nothing unwinds into C. Objects are value ids with a generation; a stale
//! or forged id is refused without touching freed memory. Calls on one world from two threads at
//! once get `BOIDS_RESULT_BUSY` for all but one.
//!
//! A C program's first steps, written in Rust against the same exports (this crate is also an
//! `rlib`; from C, include `boids.h` and link the `cdylib` or `staticlib`):
//!
//! ```
//! use boids_ffi::*;
//! use std::ffi::CStr;
//!
//! let def = boids_default_world_def(); // defs always start from their default
//! let mut world = BoidsWorldId::default();
//! // SAFETY: every pointer is valid for the duration of its call.
//! unsafe {
//!     assert_eq!(boids_world_create(&def, &mut world), BoidsResult::Ok);
//!     let mut fish = BoidsFlockId::default();
//!     let r = boids_flock_create_preset(world, c"fish-tank".as_ptr(), c"fish".as_ptr(), &mut fish);
//!     assert_eq!(r, BoidsResult::Ok);
//!     for _ in 0..60 {
//!         assert_eq!(boids_world_step(world, 1.0 / 60.0), BoidsResult::Ok);
//!     }
//!     // A mistake gets a code and a sentence, and changes nothing.
//!     assert_eq!(boids_world_step(world, -1.0), BoidsResult::InvalidArgument);
//!     let why = CStr::from_ptr(boids_last_error_message()).to_string_lossy();
//!     assert!(why.contains("dt must be finite"), "{why}");
//! }
//! assert_eq!(boids_world_destroy(world), BoidsResult::Ok);
//! assert_eq!(boids_world_destroy(world), BoidsResult::InvalidId); // a stale id, not a crash
//! ```
#![expect(
    unsafe_code,
    reason = "this crate is the C ABI: it must read and write through caller pointers"
)]

mod boundary;
mod consts;
mod convert;
mod host;
mod registry;
mod types;

// The exports, one module per object (the header lists them by name, so grouped by object).
mod flock;
mod flock_data;
mod flow;
mod interactions;
mod library;
mod obstacle;
#[cfg(target_family = "wasm")]
mod wasm;
mod world;

#[cfg(test)]
mod tests;

pub use consts::*;
pub use flock::*;
pub use flock_data::*;
pub use flow::*;
pub use interactions::*;
pub use library::*;
pub use obstacle::*;
pub use types::*;
#[cfg(target_family = "wasm")]
pub use wasm::*;
pub use world::*;
