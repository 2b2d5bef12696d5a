//! Plain-data types of the C ABI. Only `f32`, `i32`, `u32`, `u64` and pointers; every struct is
//! `#[repr(C)]` with explicit padding (but `BoidsWorldDef`'s, which depends on the pointer
//! width) and its size asserted at compile time (the C# wrapper
//! checks the same sizes at start-up).

use std::ffi::{c_char, c_void};

/// Result of every fallible call. `BOIDS_RESULT_OK` is 0; `boids_result_str` names each code and
/// `boids_last_error_message` gives the detail of the calling thread's last failure.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoidsResult {
    /// Success.
    Ok = 0,
    /// A required pointer was NULL.
    NullPointer = 1,
    /// A world, flock or obstacle id is null, stale (destroyed) or was never issued.
    InvalidId = 2,
    /// A value is out of range, not finite, or inconsistent; the message names it.
    InvalidArgument = 3,
    /// An output buffer is too small; the count out-parameter holds the size needed.
    BufferTooSmall = 4,
    /// Another thread is using this world right now, or a step begun by
    /// `boids_world_step_begin` is in flight (only the reads it allows may run); nothing was done.
    Busy = 5,
    /// An internal error (a bug) was caught at the boundary; the world may be unusable.
    Panic = 6,
    /// A def struct did not come from its `boids_default_*` function.
    InvalidDef = 7,
    /// No flock or preset with that name; or no flow field for the flock.
    NotFound = 8,
}

/// A 3-D vector (12 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoidsVec3 {
    /// x.
    pub x: f32,
    /// y.
    pub y: f32,
    /// z.
    pub z: f32,
}

/// A rotation quaternion, Unity's memory order x, y, z, w (16 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoidsQuat {
    /// x.
    pub x: f32,
    /// y.
    pub y: f32,
    /// z.
    pub z: f32,
    /// w.
    pub w: f32,
}

/// A 4×4 matrix, column-major (Unity's `Matrix4x4` memory layout): `m[12..15]` is the
/// translation (64 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoidsMat4 {
    /// Elements, column by column.
    pub m: [f32; 16],
}

/// A world handle. All zero is the null id; ids of destroyed worlds go stale.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoidsWorldId {
    /// Slot, 1-based (0 = null).
    pub index: u32,
    /// Generation of the slot when issued.
    pub generation: u32,
}

/// A flock handle: its world and its slot in that world. All zero is the null id.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoidsFlockId {
    /// The world the flock lives in.
    pub world: BoidsWorldId,
    /// Slot, 1-based (0 = null).
    pub index: u32,
    /// Generation of the slot when issued.
    pub generation: u32,
}

/// An obstacle handle: its world and its slot. All zero is the null id.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoidsObstacleId {
    /// The world the obstacle lives in.
    pub world: BoidsWorldId,
    /// Slot, 1-based (0 = null).
    pub index: u32,
    /// Generation of the slot when issued.
    pub generation: u32,
}

/// A world's shape data: a triangle mesh or a heightfield (`boids_mesh_create`,
/// `boids_heightfield_create`), placed by obstacles. Zero is null.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoidsMeshId {
    /// The world the data lives in.
    pub world: BoidsWorldId,
    /// Slot, 1-based (0 = null).
    pub index: u32,
    /// Generation of the slot when issued.
    pub generation: u32,
}

/// Work the engine hands a host's job system (see `BoidsWorldDef::enqueue_task`): call it with
/// `task_context` for each range `[start, end)` the host cuts `0..item_count` into. The engine
/// hands out its work inside the task as well, so one call may do the work of several ranges
/// and a call may return at once. Every call must be made, by the host's workers, on their own
/// (the engine calls `finish_task` only once they all have returned), at any time, even after
/// the world is destroyed (then it returns at once). Safe to call from any thread.
pub type BoidsTaskFn = unsafe extern "C" fn(start: u32, end: u32, task_context: *mut c_void);

/// A host's job system takes a task: run `task(start, end, task_context)` on its workers for
/// ranges `[start, end)` that together cover `0..item_count` exactly once, each at least
/// `min_range` long (but the last), in any order, on any threads. Return a handle the engine
/// passes back to `finish_task`, or NULL when every call has already been made on the calling
/// thread (a host that cannot take more tasks runs them at once: `task(0, item_count,
/// task_context)`). It must return without waiting for a worker. Called from any thread that
/// steps, begins, ends or destroys the world, and from the host's worker that runs a begun
/// step: it must be thread-safe. `task_context` is an opaque token, not a pointer.
///
/// What a task callback may call: this function and `finish_task` may call the library for
/// other worlds; every call on the world whose step they serve returns `BOIDS_RESULT_BUSY`
/// ("called from inside this world's own step") and changes nothing, since it could only wait
/// for the step it is part of. The same holds for whatever runs inside `task` on that thread.
/// Anywhere else (a job of the host's, or its job wrapper between taking one of the engine's
/// ranges and running it) a worker may make any call: see `BoidsWorldDef`.
pub type BoidsEnqueueTaskFn = Option<
    unsafe extern "C" fn(
        task: BoidsTaskFn,
        item_count: u32,
        min_range: u32,
        task_context: *mut c_void,
        user_context: *mut c_void,
    ) -> *mut c_void,
>;

/// A host's job system forgets a task: waits until every call of the task `user_task` (a
/// handle `enqueue_task` returned) has returned, then forgets the handle. The engine calls it
/// only once every call of the task has returned (it adds up the items of the calls), so it
/// never waits, and a host whose tasks run only inside `finish_task` is never asked to run
/// them. Called at most once per non-NULL handle, on the thread of the call that finds the
/// task's calls returned: the one that enqueued it, or a later `boids_world_step`,
/// `boids_world_step_begin`, `boids_world_step_end` or `boids_world_destroy` on the world, or
/// the host's worker running a begun step of it. `boids_world_destroy` waits for the calls the
/// world's tasks are still owed while the host keeps making calls (of any task), and finishes
/// those handles; after one second in which the host makes no call at all, a task whose calls
/// have not come (a worker that destroys the world between taking the task and running it) is
/// never finished: its call, when it comes, returns at once, and the host forgets that handle
/// itself. While 256
/// of a world's tasks wait for their calls, the engine hands the host no more and runs its
/// loops on the stepping thread. Calls on the world it serves return `BOIDS_RESULT_BUSY` (see
/// `BoidsEnqueueTaskFn`).
///
/// A host that breaks this contract (calls that do not cover `0..item_count` exactly once, a
/// task called after its `finish_task`, or an `enqueue_task` that returns NULL before making
/// every call) has undefined behaviour. Where catching it costs nothing the engine does: the
/// task context is a token, so a late call finds no task and returns at once; a NULL handle
/// with calls left for the engine to make, or calls that cover more than `item_count`, fail
/// the step that sees it with `BOIDS_RESULT_PANIC` (the message says which), and the world
/// keeps the state before that step.
pub type BoidsFinishTaskFn =
    Option<unsafe extern "C" fn(user_task: *mut c_void, user_context: *mut c_void)>;

/// World settings. Get one from `boids_default_world_def()` and change fields.
///
/// Who runs a step's parallel work: by default the engine's own workers (`threads`). To run it
/// on the host's job system instead (a game engine's workers, shaped after Box2D v3's
/// `b2WorldDef`), set `enqueue_task`, `finish_task`, `worker_count` and optionally
/// `user_context`, and leave `threads` 0. The bits of every step are the same either way, for
/// any worker count and any order the host runs the ranges in.
///
/// The rule that keeps a host's workers from hanging: the engine never waits for the host. A
/// call waits only for work its own thread can do, or for work another thread is already doing
/// inside the library (which waits for nothing): the thread that enqueues a task claims its
/// ranges too; a begun step no worker has started runs on the thread that ends the world's step
/// (and never runs when the world is destroyed first); reads never hand the host a task; `finish_task` is only called for a task whose calls
/// have returned. So a host's worker may make any call on any world at any time, from a job of
/// its own or from its job wrapper between taking one of the engine's ranges and running it,
/// and gets what the call documents:
/// - the reads (`boids_flock_count`, `boids_flock_read_*`) copy on the calling thread; any
///   number run at once, also while a step is in flight;
/// - a change (every other call on the world) waits for the reads in progress, and returns
///   `BOIDS_RESULT_BUSY` while another change runs or a step is in flight;
/// - `boids_world_step_end` runs a begun step no worker has started, also on the worker that
///   holds the step's task (the task then finds nothing left), and waits for reads, never for
///   the host; `boids_world_destroy` does the same, then waits for the calls the host still
///   owes while it keeps making calls, at most one second without one (see
///   `BoidsFinishTaskFn`);
/// - from inside the world's own step (the host's `enqueue_task` or `finish_task`, or a task
///   the engine runs on that thread) every call on that world returns `BOIDS_RESULT_BUSY`.
///
/// Size: 48 bytes where pointers are 8 bytes (4 padding bytes follow `worker_count`, as every C
/// compiler lays it out), 32 bytes where they are 4 (wasm32, armv7);
/// `boids_struct_size(BOIDS_STRUCT_WORLD_DEF)` says which.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BoidsWorldDef {
    /// Seed of every random draw.
    pub seed: u64,
    /// Worker threads: 0 = one per core (Rayon's global pool), 1..=1024 = a pool of that many,
    /// shared by the worlds with the same count (with 1, `boids_world_step` runs on the calling
    /// thread; `boids_world_step_begin` on the pool's). Must be 0 when `enqueue_task` is set.
    /// In WebAssembly (no threads): 0 or 1, both the calling thread; more is refused.
    pub threads: u32,
    /// Set by `boids_default_world_def`; do not touch.
    pub internal_cookie: u32,
    /// With `enqueue_task`: how many of the host's workers may run the engine's tasks at once
    /// (1..=1024; sizes the ranges). Must be 0 without it.
    pub worker_count: u32,
    /// The host's job system takes a task (NULL: the engine's own workers). Set together with
    /// `finish_task`.
    pub enqueue_task: BoidsEnqueueTaskFn,
    /// The host's job system waits for a task. Set together with `enqueue_task`.
    pub finish_task: BoidsFinishTaskFn,
    /// Passed to `enqueue_task` and `finish_task` unchanged; the engine never reads it. It and
    /// the functions must stay valid until `boids_world_destroy` returns (they are never called
    /// after). The host's tasks may still be called after that: they return at once.
    pub user_context: *mut c_void,
}

/// Where boids may go. Which fields count depends on `kind` (`BOIDS_BOUNDS_*`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoidsBounds {
    /// `BOIDS_BOUNDS_*`.
    pub kind: i32,
    /// Box minimum corner.
    pub min: BoidsVec3,
    /// Box maximum corner.
    pub max: BoidsVec3,
    /// Sphere centre.
    pub centre: BoidsVec3,
    /// Sphere radius.
    pub radius: f32,
    /// Soft box: distance from a wall at which the push starts.
    pub distance: f32,
    /// Soft sphere: fraction of the radius at which the push starts (0..1).
    pub inner: f32,
}

/// Every setting of a flock (see `boids_sim::FlockParams` for the model). Get one from
/// `boids_default_flock_params()` or `boids_flock_get_params()` and change fields; all lengths
/// in world units, speeds in units/s, angles in degrees.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoidsFlockParams {
    /// Neighbours are the others strictly closer than this (>= 0).
    pub perception_radius: f32,
    /// Half-angle of the field of view, degrees (0..360; >= 180 sees all around).
    pub fov_half_angle_deg: f32,
    /// Only neighbours closer than this count for separation (>= 0).
    pub separation_radius: f32,
    /// Use only the k nearest neighbours; 0 = all within the radius.
    pub max_neighbours: u32,
    /// Weight of separation.
    pub weight_separation: f32,
    /// Weight of alignment.
    pub weight_alignment: f32,
    /// Weight of cohesion.
    pub weight_cohesion: f32,
    /// Weight of attraction to the target.
    pub weight_target: f32,
    /// Weight of the push away from the target inside `target_avoid_distance`.
    pub weight_target_avoid: f32,
    /// Weight of the soft bounds push.
    pub weight_bounds: f32,
    /// Weight of obstacle avoidance.
    pub weight_obstacles: f32,
    /// Weight of random wander.
    pub weight_wander: f32,
    /// `BOIDS_SEPARATION_*`.
    pub separation_mode: i32,
    /// `BOIDS_ALIGNMENT_*`.
    pub alignment_mode: i32,
    /// `BOIDS_COMBINE_*`.
    pub combine: i32,
    /// `BOIDS_INTEGRATOR_*`.
    pub integrator: i32,
    /// Minimum speed.
    pub min_speed: f32,
    /// Maximum speed (>= min_speed).
    pub max_speed: f32,
    /// Maximum steering force for `BOIDS_COMBINE_STEER`.
    pub max_force: f32,
    /// Turn rate for `BOIDS_INTEGRATOR_HEADING_SPEED` (slerp fraction per second).
    pub max_turn_rate: f32,
    /// Blend factor for `BOIDS_INTEGRATOR_VELOCITY_BLEND` (0..1).
    pub velocity_smoothing: f32,
    /// Multiplier of the move for `BOIDS_COMBINE_WEIGHTED_CLAMPED`.
    pub drive_factor: f32,
    /// Bounds.
    pub bounds: BoidsBounds,
    /// `BOIDS_PLANE_*`.
    pub plane: i32,
    /// 1 = the flock has a target (`target_point`, moved with `boids_flock_set_target`), 0 = none.
    pub has_target: i32,
    /// Target point.
    pub target_point: BoidsVec3,
    /// Inside this distance of the target the boid is pushed away; beyond it, attracted.
    pub target_avoid_distance: f32,
    /// `BOIDS_INDEX_*`.
    pub index: i32,
    /// `BOIDS_OBSTACLES_*`.
    pub obstacle_avoidance: i32,
    /// How far ahead obstacles are looked for.
    pub look_ahead: f32,
    /// Radius of the swept sphere of the look-ahead (0 = a ray).
    pub boid_radius: f32,
    /// 1 = when the obstacle rule fires it replaces the other rules for that step.
    pub obstacle_overrides: i32,
    /// Chance per step (0..1) that the neighbour and target rules apply at all (1 = always).
    pub rule_probability: f32,
    /// Chance per step (0..1) of a new speed from `min_speed..max_speed`
    /// (`BOIDS_INTEGRATOR_HEADING_SPEED` only).
    pub speed_change_probability: f32,
    /// 1 = the target rule applies only to boids with neighbours.
    pub target_needs_neighbours: i32,
    /// 1 = the target jumps, with `target_relocation_probability` per step, to a random point of
    /// the box `target_relocation_min..target_relocation_max`.
    pub has_target_relocation: i32,
    /// See `has_target_relocation`.
    pub target_relocation_probability: f32,
    /// See `has_target_relocation`.
    pub target_relocation_min: BoidsVec3,
    /// See `has_target_relocation`.
    pub target_relocation_max: BoidsVec3,
    /// Smooth time (s) of steered cohesion (Unity `SmoothDamp`, per-boid state); 0 = plain.
    pub cohesion_smooth_time: f32,
    /// 1 = a boid with no neighbour in range uses the nearest boid instead.
    pub fallback_to_nearest: i32,
    /// Weight of path following (`boids_flock_set_path`).
    pub weight_path: f32,
    /// Wander: radius of the circle ahead the wander target moves on.
    pub wander_radius: f32,
    /// Wander: how far ahead that circle is.
    pub wander_distance: f32,
    /// Wander: how far the target jitters per second.
    pub wander_jitter: f32,
    /// Arrival: inside this distance of the target the boid slows down (0 = off).
    pub arrival_radius: f32,
    /// Path following: how far ahead along the path a boid aims.
    pub path_lookahead: f32,
    /// Level of detail: step only every this many world steps, with dt times as long (1..1000).
    pub update_every: u32,
    /// Level of detail: sleep while the observer is farther than this from the flock's centre
    /// (0 = never).
    pub sleep_distance: f32,
    /// 1 = the flock walks on the world's ground (the mesh and heightfield obstacles whose
    /// `ground` is 1), steering in the horizontal plane, each step placed on the highest ground
    /// within `ground_step_height` of its feet; slopes steeper than `ground_max_slope_deg`, drops
    /// bigger than the step, the ground's edges and every other obstacle are walls it slides
    /// along. 0 = it flies (or moves in the plane lock's plane). A grounded flock takes no plane
    /// lock and no wrap or clamp bounds.
    pub grounded: i32,
    /// Grounded: the steepest walkable slope, degrees in [0, 89] (default 45).
    pub ground_max_slope_deg: f32,
    /// Grounded: the most a boid climbs or drops in one step, units >= 0 (default 0.5).
    pub ground_step_height: f32,
    /// Grounded: how far the boid's position is above its feet, units >= 0 (default 0).
    pub ground_pivot_height: f32,
    /// Grounded: up in the orientations and matrices read back, `BOIDS_GROUND_UP_*` (world up,
    /// or the ground's normal).
    pub ground_up: i32,
    /// Radius of each boid's body, units >= 0: after every step no two bodies of the flock
    /// overlap by more than 1% of it, and no body is inside an obstacle by more than that (a
    /// grounded body stops at obstacles; one found overlapping is pushed out). 0 (the default)
    /// = points that may pass through each other and obstacles.
    pub body_radius: f32,
    /// Reserved, keep 0 (pads to a multiple of 8 bytes).
    pub reserved: u32,
}

/// Flock settings for `boids_flock_create`. Get one from `boids_default_flock_def()`.
///
/// Size: 312 bytes where pointers are 8 bytes, 308 where they are 4 (wasm32, armv7);
/// `boids_struct_size(BOIDS_STRUCT_FLOCK_DEF)` says which.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoidsFlockDef {
    /// Unique name in the world, UTF-8, NUL-terminated, 1..=255 bytes; copied.
    pub name: *const c_char,
    /// Parameters.
    pub params: BoidsFlockParams,
    /// Set by `boids_default_flock_def`; do not touch.
    pub internal_cookie: u32,
    /// Reserved, keep 0.
    pub reserved: u32,
}

/// How `boids_flock_spawn` places boids. Get one from `boids_default_spawn_def()`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoidsSpawnDef {
    /// `BOIDS_SPAWN_*`.
    pub shape: i32,
    /// Box minimum corner.
    pub min: BoidsVec3,
    /// Box maximum corner.
    pub max: BoidsVec3,
    /// Sphere or disc centre.
    pub centre: BoidsVec3,
    /// Sphere or disc radius.
    pub radius: f32,
    /// Speeds are drawn uniformly from `min_speed..max_speed`, directions uniformly.
    pub min_speed: f32,
    /// See `min_speed`.
    pub max_speed: f32,
    /// 1 = every boid starts heading along `direction`; 0 = uniformly random directions.
    pub has_direction: i32,
    /// See `has_direction`.
    pub direction: BoidsVec3,
    /// Set by `boids_default_spawn_def`; do not touch.
    pub internal_cookie: u32,
}

/// An obstacle. Get one from `boids_default_obstacle_def()` (a ball of radius 1 at the origin,
/// identity rotation, scale 1) and set the fields its `shape` uses:
///
/// | `shape` | `a` | `b` | `radius` | `rotation` | `scale` | `mesh` |
/// | --- | --- | --- | --- | --- | --- | --- |
/// | `SPHERE` | centre | | radius | | | |
/// | `BOX` (axis-aligned) | min corner | max corner | | | | |
/// | `PLANE` | a point | unit normal out of the solid side | | | | |
/// | `ORIENTED_BOX` | centre | half extents | | unit rotation | | |
/// | `CAPSULE` | one end of the axis | the other end | radius | | | |
/// | `MESH` | position | | | unit rotation | scale (> 0 per axis) | a triangle mesh |
/// | `HEIGHTFIELD` | position (sample 0, 0) | | | unit rotation | scale (> 0 per axis) | a heightfield |
///
/// `ground` (meshes and heightfields only) makes the placement ground: grounded flocks walk on
/// it, every other flock meets it as an obstacle.
///
/// Size: 84 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoidsObstacleDef {
    /// `BOIDS_OBSTACLE_*`.
    pub shape: i32,
    /// Centre (sphere, oriented box), min corner (box), a point (plane), one end (capsule),
    /// position (mesh, heightfield).
    pub a: BoidsVec3,
    /// Max corner (box), unit normal (plane), half extents (oriented box), the other end
    /// (capsule).
    pub b: BoidsVec3,
    /// Radius (sphere, capsule).
    pub radius: f32,
    /// Unit rotation (oriented box, mesh, heightfield).
    pub rotation: BoidsQuat,
    /// Scale along each axis of the mesh or heightfield (> 0).
    pub scale: BoidsVec3,
    /// The shape data a `MESH` or `HEIGHTFIELD` places (of the same world and kind).
    pub mesh: BoidsMeshId,
    /// 1 = a `MESH` or `HEIGHTFIELD` placement is ground: flocks with `grounded` = 1 walk on it
    /// (to every other flock it is an obstacle as usual); 0 (the default) = an obstacle to all,
    /// a wall to grounded flocks. Must be 0 for the other shapes (they are never ground).
    pub ground: i32,
    /// Set by `boids_default_obstacle_def`; do not touch.
    pub internal_cookie: u32,
}

/// `boids_struct_size` argument: `BoidsVec3`.
pub const BOIDS_STRUCT_VEC3: i32 = 0;
/// `boids_struct_size` argument: `BoidsQuat`.
pub const BOIDS_STRUCT_QUAT: i32 = 1;
/// `boids_struct_size` argument: `BoidsMat4`.
pub const BOIDS_STRUCT_MAT4: i32 = 2;
/// `boids_struct_size` argument: `BoidsWorldId`.
pub const BOIDS_STRUCT_WORLD_ID: i32 = 3;
/// `boids_struct_size` argument: `BoidsFlockId`.
pub const BOIDS_STRUCT_FLOCK_ID: i32 = 4;
/// `boids_struct_size` argument: `BoidsObstacleId`.
pub const BOIDS_STRUCT_OBSTACLE_ID: i32 = 5;
/// `boids_struct_size` argument: `BoidsWorldDef`.
pub const BOIDS_STRUCT_WORLD_DEF: i32 = 6;
/// `boids_struct_size` argument: `BoidsBounds`.
pub const BOIDS_STRUCT_BOUNDS: i32 = 7;
/// `boids_struct_size` argument: `BoidsFlockParams`.
pub const BOIDS_STRUCT_FLOCK_PARAMS: i32 = 8;
/// `boids_struct_size` argument: `BoidsFlockDef`.
pub const BOIDS_STRUCT_FLOCK_DEF: i32 = 9;
/// `boids_struct_size` argument: `BoidsSpawnDef`.
pub const BOIDS_STRUCT_SPAWN_DEF: i32 = 10;
/// `boids_struct_size` argument: `BoidsObstacleDef`.
pub const BOIDS_STRUCT_OBSTACLE_DEF: i32 = 11;
/// `boids_struct_size` argument: `BoidsMeshId`.
pub const BOIDS_STRUCT_MESH_ID: i32 = 12;

/// Size in bytes of each ABI struct, by `BOIDS_STRUCT_*` (0 for an unknown kind).
pub(crate) fn struct_size(kind: i32) -> u32 {
    use std::mem::size_of;
    let s = match kind {
        BOIDS_STRUCT_VEC3 => size_of::<BoidsVec3>(),
        BOIDS_STRUCT_QUAT => size_of::<BoidsQuat>(),
        BOIDS_STRUCT_MAT4 => size_of::<BoidsMat4>(),
        BOIDS_STRUCT_WORLD_ID => size_of::<BoidsWorldId>(),
        BOIDS_STRUCT_FLOCK_ID => size_of::<BoidsFlockId>(),
        BOIDS_STRUCT_OBSTACLE_ID => size_of::<BoidsObstacleId>(),
        BOIDS_STRUCT_WORLD_DEF => size_of::<BoidsWorldDef>(),
        BOIDS_STRUCT_BOUNDS => size_of::<BoidsBounds>(),
        BOIDS_STRUCT_FLOCK_PARAMS => size_of::<BoidsFlockParams>(),
        BOIDS_STRUCT_FLOCK_DEF => size_of::<BoidsFlockDef>(),
        BOIDS_STRUCT_SPAWN_DEF => size_of::<BoidsSpawnDef>(),
        BOIDS_STRUCT_OBSTACLE_DEF => size_of::<BoidsObstacleDef>(),
        BOIDS_STRUCT_MESH_ID => size_of::<BoidsMeshId>(),
        _ => 0,
    };
    s as u32
}

/// Version of this C ABI; bumped on any incompatible change.
pub const BOIDS_ABI_VERSION: u32 = 4;

pub(crate) const WORLD_DEF_COOKIE: u32 = 0xB01D_5001;
pub(crate) const FLOCK_DEF_COOKIE: u32 = 0xB01D_5002;
pub(crate) const SPAWN_DEF_COOKIE: u32 = 0xB01D_5003;
pub(crate) const OBSTACLE_DEF_COOKIE: u32 = 0xB01D_5004;

const _: () = {
    use std::mem::size_of;
    assert!(size_of::<BoidsResult>() == 4);
    assert!(size_of::<BoidsVec3>() == 12);
    assert!(size_of::<BoidsQuat>() == 16);
    assert!(size_of::<BoidsMat4>() == 64);
    assert!(size_of::<BoidsWorldId>() == 8);
    assert!(size_of::<BoidsFlockId>() == 16);
    assert!(size_of::<BoidsObstacleId>() == 16);
    assert!(
        size_of::<BoidsWorldDef>()
            == if cfg!(target_pointer_width = "64") {
                48
            } else {
                32
            }
    );
    assert!(size_of::<BoidsBounds>() == 52);
    assert!(size_of::<BoidsFlockParams>() == 296);
    assert!(
        size_of::<BoidsFlockDef>()
            == if cfg!(target_pointer_width = "64") {
                312
            } else {
                308
            }
    );
    assert!(size_of::<BoidsSpawnDef>() == 72);
    assert!(size_of::<BoidsObstacleDef>() == 84);
    assert!(size_of::<BoidsMeshId>() == 16);
};

impl From<BoidsVec3> for boids_sim::Vec3 {
    fn from(v: BoidsVec3) -> Self {
        boids_sim::Vec3::new(v.x, v.y, v.z)
    }
}

impl From<boids_sim::Vec3> for BoidsVec3 {
    fn from(v: boids_sim::Vec3) -> Self {
        BoidsVec3 {
            x: v.x,
            y: v.y,
            z: v.z,
        }
    }
}
