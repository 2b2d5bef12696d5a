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

mod api;
mod boundary;
mod registry;
mod types;

pub use api::*;
pub use types::*;
