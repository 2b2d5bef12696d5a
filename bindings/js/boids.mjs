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
// - Struct layouts are computed from the field lists in structs.mjs (the header's, checked by
//   crates/ffi/tests/js_decls.rs) and compared with boids_struct_size at load.
// - Files (all beside this one; import only this one and enums.mjs): boids.mjs (loading, the
//   module instance), world.mjs (worlds, obstacles, meshes), flock.mjs (flocks: reads and
//   views), structs.mjs (struct layouts, the scratch block), errors.mjs (BoidsError and the
//   argument checks), enums.mjs (the engine's enums, generated).

import * as enums from './enums.mjs';
import { BoidsError, OUT_OF_MEMORY, refuse, shown, u32, u64 } from './errors.mjs';
import { STRUCT_KINDS, layout, readStruct, writeStruct, merge, SCRATCH, NAME_AT, DEF_AT } from './structs.mjs';
import { World } from './world.mjs';

export * from './enums.mjs';

/** The presets of the engine (boids_flock_create_preset). */
export const PRESETS = Object.freeze(['fish-tank', 'goal-swarm', 'target-flock', 'steering-obstacles', 'flock-2d', 'reef', 'shark', 'herd', 'maze']);

/** The ABI this file was written against (BOIDS_ABI_VERSION). */
export const ABI_VERSION = 4;

/** The version of this file (the package's); equal to `Boids.version` when they ship together. */
export const WRAPPER_VERSION = '0.3.0';

export { BoidsError, OUT_OF_MEMORY } from './errors.mjs';
export { World, Obstacle, Mesh } from './world.mjs';
export { Flock } from './flock.mjs';

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

/** The engine's enum tables (also exported one by one). */
export { enums };
