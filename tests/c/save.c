/* Exact save and restore through the C ABI: for every preset, a world saved at step 100 and
 * loaded continues to step 300 with the same state hash as one that never stopped (the herd,
 * 2,000 walking bodies: at 40, to 120); a truncated copy is refused and creates nothing. Exits
 * non-zero on the first failure.
 *   save [STEPS]   STEPS in place of 300 (the herd: 2/5 of it). scripts/check-platforms runs
 *                  `save 60` under the emulators: there platform.c already carries the long
 *                  runs (its saves equal Linux's byte for byte, and loading Linux's continues to
 *                  Linux's hashes), and the full 300 doubled the emulated time. */
#include "boids.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OK(call)                                                                              \
    do {                                                                                      \
        BoidsResult r_ = (call);                                                              \
        if (r_ != BOIDS_RESULT_OK) {                                                          \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, boids_result_str(r_),      \
                    boids_last_error_message());                                              \
            exit(1);                                                                          \
        }                                                                                     \
    } while (0)

static BoidsWorldId preset_world(const char *preset, int steps) {
    BoidsWorldDef def = boids_default_world_def();
    def.seed = 1;
    def.threads = 1;
    BoidsWorldId w;
    BoidsFlockId f;
    OK(boids_world_create(&def, &w));
    OK(boids_flock_create_preset(w, preset, preset, &f));
    for (int i = 0; i < steps; ++i) OK(boids_world_step(w, 1.0f / 60.0f));
    return w;
}

static uint64_t hash(BoidsWorldId w) {
    uint64_t h = 0;
    OK(boids_world_state_hash(w, &h));
    return h;
}

int main(int argc, char **argv) {
    int full = argc > 1 ? atoi(argv[1]) : 300;
    if (full < 3) {
        fprintf(stderr, "usage: %s [STEPS >= 3]\n", argv[0]);
        return 2;
    }
    const char *presets[] = {"fish-tank", "goal-swarm", "target-flock", "steering-obstacles", "flock-2d", "reef", "shark", "herd"};
    for (size_t p = 0; p < sizeof presets / sizeof *presets; ++p) {
        int steps = strcmp(presets[p], "herd") == 0 ? full * 2 / 5 : full, at = steps / 3;
        BoidsWorldId straight = preset_world(presets[p], steps);
        BoidsWorldId first = preset_world(presets[p], at);

        size_t len = 0;
        if (boids_world_save(first, NULL, 0, &len) != BOIDS_RESULT_BUFFER_TOO_SMALL || len == 0) {
            fprintf(stderr, "%s: the size query did not give a size\n", presets[p]);
            return 1;
        }
        unsigned char *bytes = malloc(len);
        OK(boids_world_save(first, bytes, len, &len));
        OK(boids_world_destroy(first));

        BoidsWorldDef def = boids_default_world_def();
        def.threads = 2; /* any thread count gives the same bits */
        BoidsWorldId loaded = {0, 0}, none = {0, 0};
        if (boids_world_load(&def, bytes, len - 1, &none) != BOIDS_RESULT_INVALID_ARGUMENT || none.index != 0 ||
            strstr(boids_last_error_message(), "truncated") == NULL) {
            fprintf(stderr, "%s: a truncated save was not refused cleanly\n", presets[p]);
            return 1;
        }
        OK(boids_world_load(&def, bytes, len, &loaded));
        free(bytes);
        BoidsFlockId found;
        OK(boids_flock_find(loaded, presets[p], &found));
        for (int i = at; i < steps; ++i) OK(boids_world_step(loaded, 1.0f / 60.0f));
        if (hash(loaded) != hash(straight)) {
            fprintf(stderr, "%s: saved at %d and loaded, the hash at %d differs\n", presets[p], at, steps);
            return 1;
        }
        printf("%-18s saved at %d (%zu bytes), loaded, step %d hash %016llx = uninterrupted\n", presets[p], at, len,
               steps, (unsigned long long)hash(loaded));
        OK(boids_world_destroy(loaded));
        OK(boids_world_destroy(straight));
    }
    return 0;
}
