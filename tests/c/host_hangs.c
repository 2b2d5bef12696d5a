/*
 * Call patterns of a host's job system that once hung a world for ever, as a C host meets them
 * (crates/ffi/tests/host_tasks.rs holds the same from Rust). The host here is a pthread pool
 * with one first-in-first-out queue, a job wrapper that may call the library between taking
 * one of the engine's ranges and running it, and a finish_task that waits without helping.
 *
 *  a    a worker's wrapper makes a changing call (step, step_begin + step_end, set_observer) on
 *       the world the main thread reads, while another world on the same host keeps the
 *       workers busy;
 *  b    the host's one worker runs a gameplay job that sets the observer over and over while
 *       the main thread reads;
 *  end  the worker that takes the task boids_world_step_begin handed over calls
 *       boids_world_step_end before running it (one worker, then two);
 *  destroy  the same with boids_world_destroy;
 *  drain    no worker ever runs the queue: a read, a begun step read and ended, whole steps.
 *
 * Every pattern must return (a watchdog fails the run when nothing has made progress for 60 s:
 * no call through the pool and no library call of this program's; a loaded machine, or
 * ThreadSanitizer, makes the calls slowly, but makes them), with the results the
 * header documents and the engine pool's bits. Run plainly and under ThreadSanitizer by
 * scripts/test (with the library instrumented too when a nightly toolchain is installed).
 *
 * Usage: host_hangs [pattern...]   (default: all of them)
 */
#define _POSIX_C_SOURCE 200809L
#include "boids.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { BOIDS = 6000 };
static const float DT = 1.0f / 60.0f;
static int failures;
/* Calls made through the pool and by this program: the watchdog's measure of progress. */
static atomic_long progress;
static void tick(void) { atomic_fetch_add(&progress, 1); }

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fprintf(stderr, " (last error: %s)\n", boids_last_error_message());          \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

/* ---- The host: a pool of pthreads, one FIFO queue of ranges and gameplay jobs. ---- */

typedef struct Task {
    int left; /* ranges not yet returned (under the pool's lock) */
} Task;

typedef struct Item {
    BoidsTaskFn fn; /* NULL: a gameplay job */
    void (*game)(void *);
    void *arg;
    uint32_t start, end;
    void *context;
    Task *task;
    int marked;
} Item;

typedef struct Pool Pool;
/* What a worker does with a range it took before running it. */
typedef void (*Wrapper)(Pool *p, Item *item);

struct Pool {
    pthread_mutex_t lock;
    pthread_cond_t work, done;
    Item *items;
    size_t head, count, cap;
    int stop, workers, armed;
    pthread_t threads[4];
    Wrapper wrapper;
    atomic_int in_wrapper;
    long enqueued, finished;
};

static void run_range(Pool *p, Item *it) {
    tick();
    it->fn(it->start, it->end, it->context);
    pthread_mutex_lock(&p->lock);
    if (--it->task->left == 0) pthread_cond_broadcast(&p->done);
    pthread_mutex_unlock(&p->lock);
}

static void push(Pool *p, Item it) { /* under the lock */
    if (p->head + p->count == p->cap) {
        if (p->head > 0) {
            memmove(p->items, p->items + p->head, p->count * sizeof *p->items);
            p->head = 0;
        } else {
            size_t cap = p->cap ? p->cap * 2 : 256;
            Item *grown = realloc(p->items, cap * sizeof *grown);
            if (!grown) exit(3);
            p->items = grown;
            p->cap = cap;
        }
    }
    p->items[p->head + p->count++] = it;
}

static void *worker_main(void *arg) {
    Pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->count == 0 && !p->stop) pthread_cond_wait(&p->work, &p->lock);
        if (p->stop) break;
        Item it = p->items[p->head++];
        p->count--;
        Wrapper w = p->wrapper;
        if (w && it.fn) atomic_fetch_add(&p->in_wrapper, 1);
        pthread_mutex_unlock(&p->lock);
        if (!it.fn) {
            it.game(it.arg);
        } else if (w) {
            w(p, &it);
            atomic_fetch_sub(&p->in_wrapper, 1);
        } else {
            run_range(p, &it);
        }
        pthread_mutex_lock(&p->lock);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static void *pool_enqueue(BoidsTaskFn fn, uint32_t items, uint32_t min_range, void *context,
                          void *user) {
    Pool *p = user;
    tick();
    Task *task = malloc(sizeof *task);
    if (!task) exit(3);
    uint32_t len = min_range > 1 ? min_range : 1;
    pthread_mutex_lock(&p->lock);
    int marked = p->armed;
    p->armed = 0;
    task->left = 0;
    for (uint32_t start = 0; start < items; start += len) {
        uint32_t end = items - start < len ? items : start + len;
        push(p, (Item){fn, NULL, NULL, start, end, context, task, marked});
        task->left++;
    }
    p->enqueued++;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    return task;
}

/* Waits for every range of the task, without running any itself. */
static void pool_finish(void *user_task, void *user) {
    Pool *p = user;
    Task *task = user_task;
    tick();
    pthread_mutex_lock(&p->lock);
    while (task->left > 0) pthread_cond_wait(&p->done, &p->lock);
    p->finished++;
    pthread_mutex_unlock(&p->lock);
    free(task);
}

static void pool_start(Pool *p, int workers) {
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->workers = workers;
    for (int i = 0; i < workers; i++) pthread_create(&p->threads[i], NULL, worker_main, p);
}

static void pool_game(Pool *p, void (*game)(void *), void *arg) {
    pthread_mutex_lock(&p->lock);
    push(p, (Item){NULL, game, arg, 0, 0, NULL, NULL, 0});
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
}

static void pool_set_wrapper(Pool *p, Wrapper w) {
    pthread_mutex_lock(&p->lock);
    p->wrapper = w;
    pthread_mutex_unlock(&p->lock);
    if (!w)
        while (atomic_load(&p->in_wrapper) > 0) sched_yield();
}

static long counter(Pool *p, long *c) {
    pthread_mutex_lock(&p->lock);
    long v = *c;
    pthread_mutex_unlock(&p->lock);
    return v;
}

/* Stops the workers; what is still queued is dropped (its calls are never made). */
static void pool_stop(Pool *p) {
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->workers; i++) pthread_join(p->threads[i], NULL);
    for (size_t k = p->head; k < p->head + p->count; k++) { /* tasks never finished */
        Task *t = p->items[k].task;
        if (t && --t->left == 0) free(t);
    }
    free(p->items);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->lock);
}

/* ---- Worlds ---- */

static BoidsWorldId make(Pool *pool, uint32_t workers, BoidsFlockId *flock) {
    BoidsWorldDef def = boids_default_world_def();
    def.seed = 5;
    if (pool) {
        def.enqueue_task = pool_enqueue;
        def.finish_task = pool_finish;
        def.worker_count = workers;
        def.user_context = pool;
    } else {
        def.threads = 1;
    }
    BoidsWorldId w;
    if (boids_world_create(&def, &w) != BOIDS_RESULT_OK) exit(3);
    BoidsFlockDef fdef = boids_default_flock_def();
    fdef.name = "school";
    BoidsFlockId f;
    if (boids_flock_create(w, &fdef, &f) != BOIDS_RESULT_OK) exit(3);
    BoidsSpawnDef spawn = boids_default_spawn_def();
    uint32_t first;
    if (boids_flock_spawn(f, BOIDS, &spawn, &first) != BOIDS_RESULT_OK) exit(3);
    if (flock) *flock = f;
    return w;
}

static uint64_t hash(BoidsWorldId w) {
    tick();
    uint64_t h = 0;
    CHECK(boids_world_state_hash(w, &h) == BOIDS_RESULT_OK, "state_hash");
    return h;
}

static BoidsVec3 buf[BOIDS];

static BoidsResult read_all(BoidsFlockId f) {
    tick();
    size_t n = 0;
    return boids_flock_read_positions(f, buf, BOIDS, &n);
}

static BoidsResult set_observer(BoidsWorldId w, float x) {
    tick();
    BoidsVec3 p = {x, 0.0f, 0.0f};
    return boids_world_set_observer(w, &p);
}

/* ---- a: a change from a worker's wrapper while the main thread reads ---- */

static BoidsWorldId target;
static int change_kind; /* 0 step, 1 step_begin + step_end, 2 set_observer */
static atomic_int changes_ok, changes_other;

static void change_wrapper(Pool *p, Item *it) {
    BoidsResult r;
    if (change_kind == 0) {
        r = boids_world_step(target, DT);
    } else if (change_kind == 1) {
        r = boids_world_step_begin(target, DT);
        if (r == BOIDS_RESULT_OK) r = boids_world_step_end(target);
    } else {
        r = set_observer(target, 1.0f);
    }
    if (r == BOIDS_RESULT_OK) atomic_fetch_add(&changes_ok, 1);
    else if (r != BOIDS_RESULT_BUSY) atomic_fetch_add(&changes_other, 1);
    run_range(p, it);
}

static atomic_int stepper_done;

static void *stepper(void *arg) {
    BoidsWorldId other = *(BoidsWorldId *)arg;
    for (int i = 0; i < 40; i++) {
        tick();
        CHECK(boids_world_step(other, DT) == BOIDS_RESULT_OK, "other world's step");
    }
    atomic_store(&stepper_done, 1);
    return NULL;
}

static void pattern_a(void) {
    for (change_kind = 0; change_kind < 3; change_kind++) {
        Pool pool;
        pool_start(&pool, 2);
        BoidsFlockId f;
        target = make(&pool, 2, &f);
        BoidsWorldId other = make(&pool, 2, NULL);
        atomic_store(&changes_ok, 0);
        atomic_store(&changes_other, 0);
        atomic_store(&stepper_done, 0);
        pool_set_wrapper(&pool, change_wrapper);
        pthread_t t;
        pthread_create(&t, NULL, stepper, &other);
        int reads = 0;
        while (!atomic_load(&stepper_done)) {
            BoidsResult r = read_all(f);
            CHECK(r == BOIDS_RESULT_OK || r == BOIDS_RESULT_BUSY, "a read: %s", boids_result_str(r));
            reads += r == BOIDS_RESULT_OK;
        }
        pthread_join(t, NULL);
        pool_set_wrapper(&pool, NULL);
        CHECK(reads > 0, "no read succeeded");
        CHECK(atomic_load(&changes_ok) > 0, "change %d: no change succeeded", change_kind);
        CHECK(atomic_load(&changes_other) == 0, "change %d: a change returned neither OK nor BUSY",
              change_kind);
        CHECK(boids_world_destroy(target) == BOIDS_RESULT_OK, "destroy");
        CHECK(boids_world_destroy(other) == BOIDS_RESULT_OK, "destroy other");
        pool_stop(&pool);
        printf("a  change %d from the wrapper: %d changes, %d reads\n", change_kind,
               atomic_load(&changes_ok), reads);
    }
}

/* ---- b: a gameplay job on a one-worker host changes the world while it is read ---- */

static atomic_int game_stop, game_done, game_changes;

static void gameplay(void *arg) {
    BoidsWorldId w = *(BoidsWorldId *)arg;
    float x = 0.0f;
    while (!atomic_load(&game_stop)) {
        BoidsResult r = set_observer(w, x += 1.0f);
        CHECK(r == BOIDS_RESULT_OK || r == BOIDS_RESULT_BUSY, "gameplay set_observer: %s",
              boids_result_str(r));
        if (r == BOIDS_RESULT_OK) atomic_fetch_add(&game_changes, 1);
    }
    atomic_store(&game_done, 1);
}

static void pattern_b(void) {
    Pool pool;
    pool_start(&pool, 1);
    BoidsFlockId f;
    BoidsWorldId w = make(&pool, 1, &f);
    pool_game(&pool, gameplay, &w);
    int ok = 0;
    /* Reads go on until the gameplay job has changed the world at least once (on a loaded
       machine the worker may start after 300 reads); the watchdog fails a hang. */
    while (ok < 300 || atomic_load(&game_changes) == 0) {
        BoidsResult r = read_all(f);
        CHECK(r == BOIDS_RESULT_OK || r == BOIDS_RESULT_BUSY, "a read: %s", boids_result_str(r));
        ok += r == BOIDS_RESULT_OK;
    }
    atomic_store(&game_stop, 1);
    while (!atomic_load(&game_done)) sched_yield();
    CHECK(atomic_load(&game_changes) > 0, "the gameplay job changed nothing");
    CHECK(boids_world_step(w, DT) == BOIDS_RESULT_OK, "a step after");
    CHECK(boids_world_destroy(w) == BOIDS_RESULT_OK, "destroy");
    pool_stop(&pool);
    printf("b  %d reads beside a gameplay job that set the observer %d times\n", ok,
           atomic_load(&game_changes));
}

/* ---- end / destroy: a worker ends or destroys the world whose step task it holds ---- */

static atomic_int held_result = -1;
static int held_destroy;
static atomic_int begun_returned;

static void held_wrapper(Pool *p, Item *it) {
    if (it->marked) {
        if (held_destroy)
            while (!atomic_load(&begun_returned)) sched_yield();
        atomic_store(&held_result,
                     held_destroy ? boids_world_destroy(target) : boids_world_step_end(target));
    }
    run_range(p, it);
    /* The engine never finishes the handle of a task held across the world's destroy: the
     * host forgets it itself (the header says so). */
    if (held_destroy && it->marked) free(it->task);
}

static void pattern_end(void) {
    for (int workers = 1; workers <= 2; workers++) {
        Pool pool;
        pool_start(&pool, workers);
        target = make(&pool, (uint32_t)workers, NULL);
        BoidsWorldId reference = make(NULL, 0, NULL);
        held_destroy = 0;
        pool_set_wrapper(&pool, held_wrapper);
        for (int i = 0; i < 4; i++) {
            atomic_store(&held_result, -1);
            pthread_mutex_lock(&pool.lock);
            pool.armed = 1;
            pthread_mutex_unlock(&pool.lock);
            CHECK(boids_world_step_begin(target, DT) == BOIDS_RESULT_OK, "step_begin");
            while (atomic_load(&held_result) < 0) sched_yield();
            CHECK(atomic_load(&held_result) == BOIDS_RESULT_OK, "step_end from the wrapper: %s",
                  boids_result_str(atomic_load(&held_result)));
            CHECK(boids_world_step(reference, DT) == BOIDS_RESULT_OK, "reference");
            CHECK(hash(target) == hash(reference), "the step the worker ended");
        }
        pool_set_wrapper(&pool, NULL);
        CHECK(boids_world_destroy(target) == BOIDS_RESULT_OK, "destroy");
        boids_world_destroy(reference);
        CHECK(counter(&pool, &pool.enqueued) == counter(&pool, &pool.finished),
              "%ld handles, %ld finished", counter(&pool, &pool.enqueued),
              counter(&pool, &pool.finished));
        pool_stop(&pool);
        printf("end  %d worker(s): step_end from the worker holding the step's task\n", workers);
    }
}

static void pattern_destroy(void) {
    Pool pool;
    pool_start(&pool, 2);
    target = make(&pool, 2, NULL);
    held_destroy = 1;
    atomic_store(&held_result, -1);
    atomic_store(&begun_returned, 0);
    pool_set_wrapper(&pool, held_wrapper);
    pthread_mutex_lock(&pool.lock);
    pool.armed = 1;
    pthread_mutex_unlock(&pool.lock);
    CHECK(boids_world_step_begin(target, DT) == BOIDS_RESULT_OK, "step_begin");
    atomic_store(&begun_returned, 1);
    while (atomic_load(&held_result) < 0) sched_yield();
    CHECK(atomic_load(&held_result) == BOIDS_RESULT_OK, "destroy from the wrapper: %s",
          boids_result_str(atomic_load(&held_result)));
    CHECK(!boids_world_is_valid(target), "the world is gone");
    pool_set_wrapper(&pool, NULL);
    while (1) { /* the held task's call is made after the destroy returned */
        pthread_mutex_lock(&pool.lock);
        size_t left = pool.count;
        pthread_mutex_unlock(&pool.lock);
        if (left == 0) break;
        sched_yield();
    }
    long unfinished = counter(&pool, &pool.enqueued) - counter(&pool, &pool.finished);
    CHECK(unfinished == 1, "%ld handles left unfinished (only the held one should be)",
          unfinished);
    pool_stop(&pool);
    printf("destroy  from the worker holding the step's task (its handle left to the host)\n");
}

/* ---- drain: a host whose queue is never drained ---- */

static void pattern_drain(void) {
    Pool pool;
    pool_start(&pool, 0);
    BoidsFlockId f;
    BoidsWorldId w = make(&pool, 4, &f);
    BoidsWorldId reference = make(NULL, 0, NULL);
    CHECK(read_all(f) == BOIDS_RESULT_OK, "a read");
    for (int i = 0; i < 3; i++) {
        CHECK(boids_world_step_begin(w, DT) == BOIDS_RESULT_OK, "step_begin");
        CHECK(read_all(f) == BOIDS_RESULT_OK, "a read during the step");
        CHECK(boids_world_step_end(w) == BOIDS_RESULT_OK, "step_end");
    }
    for (int i = 0; i < 60; i++) {
        tick();
        CHECK(boids_world_step(w, DT) == BOIDS_RESULT_OK, "step");
    }
    for (int i = 0; i < 63; i++) {
        tick();
        CHECK(boids_world_step(reference, DT) == BOIDS_RESULT_OK, "reference");
    }
    CHECK(hash(w) == hash(reference), "the steps without the host");
    CHECK(counter(&pool, &pool.finished) == 0, "finish_task called for a task never run");
    long handed = counter(&pool, &pool.enqueued);
    CHECK(handed > 0 && handed <= 256, "%ld tasks handed to a host that runs none", handed);
    CHECK(boids_world_destroy(w) == BOIDS_RESULT_OK, "destroy");
    boids_world_destroy(reference);
    pool_stop(&pool);
    printf("drain  a queue never drained: %ld tasks handed over, none finished\n", handed);
}

/* Fails the run when no call has been made for 60 s. */
static void *watchdog(void *arg) {
    (void)arg;
    long seen = atomic_load(&progress);
    int quiet = 0;
    for (;;) {
        sleep(1);
        long now = atomic_load(&progress);
        quiet = now == seen ? quiet + 1 : 0;
        seen = now;
        if (quiet >= 60) {
            static const char msg[] = "host_hangs: HUNG (no progress for 60 s)\n";
            ssize_t n = write(2, msg, sizeof msg - 1);
            (void)n;
            _exit(4);
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    pthread_t dog;
    pthread_create(&dog, NULL, watchdog, NULL);
    pthread_detach(dog);
    static const struct {
        const char *name;
        void (*run)(void);
    } patterns[] = {{"a", pattern_a},
                    {"b", pattern_b},
                    {"end", pattern_end},
                    {"destroy", pattern_destroy},
                    {"drain", pattern_drain}};
    for (size_t k = 0; k < sizeof patterns / sizeof *patterns; k++) {
        int on = argc == 1;
        for (int i = 1; i < argc; i++) on |= strcmp(argv[i], patterns[k].name) == 0;
        if (on) patterns[k].run();
    }
    if (failures) fprintf(stderr, "host_hangs: %d failures\n", failures);
    else printf("host_hangs: ok\n");
    return failures ? 1 : 0;
}
