// The benchmark scenario (docs: bench-scenario; `boids bench`'s school: fish-tank rules, ~25
// boids within the radius, soft-walled cube, dt 1/60) in WebAssembly under Node, next to the
// native command on one thread, in one run.
//
//   node tests/js/bench.mjs [N...]        (default 1000 10000; 30 timed steps after 3)
//
// BOIDS_WASM / BOIDS_CLI as for tests/js/boids.test.mjs. WebAssembly here has one thread and
// the simd128 kernel (scripts/web builds with it); the native figure is the CPU's best kernel
// on one thread.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBoids } from '../../bindings/js/boids.mjs';
import { schoolSetup } from '../../web/export.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const WASM = resolve(ROOT, process.env.BOIDS_WASM ?? 'target/web/boids_ffi.wasm');
const CLI = resolve(ROOT, process.env.BOIDS_CLI ?? 'target/release/boids');
const STEPS = Number(process.env.BOIDS_BENCH_STEPS ?? 30);
const WARMUP = 3;
const DT = Math.fround(1 / 60);
const sizes = process.argv.slice(2).map(Number);

const lib = await loadBoids(readFileSync(WASM));
console.log(`boids ${lib.version}: WebAssembly under Node ${process.version} vs native, 1 thread, ${STEPS} steps after ${WARMUP}`);
console.log('boids    wasm ms/step   native ms/step   wasm / native');
// A school of the scenario stepped on a throw-away world first, so that V8 has compiled the
// module's hot functions with its optimizing tier before the first timed size (a few warm-up
// steps of a small world are not enough: 100 boids took 0.2 ms a step at first, 0.05 later).
const school = (n) => {
  const world = lib.createWorld({ seed: 1 });
  const s = schoolSetup(n);
  const flock = world.createFlock('school', { bounds: s.bounds, fov_half_angle_deg: 90 });
  flock.spawn(n, s.spawn);
  return world;
};
{
  const world = school(2000);
  for (let i = 0; i < 200; i++) world.step(DT);
  world.destroy();
}
for (const n of sizes.length ? sizes : [1000, 10000]) {
  const world = school(n);
  for (let i = 0; i < WARMUP; i++) world.step(DT);
  const times = [];
  for (let i = 0; i < STEPS; i++) {
    const t0 = performance.now();
    world.step(DT);
    times.push(performance.now() - t0);
  }
  world.destroy();
  times.sort((a, b) => a - b);
  const wasm = times[times.length >> 1];
  const out = execFileSync(CLI, ['bench', '--boids', String(n), '--threads', '1', '--steps', String(STEPS)], { encoding: 'utf8' });
  const native = Number(out.match(/ms_per_step=([0-9.]+)/)[1]);
  console.log(`${String(n).padStart(6)} ${wasm.toFixed(3).padStart(15)} ${native.toFixed(3).padStart(16)} ${(wasm / native).toFixed(2).padStart(15)}`);
}
