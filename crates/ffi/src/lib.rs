//! C ABI of the boids engine. The header `include/boids.h` is generated from this crate by
//! cbindgen; see the README's "C quick start" and "API conventions".
//!
//! Every export runs inside one boundary ([`boundary`]) that catches panics and turns them into
//! `BOIDS_RESULT_PANIC`; nothing unwinds into C. Objects are value ids with a generation; a stale
//! or forged id is refused without touching freed memory. Calls on one world from two threads at
//! once get `BOIDS_RESULT_BUSY` for all but one.
#![expect(
    unsafe_code,
    reason = "this crate is the C ABI: it must read and write through caller pointers"
)]

mod boundary;
mod consts;
mod convert;
mod registry;
mod types;

// The exports, one module per object (the header lists them by name, so grouped by object).
mod flock;
mod flock_data;
mod interactions;
mod library;
mod obstacle;
mod world;

pub use consts::*;
pub use flock::*;
pub use flock_data::*;
pub use interactions::*;
pub use library::*;
pub use obstacle::*;
pub use types::*;
pub use world::*;
