// A TypeScript program using the npm package by its name (scripts/test compiles it inside an
// empty project where the package's tarball was installed): the `exports` map and `types`
// resolve, and the declarations type what a user writes.
import { loadBoids, BoidsError, OUT_OF_MEMORY, type Flock } from '@boids/engine';
import { ObstacleKind } from '@boids/engine/enums';

const boids = await loadBoids();
const world = boids.createWorld({ seed: 1n });
const fish: Flock = world.createPreset('fish-tank', 'fish');
world.addObstacle({ shape: ObstacleKind.SPHERE, a: [0, 0, 0], radius: 1 });
const into = new Float32Array(fish.count * 3);
const n: number = fish.readPositions(into);
const last: Float32Array | null = fish.view('positions');
try {
  fish.spawn(1.5);
} catch (e) {
  if (e instanceof BoidsError && e.code !== OUT_OF_MEMORY) console.log(e.result, n, last?.length);
}
world.destroy();
