/* robust.c - robustness against TSO/PSO: the reads-from classes the relaxed
 * model allows and SC does not, and a smallest set of fences (after stores)
 * that removes them, found by re-running the reads-from explorer on copies
 * of the program with fences inserted.
 *
 * The candidates are source positions of stores (fence_site), not
 * instructions: a C function inlined twice, a loop unrolled, or one
 * function run by two threads give one candidate, as one fence in the
 * source would be.  The search leans on monotonicity: a fence only removes
 * relaxed executions, so if fences at every site leave a violation no set
 * does, and a site whose absence (all others fenced) leaves a violation is
 * in every set that works.  Those n + 1 runs come first; then sets of
 * growing size that hold every such site.  The limits are polled between
 * runs, and a search they cut says so instead of claiming anything. */
#include "robust.h"
#include "plp.h"

#include <stdio.h>
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
        if (!tmp.complete && !(stop_at_first && out->nviol_total > 0)) {
            if (out->complete)
                snprintf(out->stop_text, sizeof out->stop_text, "%s",
                         tmp.stop_text[0] ? tmp.stop_text : "a limit");
            out->complete = false;
        }
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

/* ---- fence sites ---------------------------------------------------- */

typedef struct store_at {
    wmx_srcloc loc;
    fence_pos at;
} store_at;

static int loc_cmp(const wmx_srcloc *a, const wmx_srcloc *b)
{
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->col != b->col)
        return a->col < b->col ? -1 : 1;
    return 0;
}

static int pos_cmp(const fence_pos *a, const fence_pos *b)
{
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    return a->instr < b->instr ? -1 : a->instr > b->instr;
}

/* by source position (no position: each store on its own), then program order */
static int store_cmp(const void *x, const void *y)
{
    const store_at *a = x, *b = y;
    bool an = a->loc.line <= 0, bn = b->loc.line <= 0;
    if (an != bn)
        return an ? 1 : -1;
    int c = an ? 0 : loc_cmp(&a->loc, &b->loc);
    return c ? c : pos_cmp(&a->at, &b->at);
}

/* sites in program order of their first copy */
static int site_cmp(const void *x, const void *y)
{
    const fence_site *a = x, *b = y;
    return pos_cmp(&a->copies[0], &b->copies[0]);
}

int robust_fence_sites(const wmx_program *prog, fence_site **out)
{
    int n = 0;
    for (int t = 0; t < prog->nthreads; t++)
        n += prog->threads[t].ninstrs;
    store_at *st = wmx_malloc((size_t)(n + 1) * sizeof *st);
    int k = 0;
    for (int t = 0; t < prog->nthreads; t++) {
        const ir_thread *th = &prog->threads[t];
        for (int i = 0; i < th->ninstrs; i++) {
            if (th->instrs[i].kind != I_STORE)
                continue;
            if (i + 1 < th->ninstrs && th->instrs[i + 1].kind == I_FENCE)
                continue;
            st[k++] = (store_at){ th->instrs[i].loc, { t, i } };
        }
    }
    qsort(st, (size_t)k, sizeof *st, store_cmp);
    fence_site *s = wmx_malloc((size_t)(k + 1) * sizeof *s);
    int ns = 0;
    for (int i = 0; i < k; ) {
        int j = i + 1;
        if (st[i].loc.line > 0)
            while (j < k && st[j].loc.line > 0 && loc_cmp(&st[i].loc, &st[j].loc) == 0)
                j++;
        fence_site *f = &s[ns++];
        f->loc = st[i].loc;
        f->ncopies = j - i;
        f->copies = wmx_malloc((size_t)f->ncopies * sizeof *f->copies);
        for (int c = i; c < j; c++)
            f->copies[c - i] = st[c].at;
        i = j;
    }
    free(st);
    qsort(s, (size_t)ns, sizeof *s, site_cmp);
    *out = s;
    return ns;
}

void robust_sites_free(fence_site *s, int n)
{
    for (int i = 0; s && i < n; i++)
        free(s[i].copies);
    free(s);
}

wmx_program *robust_fence_sites_insert(const wmx_program *prog, const fence_site *s, int n)
{
    int total = 0;
    for (int i = 0; i < n; i++)
        total += s[i].ncopies;
    fence_pos *f = wmx_malloc((size_t)(total + 1) * sizeof *f);
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < s[i].ncopies; c++)
            f[k++] = s[i].copies[c];
    wmx_program *q = robust_insert_fences(prog, f, k);
    free(f);
    return q;
}

/* ---- the search ----------------------------------------------------- */

typedef struct search {
    const wmx_program *prog;
    wmx_model model;
    const explore_opts *base;
    explore_opts lim_opts;       /* base without its progress callback */
    explore_clock clock;
    explore_result lim;          /* the search's own stop state */
    const fence_site *sites;
    fence_site *pick;            /* scratch: the chosen sites */
    robust_result *out;
    wmx_error *err;
} search;

/* Whether a limit (Ctrl-C, --timeout, --max-memory) ends the search now. */
static bool search_cut(search *s)
{
    if (s->base->cancel && *s->base->cancel)
        explore_stop(&s->lim, "interrupted", "interrupted (Ctrl-C)");
    else
        explore_check_limits(&s->clock, &s->lim_opts, &s->lim, 0);
    if (s->lim.complete)
        return false;
    snprintf(s->out->fence_stop_text, sizeof s->out->fence_stop_text, "%s", s->lim.stop_text);
    return true;
}

/* Runs the program with fences at sites idx[0..k-1]: 1 robust, 0 not,
 * -2 cut by a limit, -1 error. */
static int try_sites(search *s, const int *idx, int k)
{
    if (search_cut(s))
        return -2;
    for (int i = 0; i < k; i++)
        s->pick[i] = s->sites[idx[i]];
    wmx_program *q = robust_fence_sites_insert(s->prog, s->pick, k);
    robust_result r2;
    memset(&r2, 0, sizeof r2);
    r2.complete = true;
    int rc = run_one(q, s->model, s->base, 0, true, &r2, s->err);
    ir_program_free(q);
    s->out->fence_sets_tried++;
    if (rc != 0)
        return -1;
    if (r2.nviol_total > 0)
        return 0;
    if (!r2.complete) {
        snprintf(s->out->fence_stop_text, sizeof s->out->fence_stop_text, "%s", r2.stop_text);
        return -2;
    }
    return 1;
}

static void record(search *s, const int *idx, int k, bool smallest)
{
    robust_result *out = s->out;
    out->fences_found = true;
    out->fences_smallest = smallest;
    out->nfences = k;
    out->fences = wmx_malloc((size_t)(k + 1) * sizeof *out->fences);
    for (int i = 0; i < k; i++) {
        const fence_site *f = &s->sites[idx[i]];
        out->fences[i] = *f;
        out->fences[i].copies = wmx_malloc((size_t)f->ncopies * sizeof *f->copies);
        memcpy(out->fences[i].copies, f->copies, (size_t)f->ncopies * sizeof *f->copies);
    }
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

/* 0 (out's fence fields set), or -1 with s->err */
static int fence_search(search *s, int n)
{
    robust_result *out = s->out;
    int *all = wmx_malloc((size_t)(n + 1) * sizeof *all);
    int *idx = wmx_malloc((size_t)(n + 1) * sizeof *idx);
    int *rest = wmx_malloc((size_t)(n + 1) * sizeof *rest);
    int *sub = wmx_malloc((size_t)(n + 1) * sizeof *sub);
    bool *req = wmx_calloc((size_t)n + 1, sizeof *req);
    int rc = 0, r;
    for (int i = 0; i < n; i++)
        all[i] = i;
    if (n == 0) {
        out->fence_search_complete = true;      /* nothing to fence: no set */
        goto done;
    }
    /* every site: if that leaves a violation, no set removes it */
    r = try_sites(s, all, n);
    if (r < 0) {
        rc = r == -1 ? -1 : 0;
        goto done;
    }
    if (r == 0) {
        out->fence_search_complete = true;
        goto done;
    }
    /* the sites every working set holds */
    int nreq = 0;
    for (int i = 0; i < n && n > 1; i++) {
        int k = 0;
        for (int j = 0; j < n; j++)
            if (j != i)
                idx[k++] = j;
        r = try_sites(s, idx, k);
        if (r < 0) {
            rc = r == -1 ? -1 : 0;
            goto done;
        }
        if (r == 0) {
            req[i] = true;
            nreq++;
        }
    }
    int nrest = 0;
    for (int i = 0; i < n; i++)
        if (!req[i])
            rest[nrest++] = i;
    for (int k = nreq > 1 ? nreq : 1; k <= n && k <= ROBUST_MAX_FENCES; k++) {
        if (k == n) {                           /* all of them: known to work */
            record(s, all, n, true);
            out->fence_search_complete = true;
            goto done;
        }
        int m = k - nreq;
        for (int i = 0; i < m; i++)
            sub[i] = i;
        do {
            int c = 0;
            for (int i = 0; i < n; i++)
                if (req[i])
                    idx[c++] = i;
            for (int i = 0; i < m; i++)
                idx[c++] = rest[sub[i]];
            r = try_sites(s, idx, k);
            if (r < 0) {
                rc = r == -1 ? -1 : 0;
                goto done;
            }
            if (r == 1) {
                /* in program order */
                for (int i = 1; i < k; i++)
                    for (int j = i; j > 0 && idx[j - 1] > idx[j]; j--) {
                        int t = idx[j];
                        idx[j] = idx[j - 1];
                        idx[j - 1] = t;
                    }
                record(s, idx, k, true);
                out->fence_search_complete = true;
                goto done;
            }
        } while (m > 0 && next_subset(sub, m, nrest));
    }
    /* no set of at most ROBUST_MAX_FENCES sites: all of them do */
    record(s, all, n, false);
    out->fence_search_complete = true;
done:
    free(all);
    free(idx);
    free(rest);
    free(sub);
    free(req);
    return rc;
}

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
    search s = { .prog = prog, .model = model, .base = base, .out = out, .err = err };
    s.lim_opts = *base;
    s.lim_opts.progress = NULL;
    explore_clock_start(&s.clock, base);
    s.lim.complete = true;
    fence_site *sites;
    int n = robust_fence_sites(prog, &sites);
    out->nsites = n;
    s.sites = sites;
    s.pick = wmx_malloc((size_t)(n + 1) * sizeof *s.pick);
    int rc = fence_search(&s, n);
    free(s.pick);
    robust_sites_free(sites, n);
    return rc;
}

void robust_result_free(robust_result *r)
{
    for (int i = 0; i < r->nviol; i++) {
        free(r->viol[i].steps);
        free(r->viol[i].events);
        free(r->viol[i].why);
    }
    free(r->viol);
    robust_sites_free(r->fences, r->nfences);
    memset(r, 0, sizeof *r);
}
