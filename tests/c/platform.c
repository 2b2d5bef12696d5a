/* The same bits on every platform, through the C ABI alone. scripts/check-platforms builds this
 * program for Linux x86-64, Windows x86-64 (run under Wine) and Linux aarch64 (run under
 * qemu-aarch64) against the release archives, runs each mode on each, and compares the outputs
 * byte for byte:
 *
 *   platform hashes          every preset's state hash after 300 steps (the herd: 120), and a
 *                            5,000-boid school (the parallel path) on 2 threads after 100
 *   platform save DIR        every preset stepped a third of that, saved to DIR/<preset>.save
 *   platform continue DIR    loads DIR/<preset>.save (written on any platform), steps on to 300
 *                            (120), prints the hash and saves DIR/<preset>.continued
 *
 * Exits non-zero on the first failure, with the library's sentence. */
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

static const char *PRESETS[] = {"fish-tank", "goal-swarm", "target-flock", "steering-obstacles", "flock-2d", "reef", "shark", "herd"};
#define N_PRESETS (sizeof PRESETS / sizeof *PRESETS)
/* Steps to the hash (the save is at a third of it). The herd (2,000 walking bodies) runs 120:
 * under qemu it costs more than the other seven presets together at 300, and what is compared
 * is its bits, which every step's walking and body pass reach from the first. */
static int steps_of(const char *preset) { return strcmp(preset, "herd") == 0 ? 120 : 300; }
static const float DT = 1.0f / 60.0f;
/* The parallel path's thread count; the bits do not depend on it. Emscripten without pthreads
 * has one thread, and a world may ask for 0 or 1 there. */
#ifdef __EMSCRIPTEN__
#define PARALLEL 1
#else
#define PARALLEL 2
#endif

static BoidsWorldId new_world(uint32_t threads) {
    BoidsWorldDef def = boids_default_world_def();
    def.seed = 1;
    def.threads = threads;
    BoidsWorldId w;
    OK(boids_world_create(&def, &w));
    return w;
}

static BoidsWorldId preset_world(const char *preset, uint32_t threads, int steps) {
    BoidsWorldId w = new_world(threads);
    BoidsFlockId f;
    OK(boids_flock_create_preset(w, preset, preset, &f));
    for (int i = 0; i < steps; ++i) OK(boids_world_step(w, DT));
    return w;
}

static unsigned long long hash(BoidsWorldId w) {
    uint64_t h = 0;
    OK(boids_world_state_hash(w, &h));
    return (unsigned long long)h;
}

static char *path(const char *dir, const char *preset, const char *ext) {
    size_t n = strlen(dir) + strlen(preset) + strlen(ext) + 3;
    char *p = malloc(n);
    if (!p) exit(1);
    snprintf(p, n, "%s/%s.%s", dir, preset, ext);
    return p;
}

static void save_to(BoidsWorldId w, const char *file) {
    size_t len = 0;
    if (boids_world_save(w, NULL, 0, &len) != BOIDS_RESULT_BUFFER_TOO_SMALL || len == 0) {
        fprintf(stderr, "%s: the size query gave no size\n", file);
        exit(1);
    }
    unsigned char *bytes = malloc(len);
    if (!bytes) exit(1);
    OK(boids_world_save(w, bytes, len, &len));
    FILE *f = fopen(file, "wb");
    if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "%s: cannot write\n", file);
        exit(1);
    }
    free(bytes);
}

static BoidsWorldId load_from(const char *file) {
    FILE *f = fopen(file, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", file);
        exit(1);
    }
    size_t cap = 1 << 16, len = 0;
    unsigned char *bytes = malloc(cap);
    size_t got;
    while (bytes && (got = fread(bytes + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) bytes = realloc(bytes, cap *= 2);
    }
    fclose(f);
    if (!bytes) exit(1);
    BoidsWorldDef def = boids_default_world_def();
    def.threads = PARALLEL; /* any thread count continues with the same bits */
    BoidsWorldId w;
    OK(boids_world_load(&def, bytes, len, &w));
    free(bytes);
    return w;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "hashes") == 0) {
        printf("boids %s\n", boids_version());
        for (size_t p = 0; p < N_PRESETS; ++p) {
            int steps = steps_of(PRESETS[p]);
            BoidsWorldId w = preset_world(PRESETS[p], 1, steps);
            printf("%-18s step %d hash %016llx\n", PRESETS[p], steps, hash(w));
            OK(boids_world_destroy(w));
        }
        BoidsWorldId w = new_world(PARALLEL);
        BoidsFlockDef fdef = boids_default_flock_def();
        fdef.name = "school";
        BoidsFlockId school;
        OK(boids_flock_create(w, &fdef, &school));
        BoidsSpawnDef spawn = boids_default_spawn_def();
        uint32_t first;
        OK(boids_flock_spawn(school, 5000, &spawn, &first));
        for (int i = 0; i < 100; ++i) OK(boids_world_step(w, DT));
        printf("%-18s step 100 hash %016llx\n", "school-5000", hash(w));
        OK(boids_world_destroy(w));
        return 0;
    }
    if (strcmp(mode, "save") == 0 && argc == 3) {
        for (size_t p = 0; p < N_PRESETS; ++p) {
            int at = steps_of(PRESETS[p]) / 3;
            BoidsWorldId w = preset_world(PRESETS[p], 1, at);
            char *file = path(argv[2], PRESETS[p], "save");
            save_to(w, file);
            printf("%-18s step %d hash %016llx saved\n", PRESETS[p], at, hash(w));
            free(file);
            OK(boids_world_destroy(w));
        }
        return 0;
    }
    if (strcmp(mode, "continue") == 0 && argc == 3) {
        for (size_t p = 0; p < N_PRESETS; ++p) {
            char *in = path(argv[2], PRESETS[p], "save");
            char *out = path(argv[2], PRESETS[p], "continued");
            BoidsWorldId w = load_from(in);
            BoidsFlockId found;
            OK(boids_flock_find(w, PRESETS[p], &found));
            int steps = steps_of(PRESETS[p]), at = steps / 3;
            for (int i = at; i < steps; ++i) OK(boids_world_step(w, DT));
            save_to(w, out);
            printf("%-18s loaded at %d, step %d hash %016llx\n", PRESETS[p], at, steps, hash(w));
            free(in);
            free(out);
            OK(boids_world_destroy(w));
        }
        return 0;
    }
    fprintf(stderr, "usage: %s hashes | save DIR | continue DIR\n", argc > 0 ? argv[0] : "platform");
    return 2;
}
