// The engine's enums for JavaScript (boids.mjs re-exports them): each an object of the C
// constants' values by their suffix, and its text names (scenario files) by value.
// Generated from the engine's enum tables (c_enum!) by crates/ffi/tests/generated.rs;
// do not edit: BOIDS_REGEN=1 cargo test -p boids-ffi --test generated rewrites it.

/** Largest magnitude accepted for any coordinate, length, speed or weight. */
export const MAX_MAGNITUDE = 1e9;

/** Most triangles in one mesh. */
export const MAX_TRIANGLES = 16777216;

/** Most vertices in one mesh. */
export const MAX_VERTICES = 50331648;

/** Most samples in one heightfield (2^26, e.g. 8193 x 8193). */
export const MAX_HEIGHTFIELD_SAMPLES = 67108864;

/** The bounds kind (BoidsBounds::kind; C: BOIDS_BOUNDS_*). */
export const BoundsKind = Object.freeze({
  /** No bounds. */
  NONE: 0,
  /** Soft box walls (`min`, `max`, `distance`). */
  SOFT_BOX: 1,
  /** Soft sphere or circle (`centre`, `radius`, `inner`). */
  SOFT_SPHERE: 2,
  /** Periodic box (`min`, `max`). */
  WRAP: 3,
  /** Hard box, positions clamped (`min`, `max`). */
  CLAMP: 4,
  /** Outside the box (`min`, `max`) turn toward its centre, ignoring every other rule. */
  TURN_BACK: 5,
});

/** BoundsKind's text names (scenario files), by value. */
export const BoundsKindNames = Object.freeze({
  0: 'none',
  1: 'soft-box',
  2: 'soft-sphere',
  3: 'wrap',
  4: 'clamp',
  5: 'turn-back',
});

/** The separation mode (BoidsFlockParams::separation_mode; C: BOIDS_SEPARATION_*). */
export const SeparationMode = Object.freeze({
  /** Mean of the unit vectors pointing away from each neighbour (fish-tank). */
  UNIT_MEAN: 0,
  /** Sum of `-o / |o|²` over the offsets `o` to each neighbour (steering-obstacles); exactly coincident pairs are skipped. */
  INVERSE_SQUARE: 1,
  /** Mean of `-o` (target-flock, flock-2d). */
  MEAN_OFFSET: 2,
  /** Sum of `-o` (goal-swarm). */
  SUM_OFFSET: 3,
});

/** SeparationMode's text names (scenario files), by value. */
export const SeparationModeNames = Object.freeze({
  0: 'unit-mean',
  1: 'inverse-square',
  2: 'mean-offset',
  3: 'sum-offset',
});

/** The alignment mode (BoidsFlockParams::alignment_mode; C: BOIDS_ALIGNMENT_*). */
export const AlignmentMode = Object.freeze({
  /** `mean v_j - v_i` (fish-tank). */
  VELOCITY_DIFFERENCE: 0,
  /** Mean of the neighbours' headings; a boid alone uses its own heading (steering-obstacles, flock-2d). */
  MEAN_HEADING: 1,
  /** `mean v_j` (target-flock). */
  MEAN_VELOCITY: 2,
  /** No turning: the scalar speed becomes `(0.01 + Σ |v_j|) / n` (goal-swarm's group speed; heading-speed integrator only). */
  GROUP_SPEED: 3,
});

/** AlignmentMode's text names (scenario files), by value. */
export const AlignmentModeNames = Object.freeze({
  0: 'velocity-difference',
  1: 'mean-heading',
  2: 'mean-velocity',
  3: 'group-speed',
});

/** The combine mode (BoidsFlockParams::combine; C: BOIDS_COMBINE_*). */
export const Combine = Object.freeze({
  /** `Σ w_k m_k`. */
  WEIGHTED_SUM: 0,
  /** Reynolds steering: `Σ w_k clampLength(m̂_k · max_speed - v, max_force)` (steering-obstacles); the neighbour rules apply only when the boid has neighbours. */
  STEER: 1,
  /** `Σ clampLength(w_k m_k, w_k)`, parts shorter than 1e-5 dropped, then times `drive_factor` (flock-2d). */
  WEIGHTED_CLAMPED: 2,
});

/** Combine's text names (scenario files), by value. */
export const CombineNames = Object.freeze({
  0: 'weighted-sum',
  1: 'steer',
  2: 'weighted-clamped',
});

/** The integrator (BoidsFlockParams::integrator; C: BOIDS_INTEGRATOR_*). */
export const Integrator = Object.freeze({
  /** `v += a dt`, speed clamped to `[min_speed, max_speed]`, `p += v dt` (fish-tank, steering-obstacles). */
  ACCELERATION: 0,
  /** `v += velocity_smoothing · a`, then `|v| > max → max`, then `0 < |v| < min → min`, `p += v dt` (target-flock). */
  VELOCITY_BLEND: 1,
  /** The heading turns toward `a` by at most `max_turn_rate · dt` of a slerp, the scalar speed is kept, `p += heading · speed · dt` (goal-swarm). */
  HEADING_SPEED: 2,
  /** The steering output is the velocity, clamped to `max_speed`; `p += v dt` (flock-2d). */
  KINEMATIC: 3,
});

/** Integrator's text names (scenario files), by value. */
export const IntegratorNames = Object.freeze({
  0: 'acceleration',
  1: 'velocity-blend',
  2: 'heading-speed',
  3: 'kinematic',
});

/** The plane lock (BoidsFlockParams::plane; C: BOIDS_PLANE_*). */
export const PlaneLock = Object.freeze({
  /** Full 3-D motion. */
  NONE: 0,
  /** Motion in the XY plane (z = 0), as Unity 2-D. */
  XY: 1,
  /** Motion in the XZ plane (y = 0), a ground plane. */
  XZ: 2,
});

/** PlaneLock's text names (scenario files), by value. */
export const PlaneLockNames = Object.freeze({
  0: 'none',
  1: 'xy',
  2: 'xz',
});

/** The index (BoidsFlockParams::index; C: BOIDS_INDEX_*). */
export const IndexKind = Object.freeze({
  /** The grid (for radius and k-nearest queries alike). */
  AUTO: 0,
  /** A uniform grid with cell size tied to the perception radius. */
  GRID: 1,
  /** A k-d tree (kiddo). */
  KD_TREE: 2,
  /** Every boid against every boid: the test oracle. */
  BRUTE_FORCE: 3,
});

/** IndexKind's text names (scenario files), by value. */
export const IndexKindNames = Object.freeze({
  0: 'auto',
  1: 'grid',
  2: 'kd-tree',
  3: 'brute-force',
});

/** The obstacle avoidance (BoidsFlockParams::obstacle_avoidance; C: BOIDS_OBSTACLES_*). */
export const ObstacleAvoidance = Object.freeze({
  /** Obstacles are ignored. */
  IGNORE: 0,
  /** Steer toward the heading reflected about the hit surface (goal-swarm). */
  REFLECT: 1,
  /** Try 300 directions on a golden spiral around the heading, nearest first, and steer toward the first one whose look-ahead is clear (steering-obstacles). */
  FREE_DIRECTION: 2,
});

/** ObstacleAvoidance's text names (scenario files), by value. */
export const ObstacleAvoidanceNames = Object.freeze({
  0: 'none',
  1: 'reflect',
  2: 'free-direction',
});

/** The ground up (BoidsFlockParams::ground_up; C: BOIDS_GROUND_UP_*). */
export const GroundUp = Object.freeze({
  /** World up: the boid pitches with the slope it walks along, never rolls. */
  WORLD: 0,
  /** The normal of the ground under it: the boid leans with the terrain, across it too. */
  NORMAL: 1,
});

/** GroundUp's text names (scenario files), by value. */
export const GroundUpNames = Object.freeze({
  0: 'world',
  1: 'normal',
});

/** The spawn shape (BoidsSpawnDef::shape; C: BOIDS_SPAWN_*). */
export const SpawnKind = Object.freeze({
  /** Uniform in the box `min`..`max`. */
  BOX: 0,
  /** Uniform in the ball `centre`, `radius`. */
  SPHERE: 1,
  /** Uniform in the disc `centre`, `radius` in the flock's plane. */
  DISC: 2,
  /** Uniform in the ball `centre`, `radius`, then flattened onto y = centre.y. */
  FLAT_BALL: 3,
});

/** SpawnKind's text names (scenario files), by value. */
export const SpawnKindNames = Object.freeze({
  0: 'box',
  1: 'sphere',
  2: 'disc',
  3: 'flat-ball',
});

/** The obstacle shape (BoidsObstacleDef::shape; C: BOIDS_OBSTACLE_*). */
export const ObstacleKind = Object.freeze({
  /** A ball (`a` = centre, `radius`). */
  SPHERE: 0,
  /** An axis-aligned box (`a` = min, `b` = max). */
  BOX: 1,
  /** The half-space behind a plane (`a` = a point, `b` = unit normal). */
  PLANE: 2,
  /** A box with a rotation (`a` = centre, `b` = half extents, `rotation`). */
  ORIENTED_BOX: 3,
  /** A capsule (`a`, `b` = the ends of its axis, `radius`). */
  CAPSULE: 4,
  /** A placed triangle mesh (`mesh`, `a` = position, `rotation`, `scale`). */
  MESH: 5,
  /** A placed heightfield (`mesh`, `a` = position, `rotation`, `scale`); boids stay above. */
  HEIGHTFIELD: 6,
});

/** ObstacleKind's text names (scenario files), by value. */
export const ObstacleKindNames = Object.freeze({
  0: 'sphere',
  1: 'box',
  2: 'plane',
  3: 'oriented-box',
  4: 'capsule',
  5: 'mesh',
  6: 'heightfield',
});

/** The relation kind (boids_world_set_relation kind; C: BOIDS_RELATION_*). */
export const RelationKind = Object.freeze({
  /** No reaction (removes a relation). */
  IGNORE: 0,
  /** Move with the other flock's boids in range: toward their centre and along their mean heading. */
  FLOCK_TOGETHER: 1,
  /** Keep away from the other flock's boids in range (mean unit vector away). */
  AVOID: 2,
  /** Prey: evade the nearest boid in range, from where it will be (Reynolds evasion). */
  FLEE: 3,
  /** Predator: pursue the nearest boid in range, toward where it will be (Reynolds pursuit). */
  CHASE: 4,
});

/** RelationKind's text names (scenario files), by value. */
export const RelationKindNames = Object.freeze({
  0: 'ignore',
  1: 'flock-together',
  2: 'avoid',
  3: 'flee',
  4: 'chase',
});
