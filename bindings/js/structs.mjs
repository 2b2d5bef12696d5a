// structs.mjs: the module's memory as the binding lays it out: the C structs' layouts (the
// header's fields, in order: crates/ffi/tests/js_decls.rs checks them against include/boids.h,
// and boids.mjs compares each size with boids_struct_size at load) and the scratch block each
// call's arguments and outputs go through.

const STRUCTS = {
  BoidsVec3: [['x', 'f32'], ['y', 'f32'], ['z', 'f32']],
  BoidsQuat: [['x', 'f32'], ['y', 'f32'], ['z', 'f32'], ['w', 'f32']],
  BoidsMat4: [['m', 'f32', 16]],
  BoidsWorldId: [['index', 'u32'], ['generation', 'u32']],
  BoidsFlockId: [['world', 'BoidsWorldId'], ['index', 'u32'], ['generation', 'u32']],
  BoidsObstacleId: [['world', 'BoidsWorldId'], ['index', 'u32'], ['generation', 'u32']],
  BoidsMeshId: [['world', 'BoidsWorldId'], ['index', 'u32'], ['generation', 'u32']],
  BoidsWorldDef: [
    ['seed', 'u64'], ['threads', 'u32'], ['internal_cookie', 'u32'], ['worker_count', 'u32'],
    ['enqueue_task', 'ptr'], ['finish_task', 'ptr'], ['user_context', 'ptr'],
  ],
  BoidsBounds: [
    ['kind', 'i32'], ['min', 'BoidsVec3'], ['max', 'BoidsVec3'], ['centre', 'BoidsVec3'],
    ['radius', 'f32'], ['distance', 'f32'], ['inner', 'f32'],
  ],
  BoidsFlockParams: [
    ['perception_radius', 'f32'], ['fov_half_angle_deg', 'f32'], ['separation_radius', 'f32'],
    ['max_neighbours', 'u32'], ['weight_separation', 'f32'], ['weight_alignment', 'f32'],
    ['weight_cohesion', 'f32'], ['weight_target', 'f32'], ['weight_target_avoid', 'f32'],
    ['weight_bounds', 'f32'], ['weight_obstacles', 'f32'], ['weight_wander', 'f32'],
    ['separation_mode', 'i32'], ['alignment_mode', 'i32'], ['combine', 'i32'], ['integrator', 'i32'],
    ['min_speed', 'f32'], ['max_speed', 'f32'], ['max_force', 'f32'], ['max_turn_rate', 'f32'],
    ['velocity_smoothing', 'f32'], ['drive_factor', 'f32'], ['bounds', 'BoidsBounds'], ['plane', 'i32'],
    ['has_target', 'i32'], ['target_point', 'BoidsVec3'], ['target_avoid_distance', 'f32'],
    ['index', 'i32'], ['obstacle_avoidance', 'i32'], ['look_ahead', 'f32'], ['boid_radius', 'f32'],
    ['obstacle_overrides', 'i32'], ['rule_probability', 'f32'], ['speed_change_probability', 'f32'],
    ['target_needs_neighbours', 'i32'], ['has_target_relocation', 'i32'],
    ['target_relocation_probability', 'f32'], ['target_relocation_min', 'BoidsVec3'],
    ['target_relocation_max', 'BoidsVec3'], ['cohesion_smooth_time', 'f32'],
    ['fallback_to_nearest', 'i32'], ['weight_path', 'f32'], ['wander_radius', 'f32'],
    ['wander_distance', 'f32'], ['wander_jitter', 'f32'], ['arrival_radius', 'f32'],
    ['path_lookahead', 'f32'], ['update_every', 'u32'], ['sleep_distance', 'f32'],
    ['grounded', 'i32'], ['ground_max_slope_deg', 'f32'], ['ground_step_height', 'f32'],
    ['ground_pivot_height', 'f32'], ['ground_up', 'i32'], ['body_radius', 'f32'], ['reserved', 'u32'],
  ],
  BoidsFlockDef: [['name', 'ptr'], ['params', 'BoidsFlockParams'], ['internal_cookie', 'u32'], ['reserved', 'u32']],
  BoidsSpawnDef: [
    ['shape', 'i32'], ['min', 'BoidsVec3'], ['max', 'BoidsVec3'], ['centre', 'BoidsVec3'],
    ['radius', 'f32'], ['min_speed', 'f32'], ['max_speed', 'f32'], ['has_direction', 'i32'],
    ['direction', 'BoidsVec3'], ['internal_cookie', 'u32'],
  ],
  BoidsObstacleDef: [
    ['shape', 'i32'], ['a', 'BoidsVec3'], ['b', 'BoidsVec3'], ['radius', 'f32'], ['rotation', 'BoidsQuat'],
    ['scale', 'BoidsVec3'], ['mesh', 'BoidsMeshId'], ['ground', 'i32'], ['internal_cookie', 'u32'],
  ],
};

/** boids_struct_size kinds (BOIDS_STRUCT_*). */
export const STRUCT_KINDS = {
  BoidsVec3: 0, BoidsQuat: 1, BoidsMat4: 2, BoidsWorldId: 3, BoidsFlockId: 4, BoidsObstacleId: 5,
  BoidsWorldDef: 6, BoidsBounds: 7, BoidsFlockParams: 8, BoidsFlockDef: 9, BoidsSpawnDef: 10,
  BoidsObstacleDef: 11, BoidsMeshId: 12,
};

// wasm32: 4-byte pointers; u64 aligned to 8.
const PRIMS = { f32: [4, 4], i32: [4, 4], u32: [4, 4], ptr: [4, 4], u64: [8, 8] };
const LAYOUTS = {};

export function layout(name) {
  if (LAYOUTS[name]) return LAYOUTS[name];
  let offset = 0;
  let align = 1;
  const fields = [];
  for (const [field, type, count = 1] of STRUCTS[name]) {
    const [size, a] = PRIMS[type] ?? [layout(type).size, layout(type).align];
    offset = Math.ceil(offset / a) * a;
    fields.push({ field, type, count, offset, size });
    offset += size * count;
    align = Math.max(align, a);
  }
  const size = Math.ceil(offset / align) * align;
  return (LAYOUTS[name] = { size, align, fields });
}

function readValue(dv, at, type) {
  switch (type) {
    case 'f32': return dv.getFloat32(at, true);
    case 'i32': return dv.getInt32(at, true);
    case 'u32': case 'ptr': return dv.getUint32(at, true);
    case 'u64': return dv.getBigUint64(at, true);
    default: return readStruct(dv, at, type);
  }
}

function writeValue(dv, at, type, v) {
  switch (type) {
    case 'f32': dv.setFloat32(at, v, true); break;
    case 'i32': dv.setInt32(at, v, true); break;
    case 'u32': case 'ptr': dv.setUint32(at, v, true); break;
    case 'u64': dv.setBigUint64(at, BigInt(v), true); break;
    default: writeStruct(dv, at, type, v);
  }
}

export function readStruct(dv, ptr, name) {
  const out = {};
  for (const f of layout(name).fields) {
    if (f.count === 1) out[f.field] = readValue(dv, ptr + f.offset, f.type);
    else out[f.field] = Array.from({ length: f.count }, (_, k) => readValue(dv, ptr + f.offset + k * f.size, f.type));
  }
  return out;
}

export function writeStruct(dv, ptr, name, obj) {
  for (const f of layout(name).fields) {
    const v = obj[f.field];
    if (v === undefined) throw new TypeError(`${name}.${f.field} is missing`);
    if (f.count === 1) writeValue(dv, ptr + f.offset, f.type, v);
    else for (let k = 0; k < f.count; k++) writeValue(dv, ptr + f.offset + k * f.size, f.type, v[k]);
  }
}

/** `patch` laid over `base`, nested objects (vectors, bounds) merged field by field. */
export function merge(base, patch, name) {
  if (patch === undefined || patch === null) return base;
  const out = { ...base };
  for (const [key, v] of Object.entries(patch)) {
    const f = layout(name).fields.find((x) => x.field === key);
    if (!f) throw new TypeError(`${name} has no field '${key}'`);
    out[key] = STRUCTS[f.type] && f.count === 1 ? merge(base[key], v, f.type) : v;
  }
  return out;
}

export const vec3 = (v) => (Array.isArray(v) ? { x: v[0], y: v[1], z: v[2] } : v);
export const quat = (q) => (Array.isArray(q) ? { x: q[0], y: q[1], z: q[2], w: q[3] } : q);

// The scratch block of a module instance (`Boids.scratch`, SCRATCH bytes): ids and outputs
// below NAME_AT, names (2 x 256 bytes) from NAME_AT, struct definitions from DEF_AT.
export const SCRATCH = 4096;
export const NAME_AT = 1024;
export const DEF_AT = 2048;
