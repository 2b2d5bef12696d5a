//! The hostile-input matrix: one row per export of `include/boids.h`, each calling it the wrong
//! way in every way that applies — NULL for each pointer, stale, forged and destroyed ids,
//! NaN/Inf/negative/absurd numbers, dt <= 0, bad buffers, counts near the limits, and calls
//! while another thread steps the world — and asserting the documented result code and that the
//! world's state hash did not change. A test fails when an export has no row.
//!
//! One table in three parts (one test binary): the library and worlds (`rows_world`), flocks
//! and their reads and writes (`rows_flock`), the scene (`rows_scene`); the fixture and the
//! shared checks in `fixture`.
//!
//! SAFETY, for every `unsafe` block here: pointers are NULL on purpose or point to live locals
//! of the right type and length; strings are NUL-terminated.
#![expect(unsafe_code, reason = "calls the C ABI as C does")]

mod fixture;
mod rows_flock;
mod rows_scene;
mod rows_world;

use boids_ffi::*;
use fixture::*;

fn matrix() -> Vec<Row> {
    let mut rows = rows_world::rows();
    rows.extend(rows_flock::rows());
    rows.extend(rows_scene::rows());
    rows
}

#[test]
fn every_export_has_a_row() {
    let header = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../include/boids.h"
    ))
    .unwrap();
    let rows: Vec<&str> = matrix().iter().map(|r| r.0).collect();
    let mut exports: Vec<String> = header
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("boids_"))
        .map(str::to_owned)
        .collect();
    exports.sort();
    exports.dedup();
    // Keep only names followed by '(' somewhere: functions, not constants.
    exports.retain(|e| header.contains(&format!("{e}(")));
    assert!(exports.len() >= 41, "{exports:?}");
    for e in &exports {
        assert!(
            rows.contains(&e.as_str()),
            "export {e} has no row in the hostile-input matrix"
        );
    }
}

#[test]
fn hostile_input_matrix() {
    for (name, row) in matrix() {
        let fx = fixture();
        row(&fx);
        // The fixture world still works after all of it.
        assert_eq!(boids_world_step(fx.w, 0.016), Ok, "{name}");
        let mut n = 0;
        assert_eq!(unsafe { boids_flock_count(fx.f, &mut n) }, Ok, "{name}");
        assert_eq!(boids_world_destroy(fx.w), Ok, "{name}");
    }
}
