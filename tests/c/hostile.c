/*
 * Hostile input from C, run under valgrind memcheck by scripts/test: NULLs, stale and forged
 * ids, double destroys, NaN, too-small and zero-size buffers, huge counts. Every call must return
 * its documented code, never crash, never touch freed memory. Exit 0 only if all did.
 */
#include "boids.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

#define EXPECT(call, code)                                                                  \
    do {                                                                                    \
        BoidsResult r_ = (call);                                                            \
        if (r_ != (code)) {                                                                 \
            fprintf(stderr, "FAIL %s:%d: %s returned %s, expected %s (%s)\n", __FILE__,       \
                    __LINE__, #call, boids_result_str(r_), boids_result_str(code),           \
                    boids_last_error_message());                                            \
            failures++;                                                                     \
        }                                                                                   \
    } while (0)

int main(void) {
    BoidsWorldDef wdef = boids_default_world_def();
    BoidsWorldId world, dead_world;
    EXPECT(boids_world_create(NULL, &world), BOIDS_RESULT_NULL_POINTER);
    EXPECT(boids_world_create(&wdef, NULL), BOIDS_RESULT_NULL_POINTER);
    BoidsWorldDef forged;
    memset(&forged, 0, sizeof forged);
    EXPECT(boids_world_create(&forged, &world), BOIDS_RESULT_INVALID_DEF);
    EXPECT(boids_world_create(&wdef, &world), BOIDS_RESULT_OK);
    EXPECT(boids_world_create(&wdef, &dead_world), BOIDS_RESULT_OK);
    EXPECT(boids_world_destroy(dead_world), BOIDS_RESULT_OK);
    EXPECT(boids_world_destroy(dead_world), BOIDS_RESULT_INVALID_ID);
    EXPECT(boids_world_step(dead_world, 0.016f), BOIDS_RESULT_INVALID_ID);
    BoidsWorldId null_world = {0, 0};
    EXPECT(boids_world_step(null_world, 0.016f), BOIDS_RESULT_INVALID_ID);
    EXPECT(boids_world_step(world, 0.0f), BOIDS_RESULT_INVALID_ARGUMENT);
    EXPECT(boids_world_step(world, NAN), BOIDS_RESULT_INVALID_ARGUMENT);
    EXPECT(boids_world_step(world, INFINITY), BOIDS_RESULT_INVALID_ARGUMENT);

    BoidsFlockDef fdef = boids_default_flock_def();
    BoidsFlockId flock, gone;
    EXPECT(boids_flock_create(world, &fdef, &flock), BOIDS_RESULT_NULL_POINTER); /* no name */
    fdef.name = "fish";
    fdef.params.perception_radius = NAN;
    EXPECT(boids_flock_create(world, &fdef, &flock), BOIDS_RESULT_INVALID_ARGUMENT);
    fdef.params = boids_default_flock_params();
    EXPECT(boids_flock_create(world, &fdef, &flock), BOIDS_RESULT_OK);
    fdef.name = "gone";
    EXPECT(boids_flock_create(world, &fdef, &gone), BOIDS_RESULT_OK);
    EXPECT(boids_flock_destroy(gone), BOIDS_RESULT_OK);
    EXPECT(boids_flock_destroy(gone), BOIDS_RESULT_INVALID_ID);

    BoidsSpawnDef spawn = boids_default_spawn_def();
    uint32_t first = 0;
    EXPECT(boids_flock_spawn(flock, UINT32_MAX, &spawn, &first), BOIDS_RESULT_INVALID_ARGUMENT);
    EXPECT(boids_flock_spawn(flock, 500, &spawn, &first), BOIDS_RESULT_OK);
    EXPECT(boids_flock_spawn(gone, 5, &spawn, &first), BOIDS_RESULT_INVALID_ID);

    BoidsVec3 small[10];
    size_t count = 0;
    EXPECT(boids_flock_read_positions(flock, small, 10, &count), BOIDS_RESULT_BUFFER_TOO_SMALL);
    if (count != 500) { fprintf(stderr, "FAIL: size needed %zu\n", count); failures++; }
    EXPECT(boids_flock_read_positions(flock, NULL, 0, &count), BOIDS_RESULT_BUFFER_TOO_SMALL);
    EXPECT(boids_flock_read_positions(flock, NULL, 500, &count), BOIDS_RESULT_NULL_POINTER);
    EXPECT(boids_flock_read_positions(flock, small, 10, NULL), BOIDS_RESULT_NULL_POINTER);
    BoidsVec3 nan3 = {NAN, 0.0f, 0.0f};
    EXPECT(boids_flock_add_boids(flock, &nan3, &nan3, 1, &first), BOIDS_RESULT_INVALID_ARGUMENT);
    EXPECT(boids_flock_add_boids(flock, small, small, (size_t)-1, &first), BOIDS_RESULT_INVALID_ARGUMENT);
    EXPECT(boids_flock_write_positions(flock, small, 10), BOIDS_RESULT_INVALID_ARGUMENT);
    uint32_t unknown = 123456;
    size_t removed = 0;
    EXPECT(boids_flock_remove_boids(flock, &unknown, 1, &removed), BOIDS_RESULT_INVALID_ARGUMENT);
    EXPECT(boids_flock_set_target(flock, nan3), BOIDS_RESULT_INVALID_ARGUMENT);

    BoidsObstacleId obstacle;
    /* A def made by hand (not from boids_default_obstacle_def) is refused as such. */
    BoidsObstacleDef handmade;
    memset(&handmade, 0, sizeof handmade);
    handmade.shape = BOIDS_OBSTACLE_SPHERE;
    handmade.radius = 1.0f;
    EXPECT(boids_obstacle_add(world, &handmade, &obstacle), BOIDS_RESULT_INVALID_DEF);
    BoidsObstacleDef odef = boids_default_obstacle_def();
    odef.shape = BOIDS_OBSTACLE_SPHERE;
    odef.radius = -1.0f;
    EXPECT(boids_obstacle_add(world, &odef, &obstacle), BOIDS_RESULT_INVALID_ARGUMENT);
    odef.radius = 1.0f;
    EXPECT(boids_obstacle_add(world, &odef, &obstacle), BOIDS_RESULT_OK);
    EXPECT(boids_obstacle_remove(obstacle), BOIDS_RESULT_OK);
    EXPECT(boids_obstacle_remove(obstacle), BOIDS_RESULT_INVALID_ID);

    for (int i = 0; i < 5; ++i) EXPECT(boids_world_step(world, 1.0f / 60.0f), BOIDS_RESULT_OK);
    EXPECT(boids_world_destroy(world), BOIDS_RESULT_OK);
    /* Everything that referred to the world is now stale, not dangling. */
    EXPECT(boids_flock_read_positions(flock, small, 10, &count), BOIDS_RESULT_INVALID_ID);
    EXPECT(boids_flock_destroy(flock), BOIDS_RESULT_INVALID_ID);
    EXPECT(boids_world_destroy(world), BOIDS_RESULT_INVALID_ID);
    if (boids_world_is_valid(world) != 0) { fprintf(stderr, "FAIL: world still valid\n"); failures++; }

    printf("C hostile input: %d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
