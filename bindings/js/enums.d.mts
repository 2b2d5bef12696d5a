// TypeScript declarations of enums.mjs. Generated from the engine's enum tables by
// crates/ffi/tests/generated.rs; do not edit.

/** Largest magnitude accepted for any coordinate, length, speed or weight. */
export declare const MAX_MAGNITUDE: number;

/** Most triangles in one mesh. */
export declare const MAX_TRIANGLES: number;

/** Most vertices in one mesh. */
export declare const MAX_VERTICES: number;

/** Most samples in one heightfield (2^26, e.g. 8193 x 8193). */
export declare const MAX_HEIGHTFIELD_SAMPLES: number;

/** The bounds kind (C: BOIDS_BOUNDS_*). */
export declare const BoundsKind: Readonly<{
  NONE: 0;
  SOFT_BOX: 1;
  SOFT_SPHERE: 2;
  WRAP: 3;
  CLAMP: 4;
  TURN_BACK: 5;
}>;
/** BoundsKind's text names (scenario files), by value. */
export declare const BoundsKindNames: Readonly<Record<number, string>>;

/** The separation mode (C: BOIDS_SEPARATION_*). */
export declare const SeparationMode: Readonly<{
  UNIT_MEAN: 0;
  INVERSE_SQUARE: 1;
  MEAN_OFFSET: 2;
  SUM_OFFSET: 3;
}>;
/** SeparationMode's text names (scenario files), by value. */
export declare const SeparationModeNames: Readonly<Record<number, string>>;

/** The alignment mode (C: BOIDS_ALIGNMENT_*). */
export declare const AlignmentMode: Readonly<{
  VELOCITY_DIFFERENCE: 0;
  MEAN_HEADING: 1;
  MEAN_VELOCITY: 2;
  GROUP_SPEED: 3;
}>;
/** AlignmentMode's text names (scenario files), by value. */
export declare const AlignmentModeNames: Readonly<Record<number, string>>;

/** The combine mode (C: BOIDS_COMBINE_*). */
export declare const Combine: Readonly<{
  WEIGHTED_SUM: 0;
  STEER: 1;
  WEIGHTED_CLAMPED: 2;
}>;
/** Combine's text names (scenario files), by value. */
export declare const CombineNames: Readonly<Record<number, string>>;

/** The integrator (C: BOIDS_INTEGRATOR_*). */
export declare const Integrator: Readonly<{
  ACCELERATION: 0;
  VELOCITY_BLEND: 1;
  HEADING_SPEED: 2;
  KINEMATIC: 3;
}>;
/** Integrator's text names (scenario files), by value. */
export declare const IntegratorNames: Readonly<Record<number, string>>;

/** The plane lock (C: BOIDS_PLANE_*). */
export declare const PlaneLock: Readonly<{
  NONE: 0;
  XY: 1;
  XZ: 2;
}>;
/** PlaneLock's text names (scenario files), by value. */
export declare const PlaneLockNames: Readonly<Record<number, string>>;

/** The index (C: BOIDS_INDEX_*). */
export declare const IndexKind: Readonly<{
  AUTO: 0;
  GRID: 1;
  KD_TREE: 2;
  BRUTE_FORCE: 3;
}>;
/** IndexKind's text names (scenario files), by value. */
export declare const IndexKindNames: Readonly<Record<number, string>>;

/** The obstacle avoidance (C: BOIDS_OBSTACLES_*). */
export declare const ObstacleAvoidance: Readonly<{
  IGNORE: 0;
  REFLECT: 1;
  FREE_DIRECTION: 2;
}>;
/** ObstacleAvoidance's text names (scenario files), by value. */
export declare const ObstacleAvoidanceNames: Readonly<Record<number, string>>;

/** The ground up (C: BOIDS_GROUND_UP_*). */
export declare const GroundUp: Readonly<{
  WORLD: 0;
  NORMAL: 1;
}>;
/** GroundUp's text names (scenario files), by value. */
export declare const GroundUpNames: Readonly<Record<number, string>>;

/** The spawn shape (C: BOIDS_SPAWN_*). */
export declare const SpawnKind: Readonly<{
  BOX: 0;
  SPHERE: 1;
  DISC: 2;
  FLAT_BALL: 3;
}>;
/** SpawnKind's text names (scenario files), by value. */
export declare const SpawnKindNames: Readonly<Record<number, string>>;

/** The obstacle shape (C: BOIDS_OBSTACLE_*). */
export declare const ObstacleKind: Readonly<{
  SPHERE: 0;
  BOX: 1;
  PLANE: 2;
  ORIENTED_BOX: 3;
  CAPSULE: 4;
  MESH: 5;
  HEIGHTFIELD: 6;
}>;
/** ObstacleKind's text names (scenario files), by value. */
export declare const ObstacleKindNames: Readonly<Record<number, string>>;

/** The relation kind (C: BOIDS_RELATION_*). */
export declare const RelationKind: Readonly<{
  IGNORE: 0;
  FLOCK_TOGETHER: 1;
  AVOID: 2;
  FLEE: 3;
  CHASE: 4;
}>;
/** RelationKind's text names (scenario files), by value. */
export declare const RelationKindNames: Readonly<Record<number, string>>;
