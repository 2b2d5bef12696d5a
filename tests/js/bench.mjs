// The benchmark scenario (docs: bench-scenario; `boids bench`'s school: fish-tank rules, ~25
// boids within the radius, soft-walled cube, dt 1/60) in WebAssembly under Node, next to the
// native command on one thread, in one run.
//
//   node tests/js/bench.mjs [N...]        (default 1000 10000; 30 timed steps after 3)
//   node tests/js/bench.mjs --frame [N...] (default 10000 100000: the step and a renderer's
//                                           reads after it, as `boids bench --frame`)
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
const FRAME = process.argv.includes('--frame');
const sizes = process.argv.slice(2).filter((a) => a !== '--frame').map(Number);

const lib = await loadBoids(readFileSync(WASM));
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
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
if (FRAME) {
  // The frame: after every timed step, the reads a renderer makes (views over the module's
  // memory, as a WebGL upload takes them), each timed; ns a boid, medians.
  console.log(`boids ${lib.version}: WebAssembly under Node ${process.version}, 1 thread, ${STEPS} steps after ${WARMUP}, ns a boid`);
  console.log('boids     step  positions  orientations  matrices  reads, % of the step');
  for (const n of sizes.length ? sizes : [10000, 100000]) {
    const world = school(n);
    const flock = world.findFlock('school');
    const t = { step: [], positions: [], orientations: [], matrices: [] };
    for (let i = 0; i < WARMUP + STEPS; i++) {
      const mark = [performance.now()];
      world.step(DT);
      mark.push(performance.now());
      flock.positions();
      mark.push(performance.now());
      flock.orientations();
      mark.push(performance.now());
      flock.matrices();
      mark.push(performance.now());
      if (i < WARMUP) continue;
      ['step', 'positions', 'orientations', 'matrices'].forEach((k, j) => t[k].push((mark[j + 1] - mark[j]) * 1e6 / n));
    }
    world.destroy();
    const m = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, median(v)]));
    const reads = m.positions + m.orientations + m.matrices;
    console.log(`${String(n).padStart(6)} ${m.step.toFixed(1).padStart(8)} ${m.positions.toFixed(2).padStart(10)} ${m.orientations.toFixed(2).padStart(13)} ${m.matrices.toFixed(2).padStart(9)} ${(100 * reads / m.step).toFixed(1).padStart(21)}`);
    console.log(`bench frame wasm n=${n} threads=1 step_ns_per_boid=${m.step.toFixed(3)} positions_ns_per_boid=${m.positions.toFixed(3)} ` +
      `orientations_ns_per_boid=${m.orientations.toFixed(3)} matrices_ns_per_boid=${m.matrices.toFixed(3)} ` +
      `reads_ns_per_boid=${reads.toFixed(3)} reads_share=${(reads / m.step).toFixed(4)}`);
  }
  process.exit(0);
}
console.log(`boids ${lib.version}: WebAssembly under Node ${process.version} vs native, 1 thread, ${STEPS} steps after ${WARMUP}`);
console.log('boids    wasm ms/step   native ms/step   wasm / native');
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
  const wasm = median(times);
  const out = execFileSync(CLI, ['bench', '--boids', String(n), '--threads', '1', '--steps', String(STEPS)], { encoding: 'utf8' });
  const native = Number(out.match(/ms_per_step=([0-9.]+)/)[1]);
  console.log(`${String(n).padStart(6)} ${wasm.toFixed(3).padStart(15)} ${native.toFixed(3).padStart(16)} ${(wasm / native).toFixed(2).padStart(15)}`);
}
