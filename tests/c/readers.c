/*
 * Readers on other threads and the overlapped step, as a game's job threads meet them: three
 * threads read a flock's positions and ask boids_world_is_stepping all the time while the main
 * thread runs frames of boids_world_step_begin (every other one boids_world_step_begin_n, two
 * steps: a 30 fps frame) / boids_world_step_end, and then 200 times two threads end one step
 * at once.
 *
 * Every step_end must return OK (it waits for the readers: never BUSY), every read OK, every
 * is_stepping OK; of two racing step_ends exactly one returns OK and the other
 * INVALID_ARGUMENT; and the world must end with the state hash of a world stepped the same
 * number of times with boids_world_step. Run plainly and under ThreadSanitizer by
 * scripts/test, with the world on a host job system (examples/c/host_pool.h) so that every
 * thread that touches the world is one TSan knows.
 *
 * Usage: readers [workers] [frames]   (defaults 2 and 300; the races are frames * 2 / 3)
 */
#define _POSIX_C_SOURCE 200809L /* pthread barriers under -std=c11 */
#include "boids.h"
#include "../../examples/c/host_pool.h"

#include <stdatomic.h>

enum { BOIDS = 4000, READERS = 3 };
static int FRAMES = 300, RACES = 200;

static BoidsWorldId world;
static BoidsFlockId flock;
static atomic_int stop;
static atomic_long reads;
static atomic_int failures;

static void fail(const char *what, BoidsResult r) {
    fprintf(stderr, "%s: %s (%s)\n", what, boids_result_str(r), boids_last_error_message());
    atomic_fetch_add(&failures, 1);
}

static void *reader(void *arg) {
    (void)arg;
    BoidsVec3 *buf = malloc(sizeof(BoidsVec3) * BOIDS);
    if (!buf) exit(1);
    while (!atomic_load(&stop)) {
        size_t n = 0;
        BoidsResult r = boids_flock_read_positions(flock, buf, BOIDS, &n);
        if (r != BOIDS_RESULT_OK || n != BOIDS) fail("read_positions on a reader thread", r);
        int32_t s = -1;
        r = boids_world_is_stepping(world, &s);
        if (r != BOIDS_RESULT_OK || (s != 0 && s != 1)) fail("is_stepping on a reader thread", r);
        atomic_fetch_add(&reads, 1);
    }
    free(buf);
    return NULL;
}

static pthread_barrier_t race;

static void *racing_end(void *out) {
    pthread_barrier_wait(&race);
    *(BoidsResult *)out = boids_world_step_end(world);
    return NULL;
}

static BoidsWorldId make(const BoidsWorldDef *def, BoidsFlockId *f) {
    BoidsWorldId w;
    BoidsResult r = boids_world_create(def, &w);
    if (r != BOIDS_RESULT_OK) fail("create", r), exit(1);
    BoidsFlockDef fdef = boids_default_flock_def();
    fdef.name = "school";
    r = boids_flock_create(w, &fdef, f);
    if (r != BOIDS_RESULT_OK) fail("flock", r), exit(1);
    BoidsSpawnDef spawn = boids_default_spawn_def();
    uint32_t first;
    r = boids_flock_spawn(*f, BOIDS, &spawn, &first);
    if (r != BOIDS_RESULT_OK) fail("spawn", r), exit(1);
    return w;
}

int main(int argc, char **argv) {
    int workers = argc > 1 ? atoi(argv[1]) : 2;
    if (argc > 2) FRAMES = atoi(argv[2]), RACES = FRAMES * 2 / 3;
    if (workers < 1 || workers > 64 || FRAMES < 1) return 2;
    Pool pool;
    pool_start(&pool, workers, 0xbead);
    BoidsWorldDef host = boids_default_world_def();
    host.seed = 9;
    host.enqueue_task = pool_enqueue;
    host.finish_task = pool_finish;
    host.worker_count = (uint32_t)workers;
    host.user_context = &pool;
    BoidsFlockId ref_flock;
    BoidsWorldId reference = make(&host, &ref_flock);
    world = make(&host, &flock);

    pthread_t threads[READERS];
    for (int i = 0; i < READERS; i++) pthread_create(&threads[i], NULL, reader, NULL);
    int steps = 0;
    for (int frame = 0; frame < FRAMES; frame++) {
        /* Every other frame is a 30 fps one: both of its 1/60 s steps in one begin. */
        uint32_t n = frame % 2 ? 2 : 1;
        BoidsResult r = n == 1 ? boids_world_step_begin(world, 1.0f / 60.0f)
                               : boids_world_step_begin_n(world, 1.0f / 60.0f, n);
        if (r != BOIDS_RESULT_OK) fail("step_begin with readers", r);
        r = boids_world_step_end(world);
        if (r != BOIDS_RESULT_OK) fail("step_end with readers", r);
        steps += (int)n;
    }
    /* Two threads end one step at once. */
    pthread_barrier_init(&race, NULL, 2);
    for (int i = 0; i < RACES; i++) {
        BoidsResult r = boids_world_step_begin(world, 1.0f / 60.0f);
        if (r != BOIDS_RESULT_OK) fail("step_begin before a race", r);
        steps++;
        BoidsResult theirs = BOIDS_RESULT_PANIC, mine;
        pthread_t other;
        pthread_create(&other, NULL, racing_end, &theirs);
        pthread_barrier_wait(&race);
        mine = boids_world_step_end(world);
        pthread_join(other, NULL);
        int ok = (mine == BOIDS_RESULT_OK) + (theirs == BOIDS_RESULT_OK);
        int none = (mine == BOIDS_RESULT_INVALID_ARGUMENT) + (theirs == BOIDS_RESULT_INVALID_ARGUMENT);
        if (ok != 1 || none != 1) {
            fprintf(stderr, "race %d: step_end returned %s and %s\n", i, boids_result_str(mine),
                    boids_result_str(theirs));
            atomic_fetch_add(&failures, 1);
        }
    }
    pthread_barrier_destroy(&race);
    atomic_store(&stop, 1);
    for (int i = 0; i < READERS; i++) pthread_join(threads[i], NULL);

    for (int i = 0; i < steps; i++) {
        BoidsResult r = boids_world_step(reference, 1.0f / 60.0f);
        if (r != BOIDS_RESULT_OK) fail("reference step", r);
    }
    uint64_t a = 0, b = 0;
    boids_world_state_hash(world, &a);
    boids_world_state_hash(reference, &b);
    if (a != b) {
        fprintf(stderr, "the readers' world ends at %016llx, the reference at %016llx\n",
                (unsigned long long)a, (unsigned long long)b);
        atomic_fetch_add(&failures, 1);
    }
    boids_world_destroy(world);
    boids_world_destroy(reference);
    pool_stop(&pool);
    printf("%d frames and %d step_end races with %d readers (%ld reads): %s\n", FRAMES, RACES,
           READERS, atomic_load(&reads), atomic_load(&failures) ? "FAILED" : "ok");
    return atomic_load(&failures) ? 1 : 0;
}
