// flock.mjs: a flock's handle: its parameters, spawning, and the reads (typed-array views of
// the module's memory into buffers the flock keeps; see boids.mjs's notes on reads).

import { BoidsError, NOT_FOUND, refuse, shown, u32 } from './errors.mjs';
import { readStruct, merge, vec3, NAME_AT, DEF_AT } from './structs.mjs';

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

