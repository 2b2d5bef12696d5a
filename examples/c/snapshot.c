/* A snapshot test in C (docs/snapshot-testing.md): run a preset, write its trajectory as CSV
 * for a diff, and compare the exact state hash and the rounded digest with pinned values.
 * Exits 1 when the behaviour changed. */
#include "boids.h"

#include <stdio.h>
#include <stdlib.h>

#define PINNED_STATE_HASH 0x9f7cf49a81c20410ULL /* exact: any thread count, any CPU */
#define PINNED_DIGEST 0x0cbe5d962a3a3bfbULL     /* 6 significant digits: across compilers, OSes */

int main(void) {
    BoidsWorldDef wdef = boids_default_world_def();
    wdef.seed = 7;
    BoidsWorldId world;
    BoidsFlockId bees;
    if (boids_world_create(&wdef, &world) != BOIDS_RESULT_OK ||
        boids_flock_create_preset(world, "goal-swarm", "bees", &bees) != BOIDS_RESULT_OK) {
        fprintf(stderr, "setup: %s\n", boids_last_error_message());
        return 2;
    }
    FILE *csv = fopen("bees.csv", "w");
    if (!csv) return 2;
    fprintf(csv, "step,id,x,y,z\n");
    BoidsVec3 pos[64];
    uint32_t ids[64];
    size_t n = 0;
    for (int step = 0; step <= 180; ++step) {
        if (step > 0) boids_world_step(world, 1.0f / 60.0f);
        if (step % 60 != 0) continue;
        boids_flock_read_ids(bees, ids, 64, &n);
        boids_flock_read_positions(bees, pos, 64, &n);
        for (size_t i = 0; i < n; ++i)
            fprintf(csv, "%d,%u,%.6g,%.6g,%.6g\n", step, ids[i], pos[i].x, pos[i].y, pos[i].z);
    }
    fclose(csv);

    uint64_t hash = 0, digest = 0;
    boids_world_state_hash(world, &hash);
    boids_world_rounded_digest(world, 6, &digest);
    boids_world_destroy(world);
    printf("state hash %016llx, rounded digest %016llx (bees.csv: 4 samples of %zu bees)\n",
           (unsigned long long)hash, (unsigned long long)digest, n);
    if (hash != PINNED_STATE_HASH || digest != PINNED_DIGEST) {
        fprintf(stderr, "the bees changed their behaviour: diff bees.csv with the last good run\n");
        return 1;
    }
    return 0;
}
