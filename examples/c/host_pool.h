/*
 * A host's job system for the examples and tests: a pool of pthreads and one shared queue
 * that hands out ranges in a random order (the engine must not depend on the order), as
 * BoidsWorldDef's enqueue_task / finish_task expect it. Used by examples/c/job_system.c and
 * tests/c/readers.c. Plain C11 and pthreads; every function is static.
 */
#ifndef BOIDS_EXAMPLE_HOST_POOL_H
#define BOIDS_EXAMPLE_HOST_POOL_H

#include "boids.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- The host's job system: a pool of threads and one queue of ranges. ---- */

typedef struct Task {
    int left; /* ranges not yet returned (guarded by the pool's lock) */
} Task;

typedef struct Job {
    BoidsTaskFn fn;
    uint32_t start, end;
    void *context;
    Task *task;
} Job;

typedef struct Pool {
    pthread_mutex_t lock;
    pthread_cond_t work; /* a job was queued, or stop */
    pthread_cond_t done; /* some task's last range returned */
    Job *jobs;
    size_t count, cap;
    int stop;
    uint64_t rng;
    int workers;
    pthread_t *threads;
    long enqueued, finished;
} Pool;

static uint64_t next_random(Pool *p) { /* xorshift64, under the lock */
    p->rng ^= p->rng << 13;
    p->rng ^= p->rng >> 7;
    p->rng ^= p->rng << 17;
    return p->rng;
}

static void *worker_main(void *arg) {
    Pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->count == 0 && !p->stop) pthread_cond_wait(&p->work, &p->lock);
        if (p->stop) break;
        /* A random queued range: the engine must not depend on the order. */
        size_t k = (size_t)(next_random(p) % p->count);
        Job job = p->jobs[k];
        p->jobs[k] = p->jobs[--p->count];
        pthread_mutex_unlock(&p->lock);
        job.fn(job.start, job.end, job.context);
        pthread_mutex_lock(&p->lock);
        if (--job.task->left == 0) pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* enqueue_task: cut 0..items into ranges (at least min_range long), queue them. */
static void *pool_enqueue(BoidsTaskFn fn, uint32_t items, uint32_t min_range, void *context,
                          void *user) {
    Pool *p = user;
    uint32_t len = items / (uint32_t)(p->workers * 4) + 1;
    if (len < min_range) len = min_range;
    Task *task = malloc(sizeof *task);
    if (!task) { /* no memory for a task: run it here, and say so with NULL */
        fn(0, items, context);
        return NULL;
    }
    pthread_mutex_lock(&p->lock);
    task->left = 0;
    for (uint32_t start = 0; start < items; start += len) {
        if (p->count == p->cap) {
            size_t cap = p->cap ? p->cap * 2 : 64;
            Job *grown = realloc(p->jobs, cap * sizeof *grown);
            if (!grown) {
                pthread_mutex_unlock(&p->lock);
                fprintf(stderr, "out of memory\n");
                exit(1);
            }
            p->jobs = grown;
            p->cap = cap;
        }
        uint32_t end = items - start < len ? items : start + len;
        p->jobs[p->count++] = (Job){fn, start, end, context, task};
        task->left++;
    }
    p->enqueued++;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    return task;
}

/* finish_task: wait until every range of the task has returned. */
static void pool_finish(void *user_task, void *user) {
    Pool *p = user;
    Task *task = user_task;
    pthread_mutex_lock(&p->lock);
    while (task->left > 0) pthread_cond_wait(&p->done, &p->lock);
    p->finished++;
    pthread_mutex_unlock(&p->lock);
    free(task);
}

static void pool_start(Pool *p, int workers, uint64_t seed) {
    memset(p, 0, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->rng = seed | 1;
    p->workers = workers;
    p->threads = malloc(sizeof(pthread_t) * (size_t)workers);
    if (!p->threads) exit(1);
    for (int i = 0; i < workers; i++) pthread_create(&p->threads[i], NULL, worker_main, p);
}

static void pool_stop(Pool *p) {
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->workers; i++) pthread_join(p->threads[i], NULL);
    free(p->threads);
    free(p->jobs);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->work);
    pthread_mutex_destroy(&p->lock);
}

#endif
