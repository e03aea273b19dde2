/* verify.c - VSC-rf, VTSO-rf and VPSO-rf with witnesses and explanations
 * (see verify.h for the algorithm). */
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *verify_block_name(verify_block b)
{
    switch (b) {
    case VB_OK: return "executable";
    case VB_DONE: return "nothing left";
    case VB_PO: return "program order";
    case VB_REMOTE_MISSING: return "remote write missing";
    case VB_HELD: return "variable held";
    case VB_LOCAL_UNFLUSHED: return "local write unflushed";
    case VB_BUFFER: return "buffer not empty";
    case VB_RMW_OVERWRITE: return "rmw would overwrite a needed write";
    case VB_NEVER: return "never reaches memory";
    }
    return "?";
}

/* ---- the prefix state ---- */

typedef struct undo {
    int kind;          /* 0 = step of thread a, 1 = flush of queue a */
    int a;
    int prev_curw;     /* cell's writer before (flush, rmw write), or -3 */
} undo;

struct verify_prefix {
    const wmx_exec *x;
    wmx_model model;
    int k, n, ncells, nq;
    /* static */
    int *qof, *qidx;          /* per event: queue of a two-phase write, index in it */
    int *qstart, *qw, *qthread, *qcell, *qflushable; /* queues */
    int *reqstart, *req;      /* per event: writes that must be done before its memory-write */
    int *wbefore;             /* per event: two-phase writes of its thread before it */
    int *nreaders;            /* per event: reads of it (+ observer) */
    int *init_readers;        /* per cell */
    int *obs;                 /* per cell: observed final writer, -2 = none */
    /* dynamic */
    int *pos, *fl, *ftot, *curw, *pend, *pend_init;
    int done_events, done_flushes, total_flushes;
    /* log */
    int nlog, caplog;
    undo *log;
    /* the arrays above live in two blocks (one per size known), not twenty
     * allocations: RF-SMC builds a prefix for every consistency check */
    int *block1, *block2;
};

/* Takes n ints from a block being carved. */
static int *carve(int **at, size_t n)
{
    int *r = *at;
    *at += n;
    return r;
}

static bool two_phase(const verify_prefix *p, int e)
{
    return p->qof[e] >= 0;
}

static int *pend_of(verify_prefix *p, int w, int cell)
{
    return w < 0 ? &p->pend_init[cell] : &p->pend[w];
}

static int pend_get(const verify_prefix *p, int w, int cell)
{
    return w < 0 ? p->pend_init[cell] : p->pend[w];
}

/* The write is done: atomic writes when executed, two-phase ones when their
 * memory-write is. */
static bool write_done(const verify_prefix *p, int w)
{
    if (w < 0)
        return true;
    if (two_phase(p, w))
        return p->fl[p->qof[w]] > p->qidx[w];
    const xevent *e = &p->x->ev[w];
    return p->pos[e->thread] > e->index;
}

static bool held(const verify_prefix *p, int cell)
{
    return pend_get(p, p->curw[cell], cell) > 0;
}

/* Condition 2b of the paper for the memory-write of w. */
static int req_blocker(const verify_prefix *p, int w)
{
    for (int i = p->reqstart[w]; i < p->reqstart[w + 1]; i++)
        if (!write_done(p, p->req[i]))
            return p->req[i];
    return -1;
}

verify_prefix *verify_prefix_new(const wmx_exec *x, wmx_model model)
{
    verify_prefix *p = wmx_calloc(1, sizeof *p);
    p->x = x;
    p->model = model;
    p->k = x->nthreads;
    p->n = x->nev;
    p->ncells = x->ncells;
    int n = x->nev, k = x->nthreads, nc = x->ncells;
    size_t n1 = (size_t)n + 1, c1 = (size_t)nc + 1;
    int *b = p->block1 = wmx_calloc(6 * n1 + 1 + 4 * c1 + 2 * ((size_t)k + 1), sizeof(int));
    p->qof = carve(&b, n1);
    p->qidx = carve(&b, n1);
    p->wbefore = carve(&b, n1);
    p->nreaders = carve(&b, n1);
    p->pend = carve(&b, n1);
    p->reqstart = carve(&b, n1 + 1);
    p->init_readers = carve(&b, c1);
    p->pend_init = carve(&b, c1);
    p->curw = carve(&b, c1);
    p->obs = carve(&b, c1);
    p->pos = carve(&b, (size_t)k + 1);
    p->ftot = carve(&b, (size_t)k + 1);
    for (int c = 0; c < nc; c++) {
        p->curw[c] = -1;
        p->obs[c] = -2;
    }
    /* queues: TSO one per thread, PSO one per (thread, cell) used (the
     * table is per thread under TSO: rfsmc checks often, on programs with
     * thousands of cells) */
    size_t stride = model == MODEL_PSO ? c1 : 1, nkeys = model == MODEL_SC ? 0 : (size_t)k * stride;
    int *qid = wmx_malloc((nkeys + 1) * sizeof(int));
    for (size_t i = 0; i < nkeys; i++)
        qid[i] = -1;
    int nq = 0;
    int *qcount = NULL;
    for (int e = 0; e < n; e++) {
        const xevent *v = &x->ev[e];
        p->qof[e] = -1;
        if (model == MODEL_SC || v->kind != X_WRITE)
            continue;
        size_t key = model == MODEL_TSO ? (size_t)v->thread : (size_t)v->thread * c1 + (size_t)v->cell;
        if (qid[key] < 0) {
            qid[key] = nq++;
            qcount = wmx_realloc(qcount, (size_t)nq * sizeof(int));
            qcount[nq - 1] = 0;
        }
        p->qof[e] = qid[key];
        p->qidx[e] = qcount[qid[key]]++;
    }
    free(qid);
    p->nq = nq;
    size_t q1 = (size_t)nq + 1;
    b = p->block2 = wmx_calloc(5 * q1 + n1, sizeof(int));
    p->qstart = carve(&b, q1);
    p->qthread = carve(&b, q1);
    p->qcell = carve(&b, q1);
    p->qflushable = carve(&b, q1);
    p->fl = carve(&b, q1);
    p->qw = carve(&b, n1);
    for (int q = 0; q < nq; q++)
        p->qstart[q + 1] = p->qstart[q] + qcount[q];
    free(qcount);
    for (int e = 0; e < n; e++)
        if (p->qof[e] >= 0) {
            int q = p->qof[e];
            p->qw[p->qstart[q] + p->qidx[e]] = e;
            p->qthread[q] = x->ev[e].thread;
            p->qcell[q] = x->ev[e].cell;
        }
    /* flushable prefix of each queue: up to the first unflushed write */
    for (int q = 0; q < nq; q++) {
        int c = 0;
        while (p->qstart[q] + c < p->qstart[q + 1] && x->ev[p->qw[p->qstart[q] + c]].flushed)
            c++;
        p->qflushable[q] = c;
        p->total_flushes += c;
    }
    /* two-phase writes before each event of a thread */
    for (int t = 0; t < k; t++) {
        int c = 0;
        for (int e = x->tstart[t]; e < x->tstart[t + 1]; e++) {
            p->wbefore[e] = c;
            if (p->qof[e] >= 0)
                c++;
        }
    }
    /* readers, and condition 2b: for a read r of w from another thread,
     * the latest write to the variable before r in r's thread must be done
     * before w's memory-write */
    int *scratch = wmx_calloc(2 * n1 + c1, sizeof(int));
    int *cnt = scratch, *latest = scratch + n1, *last_of_cell = scratch + 2 * n1;
    for (int t = 0; t < k; t++) {
        for (int c = 0; c < nc; c++)
            last_of_cell[c] = -1;
        for (int e = x->tstart[t]; e < x->tstart[t + 1]; e++) {
            const xevent *v = &x->ev[e];
            latest[e] = -1;
            if (xev_is_read(v)) {
                latest[e] = last_of_cell[v->cell];
                if (v->rf >= 0) {
                    p->nreaders[v->rf]++;
                    if (x->ev[v->rf].thread != t && latest[e] >= 0)
                        cnt[v->rf]++;
                } else {
                    p->init_readers[v->cell]++;
                }
            }
            if (xev_is_write(v))
                last_of_cell[v->cell] = e;
        }
    }
    for (int e = 0; e < n; e++)
        p->reqstart[e + 1] = p->reqstart[e] + cnt[e];
    p->req = wmx_malloc(((size_t)p->reqstart[n] + 1) * sizeof(int));
    for (int e = 0; e < n; e++)
        cnt[e] = p->reqstart[e];
    for (int e = 0; e < n; e++) {
        const xevent *v = &x->ev[e];
        if (xev_is_read(v) && v->rf >= 0 && x->ev[v->rf].thread != v->thread && latest[e] >= 0)
            p->req[cnt[v->rf]++] = latest[e];
    }
    free(scratch);
    for (int i = 0; i < x->nobs; i++) {
        int c = x->obs_cell[i], w = x->obs_writer[i];
        p->obs[c] = w;
        if (w >= 0)
            p->nreaders[w]++;
        else
            p->init_readers[c]++;
    }
    for (int e = 0; e < n; e++)
        p->pend[e] = p->nreaders[e];
    for (int c = 0; c < nc; c++)
        p->pend_init[c] = p->init_readers[c];
    return p;
}

void verify_prefix_free(verify_prefix *p)
{
    if (!p)
        return;
    free(p->block1);
    free(p->block2);
    free(p->req);
    free(p->log);
    free(p);
}

/* Why the next thread event of t cannot run (VB_OK when it can). */
static verify_block step_block(const verify_prefix *p, int t, int *blocker)
{
    const wmx_exec *x = p->x;
    *blocker = -1;
    if (t < 0 || t >= p->k || p->pos[t] >= x->tstart[t + 1] - x->tstart[t])
        return VB_DONE;
    int e = x->tstart[t] + p->pos[t];
    const xevent *v = &x->ev[e];
    bool relaxed = p->model != MODEL_SC;
    switch (v->kind) {
    case X_WRITE:
        if (relaxed)
            return VB_OK;
        if (held(p, v->cell)) {
            *blocker = p->curw[v->cell];
            return VB_HELD;
        }
        if ((*blocker = req_blocker(p, e)) >= 0)
            return VB_LOCAL_UNFLUSHED;
        return VB_OK;
    case X_READ: case X_AWAIT:
        if (v->rf >= 0 && x->ev[v->rf].thread != t && !write_done(p, v->rf)) {
            *blocker = v->rf;
            return VB_REMOTE_MISSING;
        }
        return VB_OK;
    case X_FENCE:
        if (relaxed && p->ftot[t] < p->wbefore[e])
            return VB_BUFFER;
        return VB_OK;
    case X_RMW:
        if (relaxed && p->ftot[t] < p->wbefore[e])
            return VB_BUFFER;
        if (v->rf >= 0 && !write_done(p, v->rf)) {
            *blocker = v->rf;
            return VB_REMOTE_MISSING;
        }
        if (v->wrote) {
            if (pend_get(p, v->rf, v->cell) > 1 || p->curw[v->cell] != v->rf) {
                *blocker = v->rf;
                return VB_RMW_OVERWRITE;
            }
            if ((*blocker = req_blocker(p, e)) >= 0)
                return VB_LOCAL_UNFLUSHED;
        }
        return VB_OK;
    }
    return VB_OK;
}

static verify_block flush_block(const verify_prefix *p, int q, int *blocker)
{
    *blocker = -1;
    if (q < 0 || p->fl[q] >= p->qstart[q + 1] - p->qstart[q])
        return VB_DONE;
    if (p->fl[q] >= p->qflushable[q])
        return VB_NEVER;
    int w = p->qw[p->qstart[q] + p->fl[q]];
    const xevent *v = &p->x->ev[w];
    if (p->pos[v->thread] <= v->index)
        return VB_PO;
    if (held(p, v->cell)) {
        *blocker = p->curw[v->cell];
        return VB_HELD;
    }
    if ((*blocker = req_blocker(p, w)) >= 0)
        return VB_LOCAL_UNFLUSHED;
    return VB_OK;
}

static void log_push(verify_prefix *p, int kind, int a, int prev)
{
    if (p->nlog == p->caplog) {
        p->caplog = p->caplog ? 2 * p->caplog : 64;
        p->log = wmx_realloc(p->log, (size_t)p->caplog * sizeof *p->log);
    }
    p->log[p->nlog++] = (undo){ kind, a, prev };
}

static void do_step(verify_prefix *p, int t)
{
    const wmx_exec *x = p->x;
    int e = x->tstart[t] + p->pos[t];
    const xevent *v = &x->ev[e];
    int prev = -3;
    if (xev_is_read(v))
        (*pend_of(p, v->rf, v->cell))--;
    if (xev_is_write(v) && !two_phase(p, e)) {
        prev = p->curw[v->cell];
        p->curw[v->cell] = e;
    }
    p->pos[t]++;
    p->done_events++;
    log_push(p, 0, t, prev);
}

static void do_flush(verify_prefix *p, int q)
{
    int w = p->qw[p->qstart[q] + p->fl[q]];
    int cell = p->x->ev[w].cell;
    log_push(p, 1, q, p->curw[cell]);
    p->curw[cell] = w;
    p->fl[q]++;
    p->ftot[p->qthread[q]]++;
    p->done_flushes++;
}

static void undo_to(verify_prefix *p, int mark)
{
    const wmx_exec *x = p->x;
    while (p->nlog > mark) {
        undo u = p->log[--p->nlog];
        if (u.kind == 0) {
            int t = u.a;
            p->pos[t]--;
            p->done_events--;
            int e = x->tstart[t] + p->pos[t];
            const xevent *v = &x->ev[e];
            if (xev_is_read(v))
                (*pend_of(p, v->rf, v->cell))++;
            if (u.prev_curw != -3)
                p->curw[v->cell] = u.prev_curw;
        } else {
            int q = u.a;
            p->fl[q]--;
            p->ftot[p->qthread[q]]--;
            p->done_flushes--;
            int w = p->qw[p->qstart[q] + p->fl[q]];
            p->curw[p->x->ev[w].cell] = u.prev_curw;
        }
    }
}

/* Executes everything that can run without a choice: executable thread
 * events (atomic writes only when no read needs them) and spurious
 * memory-writes. */
static void closure(verify_prefix *p)
{
    const wmx_exec *x = p->x;
    bool progress = true;
    while (progress) {
        progress = false;
        for (int t = 0; t < p->k; t++) {
            for (;;) {
                int b;
                if (step_block(p, t, &b) != VB_OK)
                    break;
                int e = x->tstart[t] + p->pos[t];
                if (x->ev[e].kind == X_WRITE && !two_phase(p, e) && p->pend[e] > 0)
                    break;          /* an atomic write others read: a choice */
                do_step(p, t);
                progress = true;
            }
        }
        for (int q = 0; q < p->nq; q++) {
            for (;;) {
                int b;
                if (flush_block(p, q, &b) != VB_OK)
                    break;
                int w = p->qw[p->qstart[q] + p->fl[q]];
                if (p->pend[w] > 0)
                    break;
                do_flush(p, q);
                progress = true;
            }
        }
    }
}

static bool complete(const verify_prefix *p)
{
    if (p->done_events != p->n || p->done_flushes != p->total_flushes)
        return false;
    for (int c = 0; c < p->ncells; c++)
        if (p->obs[c] != -2 && p->curw[c] != p->obs[c])
            return false;
    return true;
}

/* ---- public prefix API ---- */

static int queue_of(const verify_prefix *p, int thread, int cell)
{
    for (int q = 0; q < p->nq; q++)
        if (p->qthread[q] == thread && (p->model == MODEL_TSO || p->qcell[q] == cell))
            return q;
    return -1;
}

verify_block verify_prefix_executable(const verify_prefix *p, const wmx_transition *t)
{
    int b;
    if (t->kind == TR_STEP)
        return step_block(p, t->thread, &b);
    return flush_block(p, queue_of(p, t->thread, t->cell), &b);
}

int verify_prefix_apply(verify_prefix *p, const wmx_transition *t)
{
    if (verify_prefix_executable(p, t) != VB_OK)
        return -1;
    if (t->kind == TR_STEP)
        do_step(p, t->thread);
    else
        do_flush(p, queue_of(p, t->thread, t->cell));
    return 0;
}

bool verify_prefix_held(const verify_prefix *p, int cell)
{
    return cell >= 0 && cell < p->ncells && held(p, cell);
}

bool verify_prefix_spurious(const verify_prefix *p, int w)
{
    if (w < 0 || w >= p->n || !xev_is_write(&p->x->ev[w]))
        return false;
    /* (1) no read outside the prefix reads it; (2) reads in the prefix that
     * read it did so before the memory-write, i.e. from the buffer: with the
     * hold discipline this is the case exactly when the write has no pending
     * reader when it reaches memory, which (1) already says */
    return p->pend[w] == 0;
}

bool verify_prefix_pending(const verify_prefix *p, int w)
{
    if (w < 0 || w >= p->n || !two_phase(p, w))
        return false;
    const xevent *v = &p->x->ev[w];
    return p->pos[v->thread] > v->index && !write_done(p, w);
}

bool verify_prefix_complete(const verify_prefix *p)
{
    return complete(p);
}

/* ---- structural checks: RF facts that no order can satisfy ---- */

typedef struct expl {
    char *text;
    size_t len, cap;
    int nfacts;
    verify_fact *facts;
} expl;

static void ex_printf(expl *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ex_printf(expl *e, const char *fmt, ...)
{
    wmx_strbuf b = { e->text, e->len, e->cap };
    va_list ap;
    va_start(ap, fmt);
    wmx_strbuf_vprintf(&b, fmt, ap);
    va_end(ap);
    e->text = b.s;
    e->len = b.len;
    e->cap = b.cap;
}

static void ex_fact(expl *e, rel_kind k, int from, int to, int cell, const char *note)
{
    e->facts = wmx_realloc(e->facts, (size_t)(e->nfacts + 1) * sizeof *e->facts);
    e->facts[e->nfacts++] = (verify_fact){ k, from, to, cell, note ? wmx_strdup(note) : NULL };
}

#define D(e) exec_event_describe(x, (e), d1, sizeof d1)
#define D2(e) exec_event_describe(x, (e), d2, sizeof d2)

static wmx_val value_read(const xevent *r)
{
    return r->kind == X_RMW ? r->read : r->value;
}

/* Returns true (and explains) when the RF breaks a rule on its own. */
static bool structural(const wmx_exec *x, wmx_model model, expl *ex,
                       bool (*stop)(void *ud), void *ud, bool *stopped)
{
    char d1[512], d2[512], cn[128];
    for (int i = 0; i < x->nev; i++) {
        const xevent *r = &x->ev[i];
        if (!xev_is_read(r))
            continue;
        /* each read scans its thread: quadratic on long threads, so poll */
        if (stop && stop(ud)) {
            *stopped = true;
            return false;
        }
        int w = r->rf;
        wmx_val wv = w < 0 ? x->cell_init[r->cell] : x->ev[w].value;
        if (w >= 0 && (!xev_is_write(&x->ev[w]) || x->ev[w].cell != r->cell)) {
            ir_cell_name(x->prog, r->cell, cn, sizeof cn);
            ex_printf(ex, "%s is said to read from %s, which does not write %s.\n", D(i), D2(w), cn);
            ex_fact(ex, REL_RF, w, i, r->cell, NULL);
            return true;
        }
        if (value_read(r) != wv) {
            ex_printf(ex, "%s reads the value %lld, but it reads from %s, which is %lld.\n", D(i),
                      (long long)value_read(r), D2(w), (long long)wv);
            ex_fact(ex, REL_RF, w, i, r->cell, "the values differ");
            return true;
        }
        /* the latest own write to the cell before r */
        int t = r->thread, last = -1;
        for (int e = x->tstart[t]; e < i; e++)
            if (xev_is_write(&x->ev[e]) && x->ev[e].cell == r->cell)
                last = e;
        if (w >= 0 && x->ev[w].thread == t && w >= i) {
            ex_printf(ex, "%s reads from %s, which comes later in the same thread (po): "
                          "a thread cannot see its own future writes.\n", D(i), D2(w));
            ex_fact(ex, REL_RF, w, i, r->cell, NULL);
            ex_fact(ex, REL_PO, i, w, -1, NULL);
            return true;
        }
        if (last >= 0 && w != last && (w < 0 || x->ev[w].thread == t)) {
            ir_cell_name(x->prog, r->cell, cn, sizeof cn);
            ex_printf(ex, "%s reads from %s, but its own thread wrote %s again before the read:\n"
                          "  %s\nA thread always sees its own latest write to a variable, or a newer one "
                          "(uniproc: po-loc and rf/co/fr form a cycle).\n", D(i), D2(w), cn,
                      exec_event_describe(x, last, d2, sizeof d2));
            ex_fact(ex, REL_RF, w, i, r->cell, NULL);
            ex_fact(ex, REL_PO, last, i, r->cell, "same variable, earlier in the thread");
            if (w >= 0)
                ex_fact(ex, REL_CO, w, last, r->cell, "a thread's writes reach memory in program order");
            ex_fact(ex, REL_FR, i, last, r->cell, "the read sees a write older than 'last'");
            return true;
        }
        if (model != MODEL_SC && w >= 0 && x->ev[w].thread != t && x->ev[w].kind == X_WRITE && !x->ev[w].flushed) {
            ex_printf(ex, "%s reads from %s of another thread, but that write never reaches memory "
                          "in this execution (it stays in its store buffer).\n", D(i), D2(w));
            ex_fact(ex, REL_RF, w, i, r->cell, NULL);
            return true;
        }
        if (model != MODEL_SC && last >= 0 && w != last && x->ev[last].kind == X_WRITE && !x->ev[last].flushed) {
            ex_printf(ex, "%s must read %s from memory, but its own earlier write\n  %s\nnever leaves the "
                          "store buffer, so the read would see that one.\n", D(i), D2(w),
                      exec_event_describe(x, last, d2, sizeof d2));
            ex_fact(ex, REL_RF, w, i, r->cell, NULL);
            ex_fact(ex, REL_PO, last, i, r->cell, NULL);
            return true;
        }
    }
    if (model != MODEL_SC) {
        for (int t = 0; t < x->nthreads; t++) {
            int unfl = -1;
            for (int e = x->tstart[t]; e < x->tstart[t + 1]; e++) {
                const xevent *v = &x->ev[e];
                if (v->kind == X_WRITE && !v->flushed && unfl < 0)
                    unfl = e;
                else if (unfl >= 0 && (v->kind == X_FENCE || v->kind == X_RMW ||
                                       (v->kind == X_WRITE && v->flushed &&
                                        (model == MODEL_TSO || v->cell == x->ev[unfl].cell)))) {
                    ex_printf(ex, "%s never reaches memory, yet %s comes after it in %s and needs it flushed first "
                                  "(buffers drain in order; fences and rmws wait for an empty buffer).\n",
                              D(unfl), D2(e), x->prog->threads[t].name);
                    ex_fact(ex, REL_PO, unfl, e, -1, NULL);
                    return true;
                }
            }
        }
    }
    for (int i = 0; i < x->nobs; i++) {
        int w = x->obs_writer[i];
        if (model != MODEL_SC && w >= 0 && x->ev[w].kind == X_WRITE && !x->ev[w].flushed) {
            ir_cell_name(x->prog, x->obs_cell[i], cn, sizeof cn);
            ex_printf(ex, "The final value of %s should come from %s, which never reaches memory.\n", cn, D(w));
            return true;
        }
    }
    return false;
}

/* ---- explanation by saturation: a cycle of po/rf/co/fr ---- */

#define SAT_MAX 240

typedef struct sat {
    int n;                 /* nodes: events, then one init node per cell */
    int words;
    uint64_t *g, *u;       /* adjacency bit matrices: causality, uniproc */
    uint64_t *rg, *ru;     /* reachability */
    rel_kind *lab;         /* n*n labels of direct edges (last set wins) */
    int *why;              /* n*n: for derived co/fr, the read that forced it */
} sat;

#define BIT(m, i, j, W) ((m)[(size_t)(i) * (W) + ((j) >> 6)] >> ((j) & 63) & 1)
#define SETB(m, i, j, W) ((m)[(size_t)(i) * (W) + ((j) >> 6)] |= (uint64_t)1 << ((j) & 63))

static void closure_bits(const uint64_t *adj, uint64_t *reach, int n, int W)
{
    memcpy(reach, adj, (size_t)n * (size_t)W * sizeof *reach);
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            if (BIT(reach, i, k, W))
                for (int w = 0; w < W; w++)
                    reach[(size_t)i * W + w] |= reach[(size_t)k * W + w];
}

static void sat_edge(sat *s, int graph, int a, int b, rel_kind k, int why)
{
    int W = s->words;
    if (graph & 1) SETB(s->g, a, b, W);
    if (graph & 2) SETB(s->u, a, b, W);
    if (s->lab[(size_t)a * s->n + b] == (rel_kind)-1 || k == REL_RF) {
        s->lab[(size_t)a * s->n + b] = k;
        s->why[(size_t)a * s->n + b] = why;
    }
}

/* Whether po between a < b (same thread) is kept by the model. */
static bool ppo_kept(const wmx_exec *x, wmx_model model, int a, int b)
{
    if (model == MODEL_SC)
        return true;
    const xevent *ea = &x->ev[a], *eb = &x->ev[b];
    if (ea->kind != X_WRITE)
        return true;
    bool relaxed = (eb->kind == X_READ || eb->kind == X_AWAIT) ||
                   (model == MODEL_PSO && eb->kind == X_WRITE && eb->cell != ea->cell);
    if (!relaxed)
        return true;
    for (int e = a + 1; e < b; e++)
        if (x->ev[e].kind == X_FENCE || x->ev[e].kind == X_RMW)
            return true;
    return false;
}

/* Shortest cycle in the graph (adjacency bits) through any node; writes
 * the node sequence into cyc and returns its length, 0 if none. */
static int find_cycle(const uint64_t *adj, int n, int W, int *cyc)
{
    int best = 0;
    int *dist = wmx_malloc((size_t)n * sizeof *dist), *par = wmx_malloc((size_t)n * sizeof *par);
    int *queue = wmx_malloc((size_t)n * sizeof *queue);
    for (int s = 0; s < n; s++) {
        for (int i = 0; i < n; i++)
            dist[i] = -1;
        int h = 0, tl = 0;
        queue[tl++] = s;
        dist[s] = 0;
        int found = -1;
        while (h < tl && found < 0) {
            int a = queue[h++];
            if (best && dist[a] + 1 >= best)
                break;
            for (int b = 0; b < n; b++) {
                if (!BIT(adj, a, b, W))
                    continue;
                if (b == s) {
                    found = a;
                    break;
                }
                if (dist[b] < 0) {
                    dist[b] = dist[a] + 1;
                    par[b] = a;
                    queue[tl++] = b;
                }
            }
        }
        if (found >= 0 && (!best || dist[found] + 1 < best)) {
            best = dist[found] + 1;
            int len = best;
            for (int v = found, i = len - 1; i >= 0; i--) {
                cyc[i] = v;
                if (v != s)
                    v = par[v];
            }
        }
    }
    free(dist);
    free(par);
    free(queue);
    return best;
}

/* Whether the graph has a cycle: Kahn's algorithm, O(n^2) on the bits
 * (find_cycle's search from every node costs n^3 when there is none). */
static bool has_cycle(const uint64_t *adj, int n, int W)
{
    int *indeg = wmx_calloc((size_t)n + 1, sizeof *indeg), *queue = wmx_malloc(((size_t)n + 1) * sizeof *queue);
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            indeg[b] += (int)BIT(adj, a, b, W);
    int h = 0, t = 0;
    for (int v = 0; v < n; v++)
        if (indeg[v] == 0)
            queue[t++] = v;
    while (h < t) {
        int a = queue[h++];
        for (int b = 0; b < n; b++)
            if (BIT(adj, a, b, W) && --indeg[b] == 0)
                queue[t++] = b;
    }
    free(indeg);
    free(queue);
    return t < n;
}

/* s.why of a co edge that the outcome's final value implies */
#define SAT_WHY_FINAL (-2)

static bool saturate(const wmx_exec *x, wmx_model model, expl *ex)
{
    int ne = x->nev, nc = x->ncells;
    int n = ne + nc;
    if (n > SAT_MAX || n == 0)
        return false;
    sat s = { n, (n + 63) / 64, NULL, NULL, NULL, NULL, NULL, NULL };
    int W = s.words;
    size_t bits = (size_t)n * (size_t)W;
    s.g = wmx_calloc(bits, sizeof(uint64_t));
    s.u = wmx_calloc(bits, sizeof(uint64_t));
    s.rg = wmx_calloc(bits, sizeof(uint64_t));
    s.ru = wmx_calloc(bits, sizeof(uint64_t));
    s.lab = wmx_malloc((size_t)n * (size_t)n * sizeof *s.lab);
    s.why = wmx_malloc((size_t)n * (size_t)n * sizeof *s.why);
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++) {
        s.lab[i] = (rel_kind)-1;
        s.why[i] = -1;
    }
#define NODE(w, c) ((w) < 0 ? ne + (c) : (w))
    for (int t = 0; t < x->nthreads; t++)
        for (int a = x->tstart[t]; a < x->tstart[t + 1]; a++)
            for (int b = a + 1; b < x->tstart[t + 1]; b++) {
                bool loc = x->ev[a].cell >= 0 && x->ev[a].cell == x->ev[b].cell;
                bool kept = ppo_kept(x, model, a, b);
                if (kept || loc)
                    sat_edge(&s, (kept ? 1 : 0) | (loc ? 2 : 0), a, b, kept ? REL_PPO : REL_PO, -1);
            }
    /* init writes come before every write of their cell */
    for (int w = 0; w < ne; w++)
        if (xev_is_write(&x->ev[w]))
            sat_edge(&s, 3, ne + x->ev[w].cell, w, REL_CO, -1);
    /* an observed final value (the outcome names it) comes from the write
     * that reaches memory last: every other write of the cell is co-before
     * it.  Programs without reads (2+2W) are explained by these edges. */
    for (int i = 0; i < x->nobs; i++) {
        int c = x->obs_cell[i], fw = x->obs_writer[i];
        if (fw < 0)
            continue;
        for (int w = 0; w < ne; w++)
            if (w != fw && xev_is_write(&x->ev[w]) && x->ev[w].cell == c && !BIT(s.g, w, fw, W))
                sat_edge(&s, 3, w, fw, REL_CO, SAT_WHY_FINAL);
    }
    for (int r = 0; r < ne; r++) {
        const xevent *v = &x->ev[r];
        if (!xev_is_read(v))
            continue;
        int wn = NODE(v->rf, v->cell);
        bool external = v->rf < 0 || x->ev[v->rf].thread != v->thread;
        sat_edge(&s, (external || model == MODEL_SC ? 1 : 0) | 2, wn, r, REL_RF, -1);
    }
    bool cyc_g = false, cyc_u = false;
    for (int iter = 0; iter < 64; iter++) {
        closure_bits(s.g, s.rg, n, W);
        closure_bits(s.u, s.ru, n, W);
        for (int i = 0; i < n; i++) {
            if (BIT(s.rg, i, i, W)) cyc_g = true;
            if (BIT(s.ru, i, i, W)) cyc_u = true;
        }
        if (cyc_g || cyc_u)
            break;
        bool added = false;
        for (int r = 0; r < ne; r++) {
            const xevent *v = &x->ev[r];
            if (!xev_is_read(v))
                continue;
            int wn = NODE(v->rf, v->cell);
            for (int w2 = 0; w2 < ne; w2++) {
                if (w2 == v->rf || w2 == r || !xev_is_write(&x->ev[w2]) || x->ev[w2].cell != v->cell)
                    continue;
                /* w2 reaches r: w2 must be co-before rf(r) */
                if ((BIT(s.rg, w2, r, W) || BIT(s.ru, w2, r, W)) && !BIT(s.g, w2, wn, W)) {
                    sat_edge(&s, 3, w2, wn, REL_CO, r);
                    added = true;
                }
                /* rf(r) co-before w2: then r reads before w2 (fr) */
                bool co_after = v->rf < 0 || BIT(s.rg, wn, w2, W) || BIT(s.ru, wn, w2, W);
                if (co_after && !BIT(s.g, r, w2, W)) {
                    sat_edge(&s, 3, r, w2, REL_FR, v->rf < 0 ? -1 : wn);
                    added = true;
                }
            }
        }
        if (!added)
            break;
    }
    bool found = false;
    if (cyc_g || cyc_u) {
        int *cyc = wmx_malloc((size_t)n * sizeof *cyc);
        /* Prefer the textbook cycle: one of causality that uses no coherence
         * edge derived from a read (those only restate the contradiction,
         * e.g. "w reaches memory before the initial value").  Fall back to
         * the one-variable cycle only when that is the real reason. */
        uint64_t *base = wmx_malloc(bits * sizeof *base);
        memcpy(base, s.g, bits * sizeof *base);
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++)
                if (s.lab[(size_t)a * n + b] == REL_CO && s.why[(size_t)a * n + b] >= 0)
                    base[(size_t)a * W + (b >> 6)] &= ~((uint64_t)1 << (b & 63));
        int len = has_cycle(base, n, W) ? find_cycle(base, n, W, cyc) : 0;
        free(base);
        if (len > 0)
            cyc_u = false;
        else
            len = find_cycle(cyc_u ? s.u : s.g, n, W, cyc);
        if (len > 0) {
            found = true;
            char d1[512], cn[128];
            ex_printf(ex, "Under %s these facts cannot all hold: they form a cycle%s.\n",
                      model == MODEL_SC ? "SC" : model == MODEL_TSO ? "TSO" : "PSO",
                      cyc_u ? " among accesses to one variable (a thread's own accesses must agree with memory)"
                            : " (each step must happen before the next)");
            for (int i = 0; i < len; i++) {
                int a = cyc[i], b = cyc[(i + 1) % len];
                rel_kind k = s.lab[(size_t)a * n + b];
                int ea = a >= ne ? -1 : a, eb = b >= ne ? -1 : b;
                int cell = a >= ne ? a - ne : b >= ne ? b - ne : x->ev[a].cell >= 0 ? x->ev[a].cell : x->ev[b].cell;
                char note[600] = "";
                const char *verb = "";
                switch (k) {
                case REL_PPO: verb = model == MODEL_SC ? "comes before (po)" : "comes before, and the model keeps this order (ppo)"; break;
                case REL_PO: verb = "comes before, same variable (po-loc)"; break;
                case REL_RF: verb = "is read by (rf)"; break;
                case REL_CO: {
                    verb = "reaches memory before (co)";
                    int why = s.why[(size_t)a * n + b];
                    if (ea < 0)
                        snprintf(note, sizeof note, "the initial value comes first");
                    else if (why == SAT_WHY_FINAL)
                        snprintf(note, sizeof note, "the outcome has %s = %lld: that write reaches memory last",
                                 ir_cell_name(x->prog, cell, cn, sizeof cn), (long long)x->ev[eb].value);
                    else if (why >= 0)
                        snprintf(note, sizeof note, "otherwise %s, which reads from %s, would read after %s was overwritten",
                                 exec_event_name(x, why, d1, 64), exec_event_name(x, eb, cn, sizeof cn), "it");
                    break;
                }
                case REL_FR: {
                    verb = "reads a value that is then overwritten by (fr)";
                    snprintf(note, sizeof note, "it reads %s, which reaches memory before this write",
                             exec_event_name(x, x->ev[a].rf, d1, 64));
                    break;
                }
                default: verb = "precedes"; break;
                }
                char da[512], db[512];
                if (ea < 0)
                    snprintf(da, sizeof da, "the initial value of %s", ir_cell_name(x->prog, cell, cn, sizeof cn));
                else
                    exec_event_describe(x, ea, da, sizeof da);
                if (eb < 0)
                    snprintf(db, sizeof db, "the initial value of %s", ir_cell_name(x->prog, cell, cn, sizeof cn));
                else
                    exec_event_describe(x, eb, db, sizeof db);
                ex_printf(ex, "  %d. %s\n     %s\n     %s%s%s%s\n", i + 1, da, verb, db,
                          note[0] ? "\n     (" : "", note, note[0] ? ")" : "");
                ex_fact(ex, k == REL_PPO ? REL_PO : k, ea, eb, cell, note[0] ? note : NULL);
            }
            ex_printf(ex, "Back at step 1: an event cannot come before itself.\n");
        }
        free(cyc);
    }
    free(s.g); free(s.u); free(s.rg); free(s.ru); free(s.lab); free(s.why);
    return found;
#undef NODE
}

/* ---- explanation from the furthest stuck prefix ---- */

static void explain_stuck(const wmx_exec *x, wmx_model model, const undo *best, int nbest, expl *ex)
{
    verify_prefix *p = verify_prefix_new(x, model);
    for (int i = 0; i < nbest; i++) {
        if (best[i].kind == 0)
            do_step(p, best[i].a);
        else
            do_flush(p, best[i].a);
    }
    char d1[512], d2[512], cn[128];
    int total = p->n + p->total_flushes;
    ex_printf(ex, "No order of these events gives every read its write under %s.\n"
                  "The furthest any order gets is %d of %d steps; there it is stuck:\n",
              model == MODEL_SC ? "SC" : model == MODEL_TSO ? "TSO" : "PSO",
              p->done_events + p->done_flushes, total);
    for (int t = 0; t < p->k; t++) {
        int b;
        verify_block why = step_block(p, t, &b);
        if (why == VB_DONE)
            continue;
        int e = x->tstart[t] + p->pos[t];
        const xevent *v = &x->ev[e];
        if (v->cell >= 0)
            ir_cell_name(x->prog, v->cell, cn, sizeof cn);
        switch (why) {
        case VB_REMOTE_MISSING:
            ex_printf(ex, "  - %s waits: it must read %s from memory, which has not reached memory.\n", D(e), D2(b));
            ex_fact(ex, REL_RF, b, e, v->cell, NULL);
            break;
        case VB_BUFFER:
            ex_printf(ex, "  - %s waits for %s's store buffer to drain.\n", D(e), x->prog->threads[t].name);
            break;
        case VB_HELD:
            ex_printf(ex, "  - %s would overwrite %s while some read still has to see %s.\n", D(e), cn,
                      b < 0 ? "the initial value" : D2(b));
            break;
        case VB_RMW_OVERWRITE:
            ex_printf(ex, "  - %s must read %s, and other reads still need that value after it.\n", D(e),
                      b < 0 ? "the initial value" : D2(b));
            break;
        case VB_LOCAL_UNFLUSHED:
            ex_printf(ex, "  - %s must wait for %s to be done first.\n", D(e), D2(b));
            break;
        case VB_OK:
            ex_printf(ex, "  - %s could run, but running it leads nowhere either.\n", D(e));
            break;
        default:
            break;
        }
    }
    for (int q = 0; q < p->nq; q++) {
        int b;
        verify_block why = flush_block(p, q, &b);
        if (why == VB_DONE || why == VB_NEVER || why == VB_PO)
            continue;
        int w = p->qw[p->qstart[q] + p->fl[q]];
        const xevent *v = &x->ev[w];
        ir_cell_name(x->prog, v->cell, cn, sizeof cn);
        if (why == VB_HELD) {
            ex_printf(ex, "  - the memory-write of %s cannot happen: %s is held, some read still has to see %s.\n",
                      D(w), cn, b < 0 ? "the initial value" : D2(b));
            ex_fact(ex, REL_FR, -1, w, v->cell, NULL);
        } else if (why == VB_LOCAL_UNFLUSHED) {
            ex_printf(ex, "  - the memory-write of %s must wait: a read of another thread that comes after\n"
                          "    %s must see it, and that write is still in its store buffer.\n", D(w), D2(b));
        } else if (why == VB_OK) {
            ex_printf(ex, "  - the memory-write of %s could happen, but every continuation gets stuck later.\n", D(w));
        }
    }
    verify_prefix_free(p);
}

/* ---- the search ---- */

typedef struct memo {
    int keylen;
    size_t cap, count;
    int *keys;             /* cap * keylen, slot i used when used[i] */
    unsigned char *used;
} memo;

static uint64_t key_hash(const int *k, int n)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) {
        h ^= (uint64_t)(uint32_t)k[i];
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

static void memo_grow(memo *m);

/* Inserts the key; returns false when it was already there. */
static bool memo_insert(memo *m, const int *key)
{
    if ((m->count + 1) * 2 > m->cap)
        memo_grow(m);
    size_t i = key_hash(key, m->keylen) & (m->cap - 1);
    while (m->used[i]) {
        if (memcmp(&m->keys[i * (size_t)m->keylen], key, (size_t)m->keylen * sizeof(int)) == 0)
            return false;
        i = (i + 1) & (m->cap - 1);
    }
    m->used[i] = 1;
    memcpy(&m->keys[i * (size_t)m->keylen], key, (size_t)m->keylen * sizeof(int));
    m->count++;
    return true;
}

static void memo_grow(memo *m)
{
    memo old = *m;
    m->cap = old.cap ? old.cap * 2 : 1024;
    m->count = 0;
    m->keys = wmx_malloc(m->cap * (size_t)(m->keylen ? m->keylen : 1) * sizeof(int));
    m->used = wmx_calloc(m->cap, 1);
    for (size_t i = 0; i < old.cap; i++)
        if (old.used[i])
            memo_insert(m, &old.keys[i * (size_t)old.keylen]);
    free(old.keys);
    free(old.used);
}

typedef struct search {
    verify_prefix *p;
    memo seen;
    int *key;
    long states;
    int best_done;
    undo *best;
    int nbest;
    bool (*stop)(void *ud);
    void *stop_ud;
    bool stopped;
} search;

static void make_key(search *s)
{
    verify_prefix *p = s->p;
    memcpy(s->key, p->pos, (size_t)p->k * sizeof(int));
    memcpy(s->key + p->k, p->fl, (size_t)p->nq * sizeof(int));
}

/* Keeps the prefix that went furthest (for the explanation).  Called where
 * the search turns back, not at every step: on a long execution the copy at
 * each new depth was quadratic (a 128000-event class: a second). */
static void note_best(search *s)
{
    verify_prefix *p = s->p;
    int done = p->done_events + p->done_flushes;
    if (done > s->best_done) {
        s->best_done = done;
        s->best = wmx_realloc(s->best, (size_t)(p->nlog + 1) * sizeof *s->best);
        if (p->nlog)
            memcpy(s->best, p->log, (size_t)p->nlog * sizeof *s->best);
        s->nbest = p->nlog;
    }
}

static bool dfs(search *s)
{
    verify_prefix *p = s->p;
    if (s->stopped || (s->stop && s->stop(s->stop_ud))) {
        s->stopped = true;
        note_best(s);
        return false;
    }
    closure(p);
    if (complete(p))
        return true;
    make_key(s);
    if (!memo_insert(&s->seen, s->key))
        return false;
    s->states++;
    int mark = p->nlog;
    const wmx_exec *x = p->x;
    if (p->model == MODEL_SC) {
        for (int t = 0; t < p->k; t++) {
            int b;
            if (step_block(p, t, &b) != VB_OK)
                continue;
            do_step(p, t);
            if (dfs(s))
                return true;
            undo_to(p, mark);
        }
    } else {
        for (int q = 0; q < p->nq; q++) {
            int b;
            if (flush_block(p, q, &b) != VB_OK)
                continue;
            do_flush(p, q);
            if (dfs(s))
                return true;
            undo_to(p, mark);
        }
    }
    (void)x;
    note_best(s);
    return false;
}

void verify_result_free(verify_result *res)
{
    free(res->witness);
    free(res->text);
    for (int i = 0; i < res->nfacts; i++)
        free(res->facts[i].note);
    free(res->facts);
    memset(res, 0, sizeof *res);
}

static void finish_expl(verify_result *res, expl *ex)
{
    res->text = ex->text ? ex->text : wmx_strdup("");
    res->facts = ex->facts;
    res->nfacts = ex->nfacts;
}

void verify_check(const wmx_exec *x, wmx_model model, unsigned flags, verify_result *res)
{
    verify_check_stop(x, model, flags, res, NULL, NULL);
}

void verify_check_stop(const wmx_exec *x, wmx_model model, unsigned flags, verify_result *res,
                       bool (*stop)(void *ud), void *ud)
{
    memset(res, 0, sizeof *res);
    res->model = model;
    expl ex = { 0 };
    bool stopped = false;
    bool bad = structural(x, model, &ex, stop, ud, &stopped);
    if (stopped) {
        res->stopped = true;
        if (flags & VERIFY_EXPLAIN)
            res->text = wmx_strdup("no verdict: the check was stopped by a limit\n");
        return;
    }
    if (bad) {
        res->consistent = false;
        if (flags & VERIFY_EXPLAIN)
            finish_expl(res, &ex);
        else {
            free(ex.text);
            for (int i = 0; i < ex.nfacts; i++)
                free(ex.facts[i].note);
            free(ex.facts);
        }
        return;
    }
    search s = { 0 };
    s.p = verify_prefix_new(x, model);
    s.seen.keylen = s.p->k + s.p->nq;
    s.key = wmx_malloc((size_t)(s.seen.keylen + 1) * sizeof(int));
    s.best_done = -1;
    s.stop = stop;
    s.stop_ud = ud;
    bool ok = dfs(&s);
    res->states = s.states;
    res->consistent = ok;
    res->stopped = s.stopped;
    if (ok) {
        verify_prefix *p = s.p;
        res->wlen = p->nlog;
        res->witness = wmx_malloc((size_t)(p->nlog + 1) * sizeof *res->witness);
        for (int i = 0; i < p->nlog; i++) {
            undo u = p->log[i];
            if (u.kind == 0)
                res->witness[i] = (wmx_transition){ TR_STEP, u.a, -1 };
            else
                res->witness[i] = (wmx_transition){ TR_FLUSH, p->qthread[u.a],
                                                    model == MODEL_PSO ? p->qcell[u.a] : -1 };
        }
    } else if ((flags & VERIFY_EXPLAIN) && !s.stopped) {
        if (!saturate(x, model, &ex)) {
            free(ex.text);
            for (int i = 0; i < ex.nfacts; i++)
                free(ex.facts[i].note);
            free(ex.facts);
            ex = (expl){ 0 };
            explain_stuck(x, model, s.best, s.nbest, &ex);
        }
        finish_expl(res, &ex);
    } else if ((flags & VERIFY_EXPLAIN) && s.stopped) {
        free(ex.text);
        res->text = wmx_strdup("no verdict: the check was stopped by a limit\n");
    }
    free(s.best);
    free(s.key);
    free(s.seen.keys);
    free(s.seen.used);
    verify_prefix_free(s.p);
}

void vsc_rf(const wmx_exec *x, unsigned flags, verify_result *res) { verify_check(x, MODEL_SC, flags, res); }
void vtso_rf(const wmx_exec *x, unsigned flags, verify_result *res) { verify_check(x, MODEL_TSO, flags, res); }
void vpso_rf(const wmx_exec *x, unsigned flags, verify_result *res) { verify_check(x, MODEL_PSO, flags, res); }

/* ---- witness replay ---- */

int verify_replay(const wmx_exec *x, wmx_model model, const wmx_transition *w, int len, wmx_error *err)
{
    const wmx_program *prog = x->prog;
    wmx_machine *m = machine_new(prog, model, err);
    if (!m)
        return -1;
    machine_set_locks_fail(m);   /* an RF-SMC graph may hold a failed lock */
    void *st = wmx_malloc(machine_state_size(m));
    machine_init(m, st);
    int rc = -1;
    char d1[512];
    for (int i = 0; i < len; i++) {
        if (!machine_is_enabled(m, st, &w[i])) {
            wmx_error_set(err, prog->file, 0, 0, "witness step %d (%s %s) is not enabled on the machine", i + 1,
                          w[i].kind == TR_STEP ? "step" : "flush", prog->threads[w[i].thread].name);
            goto out;
        }
        wmx_event ev;
        machine_apply(m, st, &w[i], &ev);
        if (ev.kind == EV_WRITE_MEM)
            continue;
        int e = exec_find(x, ev.thread, EID_INDEX(ev.id));
        if (e < 0) {
            wmx_error_set(err, prog->file, 0, 0, "witness step %d runs an event the execution does not have", i + 1);
            goto out;
        }
        const xevent *v = &x->ev[e];
        xkind k = ev.kind == EV_READ ? X_READ : ev.kind == EV_AWAIT ? X_AWAIT : ev.kind == EV_FENCE ? X_FENCE
                : ev.kind == EV_RMW ? X_RMW : X_WRITE;
        int rf = -1;
        if (ev.kind == EV_READ || ev.kind == EV_AWAIT || ev.kind == EV_RMW)
            rf = ev.rf == EID_INIT ? -1 : exec_find(x, EID_THREAD(ev.rf), EID_INDEX(ev.rf));
        bool same = k == v->kind && (k == X_FENCE || ev.cell == v->cell) &&
                    (k == X_FENCE || ev.value == v->value) && (k != X_RMW || (ev.read == v->read && ev.wrote == v->wrote)) &&
                    (!xev_is_read(v) || rf == v->rf) && (v->instr < 0 || v->instr == ev.instr);
        if (!same) {
            char desc[512];
            machine_describe(m, &ev, desc, sizeof desc);
            wmx_error_set(err, prog->file, 0, 0, "witness step %d does '%s' where the execution has %s", i + 1,
                          desc, exec_event_describe(x, e, d1, sizeof d1));
            goto out;
        }
    }
    for (int t = 0; t < x->nthreads; t++)
        if (machine_thread_events(m, st, t) != x->tstart[t + 1] - x->tstart[t]) {
            wmx_error_set(err, prog->file, 0, 0, "after the witness %s ran %d events, the execution has %d",
                          prog->threads[t].name, machine_thread_events(m, st, t), x->tstart[t + 1] - x->tstart[t]);
            goto out;
        }
    const wmx_eid *wr = machine_memory_writer(m, st);
    for (int i = 0; i < x->nobs; i++) {
        int c = x->obs_cell[i];
        int got = wr[c] == EID_INIT ? -1 : exec_find(x, EID_THREAD(wr[c]), EID_INDEX(wr[c]));
        if (got != x->obs_writer[i]) {
            char cn[128];
            wmx_error_set(err, prog->file, 0, 0, "after the witness the final value of %s comes from another write",
                          ir_cell_name(prog, c, cn, sizeof cn));
            goto out;
        }
    }
    rc = 0;
out:
    free(st);
    machine_free(m);
    return rc;
}
