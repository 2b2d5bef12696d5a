//! The `BOIDS_*` enum constants of the C ABI, one group per engine enum.
//!
//! Generated from the engine's enum tables (`c_enum!`) by crates/ffi/tests/generated.rs;
//! do not edit: `BOIDS_REGEN=1 cargo test -p boids-ffi --test generated` rewrites it.

/// Largest magnitude accepted for any coordinate, length, speed or weight; every message
/// that refuses a number states it.
pub const BOIDS_MAX_MAGNITUDE: f32 = 1e9;

/// Most triangles in one mesh (`boids_mesh_create`).
pub const BOIDS_MAX_TRIANGLES: u32 = 16777216;

/// Most vertices in one mesh (`boids_mesh_create`): three a triangle.
pub const BOIDS_MAX_VERTICES: u32 = 50331648;

/// Most samples in one heightfield (`boids_heightfield_create`): 2^26, e.g. 8193 x 8193
/// (256 MB of heights; a heightfield stores no triangles).
pub const BOIDS_MAX_HEIGHTFIELD_SAMPLES: u32 = 67108864;

// bounds kind: `BoidsBounds::kind`
/// `BoidsBounds::kind`: No bounds.
pub const BOIDS_BOUNDS_NONE: i32 = 0;
/// `BoidsBounds::kind`: Soft box walls (`min`, `max`, `distance`).
pub const BOIDS_BOUNDS_SOFT_BOX: i32 = 1;
/// `BoidsBounds::kind`: Soft sphere or circle (`centre`, `radius`, `inner`).
pub const BOIDS_BOUNDS_SOFT_SPHERE: i32 = 2;
/// `BoidsBounds::kind`: Periodic box (`min`, `max`).
pub const BOIDS_BOUNDS_WRAP: i32 = 3;
/// `BoidsBounds::kind`: Hard box, positions clamped (`min`, `max`).
pub const BOIDS_BOUNDS_CLAMP: i32 = 4;
/// `BoidsBounds::kind`: Outside the box (`min`, `max`) turn toward its centre, ignoring every other rule.
pub const BOIDS_BOUNDS_TURN_BACK: i32 = 5;

// separation mode: `BoidsFlockParams::separation_mode`
/// `BoidsFlockParams::separation_mode`: Mean of the unit vectors pointing away from each neighbour (fish-tank).
pub const BOIDS_SEPARATION_UNIT_MEAN: i32 = 0;
/// `BoidsFlockParams::separation_mode`: Sum of `-o / |o|²` over the offsets `o` to each neighbour (steering-obstacles); exactly coincident pairs are skipped.
pub const BOIDS_SEPARATION_INVERSE_SQUARE: i32 = 1;
/// `BoidsFlockParams::separation_mode`: Mean of `-o` (target-flock, flock-2d).
pub const BOIDS_SEPARATION_MEAN_OFFSET: i32 = 2;
/// `BoidsFlockParams::separation_mode`: Sum of `-o` (goal-swarm).
pub const BOIDS_SEPARATION_SUM_OFFSET: i32 = 3;

// alignment mode: `BoidsFlockParams::alignment_mode`
/// `BoidsFlockParams::alignment_mode`: `mean v_j - v_i` (fish-tank).
pub const BOIDS_ALIGNMENT_VELOCITY_DIFFERENCE: i32 = 0;
/// `BoidsFlockParams::alignment_mode`: Mean of the neighbours' headings; a boid alone uses its own heading (steering-obstacles, flock-2d).
pub const BOIDS_ALIGNMENT_MEAN_HEADING: i32 = 1;
/// `BoidsFlockParams::alignment_mode`: `mean v_j` (target-flock).
pub const BOIDS_ALIGNMENT_MEAN_VELOCITY: i32 = 2;
/// `BoidsFlockParams::alignment_mode`: No turning: the scalar speed becomes `(0.01 + Σ |v_j|) / n` (goal-swarm's group speed; heading-speed integrator only).
pub const BOIDS_ALIGNMENT_GROUP_SPEED: i32 = 3;

// combine mode: `BoidsFlockParams::combine`
/// `BoidsFlockParams::combine`: `Σ w_k m_k`.
pub const BOIDS_COMBINE_WEIGHTED_SUM: i32 = 0;
/// `BoidsFlockParams::combine`: Reynolds steering: `Σ w_k clampLength(m̂_k · max_speed - v, max_force)` (steering-obstacles); the neighbour rules apply only when the boid has neighbours.
pub const BOIDS_COMBINE_STEER: i32 = 1;
/// `BoidsFlockParams::combine`: `Σ clampLength(w_k m_k, w_k)`, parts shorter than 1e-5 dropped, then times `drive_factor` (flock-2d).
pub const BOIDS_COMBINE_WEIGHTED_CLAMPED: i32 = 2;

// integrator: `BoidsFlockParams::integrator`
/// `BoidsFlockParams::integrator`: `v += a dt`, speed clamped to `[min_speed, max_speed]`, `p += v dt` (fish-tank, steering-obstacles).
pub const BOIDS_INTEGRATOR_ACCELERATION: i32 = 0;
/// `BoidsFlockParams::integrator`: `v += velocity_smoothing · a`, then `|v| > max → max`, then `0 < |v| < min → min`, `p += v dt` (target-flock).
pub const BOIDS_INTEGRATOR_VELOCITY_BLEND: i32 = 1;
/// `BoidsFlockParams::integrator`: The heading turns toward `a` by at most `max_turn_rate · dt` of a slerp, the scalar speed is kept, `p += heading · speed · dt` (goal-swarm).
pub const BOIDS_INTEGRATOR_HEADING_SPEED: i32 = 2;
/// `BoidsFlockParams::integrator`: The steering output is the velocity, clamped to `max_speed`; `p += v dt` (flock-2d).
pub const BOIDS_INTEGRATOR_KINEMATIC: i32 = 3;

// plane lock: `BoidsFlockParams::plane`
/// `BoidsFlockParams::plane`: Full 3-D motion.
pub const BOIDS_PLANE_NONE: i32 = 0;
/// `BoidsFlockParams::plane`: Motion in the XY plane (z = 0), as Unity 2-D.
pub const BOIDS_PLANE_XY: i32 = 1;
/// `BoidsFlockParams::plane`: Motion in the XZ plane (y = 0), a ground plane.
pub const BOIDS_PLANE_XZ: i32 = 2;

// index: `BoidsFlockParams::index`
/// `BoidsFlockParams::index`: The grid (for radius and k-nearest queries alike).
pub const BOIDS_INDEX_AUTO: i32 = 0;
/// `BoidsFlockParams::index`: A uniform grid with cell size tied to the perception radius.
pub const BOIDS_INDEX_GRID: i32 = 1;
/// `BoidsFlockParams::index`: A k-d tree (kiddo).
pub const BOIDS_INDEX_KD_TREE: i32 = 2;
/// `BoidsFlockParams::index`: Every boid against every boid: the test oracle.
pub const BOIDS_INDEX_BRUTE_FORCE: i32 = 3;

// obstacle avoidance: `BoidsFlockParams::obstacle_avoidance`
/// `BoidsFlockParams::obstacle_avoidance`: Obstacles are ignored.
pub const BOIDS_OBSTACLES_IGNORE: i32 = 0;
/// `BoidsFlockParams::obstacle_avoidance`: Steer toward the heading reflected about the hit surface (goal-swarm).
pub const BOIDS_OBSTACLES_REFLECT: i32 = 1;
/// `BoidsFlockParams::obstacle_avoidance`: Try 300 directions on a golden spiral around the heading, nearest first, and steer toward the first one whose look-ahead is clear (steering-obstacles).
pub const BOIDS_OBSTACLES_FREE_DIRECTION: i32 = 2;

// ground up: `BoidsFlockParams::ground_up`
/// `BoidsFlockParams::ground_up`: World up: the boid pitches with the slope it walks along, never rolls.
pub const BOIDS_GROUND_UP_WORLD: i32 = 0;
/// `BoidsFlockParams::ground_up`: The normal of the ground under it: the boid leans with the terrain, across it too.
pub const BOIDS_GROUND_UP_NORMAL: i32 = 1;

// spawn shape: `BoidsSpawnDef::shape`
/// `BoidsSpawnDef::shape`: Uniform in the box `min`..`max`.
pub const BOIDS_SPAWN_BOX: i32 = 0;
/// `BoidsSpawnDef::shape`: Uniform in the ball `centre`, `radius`.
pub const BOIDS_SPAWN_SPHERE: i32 = 1;
/// `BoidsSpawnDef::shape`: Uniform in the disc `centre`, `radius` in the flock's plane.
pub const BOIDS_SPAWN_DISC: i32 = 2;
/// `BoidsSpawnDef::shape`: Uniform in the ball `centre`, `radius`, then flattened onto y = centre.y.
pub const BOIDS_SPAWN_FLAT_BALL: i32 = 3;

// obstacle shape: `BoidsObstacleDef::shape`
/// `BoidsObstacleDef::shape`: A ball (`a` = centre, `radius`).
pub const BOIDS_OBSTACLE_SPHERE: i32 = 0;
/// `BoidsObstacleDef::shape`: An axis-aligned box (`a` = min, `b` = max).
pub const BOIDS_OBSTACLE_BOX: i32 = 1;
/// `BoidsObstacleDef::shape`: The half-space behind a plane (`a` = a point, `b` = unit normal).
pub const BOIDS_OBSTACLE_PLANE: i32 = 2;
/// `BoidsObstacleDef::shape`: A box with a rotation (`a` = centre, `b` = half extents, `rotation`).
pub const BOIDS_OBSTACLE_ORIENTED_BOX: i32 = 3;
/// `BoidsObstacleDef::shape`: A capsule (`a`, `b` = the ends of its axis, `radius`).
pub const BOIDS_OBSTACLE_CAPSULE: i32 = 4;
/// `BoidsObstacleDef::shape`: A placed triangle mesh (`mesh`, `a` = position, `rotation`, `scale`).
pub const BOIDS_OBSTACLE_MESH: i32 = 5;
/// `BoidsObstacleDef::shape`: A placed heightfield (`mesh`, `a` = position, `rotation`, `scale`); boids stay above.
pub const BOIDS_OBSTACLE_HEIGHTFIELD: i32 = 6;

// relation kind: `boids_world_set_relation` kind
/// `boids_world_set_relation` kind: No reaction (removes a relation).
pub const BOIDS_RELATION_IGNORE: i32 = 0;
/// `boids_world_set_relation` kind: Move with the other flock's boids in range: toward their centre and along their mean heading.
pub const BOIDS_RELATION_FLOCK_TOGETHER: i32 = 1;
/// `boids_world_set_relation` kind: Keep away from the other flock's boids in range (mean unit vector away).
pub const BOIDS_RELATION_AVOID: i32 = 2;
/// `boids_world_set_relation` kind: Prey: evade the nearest boid in range, from where it will be (Reynolds evasion).
pub const BOIDS_RELATION_FLEE: i32 = 3;
/// `boids_world_set_relation` kind: Predator: pursue the nearest boid in range, toward where it will be (Reynolds pursuit).
pub const BOIDS_RELATION_CHASE: i32 = 4;
