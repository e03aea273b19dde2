/* session.c - what the stepping panes show: a program on a machine and a
 * timeline of transitions with one state snapshot per step.
 *
 * Undo, redo and `goto N` only move `pos`; a new step at pos keeps the rest
 * of the timeline when it is the step already recorded there (so stepping
 * along a replayed execution does not lose it) and truncates it otherwise. */
#include "ui.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util.h"
#include "rfsmc.h"

void sess_init(ui_session *s)
{
    memset(s, 0, sizeof *s);
    s->model = MODEL_TSO;
    s->algo = ALGO_RFSMC;     /* as the batch explore: one trace per reads-from class */
}

struct ui_pool_chunk {
    struct ui_pool_chunk *next;
    size_t used, size;          /* size: of the whole chunk */
    bool mapped;                /* mmap'd (else malloc'd: mmap failed) */
    max_align_t data[];
};

/* Chunks double from 256 KiB to 8 MiB and are mapped with their pages
 * populated at once: thousands of classes touch megabytes, and a fault per
 * page cost as much as the rest of the bookkeeping (on virtual machines). */
static struct ui_pool_chunk *pool_chunk(size_t need, size_t prev)
{
    size_t size = prev ? 2 * prev : (size_t)1 << 18;
    if (size > (size_t)1 << 23)
        size = (size_t)1 << 23;
    if (size < need + sizeof(struct ui_pool_chunk))
        size = need + sizeof(struct ui_pool_chunk);
    int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_POPULATE
    flags |= MAP_POPULATE;
#endif
    struct ui_pool_chunk *c = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, -1, 0);
    bool mapped = c != MAP_FAILED;
    if (!mapped)
        c = wmx_malloc(size);
    c->mapped = mapped;
    c->used = 0;
    c->size = size;
    return c;
}

wmx_transition ui_trace_step(const ui_trace *t, int i)
{
    if (t->wide)
        return ((const wmx_transition *)t->steps)[i];
    uint32_t w = ((const uint32_t *)t->steps)[i];
    return (wmx_transition){ .kind = (w & 1) ? TR_FLUSH : TR_STEP, .thread = (int)(w >> 1 & 0x1ff),
                             .cell = (int)(w >> 10) - 1 };
}

void *sess_exec_alloc(ui_exec_list *l, size_t bytes)
{
    bytes = (bytes + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    struct ui_pool_chunk *c = l->pool;
    if (!c || c->size - sizeof *c - c->used < bytes) {
        c = pool_chunk(bytes, c ? c->size : 0);
        c->next = l->pool;
        l->pool = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += bytes;
    return p;
}

const char *sess_exec_label(const ui_exec_list *l, const ui_exec_class *c, char *buf, size_t size)
{
    /* by hand: snprintf per location cost as much as the search when the
     * REPL built a label per final state */
    size_t len = 0;
    int n = l->nobserved < 64 ? l->nobserved : 64;
    for (int i = 0; i < n; i++) {
        char num[24];
        int k = (int)sizeof num;
        wmx_val v = c->vals[i];
        unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
        do
            num[--k] = (char)('0' + u % 10);
        while ((u /= 10) != 0);
        if (v < 0)
            num[--k] = '-';
        size_t nl = strlen(l->observed_names[i]), vl = sizeof num - (size_t)k;
        if (len + nl + vl + 3 >= size)
            break;              /* as a cut label: the list shows what fits */
        memcpy(buf + len, l->observed_names[i], nl);
        len += nl;
        buf[len++] = '=';
        memcpy(buf + len, num + k, vl);
        len += vl;
        buf[len++] = ';';
        if (i + 1 < n)
            buf[len++] = ' ';
    }
    if (size)
        buf[len] = '\0';
    return buf;
}

void sess_exec_clear(ui_exec_list *l)
{
    while (l->pool) {
        struct ui_pool_chunk *next = l->pool->next;
        if (l->pool->mapped)
            munmap(l->pool, l->pool->size);
        else
            free(l->pool);
        l->pool = next;
    }
    free(l->v);
    free(l->index);
    free(l->filter);
    for (int i = 0; i < l->nobserved; i++)
        free(l->observed_names ? l->observed_names[i] : NULL);
    free(l->observed_names);
    free(l->observed);
    machine_free(l->m);
    memset(l, 0, sizeof *l);
}

void sess_classes_clear(ui_session *s)
{
    if (!s->classes)
        return;
    rfsmc_iter_free(s->classes);
    explore_result_free(&s->classes_res);
    s->classes = NULL;
    s->classes_seen = 0;
}

static void timeline_free(ui_session *s)
{
    free(s->steps);
    free(s->events);
    free(s->states);
    s->steps = NULL;
    s->events = NULL;
    s->states = NULL;
    s->len = s->cap = s->pos = 0;
}

void sess_free(ui_session *s)
{
    timeline_free(s);
    free(s->sched);
    free(s->sched_writes);
    s->sched = NULL;
    s->sched_writes = NULL;
    s->sched_len = 0;
    sess_exec_clear(&s->execs);
    sess_classes_clear(s);
    machine_free(s->m);
    ir_program_free(s->prog);
    s->m = NULL;
    s->prog = NULL;
}

static void reserve(ui_session *s, int n)
{
    if (n <= s->cap)
        return;
    int cap = s->cap ? s->cap : 16;
    while (cap < n)
        cap *= 2;
    s->steps = wmx_realloc(s->steps, (size_t)cap * sizeof *s->steps);
    s->events = wmx_realloc(s->events, (size_t)cap * sizeof *s->events);
    s->states = wmx_realloc(s->states, (size_t)(cap + 1) * s->ssize);
    s->cap = cap;
}

/* Builds the machine for the current program and model; empty timeline. */
static int rebuild(ui_session *s, wmx_error *err)
{
    wmx_machine *m = machine_new(s->prog, s->model, err);
    if (!m)
        return -1;
    machine_free(s->m);
    s->m = m;
    timeline_free(s);
    s->ssize = machine_state_size(m);
    reserve(s, 16);
    machine_init(m, s->states);
    return 0;
}

int sess_set_program(ui_session *s, wmx_program *prog, wmx_error *err)
{
    wmx_program *old = s->prog;
    wmx_machine *oldm = s->m;
    s->prog = prog;
    s->m = NULL;
    wmx_machine *m = machine_new(prog, s->model, err);
    if (!m) {
        s->prog = old;
        s->m = oldm;
        ir_program_free(prog);
        return -1;
    }
    machine_free(m);
    machine_free(oldm);
    s->sched_len = 0;           /* a schedule of the old program */
    sess_exec_clear(&s->execs);
    sess_classes_clear(s);
    ir_program_free(old);
    return rebuild(s, err);
}

int sess_set_model(ui_session *s, wmx_model model, wmx_error *err)
{
    wmx_model old = s->model;
    sess_classes_clear(s);
    s->model = model;
    if (!s->prog)
        return 0;
    if (rebuild(s, err) < 0) {
        s->model = old;
        return -1;
    }
    return 0;
}

const void *sess_state_at(const ui_session *s, int i)
{
    return s->states + (size_t)i * s->ssize;
}

const void *sess_state(const ui_session *s)
{
    return sess_state_at(s, s->pos);
}

void sess_apply(ui_session *s, const wmx_transition *t)
{
    if (s->pos < s->len) {
        const wmx_transition *n = &s->steps[s->pos];
        if (n->kind == t->kind && n->thread == t->thread && n->cell == t->cell) {
            s->pos++;
            return;
        }
        s->len = s->pos;            /* a different future: drop the old one */
    }
    reserve(s, s->len + 1);
    unsigned char *next = s->states + (size_t)(s->pos + 1) * s->ssize;
    memcpy(next, sess_state(s), s->ssize);
    machine_apply(s->m, next, t, &s->events[s->pos]);
    s->steps[s->pos] = *t;
    s->pos++;
    s->len = s->pos;
}

int sess_replay(ui_session *s, const wmx_transition *steps, int n, int pos, int *bad)
{
    s->len = s->pos = 0;
    for (int i = 0; i < n; i++) {
        if (!machine_is_enabled(s->m, sess_state(s), &steps[i])) {
            if (bad)
                *bad = i;
            return -1;
        }
        sess_apply(s, &steps[i]);
    }
    s->pos = pos < 0 || pos > s->len ? s->len : pos;
    return 0;
}
