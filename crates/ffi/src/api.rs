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
//!   other returns `BOIDS_RESULT_BUSY` at once.
//! - Units: world units, seconds, degrees. No function keeps a caller pointer after it returns.

use crate::boundary::{Fail, Res, boundary, boundary_value, last_error_ptr};
use crate::registry;
use crate::types::*;
use boids_sim::{
    AlignmentMode, Bounds, Combine, FlockId, FlockParams, IndexKind, Integrator, Obstacle,
    ObstacleAvoidance, ObstacleId, PlaneLock, SeparationMode, Spawn, SpawnShape, Target,
    TargetRelocation, Vec3, Weights, World, WorldConfig,
};
use std::ffi::{CStr, c_char};

// ---------------------------------------------------------------------------------------------
// Helpers

fn null(what: &str) -> Fail {
    Fail::new(BoidsResult::NullPointer, format!("{what} is NULL"))
}

fn bad(msg: impl Into<String>) -> Fail {
    Fail::new(BoidsResult::InvalidArgument, msg)
}

/// Reads `*p`, or fails with `NULL_POINTER` naming `what`.
///
/// # Safety
/// `p` is NULL or points to a readable `T`.
unsafe fn read<T: Copy>(p: *const T, what: &str) -> Result<T, Fail> {
    if p.is_null() {
        return Err(null(what));
    }
    // SAFETY: non-null, and the caller promises it points to a readable T.
    Ok(unsafe { p.read_unaligned() })
}

/// Writes `v` to `*p` (checked non-null before any work by the caller).
///
/// # Safety
/// `p` is non-null and points to a writable `T`.
unsafe fn write<T>(p: *mut T, v: T) {
    // SAFETY: the caller checked p is non-null; C promises it is writable.
    unsafe { p.write_unaligned(v) }
}

fn need_out<T>(p: *mut T, what: &str) -> Result<(), Fail> {
    if p.is_null() { Err(null(what)) } else { Ok(()) }
}

/// A caller array as a slice; NULL is allowed only with `count == 0`.
///
/// # Safety
/// `p` is NULL or points to `count` readable `T`s that stay valid for the call.
unsafe fn slice<'a, T>(p: *const T, count: usize, what: &str) -> Result<&'a [T], Fail> {
    if count == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(null(what));
    }
    if count > isize::MAX as usize / std::mem::size_of::<T>().max(1) {
        return Err(bad(format!("{what}: count {count} is too large")));
    }
    // SAFETY: non-null, and the caller promises `count` readable elements.
    Ok(unsafe { std::slice::from_raw_parts(p, count) })
}

/// A C string argument as UTF-8.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string.
unsafe fn text<'a>(p: *const c_char, what: &str) -> Result<&'a str, Fail> {
    if p.is_null() {
        return Err(null(what));
    }
    // SAFETY: non-null and NUL-terminated per the documented contract.
    let c = unsafe { CStr::from_ptr(p) };
    let s = c
        .to_str()
        .map_err(|_| bad(format!("{what} is not valid UTF-8")))?;
    if s.is_empty() || s.len() > 255 {
        return Err(bad(format!(
            "{what} must be 1..=255 bytes, got {}",
            s.len()
        )));
    }
    Ok(s)
}

fn flock_id(id: BoidsFlockId) -> FlockId {
    FlockId {
        index: id.index.wrapping_sub(1),
        generation: id.generation,
    }
}

fn flock_err(id: BoidsFlockId) -> Fail {
    Fail::new(
        BoidsResult::InvalidId,
        format!(
            "invalid flock id {{ index: {}, generation: {} }} (null, destroyed or never issued)",
            id.index, id.generation
        ),
    )
}

/// Runs `f` on the flock's locked world, after checking the flock id.
fn with_flock<T>(
    id: BoidsFlockId,
    f: impl FnOnce(&mut World, FlockId) -> Result<T, Fail>,
) -> Result<T, Fail> {
    registry::with_world(id.world, |w| {
        let fid = flock_id(id);
        if id.index == 0 || !w.is_valid(fid) {
            return Err(flock_err(id));
        }
        f(w, fid)
    })
}

fn v3(v: BoidsVec3) -> Vec3 {
    v.into()
}

fn pick<T: Copy>(what: &str, value: i32, options: &[T]) -> Result<T, Fail> {
    usize::try_from(value)
        .ok()
        .and_then(|i| options.get(i).copied())
        .ok_or_else(|| {
            bad(format!(
                "{what} must be 0..={}, got {value}",
                options.len() - 1
            ))
        })
}

fn flag(what: &str, value: i32) -> Result<bool, Fail> {
    match value {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(bad(format!("{what} must be 0 or 1, got {value}"))),
    }
}

pub(crate) fn params_from_c(c: &BoidsFlockParams) -> Result<FlockParams, Fail> {
    let b = &c.bounds;
    let bounds = match b.kind {
        BOIDS_BOUNDS_NONE => Bounds::None,
        BOIDS_BOUNDS_SOFT_BOX => Bounds::SoftBox {
            min: v3(b.min),
            max: v3(b.max),
            distance: b.distance,
        },
        BOIDS_BOUNDS_SOFT_SPHERE => Bounds::SoftSphere {
            centre: v3(b.centre),
            radius: b.radius,
            inner: b.inner,
        },
        BOIDS_BOUNDS_WRAP => Bounds::Wrap {
            min: v3(b.min),
            max: v3(b.max),
        },
        BOIDS_BOUNDS_CLAMP => Bounds::Clamp {
            min: v3(b.min),
            max: v3(b.max),
        },
        BOIDS_BOUNDS_TURN_BACK => Bounds::TurnBack {
            min: v3(b.min),
            max: v3(b.max),
        },
        k => return Err(bad(format!("bounds.kind must be 0..=5, got {k}"))),
    };
    let p = FlockParams {
        perception_radius: c.perception_radius,
        fov_half_angle_deg: c.fov_half_angle_deg,
        separation_radius: c.separation_radius,
        max_neighbours: c.max_neighbours,
        weights: Weights {
            separation: c.weight_separation,
            alignment: c.weight_alignment,
            cohesion: c.weight_cohesion,
            target: c.weight_target,
            target_avoid: c.weight_target_avoid,
            bounds: c.weight_bounds,
            obstacles: c.weight_obstacles,
            wander: c.weight_wander,
            path: c.weight_path,
        },
        separation: pick(
            "separation_mode",
            c.separation_mode,
            &[
                SeparationMode::UnitMean,
                SeparationMode::InverseSquare,
                SeparationMode::MeanOffset,
                SeparationMode::SumOffset,
            ],
        )?,
        alignment: pick(
            "alignment_mode",
            c.alignment_mode,
            &[
                AlignmentMode::VelocityDifference,
                AlignmentMode::MeanHeading,
                AlignmentMode::MeanVelocity,
                AlignmentMode::GroupSpeed,
            ],
        )?,
        combine: pick(
            "combine",
            c.combine,
            &[
                Combine::WeightedSum,
                Combine::Steer,
                Combine::WeightedClamped,
            ],
        )?,
        integrator: pick(
            "integrator",
            c.integrator,
            &[
                Integrator::Acceleration,
                Integrator::VelocityBlend,
                Integrator::HeadingSpeed,
                Integrator::Kinematic,
            ],
        )?,
        min_speed: c.min_speed,
        max_speed: c.max_speed,
        max_force: c.max_force,
        max_turn_rate: c.max_turn_rate,
        velocity_smoothing: c.velocity_smoothing,
        drive_factor: c.drive_factor,
        bounds,
        plane: pick(
            "plane",
            c.plane,
            &[PlaneLock::None, PlaneLock::XY, PlaneLock::XZ],
        )?,
        target: if flag("has_target", c.has_target)? {
            Some(Target {
                point: v3(c.target_point),
                avoid_distance: c.target_avoid_distance,
            })
        } else {
            None
        },
        index: pick(
            "index",
            c.index,
            &[
                IndexKind::Auto,
                IndexKind::Grid,
                IndexKind::KdTree,
                IndexKind::BruteForce,
            ],
        )?,
        obstacle_avoidance: pick(
            "obstacle_avoidance",
            c.obstacle_avoidance,
            &[
                ObstacleAvoidance::None,
                ObstacleAvoidance::Reflect,
                ObstacleAvoidance::FreeDirection,
            ],
        )?,
        look_ahead: c.look_ahead,
        boid_radius: c.boid_radius,
        obstacle_overrides: flag("obstacle_overrides", c.obstacle_overrides)?,
        rule_probability: c.rule_probability,
        speed_change_probability: c.speed_change_probability,
        target_needs_neighbours: flag("target_needs_neighbours", c.target_needs_neighbours)?,
        target_relocation: if flag("has_target_relocation", c.has_target_relocation)? {
            Some(TargetRelocation {
                probability: c.target_relocation_probability,
                min: v3(c.target_relocation_min),
                max: v3(c.target_relocation_max),
            })
        } else {
            None
        },
        cohesion_smooth_time: c.cohesion_smooth_time,
        fallback_to_nearest: flag("fallback_to_nearest", c.fallback_to_nearest)?,
        wander_radius: c.wander_radius,
        wander_distance: c.wander_distance,
        wander_jitter: c.wander_jitter,
        arrival_radius: c.arrival_radius,
        path_lookahead: c.path_lookahead,
        update_every: c.update_every,
        sleep_distance: c.sleep_distance,
    };
    p.validate()
        .map_err(|e| bad(format!("flock params: {e}")))?;
    Ok(p)
}

pub(crate) fn params_to_c(p: &FlockParams, target_now: Option<Vec3>) -> BoidsFlockParams {
    let mut b = BoidsBounds::default();
    match p.bounds {
        Bounds::None => b.kind = BOIDS_BOUNDS_NONE,
        Bounds::SoftBox { min, max, distance } => {
            b.kind = BOIDS_BOUNDS_SOFT_BOX;
            b.min = min.into();
            b.max = max.into();
            b.distance = distance;
        }
        Bounds::SoftSphere {
            centre,
            radius,
            inner,
        } => {
            b.kind = BOIDS_BOUNDS_SOFT_SPHERE;
            b.centre = centre.into();
            b.radius = radius;
            b.inner = inner;
        }
        Bounds::Wrap { min, max } => {
            b.kind = BOIDS_BOUNDS_WRAP;
            b.min = min.into();
            b.max = max.into();
        }
        Bounds::Clamp { min, max } => {
            b.kind = BOIDS_BOUNDS_CLAMP;
            b.min = min.into();
            b.max = max.into();
        }
        Bounds::TurnBack { min, max } => {
            b.kind = BOIDS_BOUNDS_TURN_BACK;
            b.min = min.into();
            b.max = max.into();
        }
    }
    let reloc = p.target_relocation;
    let w = &p.weights;
    BoidsFlockParams {
        perception_radius: p.perception_radius,
        fov_half_angle_deg: p.fov_half_angle_deg,
        separation_radius: p.separation_radius,
        max_neighbours: p.max_neighbours,
        weight_separation: w.separation,
        weight_alignment: w.alignment,
        weight_cohesion: w.cohesion,
        weight_target: w.target,
        weight_target_avoid: w.target_avoid,
        weight_bounds: w.bounds,
        weight_obstacles: w.obstacles,
        weight_wander: w.wander,
        separation_mode: p.separation as i32,
        alignment_mode: p.alignment as i32,
        combine: p.combine as i32,
        integrator: p.integrator as i32,
        min_speed: p.min_speed,
        max_speed: p.max_speed,
        max_force: p.max_force,
        max_turn_rate: p.max_turn_rate,
        velocity_smoothing: p.velocity_smoothing,
        drive_factor: p.drive_factor,
        bounds: b,
        plane: p.plane as i32,
        has_target: i32::from(p.target.is_some()),
        target_point: target_now
            .or(p.target.map(|t| t.point))
            .unwrap_or(Vec3::ZERO)
            .into(),
        target_avoid_distance: p.target.map_or(0.0, |t| t.avoid_distance),
        index: p.index as i32,
        obstacle_avoidance: p.obstacle_avoidance as i32,
        look_ahead: p.look_ahead,
        boid_radius: p.boid_radius,
        obstacle_overrides: i32::from(p.obstacle_overrides),
        rule_probability: p.rule_probability,
        speed_change_probability: p.speed_change_probability,
        target_needs_neighbours: i32::from(p.target_needs_neighbours),
        has_target_relocation: i32::from(reloc.is_some()),
        target_relocation_probability: reloc.map_or(0.0, |r| r.probability),
        target_relocation_min: reloc.map_or(Vec3::ZERO, |r| r.min).into(),
        target_relocation_max: reloc.map_or(Vec3::ZERO, |r| r.max).into(),
        cohesion_smooth_time: p.cohesion_smooth_time,
        fallback_to_nearest: i32::from(p.fallback_to_nearest),
        weight_path: w.path,
        wander_radius: p.wander_radius,
        wander_distance: p.wander_distance,
        wander_jitter: p.wander_jitter,
        arrival_radius: p.arrival_radius,
        path_lookahead: p.path_lookahead,
        update_every: p.update_every,
        sleep_distance: p.sleep_distance,
        reserved: 0,
    }
}

fn spawn_from_c(s: &BoidsSpawnDef) -> Result<Spawn, Fail> {
    if s.internal_cookie != SPAWN_DEF_COOKIE {
        return Err(Fail::new(
            BoidsResult::InvalidDef,
            "spawn def was not initialised by boids_default_spawn_def()",
        ));
    }
    let shape = match s.shape {
        BOIDS_SPAWN_BOX => SpawnShape::Box {
            min: v3(s.min),
            max: v3(s.max),
        },
        BOIDS_SPAWN_SPHERE => SpawnShape::Sphere {
            centre: v3(s.centre),
            radius: s.radius,
        },
        BOIDS_SPAWN_DISC => SpawnShape::Disc {
            centre: v3(s.centre),
            radius: s.radius,
        },
        BOIDS_SPAWN_FLAT_BALL => SpawnShape::FlatBall {
            centre: v3(s.centre),
            radius: s.radius,
        },
        k => return Err(bad(format!("spawn shape must be 0..=3, got {k}"))),
    };
    let direction = if flag("has_direction", s.has_direction)? {
        let d = v3(s.direction);
        if !d.is_finite() || d.length_squared() < 1e-12 {
            return Err(bad(format!(
                "spawn direction must be finite and non-zero, got {d}"
            )));
        }
        Some(d)
    } else {
        None
    };
    Ok(Spawn {
        shape,
        min_speed: s.min_speed,
        max_speed: s.max_speed,
        direction,
    })
}

fn obstacle_from_c(d: &BoidsObstacleDef) -> Result<Obstacle, Fail> {
    Ok(match d.shape {
        BOIDS_OBSTACLE_SPHERE => Obstacle::Sphere {
            centre: v3(d.a),
            radius: d.radius,
        },
        BOIDS_OBSTACLE_BOX => Obstacle::Box {
            min: v3(d.a),
            max: v3(d.b),
        },
        BOIDS_OBSTACLE_PLANE => Obstacle::Plane {
            point: v3(d.a),
            normal: v3(d.b),
        },
        k => return Err(bad(format!("obstacle shape must be 0..=2, got {k}"))),
    })
}

fn obstacle_id(id: BoidsObstacleId) -> ObstacleId {
    ObstacleId {
        index: id.index.wrapping_sub(1),
        generation: id.generation,
    }
}

// ---------------------------------------------------------------------------------------------
// Library

/// The library version, e.g. "0.1.0". Static string; never NULL. Thread-safe.
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
        5 => "BOIDS_RESULT_BUSY: world in use by another thread\0",
        6 => "BOIDS_RESULT_PANIC: internal error caught at the boundary\0",
        7 => "BOIDS_RESULT_INVALID_DEF: def not initialised by its boids_default_* function\0",
        8 => "BOIDS_RESULT_NOT_FOUND: no such name\0",
        _ => "unknown result code\0",
    };
    s.as_ptr().cast()
}

/// The detail of the calling thread's last failed call ("flock params: perception_radius must be
/// finite and in [0, 1000000000], got NaN"), or "" if none failed yet. The string belongs to the
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
    }
}

/// Parameters of seed 000's fish school (radius 1, 90° field of view, weights 5/2/3, speeds
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

/// Spawn settings: the box -5..5 at speeds 2..5.
/// Threads: callable from any thread at any time; touches no world.
#[unsafe(no_mangle)]
pub extern "C" fn boids_default_spawn_def() -> BoidsSpawnDef {
    BoidsSpawnDef {
        shape: BOIDS_SPAWN_BOX,
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

// ---------------------------------------------------------------------------------------------
// World

/// Creates a world. `def` must come from `boids_default_world_def()`; it is only read.
/// On success writes the new id to `out_world`. The world lives until `boids_world_destroy`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `def` and `out_world` are NULL or valid pointers.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_create(
    def: *const BoidsWorldDef,
    out_world: *mut BoidsWorldId,
) -> BoidsResult {
    boundary(|| -> Res {
        // SAFETY: documented contract.
        let d = unsafe { read(def, "def") }?;
        need_out(out_world, "out_world")?;
        if d.internal_cookie != WORLD_DEF_COOKIE {
            return Err(Fail::new(
                BoidsResult::InvalidDef,
                "world def was not initialised by boids_default_world_def()",
            ));
        }
        if d.threads > 1024 {
            return Err(bad(format!("threads must be 0..=1024, got {}", d.threads)));
        }
        let world = World::new(WorldConfig {
            seed: d.seed,
            threads: d.threads as usize,
            ..WorldConfig::default()
        })?;
        let id = registry::insert(world)?;
        // SAFETY: checked non-null above.
        unsafe { write(out_world, id) };
        Ok(())
    })
}

/// Destroys a world and everything in it; its id and every flock and obstacle id in it go
/// stale. Destroying twice returns `BOIDS_RESULT_INVALID_ID`; while another thread is inside a
/// call on the world, `BOIDS_RESULT_BUSY` (nothing destroyed).
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_destroy(world: BoidsWorldId) -> BoidsResult {
    boundary(|| registry::remove(world))
}

/// 1 while `world` names a live world, else 0. Thread-safe.
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_is_valid(world: BoidsWorldId) -> i32 {
    boundary_value(0, || i32::from(registry::is_valid(world)))
}

/// Advances every flock of the world by `dt` seconds (0 < dt <= 1). Runs on the world's worker
/// threads and returns when done. The result is bit-identical for any thread count.
/// Threads: call from any thread; while it runs, other calls on this world from other threads
/// return `BOIDS_RESULT_BUSY`.
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_step(world: BoidsWorldId, dt: f32) -> BoidsResult {
    boundary(|| registry::with_world(world, |w| Ok(w.step(dt)?)))
}

/// Writes a 64-bit hash of the whole world state (for determinism checks) to `out_hash`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out_hash` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_state_hash(
    world: BoidsWorldId,
    out_hash: *mut u64,
) -> BoidsResult {
    boundary(|| {
        need_out(out_hash, "out_hash")?;
        let h = registry::with_world(world, |w| Ok(w.state_hash()))?;
        // SAFETY: checked non-null.
        unsafe { write(out_hash, h) };
        Ok(())
    })
}

/// Copies the ids of the world's live flocks (in slot order) into `out` (room for `capacity`);
/// writes how many to `out_count`. Too small: `BOIDS_RESULT_BUFFER_TOO_SMALL` with the number
/// needed in `out_count`; NULL with capacity 0 asks for the number.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`.
///
/// # Safety
/// `out` is NULL (only with capacity 0) or holds `capacity` writable entries; `out_count` NULL
/// or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_list_flocks(
    world: BoidsWorldId,
    out: *mut BoidsFlockId,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    boundary(|| {
        need_out(out_count, "out_count")?;
        if out.is_null() && capacity > 0 {
            return Err(null("out"));
        }
        let ids: Vec<BoidsFlockId> = registry::with_world(world, |w| {
            Ok(w.flock_ids().map(|id| to_c_flock(world, id)).collect())
        })?;
        // SAFETY: checked non-null; the count is written on success and on BUFFER_TOO_SMALL.
        unsafe { write(out_count, ids.len()) };
        if capacity < ids.len() {
            return Err(Fail::new(
                BoidsResult::BufferTooSmall,
                format!("buffer holds {capacity} flock ids, {} needed", ids.len()),
            ));
        }
        for (k, id) in ids.into_iter().enumerate() {
            // SAFETY: k < len <= capacity entries, per the contract.
            unsafe { write(out.add(k), id) };
        }
        Ok(())
    })
}

/// Sets the observer point (the player): a flock with a wake region moves only while the
/// observer is inside it. NULL clears it (every flock awake).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `point` is NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_world_set_observer(
    world: BoidsWorldId,
    point: *const BoidsVec3,
) -> BoidsResult {
    boundary(|| {
        let p = if point.is_null() {
            None
        } else {
            // SAFETY: non-null per the check; readable per the contract.
            Some(v3(unsafe { read(point, "point") }?))
        };
        registry::with_world(world, |w| Ok(w.set_observer(p)?))
    })
}

// ---------------------------------------------------------------------------------------------
// Flocks

fn to_c_flock(world: BoidsWorldId, id: FlockId) -> BoidsFlockId {
    BoidsFlockId {
        world,
        index: id.index + 1,
        generation: id.generation,
    }
}

/// Creates a flock from `def` (from `boids_default_flock_def()`, with `name` set). The name is
/// copied. On success writes the id to `out_flock`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `def` and `out_flock` are NULL or valid; `def->name` is NULL or NUL-terminated.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_create(
    world: BoidsWorldId,
    def: *const BoidsFlockDef,
    out_flock: *mut BoidsFlockId,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let d = unsafe { read(def, "def") }?;
        need_out(out_flock, "out_flock")?;
        if d.internal_cookie != FLOCK_DEF_COOKIE {
            return Err(Fail::new(
                BoidsResult::InvalidDef,
                "flock def was not initialised by boids_default_flock_def()",
            ));
        }
        // SAFETY: documented contract.
        let name = unsafe { text(d.name, "def.name") }?;
        let params = params_from_c(&d.params)?;
        let id = registry::with_world(world, |w| Ok(w.create_flock(name, params)?))?;
        // SAFETY: checked non-null.
        unsafe { write(out_flock, to_c_flock(world, id)) };
        Ok(())
    })
}

/// Creates a flock from a preset (see `boids presets`, e.g. "fish-tank"), with the preset's
/// boids, named `name`. Unknown preset: `BOIDS_RESULT_NOT_FOUND`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `preset` and `name` are NULL or NUL-terminated; `out_flock` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_create_preset(
    world: BoidsWorldId,
    preset: *const c_char,
    name: *const c_char,
    out_flock: *mut BoidsFlockId,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let preset = unsafe { text(preset, "preset") }?;
        // SAFETY: documented contract.
        let name = unsafe { text(name, "name") }?;
        need_out(out_flock, "out_flock")?;
        let p = boids_sim::presets::find(preset).ok_or_else(|| {
            Fail::new(BoidsResult::NotFound, format!("no preset named '{preset}'"))
        })?;
        let id = registry::with_world(world, |w| Ok(p.create(w, name)?))?;
        // SAFETY: checked non-null.
        unsafe { write(out_flock, to_c_flock(world, id)) };
        Ok(())
    })
}

/// Destroys a flock; its id goes stale. Twice: `BOIDS_RESULT_INVALID_ID`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
#[unsafe(no_mangle)]
pub extern "C" fn boids_flock_destroy(flock: BoidsFlockId) -> BoidsResult {
    boundary(|| with_flock(flock, |w, id| Ok(w.destroy_flock(id)?)))
}

/// 1 while `flock` names a live flock, else 0 (also 0 while its world is busy in another
/// thread).
#[unsafe(no_mangle)]
pub extern "C" fn boids_flock_is_valid(flock: BoidsFlockId) -> i32 {
    boundary_value(0, || i32::from(with_flock(flock, |_, _| Ok(())).is_ok()))
}

/// Finds a flock by name. Not found: `BOIDS_RESULT_NOT_FOUND`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `name` is NULL or NUL-terminated; `out_flock` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_find(
    world: BoidsWorldId,
    name: *const c_char,
    out_flock: *mut BoidsFlockId,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let name = unsafe { text(name, "name") }?;
        need_out(out_flock, "out_flock")?;
        let id = registry::with_world(world, |w| {
            w.find_flock(name)
                .ok_or_else(|| Fail::new(BoidsResult::NotFound, format!("no flock named '{name}'")))
        })?;
        // SAFETY: checked non-null.
        unsafe { write(out_flock, to_c_flock(world, id)) };
        Ok(())
    })
}

/// Reads a flock's parameters (with the current target point).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out_params` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_get_params(
    flock: BoidsFlockId,
    out_params: *mut BoidsFlockParams,
) -> BoidsResult {
    boundary(|| {
        need_out(out_params, "out_params")?;
        let p = with_flock(flock, |w, id| {
            let f = w.flock(id).expect("checked");
            Ok(params_to_c(f.params(), f.target()))
        })?;
        // SAFETY: checked non-null.
        unsafe { write(out_params, p) };
        Ok(())
    })
}

/// Replaces a flock's parameters, live. Every field is validated first; on error nothing
/// changes and the message names the field.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `params` is NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_set_params(
    flock: BoidsFlockId,
    params: *const BoidsFlockParams,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let c = unsafe { read(params, "params") }?;
        let p = params_from_c(&c)?;
        with_flock(flock, |w, id| {
            w.set_params(id, p)?;
            if p.target.is_some() {
                w.set_target(id, v3(c.target_point))?;
            }
            Ok(())
        })
    })
}

/// Moves the flock's target (its params must have `has_target = 1`).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
#[unsafe(no_mangle)]
pub extern "C" fn boids_flock_set_target(flock: BoidsFlockId, point: BoidsVec3) -> BoidsResult {
    boundary(|| with_flock(flock, |w, id| Ok(w.set_target(id, v3(point))?)))
}

/// Replaces only the flock's bounds.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `bounds` is NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_set_bounds(
    flock: BoidsFlockId,
    bounds: *const BoidsBounds,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let b = unsafe { read(bounds, "bounds") }?;
        with_flock(flock, |w, id| {
            let f = w.flock(id).expect("checked");
            let mut c = params_to_c(f.params(), f.target());
            c.bounds = b;
            let p = params_from_c(&c)?;
            Ok(w.set_params(id, p)?)
        })
    })
}

/// Sets the box the observer must be in for the flock to move; NULL for both clears it.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `min` and `max` are both NULL or both readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_set_wake_region(
    flock: BoidsFlockId,
    min: *const BoidsVec3,
    max: *const BoidsVec3,
) -> BoidsResult {
    boundary(|| {
        let region = match (min.is_null(), max.is_null()) {
            (true, true) => None,
            (false, false) => {
                // SAFETY: both non-null, readable per the contract.
                let (lo, hi) = unsafe { (read(min, "min")?, read(max, "max")?) };
                Some((v3(lo), v3(hi)))
            }
            _ => return Err(null("one of min and max")),
        };
        with_flock(flock, |w, id| Ok(w.set_wake_region(id, region)?))
    })
}

/// Writes 1 to `out_asleep` if the last step skipped the flock (observer outside its wake
/// region), else 0.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out_asleep` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_is_asleep(
    flock: BoidsFlockId,
    out_asleep: *mut i32,
) -> BoidsResult {
    boundary(|| {
        need_out(out_asleep, "out_asleep")?;
        let a = with_flock(flock, |w, id| Ok(w.flock(id).expect("checked").is_asleep()))?;
        // SAFETY: checked non-null.
        unsafe { write(out_asleep, i32::from(a)) };
        Ok(())
    })
}

/// Spawns `count` boids as `spawn` says (from `boids_default_spawn_def()`); writes the first new
/// id to `out_first_id` (ids are consecutive). At most 16,777,216 boids per flock.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `spawn` is NULL or readable; `out_first_id` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_spawn(
    flock: BoidsFlockId,
    count: u32,
    spawn: *const BoidsSpawnDef,
    out_first_id: *mut u32,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let s = spawn_from_c(&unsafe { read(spawn, "spawn") }?)?;
        need_out(out_first_id, "out_first_id")?;
        let first = with_flock(flock, |w, id| Ok(w.spawn(id, count as usize, &s)?))?;
        // SAFETY: checked non-null.
        unsafe { write(out_first_id, first) };
        Ok(())
    })
}

/// Grows (spawning per `spawn`) or shrinks (removing the newest boids) the flock to `count`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `spawn` is NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_resize(
    flock: BoidsFlockId,
    count: u32,
    spawn: *const BoidsSpawnDef,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let s = spawn_from_c(&unsafe { read(spawn, "spawn") }?)?;
        with_flock(flock, |w, id| Ok(w.resize_flock(id, count as usize, &s)?))
    })
}

/// Adds `count` boids with the given positions and velocities (both arrays of `count`); writes
/// the first new id to `out_first_id`. All values must be finite.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `positions` and `velocities` are NULL (only with count 0) or hold `count` readable entries;
/// `out_first_id` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_add_boids(
    flock: BoidsFlockId,
    positions: *const BoidsVec3,
    velocities: *const BoidsVec3,
    count: usize,
    out_first_id: *mut u32,
) -> BoidsResult {
    boundary(|| {
        // Refuse absurd counts before forming any slice from the caller's pointers.
        if count > boids_sim::MAX_BOIDS_PER_FLOCK {
            return Err(bad(format!(
                "count {count} exceeds the {} boids a flock can hold",
                boids_sim::MAX_BOIDS_PER_FLOCK
            )));
        }
        // SAFETY: documented contract.
        let p = unsafe { slice(positions, count, "positions") }?;
        // SAFETY: documented contract.
        let v = unsafe { slice(velocities, count, "velocities") }?;
        need_out(out_first_id, "out_first_id")?;
        let p: Vec<Vec3> = p.iter().map(|&x| x.into()).collect();
        let v: Vec<Vec3> = v.iter().map(|&x| x.into()).collect();
        let first = with_flock(flock, |w, id| Ok(w.add_boids(id, &p, &v)?))?;
        // SAFETY: checked non-null.
        unsafe { write(out_first_id, first) };
        Ok(())
    })
}

/// Removes the boids with these ids (all or nothing: an unknown id removes none). Writes how
/// many were removed (duplicates count once) to `out_removed` (may be NULL).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `ids` is NULL (only with count 0) or holds `count` entries; `out_removed` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_remove_boids(
    flock: BoidsFlockId,
    ids: *const u32,
    count: usize,
    out_removed: *mut usize,
) -> BoidsResult {
    boundary(|| {
        if count > boids_sim::MAX_BOIDS_PER_FLOCK {
            return Err(bad(format!(
                "count {count} exceeds the {} ids a call may pass",
                boids_sim::MAX_BOIDS_PER_FLOCK
            )));
        }
        // SAFETY: documented contract.
        let ids = unsafe { slice(ids, count, "ids") }?;
        let n = with_flock(flock, |w, id| Ok(w.remove_boids(id, ids)?))?;
        if !out_removed.is_null() {
            // SAFETY: non-null, writable per the contract.
            unsafe { write(out_removed, n) };
        }
        Ok(())
    })
}

/// Writes the number of boids to `out_count`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out_count` is NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_count(
    flock: BoidsFlockId,
    out_count: *mut usize,
) -> BoidsResult {
    boundary(|| {
        need_out(out_count, "out_count")?;
        let n = with_flock(flock, |w, id| Ok(w.flock(id).expect("checked").len()))?;
        // SAFETY: checked non-null.
        unsafe { write(out_count, n) };
        Ok(())
    })
}

/// Shared body of the bulk reads: checks the buffer, then fills it on the locked world.
///
/// # Safety
/// `out` is NULL or holds `capacity` writable `T`s; `out_count` NULL or writable.
unsafe fn read_bulk<T>(
    flock: BoidsFlockId,
    out: *mut T,
    capacity: usize,
    out_count: *mut usize,
    fill: impl FnOnce(&World, FlockId, &mut [T]) -> Result<(), Fail>,
) -> BoidsResult {
    boundary(|| {
        need_out(out_count, "out_count")?;
        if out.is_null() && capacity > 0 {
            return Err(null("out"));
        }
        with_flock(flock, |w, id| {
            let n = w.flock(id).expect("checked").len();
            if capacity < n {
                // SAFETY: checked non-null; the documented exception to "written only on success".
                unsafe { write(out_count, n) };
                return Err(Fail::new(
                    BoidsResult::BufferTooSmall,
                    format!("buffer holds {capacity} entries, {n} needed"),
                ));
            }
            if n > 0 {
                // SAFETY: non-null (capacity >= n > 0) and holds `capacity` entries per contract.
                let dst = unsafe { std::slice::from_raw_parts_mut(out, n) };
                fill(w, id, dst)?;
            }
            // SAFETY: checked non-null.
            unsafe { write(out_count, n) };
            Ok(())
        })
    })
}

/// A bulk read of one `Vec3` array of the flock, converted to `BoidsVec3`.
///
/// # Safety
/// As [`read_bulk`].
unsafe fn read_vec3s(
    flock: BoidsFlockId,
    out: *mut BoidsVec3,
    capacity: usize,
    out_count: *mut usize,
    field: fn(&boids_sim::Flock, &mut [BoidsVec3]),
) -> BoidsResult {
    // SAFETY: forwarded contract.
    unsafe {
        read_bulk(flock, out, capacity, out_count, |w, id, dst| {
            let f = w.flock(id).expect("checked");
            w.in_pool(|| field(f, dst));
            Ok(())
        })
    }
}

/// Copies the positions (id order) into `out` (room for `capacity` entries); writes the number
/// copied to `out_count`. Too small: `BOIDS_RESULT_BUFFER_TOO_SMALL` with the number needed in
/// `out_count`. No allocation.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `out` is NULL (only with capacity 0) or holds `capacity` writable entries; `out_count` NULL
/// or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_read_positions(
    flock: BoidsFlockId,
    out: *mut BoidsVec3,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    // SAFETY: forwarded contract.
    unsafe {
        read_vec3s(
            flock,
            out,
            capacity,
            out_count,
            boids_sim::Flock::read_positions,
        )
    }
}

/// Copies the velocities (id order); as `boids_flock_read_positions`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// As `boids_flock_read_positions`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_read_velocities(
    flock: BoidsFlockId,
    out: *mut BoidsVec3,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    // SAFETY: forwarded contract.
    unsafe {
        read_vec3s(
            flock,
            out,
            capacity,
            out_count,
            boids_sim::Flock::read_velocities,
        )
    }
}

/// Copies the ids (ascending; the order of every other read); as `boids_flock_read_positions`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// As `boids_flock_read_positions`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_read_ids(
    flock: BoidsFlockId,
    out: *mut u32,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    // SAFETY: forwarded contract.
    unsafe {
        read_bulk(flock, out, capacity, out_count, |w, id, dst| {
            let f = w.flock(id).expect("checked");
            w.in_pool(|| f.read_ids(dst));
            Ok(())
        })
    }
}

/// Writes each boid's orientation, Unity's `LookRotation(heading)`, as x, y, z, w; as
/// `boids_flock_read_positions`. Computed in parallel on the world's threads.
///
/// # Safety
/// As `boids_flock_read_positions`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_read_orientations(
    flock: BoidsFlockId,
    out: *mut BoidsQuat,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    // SAFETY: forwarded contract.
    unsafe {
        read_bulk(flock, out, capacity, out_count, |w, id, dst| {
            // SAFETY: BoidsQuat is repr(C) of exactly four f32 (x, y, z, w), size 16, align 4,
            // the same layout as [f32; 4] (never cast to glam's Quat, which needs align 16 and
            // callers' buffers need not have it); the slice covers exactly `dst`.
            let q: &mut [[f32; 4]] =
                std::slice::from_raw_parts_mut(dst.as_mut_ptr().cast::<[f32; 4]>(), dst.len());
            let _ = w.read_orientations(id, q)?;
            Ok(())
        })
    }
}

/// Writes each boid's 4×4 instance matrix, column-major (Unity's `Matrix4x4` memory layout):
/// rotation `LookRotation(heading)`, uniform `scale`, translation = position. Ready for
/// `Graphics.RenderMeshInstanced`. As `boids_flock_read_positions`; computed in parallel.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// As `boids_flock_read_positions`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_read_matrices(
    flock: BoidsFlockId,
    scale: f32,
    out: *mut BoidsMat4,
    capacity: usize,
    out_count: *mut usize,
) -> BoidsResult {
    // SAFETY: forwarded contract.
    unsafe {
        read_bulk(flock, out, capacity, out_count, |w, id, dst| {
            // SAFETY: BoidsMat4 is repr(C) of exactly [f32; 16]; the slice covers `dst`.
            let m: &mut [[f32; 16]] =
                std::slice::from_raw_parts_mut(dst.as_mut_ptr().cast::<[f32; 16]>(), dst.len());
            let _ = w.read_matrices(id, scale, m)?;
            Ok(())
        })
    }
}

/// Overwrites every boid's position (id order; `count` must equal the flock's count).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `positions` is NULL (only with count 0) or holds `count` readable entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_write_positions(
    flock: BoidsFlockId,
    positions: *const BoidsVec3,
    count: usize,
) -> BoidsResult {
    boundary(|| {
        with_flock(flock, |w, id| {
            let n = w.flock(id).expect("checked").len();
            if count != n {
                return Err(bad(format!(
                    "write positions: got {count} values for {n} boids"
                )));
            }
            // SAFETY: documented contract (checked above that `count` is the flock's size).
            let p = unsafe { slice(positions, count, "positions") }?;
            let p: Vec<Vec3> = p.iter().map(|&x| x.into()).collect();
            Ok(w.write_state(id, Some(&p), None)?)
        })
    })
}

/// Overwrites every boid's velocity (id order; `count` must equal the flock's count).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `velocities` is NULL (only with count 0) or holds `count` readable entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_write_velocities(
    flock: BoidsFlockId,
    velocities: *const BoidsVec3,
    count: usize,
) -> BoidsResult {
    boundary(|| {
        with_flock(flock, |w, id| {
            let n = w.flock(id).expect("checked").len();
            if count != n {
                return Err(bad(format!(
                    "write velocities: got {count} values for {n} boids"
                )));
            }
            // SAFETY: documented contract (checked above that `count` is the flock's size).
            let v = unsafe { slice(velocities, count, "velocities") }?;
            let v: Vec<Vec3> = v.iter().map(|&x| x.into()).collect();
            Ok(w.write_state(id, None, Some(&v))?)
        })
    })
}

// ---------------------------------------------------------------------------------------------
// Obstacles

/// Adds an obstacle every flock of the world avoids (per its params).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `def` is NULL or readable; `out_obstacle` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_obstacle_add(
    world: BoidsWorldId,
    def: *const BoidsObstacleDef,
    out_obstacle: *mut BoidsObstacleId,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let shape = obstacle_from_c(&unsafe { read(def, "def") }?)?;
        need_out(out_obstacle, "out_obstacle")?;
        let id = registry::with_world(world, |w| Ok(w.add_obstacle(shape)?))?;
        // SAFETY: checked non-null.
        unsafe {
            write(
                out_obstacle,
                BoidsObstacleId {
                    world,
                    index: id.index + 1,
                    generation: id.generation,
                },
            )
        };
        Ok(())
    })
}

/// Replaces (moves) an obstacle's shape.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `def` is NULL or readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_obstacle_set(
    obstacle: BoidsObstacleId,
    def: *const BoidsObstacleDef,
) -> BoidsResult {
    boundary(|| {
        // SAFETY: documented contract.
        let shape = obstacle_from_c(&unsafe { read(def, "def") }?)?;
        registry::with_world(obstacle.world, |w| {
            Ok(w.set_obstacle(obstacle_id(obstacle), shape)?)
        })
    })
}

/// Removes an obstacle; its id goes stale.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
#[unsafe(no_mangle)]
pub extern "C" fn boids_obstacle_remove(obstacle: BoidsObstacleId) -> BoidsResult {
    boundary(|| {
        registry::with_world(obstacle.world, |w| {
            Ok(w.remove_obstacle(obstacle_id(obstacle))?)
        })
    })
}

// ---------------------------------------------------------------------------------------------
// Interactions, paths, leaders

/// Sets how flock `from` reacts to flock `to` (`BOIDS_RELATION_*`) within `radius`, with
/// `weight`: flee or chase the nearest of its boids with prediction, avoid them, or move with
/// them. Replaces the earlier relation of that ordered pair; `BOIDS_RELATION_IGNORE` removes it.
/// Both flocks must be in `world`.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
#[unsafe(no_mangle)]
pub extern "C" fn boids_world_set_relation(
    world: BoidsWorldId,
    from: BoidsFlockId,
    to: BoidsFlockId,
    kind: i32,
    radius: f32,
    weight: f32,
) -> BoidsResult {
    use boids_sim::RelationKind as K;
    boundary(|| {
        let kind = pick(
            "kind",
            kind,
            &[K::Ignore, K::FlockTogether, K::Avoid, K::Flee, K::Chase],
        )?;
        registry::with_world(world, |w| {
            for id in [from, to] {
                if id.world != world || id.index == 0 || !w.is_valid(flock_id(id)) {
                    return Err(flock_err(id));
                }
            }
            Ok(w.set_relation(flock_id(from), flock_id(to), kind, radius, weight)?)
        })
    })
}

/// Sets the polyline (`count` points, copied) the flock follows with `weight_path`; `closed` 1
/// loops back to the first point. Fewer than two points clears the path.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
///
///
/// # Safety
/// `points` is NULL (only with count 0) or holds `count` readable entries.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn boids_flock_set_path(
    flock: BoidsFlockId,
    points: *const BoidsVec3,
    count: usize,
    closed: i32,
) -> BoidsResult {
    boundary(|| {
        if count > 1 << 20 {
            return Err(bad(format!(
                "a path holds at most {} points, got {count}",
                1 << 20
            )));
        }
        let closed = flag("closed", closed)?;
        // SAFETY: documented contract; count bounded above.
        let pts = unsafe { slice(points, count, "points") }?;
        let pts: Vec<Vec3> = pts.iter().map(|&x| x.into()).collect();
        with_flock(flock, |w, id| Ok(w.set_path(id, &pts, closed)?))
    })
}

/// Makes boid `boid_id` of the flock its leader: the flock's target follows it at `offset` in
/// the leader's frame (+Z ahead, +Y up; `{0, 0, -2}` = two units behind), and the leader ignores
/// the target. Followers steer with `weight_target` (and `arrival_radius`).
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
#[unsafe(no_mangle)]
pub extern "C" fn boids_flock_set_leader(
    flock: BoidsFlockId,
    boid_id: u32,
    offset: BoidsVec3,
) -> BoidsResult {
    boundary(|| {
        with_flock(flock, |w, id| {
            Ok(w.set_leader(id, Some((boid_id, v3(offset))))?)
        })
    })
}

/// Stops leader following.
/// Threads: any thread; a call on a world another thread is inside returns `BOIDS_RESULT_BUSY`. Pointers are borrowed for the call only; units are world units, seconds, degrees.
#[unsafe(no_mangle)]
pub extern "C" fn boids_flock_clear_leader(flock: BoidsFlockId) -> BoidsResult {
    boundary(|| with_flock(flock, |w, id| Ok(w.set_leader(id, None)?)))
}
