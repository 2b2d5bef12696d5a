// The JavaScript binding (bindings/js/boids.mjs) over the C ABI built as WebAssembly, against
// the native `boids` command: the same hashes, the same save bytes, saves that cross between
// them and continue bit for bit, and the library's errors.
//
//   node --test tests/js/
//
// BOIDS_WASM: the module (default target/web/boids_ffi.wasm, built by scripts/web).
// BOIDS_CLI:  the native command (default target/release/boids).
// BOIDS_JS_OUT: where the exported C# goes for scripts/test's Mono step (default target/js-export).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadBoids, BoidsError, PRESETS } from '../../bindings/js/boids.mjs';
import { SLIDERS, schoolSetup, toScenarioToml, toCSharp } from '../../web/export.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WASM = resolve(ROOT, process.env.BOIDS_WASM ?? 'target/web/boids_ffi.wasm');
const CLI = resolve(ROOT, process.env.BOIDS_CLI ?? 'target/release/boids');
const JS_OUT = resolve(ROOT, process.env.BOIDS_JS_OUT ?? 'target/js-export');
const DT = Math.fround(1 / 60);
const DT_TEXT = '0.016666668'; // the shortest text of that f32
const TMP = mkdtempSync(join(tmpdir(), 'boids-js-'));
after(() => rmSync(TMP, { recursive: true, force: true }));

const lib = await loadBoids(readFileSync(WASM));

/** Runs the native command; returns its "state hash" (16 hex digits). */
function nativeHash(args) {
  const out = execFileSync(CLI, ['run', '--threads', '1', '--metrics', join(TMP, 'm.csv'), ...args], { encoding: 'utf8' });
  const m = out.match(/state hash ([0-9a-f]{16})/);
  assert.ok(m, `no state hash in:\n${out}`);
  return m[1];
}

function presetWorld(preset, steps) {
  const world = lib.createWorld({ seed: 1 });
  world.createPreset(preset, preset);
  for (let i = 0; i < steps; i++) world.step(DT);
  return world;
}

test('every preset gives native x86-64\'s state hash after 300 steps', () => {
  assert.deepEqual(PRESETS.length, 9);
  for (const preset of PRESETS) {
    const world = presetWorld(preset, 300);
    const wasm = world.stateHashHex();
    world.destroy();
    assert.equal(wasm, nativeHash(['--preset', preset, '--steps', '300', '--dt', DT_TEXT]), preset);
  }
});

test('save bytes equal the native save, byte for byte', () => {
  for (const preset of ['fish-tank', 'shark', 'flock-2d']) {
    const file = join(TMP, `${preset}.boids`);
    nativeHash(['--preset', preset, '--steps', '100', '--dt', DT_TEXT, '--save', file]);
    const world = presetWorld(preset, 100);
    const bytes = world.save();
    world.destroy();
    const native = readFileSync(file);
    assert.ok(bytes.length > 1000, `${preset}: ${bytes.length} bytes`);
    assert.equal(bytes.length, native.length, preset);
    assert.ok(Buffer.from(bytes).equals(native), `${preset}: the save bytes differ`);
  }
});

test('a native save continues in wasm, and a wasm save natively, bit for bit', () => {
  const preset = 'shark';
  const whole = nativeHash(['--preset', preset, '--steps', '300', '--dt', DT_TEXT]);
  // Native -> wasm.
  const nativeSave = join(TMP, 'native.boids');
  nativeHash(['--preset', preset, '--steps', '100', '--dt', DT_TEXT, '--save', nativeSave]);
  const loaded = lib.loadWorld(readFileSync(nativeSave));
  for (let i = 0; i < 200; i++) loaded.step(DT);
  assert.equal(loaded.stateHashHex(), whole);
  loaded.destroy();
  // Wasm -> native.
  const world = presetWorld(preset, 100);
  const wasmSave = join(TMP, 'wasm.boids');
  writeFileSync(wasmSave, world.save());
  world.destroy();
  assert.equal(nativeHash(['--load', wasmSave, '--steps', '200', '--dt', DT_TEXT]), whole);
});

test('begin/end: the same bits as step; while a step runs, reads see the state before it and changes are BUSY', () => {
  const a = presetWorld('target-flock', 20);
  const b = presetWorld('target-flock', 20);
  const flock = b.findFlock('target-flock');
  const before = Float32Array.from(flock.positions());
  const hashBefore = b.stateHashHex();
  b.stepBegin(DT);
  assert.equal(b.isStepping, true);
  assert.deepEqual(Float32Array.from(flock.positions()), before, 'reads during the step are the state before it');
  assert.throws(() => b.stateHashHex(), (e) => e.result === 'BUSY', 'the hash is not a boid read');
  assert.throws(() => b.step(DT), (e) => e instanceof BoidsError && e.result === 'BUSY' && e.detail.length > 10);
  assert.throws(() => flock.setParams({ weight_cohesion: 2 }), (e) => e.result === 'BUSY');
  b.stepEnd();
  assert.equal(b.isStepping, false);
  a.step(DT);
  assert.equal(b.stateHashHex(), a.stateHashHex());
  assert.notEqual(b.stateHashHex(), hashBefore);
  assert.throws(() => b.stepEnd(), (e) => e instanceof BoidsError && e.result === 'INVALID_ARGUMENT');
  // A 30 fps frame: two steps in one begin, the bits of two steps.
  b.stepBeginN(DT, 2);
  assert.equal(b.isStepping, true);
  assert.throws(() => b.stepBeginN(DT, 2), (e) => e.result === 'BUSY');
  b.stepEnd();
  a.step(DT);
  a.step(DT);
  assert.equal(b.stateHashHex(), a.stateHashHex());
  assert.throws(() => b.stepBeginN(DT, 0), (e) => e.result === 'INVALID_ARGUMENT' && /count/.test(e.detail));
  assert.equal(b.isStepping, false);
  a.destroy();
  b.destroy();
});

test('refused calls throw BoidsError with the library\'s sentence and change nothing', () => {
  const world = presetWorld('fish-tank', 5);
  const hash = world.stateHashHex();
  for (const dt of [0, -1, NaN, Infinity]) {
    assert.throws(() => world.step(dt), (e) => {
      assert.ok(e instanceof BoidsError);
      assert.equal(e.result, 'INVALID_ARGUMENT');
      assert.match(e.detail, /dt/);
      assert.ok(e.message.startsWith('INVALID_ARGUMENT: '));
      return true;
    });
  }
  assert.equal(world.stateHashHex(), hash);
  const flock = world.findFlock('fish-tank');
  assert.throws(() => flock.setParams({ perception_radius: NaN }), (e) => e.result === 'INVALID_ARGUMENT' && /perception_radius/.test(e.detail));
  assert.throws(() => flock.writePositions([1, 2]), (e) => e.result === 'INVALID_ARGUMENT');
  assert.throws(() => world.createPreset('no-such-preset'), (e) => e instanceof BoidsError && e.detail.includes('no-such-preset'));
  // A lone surrogate has no UTF-8 form (TextEncoder would write U+FFFD): refused, not merged.
  for (const bad of ['\ud800x', 'x\udc00']) {
    assert.throws(() => world.createFlock(bad), (e) => e.result === 'INVALID_ARGUMENT' && /surrogate/.test(e.detail));
  }
  const pair = world.createFlock('fish \ud83d\udc1f');
  assert.equal(world.findFlock('fish \ud83d\udc1f').id.index, pair.id.index);
  assert.throws(() => world.findFlock('fish \ufffd'), (e) => e.result === 'NOT_FOUND');
  pair.destroy();
  assert.equal(world.stateHashHex(), hash);
  // No threads in WebAssembly here: 1 is this thread, as 0 is; more is refused, not run on one.
  assert.throws(() => lib.createWorld({ threads: 2 }), (e) => e instanceof BoidsError && /thread/i.test(e.detail));
  const one = lib.createWorld({ seed: 1, threads: 1 });
  one.createPreset('fish-tank', 'fish-tank');
  for (let i = 0; i < 5; i++) one.step(DT);
  assert.equal(one.stateHashHex(), hash);
  one.destroy();
  assert.throws(() => lib.loadWorld(new Uint8Array([1, 2, 3])), (e) => e instanceof BoidsError);
  world.destroy();
  assert.throws(() => world.step(DT), (e) => e.result === 'INVALID_ID');
  assert.equal(world.isValid, false);
});

test('reads are views of the module\'s memory: no copy, refreshed in place by the next read', () => {
  const world = presetWorld('fish-tank', 1);
  const flock = world.findFlock('fish-tank');
  const p1 = flock.positions();
  assert.ok(p1 instanceof Float32Array);
  assert.equal(p1.buffer, lib.memory.buffer);
  assert.equal(p1.length, flock.count * 3);
  const first = p1[0];
  world.step(DT);
  const p2 = flock.positions();
  assert.equal(p2.byteOffset, p1.byteOffset, 'the same buffer, reused');
  assert.notEqual(p2[0], first);
  const m = flock.matrices(2);
  assert.equal(m.length, flock.count * 16);
  assert.equal(m[15], 1);
  assert.equal(m[12], p2[0], 'column-major: the translation is the position');
  world.destroy();
});

test('the playground\'s exported scenario TOML builds the page\'s world in `boids run --scenario`', () => {
  mkdirSync(JS_OUT, { recursive: true });
  const steps = 120;
  const cases = [
    { kind: 'preset', preset: 'shark', flockName: 'shark', seed: 1, dt: DT, patch: { perception_radius: 3.7, weight_cohesion: 2.25 } },
    { kind: 'preset', preset: 'flock-2d', flockName: 'flock-2d', seed: 1, dt: DT, patch: { max_speed: 4.4 } },
    { kind: 'school', flockName: 'school', seed: 1, dt: DT, count: 5000, patch: { fov_half_angle_deg: 120, weight_separation: 1.6 } },
  ];
  for (const c of cases) {
    const world = lib.createWorld({ seed: c.seed });
    let flock;
    if (c.kind === 'school') {
      const s = schoolSetup(c.count);
      flock = world.createFlock(c.flockName, { bounds: s.bounds });
      flock.spawn(c.count, s.spawn);
    } else {
      flock = world.createPreset(c.preset, c.flockName);
    }
    flock.setParams(c.patch);
    for (let i = 0; i < steps; i++) world.step(DT);
    const p = flock.getParams();
    const params = Object.fromEntries(SLIDERS.map(([field]) => [field, p[field]]));
    const state = { ...c, params };
    const toml = toScenarioToml(state);
    const file = join(TMP, `${c.flockName}.toml`);
    writeFileSync(file, toml);
    const label = c.preset ?? 'school';
    assert.equal(nativeHash(['--scenario', file, '--steps', String(steps)]), world.stateHashHex(), `${label}:\n${toml}`);
    // The C# export, with the hash it must give, for scripts/test's Mono step.
    writeFileSync(join(JS_OUT, `${label}.cs.txt`), toCSharp(state));
    writeFileSync(join(JS_OUT, `${label}.expect`), `${steps} ${world.stateHashHex()}\n`);
    world.destroy();
  }
});

// Last: it kills this module instance.
test('a trap (a wild pointer) becomes BoidsError PANIC and the instance refuses every later call', () => {
  const world = lib.createWorld({ seed: 3 });
  assert.throws(() => lib.raw('boids_world_step', 0xfffffff0, DT), (e) => e instanceof BoidsError && e.result === 'PANIC');
  assert.equal(lib.dead, true);
  assert.throws(() => world.step(DT), (e) => e.result === 'PANIC' && /load/.test(e.detail));
});

test('scene geometry: meshes and heightfields placed, moved, refused with the field named', async () => {
  const { ObstacleKind } = await import('../../bindings/js/boids.mjs');
  // An instance of its own (the trap test above kills the shared one).
  const mine = await loadBoids(readFileSync(WASM));
  const world = mine.createWorld({ seed: 3 });
  const fish = world.createPreset('steering-obstacles', 'fish');
  const tetra = world.addMesh([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], [0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3]);
  assert.ok(tetra.isValid);
  const rock = world.addObstacle({ shape: ObstacleKind.MESH, mesh: tetra, a: [4, 0, 0], rotation: [0, 0.7071068, 0, 0.7071068], scale: [3, 2, 3] });
  const ground = world.addHeightfield(new Float32Array(9), 3, 3, 10, 10);
  world.addObstacle({ shape: ObstacleKind.HEIGHTFIELD, mesh: ground, a: [-10, -11, -10] });
  world.addObstacle({ shape: ObstacleKind.ORIENTED_BOX, a: [0, 6, 0], b: [1, 2, 1], rotation: [0, 0, 0.3826834, 0.9238795] });
  world.addObstacle({ shape: ObstacleKind.CAPSULE, a: [-6, 0, 0], b: [-6, 4, 0], radius: 1 });
  for (let i = 0; i < 30; i++) {
    rock.set({ shape: ObstacleKind.MESH, mesh: tetra, a: [4 + i * 0.05, 0, 0] });
    world.step(DT);
  }
  for (const p of fish.positions().values()) assert.ok(Number.isFinite(p));
  // Refusals name the field and change nothing.
  const hash = world.stateHashHex();
  assert.throws(() => world.addMesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [0, 1, 5]), (e) => e.result === 'INVALID_ARGUMENT' && /indices\[2\]/.test(e.detail));
  assert.throws(() => world.addMesh([[0, 0, 0], [NaN, 0, 0], [0, 1, 0]], [0, 1, 2]), (e) => e.result === 'INVALID_ARGUMENT' && /vertices\[1\]/.test(e.detail));
  assert.throws(() => world.addHeightfield([0, 1, 2], 1, 3, 1, 1), (e) => e.result === 'INVALID_ARGUMENT' && /at least 2/.test(e.detail));
  assert.throws(() => world.addObstacle({ shape: ObstacleKind.MESH, mesh: tetra, scale: [1, 0, 1] }), (e) => e.result === 'INVALID_ARGUMENT' && /scale/.test(e.detail));
  assert.throws(() => world.addObstacle({ shape: ObstacleKind.MESH, mesh: ground }), (e) => e.result === 'INVALID_ARGUMENT' && /heightfield/.test(e.detail));
  assert.throws(() => tetra.destroy(), (e) => e.result === 'INVALID_ARGUMENT' && /placed by 1/.test(e.detail));
  const other = await loadBoids(readFileSync(WASM));
  const foreign = other.createWorld().addMesh([[0, 0, 0], [1, 0, 0], [0, 1, 0]], [0, 1, 2]);
  assert.throws(() => world.addObstacle({ shape: ObstacleKind.MESH, mesh: foreign }), (e) => e.result === 'INVALID_ARGUMENT');
  assert.equal(world.stateHashHex(), hash);
  rock.remove();
  tetra.destroy();
  assert.equal(tetra.isValid, false);
  world.destroy();
});

test('walking flocks: a grounded flock with bodies stands on a ground heightfield; bad ground settings and ground on a sphere are refused', async () => {
  const { ObstacleKind } = await import('../../bindings/js/boids.mjs');
  const mine = await loadBoids(readFileSync(WASM));
  const world = mine.createWorld({ seed: 5 });
  // A 20 x 20 hill rising 0.25 a unit along x, marked as ground.
  const n = 21;
  const heights = Array.from({ length: n * n }, (_, k) => 0.25 * (k % n));
  const hill = world.addHeightfield(heights, n, n, 1, 1);
  world.addObstacle({ shape: ObstacleKind.HEIGHTFIELD, mesh: hill, a: [-10, 0, -10], ground: true });
  const walkers = world.createFlock('walkers', { grounded: 1, ground_pivot_height: 0.5, body_radius: 0.3 });
  walkers.spawn(30);
  for (let i = 0; i < 20; i++) world.step(DT);
  const p = walkers.positions();
  assert.equal(p.length, 90);
  for (let i = 0; i < 30; i++) {
    const [x, y, z] = [p[3 * i], p[3 * i + 1], p[3 * i + 2]];
    assert.ok(Math.abs(y - (0.25 * (x + 10) + 0.5)) < 1e-3, `walker ${i} at ${x}, ${y}, ${z}: not on the hill`);
    for (let j = 0; j < i; j++) {
      const d = Math.hypot(x - p[3 * j], y - p[3 * j + 1], z - p[3 * j + 2]);
      assert.ok(d >= 0.6 * 0.99, `walkers ${i} and ${j} overlap: ${d}`);
    }
  }
  // Refused with the field named, nothing changed.
  const hash = world.stateHashHex();
  for (const [patch, field] of [
    [{ ground_max_slope_deg: NaN }, /max_slope/],
    [{ ground_max_slope_deg: 90 }, /max_slope/],
    [{ ground_step_height: -1 }, /step_height/],
    [{ ground_pivot_height: Infinity }, /pivot_height/],
    [{ body_radius: -0.5 }, /body_radius/],
    [{ grounded: 2 }, /grounded/],
  ]) {
    assert.throws(() => walkers.setParams(patch), (e) => e.result === 'INVALID_ARGUMENT' && field.test(e.detail), JSON.stringify(patch));
  }
  assert.throws(() => world.addObstacle({ shape: ObstacleKind.SPHERE, a: [0, 0, 0], radius: 1, ground: true }), (e) => e.result === 'INVALID_ARGUMENT' && /ground/.test(e.detail));
  assert.equal(world.stateHashHex(), hash);
  world.destroy();
});

test('scene geometry under hostile input: every refusal names its cause and changes nothing', async () => {
  const { ObstacleKind, MAX_TRIANGLES, MAX_VERTICES } = await import('../../bindings/js/boids.mjs');
  const mine = await loadBoids(readFileSync(WASM));
  const world = mine.createWorld({ seed: 5 });
  world.createPreset('fish-tank', 'fish');
  const tetraV = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]];
  const tetraI = [0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3];
  const tetra = world.addMesh(tetraV, tetraI);
  const placed = world.addObstacle({ shape: ObstacleKind.MESH, mesh: tetra, a: [3, 0, 0] });
  world.step(DT);
  const hash = world.stateHashHex();
  const refused = (what, call, detail) =>
    assert.throws(call, (e) => e.result === 'INVALID_ARGUMENT' && detail.test(e.detail), what);
  // Vertices: NaN, infinite, beyond the world's limit, in flat and nested form.
  refused('NaN vertex', () => world.addMesh(new Float32Array([0, 0, 0, 1, NaN, 0, 0, 1, 0]), [0, 1, 2]), /vertices\[1\]/);
  refused('infinite vertex', () => world.addMesh([[0, 0, 0], [1, 0, 0], [0, Infinity, 0]], [0, 1, 2]), /vertices\[2\]/);
  refused('vertex past 1e9', () => world.addMesh([[0, 0, 0], [2e9, 0, 0], [0, 1, 0]], [0, 1, 2]), /vertices\[1\]/);
  // Indices: out of range, negative (read as a large unsigned), not three a triangle, none.
  refused('index out of range', () => world.addMesh(tetraV, [0, 1, 4]), /indices\[2\]/);
  refused('negative index', () => world.addMesh(tetraV, [0, -1, 2]), /indices\[1\]/);
  refused('two indices', () => world.addMesh(tetraV, [0, 1]), /multiple of 3/);
  refused('no triangle', () => world.addMesh(tetraV, []), /no triangle/);
  // Counts past the limits: refused before anything is copied (no array of that size exists).
  refused('indices past the triangle limit', () => world.addMesh(tetraV, { length: 3 * (MAX_TRIANGLES + 1) }), /2\^24/);
  refused('vertices past the vertex limit', () => world.addMesh({ length: 3 * (MAX_VERTICES + 1) }, [0, 1, 2]), /at most/);
  // Heightfields: bad heights and cells, sizes past the limit whatever the array holds.
  refused('NaN height', () => world.addHeightfield([0, NaN, 0, 0], 2, 2, 1, 1), /heights\[1\]/);
  refused('height past 1e9', () => world.addHeightfield([0, 0, -2e9, 0], 2, 2, 1, 1), /heights\[2\]/);
  refused('cell 0', () => world.addHeightfield([0, 0, 0, 0], 2, 2, 0, 1), /cell/);
  refused('cell NaN', () => world.addHeightfield([0, 0, 0, 0], 2, 2, 1, NaN), /cell/);
  refused('8193 x 8193 samples', () => world.addHeightfield([0, 0, 0, 0], 8193, 8193, 1, 1), /2\^26/);
  refused('too few heights', () => world.addHeightfield([0, 0, 0], 2, 2, 1, 1), /columns x rows/);
  // Stale ids: a destroyed mesh is not placed, not destroyed twice; a placed one is not destroyed.
  refused('destroy a placed mesh', () => tetra.destroy(), /placed by 1/);
  const field = world.addHeightfield([0, 0, 0, 0], 2, 2, 1, 1);
  field.destroy();
  assert.equal(field.isValid, false);
  refused('place a destroyed heightfield', () => world.addObstacle({ shape: ObstacleKind.HEIGHTFIELD, mesh: field }), /mesh/);
  assert.throws(() => field.destroy(), (e) => e.result === 'INVALID_ID');
  refused('move onto a destroyed heightfield', () => placed.set({ shape: ObstacleKind.HEIGHTFIELD, mesh: field }), /mesh/);
  assert.equal(world.stateHashHex(), hash, 'nothing refused changed the world');
  // The mesh still works where it was placed; removed, it can go.
  world.step(DT);
  placed.remove();
  tetra.destroy();
  assert.equal(tetra.isValid, false);
  // A world destroyed takes its shape data with it.
  const again = world.addMesh(tetraV, tetraI);
  world.destroy();
  assert.equal(again.isValid, false);
});
