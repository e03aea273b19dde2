/* robust.c - robustness against TSO/PSO: the reads-from classes the relaxed
 * model allows and SC does not, and a smallest set of fences (after stores)
 * that removes them, found by trying fence sets of growing size and
 * re-running the reads-from explorer on each modified copy. */
#include "robust.h"
#include "plp.h"

#include <stdlib.h>
#include <string.h>

typedef struct rctx {
    const wmx_program *prog;
    const wmx_machine *m;
    robust_result *out;
    int max_viol;
    bool stop_at_first;
    volatile sig_atomic_t cancel;
    volatile sig_atomic_t *outer;   /* the caller's cancel flag (Ctrl-C), or NULL */
    const explore_result *res;      /* for the observed cells */
} rctx;

/* The SC check of a long class polls the caller's Ctrl-C too. */
static bool rctx_stop(void *ud)
{
    rctx *c = ud;
    if (c->outer && *c->outer)
        c->cancel = 1;
    return c->cancel != 0;
}

static void on_class(const explore_trace *tr, void *ud)
{
    rctx *c = ud;
    c->out->classes++;
    if (rctx_stop(c))
        return;
    wmx_error err = { 0 };
    wmx_exec *x = exec_from_events(c->prog, MODEL_SC, tr->events, tr->len, &err);
    if (!x)
        return;
    const wmx_eid *w = machine_memory_writer(c->m, tr->final_state);
    for (int i = 0; i < c->res->nobserved; i++) {
        const cond_lhs *l = &c->res->observed[i];
        if (l->thread >= 0 || tr->blocked)
            continue;
        wmx_eid id = w[l->cell];
        exec_set_observer(x, l->cell, id == EID_INIT ? -1 : exec_find(x, EID_THREAD(id), EID_INDEX(id)));
    }
    verify_result vr;
    verify_check_stop(x, MODEL_SC, c->stop_at_first ? 0 : VERIFY_EXPLAIN, &vr, rctx_stop, c);
    if (!vr.consistent && !vr.stopped) {
        c->out->nviol_total++;
        if (c->stop_at_first)
            c->cancel = 1;
        else if (c->out->nviol < c->max_viol) {
            robust_violation *v;
            c->out->viol = wmx_realloc(c->out->viol, (size_t)(c->out->nviol + 1) * sizeof *c->out->viol);
            v = &c->out->viol[c->out->nviol++];
            v->len = tr->len;
            v->steps = wmx_malloc((size_t)(tr->len + 1) * sizeof *v->steps);
            v->events = wmx_malloc((size_t)(tr->len + 1) * sizeof *v->events);
            if (tr->len) {
                memcpy(v->steps, tr->steps, (size_t)tr->len * sizeof *v->steps);
                memcpy(v->events, tr->events, (size_t)tr->len * sizeof *v->events);
            }
            v->why = wmx_strdup(vr.text ? vr.text : "SC has no trace with these reads-from");
        }
    }
    verify_result_free(&vr);
    exec_free(x);
}

/* Runs the explorer on prog; fills classes/violations of out. */
static int run_one(const wmx_program *prog, wmx_model model, const explore_opts *base,
                   int max_viol, bool stop_at_first, robust_result *out, wmx_error *err)
{
    explore_opts o = *base;
    o.model = model;
    o.algo = ALGO_RFSMC;
    rctx c = { .prog = prog, .out = out, .max_viol = max_viol, .stop_at_first = stop_at_first };
    wmx_machine *m = machine_new(prog, model, err);
    if (!m)
        return -1;
    c.m = m;
    o.on_trace = on_class;
    o.ud = &c;
    o.progress = NULL;
    /* our own cancel flag, also set by the caller's */
    if (base->cancel && *base->cancel)
        c.cancel = 1;
    o.cancel = &c.cancel;
    c.outer = base->cancel;
    o.cancel2 = base->cancel;
    explore_result res;
    explore_result_init(&res, prog, model, ALGO_RFSMC);
    c.res = &res;
    explore_result tmp;
    int rc = explore_rfsmc(prog, &o, &tmp, err);
    explore_result_free(&res);
    if (rc == 0) {
        if (!tmp.complete && !(stop_at_first && out->nviol_total > 0))
            out->complete = false;
        explore_result_free(&tmp);
    }
    machine_free(m);
    return rc;
}

wmx_program *robust_insert_fences(const wmx_program *prog, const fence_pos *f, int n)
{
    wmx_program *p = plp_copy_program(prog);
    for (int t = 0; t < p->nthreads; t++) {
        ir_thread *th = &p->threads[t];
        int old = th->ninstrs;
        bool *after = wmx_calloc((size_t)old + 1, sizeof *after);
        int add = 0;
        for (int i = 0; i < n; i++)
            if (f[i].thread == t && f[i].instr >= 0 && f[i].instr < old && !after[f[i].instr]) {
                after[f[i].instr] = true;
                add++;
            }
        if (!add) {
            free(after);
            continue;
        }
        int *map = wmx_malloc((size_t)(old + 1) * sizeof *map);   /* old index -> new index */
        int k = 0;
        for (int i = 0; i <= old; i++) {
            map[i] = k;
            k += 1 + (i < old && after[i]);
        }
        ir_instr *ni = wmx_malloc((size_t)(old + add) * sizeof *ni);
        for (int i = 0; i < old; i++) {
            ir_instr in = th->instrs[i];
            if (in.kind == I_JUMP && in.target >= 0 && in.target <= old)
                in.target = map[in.target];
            ni[map[i]] = in;
            if (after[i]) {
                ir_instr fn = ir_instr_init(I_FENCE, in.loc);
                fn.text = wmx_strdup("fence   (inserted)");
                ni[map[i] + 1] = fn;
            }
        }
        for (int l = 0; l < th->nloops; l++) {
            th->loops[l].head = map[th->loops[l].head];
            th->loops[l].end = map[th->loops[l].end];
        }
        free(th->instrs);
        th->instrs = ni;
        th->ninstrs = old + add;
        free(map);
        free(after);
    }
    return p;
}

/* next k-subset of 0..n-1 in lexicographic order; false at the end */
static bool next_subset(int *s, int k, int n)
{
    int i = k - 1;
    while (i >= 0 && s[i] == n - k + i)
        i--;
    if (i < 0)
        return false;
    s[i]++;
    for (int j = i + 1; j < k; j++)
        s[j] = s[j - 1] + 1;
    return true;
}

#define MAX_FENCES 4

int robust_check(const wmx_program *prog, wmx_model model, const explore_opts *base,
                 int max_viol, bool find_fences, robust_result *out, wmx_error *err)
{
    memset(out, 0, sizeof *out);
    out->model = model;
    out->complete = true;
    if (run_one(prog, model, base, max_viol, false, out, err) != 0)
        return -1;
    if (out->nviol_total == 0 || !find_fences)
        return 0;
    /* candidate positions: after every store that is not already followed by a fence */
    int npos = 0;
    fence_pos *pos = NULL;
    for (int t = 0; t < prog->nthreads; t++) {
        const ir_thread *th = &prog->threads[t];
        for (int i = 0; i < th->ninstrs; i++) {
            if (th->instrs[i].kind != I_STORE)
                continue;
            if (i + 1 < th->ninstrs && th->instrs[i + 1].kind == I_FENCE)
                continue;
            pos = wmx_realloc(pos, (size_t)(npos + 1) * sizeof *pos);
            pos[npos++] = (fence_pos){ t, i };
        }
    }
    int sub[MAX_FENCES];
    fence_pos chosen[MAX_FENCES];
    for (int k = 1; k <= npos && k <= MAX_FENCES && !out->fences_found; k++) {
        for (int i = 0; i < k; i++)
            sub[i] = i;
        do {
            if (base->cancel && *base->cancel)
                break;
            for (int i = 0; i < k; i++)
                chosen[i] = pos[sub[i]];
            wmx_program *q = robust_insert_fences(prog, chosen, k);
            robust_result r2;
            memset(&r2, 0, sizeof r2);
            r2.complete = true;
            int rc = run_one(q, model, base, 0, true, &r2, err);
            ir_program_free(q);
            if (rc != 0) {
                free(pos);
                return -1;
            }
            if (r2.nviol_total == 0 && r2.complete) {
                out->fences_found = true;
                out->nfences = k;
                out->fences = wmx_malloc((size_t)k * sizeof *out->fences);
                memcpy(out->fences, chosen, (size_t)k * sizeof *chosen);
                break;
            }
        } while (next_subset(sub, k, npos));
    }
    free(pos);
    return 0;
}

void robust_result_free(robust_result *r)
{
    for (int i = 0; i < r->nviol; i++) {
        free(r->viol[i].steps);
        free(r->viol[i].events);
        free(r->viol[i].why);
    }
    free(r->viol);
    free(r->fences);
    memset(r, 0, sizeof *r);
}
