// The JavaScript binding's own contract (bindings/js/boids.mjs): memory that moves under it,
// memory above 2 GiB, memory that runs out, buffers freed with their world, strict arguments,
// views that cannot show freed memory, and flock names.
//
//   node --test tests/js/binding.test.mjs
//
// BOIDS_WASM: the module (default target/web/boids_ffi.wasm, built by scripts/web).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadBoids, BoidsError, OUT_OF_MEMORY, RelationKind } from '../../bindings/js/boids.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WASM = resolve(ROOT, process.env.BOIDS_WASM ?? 'target/web/boids_ffi.wasm');
const module = await WebAssembly.compile(readFileSync(WASM));
/** A fresh instance of the module (its own memory). */
const fresh = () => loadBoids(module);
const DT = 1 / 60;
const GiB = 2 ** 30;

/** Throws BoidsError with this result name, and its sentence mentions `words`. */
function refused(result, fn, words) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof BoidsError, `a BoidsError, got ${e}`);
    assert.equal(e.result, result, e.message);
    if (words) assert.match(e.detail, words);
    return true;
  });
}

/** Allocates blocks of the module's memory (kept) until `total` bytes; returns a freeing function. */
function hold(lib, total, block = 256 * 2 ** 20) {
  const held = [];
  let got = 0;
  while (got < total) {
    const n = Math.min(block, total - got);
    const p = lib.exports.boids_wasm_alloc(n) >>> 0;
    assert.ok(p, `allocating ${n} bytes after ${got}`);
    held.push([p, n]);
    got += n;
  }
  return () => held.forEach(([p, n]) => lib.exports.boids_wasm_free(p, n));
}

/** Allocates until the module's memory is full, down to blocks of 64 KiB; returns a freeing
 * function. */
function fill(lib) {
  const held = [];
  for (let n = 512 * 2 ** 20; n >= 65536; n >>>= 1) {
    for (;;) {
      const p = lib.exports.boids_wasm_alloc(n) >>> 0;
      if (!p) break;
      held.push([p, n]);
    }
  }
  return () => held.forEach(([p, n]) => lib.exports.boids_wasm_free(p, n));
}

test('writePositions(flock.positions()) round-trips, as the first call on a fresh instance, at 1k and 100k', async () => {
  for (const n of [1000, 100_000]) {
    const lib = await fresh();
    const world = lib.createWorld({ seed: 3 });
    const fish = world.createFlock('fish');
    fish.spawn(n);
    const view = fish.positions();
    for (let i = 0; i < view.length; i += 3) view[i] += 1;
    const edited = view.slice();
    // The write allocates (and may grow the memory, detaching `view`): it must copy first.
    fish.writePositions(view);
    assert.deepEqual(fish.positions(), edited, `${n} boids`);
    assert.equal(lib.dead, false);
    world.step(DT);
    assert.equal(fish.count, n);
    world.destroy();
  }
});

test('memory above 2 GiB: reads, names and error messages come back whole', async () => {
  const lib = await fresh();
  const free = hold(lib, 2 * GiB + 64 * 2 ** 20);
  try {
    assert.ok(lib.memory.buffer.byteLength > 2 * GiB);
    const world = lib.createWorld({ seed: 1 });
    const fish = world.createPreset('fish-tank', 'fish');
    world.step(DT);
    const p = fish.positions();
    assert.ok(p.byteOffset >= 2 ** 31, `the read buffer lies above 2 GiB (at ${p.byteOffset})`);
    assert.equal(p.length, fish.count * 3);
    assert.ok(p.every(Number.isFinite));
    assert.deepEqual(world.flocks().map((f) => f.name), ['fish']);
    // The library's sentence, stored high too.
    refused('INVALID_ARGUMENT', () => world.createFlock('fish'), /fish/);
    world.destroy();
  } finally {
    free();
  }
});

test('World.destroy frees its flocks\' read buffers: memory stays flat over create-read-destroy cycles', async () => {
  const lib = await fresh();
  const cycle = () => {
    const world = lib.createWorld({ seed: 2 });
    const fish = world.createFlock('fish');
    fish.spawn(10_000);
    world.step(DT);
    fish.positions();
    fish.velocities();
    world.findFlock('fish').matrices();
    world.destroy();
  };
  for (let i = 0; i < 100; i++) cycle();
  const after100 = lib.memory.buffer.byteLength;
  for (let i = 0; i < 200; i++) cycle();
  assert.equal(lib.memory.buffer.byteLength, after100, 'no growth from 100 to 300 cycles');
});

test('a step, save, load, spawn or preset that the memory cannot hold is refused with OUT_OF_MEMORY, the instance intact', async () => {
  const lib = await fresh();
  const world = lib.createWorld({ seed: 4 });
  const fish = world.createFlock('fish');
  fish.spawn(20_000);
  world.step(DT);
  const bytes = world.save();
  fish.resize(40_000); // the next step sizes its buffers for twice the boids
  const hash = world.stateHashHex();
  const free = fill(lib);
  try {
    refused('OUT_OF_MEMORY', () => world.step(DT));
    refused('OUT_OF_MEMORY', () => world.save());
    refused('OUT_OF_MEMORY', () => lib.loadWorld(bytes));
    refused('OUT_OF_MEMORY', () => fish.spawn(100_000));
    refused('OUT_OF_MEMORY', () => world.createPreset('reef', 'reef'));
    assert.equal(lib.dead, false, 'no trap');
    assert.equal(world.stateHashHex(), hash, 'nothing changed');
    assert.equal(fish.count, 40_000);
  } finally {
    free();
  }
  assert.equal(new BoidsError(OUT_OF_MEMORY, 'x').result, 'OUT_OF_MEMORY');
  // Everything works again once there is room.
  world.step(DT);
  assert.equal(lib.loadWorld(world.save()).stateHashHex(), world.stateHashHex());
  assert.equal(lib.loadWorld(bytes).findFlock('fish').count, 20_000);
});

test('counts, seeds, names and handles are checked before any call: refused, nothing changed', async () => {
  const lib = await fresh();
  const world = lib.createWorld({ seed: 5 });
  const fish = world.createFlock('fish');
  fish.spawn(100);
  const hash = world.stateHashHex();
  for (const n of [NaN, 2 ** 32, -1, 1.5, 2 ** 32 + 5, Infinity, '10', 10n, null, undefined]) {
    refused('INVALID_ARGUMENT', () => fish.resize(n), /flock size must be a whole number/);
    refused('INVALID_ARGUMENT', () => fish.spawn(n), /boids to spawn must be a whole number/);
  }
  assert.equal(fish.count, 100);
  assert.equal(world.stateHashHex(), hash);
  for (const seed of [2n ** 64n, -1, -1n, 1.5, '1', NaN, 2 ** 53]) {
    refused('INVALID_ARGUMENT', () => lib.createWorld({ seed }), /seed/);
  }
  const top = lib.createWorld({ seed: 2n ** 64n - 1n });
  assert.notEqual(top.stateHashHex(), lib.createWorld({ seed: 0 }).stateHashHex() + 'x');
  refused('INVALID_ARGUMENT', () => lib.createWorld({ threads: -1 }), /threads/);
  for (const name of [undefined, null, 7, {}]) {
    refused('INVALID_ARGUMENT', () => world.createFlock(name), /name must be a string/);
  }
  refused('NOT_FOUND', () => world.findFlock('undefined'));
  refused('INVALID_ARGUMENT', () => world.setRelation({}, {}, RelationKind.AVOID, 1, 1), /from must be a flock of this world/);
  // A handle of another instance (same ids: its first world and flock) is not this one's.
  const other = await fresh();
  const foreign = other.createWorld({ seed: 5 }).createFlock('fish');
  const shark = world.createFlock('shark');
  refused('INVALID_ARGUMENT', () => world.setRelation(foreign, shark, RelationKind.AVOID, 1, 1), /another world or module instance/);
  refused('INVALID_ARGUMENT', () => world.setRelation(fish, lib.createWorld().createFlock('x'), RelationKind.AVOID, 1, 1), /to must be a flock of this world/);
  world.setRelation(fish, shark, RelationKind.AVOID, 2, 1);
  assert.deepEqual(world.flocks().map((f) => f.name), ['fish', 'shark']);
});

test('views never show freed memory: view(kind) over grown memory, copies into your arrays', async () => {
  const lib = await fresh();
  const world = lib.createWorld({ seed: 6 });
  const fish = world.createFlock('fish');
  fish.spawn(1000);
  const v = fish.positions();
  const copy = v.slice();
  const free = hold(lib, 64 * 2 ** 20); // grows the memory: `v` detaches
  assert.equal(v.length, 0, 'a view over the old memory is detached, not stale');
  assert.deepEqual(fish.view('positions'), copy, 'the same values over the new memory');
  free();
  const into = new Float32Array(3000);
  assert.equal(fish.readPositions(into), 3000);
  assert.deepEqual(into, copy);
  refused('BUFFER_TOO_SMALL', () => fish.readPositions(new Float32Array(2999)), /2999/);
  refused('INVALID_ARGUMENT', () => fish.readIds(new Float32Array(1000)), /Uint32Array/);
  const ids = new Uint32Array(1000);
  fish.readIds(ids);
  assert.equal(ids[999], 999);
  assert.equal(fish.view('velocities'), null, 'no read of that kind yet');
  // The flock's buffer moves when it grows: the handle's view follows.
  fish.spawn(5000);
  fish.positions();
  assert.equal(fish.view('positions').length, 18_000);
});

test('flocks() names every flock, presets and loaded worlds included', async () => {
  const lib = await fresh();
  const world = lib.createWorld({ seed: 7 });
  world.createPreset('shark', 'reef fish');
  const names = world.flocks().map((f) => f.name);
  assert.equal(names.length, 2);
  assert.equal(names[0], 'reef fish');
  const loaded = lib.loadWorld(world.save());
  assert.deepEqual(loaded.flocks().map((f) => f.name), names);
  assert.equal(loaded.flocks()[0], loaded.findFlock('reef fish'), 'one handle per flock');
});

test('flow fields: the maze preset\'s cell size, its field copied out, the count at the target', async () => {
  const lib = await fresh();
  const world = lib.createWorld({ seed: 3 });
  const walkers = world.createPreset('maze', 'walkers');
  assert.equal(world.flowCellSize, 1);
  assert.equal(walkers.flowField(), null, 'no field before a step');
  assert.equal(walkers.countAtTarget(), 0);
  world.step(DT);
  const f = walkers.flowField();
  assert.equal(f.cell, 1);
  assert.equal(f.columns, 161);
  assert.equal(f.rows, 161);
  assert.equal(f.distances.length, 161 * 161);
  assert.equal(f.directions.length, 3 * 161 * 161);
  // The target (48, 0) is cell (128, 80); in the U's cup (cell 80, 80) the way leads west, out.
  assert.equal(f.distances[80 * 161 + 128], 0);
  assert.ok(f.directions[3 * (80 * 161 + 80)] < 0 && f.distances[80 * 161 + 80] > 100);
  // The ground under the field, for drawing it: the walkers stand their pivot (0.4) above it.
  const at = walkers.positions();
  for (let i = 0; i < at.length; i += 3) {
    assert.ok(Math.abs(at[i + 1] - 0.4 - world.groundHeight(at[i], at[i + 2])) < 1e-3, `walker ${i / 3}`);
  }
  assert.equal(world.groundHeight(85, 0), null, 'no ground beyond the hills');
  refused('INVALID_ARGUMENT', () => world.groundHeight(Number.NaN, 0), /ground height/);
  refused('INVALID_ARGUMENT', () => world.groundHeight('x', 0), /ground height/);
  refused('INVALID_ARGUMENT', () => { world.flowCellSize = -1; }, /flow cell size/);
  refused('INVALID_ARGUMENT', () => { world.flowCellSize = 'big'; }, /flow cell size/);
  assert.equal(world.flowCellSize, 1, 'a refused size changes nothing');
  // A budget: a new target's field is built over several steps, the old one read meanwhile.
  assert.equal(world.flowBudget, 0);
  refused('INVALID_ARGUMENT', () => { world.flowBudget = -1; }, /flow budget/);
  refused('INVALID_ARGUMENT', () => { world.flowBudget = 1.5; }, /flow budget/);
  world.flowBudget = 3000;
  assert.equal(world.flowBudget, 3000);
  walkers.setTarget([-40, 0, 50]);
  world.step(DT);
  assert.equal(walkers.flowField().distances[80 * 161 + 128], 0, 'the old field meanwhile');
  let steps = 1;
  while (walkers.flowField().distances[80 * 161 + 128] === 0) { world.step(DT); steps += 1; }
  assert.ok(steps > 3 && steps < 500, `${steps} steps`);
  assert.equal(lib.loadWorld(world.save()).flowBudget, 3000, 'a save keeps it');
  world.flowCellSize = 0;
  world.step(DT);
  assert.equal(walkers.flowField(), null);
  const fish = world.createFlock('fish', {});
  refused('NOT_FOUND', () => fish.countAtTarget(), /no target/);
});
