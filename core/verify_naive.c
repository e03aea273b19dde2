/* verify_naive.c - the naive baseline for reads-from consistency: a
 * depth-first enumeration of interleavings of thread events and
 * memory-writes (store buffers simulated directly), pruning a branch as soon
 * as a read would see another write than its RF, or a write would overwrite
 * a value some read still has to see.  No memoisation and no eager steps:
 * exponential, kept for differential tests and benchmarks. */
#include "verify.h"

#include <stdlib.h>
#include <string.h>

typedef struct nv {
    const wmx_exec *x;
    wmx_model model;
    int k, nc;
    int *pos;            /* per thread */
    int **buf;           /* per thread: unflushed executed two-phase writes, oldest first */
    int *nbuf;
    int *curw;           /* per cell */
    int *pend;           /* per event: reads of it not executed yet; + observers */
    int *pend_init;      /* per cell */
    int *obs;            /* per cell, -2 none */
    int nflush_left;
    long states, max_states;
    bool stopped;
    wmx_transition *path;
    int depth;
} nv;

static int *pendp(nv *s, int w, int c)
{
    return w < 0 ? &s->pend_init[c] : &s->pend[w];
}

static bool two_phase(const nv *s, const xevent *e)
{
    return s->model != MODEL_SC && e->kind == X_WRITE;
}

/* the write thread t sees for cell c */
static int visible(const nv *s, int t, int c)
{
    for (int i = s->nbuf[t] - 1; i >= 0; i--)
        if (s->x->ev[s->buf[t][i]].cell == c)
            return s->buf[t][i];
    return s->curw[c];
}

static bool goal(const nv *s)
{
    for (int t = 0; t < s->k; t++)
        if (s->pos[t] < s->x->tstart[t + 1] - s->x->tstart[t] || s->nbuf[t] > 0)
            return false;
    for (int c = 0; c < s->nc; c++)
        if (s->obs[c] != -2 && s->curw[c] != s->obs[c])
            return false;
    return true;
}

static bool go(nv *s);

static bool try_step(nv *s, int t)
{
    const wmx_exec *x = s->x;
    if (s->pos[t] >= x->tstart[t + 1] - x->tstart[t])
        return false;
    int e = x->tstart[t] + s->pos[t];
    const xevent *v = &x->ev[e];
    int saved_curw = -3;
    switch (v->kind) {
    case X_READ: case X_AWAIT:
        if (visible(s, t, v->cell) != v->rf)
            return false;
        break;
    case X_FENCE:
        if (s->nbuf[t] > 0)
            return false;
        break;
    case X_RMW:
        if (s->nbuf[t] > 0 || s->curw[v->cell] != v->rf)
            return false;
        if (v->wrote && *pendp(s, v->rf, v->cell) > 1)
            return false;
        break;
    case X_WRITE:
        if (!two_phase(s, v) && *pendp(s, s->curw[v->cell], v->cell) > 0)
            return false;
        break;
    }
    if (xev_is_read(v))
        (*pendp(s, v->rf, v->cell))--;
    if (v->kind == X_WRITE && two_phase(s, v))
        s->buf[t][s->nbuf[t]++] = e;
    else if (xev_is_write(v)) {
        saved_curw = s->curw[v->cell];
        s->curw[v->cell] = e;
    }
    s->pos[t]++;
    s->path[s->depth++] = (wmx_transition){ TR_STEP, t, -1 };
    if (go(s))
        return true;
    s->depth--;
    s->pos[t]--;
    if (v->kind == X_WRITE && two_phase(s, v))
        s->nbuf[t]--;
    else if (xev_is_write(v))
        s->curw[v->cell] = saved_curw;
    if (xev_is_read(v))
        (*pendp(s, v->rf, v->cell))++;
    return false;
}

static bool try_flush(nv *s, int t, int i)
{
    const wmx_exec *x = s->x;
    int w = s->buf[t][i];
    const xevent *v = &x->ev[w];
    if (!v->flushed)
        return false;
    if (s->model == MODEL_TSO && i != 0)
        return false;
    for (int j = 0; j < i; j++)
        if (x->ev[s->buf[t][j]].cell == v->cell)
            return false;
    if (*pendp(s, s->curw[v->cell], v->cell) > 0)
        return false;         /* would destroy a value a read still needs */
    int saved = s->curw[v->cell];
    s->curw[v->cell] = w;
    memmove(&s->buf[t][i], &s->buf[t][i + 1], (size_t)(s->nbuf[t] - i - 1) * sizeof(int));
    s->nbuf[t]--;
    s->path[s->depth++] = (wmx_transition){ TR_FLUSH, t, s->model == MODEL_PSO ? v->cell : -1 };
    if (go(s))
        return true;
    s->depth--;
    memmove(&s->buf[t][i + 1], &s->buf[t][i], (size_t)(s->nbuf[t] - i) * sizeof(int));
    s->buf[t][i] = w;
    s->nbuf[t]++;
    s->curw[v->cell] = saved;
    return false;
}

static bool go(nv *s)
{
    if (goal(s))
        return true;
    if (s->max_states && s->states >= s->max_states) {
        s->stopped = true;
        return false;
    }
    s->states++;
    for (int t = 0; t < s->k && !s->stopped; t++) {
        if (try_step(s, t))
            return true;
        for (int i = 0; i < s->nbuf[t] && !s->stopped; i++)
            if (try_flush(s, t, i))
                return true;
    }
    return false;
}

int verify_naive(const wmx_exec *x, wmx_model model, long max_states, verify_result *res)
{
    memset(res, 0, sizeof *res);
    res->model = model;
    nv s = { .x = x, .model = model, .k = x->nthreads, .nc = x->ncells, .max_states = max_states };
    s.pos = wmx_calloc((size_t)s.k + 1, sizeof(int));
    s.nbuf = wmx_calloc((size_t)s.k + 1, sizeof(int));
    s.buf = wmx_calloc((size_t)s.k + 1, sizeof(int *));
    for (int t = 0; t < s.k; t++)
        s.buf[t] = wmx_malloc((size_t)(x->tstart[t + 1] - x->tstart[t] + 1) * sizeof(int));
    s.curw = wmx_malloc((size_t)(s.nc + 1) * sizeof(int));
    s.obs = wmx_malloc((size_t)(s.nc + 1) * sizeof(int));
    s.pend_init = wmx_calloc((size_t)s.nc + 1, sizeof(int));
    s.pend = wmx_calloc((size_t)x->nev + 1, sizeof(int));
    s.path = wmx_malloc((size_t)(2 * x->nev + 1) * sizeof *s.path);
    for (int c = 0; c < s.nc; c++) {
        s.curw[c] = -1;
        s.obs[c] = -2;
    }
    bool bad = false;
    for (int e = 0; e < x->nev; e++) {
        const xevent *v = &x->ev[e];
        if (!xev_is_read(v))
            continue;
        if (v->rf >= 0 && (!xev_is_write(&x->ev[v->rf]) || x->ev[v->rf].cell != v->cell ||
                           x->ev[v->rf].value != (v->kind == X_RMW ? v->read : v->value)))
            bad = true;
        if (v->rf < 0 && x->cell_init[v->cell] != (v->kind == X_RMW ? v->read : v->value))
            bad = true;
        (*pendp(&s, v->rf, v->cell))++;
    }
    for (int i = 0; i < x->nobs; i++) {
        s.obs[x->obs_cell[i]] = x->obs_writer[i];
        (*pendp(&s, x->obs_writer[i], x->obs_cell[i]))++;
    }
    bool ok = !bad && go(&s);
    res->consistent = ok;
    res->states = s.states;
    if (ok) {
        res->wlen = s.depth;
        res->witness = wmx_malloc((size_t)(s.depth + 1) * sizeof *res->witness);
        memcpy(res->witness, s.path, (size_t)s.depth * sizeof *s.path);
    }
    for (int t = 0; t < s.k; t++)
        free(s.buf[t]);
    free(s.buf);
    free(s.pos);
    free(s.nbuf);
    free(s.curw);
    free(s.obs);
    free(s.pend_init);
    free(s.pend);
    free(s.path);
    return s.stopped ? -1 : 0;
}
