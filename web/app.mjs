// The playground: the engine (boids.mjs over boids_ffi.wasm) on this page's main thread, one
// fixed step of 1/60 s per animation frame, drawn on a 2-D canvas. The model is small enough
// per frame (a 2,000-boid step takes about a millisecond) that a worker would add a copy of the
// state per frame and gain nothing visible; it stays here.
//
// URL parameters: preset=NAME (or school), count=N (school), view=top|perspective,
// warm=N (steps before the first frame), paused=1, test=N (the headless test: see runTest).

import { loadBoids, PRESETS, PlaneLock, BoundsKind } from './boids.mjs';
import { SLIDERS, schoolSetup, toScenarioToml, toCSharp } from './export.mjs';

const DT = Math.fround(1 / 60);
const SEED = 1;
const COLOURS = ['#4fc3f7', '#ffb74d', '#aed581', '#f06292'];

const $ = (id) => document.getElementById(id);
const canvas = $('view');
const ctx = canvas.getContext('2d');
const query = new URLSearchParams(location.search);
const errors = [];
window.addEventListener('error', (e) => errors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => errors.push(String(e.reason)));
const consoleError = console.error.bind(console);
console.error = (...a) => { errors.push(a.map(String).join(' ')); consoleError(...a); };

const ui = {
  preset: query.get('preset') ?? 'fish-tank',
  count: Number(query.get('count') ?? 2000),
  view: query.get('view') ?? 'top',
  playing: query.get('paused') !== '1',
  yaw: 0.6,
  pitch: 0.45,
};

let boids;
let world = null;
let flocks = [];
let main = null;
let steps = 0;
let msAvg = 0;
let extent = { min: [-10, -10, -10], max: [10, 10, 10] };
let plane = 0;

function showError(e) {
  $('error').textContent = e ? String(e.message ?? e) : '';
}

/** A new world for the picked preset (or the school), with the sliders set from its params. */
function build() {
  world?.destroy();
  world = boids.createWorld({ seed: SEED });
  if (ui.preset === 'school') {
    const s = schoolSetup(ui.count);
    main = world.createFlock('school', { bounds: s.bounds });
    main.spawn(ui.count, s.spawn);
  } else {
    main = world.createPreset(ui.preset, ui.preset);
  }
  flocks = world.flocks();
  steps = 0;
  msAvg = 0;
  const p = main.getParams();
  plane = p.plane;
  extent = boundsExtent(p.bounds) ?? positionsExtent();
  for (const [field] of SLIDERS) {
    const input = $(`slider-${field}`);
    input.value = p[field];
    $(`out-${field}`).textContent = Number(p[field]).toFixed(2);
  }
  $('school-count').disabled = ui.preset !== 'school';
  showError(null);
}

function boundsExtent(b) {
  const box = [BoundsKind.SOFT_BOX, BoundsKind.WRAP, BoundsKind.CLAMP, BoundsKind.TURN_BACK];
  if (box.includes(b.kind)) return { min: [b.min.x, b.min.y, b.min.z], max: [b.max.x, b.max.y, b.max.z] };
  if (b.kind === BoundsKind.SOFT_SPHERE) {
    const c = [b.centre.x, b.centre.y, b.centre.z];
    return { min: c.map((v) => v - b.radius), max: c.map((v) => v + b.radius) };
  }
  return null;
}

function positionsExtent() {
  const p = main.positions();
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], p[i + k]);
      max[k] = Math.max(max[k], p[i + k]);
    }
  }
  const pad = Math.max(...max.map((v, k) => v - min[k]), 2) * 0.5;
  return { min: min.map((v) => v - pad), max: max.map((v) => v + pad) };
}

function step() {
  const t0 = performance.now();
  world.step(DT);
  const ms = performance.now() - t0;
  msAvg = steps === 0 ? ms : msAvg * 0.9 + ms * 0.1;
  steps++;
}

/** Screen position of a world point: from above (the flock's plane) or in perspective. */
function projector() {
  const w = canvas.width;
  const h = canvas.height;
  const c = extent.min.map((v, k) => (v + extent.max[k]) / 2);
  const size = Math.max(...extent.max.map((v, k) => v - extent.min[k]), 1e-3);
  if (ui.view === 'perspective') {
    const [cy, sy, cp, sp] = [Math.cos(ui.yaw), Math.sin(ui.yaw), Math.cos(ui.pitch), Math.sin(ui.pitch)];
    const dist = size * 2.4;
    const f = Math.min(w, h) * 1.05;
    return (x, y, z) => {
      const dx = x - c[0], dy = y - c[1], dz = z - c[2];
      const rx = cy * dx - sy * dz;
      const rz = sy * dx + cy * dz;
      const ry = cp * dy - sp * rz;
      const depth = dist + sp * dy + cp * rz;
      if (depth < 1e-3) return null;
      return [w / 2 + (rx * f) / depth, h / 2 - (ry * f) / depth, f / depth];
    };
  }
  const s = (Math.min(w, h) * 0.92) / size;
  // 2-D flocks in the XY plane are seen face on; everything else from above (x right, z down).
  if (plane === PlaneLock.XY) return (x, y) => [w / 2 + (x - c[0]) * s, h / 2 - (y - c[1]) * s, s];
  return (x, y, z) => [w / 2 + (x - c[0]) * s, h / 2 + (z - c[2]) * s, s];
}

function draw() {
  const w = canvas.clientWidth | 0;
  const h = canvas.clientHeight | 0;
  if (w > 0 && h > 0 && (canvas.width !== w || canvas.height !== h)) {
    canvas.width = w;
    canvas.height = h;
  }
  ctx.fillStyle = '#0a0f14';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const project = projector();
  // The bounds box's outline, for scale.
  ctx.strokeStyle = '#1f2a36';
  ctx.lineWidth = 1;
  const [a, b] = [extent.min, extent.max];
  const corners = [];
  for (let k = 0; k < 8; k++) corners.push(project(k & 1 ? b[0] : a[0], k & 2 ? b[1] : a[1], k & 4 ? b[2] : a[2]));
  ctx.beginPath();
  for (const [i, j] of [[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]]) {
    if (!corners[i] || !corners[j]) continue;
    ctx.moveTo(corners[i][0], corners[i][1]);
    ctx.lineTo(corners[j][0], corners[j][1]);
  }
  ctx.stroke();
  let total = 0;
  flocks.forEach((flock, f) => {
    const p = flock.positions();
    const v = flock.velocities();
    const n = p.length / 3;
    total += n;
    const big = n < 50 ? 2.5 : 1;
    ctx.fillStyle = COLOURS[f % COLOURS.length];
    ctx.beginPath();
    for (let i = 0; i < n; i++) {
      const x = p[3 * i], y = p[3 * i + 1], z = p[3 * i + 2];
      const s = project(x, y, z);
      if (!s) continue;
      const speed = Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2]) || 1;
      const len = 0.35 * big;
      const t = project(x + (v[3 * i] / speed) * len, y + (v[3 * i + 1] / speed) * len, z + (v[3 * i + 2] / speed) * len);
      if (!t) continue;
      let dx = t[0] - s[0], dy = t[1] - s[1];
      const d = Math.hypot(dx, dy);
      const scale = Math.max(6 * big, 4) / Math.max(d, 1e-6);
      if (d < 1e-6) { dx = 1; dy = 0; }
      const [fx, fy] = [dx * scale, dy * scale];
      ctx.moveTo(s[0] + fx * 0.6, s[1] + fy * 0.6);
      ctx.lineTo(s[0] - fx * 0.4 - fy * 0.3, s[1] - fy * 0.4 + fx * 0.3);
      ctx.lineTo(s[0] - fx * 0.4 + fy * 0.3, s[1] - fy * 0.4 - fx * 0.3);
      ctx.closePath();
    }
    ctx.fill();
  });
  $('steps').textContent = steps;
  $('count').textContent = total;
  $('ms').textContent = steps && msAvg > 0 ? msAvg.toFixed(3) : '-';
  $('hash').textContent = world.stateHashHex();
}

function frame() {
  if (ui.playing) {
    try {
      step();
    } catch (e) {
      ui.playing = false;
      $('play').textContent = 'Play';
      showError(e);
    }
  }
  draw();
  requestAnimationFrame(frame);
}

/** The page's state as the exporters take it. */
function exportState() {
  const p = main.getParams();
  const params = {};
  for (const [field] of SLIDERS) params[field] = p[field];
  return {
    kind: ui.preset === 'school' ? 'school' : 'preset',
    preset: ui.preset,
    flockName: main.name,
    seed: SEED,
    dt: DT,
    count: ui.count,
    params,
  };
}

function setUpControls() {
  for (const name of [...PRESETS, 'school']) {
    const o = document.createElement('option');
    o.value = name;
    o.textContent = name === 'school' ? 'school (the benchmark set-up)' : name;
    $('preset').append(o);
  }
  $('preset').value = ui.preset;
  $('preset').addEventListener('change', () => { ui.preset = $('preset').value; build(); });
  $('school-count').value = ui.count;
  $('school-count-out').textContent = ui.count;
  $('school-count').addEventListener('input', () => {
    ui.count = Number($('school-count').value);
    $('school-count-out').textContent = ui.count;
    build();
  });
  $('projection').value = ui.view;
  $('projection').addEventListener('change', () => { ui.view = $('projection').value; });
  for (const [field, label, min, max, stepSize] of SLIDERS) {
    const l = document.createElement('label');
    l.htmlFor = `slider-${field}`;
    l.innerHTML = `${label} <output id="out-${field}"></output>`;
    const input = document.createElement('input');
    Object.assign(input, { type: 'range', id: `slider-${field}`, min, max, step: stepSize });
    input.addEventListener('input', () => {
      const value = Number(input.value);
      $(`out-${field}`).textContent = value.toFixed(2);
      try {
        main.setParams({ [field]: value });
        showError(null);
      } catch (e) {
        showError(e); // e.g. a min speed above the max: refused, nothing changed
      }
    });
    $('sliders').append(l, input);
  }
  $('play').textContent = ui.playing ? 'Pause' : 'Play';
  $('play').addEventListener('click', () => {
    ui.playing = !ui.playing;
    $('play').textContent = ui.playing ? 'Pause' : 'Play';
  });
  $('step').addEventListener('click', () => { ui.playing = false; $('play').textContent = 'Play'; step(); });
  $('reset').addEventListener('click', build);
  $('export-toml').addEventListener('click', () => { $('export').value = toScenarioToml(exportState()); });
  $('export-cs').addEventListener('click', () => { $('export').value = toCSharp(exportState()); });
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => { drag = [e.clientX, e.clientY]; });
  window.addEventListener('pointerup', () => { drag = null; });
  window.addEventListener('pointermove', (e) => {
    if (!drag) return;
    ui.yaw += (e.clientX - drag[0]) * 0.01;
    ui.pitch = Math.max(-1.4, Math.min(1.4, ui.pitch + (e.clientY - drag[1]) * 0.01));
    drag = [e.clientX, e.clientY];
  });
}

/** Pixels of the canvas that are not the background. */
function litPixels() {
  const img = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  let lit = 0;
  for (let i = 0; i < img.length; i += 4) if (img[i] + img[i + 1] + img[i + 2] > 120) lit++;
  return lit;
}

/**
 * The headless test (scripts/check-web): `n` steps, a frame drawn, the hash; then from a save
 * of that state, 30 more steps as they are and 30 after moving the perception slider, through
 * its input event as a user's drag fires it. The result goes into #test-result as JSON.
 */
function runTest(n) {
  for (let i = 0; i < n; i++) step();
  draw();
  const result = { steps: steps, hash: world.stateHashHex(), count: main.count, lit: litPixels() };
  const saved = world.save();
  for (let i = 0; i < 30; i++) step();
  const untouched = world.stateHashHex();
  const before = Array.from(main.positions());
  world.destroy();
  world = boids.loadWorld(saved);
  main = world.findFlock(main.name);
  flocks = world.flocks();
  const slider = $('slider-perception_radius');
  slider.value = String(Number(slider.value) * 2.5 + 0.5);
  slider.dispatchEvent(new Event('input'));
  result.sliderValue = main.getParams().perception_radius;
  for (let i = 0; i < 30; i++) step();
  const after = Array.from(main.positions());
  result.untouched = untouched;
  result.moved = world.stateHashHex();
  result.maxMove = Math.max(...after.map((v, k) => Math.abs(v - before[k])));
  draw();
  result.errors = errors;
  $('test-result').textContent = JSON.stringify(result);
  document.title = 'test done';
}

async function start() {
  try {
    boids = await loadBoids(new URL('./boids_ffi.wasm', import.meta.url));
    $('version').textContent = boids.version;
    setUpControls();
    build();
    const test = Number(query.get('test') ?? 0);
    if (test > 0) {
      runTest(test);
      return;
    }
    const warm = Number(query.get('warm') ?? 0);
    for (let i = 0; i < warm; i++) step();
    requestAnimationFrame(frame);
  } catch (e) {
    showError(e);
    console.error(e);
    $('test-result').textContent = JSON.stringify({ errors: [...errors, String(e)] });
    document.title = 'test done';
  }
}

start();
