//! The exported functions. Conventions (also in the README, "API conventions"):
//!
//! - Every fallible function returns a `BoidsResult`; `BOIDS_RESULT_OK` is 0. On failure
//!   `boids_last_error_message()` gives a sentence saying what was wrong, for the calling thread.
//! - A refused call changes nothing. Out-parameters come last and are written only on success;
//!   the one exception is the count of a read, which on `BOIDS_RESULT_BUFFER_TOO_SMALL` holds the
//!   number of entries needed.
//! - Every buffer pointer is followed by its capacity in entries. A NULL buffer with capacity 0
//!   is a size query.
//! - Ids are values; the all-zero id is null. Using a destroyed or forged id returns
//!   `BOIDS_RESULT_INVALID_ID`, never touches freed memory; destroying twice is an error.
//! - Thread safety: every function may be called from any thread. Calls on different worlds run
//!   in parallel; two calls on the same world at the same time are not serialised: one runs, the
//!   other returns `BOIDS_RESULT_BUSY` at once. Between `boids_world_step_begin` and
//!   `boids_world_step_end`, the world's boid reads (count, positions, velocities, ids,
//!   orientations, matrices) run and see the state before the step; every other call on it
//!   returns `BOIDS_RESULT_BUSY` and changes nothing.
//! - Units: world units, seconds, degrees. No function keeps a caller pointer after it returns.

use crate::boundary::{boundary_value, last_error_ptr};
use crate::convert::*;
use crate::types::*;
use boids_sim::{FlockParams, Vec3};
use std::ffi::c_char;

// ---------------------------------------------------------------------------------------------
// Library

/// The library version, e.g. "0.3.0". Static string; never NULL. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn boids_version() -> *const c_char {
    static V: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    V.as_ptr().cast()
}

/// The C ABI version (`BOIDS_ABI_VERSION` of the header the library was built with). A host
/// should refuse to run when this differs from the `BOIDS_ABI_VERSION` it compiled against.
/// Threads: callable from any thread at any time; touches no world.
#[unsafe(no_mangle)]
pub extern "C" fn boids_abi_version() -> u32 {
    BOIDS_ABI_VERSION
}

/// Size in bytes of an ABI struct (`BOIDS_STRUCT_*`), 0 for an unknown kind. Bindings in other
/// languages compare it with their own layout at start-up.
/// Threads: callable from any thread at any time; touches no world.
#[unsafe(no_mangle)]
pub extern "C" fn boids_struct_size(kind: i32) -> u32 {
    boundary_value(0, || struct_size(kind))
}

/// A static English name for a result code, e.g. "BOIDS_RESULT_BUSY: world in use by another
/// thread". Unknown codes give "unknown result code". Never NULL; do not free. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn boids_result_str(result: i32) -> *const c_char {
    let s: &'static str = match result {
        0 => "BOIDS_RESULT_OK: success\0",
        1 => "BOIDS_RESULT_NULL_POINTER: a required pointer was NULL\0",
        2 => "BOIDS_RESULT_INVALID_ID: id is null, destroyed or never issued\0",
        3 => "BOIDS_RESULT_INVALID_ARGUMENT: a value is out of range or not finite\0",
        4 => "BOIDS_RESULT_BUFFER_TOO_SMALL: output buffer too small\0",
        5 => {
            "BOIDS_RESULT_BUSY: world in use by another thread or stepping (boids_world_step_begin)\0"
        }
        6 => "BOIDS_RESULT_PANIC: internal error caught at the boundary\0",
        7 => "BOIDS_RESULT_INVALID_DEF: def not initialised by its boids_default_* function\0",
        8 => "BOIDS_RESULT_NOT_FOUND: no such name\0",
        _ => "unknown result code\0",
    };
    s.as_ptr().cast()
}

/// The detail of the calling thread's last failed call ("flock params: perception_radius must be
/// finite and in [0, 1e9], got NaN"), or "" if none failed yet. The string belongs to the
/// library and stays valid until the calling thread's next failing call; copy it to keep it.
/// Successful calls do not clear it. Never NULL.
#[unsafe(no_mangle)]
pub extern "C" fn boids_last_error_message() -> *const c_char {
    last_error_ptr()
}

// ---------------------------------------------------------------------------------------------
// Defaults

/// World settings with seed 0 and one worker per core. Change fields, then pass to
/// `boids_world_create`.
/// Threads: callable from any thread at any time; touches no world.
#[unsafe(no_mangle)]
pub extern "C" fn boids_default_world_def() -> BoidsWorldDef {
    BoidsWorldDef {
        seed: 0,
        threads: 0,
        internal_cookie: WORLD_DEF_COOKIE,
        worker_count: 0,
        enqueue_task: None,
        finish_task: None,
        user_context: std::ptr::null_mut(),
    }
}

/// Parameters of the fish-tank preset's fish school (radius 1, 90° field of view, weights 5/2/3, speeds
/// 2..5, soft walls of a 10-unit box).
/// Threads: callable from any thread at any time; touches no world.
#[unsafe(no_mangle)]
pub extern "C" fn boids_default_flock_params() -> BoidsFlockParams {
    params_to_c(&FlockParams::default(), None)
}

/// A flock def with no name (set `name` before use) and `boids_default_flock_params()`.
/// Threads: callable from any thread at any time; touches no world.
#[unsafe(no_mangle)]
pub extern "C" fn boids_default_flock_def() -> BoidsFlockDef {
    BoidsFlockDef {
        name: std::ptr::null(),
        params: params_to_c(&FlockParams::default(), None),
        internal_cookie: FLOCK_DEF_COOKIE,
        reserved: 0,
    }
}

/// Obstacle settings: a ball of radius 1 at the origin (`BOIDS_OBSTACLE_SPHERE`), rotation
/// identity, scale 1, no mesh. Set `shape` and the fields it uses (see `BoidsObstacleDef`).
/// Threads: callable from any thread at any time; touches no world.
#[unsafe(no_mangle)]
pub extern "C" fn boids_default_obstacle_def() -> BoidsObstacleDef {
    BoidsObstacleDef {
        shape: boids_sim::ObstacleKind::Sphere.c_value(),
        a: BoidsVec3::default(),
        b: BoidsVec3 {
            x: 0.0,
            y: 1.0,
            z: 0.0,
        },
        radius: 1.0,
        rotation: BoidsQuat {
            x: 0.0,
            y: 0.0,
            z: 0.0,
            w: 1.0,
        },
        scale: BoidsVec3 {
            x: 1.0,
            y: 1.0,
            z: 1.0,
        },
        mesh: BoidsMeshId::default(),
        ground: 0,
        internal_cookie: OBSTACLE_DEF_COOKIE,
    }
}

/// Spawn settings: the box -5..5 at speeds 2..5.
/// Threads: callable from any thread at any time; touches no world.
#[unsafe(no_mangle)]
pub extern "C" fn boids_default_spawn_def() -> BoidsSpawnDef {
    BoidsSpawnDef {
        shape: boids_sim::SpawnKind::Box.c_value(),
        min: Vec3::splat(-5.0).into(),
        max: Vec3::splat(5.0).into(),
        centre: BoidsVec3::default(),
        radius: 5.0,
        min_speed: 2.0,
        max_speed: 5.0,
        has_direction: 0,
        direction: BoidsVec3 {
            x: 0.0,
            y: 0.0,
            z: 1.0,
        },
        internal_cookie: SPAWN_DEF_COOKIE,
    }
}
