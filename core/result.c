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

size_t explore_default_max_memory(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (size_t)(kb * 1024ULL / 2);
}

void explore_opts_init(explore_opts *o)
{
    memset(o, 0, sizeof *o);
    o->model = MODEL_TSO;
    o->algo = ALGO_RFSMC;
    o->max_memory = explore_default_max_memory();
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
    for (int i = 0; i < res->nstates; i++)
        free(res->states[i].vals);
    free(res->states);
    for (int i = 0; i < res->nerrors; i++) {
        free(res->errors[i].message);
        free(res->errors[i].steps);
        free(res->errors[i].events);
    }
    free(res->errors);
    free(res->observed);
    free(res->state_index);
    memset(res, 0, sizeof *res);
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
    res->state_index = wmx_malloc((size_t)cap * sizeof *res->state_index);
    for (int i = 0; i < cap; i++)
        res->state_index[i] = -1;
    res->state_index_cap = cap;
    for (int s = 0; s < res->nstates; s++) {
        uint64_t h = vals_hash(res->states[s].vals, res->nobserved);
        int i = (int)(h & (uint64_t)(cap - 1));
        while (res->state_index[i] >= 0)
            i = (i + 1) & (cap - 1);
        res->state_index[i] = s;
    }
}

#define MAX_ERRORS 16

/* Counts `count` traces ending in the observed values vals. */
static void add_state(explore_result *res, const wmx_val *vals, bool sat, long count)
{
    int n = res->nobserved;
    if (2 * (res->nstates + 1) > res->state_index_cap)
        index_rebuild(res);
    uint64_t h = vals_hash(vals, n);
    int i = (int)(h & (uint64_t)(res->state_index_cap - 1));
    while (res->state_index[i] >= 0) {
        final_state *s = &res->states[res->state_index[i]];
        if (memcmp(s->vals, vals, (size_t)n * sizeof *vals) == 0) {
            s->count += count;
            return;
        }
        i = (i + 1) & (res->state_index_cap - 1);
    }
    if (res->nstates == res->cap_states) {
        res->cap_states = res->cap_states ? 2 * res->cap_states : 16;
        res->states = wmx_realloc(res->states, (size_t)res->cap_states * sizeof *res->states);
    }
    final_state *s = &res->states[res->nstates];
    s->vals = wmx_malloc((size_t)(n ? n : 1) * sizeof *vals);
    memcpy(s->vals, vals, (size_t)n * sizeof *vals);
    s->count = count;
    s->satisfies = sat;
    res->state_index[i] = res->nstates++;
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
                         machine_buffer_cap(m), p->threads[t].name, p->file,
                         in->loc.line, in->loc.col);
            continue;
        }
        if (!fault) {
            fault = true;
            res->error_traces++;
        }
        /* one report per failing instruction is enough */
        bool seen = false;
        for (int e = 0; e < res->nerrors; e++)
            if (res->errors[e].thread == t && res->errors[e].instr == instr)
                seen = true;
        if (seen || res->nerrors >= MAX_ERRORS)
            continue;
        if (res->nerrors == res->cap_errors) {
            res->cap_errors = res->cap_errors ? 2 * res->cap_errors : 4;
            res->errors = wmx_realloc(res->errors, (size_t)res->cap_errors * sizeof *res->errors);
        }
        explore_error *er = &res->errors[res->nerrors++];
        const ir_instr *in = &p->threads[t].instrs[instr];
        const char *what = in->kind == I_ASSERT ? "assertion failed"
                         : ir_is_visible(in) ? "memory access out of bounds"
                         : "too many local steps (loop without bound?)";
        er->thread = t;
        er->instr = instr;
        er->message = wmx_asprintf("%s:%d:%d: %s in %s: %s", p->file, in->loc.line, in->loc.col,
                                   what, p->threads[t].name, in->text ? in->text : "");
        er->len = tr->len;
        er->steps = wmx_malloc((size_t)(tr->len ? tr->len : 1) * sizeof *er->steps);
        er->events = wmx_malloc((size_t)(tr->len ? tr->len : 1) * sizeof *er->events);
        if (tr->len) {
            memcpy(er->steps, tr->steps, (size_t)tr->len * sizeof *er->steps);
            memcpy(er->events, tr->events, (size_t)tr->len * sizeof *er->events);
        }
    }
}

void explore_result_add_trace(explore_result *res, const wmx_machine *m, const explore_trace *tr)
{
    const wmx_program *p = res->prog;
    if (tr->blocked) {
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
    } else {
        res->traces++;
    }
    if (tr->error)
        record_error(res, m, tr);
    /* herd counts only executions that complete; blocked ones have no final state */
    if (tr->blocked)
        return;
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
    if (sat)
        res->positive++;
    else
        res->negative++;
    add_state(res, vals, sat, 1);
    if (vals != stackv)
        free(vals);
}

void explore_result_merge(explore_result *dst, const explore_result *src)
{
    dst->traces += src->traces;
    dst->blocked += src->blocked;
    dst->events += src->events;
    dst->bound_cut += src->bound_cut;
    dst->positive += src->positive;
    dst->negative += src->negative;
    dst->error_traces += src->error_traces;
    for (int i = 0; i < src->nstates; i++)
        add_state(dst, src->states[i].vals, src->states[i].satisfies, src->states[i].count);
    for (int e = 0; e < src->nerrors; e++) {
        const explore_error *se = &src->errors[e];
        bool seen = false;
        for (int k = 0; k < dst->nerrors; k++)
            if (dst->errors[k].thread == se->thread && dst->errors[k].instr == se->instr)
                seen = true;
        if (seen || dst->nerrors >= MAX_ERRORS)
            continue;
        if (dst->nerrors == dst->cap_errors) {
            dst->cap_errors = dst->cap_errors ? 2 * dst->cap_errors : 4;
            dst->errors = wmx_realloc(dst->errors, (size_t)dst->cap_errors * sizeof *dst->errors);
        }
        explore_error *de = &dst->errors[dst->nerrors++];
        *de = *se;
        de->message = wmx_strdup(se->message);
        size_t n = (size_t)(se->len ? se->len : 1);
        de->steps = wmx_malloc(n * sizeof *de->steps);
        de->events = wmx_malloc(n * sizeof *de->events);
        if (se->len) {
            memcpy(de->steps, se->steps, (size_t)se->len * sizeof *de->steps);
            memcpy(de->events, se->events, (size_t)se->len * sizeof *de->events);
        }
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

static int state_cmp(const void *pa, const void *pb, void *ctx)
{
    const final_state *a = pa, *b = pb;
    int n = *(const int *)ctx;
    for (int i = 0; i < n; i++)
        if (a->vals[i] != b->vals[i])
            return a->vals[i] < b->vals[i] ? -1 : 1;
    return 0;
}

void explore_finish(explore_result *res)
{
    wmx_sort(res->states, (size_t)res->nstates, sizeof *res->states, state_cmp, &res->nobserved);
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
