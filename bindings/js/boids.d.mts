// TypeScript declarations of boids.mjs (the engine as WebAssembly). Checked by scripts/test:
// tests/js/types.mts is compiled against them with `tsc --strict --noEmit`.

export * from './enums.mjs';

/** The presets of the engine. */
export declare const PRESETS: readonly ['fish-tank', 'goal-swarm', 'target-flock', 'steering-obstacles', 'flock-2d', 'reef', 'shark', 'herd', 'maze'];
/** The ABI boids.mjs was written against (BOIDS_ABI_VERSION). */
export declare const ABI_VERSION: number;
/** The version of boids.mjs. */
export declare const WRAPPER_VERSION: string;

/** The name of a result code ('OUT_OF_MEMORY' is this binding's own: see OUT_OF_MEMORY). */
export type BoidsResultName =
  | 'OK' | 'NULL_POINTER' | 'INVALID_ID' | 'INVALID_ARGUMENT' | 'BUFFER_TOO_SMALL' | 'BUSY'
  | 'PANIC' | 'INVALID_DEF' | 'NOT_FOUND' | 'OUT_OF_MEMORY';

/** BoidsError code of a call refused because the module's memory cannot grow enough for it
 * (a step, a save, a load, a read or write buffer): the instance and every world are intact. */
export declare const OUT_OF_MEMORY: 100;

/** A refused call: the code, its name and the library's sentence. */
export declare class BoidsError extends Error {
  readonly code: number;
  readonly result: BoidsResultName;
  readonly detail: string;
}

export interface Vec3 { x: number; y: number; z: number; }
/** A vector as an object or as [x, y, z]. */
export type Vec3Like = Vec3 | readonly [number, number, number];

/** BoidsBounds: which fields count depends on `kind` (BoundsKind). */
export interface Bounds {
  kind: number;
  min: Vec3; max: Vec3; centre: Vec3;
  radius: number; distance: number; inner: number;
}

/** BoidsFlockParams, field for field (include/boids.h documents each). */
export interface FlockParams {
  perception_radius: number; fov_half_angle_deg: number; separation_radius: number;
  max_neighbours: number; weight_separation: number; weight_alignment: number;
  weight_cohesion: number; weight_target: number; weight_target_avoid: number;
  weight_bounds: number; weight_obstacles: number; weight_wander: number;
  separation_mode: number; alignment_mode: number; combine: number; integrator: number;
  min_speed: number; max_speed: number; max_force: number; max_turn_rate: number;
  velocity_smoothing: number; drive_factor: number; bounds: Bounds; plane: number;
  has_target: number; target_point: Vec3; target_avoid_distance: number; index: number;
  obstacle_avoidance: number; look_ahead: number; boid_radius: number;
  obstacle_overrides: number; rule_probability: number; speed_change_probability: number;
  target_needs_neighbours: number; has_target_relocation: number;
  target_relocation_probability: number; target_relocation_min: Vec3;
  target_relocation_max: Vec3; cohesion_smooth_time: number; fallback_to_nearest: number;
  weight_path: number; wander_radius: number; wander_distance: number; wander_jitter: number;
  arrival_radius: number; path_lookahead: number; update_every: number; sleep_distance: number;
  grounded: number; ground_max_slope_deg: number; ground_step_height: number;
  ground_pivot_height: number; ground_up: number; body_radius: number;
  reserved: number;
}

/** BoidsSpawnDef (without its cookie, which the library sets). */
export interface SpawnDef {
  shape: number; min: Vec3; max: Vec3; centre: Vec3; radius: number;
  min_speed: number; max_speed: number; has_direction: number; direction: Vec3;
  internal_cookie: number;
}

/** Any subset of a struct's fields, nested ones too. */
export type Patch<T> = { [K in keyof T]?: T[K] extends Vec3 ? Partial<Vec3> : T[K] extends Bounds ? Patch<Bounds> : T[K] };

/** An obstacle: ObstacleKind.SPHERE (a: centre, radius), BOX (a: min, b: max), PLANE (a: point,
 * b: normal), ORIENTED_BOX (a: centre, b: half extents, rotation), CAPSULE (a, b: the ends of its
 * axis, radius), MESH and HEIGHTFIELD (mesh, a: position, rotation, scale). Fields left out keep
 * the library's default (a ball of radius 1 at the origin, rotation identity, scale 1). */
export interface ObstacleDef {
  shape: number;
  a?: Vec3Like;
  b?: Vec3Like;
  radius?: number;
  /** A unit quaternion [x, y, z, w]. */
  rotation?: [number, number, number, number] | { x: number; y: number; z: number; w: number };
  scale?: Vec3Like;
  mesh?: Mesh;
  /** A mesh or heightfield placement that grounded flocks (`grounded: 1`) walk on; to every
   * other flock it is an obstacle. Only meshes and heightfields can be ground. */
  ground?: boolean;
}

/** Loads the engine from bytes, a compiled module, a Response, or a URL / path; by default
 * `boids_ffi.wasm` next to boids.mjs. */
export declare function loadBoids(
  source?: BufferSource | WebAssembly.Module | Response | Promise<Response> | URL | string,
): Promise<Boids>;

/** One instance of the engine's module. */
export declare class Boids {
  readonly version: string;
  readonly abiVersion: number;
  /** True once the module trapped (an internal error): load it again. */
  readonly dead: boolean;
  readonly memory: WebAssembly.Memory;
  defaultParams(): FlockParams;
  defaultSpawn(): SpawnDef;
  /** `seed`: a whole number 0..2^53 - 1, or a BigInt 0..2^64 - 1; anything else is refused
   * (INVALID_ARGUMENT). */
  createWorld(options?: { seed?: number | bigint; threads?: number }): World;
  loadWorld(bytes: Uint8Array | ArrayBuffer, options?: { threads?: number }): World;
}

/** A flow field as `Flock.flowField` copies it: cells row by row, x fastest. */
export interface FlowField {
  origin: { x: number; y: number; z: number };
  cell: number;
  columns: number;
  rows: number;
  /** Distance to the target along the way, world units; -1 where no way leads. */
  distances: Float32Array;
  /** Unit direction of the way, x, y, z per cell; zero where it ends or none leads. */
  directions: Float32Array;
}

export declare class World {
  readonly id: { index: number; generation: number };
  readonly isValid: boolean;
  readonly isStepping: boolean;
  step(dt: number): void;
  stepBegin(dt: number): void;
  stepBeginN(dt: number, count: number): void;
  stepEnd(): void;
  stateHash(): bigint;
  stateHashHex(): string;
  roundedDigest(digits?: number): bigint;
  save(): Uint8Array;
  createFlock(name: string, params?: Patch<FlockParams>): Flock;
  createPreset(preset: string, name?: string): Flock;
  findFlock(name: string): Flock;
  /** Every flock, in slot order, with its name. */
  flocks(): Flock[];
  /** The scene's faces, for drawing: x, y, z per point, three points a triangle, in world
   * space (boxes, meshes, heightfields; spheres, capsules and planes have none). A copy. */
  sceneTriangles(): Float32Array;
  /** `from` and `to` must be flocks of this world (refused otherwise). */
  setRelation(from: Flock, to: Flock, kind: number, radius: number, weight: number): void;
  setObserver(point: Vec3Like | null): void;
  /** Width of the flow fields' cells (0: none, the default); NaN, negative or too fine a grid is refused. */
  flowCellSize: number;
  /** Work a step may spend building flow fields, in units of about one cell settled (0: no limit, the default); a whole number up to 4294967295. */
  flowBudget: number;
  /** The height of the highest ground surface at (x, z), or null where no ground lies under it. */
  groundHeight(x: number, z: number): number | null;
  addObstacle(def: ObstacleDef): Obstacle;
  /** A triangle mesh: vertices (flat x, y, z or [x, y, z] each) and indices, three a triangle. */
  addMesh(vertices: ArrayLike<number> | ReadonlyArray<readonly [number, number, number]>, indices: ArrayLike<number>): Mesh;
  /** A heightfield of columns x rows heights (x fastest), cellX / cellZ apart. */
  addHeightfield(heights: ArrayLike<number>, columns: number, rows: number, cellX: number, cellZ: number): Mesh;
  destroy(): void;
}

export declare class Flock {
  readonly world: World;
  readonly id: { world: { index: number; generation: number }; index: number; generation: number };
  /** The flock's name. */
  readonly name: string;
  readonly isValid: boolean;
  readonly count: number;
  /** The name as the world has it (boids_flock_name). */
  readName(): string;
  getParams(): FlockParams;
  setParams(patch: Patch<FlockParams>): void;
  /** `n`: a whole number 0..2^32 - 1 (anything else is refused with INVALID_ARGUMENT). */
  spawn(n: number, spawn?: Patch<SpawnDef>): number;
  /** `n`: a whole number 0..2^32 - 1. */
  resize(n: number, spawn?: Patch<SpawnDef>): void;
  setTarget(point: Vec3Like): void;
  /** Boids at the target (within the arrival radius); throws without a target. */
  countAtTarget(): number;
  /** The flow field read in the last step, copied out, or null. */
  flowField(): FlowField | null;
  /** Views of the module's memory: a read's values until the next read of the same kind on this
   * flock. Any call that grows the module's memory detaches them (length 0): `view(kind)` gives
   * the same values over the current memory; `readPositions(into)` and the others copy. */
  positions(): Float32Array;
  velocities(): Float32Array;
  ids(): Uint32Array;
  orientations(): Float32Array;
  matrices(scale?: number): Float32Array;
  /** The last read of `kind` over the module's memory as it is now (never detached); null
   * before any read of that kind. */
  view(kind: 'positions' | 'velocities' | 'orientations' | 'matrices'): Float32Array | null;
  view(kind: 'ids'): Uint32Array | null;
  /** A read copied into your array (long enough, else BUFFER_TOO_SMALL); returns the number
   * of values written. */
  readPositions(into: Float32Array): number;
  readVelocities(into: Float32Array): number;
  readIds(into: Uint32Array): number;
  readOrientations(into: Float32Array): number;
  readMatrices(into: Float32Array, scale?: number): number;
  /** Overwrites every boid's positions (3 floats per boid, id order): a view from a read, edited
   * in place, is fine. */
  writePositions(xyz: Float32Array | readonly number[]): void;
  writeVelocities(xyz: Float32Array | readonly number[]): void;
  destroy(): void;
  release(): void;
}

/** Shape data of a world, placed by obstacles (ObstacleKind.MESH, HEIGHTFIELD). */
export declare class Mesh {
  readonly isValid: boolean;
  /** Destroys it (throws INVALID_ARGUMENT while an obstacle places it). */
  destroy(): void;
}

export declare class Obstacle {
  set(def: ObstacleDef): void;
  remove(): void;
}

export * as enums from './enums.mjs';
