// boids.mjs: the boids engine in JavaScript. The C ABI (include/boids.h) compiled to WebAssembly
// (boids_ffi.wasm, `scripts/web` builds it) and bound here the way the C# layer binds the native
// library: one ABI is the source of truth, this file only calls its exports.
//
//   import { loadBoids } from './boids.mjs';
//   const boids = await loadBoids(new URL('./boids_ffi.wasm', import.meta.url));
//   const world = boids.createWorld({ seed: 1 });
//   const fish = world.createPreset('fish-tank', 'fish');
//   world.step(1 / 60);
//   const xyz = fish.positions();          // Float32Array view of wasm memory: x, y, z per boid
//   world.destroy();
//
// - Errors: every refused call throws BoidsError with the result code's name and the library's
//   sentence (boids_last_error_message). A refused call changes nothing.
// - Reads (positions, velocities, orientations, matrices, ids) return typed-array views of the
//   module's memory, into a buffer the flock keeps: no copy and no allocation per frame. A view
//   shows that read's values until the next read of the same kind on that flock (which may
//   also move the buffer, when the flock grew). Any call that grows the module's memory (a
//   spawn, a first step, a save, a read into a bigger buffer) detaches every view: its length
//   becomes 0. `flock.view(kind)` gives the last read's values over the current memory (never
//   detached); `flock.readPositions(into)` and the others copy into your own array; `.slice()`
//   keeps a copy.
// - One thread: WebAssembly here has none, so `threads` must be 0 and a step runs on the calling
//   thread; `stepBegin` runs the step at once, and the world then behaves as in native code
//   (reads see the state before the step, other calls throw BUSY) until `stepEnd`.
// - A panic inside the engine cannot be caught in WebAssembly: the module traps. The call then
//   throws BoidsError('PANIC') and every later call on that module instance throws too: load
//   it again. (Native builds catch panics at the boundary; no input is known to cause one.)
// - Struct layouts are computed from the field lists below (the header's, checked by
//   crates/ffi/tests/js_decls.rs) and compared with boids_struct_size at load.

import * as enums from './enums.mjs';

export * from './enums.mjs';

/** The presets of the engine (boids_flock_create_preset). */
export const PRESETS = Object.freeze(['fish-tank', 'goal-swarm', 'target-flock', 'steering-obstacles', 'flock-2d', 'reef', 'shark', 'herd', 'maze']);

/** The ABI this file was written against (BOIDS_ABI_VERSION). */
export const ABI_VERSION = 4;

/** The version of this file (the package's); equal to `Boids.version` when they ship together. */
export const WRAPPER_VERSION = '0.3.0';

const RESULT_NAMES = ['OK', 'NULL_POINTER', 'INVALID_ID', 'INVALID_ARGUMENT', 'BUFFER_TOO_SMALL', 'BUSY', 'PANIC', 'INVALID_DEF', 'NOT_FOUND'];

/** BoidsError code of a call refused because the module's memory cannot grow enough for it
 * (this binding's own code: the C ABI has none). The instance and every world are intact. */
export const OUT_OF_MEMORY = 100;

/** The C ABI's BOIDS_RESULT_NOT_FOUND. */
const NOT_FOUND = 8;

const resultName = (code) => (code === OUT_OF_MEMORY ? 'OUT_OF_MEMORY' : RESULT_NAMES[code] ?? `RESULT_${code}`);

/** A refused call: `result` is the code's name ('INVALID_ARGUMENT', 'BUSY', ...), `code` its
 * number, `detail` the library's sentence. */
export class BoidsError extends Error {
  constructor(code, detail) {
    const result = resultName(code);
    super(`${result}: ${detail}`);
    this.name = 'BoidsError';
    this.code = code;
    this.result = result;
    this.detail = detail;
  }
}

// ---- Struct layouts: the header's fields, in order (crates/ffi/tests/js_decls.rs checks). ----

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
const STRUCT_KINDS = {
  BoidsVec3: 0, BoidsQuat: 1, BoidsMat4: 2, BoidsWorldId: 3, BoidsFlockId: 4, BoidsObstacleId: 5,
  BoidsWorldDef: 6, BoidsBounds: 7, BoidsFlockParams: 8, BoidsFlockDef: 9, BoidsSpawnDef: 10,
  BoidsObstacleDef: 11, BoidsMeshId: 12,
};

// wasm32: 4-byte pointers; u64 aligned to 8.
const PRIMS = { f32: [4, 4], i32: [4, 4], u32: [4, 4], ptr: [4, 4], u64: [8, 8] };
const LAYOUTS = {};

function layout(name) {
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

function readStruct(dv, ptr, name) {
  const out = {};
  for (const f of layout(name).fields) {
    if (f.count === 1) out[f.field] = readValue(dv, ptr + f.offset, f.type);
    else out[f.field] = Array.from({ length: f.count }, (_, k) => readValue(dv, ptr + f.offset + k * f.size, f.type));
  }
  return out;
}

function writeStruct(dv, ptr, name, obj) {
  for (const f of layout(name).fields) {
    const v = obj[f.field];
    if (v === undefined) throw new TypeError(`${name}.${f.field} is missing`);
    if (f.count === 1) writeValue(dv, ptr + f.offset, f.type, v);
    else for (let k = 0; k < f.count; k++) writeValue(dv, ptr + f.offset + k * f.size, f.type, v[k]);
  }
}

/** `patch` laid over `base`, nested objects (vectors, bounds) merged field by field. */
function merge(base, patch, name) {
  if (patch === undefined || patch === null) return base;
  const out = { ...base };
  for (const [key, v] of Object.entries(patch)) {
    const f = layout(name).fields.find((x) => x.field === key);
    if (!f) throw new TypeError(`${name} has no field '${key}'`);
    out[key] = STRUCTS[f.type] && f.count === 1 ? merge(base[key], v, f.type) : v;
  }
  return out;
}

const vec3 = (v) => (Array.isArray(v) ? { x: v[0], y: v[1], z: v[2] } : v);
const quat = (q) => (Array.isArray(q) ? { x: q[0], y: q[1], z: q[2], w: q[3] } : q);

// ---- Arguments: checked here, before any call into the module; a refusal changes nothing. ----

const refuse = (sentence) => new BoidsError(3, sentence);
const shown = (v) => (typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? JSON.stringify(v) : String(v));

/** A count: a whole number from 0 to 2^32 - 1 (a u32). */
function u32(v, what) {
  if (!Number.isSafeInteger(v) || v < 0 || v > 0xFFFFFFFF) {
    throw refuse(`${what} must be a whole number from 0 to 4294967295, got ${shown(v)}`);
  }
  return v;
}

/** A seed: a whole number from 0 to 2^64 - 1, as a number (up to 2^53 - 1) or a BigInt. */
function u64(v, what) {
  if (typeof v === 'bigint') {
    if (v < 0n || v > 0xFFFFFFFFFFFFFFFFn) throw refuse(`${what} must be from 0 to 2^64 - 1, got ${shown(v)}`);
    return v;
  }
  if (!Number.isSafeInteger(v) || v < 0) {
    throw refuse(`${what} must be a whole number from 0 to 2^53 - 1, or a BigInt up to 2^64 - 1, got ${shown(v)}`);
  }
  return BigInt(v);
}

/** A name: a string. */
function text(v, what) {
  if (typeof v !== 'string') throw refuse(`${what} must be a string, got ${shown(v)}`);
  return v;
}

// ---- Loading ----

/**
 * Loads the engine. `source`: the module's bytes (ArrayBuffer, typed array), a
 * WebAssembly.Module, a fetch Response (or a promise of one), or a URL / path (fetched in a
 * browser, read from disk in Node); by default `boids_ffi.wasm` next to this file (as the npm
 * package and `scripts/web` lay them out).
 */
export async function loadBoids(source = new URL('./boids_ffi.wasm', import.meta.url)) {
  let module;
  if (source instanceof WebAssembly.Module) {
    module = source;
  } else if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    module = await WebAssembly.compile(source);
  } else {
    const s = await source;
    if (typeof Response !== 'undefined' && s instanceof Response) {
      module = await WebAssembly.compile(await s.arrayBuffer());
    } else {
      const url = s instanceof URL ? s : new URL(String(s), typeof location !== 'undefined' ? location.href : `file://${process.cwd()}/`);
      if (url.protocol === 'file:') {
        const fs = await import('node:fs/promises');
        module = await WebAssembly.compile(await fs.readFile(url));
      } else {
        const r = await fetch(url);
        if (!r.ok) throw new Error(`cannot fetch ${url}: ${r.status} ${r.statusText}`);
        module = await WebAssembly.compile(await r.arrayBuffer());
      }
    }
  }
  const instance = await WebAssembly.instantiate(module, {});
  return new Boids(instance);
}

const SCRATCH = 4096;
const NAME_AT = 1024; // scratch: ids and outputs below, names (2 x 256 bytes) and defs above
const DEF_AT = 2048;

/** One instance of the engine's module: worlds, flocks, obstacles. */
export class Boids {
  constructor(instance) {
    this.exports = instance.exports;
    this.memory = instance.exports.memory;
    this.dead = false;
    this._dv = null;
    this.scratch = this.exports.boids_wasm_alloc(SCRATCH) >>> 0;
    if (!this.scratch) throw new Error('boids: no memory for the scratch block');
    this.abiVersion = this.exports.boids_abi_version();
    if (this.abiVersion !== ABI_VERSION) {
      throw new Error(`boids: the module has ABI ${this.abiVersion}, boids.mjs expects ${ABI_VERSION}`);
    }
    for (const [name, kind] of Object.entries(STRUCT_KINDS)) {
      const native = this.exports.boids_struct_size(kind);
      if (native !== layout(name).size) {
        throw new Error(`boids: ${name} is ${native} bytes in the module, ${layout(name).size} in boids.mjs`);
      }
    }
    this.version = this.cString(this.exports.boids_version());
    this._finalizer = typeof FinalizationRegistry !== 'undefined'
      ? new FinalizationRegistry(({ index, generation, buffers }) => {
        if (this.dead) return;
        const dv = this.dv();
        dv.setUint32(this.scratch, index, true);
        dv.setUint32(this.scratch + 4, generation, true);
        this.exports.boids_world_destroy(this.scratch);
        for (const b of buffers) this.exports.boids_wasm_free(b.ptr, b.bytes);
        buffers.clear();
      })
      : null;
  }

  /** A DataView of the module's memory (renewed when the memory grows). */
  dv() {
    if (!this._dv || this._dv.buffer !== this.memory.buffer) this._dv = new DataView(this.memory.buffer);
    return this._dv;
  }

  cString(ptr) {
    // Addresses are u32: above 2 GiB the i32 the export returns is negative.
    const bytes = new Uint8Array(this.memory.buffer, ptr >>> 0);
    const end = bytes.indexOf(0);
    return new TextDecoder().decode(bytes.subarray(0, end < 0 ? 0 : end));
  }

  /** Writes `text` NUL-terminated into the scratch's name slot `slot` (0 or 1). */
  name(text, slot = 0) {
    // A lone UTF-16 surrogate has no UTF-8 form: TextEncoder would write U+FFFD in its place,
    // and two different names would find the same flock. (With the u flag, a paired surrogate
    // is one code point and does not match.)
    if (typeof text !== 'string') throw refuse(`a name must be a string, got ${shown(text)}`);
    const lone = /[\uD800-\uDFFF]/u.exec(text);
    if (lone) throw new BoidsError(3, `name is not valid Unicode: a lone UTF-16 surrogate at index ${lone.index}`);
    const bytes = new TextEncoder().encode(text);
    if (bytes.length > 255) throw new BoidsError(3, `name must be 1..=255 bytes, got ${bytes.length}`);
    const at = this.scratch + NAME_AT + slot * 256;
    new Uint8Array(this.memory.buffer, at, bytes.length + 1).set([...bytes, 0]);
    return at;
  }

  /** Calls an export; a trap marks the module dead. */
  raw(fn, ...args) {
    if (this.dead) throw new BoidsError(6, 'the engine trapped earlier; this module instance is unusable: load it again');
    try {
      return this.exports[fn](...args);
    } catch (e) {
      if (e instanceof WebAssembly.RuntimeError) {
        this.dead = true;
        throw new BoidsError(6, `the engine trapped in ${fn} (${e.message}); load the module again`);
      }
      throw e;
    }
  }

  /** Calls a fallible export; throws BoidsError unless it returns OK. */
  call(fn, ...args) {
    const r = this.raw(fn, ...args);
    if (r !== 0) throw new BoidsError(r, this.cString(this.exports.boids_last_error_message()));
  }

  alloc(bytes) {
    const p = this.raw('boids_wasm_alloc', bytes) >>> 0;
    if (!p) throw new BoidsError(OUT_OF_MEMORY, `cannot allocate ${bytes} bytes in the module's memory`);
    return p;
  }

  /** Makes sure the module's allocator holds `bytes` more (allocated and freed again, so the
   * engine's own allocations during the next call find them): a call the memory cannot hold is
   * refused with OUT_OF_MEMORY here, before the engine would trap on it. */
  reserve(bytes) {
    const n = Math.ceil(bytes);
    const p = this.raw('boids_wasm_alloc', n) >>> 0;
    if (!p) throw new BoidsError(OUT_OF_MEMORY, `the module's memory cannot grow by the ${n} bytes this call may need`);
    this.raw('boids_wasm_free', p, n);
  }

  free(ptr, bytes) {
    if (ptr) this.raw('boids_wasm_free', ptr, bytes);
  }

  /** A struct returned by value (a default), as an object. */
  defaults(fn, name) {
    const at = this.scratch + DEF_AT;
    this.raw(fn, at);
    return readStruct(this.dv(), at, name);
  }

  /** `obj` as struct `name` in the scratch's def slot; returns its address. */
  put(name, obj, at = this.scratch + DEF_AT) {
    writeStruct(this.dv(), at, name, obj);
    return at;
  }

  /** The default flock parameters (the fish-tank preset's fish). */
  defaultParams() {
    return this.defaults('boids_default_flock_params', 'BoidsFlockParams');
  }

  /** The default spawn settings. */
  defaultSpawn() {
    return this.defaults('boids_default_spawn_def', 'BoidsSpawnDef');
  }

  /** A new world: `seed` (number or BigInt), `threads` (0 or 1 here, both this thread: no threads). */
  createWorld({ seed = 0, threads = 0 } = {}) {
    const s = u64(seed, 'seed');
    const t = u32(threads, 'threads');
    const def = merge(this.defaults('boids_default_world_def', 'BoidsWorldDef'), { seed: s, threads: t }, 'BoidsWorldDef');
    const at = this.put('BoidsWorldDef', def);
    const out = this.scratch + 64;
    this.call('boids_world_create', at, out);
    return new World(this, readStruct(this.dv(), out, 'BoidsWorldId'));
  }

  /** A world from bytes `World.save` wrote (here or in any native build): it continues bit for
   * bit as the saved one would. */
  loadWorld(bytes, { threads = 0 } = {}) {
    if (!(bytes instanceof ArrayBuffer || ArrayBuffer.isView(bytes))) {
      throw refuse(`loadWorld needs the saved bytes (a Uint8Array or ArrayBuffer), got ${shown(bytes)}`);
    }
    const t = u32(threads, 'threads');
    // A view of the module's own memory would detach when the allocation below grows it.
    let data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength);
    if (data.buffer === this.memory.buffer) data = data.slice();
    const len = data.length;
    const size = Math.max(len, 1);
    // A load holds the bytes, the decoded world and its index: reserve for all of it.
    this.reserve(size * 4 + (1 << 20));
    const ptr = this.alloc(size);
    try {
      new Uint8Array(this.memory.buffer, ptr, len).set(data);
      const def = merge(this.defaults('boids_default_world_def', 'BoidsWorldDef'), { threads: t }, 'BoidsWorldDef');
      const at = this.put('BoidsWorldDef', def);
      const out = this.scratch + 64;
      this.call('boids_world_load', at, ptr, len, out);
      return new World(this, readStruct(this.dv(), out, 'BoidsWorldId'));
    } finally {
      this.free(ptr, size);
    }
  }
}

/** A simulation world. Destroy it when done (a forgotten world is destroyed when collected). */
export class World {
  constructor(lib, id) {
    this.lib = lib;
    this.id = id;
    this._token = {};
    /** The flock handles given out, one per flock (so their read buffers are found again). */
    this._flocks = new Map();
    /** Every read buffer of this world's flocks, `{ ptr, bytes }`: freed with the world. */
    this._buffers = new Set();
    /** Boids in the world, as last counted (`null`: count again before the next step). */
    this._boids = null;
    lib._finalizer?.register(this, { ...id, buffers: this._buffers }, this._token);
  }

  /** The handle of flock `id` (the same object for the same flock). */
  _handle(id, name) {
    const key = `${id.index}:${id.generation}`;
    let f = this._flocks.get(key);
    if (!f) {
      f = new Flock(this, id, name);
      this._flocks.set(key, f);
    } else if (name != null) {
      f.name = name;
    }
    return f;
  }

  /** `f` if it is a flock of this world (of this module instance); else refused. */
  _own(f, what) {
    if (!(f instanceof Flock) || f.lib !== this.lib || f.world !== this) {
      throw refuse(`${what} must be a flock of this world (from createFlock, createPreset, findFlock or flocks), got ${f instanceof Flock ? 'a flock of another world or module instance' : shown(f)}`);
    }
    return f;
  }

  /** Memory a step may take on top of what the world holds (its first step after a spawn sizes
   * the index and the buffers of the next state), reserved before the step. */
  _stepReserve() {
    if (this._boids === null) {
      let n = 0;
      for (const f of this.flocks()) n += f.count;
      this._boids = n;
    }
    return this._boids * 512 + (1 << 20);
  }

  /** Writes the world id into the scratch's id slot `slot`; returns its address. */
  ptr(slot = 0) {
    return this.lib.put('BoidsWorldId', this.id, this.lib.scratch + slot * 16);
  }

  /** Whether the world exists. */
  get isValid() {
    return this.lib.raw('boids_world_is_valid', this.ptr()) === 1;
  }

  /** Advances every flock by `dt` seconds (0 < dt <= 1). */
  step(dt) {
    this.lib.reserve(this._stepReserve());
    this.lib.call('boids_world_step', this.ptr(), dt);
  }

  /** Starts a step (here it runs at once: no threads); until `stepEnd`, reads see the state
   * before it and every other call throws BUSY. */
  stepBegin(dt) {
    this.lib.reserve(this._stepReserve());
    this.lib.call('boids_world_step_begin', this.ptr(), dt);
  }

  /** Ends the step `stepBegin` started: the same bits as `step`. */
  stepEnd() {
    this.lib.call('boids_world_step_end', this.ptr());
  }

  /** True between `stepBegin` and `stepEnd`. */
  get isStepping() {
    const out = this.lib.scratch + 64;
    this.lib.call('boids_world_is_stepping', this.ptr(), out);
    return this.lib.dv().getInt32(out, true) !== 0;
  }

  /** The 64-bit hash of the whole state (BigInt): equal hashes, equal bits. */
  stateHash() {
    const out = this.lib.scratch + 64;
    this.lib.call('boids_world_state_hash', this.ptr(), out);
    return this.lib.dv().getBigUint64(out, true);
  }

  /** The state hash as 16 hex digits, as the `boids` command prints it. */
  stateHashHex() {
    return this.stateHash().toString(16).padStart(16, '0');
  }

  /** The digest of the state rounded to `digits` significant digits (BigInt). */
  roundedDigest(digits = 6) {
    const out = this.lib.scratch + 64;
    this.lib.call('boids_world_rounded_digest', this.ptr(), digits, out);
    return this.lib.dv().getBigUint64(out, true);
  }

  /** The whole world as bytes (a copy): `Boids.loadWorld` continues it bit for bit, here or in
   * any native build. */
  save() {
    const lib = this.lib;
    // Measuring the save builds it once: room for that first.
    lib.reserve(this._stepReserve());
    const len = lib.scratch + 64;
    const r = lib.raw('boids_world_save', this.ptr(), 0, 0, len);
    if (r !== 4 && r !== 0) throw new BoidsError(r, lib.cString(lib.exports.boids_last_error_message()));
    const n = lib.dv().getUint32(len, true);
    const size = Math.max(n, 1);
    // Writing a save takes about three times its size inside the engine, besides the buffer.
    lib.reserve(size * 4 + (1 << 20));
    const ptr = lib.alloc(size);
    try {
      lib.call('boids_world_save', this.ptr(), ptr, n, len);
      return new Uint8Array(lib.memory.buffer, ptr, n).slice();
    } finally {
      lib.free(ptr, size);
    }
  }

  /** A new flock named `name` with `params` laid over the defaults (no boids yet: `spawn`). */
  createFlock(name, params) {
    const lib = this.lib;
    text(name, 'the flock name');
    const def = lib.defaults('boids_default_flock_def', 'BoidsFlockDef');
    def.params = merge(def.params, params, 'BoidsFlockParams');
    def.name = lib.name(name);
    const at = lib.put('BoidsFlockDef', def);
    const out = lib.scratch + 64;
    lib.call('boids_flock_create', this.ptr(), at, out);
    this._boids = null;
    return this._handle(readStruct(lib.dv(), out, 'BoidsFlockId'), name);
  }

  /** A preset's whole scene (its flocks, obstacles, relations); returns its main flock, named
   * `name` (a second flock is `<name>-predator`). */
  createPreset(preset, name = preset) {
    const lib = this.lib;
    text(preset, 'the preset');
    text(name, 'the flock name');
    const out = lib.scratch + 64;
    // A preset's scene (its flocks, and the reef's meshes) takes a few MiB.
    lib.reserve(16 * 2 ** 20);
    lib.call('boids_flock_create_preset', this.ptr(), lib.name(preset, 0), lib.name(name, 1), out);
    this._boids = null;
    return this._handle(readStruct(lib.dv(), out, 'BoidsFlockId'), name);
  }

  /** The flock named `name` (throws NOT_FOUND). */
  findFlock(name) {
    const lib = this.lib;
    text(name, 'the flock name');
    const out = lib.scratch + 64;
    lib.call('boids_flock_find', this.ptr(), lib.name(name), out);
    return this._handle(readStruct(lib.dv(), out, 'BoidsFlockId'), name);
  }

  /** Every flock, in slot order, with its name. */
  flocks() {
    const lib = this.lib;
    const count = lib.scratch + 64;
    const r = lib.raw('boids_world_list_flocks', this.ptr(), 0, 0, count);
    if (r !== 4 && r !== 0) throw new BoidsError(r, lib.cString(lib.exports.boids_last_error_message()));
    const n = lib.dv().getUint32(count, true);
    const size = layout('BoidsFlockId').size;
    const ptr = lib.alloc(Math.max(n * size, 1));
    try {
      lib.call('boids_world_list_flocks', this.ptr(), ptr, n, count);
      const ids = Array.from({ length: n }, (_, k) => readStruct(lib.dv(), ptr + k * size, 'BoidsFlockId'));
      return ids.map((id) => {
        const f = this._handle(id, null);
        f.name = f.readName();
        return f;
      });
    } finally {
      lib.free(ptr, Math.max(n * size, 1));
    }
  }

  /** The scene's faces, for drawing: x, y, z per point, three points a triangle, in world
   * space, for every box, mesh and heightfield obstacle in slot order (spheres, capsules and
   * planes have none). A copy (a new Float32Array). */
  sceneTriangles() {
    const lib = this.lib;
    const count = lib.scratch + 64;
    const r = lib.raw('boids_world_read_scene_triangles', this.ptr(), 0, 0, count);
    if (r !== 4 && r !== 0) throw new BoidsError(r, lib.cString(lib.exports.boids_last_error_message()));
    const n = lib.dv().getUint32(count, true);
    const bytes = Math.max(n * 12, 1);
    const ptr = lib.alloc(bytes);
    try {
      lib.call('boids_world_read_scene_triangles', this.ptr(), ptr, n, count);
      return new Float32Array(lib.memory.buffer, ptr, n * 3).slice();
    } finally {
      lib.free(ptr, bytes);
    }
  }

  /** How flock `from` reacts to flock `to` within `radius` (`RelationKind`). */
  setRelation(from, to, kind, radius, weight) {
    const lib = this.lib;
    this._own(from, 'from');
    this._own(to, 'to');
    const a = lib.put('BoidsFlockId', from.id, lib.scratch + 16);
    const b = lib.put('BoidsFlockId', to.id, lib.scratch + 32);
    lib.call('boids_world_set_relation', this.ptr(), a, b, kind, radius, weight);
  }

  /** The width of the cells of the world's flow fields: above 0, a grounded flock with a
   * target seeks it around walls along a flow field over the ground; 0 (the default): none. A
   * NaN, infinite or negative width, or a grid of more than 16,777,216 cells, is refused. */
  get flowCellSize() {
    const out = this.lib.scratch + 64;
    this.lib.call('boids_world_get_flow_cell_size', this.ptr(), out);
    return this.lib.dv().getFloat32(out, true);
  }

  set flowCellSize(cell) {
    if (typeof cell !== 'number') throw refuse(`the flow cell size must be a number, got ${shown(cell)}`);
    this.lib.call('boids_world_set_flow_cell_size', this.ptr(), cell);
  }

  /** The work a step may spend building flow fields, in units of about one cell settled (a
   * field takes about 1.2 units a cell); 0 (the default): no limit. With a budget a new field is
   * built over several steps, the flock reading its last whole field meanwhile. */
  get flowBudget() {
    const out = this.lib.scratch + 64;
    this.lib.call('boids_world_get_flow_budget', this.ptr(), out);
    return this.lib.dv().getUint32(out, true);
  }

  set flowBudget(units) {
    if (!Number.isInteger(units) || units < 0 || units > 0xffffffff) {
      throw refuse(`the flow budget must be a whole number of units from 0 to 4294967295, got ${shown(units)}`);
    }
    this.lib.call('boids_world_set_flow_budget', this.ptr(), units >>> 0);
  }

  /** The height of the highest ground surface at (x, z) (of the obstacles placed as ground), or
   * null where no ground lies under the point: for placing a target or a flow field's overlay on
   * the ground. A coordinate that is not a finite number is refused. */
  groundHeight(x, z) {
    if (typeof x !== 'number' || typeof z !== 'number') {
      throw refuse(`ground height: x and z must be numbers, got ${shown(x)}, ${shown(z)}`);
    }
    const lib = this.lib;
    const out = lib.scratch + 64;
    const r = lib.raw('boids_world_get_ground_height', this.ptr(), x, z, out);
    if (r === NOT_FOUND) return null;
    if (r !== 0) throw new BoidsError(r, lib.cString(lib.exports.boids_last_error_message()));
    return lib.dv().getFloat32(out, true);
  }

  /** The observer point (the player), or null for none. */
  setObserver(point) {
    const lib = this.lib;
    const at = point == null ? 0 : lib.put('BoidsVec3', vec3(point), lib.scratch + 64);
    lib.call('boids_world_set_observer', this.ptr(), at);
  }

  /** An obstacle (`ObstacleDef`): `{ shape: ObstacleKind.SPHERE, a: [x, y, z], radius }`, a box,
   * a plane, an oriented box (`rotation: [x, y, z, w]`), a capsule, or a mesh or heightfield
   * (`mesh`: from `addMesh` / `addHeightfield`, with `a` its position, `rotation`, `scale`;
   * `ground: true` makes it ground that grounded flocks walk on). */
  addObstacle(def) {
    const lib = this.lib;
    const at = lib.put('BoidsObstacleDef', this.obstacleDef(def));
    const out = lib.scratch + 64;
    lib.call('boids_obstacle_add', this.ptr(), at, out);
    return new Obstacle(this, readStruct(lib.dv(), out, 'BoidsObstacleId'));
  }

  /** `def` over the library's default obstacle def (a ball of radius 1 at the origin). */
  obstacleDef(def) {
    const lib = this.lib;
    const d = lib.defaults('boids_default_obstacle_def', 'BoidsObstacleDef');
    if (def.mesh != null && !(def.mesh instanceof Mesh && def.mesh.lib === lib)) {
      throw new BoidsError(3, 'obstacle def: mesh must be a Mesh of this module instance (World.addMesh, World.addHeightfield)');
    }
    return {
      ...d,
      shape: def.shape ?? d.shape,
      a: def.a == null ? d.a : vec3(def.a),
      b: def.b == null ? d.b : vec3(def.b),
      radius: def.radius ?? d.radius,
      rotation: def.rotation == null ? d.rotation : quat(def.rotation),
      scale: def.scale == null ? d.scale : vec3(def.scale),
      mesh: def.mesh == null ? d.mesh : def.mesh.id,
      ground: def.ground == null ? d.ground : def.ground ? 1 : 0,
    };
  }

  /** Uploads a triangle mesh: `vertices` (a flat `Float32Array` or array of x, y, z, or an array
   * of [x, y, z]) and `indices` (three a triangle), copied; place it with
   * `{ shape: ObstacleKind.MESH, mesh, a: position, rotation, scale }`. Counts past the limits
   * (`MAX_TRIANGLES`, `MAX_VERTICES`) are refused before anything is copied. */
  addMesh(vertices, indices) {
    const lib = this.lib;
    const nested = Array.isArray(vertices) && Array.isArray(vertices[0]);
    const vertexCount = nested ? vertices.length : vertices.length / 3;
    if (indices.length / 3 > enums.MAX_TRIANGLES || vertexCount > enums.MAX_VERTICES) {
      // The library refuses the counts before it reads anything, with its own message.
      lib.call('boids_mesh_create', this.ptr(), 0, Math.floor(vertexCount), 0, indices.length, lib.scratch + 64);
    }
    const v = Float32Array.from(Array.isArray(vertices) && Array.isArray(vertices[0]) ? vertices.flat() : vertices);
    const i = Uint32Array.from(indices);
    if (v.length % 3 !== 0) throw new BoidsError(3, `vertices: a multiple of 3 numbers (x, y, z) needed, got ${v.length}`);
    const vBytes = Math.max(v.byteLength, 1);
    const iBytes = Math.max(i.byteLength, 1);
    const vp = lib.alloc(vBytes);
    let ip = 0;
    try {
      ip = lib.alloc(iBytes);
      new Float32Array(lib.memory.buffer, vp, v.length).set(v);
      new Uint32Array(lib.memory.buffer, ip, i.length).set(i);
      const out = lib.scratch + 64;
      lib.call('boids_mesh_create', this.ptr(), vp, v.length / 3, ip, i.length, out);
      return new Mesh(this, readStruct(lib.dv(), out, 'BoidsMeshId'));
    } finally {
      lib.free(vp, vBytes);
      lib.free(ip, iBytes);
    }
  }

  /** Uploads a heightfield: `columns × rows` heights, x fastest, `cellX` / `cellZ` apart; place
   * it with `{ shape: ObstacleKind.HEIGHTFIELD, mesh, a: position, rotation, scale }`. Sizes past
   * the sample limit (`MAX_HEIGHTFIELD_SAMPLES`, 2^26: 8193 × 8193) are refused whatever
   * `heights` holds. */
  addHeightfield(heights, columns, rows, cellX, cellZ) {
    const lib = this.lib;
    if (columns >= 2 && rows >= 2 && columns * rows > enums.MAX_HEIGHTFIELD_SAMPLES) {
      // The library refuses the sizes before it reads any height, with its own message.
      lib.call('boids_heightfield_create', this.ptr(), 0, columns, rows, cellX, cellZ, lib.scratch + 64);
    }
    const h = Float32Array.from(heights);
    if (h.length !== columns * rows) {
      throw new BoidsError(3, `heights holds ${h.length} values, columns x rows = ${columns * rows}`);
    }
    const bytes = Math.max(h.byteLength, 1);
    const hp = lib.alloc(bytes);
    try {
      new Float32Array(lib.memory.buffer, hp, h.length).set(h);
      const out = lib.scratch + 64;
      lib.call('boids_heightfield_create', this.ptr(), hp, columns, rows, cellX, cellZ, out);
      return new Mesh(this, readStruct(lib.dv(), out, 'BoidsMeshId'));
    } finally {
      lib.free(hp, bytes);
    }
  }

  /** Destroys the world and everything in it, its flocks' read buffers too (a step in flight
   * is cancelled; in the browser it has run already). Idempotent. */
  destroy() {
    if (!this.lib.dead && this.isValid) {
      this.lib.call('boids_world_destroy', this.ptr());
    }
    for (const f of this._flocks.values()) f.release();
    this._flocks.clear();
    if (!this.lib.dead) for (const b of this._buffers) this.lib.free(b.ptr, b.bytes);
    this._buffers.clear();
    this.lib._finalizer?.unregister(this._token);
  }
}

const READS = {
  positions: ['boids_flock_read_positions', 12, Float32Array, 3],
  velocities: ['boids_flock_read_velocities', 12, Float32Array, 3],
  ids: ['boids_flock_read_ids', 4, Uint32Array, 1],
  orientations: ['boids_flock_read_orientations', 16, Float32Array, 4],
  matrices: ['boids_flock_read_matrices', 64, Float32Array, 16],
};

/** A flock of a world. Handles come from the world (`createFlock`, `createPreset`,
 * `findFlock`, `flocks`): one per flock. */
export class Flock {
  constructor(world, id, name) {
    this.world = world;
    this.lib = world.lib;
    this.id = id;
    this.name = name;
    /** Read buffers by kind: `{ ptr, bytes, capacity, count, view }`. */
    this._buffers = {};
  }

  ptr(slot = 0) {
    return this.lib.put('BoidsFlockId', this.id, this.lib.scratch + slot * 16);
  }

  get isValid() {
    return this.lib.raw('boids_flock_is_valid', this.ptr()) === 1;
  }

  /** The flock's name, as the world has it (boids_flock_name). */
  readName() {
    const lib = this.lib;
    const len = lib.scratch + 64;
    const at = lib.scratch + NAME_AT; // a name is at most 255 bytes and its NUL: one name slot
    lib.call('boids_flock_name', this.ptr(), at, 256, len);
    return new TextDecoder().decode(new Uint8Array(lib.memory.buffer, at, lib.dv().getUint32(len, true)));
  }

  /** Number of boids. */
  get count() {
    const out = this.lib.scratch + 64;
    this.lib.call('boids_flock_count', this.ptr(), out);
    return this.lib.dv().getUint32(out, true);
  }

  /** Every parameter, as an object with the C fields (vectors as {x, y, z}). */
  getParams() {
    const out = this.lib.scratch + DEF_AT;
    this.lib.call('boids_flock_get_params', this.ptr(), out);
    return readStruct(this.lib.dv(), out, 'BoidsFlockParams');
  }

  /** Lays `patch` (any subset of the fields) over the current parameters and sets them; on an
   * error nothing changes and the message names the field. */
  setParams(patch) {
    const p = merge(this.getParams(), patch, 'BoidsFlockParams');
    this.lib.call('boids_flock_set_params', this.ptr(), this.lib.put('BoidsFlockParams', p));
  }

  /** Adds `n` boids (a whole number, 0 to 2^32 - 1) placed by `spawn` (laid over the default
   * spawn); returns the first new id. */
  spawn(n, spawn) {
    const lib = this.lib;
    u32(n, 'the number of boids to spawn');
    const s = merge(lib.defaultSpawn(), spawn, 'BoidsSpawnDef');
    const at = lib.put('BoidsSpawnDef', s);
    const out = lib.scratch + 64;
    lib.reserve(n * 256 + (1 << 16));
    this.world._boids = null;
    lib.call('boids_flock_spawn', this.ptr(), n, at, out);
    return lib.dv().getUint32(out, true);
  }

  /** Grows (spawning with `spawn`) or shrinks (highest ids first) the flock to `n` boids (a
   * whole number, 0 to 2^32 - 1). */
  resize(n, spawn) {
    const lib = this.lib;
    u32(n, 'the flock size');
    const at = lib.put('BoidsSpawnDef', merge(lib.defaultSpawn(), spawn, 'BoidsSpawnDef'));
    lib.reserve(n * 256 + (1 << 16));
    this.world._boids = null;
    lib.call('boids_flock_resize', this.ptr(), n, at);
  }

  /** How many boids are at the target: within the arrival radius of it (or the target's
   * avoid distance, or the perception radius), horizontally for a grounded flock. Throws
   * without a target. */
  countAtTarget() {
    const out = this.lib.scratch + 64;
    this.lib.call('boids_flock_count_at_target', this.ptr(), out);
    return this.lib.dv().getUint32(out, true);
  }

  /** The flow field the flock read in the last step, copied out: `{ origin: {x, y, z}, cell,
   * columns, rows, distances, directions }` (cells row by row, x fastest; `distances` a
   * Float32Array, -1 where no way leads; `directions` x, y, z per cell, zero where the way
   * ends), or null when it read none. Allocates: for debugging and drawing. */
  flowField() {
    const lib = this.lib;
    const s = lib.scratch + 64;
    const r = lib.raw('boids_flock_get_flow_grid', this.ptr(), s, s + 12, s + 16, s + 20);
    if (r === NOT_FOUND) return null;
    if (r !== 0) throw new BoidsError(r, lib.cString(lib.exports.boids_last_error_message()));
    const dv = lib.dv();
    const origin = { x: dv.getFloat32(s, true), y: dv.getFloat32(s + 4, true), z: dv.getFloat32(s + 8, true) };
    const cell = dv.getFloat32(s + 12, true);
    const columns = dv.getUint32(s + 16, true);
    const rows = dv.getUint32(s + 20, true);
    const n = columns * rows;
    const read = (fn, per) => {
      const bytes = Math.max(n, 1) * per * 4;
      const at = lib.alloc(bytes);
      try {
        lib.call(fn, this.ptr(), at, n, lib.scratch + 64);
        return new Float32Array(lib.memory.buffer, at, n * per).slice();
      } finally {
        lib.free(at, bytes);
      }
    };
    const distances = read('boids_flock_read_flow_distances', 1);
    const directions = read('boids_flock_read_flow_directions', 3);
    return { origin, cell, columns, rows, distances, directions };
  }

  /** Moves the flock's target point (the params must have a target). */
  setTarget(point) {
    const lib = this.lib;
    lib.call('boids_flock_set_target', this.ptr(), lib.put('BoidsVec3', vec3(point), lib.scratch + 64));
  }

  /** One read into this flock's buffer for `kind`; returns its view (see the file's notes). */
  read(kind, ...extra) {
    const [fn, bytes, Type, per] = READS[kind];
    const lib = this.lib;
    const n = this.count;
    let buf = this._buffers[kind];
    if (!buf || buf.capacity < n) {
      const capacity = Math.max(n, 1);
      const ptr = lib.alloc(capacity * bytes);
      if (buf) this._forget(buf);
      buf = this._buffers[kind] = { ptr, bytes: capacity * bytes, capacity, count: 0, view: null };
      this.world._buffers.add(buf);
    }
    const out = lib.scratch + 64;
    if (kind === 'matrices') lib.call(fn, this.ptr(), extra[0] ?? 1, buf.ptr, buf.capacity, out);
    else lib.call(fn, this.ptr(), buf.ptr, buf.capacity, out);
    buf.count = lib.dv().getUint32(out, true) * per;
    buf.view = new Type(lib.memory.buffer, buf.ptr, buf.count);
    return buf.view;
  }

  /** The values of the last read of `kind` ('positions', 'velocities', 'ids', 'orientations',
   * 'matrices') as a view over the module's memory as it is now: the same values as that
   * read's view, but never detached by memory growth since. Null before any such read. */
  view(kind) {
    const buf = this._buffers[kind];
    if (!buf) return null;
    if (buf.view.buffer !== this.lib.memory.buffer) {
      buf.view = new READS[kind][2](this.lib.memory.buffer, buf.ptr, buf.count);
    }
    return buf.view;
  }

  /** One read copied into `into` (a typed array of the read's type, long enough: else
   * BUFFER_TOO_SMALL); returns how many numbers were written. */
  readInto(kind, into, ...extra) {
    const Type = READS[kind][2];
    if (!(into instanceof Type)) throw refuse(`${kind}: a ${Type.name} to copy into is needed, got ${shown(into)}`);
    if (into.buffer === this.lib.memory.buffer) throw refuse(`${kind}: the array to copy into must not be a view of the module's memory`);
    const v = this.read(kind, ...extra);
    if (into.length < v.length) {
      throw new BoidsError(4, `${kind}: the array holds ${into.length} numbers, ${v.length} needed`);
    }
    into.set(v);
    return v.length;
  }

  /** Positions in id order: x, y, z per boid (a view: see the file's notes). */
  positions() { return this.read('positions'); }
  /** Velocities in id order: x, y, z per boid. */
  velocities() { return this.read('velocities'); }
  /** Ids, ascending (the order of every read). */
  ids() { return this.read('ids'); }
  /** Orientations (Unity's LookRotation(heading)): x, y, z, w per boid. */
  orientations() { return this.read('orientations'); }
  /** 4x4 instance matrices, column-major, uniform `scale`: 16 floats per boid. */
  matrices(scale = 1) { return this.read('matrices', scale); }

  /** Positions copied into `into` (a Float32Array of at least 3 × count); returns the
   * number of floats written. */
  readPositions(into) { return this.readInto('positions', into); }
  /** Velocities copied into `into` (a Float32Array). */
  readVelocities(into) { return this.readInto('velocities', into); }
  /** Ids copied into `into` (a Uint32Array). */
  readIds(into) { return this.readInto('ids', into); }
  /** Orientations copied into `into` (a Float32Array of at least 4 × count). */
  readOrientations(into) { return this.readInto('orientations', into); }
  /** Matrices copied into `into` (a Float32Array of at least 16 × count). */
  readMatrices(into, scale = 1) { return this.readInto('matrices', into, scale); }

  /** Overwrites every boid's positions (`xyz`: 3 floats per boid, id order; a view from a
   * read of this module is fine). */
  writePositions(xyz) { this.write('boids_flock_write_positions', xyz); }
  /** Overwrites every boid's velocities. */
  writeVelocities(xyz) { this.write('boids_flock_write_velocities', xyz); }

  write(fn, xyz) {
    const lib = this.lib;
    let data = xyz instanceof Float32Array ? xyz : Float32Array.from(xyz);
    // A view of the module's memory (a read's, edited in place) detaches when the allocation
    // below grows the memory: copy it out first. Sizes are kept here, never read back from a
    // view after a call into the module.
    if (data.buffer === lib.memory.buffer) data = data.slice();
    const floats = data.length;
    if (floats % 3 !== 0) throw new BoidsError(3, `expected 3 floats per boid, got ${floats} floats`);
    const bytes = Math.max(floats * 4, 1);
    const ptr = lib.alloc(bytes);
    try {
      new Float32Array(lib.memory.buffer, ptr, floats).set(data);
      lib.call(fn, this.ptr(), ptr, floats / 3);
    } finally {
      lib.free(ptr, bytes);
    }
  }

  /** Destroys the flock (its buffers too). */
  destroy() {
    this.lib.call('boids_flock_destroy', this.ptr());
    this.release();
    this.world._flocks.delete(`${this.id.index}:${this.id.generation}`);
    this.world._boids = null;
  }

  /** Frees the flock's read buffers (the flock stays). */
  release() {
    for (const b of Object.values(this._buffers)) this._forget(b);
    this._buffers = {};
  }

  _forget(buf) {
    if (this.world._buffers.delete(buf) && !this.lib.dead) this.lib.free(buf.ptr, buf.bytes);
  }
}

/** An obstacle of a world. */
export class Obstacle {
  constructor(world, id) {
    this.world = world;
    this.lib = world.lib;
    this.id = id;
  }

  ptr() {
    return this.lib.put('BoidsObstacleId', this.id, this.lib.scratch + 16);
  }

  /** Changes its shape or moves it (a mesh or heightfield moves without a rebuild). */
  set(def) {
    const lib = this.lib;
    const at = lib.put('BoidsObstacleDef', this.world.obstacleDef(def));
    lib.call('boids_obstacle_set', this.ptr(), at);
  }

  /** Removes it. */
  remove() {
    this.lib.call('boids_obstacle_remove', this.ptr());
  }
}

/** Shape data of a world (a triangle mesh or a heightfield) that obstacles place. */
export class Mesh {
  constructor(world, id) {
    this.world = world;
    this.lib = world.lib;
    this.id = id;
  }

  ptr() {
    return this.lib.put('BoidsMeshId', this.id, this.lib.scratch + 16);
  }

  /** Whether the data is still alive. */
  get isValid() {
    return !this.lib.dead && this.lib.raw('boids_mesh_is_valid', this.ptr()) === 1;
  }

  /** Destroys it (refused while an obstacle places it). */
  destroy() {
    this.lib.call('boids_mesh_destroy', this.ptr());
  }
}

/** The engine's enum tables (also exported one by one). */
export { enums };
