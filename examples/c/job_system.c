/*
 * The engine on a host's job system, and a step that overlaps the frame.
 *
 * A game engine has worker threads of its own; the boids engine can run its parallel work on
 * them instead of starting its own (BoidsWorldDef's enqueue_task / finish_task, shaped after
 * Box2D v3's). This program brings a small thread pool of its own (pthreads, a shared queue
 * that hands out ranges in a random order) and runs every preset and a 6,000-boid school on it:
 *   - stepped whole (boids_world_step),
 *   - and as a game would: boids_world_step_begin, "render" the state before the step (reads are
 *     allowed while the step runs; everything else returns BOIDS_RESULT_BUSY), then
 *     boids_world_step_end;
 * and checks both give the same state hash as the engine's own workers. It ends by destroying
 * a world with a step in flight (the destroy waits for it).
 *
 * Usage: job_system [workers] [--host-only]
 *   workers      threads of the pool (default 4)
 *   --host-only  the reference world steps on the pool too, instead of the engine's own workers
 *                (for ThreadSanitizer, which cannot see the synchronisation inside the engine's
 *                own pool: it is Rust code TSan did not instrument)
 * Build: gcc -std=c11 -Iinclude examples/c/job_system.c -Ltarget/release -lboids_ffi -lpthread
 */
#include "boids.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                   \
    do {                                                                              \
        BoidsResult r_ = (call);                                                      \
        if (r_ != BOIDS_RESULT_OK) {                                                  \
            fprintf(stderr, "%s failed: %s (%s)\n", #call, boids_result_str(r_),      \
                    boids_last_error_message());                                      \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

#include "host_pool.h"

/* ---- The game. ---- */

static const char *SCENES[] = {"fish-tank", "goal-swarm",  "target-flock", "steering-obstacles",
                               "flock-2d",  "reef",        "shark",  "school"};
enum { STEPS = 120, SCHOOL = 6000 };

static BoidsWorldId make_world(const BoidsWorldDef *def, const char *scene, BoidsFlockId *out) {
    BoidsWorldId world;
    CHECK(boids_world_create(def, &world));
    if (strcmp(scene, "school") == 0) {
        BoidsFlockDef fdef = boids_default_flock_def();
        fdef.name = "school";
        CHECK(boids_flock_create(world, &fdef, out));
        BoidsSpawnDef spawn = boids_default_spawn_def();
        uint32_t first;
        CHECK(boids_flock_spawn(*out, SCHOOL, &spawn, &first));
    } else {
        CHECK(boids_flock_create_preset(world, scene, scene, out));
    }
    return world;
}

static uint64_t hash_of(BoidsWorldId world) {
    uint64_t h;
    CHECK(boids_world_state_hash(world, &h));
    return h;
}

int main(int argc, char **argv) {
    int workers = argc > 1 ? atoi(argv[1]) : 4;
    int host_only = argc > 2 && strcmp(argv[2], "--host-only") == 0;
    if (workers < 1 || workers > 64) {
        fprintf(stderr, "workers must be 1..64\n");
        return 2;
    }
    Pool pool;
    pool_start(&pool, workers, 0x5eed + (uint64_t)workers);

    BoidsWorldDef engine = boids_default_world_def();
    engine.seed = 3;
    engine.threads = 2;
    BoidsWorldDef host = boids_default_world_def();
    host.seed = 3;
    host.enqueue_task = pool_enqueue;
    host.finish_task = pool_finish;
    host.worker_count = (uint32_t)workers;
    host.user_context = &pool;

    BoidsVec3 *frame = malloc(sizeof(BoidsVec3) * SCHOOL);
    if (!frame) return 1;
    int failures = 0;
    for (size_t s = 0; s < sizeof SCENES / sizeof *SCENES; s++) {
        BoidsFlockId f0, f1, f2;
        BoidsWorldId reference = make_world(host_only ? &host : &engine, SCENES[s], &f0);
        BoidsWorldId whole = make_world(&host, SCENES[s], &f1);
        BoidsWorldId overlapped = make_world(&host, SCENES[s], &f2);
        for (int i = 0; i < STEPS; i++) {
            CHECK(boids_world_step(reference, 1.0f / 60.0f));
            CHECK(boids_world_step(whole, 1.0f / 60.0f));

            CHECK(boids_world_step_begin(overlapped, 1.0f / 60.0f));
            /* The frame renders the state before the step while the step runs. */
            size_t n = 0;
            CHECK(boids_flock_read_positions(f2, frame, SCHOOL, &n));
            /* Anything else waits for the step's end. */
            uint64_t h;
            if (boids_world_state_hash(overlapped, &h) != BOIDS_RESULT_BUSY) {
                fprintf(stderr, "a call during the step was not refused\n");
                failures++;
            }
            CHECK(boids_world_step_end(overlapped));
        }
        uint64_t a = hash_of(reference), b = hash_of(whole), c = hash_of(overlapped);
        int same = a == b && b == c;
        failures += !same;
        printf("%-19s %s %016llx  host step %016llx  host begin/end %016llx  %s\n",
               SCENES[s], host_only ? "  host" : "engine", (unsigned long long)a, (unsigned long long)b, (unsigned long long)c,
               same ? "same bits" : "DIFFERENT");
        CHECK(boids_world_destroy(reference));
        CHECK(boids_world_destroy(whole));
        CHECK(boids_world_destroy(overlapped));
    }

    /* A world destroyed with a step in flight: the destroy waits for the step. */
    BoidsFlockId f;
    BoidsWorldId world = make_world(&host, "school", &f);
    CHECK(boids_world_step_begin(world, 1.0f / 60.0f));
    CHECK(boids_world_destroy(world));

    pool_stop(&pool);
    printf("%d host workers: %ld tasks enqueued, %ld finished\n", workers, pool.enqueued,
           pool.finished);
    if (pool.enqueued != pool.finished) failures++;
    free(frame);
    return failures ? 1 : 0;
}
