/* result.c - what every explorer shares: algorithm names, options, and the
 * result (counts, distinct final states, assertion violations). */
#include "result.h"

#include <stdarg.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *algo_name(explore_algo a)
{
    switch (a) {
    case ALGO_NAIVE:    return "naive";
    case ALGO_STATEFUL: return "stateful";
    case ALGO_RFSTATE:  return "rfstate";
    case ALGO_RFSMC:    return "rfsmc";
    case ALGO_ODPOR:    return "odpor";
    }
    return "?";
}

int algo_parse(const char *s, explore_algo *a)
{
    if (strcmp(s, "naive") == 0) *a = ALGO_NAIVE;
    else if (strcmp(s, "stateful") == 0) *a = ALGO_STATEFUL;
    else if (strcmp(s, "rfstate") == 0) *a = ALGO_RFSTATE;
    else if (strcmp(s, "rfsmc") == 0) *a = ALGO_RFSMC;
    else if (strcmp(s, "odpor") == 0) *a = ALGO_ODPOR;
    else return -1;
    return 0;
}

void explore_stop(explore_result *res, const char *reason, const char *fmt, ...)
{
    if (!res->complete && res->stop_reason)
        return;
    res->complete = false;
    res->stop_reason = reason;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->stop_text, sizeof res->stop_text, fmt, ap);
    va_end(ap);
}

/* The first number in a one-line file ("max" or no file: 0) */
static unsigned long long read_limit(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    unsigned long long v = 0;
    if (fscanf(f, "%llu", &v) != 1)
        v = 0;
    fclose(f);
    return v;
}

size_t explore_memory_size(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    unsigned long long kb = 0;
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
                break;
        fclose(f);
    }
    unsigned long long total = kb * 1024ULL;
    /* a container's limit (cgroup v2, then v1; "max" or a huge number: none) */
    static const char *const limits[] = { "/sys/fs/cgroup/memory.max",
                                          "/sys/fs/cgroup/memory/memory.limit_in_bytes" };
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        unsigned long long l = read_limit(limits[i]);
        if (l > 0 && (total == 0 || l < total))
            total = l;
    }
    return (size_t)total;
}

size_t explore_default_max_memory(void)
{
    return explore_memory_size() / 2;
}

const char *explore_memory_hint(const explore_opts *o)
{
    return o->max_memory_default
               ? "; the default budget, half of the memory: raise it with --max-memory SIZE, 0 for none"
               : "";
}

void explore_opts_init(explore_opts *o)
{
    memset(o, 0, sizeof *o);
    o->model = MODEL_TSO;
    o->algo = ALGO_RFSMC;
    o->max_memory = explore_default_max_memory();
    o->max_memory_default = true;
}

/* ---- the observed locations ---- */

static bool lhs_equal(const cond_lhs *a, const cond_lhs *b)
{
    if (a->thread != b->thread)
        return false;
    return a->thread >= 0 ? a->reg == b->reg : a->cell == b->cell;
}

static void observe(explore_result *res, cond_lhs l)
{
    for (int i = 0; i < res->nobserved; i++)
        if (lhs_equal(&res->observed[i], &l))
            return;
    res->observed = wmx_realloc(res->observed, (size_t)(res->nobserved + 1) * sizeof *res->observed);
    res->observed[res->nobserved++] = l;
}

static void observe_cond(explore_result *res, const wmx_program *p, int c)
{
    if (c < 0)
        return;
    const ir_cond *x = &p->conds[c];
    if (x->kind == C_EQ)
        observe(res, x->lhs);
    else if (x->kind == C_NOT)
        observe_cond(res, p, x->a);
    else if (x->kind == C_AND || x->kind == C_OR || x->kind == C_IMPLIES) {
        observe_cond(res, p, x->a);
        observe_cond(res, p, x->b);
    }
}

/* herd's order: registers by thread then name, then memory by name */
static int lhs_cmp(const void *pa, const void *pb, void *ctx)
{
    const wmx_program *sort_prog = ctx;
    const cond_lhs *a = pa, *b = pb;
    bool ra = a->thread >= 0, rb = b->thread >= 0;
    if (ra != rb)
        return ra ? -1 : 1;
    if (ra) {
        if (a->thread != b->thread)
            return a->thread - b->thread;
        return strcmp(sort_prog->threads[a->thread].reg_names[a->reg],
                      sort_prog->threads[b->thread].reg_names[b->reg]);
    }
    char na[128], nb[128];
    ir_cell_name(sort_prog, a->cell, na, sizeof na);
    ir_cell_name(sort_prog, b->cell, nb, sizeof nb);
    int c = strcmp(na, nb);
    return c ? c : a->cell - b->cell;
}

bool explore_observed_shown_only(const wmx_program *p)
{
    return p->observed_shown_only || (p->quant == Q_NONE && p->nobserved == 0);
}

void explore_result_init(explore_result *res, const wmx_program *p,
                         wmx_model model, explore_algo algo)
{
    memset(res, 0, sizeof *res);
    res->prog = p;
    res->model = model;
    res->algo = algo;
    res->complete = true;
    if (p->quant != Q_NONE)
        observe_cond(res, p, p->cond_root);
    for (int i = 0; i < p->nobserved; i++)
        observe(res, p->observed[i]);
    if (p->quant == Q_NONE && p->nobserved == 0) {
        /* nothing named: observe every visible register and every cell */
        for (int t = 0; t < p->nthreads; t++)
            for (int r = 0; r < p->threads[t].nregs; r++)
                if (p->threads[t].reg_names[r][0] != '$')
                    observe(res, (cond_lhs){ t, r, -1 });
        for (int c = 0; c < p->ncells; c++)
            observe(res, (cond_lhs){ -1, -1, c });
    }
    wmx_sort(res->observed, (size_t)res->nobserved, sizeof *res->observed, lhs_cmp, (void *)p);
}

void explore_result_free(explore_result *res)
{
    for (int i = 0; i < res->nval_blocks; i++)
        free(res->val_blocks[i]);
    free(res->val_blocks);
    free(res->states);
    for (int i = 0; i < res->nerrors; i++) {
        free(res->errors[i].message);
        free(res->errors[i].steps);
        free(res->errors[i].events);
    }
    free(res->errors);
    for (int i = 0; i < res->nblocked_at; i++) {
        free(res->blocked_at[i].waits);
        free(res->blocked_at[i].steps);
        free(res->blocked_at[i].events);
    }
    free(res->blocked_at);
    free(res->observed);
    free(res->state_index);
    memset(res, 0, sizeof *res);
}

static void add_val_block(explore_result *res, wmx_val *block)
{
    if (res->nval_blocks == res->cap_val_blocks) {
        res->cap_val_blocks = res->cap_val_blocks ? 2 * res->cap_val_blocks : 8;
        res->val_blocks = wmx_realloc(res->val_blocks,
                                      (size_t)res->cap_val_blocks * sizeof *res->val_blocks);
    }
    res->val_blocks[res->nval_blocks++] = block;
}

void explore_result_adopt_vals(explore_result *res, wmx_val *block)
{
    add_val_block(res, block);
    res->val_used = res->val_cap;   /* a later state starts a block of its own */
}

/* Room for one state's values: one malloc per many states, not per state. */
static wmx_val *new_vals(explore_result *res)
{
    size_t n = (size_t)(res->nobserved ? res->nobserved : 1);
    if (res->nval_blocks == 0 || res->val_used + n > res->val_cap) {
        size_t cap = n * 256 > 4096 ? n * 256 : 4096;
        /* past a few blocks the run is a big one: values go to huge
         * blocks (readers-18's 262144 states: 16000 page faults -> 6500) */
        if (res->nval_blocks >= 4 && cap * sizeof(wmx_val) <= WMX_HUGE_BLOCK) {
            cap = WMX_HUGE_BLOCK / sizeof(wmx_val);
            add_val_block(res, wmx_huge_block());
        } else {
            add_val_block(res, wmx_malloc(cap * sizeof(wmx_val)));
        }
        res->val_cap = cap;
        res->val_used = 0;
    }
    wmx_val *v = res->val_blocks[res->nval_blocks - 1] + res->val_used;
    res->val_used += n;
    return v;
}

static uint64_t vals_hash(const wmx_val *v, int n)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) {
        h ^= (uint64_t)v[i];
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

static void index_rebuild(explore_result *res)
{
    int cap = res->state_index_cap ? res->state_index_cap * 2 : 64;
    free(res->state_index);
    res->state_index = wmx_table_calloc((size_t)cap, sizeof *res->state_index);
    res->state_index_cap = cap;
    for (int s = 0; s < res->nstates; s++) {
        uint64_t h = vals_hash(res->states[s].vals, res->nobserved);
        int i = (int)(h & (uint64_t)(cap - 1));
        while (res->state_index[i] != 0)
            i = (i + 1) & (cap - 1);
        res->state_index[i] = (h >> 32) << 32 | (uint64_t)(s + 1);
    }
}

#define MAX_ERRORS 16

/* Which errors a result keeps, and with which witness, must not depend on
 * the order in which traces arrive: a --jobs N run finds them in another
 * order than one worker does.  So a failing instruction keeps its shortest
 * witness (ties broken by the schedule), and past MAX_ERRORS the failing
 * instructions that come first in (thread, instruction) order are kept. */
typedef struct error_witness {
    int thread, instr, len;
    const wmx_transition *steps;
    const wmx_event *events;
} error_witness;

static error_witness witness_of(const explore_error *e)
{
    return (error_witness){ e->thread, e->instr, e->len, e->steps, e->events };
}

static int error_key_cmp(const error_witness *a, const error_witness *b)
{
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->instr != b->instr)
        return a->instr < b->instr ? -1 : 1;
    return 0;
}

static int transition_cmp(const wmx_transition *x, const wmx_transition *y)
{
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    if (x->cell != y->cell)
        return x->cell < y->cell ? -1 : 1;
    return 0;
}

static int witness_cmp(const error_witness *a, const error_witness *b)
{
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    for (int i = 0; i < a->len; i++) {
        int c = transition_cmp(&a->steps[i], &b->steps[i]);
        if (c)
            return c;
    }
    return 0;
}

/* The slot cand would take (an index into res->errors, or nerrors for a new
 * one), or -1 when res keeps a better report than cand. */
static int error_slot(const explore_result *res, const error_witness *cand)
{
    int worst = -1;
    error_witness worst_w = { 0 };
    for (int e = 0; e < res->nerrors; e++) {
        error_witness w = witness_of(&res->errors[e]);
        if (error_key_cmp(&w, cand) == 0)
            return witness_cmp(cand, &w) < 0 ? e : -1;
        if (worst < 0 || error_key_cmp(&w, &worst_w) > 0) {
            worst = e;
            worst_w = w;
        }
    }
    if (res->nerrors < MAX_ERRORS)
        return res->nerrors;
    return error_key_cmp(cand, &worst_w) < 0 ? worst : -1;
}

static bool error_wanted(const explore_result *res, const error_witness *cand)
{
    return error_slot(res, cand) >= 0;
}

/* Keeps a copy of cand's witness with message (taken over) if it is wanted,
 * else frees message. */
static void error_offer(explore_result *res, const error_witness *cand, char *message)
{
    int slot = error_slot(res, cand);
    if (slot < 0) {
        free(message);
        return;
    }
    if (slot == res->nerrors) {
        if (res->nerrors == res->cap_errors) {
            res->cap_errors = res->cap_errors ? 2 * res->cap_errors : 4;
            res->errors = wmx_realloc(res->errors, (size_t)res->cap_errors * sizeof *res->errors);
        }
        res->nerrors++;
    } else {
        free(res->errors[slot].message);
        free(res->errors[slot].steps);
        free(res->errors[slot].events);
    }
    explore_error *er = &res->errors[slot];
    er->thread = cand->thread;
    er->instr = cand->instr;
    er->len = cand->len;
    er->message = message;
    size_t n = (size_t)(cand->len ? cand->len : 1);
    er->steps = wmx_malloc(n * sizeof *er->steps);
    er->events = wmx_malloc(n * sizeof *er->events);
    if (cand->len) {
        memcpy(er->steps, cand->steps, (size_t)cand->len * sizeof *er->steps);
        memcpy(er->events, cand->events, (size_t)cand->len * sizeof *er->events);
    }
}

static int error_order(const void *a, const void *b)
{
    error_witness x = witness_of(a), y = witness_of(b);
    return error_key_cmp(&x, &y);
}

/* ---- where blocked traces stop ----
 * As with errors, what is kept must not depend on the order in which
 * traces arrive: each set of stopping points keeps its shortest witness,
 * and past EXPLORE_MAX_BLOCKED_AT the sets that come first are kept.  A
 * set dropped by one worker of a --jobs run had that many smaller sets
 * there, so it is not among the merged result's first either, and the
 * counts of the sets kept are whole. */
static int waits_cmp(const explore_wait *a, int na, const explore_wait *b, int nb)
{
    for (int i = 0; i < na && i < nb; i++) {
        if (a[i].thread != b[i].thread)
            return a[i].thread < b[i].thread ? -1 : 1;
        if (a[i].instr != b[i].instr)
            return a[i].instr < b[i].instr ? -1 : 1;
        if (a[i].why != b[i].why)
            return a[i].why < b[i].why ? -1 : 1;
    }
    return na == nb ? 0 : na < nb ? -1 : 1;
}

/* The witnesses' order: shorter first, then by the schedule read from its
 * end.  Any fixed order keeps the choice independent of the arrival order;
 * from the end, because explorers that search depth-first hand over trace
 * after trace with the same long prefix, and comparing that prefix again
 * for each was a third of the naive explorer's time on dekker.wmx. */
static int blocked_witness_cmp(const error_witness *a, const error_witness *b)
{
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    for (int i = a->len - 1; i >= 0; i--) {
        int c = transition_cmp(&a->steps[i], &b->steps[i]);
        if (c)
            return c;
    }
    return 0;
}

static void blocked_set_witness(explore_blocked *b, const error_witness *w)
{
    free(b->steps);
    free(b->events);
    b->len = w->len;
    size_t n = (size_t)(w->len ? w->len : 1);
    b->steps = wmx_malloc(n * sizeof *b->steps);
    b->events = wmx_malloc(n * sizeof *b->events);
    if (w->len) {
        memcpy(b->steps, w->steps, (size_t)w->len * sizeof *b->steps);
        memcpy(b->events, w->events, (size_t)w->len * sizeof *b->events);
    }
}

/* Counts `count` blocked traces stopping at waits[0..n), with witness w. */
static void blocked_offer(explore_result *res, const explore_wait *waits, int n, long count,
                          const error_witness *w)
{
    int last = -1;
    for (int i = 0; i < res->nblocked_at; i++) {
        explore_blocked *b = &res->blocked_at[i];
        if (waits_cmp(waits, n, b->waits, b->nwaits) == 0) {
            b->count += count;
            error_witness old = { 0, 0, b->len, b->steps, b->events };
            if (blocked_witness_cmp(w, &old) < 0)
                blocked_set_witness(b, w);
            return;
        }
        if (last < 0 || waits_cmp(b->waits, b->nwaits, res->blocked_at[last].waits,
                                  res->blocked_at[last].nwaits) > 0)
            last = i;
    }
    explore_blocked *b;
    if (res->nblocked_at < EXPLORE_MAX_BLOCKED_AT) {
        if (res->nblocked_at == res->cap_blocked_at) {
            res->cap_blocked_at = res->cap_blocked_at ? 2 * res->cap_blocked_at : 4;
            res->blocked_at = wmx_realloc(res->blocked_at,
                                          (size_t)res->cap_blocked_at * sizeof *res->blocked_at);
        }
        b = &res->blocked_at[res->nblocked_at++];
        memset(b, 0, sizeof *b);
    } else {
        b = &res->blocked_at[last];
        if (waits_cmp(waits, n, b->waits, b->nwaits) > 0)
            return;
        free(b->waits);
    }
    b->nwaits = n;
    b->waits = wmx_malloc((size_t)(n ? n : 1) * sizeof *b->waits);
    if (n)
        memcpy(b->waits, waits, (size_t)n * sizeof *waits);
    b->count = count;
    blocked_set_witness(b, w);
}

bool explore_wait_at(const wmx_program *p, const wmx_machine *m, const void *final_state, int t,
                     explore_wait *w)
{
    thread_status st = machine_status(m, final_state, t);
    if (st != TS_BLOCKED && st != TS_RUNNING)
        return false;
    int pc = machine_pc(m, final_state, t);
    if (st == TS_RUNNING && ir_is_creation_gate(p, t, pc))
        return false;           /* never created */
    wait_reason why = WAIT_FOREVER;
    if (st == TS_BLOCKED)
        why = ir_is_loop_bound(p, t, pc) ? WAIT_BOUND
            : pc >= 0 && pc < p->threads[t].ninstrs && p->threads[t].instrs[pc].spin ? WAIT_SPIN
            : pc >= 0 && pc < p->threads[t].ninstrs && p->threads[t].instrs[pc].ends == IR_ENDS_ABORT ? WAIT_ABORT
            : WAIT_ASSUME;
    *w = (explore_wait){ t, pc, why };
    return true;
}

static void record_blocked(explore_result *res, const wmx_machine *m, const explore_trace *tr)
{
    const wmx_program *p = res->prog;
    explore_wait stackw[64];
    explore_wait *waits = p->nthreads <= 64 ? stackw : wmx_malloc((size_t)p->nthreads * sizeof *waits);
    int n = 0;
    for (int t = 0; t < p->nthreads; t++)
        if (explore_wait_at(p, m, tr->final_state, t, &waits[n]))
            n++;
    error_witness w = { 0, 0, tr->len, tr->steps, tr->events };
    blocked_offer(res, waits, n, 1, &w);
    if (waits != stackw)
        free(waits);
}

/* the same place: thread, reason and source position (or both none) */
static bool wait_same_place(const wmx_program *p, const explore_wait *a, const explore_wait *b)
{
    if (a->thread != b->thread || a->why != b->why)
        return false;
    const ir_thread *th = &p->threads[a->thread];
    bool ia = a->instr >= 0 && a->instr < th->ninstrs, ib = b->instr >= 0 && b->instr < th->ninstrs;
    if (!ia || !ib)
        return ia == ib;
    if (a->instr == b->instr)
        return true;
    const ir_instr *x = &th->instrs[a->instr], *y = &th->instrs[b->instr];
    if (x->loc.line <= 0 || x->loc.line != y->loc.line || x->loc.col != y->loc.col ||
        x->loc.file != y->loc.file)
        return false;
    return strcmp(x->text ? x->text : "", y->text ? y->text : "") == 0;
}

int explore_blocked_by_place(const explore_result *res, explore_blocked **out)
{
    explore_blocked *g = wmx_malloc((size_t)(res->nblocked_at + 1) * sizeof *g);
    int n = 0;
    for (int i = 0; i < res->nblocked_at; i++) {
        const explore_blocked *b = &res->blocked_at[i];
        int k = 0;
        for (; k < n; k++) {
            if (g[k].nwaits != b->nwaits)
                continue;
            int w = 0;
            while (w < b->nwaits && wait_same_place(res->prog, &g[k].waits[w], &b->waits[w]))
                w++;
            if (w == b->nwaits)
                break;
        }
        if (k == n) {
            g[n++] = *b;
            continue;
        }
        g[k].count = g[k].count > 0 && b->count > 0 ? g[k].count + b->count : 0;
        error_witness old = { 0, 0, g[k].len, g[k].steps, g[k].events };
        error_witness w = { 0, 0, b->len, b->steps, b->events };
        if (blocked_witness_cmp(&w, &old) < 0) {
            g[k].len = b->len;
            g[k].steps = b->steps;
            g[k].events = b->events;
        }
    }
    *out = g;
    return n;
}

static int blocked_order(const void *a, const void *b)
{
    const explore_blocked *x = a, *y = b;
    return waits_cmp(x->waits, x->nwaits, y->waits, y->nwaits);
}

/* Counts `count` traces ending in the observed values vals.  The index
 * keeps the hash's high half beside the state, so probing past other
 * states does not touch their values. */
static void add_state(explore_result *res, const wmx_val *vals, bool sat, long count)
{
    int n = res->nobserved;
    /* filled up to 3/4: probing compares the tags side by side, while every
     * doubling is fresh memory (readers-18's index was 16 MB at 1/2) */
    if (4 * ((long)res->nstates + 1) > 3 * (long)res->state_index_cap)
        index_rebuild(res);
    uint64_t h = vals_hash(vals, n);
    uint64_t tag = (h >> 32) << 32;
    int i = (int)(h & (uint64_t)(res->state_index_cap - 1));
    for (uint64_t e; (e = res->state_index[i]) != 0; i = (i + 1) & (res->state_index_cap - 1)) {
        if ((e & 0xffffffff00000000ULL) != tag)
            continue;
        final_state *s = &res->states[(uint32_t)e - 1];
        if (memcmp(s->vals, vals, (size_t)n * sizeof *vals) == 0) {
            s->count += count;
            return;
        }
    }
    if (res->nstates == res->cap_states) {
        res->cap_states = res->cap_states ? 2 * res->cap_states : 16;
        res->states = wmx_table_grow(res->states, (size_t)res->nstates * sizeof *res->states,
                                     (size_t)res->cap_states * sizeof *res->states);
    }
    final_state *s = &res->states[res->nstates];
    res->states_sorted = false;
    s->vals = new_vals(res);
    memcpy(s->vals, vals, (size_t)n * sizeof *vals);
    s->count = count;
    s->satisfies = sat;
    res->state_index[i] = tag | (uint64_t)(++res->nstates);
}

static void record_error(explore_result *res, const wmx_machine *m, const explore_trace *tr)
{
    const wmx_program *p = res->prog;
    bool fault = false;
    for (int t = 0; t < p->nthreads; t++) {
        int instr = machine_error_instr(m, tr->final_state, t);
        if (instr < 0)
            continue;
        if (machine_buffer_full(m, tr->final_state, t)) {
            /* wmx's cap, not the program's fault: a limit, reported once */
            const ir_instr *in = &p->threads[t].instrs[instr];
            explore_stop(res, "buffer limit",
                         "store buffer limit of %d entries reached by %s at %s:%d:%d",
                         machine_buffer_cap(m), p->threads[t].name, ir_loc_file(p, in->loc),
                         in->loc.line, in->loc.col);
            continue;
        }
        if (!fault) {
            fault = true;
            res->error_traces++;
        }
        const ir_instr *in = &p->threads[t].instrs[instr];
        const char *what = in->kind == I_ASSERT ? "assertion failed"
                         : ir_is_visible(in) ? "memory access out of bounds"
                         : "too many local steps (loop without bound?)";
        error_witness cand = { t, instr, tr->len, tr->steps, tr->events };
        if (!error_wanted(res, &cand))
            continue;
        char *message = wmx_asprintf("%s:%d:%d: %s in %s: %s", ir_loc_file(p, in->loc), in->loc.line, in->loc.col,
                                     what, p->threads[t].name, in->text ? in->text : "");
        error_offer(res, &cand, message);
    }
}

/* counted: the trace is a class of its own (the proposition's tally) */
static void add_final_state(explore_result *res, const wmx_machine *m, const explore_trace *tr,
                            bool counted)
{
    const wmx_program *p = res->prog;
    const wmx_val *mem = machine_memory(m, tr->final_state);
    int n = res->nobserved;
    wmx_val stackv[64];
    wmx_val *vals = n <= 64 ? stackv : wmx_malloc((size_t)n * sizeof *vals);
    for (int i = 0; i < n; i++) {
        const cond_lhs *l = &res->observed[i];
        vals[i] = l->thread >= 0 ? machine_regs(m, tr->final_state, l->thread)[l->reg] : mem[l->cell];
    }
    bool sat = true;
    if (p->quant != Q_NONE) {
        const wmx_val *regs_stack[64];
        const wmx_val **regs = p->nthreads <= 64 ? regs_stack
                             : wmx_malloc((size_t)p->nthreads * sizeof *regs);
        for (int t = 0; t < p->nthreads; t++)
            regs[t] = machine_regs(m, tr->final_state, t);
        sat = ir_cond_eval(p, p->cond_root, regs, mem);
        if (regs != regs_stack)
            free(regs);
    }
    if (counted && sat)
        res->positive++;
    else if (counted)
        res->negative++;
    add_state(res, vals, sat, 1);
    if (vals != stackv)
        free(vals);
}

void explore_result_add_trace(explore_result *res, const wmx_machine *m, const explore_trace *tr)
{
    const wmx_program *p = res->prog;
    if (tr->ending) {
        /* the class and its error are counted; the state is one more it can end in */
        if (!tr->blocked)
            add_final_state(res, m, tr, false);
        return;
    }
    /* C's exit(): the whole program ends there, a complete run */
    bool exited = false;
    for (int t = 0; tr->blocked && t < p->nthreads && !exited; t++) {
        if (machine_status(m, tr->final_state, t) != TS_BLOCKED)
            continue;
        int pc = machine_pc(m, tr->final_state, t);
        exited = pc >= 0 && pc < p->threads[t].ninstrs && p->threads[t].instrs[pc].ends == IR_ENDS_EXIT;
    }
    if (tr->blocked && !exited) {
        res->blocked++;
        for (int t = 0; t < p->nthreads; t++) {
            if (machine_status(m, tr->final_state, t) != TS_BLOCKED)
                continue;
            int pc = machine_pc(m, tr->final_state, t);
            if (pc >= 0 && pc < p->threads[t].ninstrs && p->threads[t].instrs[pc].bound_cut) {
                res->bound_cut++;
                break;
            }
        }
        record_blocked(res, m, tr);
    } else {
        res->traces++;
    }
    if (tr->error)
        record_error(res, m, tr);
    /* herd counts only executions that complete; blocked ones have no final state */
    if (!tr->blocked || exited)
        add_final_state(res, m, tr, true);
}

static int vals_cmp(const wmx_val *a, const wmx_val *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Both state lists sorted (explore_finish): one linear merge, src's values
 * moved into dst. */
static void merge_states(explore_result *dst, explore_result *src)
{
    int n = dst->nobserved;
    bool sorted = src->states_sorted && (dst->states_sorted || dst->nstates == 0);
    if (dst->nstates == 0) {
        /* the first worker's list: taken over, not copied */
        free(dst->states);
        dst->states = src->states;
        dst->nstates = src->nstates;
        dst->cap_states = src->cap_states;
        src->states = NULL;
        src->cap_states = 0;
    } else {
        /* merged from the back into dst's own array, grown in place: a
         * fresh array for readers-18's 262144 states was 1500 page faults
         * in the serial end of the run */
        int nd = dst->nstates, ns = src->nstates, total = nd + ns;
        if (dst->cap_states < total) {
            dst->states = wmx_table_grow(dst->states, (size_t)nd * sizeof *dst->states,
                                         (size_t)total * sizeof *dst->states);
            dst->cap_states = total;
        }
        final_state *a = dst->states;
        const final_state *b = src->states;
        int i = nd - 1, j = ns - 1, k = total;
        /* k - 1 > i while j >= 0: no write lands on a state of dst not yet read */
        while (i >= 0 && j >= 0) {
            int c = vals_cmp(a[i].vals, b[j].vals, n);
            if (c > 0) {
                a[--k] = a[i--];
            } else if (c < 0) {
                a[--k] = b[j--];
            } else {
                final_state t = a[i--];
                t.count += b[j--].count;
                a[--k] = t;
            }
        }
        while (j >= 0)
            a[--k] = b[j--];
        /* a[0..i] stayed where they were; states seen by both leave a gap */
        if (k > i + 1)
            memmove(a + i + 1, a + k, (size_t)(total - k) * sizeof *a);
        dst->nstates = i + 1 + total - k;
    }
    dst->states_sorted = sorted;
    src->nstates = 0;
    /* src's value blocks go with its states; a later state of dst starts
     * a block of its own */
    for (int b = 0; b < src->nval_blocks; b++)
        add_val_block(dst, src->val_blocks[b]);
    src->nval_blocks = 0;
    dst->val_used = dst->val_cap;
    free(dst->state_index);
    dst->state_index = NULL;
    dst->state_index_cap = 0;
}

void explore_result_merge(explore_result *dst, explore_result *src)
{
    dst->traces += src->traces;
    dst->blocked += src->blocked;
    dst->events += src->events;
    dst->bound_cut += src->bound_cut;
    dst->runs_no_class += src->runs_no_class;
    dst->positive += src->positive;
    dst->negative += src->negative;
    dst->error_traces += src->error_traces;
    merge_states(dst, src);
    for (int e = 0; e < src->nerrors; e++) {
        error_witness w = witness_of(&src->errors[e]);
        if (error_wanted(dst, &w))
            error_offer(dst, &w, wmx_strdup(src->errors[e].message));
    }
    for (int i = 0; i < src->nblocked_at; i++) {
        const explore_blocked *b = &src->blocked_at[i];
        error_witness w = { 0, 0, b->len, b->steps, b->events };
        blocked_offer(dst, b->waits, b->nwaits, b->count, &w);
    }
    if (!src->complete && src->stop_reason) {
        bool follower = strcmp(src->stop_reason, "team") == 0;
        if (dst->complete || (dst->stop_reason && strcmp(dst->stop_reason, "team") == 0 && !follower)) {
            dst->complete = false;
            dst->stop_reason = src->stop_reason;
            memcpy(dst->stop_text, src->stop_text, sizeof dst->stop_text);
        }
    }
}

/* How rows are ordered: by packed keys (below), or by their values. */
typedef struct row_order {
    const final_state *rows;
    int nobs;
    const uint64_t *keys;      /* NULL: compare the values */
    int words;                 /* per key */
} row_order;

/* Whether row j comes strictly before row i. */
static inline bool row_before(const row_order *o, int j, int i)
{
    if (!o->keys)
        return vals_cmp(o->rows[j].vals, o->rows[i].vals, o->nobs) < 0;
    const uint64_t *ki = o->keys + (size_t)i * (size_t)o->words;
    const uint64_t *kj = o->keys + (size_t)j * (size_t)o->words;
    int w = 0;
    while (w < o->words && ki[w] == kj[w])
        w++;
    return w < o->words && kj[w] < ki[w];
}

/* A stable merge sort of the row numbers, then the rows put in that order
 * (not wmx_sort: here the comparison is inlined and ints move, not rows
 * through memcpy). */
static void sort_rows(final_state *a, int n, const row_order *o)
{
    int *idx = wmx_malloc((size_t)n * sizeof *idx), *tmp = wmx_malloc((size_t)n * sizeof *tmp);
    for (int i = 0; i < n; i++)
        idx[i] = i;
    int *from = idx, *to = tmp;
    for (int width = 1; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n;
            int hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                to[k++] = row_before(o, from[j], from[i]) ? from[j++] : from[i++];
            while (i < mid)
                to[k++] = from[i++];
            while (j < hi)
                to[k++] = from[j++];
        }
        int *t = from;
        from = to;
        to = t;
    }
    /* a[i] = a[from[i]] for all i, cycle by cycle in place: a second
     * array of rows was megabytes of fresh pages (-1 marks a row done) */
    for (int i = 0; i < n; i++) {
        if (from[i] < 0)
            continue;
        final_state first = a[i];
        int j = i;
        while (from[j] != i) {
            int k = from[j];
            a[j] = a[k];
            from[j] = -1;
            j = k;
        }
        a[j] = first;
        from[j] = -1;
    }
    free(idx);
    free(tmp);
}

/* One column's distinct values: an open-addressing set, then their ranks. */
typedef struct column_ranks {
    wmx_val *slot_val;
    int *slot_rank;          /* -1: empty slot; after ranking, the value's rank */
    int cap, n;
    /* the last value looked up: neighbouring rows mostly share a column's value */
    bool has_last;
    wmx_val last;
    int last_rank;
} column_ranks;

static uint64_t val_hash(wmx_val v)
{
    uint64_t h = (uint64_t)v * 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 31);
}

static int column_find(const column_ranks *c, wmx_val v)
{
    int i = (int)(val_hash(v) & (uint64_t)(c->cap - 1));
    while (c->slot_rank[i] != -1 && c->slot_val[i] != v)
        i = (i + 1) & (c->cap - 1);
    return i;
}

static void column_grow(column_ranks *c)
{
    column_ranks old = *c;
    c->cap = old.cap ? 2 * old.cap : 8;
    c->slot_val = wmx_malloc((size_t)c->cap * sizeof *c->slot_val);
    c->slot_rank = wmx_malloc((size_t)c->cap * sizeof *c->slot_rank);
    for (int i = 0; i < c->cap; i++)
        c->slot_rank[i] = -1;
    for (int i = 0; i < old.cap; i++)
        if (old.slot_rank[i] != -1) {
            int j = column_find(c, old.slot_val[i]);
            c->slot_val[j] = old.slot_val[i];
            c->slot_rank[j] = 0;
        }
    free(old.slot_val);
    free(old.slot_rank);
}

static void column_add(column_ranks *c, wmx_val v)
{
    if (c->has_last && c->last == v)
        return;
    c->has_last = true;
    c->last = v;
    if (2 * (c->n + 1) > c->cap)
        column_grow(c);
    int i = column_find(c, v);
    if (c->slot_rank[i] == -1) {
        c->slot_val[i] = v;
        c->slot_rank[i] = 0;
        c->n++;
    }
}

static int val_order(const void *pa, const void *pb)
{
    wmx_val a = *(const wmx_val *)pa, b = *(const wmx_val *)pb;
    return a < b ? -1 : a > b;
}

/* Ranks the set's values in order; returns the bits a rank needs. */
static int column_rank(column_ranks *c)
{
    wmx_val *v = wmx_malloc((size_t)c->n * sizeof *v);
    int k = 0;
    for (int i = 0; i < c->cap; i++)
        if (c->slot_rank[i] != -1)
            v[k++] = c->slot_val[i];
    qsort(v, (size_t)k, sizeof *v, val_order);
    for (int r = 0; r < k; r++)
        c->slot_rank[column_find(c, v[r])] = r;
    free(v);
    c->has_last = false;
    int bits = 0;
    while (((int64_t)1 << bits) < k)
        bits++;
    return bits;
}

/* Merges the sorted neighbours a[lo, mid) and a[mid, hi) through a copy
 * of the shorter one. */
static void merge_runs(final_state *a, int lo, int mid, int hi, int nobs)
{
    if (vals_cmp(a[mid - 1].vals, a[mid].vals, nobs) <= 0)
        return;
    int nl = mid - lo, nr = hi - mid;
    final_state *buf = wmx_malloc((size_t)(nl < nr ? nl : nr) * sizeof *buf);
    if (nl <= nr) {
        memcpy(buf, a + lo, (size_t)nl * sizeof *buf);
        int i = 0, j = mid, k = lo;
        while (i < nl && j < hi)
            a[k++] = vals_cmp(a[j].vals, buf[i].vals, nobs) < 0 ? a[j++] : buf[i++];
        memcpy(a + k, buf + i, (size_t)(nl - i) * sizeof *buf);
    } else {
        memcpy(buf, a + mid, (size_t)nr * sizeof *buf);
        int i = mid - 1, j = nr - 1, k = hi;
        while (i >= lo && j >= 0)
            a[--k] = vals_cmp(a[i].vals, buf[j].vals, nobs) > 0 ? a[i--] : buf[j--];
        memcpy(a + lo, buf, (size_t)(j + 1) * sizeof *buf);
    }
    free(buf);
}

/* Sorts states that lie in a few runs, each ascending or descending, by
 * turning the descending ones round and merging neighbours; false (and
 * nothing moved) when there are too many runs.  rfsmc finds readers-N's
 * states in exactly the reverse order, and a --jobs worker's in a few
 * reversed runs: sorting them by keys took one worker on readers-18 50 ms
 * and 10 MB of fresh pages. */
enum { MAX_RUNS = 32 };

static bool natural_sort(final_state *a, int n, int nobs)
{
    int start[MAX_RUNS + 1], nruns = 0;
    bool desc[MAX_RUNS];
    for (int i = 0; i < n;) {
        if (nruns == MAX_RUNS)
            return false;
        int j = i + 1;
        bool down = j < n && vals_cmp(a[i].vals, a[j].vals, nobs) > 0;
        while (j < n && (vals_cmp(a[j - 1].vals, a[j].vals, nobs) > 0) == down)
            j++;
        start[nruns] = i;
        desc[nruns++] = down;
        i = j;
    }
    start[nruns] = n;
    for (int r = 0; r < nruns; r++)
        if (desc[r])
            for (int i = start[r], j = start[r + 1] - 1; i < j; i++, j--) {
                final_state t = a[i];
                a[i] = a[j];
                a[j] = t;
            }
    /* neighbours pairwise, round after round */
    while (nruns > 1) {
        int m = 0;
        for (int r = 0; r < nruns; r += 2) {
            if (r + 1 < nruns)
                merge_runs(a, start[r], start[r + 1], start[r + 2], nobs);
            start[m++] = start[r];
        }
        start[m] = n;
        nruns = m;
    }
    return true;
}

/* Sorts the states by their values.  Comparing rows behind pointers is
 * slow when there are many states (readers-18: 262144 rows of 37 values),
 * so each column's values are replaced by their rank among the column's
 * distinct values, and the ranks packed, the first column in the highest
 * bits, into keys of a few words that sort as the rows do. */
enum { MAX_KEY_WORDS = 8 };

static void sort_states(final_state *a, int n, int nobs)
{
    if (natural_sort(a, n, nobs))
        return;
    row_order by_values = { a, nobs, NULL, 0 };
    if (n < 256 || nobs == 0) {
        sort_rows(a, n, &by_values);
        return;
    }
    column_ranks *cols = wmx_calloc((size_t)nobs, sizeof *cols);
    int *bits = wmx_malloc((size_t)nobs * sizeof *bits);
    int total = 0;
    for (int i = 0; i < n; i++)          /* row by row: the values lie so */
        for (int c = 0; c < nobs; c++)
            column_add(&cols[c], a[i].vals[c]);
    for (int c = 0; c < nobs; c++) {
        bits[c] = column_rank(&cols[c]);
        total += bits[c];
    }
    int words = (total + 63) / 64;
    if (words <= MAX_KEY_WORDS) {
        uint64_t *keys = wmx_table_calloc((size_t)n * (size_t)(words ? words : 1), sizeof *keys);
        for (int i = 0; i < n; i++) {
            uint64_t *key = keys + (size_t)i * (size_t)words;
            int pos = 0;
            for (int c = 0; c < nobs; c++) {
                int b = bits[c];
                if (b == 0)
                    continue;
                column_ranks *col = &cols[c];
                wmx_val v = a[i].vals[c];
                if (!col->has_last || col->last != v) {
                    col->has_last = true;
                    col->last = v;
                    col->last_rank = col->slot_rank[column_find(col, v)];
                }
                uint64_t r = (uint64_t)col->last_rank;
                int w = pos / 64, off = pos % 64;
                if (off + b <= 64) {
                    key[w] |= r << (64 - off - b);
                } else {
                    int lo = off + b - 64;
                    key[w] |= r >> lo;
                    key[w + 1] |= (r & (((uint64_t)1 << lo) - 1)) << (64 - lo);
                }
                pos += b;
            }
        }
        row_order by_keys = { a, nobs, keys, words };
        sort_rows(a, n, &by_keys);
        free(keys);
    } else {
        sort_rows(a, n, &by_values);
    }
    for (int c = 0; c < nobs; c++) {
        free(cols[c].slot_val);
        free(cols[c].slot_rank);
    }
    free(cols);
    free(bits);
}

void explore_finish(explore_result *res)
{
    /* a --jobs run's merged list is sorted already: checking it again was
     * a pass over every value of readers-18's 262144 states */
    if (!res->states_sorted)
        sort_states(res->states, res->nstates, res->nobserved);
    res->states_sorted = true;
    if (res->nerrors > 1)
        qsort(res->errors, (size_t)res->nerrors, sizeof *res->errors, error_order);
    if (res->nblocked_at > 1)
        qsort(res->blocked_at, (size_t)res->nblocked_at, sizeof *res->blocked_at, blocked_order);
    free(res->state_index);
    res->state_index = NULL;
    res->state_index_cap = 0;
}

bool explore_cond_ok(const explore_result *res)
{
    switch (res->prog->quant) {
    case Q_EXISTS:     return res->positive > 0;
    case Q_NOT_EXISTS: return res->positive == 0;
    case Q_FORALL:     return res->negative == 0;
    default:           return true;
    }
}

const char *explore_observation(const explore_result *res)
{
    if (res->positive == 0)
        return "Never";
    if (res->negative == 0)
        return "Always";
    return "Sometimes";
}
