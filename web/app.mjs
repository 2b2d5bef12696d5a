// The playground: the engine (boids.mjs over boids_ffi.wasm) on this page's main thread, one
// fixed step of 1/60 s per animation frame, drawn with WebGL2 (render.mjs: one instanced draw
// per flock), or on a 2-D canvas where WebGL2 is missing. A worker would add a copy of the
// state per frame; the step stays here.
//
// The page's whole state is in its URL, kept up to date as it changes, so a link reproduces
// the scene and its hash: preset=NAME (or school), count=N (school), view=top|perspective,
// yaw, pitch, paused=1, tool=obstacle|predator|target, each slider by its field name, and the
// clicks so far (drops=tool:x,y,z;... with the step each happened at). Also warm=N (steps before
// the first frame) and test=N (the headless test: see runTest).

import { loadBoids, PRESETS, PlaneLock, BoundsKind, ObstacleKind, RelationKind } from './boids.mjs';
import { SLIDERS, schoolSetup, toScenarioToml, toCSharp } from './export.mjs';
import { createRenderer, camera, unproject, faceNormals } from './render.mjs';

const DT = Math.fround(1 / 60);
const SEED = 1;
const COLOURS = ['#4fc3f7', '#ffb74d', '#aed581', '#f06292'];
const RGB = COLOURS.map((c) => [1, 3, 5].map((k) => parseInt(c.slice(k, k + 2), 16) / 255));

const $ = (id) => document.getElementById(id);
const canvas = $('view');
const query = new URLSearchParams(location.search);
// WebGL2 when the browser has it (software GL in a headless browser too); else a 2-D canvas.
let renderer = null;
try {
  renderer = query.get('gl') === '0' ? null : createRenderer(canvas);
} catch (e) {
  console.warn(`WebGL2 unavailable (${e.message}): drawing on a 2-D canvas`);
}
const ctx = renderer ? null : canvas.getContext('2d');
const errors = [];
window.addEventListener('error', (e) => errors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => errors.push(String(e.reason)));
const consoleError = console.error.bind(console);
console.error = (...a) => { errors.push(a.map(String).join(' ')); consoleError(...a); };

const num = (name, fallback) => (query.has(name) && Number.isFinite(Number(query.get(name))) ? Number(query.get(name)) : fallback);
const ui = {
  preset: query.get('preset') ?? 'shark',
  count: Math.min(Math.max(Math.round(num('count', 6000)), 100), 100_000),
  view: query.get('view') ?? 'perspective',
  playing: query.get('paused') !== '1',
  yaw: num('yaw', 0.6),
  pitch: num('pitch', 0.45),
  tool: query.get('tool') ?? 'obstacle',
};
/** Slider values from the URL, applied over the preset's own after each build. */
const urlParams = {};
for (const [field] of SLIDERS) if (query.has(field) && Number.isFinite(Number(query.get(field)))) urlParams[field] = Number(query.get(field));
/** The clicks so far: `{ step, tool, at: [x, y, z] }`, replayed on a rebuild from the URL. */
let drops = parseDrops(query.get('drops') ?? '');

let boids;
let world = null;
let flocks = [];
let main = null;
let steps = 0;
let msAvg = 0;
let extent = { min: [-10, -10, -10], max: [10, 10, 10] };
/** The scene's size as built (what a click's rock and predator are scaled by: never the view,
 * which grows as it draws, so a URL's clicks replay the same whatever was drawn). */
let sceneSize = 1;
/** The world's faces (rocks, seabeds, boxes), read once a build: x, y, z, three points a
 * triangle; and each point's face normal, computed with them. */
let scene = new Float32Array(0);
let sceneNormals = new Float32Array(0);
let boundsShape = null;
let plane = 0;
let spheres = [];
let predator = null;
let frames = [];
let pending = [];

function showError(e) {
  $('error').textContent = e ? String(e.message ?? e) : '';
}

/** A new world for the picked preset (or the school), with the sliders set from its params
 * (and the URL's over them); the URL's clicks are replayed at their steps as it runs. */
function build() {
  showError(null);
  world?.destroy();
  world = boids.createWorld({ seed: SEED });
  if (ui.preset === 'school') {
    const s = schoolSetup(ui.count);
    main = world.createFlock('school', { bounds: s.bounds });
    main.spawn(ui.count, s.spawn);
  } else {
    main = world.createPreset(ui.preset, ui.preset);
  }
  if (Object.keys(urlParams).length) {
    try {
      main.setParams(urlParams);
    } catch (e) {
      showError(e);
    }
  }
  flocks = world.flocks();
  // The scene's own obstacles (the reef's rocks and seabed) do not move: read once, drawn
  // every frame.
  scene = world.sceneTriangles();
  sceneNormals = faceNormals(scene);
  renderer?.setScene(scene, sceneNormals);
  steps = 0;
  msAvg = 0;
  spheres = [];
  predator = null;
  pending = drops.slice();
  const p = main.getParams();
  plane = p.plane;
  boundsShape = p.bounds;
  const b = boundsExtent(p.bounds);
  extent = frameExtent(b, positionsExtent(b ? 0 : 0.5));
  sceneSize = Math.max(...extent.max.map((v, k) => v - extent.min[k]), 1);
  for (const [field] of SLIDERS) {
    const input = $(`slider-${field}`);
    input.value = p[field];
    $(`out-${field}`).textContent = Number(p[field]).toFixed(2);
  }
  // The count applies to the school only: a preset shows its own size, not the slider's.
  $('school-count').disabled = ui.preset !== 'school';
  $('school-count').value = ui.preset === 'school' ? ui.count : main.count;
  $('school-count-out').textContent = ui.preset === 'school' ? ui.count : `${main.count} (the preset's own)`;
  applyDrops();
  syncUrl();
}

/** The box the view frames: the bounds and the flock (soft bounds let boids out a little). */
function frameExtent(bounds, flock) {
  if (!bounds) return flock;
  return { min: bounds.min.map((v, k) => Math.min(v, flock.min[k])), max: bounds.max.map((v, k) => Math.max(v, flock.max[k])) };
}

function parseDrops(text) {
  return text.split(';').filter(Boolean).map((d) => {
    const [step, tool, xyz] = d.split(':');
    const at = (xyz ?? '').split(',').map(Number);
    return { step: Number(step), tool, at };
  }).filter((d) => Number.isInteger(d.step) && ['obstacle', 'predator', 'target'].includes(d.tool) && d.at.length === 3 && d.at.every(Number.isFinite));
}

/** The URL of the page's state (replaced in place, so the history stays one entry). */
function stateQuery() {
  const q = new URLSearchParams();
  q.set('preset', ui.preset);
  if (ui.preset === 'school') q.set('count', ui.count);
  q.set('view', ui.view);
  if (ui.view === 'perspective') {
    q.set('yaw', ui.yaw.toFixed(3));
    q.set('pitch', ui.pitch.toFixed(3));
  }
  if (!ui.playing) q.set('paused', '1');
  q.set('tool', ui.tool);
  for (const [field, v] of Object.entries(urlParams)) q.set(field, String(v));
  if (drops.length) q.set('drops', drops.map((d) => `${d.step}:${d.tool}:${d.at.map((v) => Number(v.toFixed(3))).join(',')}`).join(';'));
  return q;
}

function syncUrl() {
  const q = stateQuery();
  for (const keep of ['test', 'warm', 'gl', 'replay', 'frames']) if (query.has(keep)) q.set(keep, query.get(keep));
  history.replaceState(null, '', `${location.pathname}?${q}`);
}

/** Clicks due at this step, in the order they were made. */
function applyDrops() {
  while (pending.length && pending[0].step <= steps) drop(pending.shift());
}

/** One click's effect: an obstacle, a predator, or the flock's target, at `at`. */
function drop({ tool, at }) {
  const size = sceneSize;
  const [x, y, z] = at;
  if (tool === 'obstacle') {
    const radius = size * 0.05;
    world.addObstacle({ shape: ObstacleKind.SPHERE, a: at, radius });
    spheres.push(x, y, z, radius);
    const p = main.getParams();
    // A flock that ignores obstacles (some tutorials had none) now steers around them.
    if (p.obstacle_avoidance === 0 || p.weight_obstacles === 0 || p.look_ahead <= 0) {
      main.setParams({ obstacle_avoidance: 1, weight_obstacles: Math.max(p.weight_obstacles, 10), look_ahead: Math.max(p.look_ahead, size * 0.08) });
    }
  } else if (tool === 'predator') {
    const p = main.getParams();
    if (!predator) {
      predator = world.createFlock('predator', {
        bounds: p.bounds, plane: p.plane, min_speed: p.max_speed * 0.6, max_speed: p.max_speed * 1.1,
        perception_radius: p.perception_radius, weight_separation: 1, weight_alignment: 0, weight_cohesion: 0,
      });
      world.setRelation(main, predator, RelationKind.FLEE, size * 0.12, 12);
      world.setRelation(predator, main, RelationKind.CHASE, size * 0.3, 6);
      flocks = world.flocks();
    }
    predator.spawn(1, { shape: 1, centre: { x, y, z }, radius: 1e-3, min_speed: p.max_speed * 0.6, max_speed: p.max_speed * 0.6 });
  } else {
    main.setParams({ has_target: 1, target_point: { x, y, z }, weight_target: Math.max(main.getParams().weight_target, 2) });
  }
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

/** Where the flocks are (unpadded with `pad` 0). */
function positionsExtent(pad = 0.5) {
  const p = main.positions();
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], p[i + k]);
      max[k] = Math.max(max[k], p[i + k]);
    }
  }
  const margin = Math.max(...max.map((v, k) => v - min[k]), 2) * pad;
  return { min: min.map((v) => v - margin), max: max.map((v) => v + margin) };
}

function step() {
  const t0 = performance.now();
  world.step(DT);
  const ms = performance.now() - t0;
  msAvg = steps === 0 ? ms : msAvg * 0.9 + ms * 0.1;
  steps++;
  applyDrops();
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

/** The bounds' outline as line ends: the box's 12 edges, or a sphere's 3 great circles. */
function boundsLines() {
  const out = [];
  const b = boundsShape;
  if (b && b.kind === BoundsKind.SOFT_SPHERE) {
    const c = [b.centre.x, b.centre.y, b.centre.z];
    const axes = plane === PlaneLock.XY ? [[0, 1]] : plane === PlaneLock.XZ ? [[0, 2]] : [[0, 1], [0, 2], [1, 2]];
    for (const [i, j] of axes) {
      for (let k = 0; k < 64; k++) {
        for (const t of [k, k + 1]) {
          const p = c.slice();
          p[i] += b.radius * Math.cos((t / 64) * 2 * Math.PI);
          p[j] += b.radius * Math.sin((t / 64) * 2 * Math.PI);
          out.push(...p);
        }
      }
    }
    return new Float32Array(out);
  }
  const box = boundsExtent(b) ?? extent;
  const [a, c] = [box.min, box.max];
  const corner = (k) => [k & 1 ? c[0] : a[0], k & 2 ? c[1] : a[1], k & 4 ? c[2] : a[2]];
  for (const [i, j] of [[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]]) {
    out.push(...corner(i), ...corner(j));
  }
  return new Float32Array(out);
}

function fitCanvas() {
  const dpr = Math.min(window.devicePixelRatio || 1, 2);
  const w = Math.round(canvas.clientWidth * dpr);
  const h = Math.round(canvas.clientHeight * dpr);
  if (w > 0 && h > 0 && (canvas.width !== w || canvas.height !== h)) {
    canvas.width = w;
    canvas.height = h;
  }
}

function currentCamera() {
  return camera(ui.view, extent, canvas.width, canvas.height, ui.yaw, ui.pitch, plane === PlaneLock.XY);
}

function draw(noScene = false) {
  fitCanvas();
  // Soft bounds let boids out (the 2-D tutorial's stay-in-radius force starts at 90 % of the
  // radius): the view grows to keep every boid in it.
  if (steps % 30 === 0 && main.count > 0) extent = frameExtent(extent, positionsExtent(0.05));
  if (renderer) {
    const size = Math.max(...extent.max.map((v, k) => v - extent.min[k]), 1);
    let total = 0;
    const list = flocks.map((flock, f) => {
      const positions = flock.positions();
      const velocities = flock.velocities();
      total += positions.length / 3;
      const few = positions.length / 3 < 50;
      return { positions, velocities, colour: RGB[f % RGB.length], size: size * (few ? 0.03 : 0.012) * (flock === predator ? 1.4 : 1) };
    });
    renderer.draw(currentCamera(), list, boundsLines(), new Float32Array(spheres), noScene);
    showStatus(total);
    return;
  }
  draw2d();
}

function showStatus(total) {
  $('steps').textContent = steps;
  $('count').textContent = total;
  $('ms').textContent = steps && msAvg > 0 ? msAvg.toFixed(3) : '-';
  $('hash').textContent = world.stateHashHex();
  const fps = frames.length > 1 ? ((frames.length - 1) * 1000) / (frames[frames.length - 1] - frames[0]) : 0;
  $('fps').textContent = fps ? fps.toFixed(0) : '-';
}

function draw2d() {
  ctx.fillStyle = '#0a0f14';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const project = projector();
  // The bounds box's outline, for scale.
  ctx.strokeStyle = '#1f2a36';
  ctx.lineWidth = 1;
  const { min: a, max: b } = boundsExtent(boundsShape) ?? extent;
  const corners = [];
  for (let k = 0; k < 8; k++) corners.push(project(k & 1 ? b[0] : a[0], k & 2 ? b[1] : a[1], k & 4 ? b[2] : a[2]));
  ctx.beginPath();
  for (const [i, j] of [[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]]) {
    if (!corners[i] || !corners[j]) continue;
    ctx.moveTo(corners[i][0], corners[i][1]);
    ctx.lineTo(corners[j][0], corners[j][1]);
  }
  ctx.stroke();
  // The scene's faces, far ones first, lit from above on either side.
  const tris = [];
  for (let i = 0; i + 8 < scene.length; i += 9) {
    const a = project(scene[i], scene[i + 1], scene[i + 2]);
    const b = project(scene[i + 3], scene[i + 4], scene[i + 5]);
    const c = project(scene[i + 6], scene[i + 7], scene[i + 8]);
    if (a && b && c) tris.push([a[2] + b[2] + c[2], a, b, c, i]);
  }
  if (tris.length) {
    tris.sort((x, y) => x[0] - y[0]);
    for (const [, a, b, c, i] of tris) {
      const lit = 0.35 + 0.65 * Math.abs(sceneNormals[i] * 0.27 + sceneNormals[i + 1] * 0.9 + sceneNormals[i + 2] * 0.4);
      ctx.fillStyle = `rgb(${Math.round(140 * lit)}, ${Math.round(120 * lit)}, ${Math.round(92 * lit)})`;
      ctx.beginPath();
      ctx.moveTo(a[0], a[1]);
      ctx.lineTo(b[0], b[1]);
      ctx.lineTo(c[0], c[1]);
      ctx.closePath();
      ctx.fill();
    }
  }
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
  ctx.fillStyle = '#5c6b80';
  for (let i = 0; i < spheres.length; i += 4) {
    const s = project(spheres[i], spheres[i + 1], spheres[i + 2]);
    if (!s) continue;
    ctx.beginPath();
    ctx.arc(s[0], s[1], Math.max(spheres[i + 3] * s[2], 2), 0, 2 * Math.PI);
    ctx.fill();
  }
  showStatus(total);
}

function frame(now) {
  frames.push(now);
  while (frames.length > 61) frames.shift();
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
  // A new scene starts from the preset's own settings, with no clicks.
  const fresh = () => {
    for (const k of Object.keys(urlParams)) delete urlParams[k];
    drops = [];
    build();
  };
  $('preset').value = ui.preset;
  $('preset').addEventListener('change', () => { ui.preset = $('preset').value; fresh(); });
  $('school-count').value = ui.count;
  $('school-count-out').textContent = ui.count;
  // Rebuilding per input event of a drag would rebuild a 100,000-boid world many times: on
  // release (change) only; the number follows the drag.
  $('school-count').addEventListener('input', () => { $('school-count-out').textContent = $('school-count').value; });
  $('school-count').addEventListener('change', () => {
    ui.count = Number($('school-count').value);
    drops = [];
    build();
  });
  $('projection').value = ui.view;
  $('projection').addEventListener('change', () => { ui.view = $('projection').value; syncUrl(); });
  $('tool').value = ui.tool;
  $('tool').addEventListener('change', () => { ui.tool = $('tool').value; syncUrl(); });
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
        urlParams[field] = value;
        syncUrl();
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
    syncUrl();
  });
  $('step').addEventListener('click', () => { ui.playing = false; $('play').textContent = 'Play'; step(); syncUrl(); });
  $('reset').addEventListener('click', () => { drops = []; build(); });
  $('export-toml').addEventListener('click', () => { $('export').value = toScenarioToml(exportState()); });
  $('export-cs').addEventListener('click', () => { $('export').value = toCSharp(exportState()); });
  // A drag turns the perspective view; a click (or tap) that hardly moves drops the tool's
  // thing where it lands on the flock's middle plane.
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY, moved: 0 };
    canvas.setPointerCapture?.(e.pointerId);
  });
  canvas.addEventListener('pointerup', (e) => {
    if (drag && drag.moved < 6) clickAt(e.offsetX, e.offsetY);
    else syncUrl();
    drag = null;
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const [dx, dy] = [e.clientX - drag.x, e.clientY - drag.y];
    drag.moved += Math.abs(dx) + Math.abs(dy);
    if (ui.view === 'perspective' && drag.moved >= 6) {
      ui.yaw -= dx * 0.01;
      ui.pitch = Math.max(-1.4, Math.min(1.4, ui.pitch + dy * 0.01));
    }
    drag.x = e.clientX;
    drag.y = e.clientY;
  });
}

/** A click at CSS pixel (x, y) of the canvas: the tool's thing there, from the next step on
 * (recorded in the URL with that step, so the link replays it). */
function clickAt(x, y) {
  const scale = canvas.width / Math.max(canvas.clientWidth, 1);
  const at = unproject(currentCamera(), x * scale, y * scale, canvas.width, canvas.height);
  if (!at || !at.every(Number.isFinite)) return false;
  // As the URL writes it: three decimals, and + 0 (a -0 would be written "0", and the state
  // hash, which covers the obstacle's bits, would then differ on a replay).
  const d = { step: steps, tool: ui.tool, at: at.map((v) => Number(v.toFixed(3)) + 0) };
  drops.push(d);
  drop(d);
  syncUrl();
  return true;
}

/** Pixels of the canvas that are not the background. */
function litPixels() {
  let img;
  if (renderer) {
    const gl = canvas.getContext('webgl2');
    img = new Uint8Array(canvas.width * canvas.height * 4);
    gl.readPixels(0, 0, canvas.width, canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, img);
  } else {
    img = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  }
  let lit = 0;
  for (let i = 0; i < img.length; i += 4) if (img[i] + img[i + 1] + img[i + 2] > 120) lit++;
  return lit;
}

/**
 * The headless test (scripts/check-web): `n` steps, a frame drawn, the hash; then from a save
 * of that state, 30 more steps as they are and 30 after moving the perception slider, through
 * its input event as a user's drag fires it; then a click on the canvas (the obstacle tool,
 * through pointer events as a user's click fires them), and the page's URL at that point with
 * the hash 60 steps later, which a second load of that URL (`replay=60`) must reproduce. The
 * result goes into #test-result as JSON.
 */
function runTest(n) {
  for (let i = 0; i < n; i++) step();
  draw();
  const result = { steps: steps, hash: world.stateHashHex(), count: main.count, lit: litPixels(), renderer: renderer ? 'webgl2' : '2d' };
  // What the page shows beside the flock's own settings: the field-of-view slider's position
  // and the school-size label.
  // The scene's faces drawn: how many, and how many pixels the frame loses without them.
  result.sceneTriangles = scene.length / 9;
  draw(true);
  result.scenePixels = result.lit - litPixels();
  draw();
  result.fov = main.getParams().fov_half_angle_deg;
  result.fovSlider = Number($('slider-fov_half_angle_deg').value);
  result.schoolLabel = $('school-count-out').textContent;
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
  // A click: from the URL's scene at step 0 (the slider's value kept), the obstacle tool at
  // the canvas's centre.
  drops = [];
  build();
  draw();
  ui.tool = 'obstacle';
  const r = canvas.getBoundingClientRect();
  const at = { clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, pointerId: 1, bubbles: true };
  canvas.dispatchEvent(new PointerEvent('pointerdown', at));
  canvas.dispatchEvent(new PointerEvent('pointerup', at));
  result.obstacles = spheres.length / 4;
  result.url = stateQuery().toString();
  for (let i = 0; i < 60; i++) step();
  result.replayHash = world.stateHashHex();
  draw();
  result.errors = errors;
  $('test-result').textContent = JSON.stringify(result);
  document.title = 'test done';
}

/** `replay=N`: the scene the URL describes, N steps on; its hash (scripts/check-web). */
function runReplay(n) {
  for (let i = 0; i < n; i++) step();
  draw();
  $('test-result').textContent = JSON.stringify({ steps, hash: world.stateHashHex(), obstacles: spheres.length / 4, errors });
  document.title = 'test done';
}

/** `frames=F`: F animation frames as a user sees them (a step and a draw each), timed: the
 * frame rate, and the step's and the draw's milliseconds (scripts/check-web reports them). */
function runFrames(count) {
  const stepMs = [];
  const drawMs = [];
  const stamps = [];
  const tick = (now) => {
    stamps.push(now);
    const t0 = performance.now();
    world.step(DT);
    steps++;
    const t1 = performance.now();
    draw();
    if (renderer) canvas.getContext('webgl2').finish();
    const t2 = performance.now();
    stepMs.push(t1 - t0);
    drawMs.push(t2 - t1);
    if (stamps.length < count) {
      requestAnimationFrame(tick);
      return;
    }
    const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
    const fps = ((stamps.length - 1) * 1000) / (stamps[stamps.length - 1] - stamps[0]);
    $('test-result').textContent = JSON.stringify({
      boids: main.count, frames: stamps.length, fps, stepMs: median(stepMs), drawMs: median(drawMs),
      renderer: renderer ? 'webgl2' : '2d', errors,
    });
    document.title = 'test done';
  };
  requestAnimationFrame(tick);
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
    if (Number(query.get('replay') ?? 0) > 0) {
      runReplay(Number(query.get('replay')));
      return;
    }
    if (Number(query.get('frames') ?? 0) > 0) {
      runFrames(Number(query.get('frames')));
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
