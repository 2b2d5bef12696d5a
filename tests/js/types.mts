// A TypeScript user of bindings/js/boids.d.mts: compiled by scripts/test with
// `tsc --strict --noEmit` (never run). It fails to compile if a declaration goes missing or
// changes its type; the @ts-expect-error lines fail if a wrong use stops being an error.
import { loadBoids, BoidsError, PRESETS, BoundsKind, ObstacleKind, RelationKind, type FlockParams } from '../../bindings/js/boids.mjs';

export async function demo(bytes: Uint8Array): Promise<string> {
  const lib = await loadBoids(bytes);
  const world = lib.createWorld({ seed: 7n });
  const preset: (typeof PRESETS)[number] = 'shark';
  const shark = world.createPreset(preset);
  const school = world.createFlock('school', {
    perception_radius: 2,
    bounds: { kind: BoundsKind.SOFT_BOX, min: { x: 0, y: 0, z: 0 }, max: { x: 10, y: 10, z: 10 } },
  });
  const spawned: number = school.spawn(500, { min_speed: 2, max_speed: 5 });
  world.setRelation(school, shark, RelationKind.FLEE, 4, 2);
  world.addObstacle({ shape: ObstacleKind.SPHERE, a: [5, 5, 5], radius: 1 });
  const params: FlockParams = school.getParams();
  school.setParams({ weight_cohesion: params.weight_cohesion * 2 });
  world.stepBegin(1 / 60);
  const before: Float32Array = school.positions();
  world.stepEnd();
  const matrices: Float32Array = school.matrices(0.5);
  const ids: Uint32Array = school.ids();
  try {
    world.step(0);
  } catch (e) {
    if (e instanceof BoidsError && e.result === 'INVALID_ARGUMENT') console.log(e.detail);
  }
  const saved: Uint8Array = world.save();
  const again = lib.loadWorld(saved);
  const hash: bigint = again.stateHash();
  // @ts-expect-error: a world's step takes seconds, not a string
  world.step('1/60');
  // @ts-expect-error: no such field in FlockParams
  school.setParams({ perception: 2 });
  world.destroy();
  again.destroy();
  return `${spawned} ${before.length} ${matrices.length} ${ids.length} ${hash}`;
}
