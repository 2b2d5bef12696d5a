// The playground's settings as text a user takes away: a scenario file for `boids run --scenario`
// (docs/scenario.md) and C# for the Unity package. Pure functions of the page's state, so the
// tests (tests/js/web.test.mjs) run their output through the `boids` command and check the
// world it builds has the page's bits.

/** The sliders of the page: [params field, label, min, max, step]. */
export const SLIDERS = [
  ['perception_radius', 'Perception radius', 0.1, 10, 0.1],
  ['fov_half_angle_deg', 'Field of view (half-angle, degrees)', 0, 360, 1],
  ['weight_separation', 'Separation weight', 0, 20, 0.1],
  ['weight_alignment', 'Alignment weight', 0, 20, 0.1],
  ['weight_cohesion', 'Cohesion weight', 0, 20, 0.1],
  ['min_speed', 'Min speed', 0, 20, 0.1],
  ['max_speed', 'Max speed', 0.1, 30, 0.1],
];

/** Where each slider's field goes in a scenario file's `[flock.params]`. */
const TOML_KEYS = {
  perception_radius: ['', 'perception_radius'],
  fov_half_angle_deg: ['', 'fov_half_angle_deg'],
  weight_separation: ['weights', 'separation'],
  weight_alignment: ['weights', 'alignment'],
  weight_cohesion: ['weights', 'cohesion'],
  min_speed: ['', 'min_speed'],
  max_speed: ['', 'max_speed'],
};

/** The C# `FlockSettings` property of each slider's field. */
const CS_PROPERTIES = {
  perception_radius: 'PerceptionRadius',
  fov_half_angle_deg: 'FovHalfAngleDegrees',
  weight_separation: 'SeparationWeight',
  weight_alignment: 'AlignmentWeight',
  weight_cohesion: 'CohesionWeight',
  min_speed: 'MinSpeed',
  max_speed: 'MaxSpeed',
};

/** A float as TOML and C# write it: the shortest text that reads back as the same f32. */
export function f32Text(v) {
  const f = Math.fround(v);
  for (let digits = 1; digits <= 9; digits++) {
    const s = f.toPrecision(digits);
    if (Math.fround(Number(s)) === f) {
      const n = Number(s);
      return Number.isInteger(n) ? n.toFixed(1) : String(n);
    }
  }
  return String(f);
}

/** The school: the benchmark scenario's set-up (docs: shared bench scenario), `count` boids in
 * a cube of side `side` with soft walls, speeds 2..5. */
export function schoolSetup(count) {
  // The cube that holds ~25 boids within radius 1 of each other, as `boids bench` sizes it.
  const side = Math.fround(Math.cbrt(count / (25 / ((4 / 3) * Math.PI))));
  return {
    side,
    bounds: { kind: 1, min: { x: 0, y: 0, z: 0 }, max: { x: side, y: side, z: side }, distance: 3 },
    spawn: { shape: 0, min: { x: 0, y: 0, z: 0 }, max: { x: side, y: side, z: side }, min_speed: 2, max_speed: 5 },
  };
}

/**
 * A scenario file that builds the page's world: `state` is { kind: 'preset' | 'school',
 * preset, flockName, seed, dt, count (school), params (the slider fields' values) }.
 */
export function toScenarioToml(state) {
  const lines = [
    '# The boids playground\'s settings: boids run --scenario FILE (schema: docs/scenario.md).',
    `seed = ${state.seed}`,
    `dt = ${f32Text(state.dt)}`,
    '',
    '[[flock]]',
    `name = ${JSON.stringify(state.flockName)}`,
  ];
  const school = state.kind === 'school' ? schoolSetup(state.count) : null;
  const v = (p) => `[${f32Text(p.x)}, ${f32Text(p.y)}, ${f32Text(p.z)}]`;
  if (school) {
    lines.push(`count = ${state.count}`, '', '[flock.spawn]', 'shape = "box"', `min = ${v(school.spawn.min)}`,
      `max = ${v(school.spawn.max)}`, `min_speed = ${f32Text(school.spawn.min_speed)}`,
      `max_speed = ${f32Text(school.spawn.max_speed)}`);
  } else {
    lines.push(`preset = ${JSON.stringify(state.preset)}`);
  }
  const top = [];
  const weights = [];
  for (const [field] of SLIDERS) {
    if (!(field in state.params)) continue;
    const [table, key] = TOML_KEYS[field];
    (table === 'weights' ? weights : top).push(`${key} = ${f32Text(state.params[field])}`);
  }
  lines.push('', '[flock.params]', ...top);
  if (weights.length) lines.push('', '[flock.params.weights]', ...weights);
  if (school) {
    lines.push('', '[flock.params.bounds]', 'kind = "soft-box"', `min = ${v(school.bounds.min)}`,
      `max = ${v(school.bounds.max)}`, `distance = ${f32Text(school.bounds.distance)}`);
  }
  return lines.join('\n') + '\n';
}

/** C# for the Unity package that builds the page's world (namespace BoidsFlocking). */
export function toCSharp(state) {
  const lines = ['// The boids playground\'s settings for the Unity package (namespace BoidsFlocking).',
    `var world = new BoidsWorld(seed: ${state.seed});`];
  const school = state.kind === 'school' ? schoolSetup(state.count) : null;
  const v = (p) => `new Vec3(${f32Text(p.x)}f, ${f32Text(p.y)}f, ${f32Text(p.z)}f)`;
  if (school) {
    lines.push('var settings = new FlockSettings();',
      `settings.Bounds = FlockBounds.SoftBox(${v(school.bounds.min)}, ${v(school.bounds.max)}, ${f32Text(school.bounds.distance)}f);`);
  } else {
    lines.push(`BoidsFlock flock = world.CreatePreset(${JSON.stringify(state.preset)}, ${JSON.stringify(state.flockName)});`,
      'FlockSettings settings = flock.Settings;');
  }
  for (const [field] of SLIDERS) {
    if (field in state.params) lines.push(`settings.${CS_PROPERTIES[field]} = ${f32Text(state.params[field])}f;`);
  }
  if (school) {
    lines.push(`BoidsFlock flock = world.CreateFlock(${JSON.stringify(state.flockName)}, settings);`,
      `var spawn = SpawnSettings.Box(${v(school.spawn.min)}, ${v(school.spawn.max)});`,
      `spawn.MinSpeed = ${f32Text(school.spawn.min_speed)}f;`,
      `spawn.MaxSpeed = ${f32Text(school.spawn.max_speed)}f;`,
      `flock.Spawn(${state.count}, spawn);`);
  } else {
    lines.push('flock.Settings = settings;');
  }
  return lines.join('\n') + '\n';
}
