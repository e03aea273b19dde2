/* team.c - workers, a queue of units, and the end of a parallel run. */
#include "team.h"
#include "util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct team {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int workers;            /* running workers */
    int idle;               /* of them, waiting in team_take */
    bool aborted;
    bool eager;             /* tests: split whenever the queue is empty */
    bool distributed;       /* other processes may still send units: all idle is not the end */
    bool finished;          /* distributed: the run is over everywhere */
    bool want;              /* distributed: another process asks for work */
    void **q;               /* a stack: the newest unit is the deepest split */
    int qn, qcap;
    atomic_bool hungry;     /* idle > 0 && qn == 0, kept under mu */
};

int team_size(int jobs)
{
    if (jobs > 0)
        return jobs;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

team *team_new(int workers)
{
    team *t = wmx_calloc(1, sizeof *t);
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    t->workers = workers > 0 ? workers : 1;
    atomic_init(&t->hungry, false);
    return t;
}

void team_free(team *t)
{
    if (!t)
        return;
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->cv);
    free(t->q);
    free(t);
}

int team_workers(const team *t) { return t->workers; }

static void update_hunger(team *t);

void team_set_eager(team *t)
{
    pthread_mutex_lock(&t->mu);
    t->eager = true;
    update_hunger(t);
    pthread_mutex_unlock(&t->mu);
}

bool team_eager(team *t)
{
    pthread_mutex_lock(&t->mu);
    bool e = t->eager;
    pthread_mutex_unlock(&t->mu);
    return e;
}

static void update_hunger(team *t)
{
    atomic_store_explicit(&t->hungry, (t->idle > 0 || t->eager || t->want) && t->qn == 0 && !t->aborted,
                          memory_order_relaxed);
}

bool team_hungry(team *t)
{
    return atomic_load_explicit(&t->hungry, memory_order_relaxed);
}

void team_give(team *t, void *unit)
{
    pthread_mutex_lock(&t->mu);
    if (t->qn == t->qcap) {
        t->qcap = t->qcap ? 2 * t->qcap : 8;
        t->q = wmx_realloc(t->q, (size_t)t->qcap * sizeof *t->q);
    }
    t->q[t->qn++] = unit;
    update_hunger(t);
    pthread_cond_signal(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

void *team_take(team *t)
{
    pthread_mutex_lock(&t->mu);
    t->idle++;
    update_hunger(t);
    while (t->qn == 0 && !t->aborted && !t->finished && (t->distributed || t->idle < t->workers))
        pthread_cond_wait(&t->cv, &t->mu);
    void *unit = NULL;
    if (t->qn > 0 && !t->aborted) {
        unit = t->q[--t->qn];
        t->idle--;
    } else {
        /* the end: wake the others so they see it too */
        pthread_cond_broadcast(&t->cv);
    }
    update_hunger(t);
    pthread_mutex_unlock(&t->mu);
    return unit;
}

void team_abort(team *t)
{
    pthread_mutex_lock(&t->mu);
    t->aborted = true;
    update_hunger(t);
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

void *team_drain(team *t)
{
    pthread_mutex_lock(&t->mu);
    void *unit = t->qn > 0 ? t->q[--t->qn] : NULL;
    pthread_mutex_unlock(&t->mu);
    return unit;
}

void team_set_distributed(team *t)
{
    pthread_mutex_lock(&t->mu);
    t->distributed = true;
    pthread_mutex_unlock(&t->mu);
}

bool team_passive(team *t)
{
    pthread_mutex_lock(&t->mu);
    bool p = t->aborted || t->finished || (t->idle == t->workers && t->qn == 0);
    pthread_mutex_unlock(&t->mu);
    return p;
}

bool team_aborted(team *t)
{
    pthread_mutex_lock(&t->mu);
    bool a = t->aborted;
    pthread_mutex_unlock(&t->mu);
    return a;
}

void team_want(team *t, bool want)
{
    pthread_mutex_lock(&t->mu);
    t->want = want;
    update_hunger(t);
    pthread_mutex_unlock(&t->mu);
}

void *team_steal(team *t)
{
    pthread_mutex_lock(&t->mu);
    void *unit = NULL;
    if (t->qn > 0 && !t->aborted) {
        /* the oldest unit: the shallowest split, the biggest piece */
        unit = t->q[0];
        memmove(t->q, t->q + 1, (size_t)(t->qn - 1) * sizeof *t->q);
        t->qn--;
    }
    update_hunger(t);
    pthread_mutex_unlock(&t->mu);
    return unit;
}

void team_finish(team *t)
{
    pthread_mutex_lock(&t->mu);
    t->finished = true;
    update_hunger(t);
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

bool team_run(team *t, void *(*fn)(void *), void **args)
{
    int n = t->workers;
    pthread_t *th = wmx_calloc((size_t)n, sizeof *th);
    int started = 1;
    for (int i = 1; i < n; i++) {
        if (pthread_create(&th[i], NULL, fn, args[i]) != 0)
            break;
        started++;
    }
    if (started < n) {
        /* fewer threads than asked: the work is shared dynamically, so the
         * run only has to stop waiting for the ones that never came */
        pthread_mutex_lock(&t->mu);
        t->workers = started;
        update_hunger(t);
        pthread_cond_broadcast(&t->cv);
        pthread_mutex_unlock(&t->mu);
    }
    fn(args[0]);
    for (int i = 1; i < started; i++)
        pthread_join(th[i], NULL);
    free(th);
    return started == n;
}
