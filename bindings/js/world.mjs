// world.mjs: a world's handle (stepping, saving, flocks, obstacles, meshes, relations, the
// observer, flow fields) and its obstacles' and meshes' handles.

import * as enums from './enums.mjs';
import { BoidsError, NOT_FOUND, refuse, shown, text } from './errors.mjs';
import { layout, readStruct, merge, vec3, quat } from './structs.mjs';
import { Flock } from './flock.mjs';

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

  /** Starts `count` steps of `dt` seconds each (`count` >= 1; here they run at once: no
   * threads); `stepEnd` gives the bits of `count` calls of `step`, and throws PANIC with the
   * steps before a failed one installed. */
  stepBeginN(dt, count) {
    this.lib.reserve(this._stepReserve());
    this.lib.call('boids_world_step_begin_n', this.ptr(), dt, count);
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

