/*
 * A world, a flock of 10,000 fish, 600 frames at 60 Hz, positions and instance matrices read
 * back every frame as a renderer would, then a summary. Build: see the README's C quick start.
 */
#include "boids.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHECK(call)                                                                   \
    do {                                                                              \
        BoidsResult r_ = (call);                                                      \
        if (r_ != BOIDS_RESULT_OK) {                                                  \
            fprintf(stderr, "%s failed: %s (%s)\n", #call, boids_result_str(r_),      \
                    boids_last_error_message());                                      \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

static double now_ms(void) {
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    enum { N = 10000 };
    /* Optional argument: frames to run (600 by default; the test script uses fewer under valgrind). */
    int FRAMES = argc > 1 ? atoi(argv[1]) : 600;
    if (FRAMES <= 0) FRAMES = 600;
    if (boids_abi_version() != BOIDS_ABI_VERSION) {
        fprintf(stderr, "library ABI %u, header ABI %u\n", boids_abi_version(), BOIDS_ABI_VERSION);
        return 1;
    }

    BoidsWorldDef wdef = boids_default_world_def();
    wdef.seed = 42;
    BoidsWorldId world;
    CHECK(boids_world_create(&wdef, &world));

    BoidsFlockDef fdef = boids_default_flock_def();
    fdef.name = "fish";
    fdef.params.bounds.kind = BOIDS_BOUNDS_SOFT_BOX;
    fdef.params.bounds.min = (BoidsVec3){-20.0f, -20.0f, -20.0f};
    fdef.params.bounds.max = (BoidsVec3){20.0f, 20.0f, 20.0f};
    BoidsFlockId fish;
    CHECK(boids_flock_create(world, &fdef, &fish));

    BoidsSpawnDef spawn = boids_default_spawn_def();
    spawn.min = (BoidsVec3){-15.0f, -15.0f, -15.0f};
    spawn.max = (BoidsVec3){15.0f, 15.0f, 15.0f};
    uint32_t first_id;
    CHECK(boids_flock_spawn(fish, N, &spawn, &first_id));

    BoidsVec3 *positions = malloc(sizeof(BoidsVec3) * N);
    BoidsMat4 *matrices = malloc(sizeof(BoidsMat4) * N);
    if (!positions || !matrices) return 1;

    double start = now_ms();
    size_t count = 0;
    for (int frame = 0; frame < FRAMES; ++frame) {
        CHECK(boids_world_step(world, 1.0f / 60.0f));
        CHECK(boids_flock_read_positions(fish, positions, N, &count));
        CHECK(boids_flock_read_matrices(fish, 1.0f, matrices, N, &count));
    }
    double ms = (now_ms() - start) / FRAMES;

    double cx = 0, cy = 0, cz = 0, speed = 0;
    BoidsVec3 *velocities = malloc(sizeof(BoidsVec3) * N);
    if (!velocities) return 1;
    CHECK(boids_flock_read_velocities(fish, velocities, N, &count));
    for (size_t i = 0; i < count; ++i) {
        cx += positions[i].x;
        cy += positions[i].y;
        cz += positions[i].z;
        speed += sqrt((double)velocities[i].x * velocities[i].x +
                      (double)velocities[i].y * velocities[i].y +
                      (double)velocities[i].z * velocities[i].z);
    }
    uint64_t hash;
    CHECK(boids_world_state_hash(world, &hash));
    printf("boids %s (ABI %u): %zu fish, %d frames, %.3f ms/frame (step + read positions + matrices)\n",
           boids_version(), boids_abi_version(), count, FRAMES, ms);
    printf("centre (%.2f, %.2f, %.2f), mean speed %.3f, state hash %016llx\n", cx / count,
           cy / count, cz / count, speed / count, (unsigned long long)hash);

    /* A mistake is an error code and a sentence, never a crash. */
    BoidsResult r = boids_world_step(world, -1.0f);
    printf("step(-1): %s: %s\n", boids_result_str(r), boids_last_error_message());

    CHECK(boids_flock_destroy(fish));
    CHECK(boids_world_destroy(world));
    free(positions);
    free(matrices);
    free(velocities);
    return 0;
}
