/* rfsmc.c - reads-from stateless model checking for SC, TSO and PSO.
 *
 * The search space is execution graphs: each thread's events in program
 * order (a read, a write, a fence, an RMW or an await) and the reads-from
 * function; the events of a thread are a function of the values its reads
 * return, so a graph is grown one event at a time by running the thread's
 * code (on a private SC machine used only as a thread-local interpreter).
 * Whether a graph can arise under the model, and a trace that realises it,
 * is decided by VSC-rf / VTSO-rf / VPSO-rf (verify_check); consistency is
 * closed under taking po∪rf-downward-closed subgraphs.
 *
 * Exactly-once enumeration without remembering what was explored is by
 * reverse search: every non-empty consistent po∪rf-closed graph G has one
 * parent, G minus its "last" event (the po∪rf-maximal event of the highest
 * thread; a thread has at most one maximal event, its last, so this is well
 * defined), and the parent is again consistent and closed.  The search
 * starts from the empty graph and generates the children of G as G + e for
 * the next event e of some thread with each possible source write, keeping
 * those whose parent is G.  Every graph is therefore visited exactly once,
 * depth first, with memory linear in the depth (one interpreter state and
 * one iterator per level, plus the current graph).
 *
 * A graph is a class (a maximal trace) when every thread has ended (done,
 * blocked, failed) or waits at an await whose variable's final value fails
 * the await's condition.  The class also fixes the final writer of every
 * observed memory location (observer reads after the end): each consistent
 * choice is one class.  For an await that waits forever on a location that
 * is not observed, some failing final writer must exist; it is not part of
 * the class.  Each class is reported with the verifier's witness, replayed
 * on the model's machine for the final state.
 *
 * Compared with the RF-SMC of Abdulla et al. and Bui et al., this explores
 * the same classes, each exactly once, with polynomial memory, but it is not
 * exploration-optimal: it also visits the partial graphs on the way (at
 * most one per event per class along each class's chain, plus partial
 * graphs that do not extend to a class along their chain).
 */
#include "explore.h"
#include "exec.h"
#include "verify.h"
#include "robust.h"

#include <stdlib.h>
#include <string.h>

typedef struct gev {
    xevent x;             /* x.rf unused here */
    wmx_eid rf;           /* reads: the source (EID_INIT for the initial value) */
    int nreaders;         /* writes: reads in the graph that read it */
} gev;

typedef struct rs {
    const wmx_program *prog;
    const explore_opts *opts;
    explore_result *res;
    wmx_model model;
    wmx_machine *lm;      /* SC machine: thread-local interpreter */
    wmx_machine *mm;      /* the model's machine: replays witnesses */
    size_t ss;
    int nthreads;
    gev **tev;            /* events of each thread */
    int *tn, *tcap;
    char *states;         /* interpreter state per depth */
    int scap;
    int nobs;
    int *obs;             /* observed cells */
    explore_clock clk;
    bool stop;
    /* scratch for reporting */
    wmx_transition *wit;
    int wlen;
    wmx_event *rev;
    wmx_transition *rsteps;
    int rcap;
    char *rstate;
    long checks;
} rs;

#define LSTATE(r, d) ((void *)((r)->states + (size_t)(d) * (r)->ss))

static bool gev_is_write(const gev *g)
{
    return g->x.kind == X_WRITE || (g->x.kind == X_RMW && g->x.wrote);
}

static bool instr_reads(ir_kind k)
{
    return k == I_LOAD || k == I_AWAIT || k == I_XCHG || k == I_FAA || k == I_CAS;
}

/* ---- the graph as an execution for the checker ---- */

static wmx_exec *graph_exec(rs *r)
{
    wmx_exec *x = exec_new(r->prog, r->model);
    int n = 0;
    for (int t = 0; t < r->nthreads; t++)
        n += r->tn[t];
    x->ev = wmx_malloc((size_t)(n ? n : 1) * sizeof *x->ev);
    int k = 0;
    for (int t = 0; t < r->nthreads; t++)
        for (int i = 0; i < r->tn[t]; i++) {
            xevent e = r->tev[t][i].x;
            e.index = i;
            e.rf = xev_is_read(&e) ? r->tev[t][i].rf : -1;
            e.flushed = gev_is_write(&r->tev[t][i]);
            e.mem_order = -1;
            e.line = 0;
            x->ev[k++] = e;
        }
    x->nev = n;
    exec_seal(x);
    return x;
}

static bool exec_consistent(rs *r, const wmx_exec *x, bool keep_witness)
{
    verify_result vr;
    r->checks++;
    verify_check(x, r->model, 0, &vr);
    bool ok = vr.consistent;
    if (ok && keep_witness) {
        free(r->wit);
        r->wlen = vr.wlen;
        r->wit = wmx_malloc((size_t)(vr.wlen ? vr.wlen : 1) * sizeof *r->wit);
        if (vr.wlen)
            memcpy(r->wit, vr.witness, (size_t)vr.wlen * sizeof *r->wit);
    }
    verify_result_free(&vr);
    return ok;
}

static bool graph_consistent(rs *r)
{
    wmx_exec *x = graph_exec(r);
    bool ok = exec_consistent(r, x, false);
    exec_free(x);
    return ok;
}

/* ---- growing and shrinking the graph ---- */

static gev *find_ev(rs *r, wmx_eid id)
{
    return &r->tev[EID_THREAD(id)][EID_INDEX(id)];
}

static void push_event(rs *r, const wmx_event *ev)
{
    int t = ev->thread;
    if (r->tn[t] == r->tcap[t]) {
        r->tcap[t] = r->tcap[t] ? 2 * r->tcap[t] : 16;
        r->tev[t] = wmx_realloc(r->tev[t], (size_t)r->tcap[t] * sizeof *r->tev[t]);
    }
    gev g;
    memset(&g, 0, sizeof g);
    g.x.thread = t;
    g.x.index = r->tn[t];
    g.x.instr = ev->instr;
    g.x.cell = ev->cell;
    g.x.value = ev->value;
    g.x.read = ev->read;
    g.x.wrote = ev->wrote;
    g.x.rf = -1;
    g.x.mem_order = -1;
    g.rf = EID_INIT;
    switch (ev->kind) {
    case EV_READ: g.x.kind = X_READ; break;
    case EV_AWAIT: g.x.kind = X_AWAIT; break;
    case EV_FENCE: g.x.kind = X_FENCE; g.x.cell = -1; break;
    case EV_RMW: g.x.kind = X_RMW; break;
    default: g.x.kind = X_WRITE; break;
    }
    if (xev_is_read(&g.x)) {
        g.rf = ev->rf;
        if (g.rf != EID_INIT)
            find_ev(r, g.rf)->nreaders++;
    }
    r->tev[t][r->tn[t]++] = g;
}

static void pop_event(rs *r, int t)
{
    gev *g = &r->tev[t][--r->tn[t]];
    if (xev_is_read(&g->x) && g->rf != EID_INIT)
        find_ev(r, g->rf)->nreaders--;
}

/* ---- completion: observers, waiting awaits, reporting ---- */

typedef struct waiter {
    int thread, cell;
    ir_op cmp;
    wmx_val operand;
} waiter;

static bool cmp_holds(ir_op op, wmx_val a, wmx_val b)
{
    switch (op) {
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    case OP_GE: return a >= b;
    default:    return a == b;
    }
}

typedef struct fin {
    wmx_exec *x;
    int nw;
    waiter *w;
    int nsc;              /* waiting cells that are not observed */
    int *sc;
} fin;

/* whether the value of write position wpos (-1 init) of cell fails every await on it */
static bool fails_waiters(const fin *f, int cell, wmx_val v)
{
    for (int i = 0; i < f->nw; i++)
        if (f->w[i].cell == cell && cmp_holds(f->w[i].cmp, v, f->w[i].operand))
            return false;
    return true;
}

static wmx_val pos_value(const wmx_exec *x, int cell, int pos)
{
    return pos < 0 ? x->cell_init[cell] : x->ev[pos].value;
}

static void report(rs *r)
{
    /* replay the witness on the model's machine */
    const wmx_machine *m = r->mm;
    if (r->wlen > r->rcap) {
        r->rcap = r->wlen;
        r->rev = wmx_realloc(r->rev, (size_t)r->rcap * sizeof *r->rev);
        r->rsteps = wmx_realloc(r->rsteps, (size_t)r->rcap * sizeof *r->rsteps);
    }
    machine_init(m, r->rstate);
    int len = 0;
    for (int i = 0; i < r->wlen; i++) {
        if (!machine_is_enabled(m, r->rstate, &r->wit[i]))
            break;
        machine_apply(m, r->rstate, &r->wit[i], &r->rev[len]);
        r->rsteps[len++] = r->wit[i];
    }
    explore_trace tr = { len, r->rsteps, r->rev, r->rstate,
                         machine_is_blocked(m, r->rstate), machine_has_error(m, r->rstate) };
    explore_result_add_trace(r->res, m, &tr);
    if (r->opts->on_trace)
        r->opts->on_trace(&tr, r->opts->ud);
}

/* some failing final writer for each unobserved waiting cell j.. */
static bool waiting_ok(rs *r, fin *f, int j)
{
    if (j == f->nsc)
        return exec_consistent(r, f->x, true);
    int c = f->sc[j];
    for (int pos = -1; pos < f->x->nev; pos++) {
        if (pos >= 0 && (f->x->ev[pos].cell != c || !xev_is_write(&f->x->ev[pos])))
            continue;
        if (!fails_waiters(f, c, pos_value(f->x, c, pos)))
            continue;
        f->x->nobs = r->nobs + j;
        exec_set_observer(f->x, c, pos);
        if (j + 1 < f->nsc && !exec_consistent(r, f->x, false))
            continue;
        if (waiting_ok(r, f, j + 1))
            return true;
    }
    return false;
}

static void observers(rs *r, fin *f, int i)
{
    if (r->stop)
        return;
    if (i == r->nobs) {
        /* the waiting cells not observed: one failing final writer suffices */
        if (waiting_ok(r, f, 0)) {
            report(r);
            if (explore_should_stop(&r->clk, r->opts, r->res, 0))
                r->stop = true;
        }
        return;
    }
    int c = r->obs[i];
    for (int pos = -1; pos < f->x->nev && !r->stop; pos++) {
        if (pos >= 0 && (f->x->ev[pos].cell != c || !xev_is_write(&f->x->ev[pos])))
            continue;
        if (!fails_waiters(f, c, pos_value(f->x, c, pos)))
            continue;
        f->x->nobs = i;
        exec_set_observer(f->x, c, pos);
        if (i + 1 < r->nobs && !exec_consistent(r, f->x, false))
            continue;
        observers(r, f, i + 1);
    }
    /* leave the observer list as it was for the caller's next choice */
    f->x->nobs = i;
}

/* Whether the graph is complete; fills the waiting awaits. */
static bool complete(rs *r, const void *st, fin *f)
{
    const wmx_program *p = r->prog;
    f->nw = 0;
    for (int t = 0; t < r->nthreads; t++) {
        if (machine_status(r->lm, st, t) != TS_RUNNING)
            continue;
        const ir_instr *in = &p->threads[t].instrs[machine_pc(r->lm, st, t)];
        if (in->kind != I_AWAIT)
            return false;
        const wmx_val *regs = machine_regs(r->lm, st, t);
        f->w[f->nw++] = (waiter){ t, ir_address_cell(p, &in->addr, regs), in->cmp,
                                  ir_eval(p, in->e1, regs, NULL) };
    }
    return true;
}

static void finish_graph(rs *r, const void *st)
{
    fin f;
    memset(&f, 0, sizeof f);
    f.w = wmx_malloc((size_t)(r->nthreads ? r->nthreads : 1) * sizeof *f.w);
    if (!complete(r, st, &f)) {
        free(f.w);
        return;
    }
    f.sc = wmx_malloc((size_t)(r->nthreads ? r->nthreads : 1) * sizeof *f.sc);
    for (int i = 0; i < f.nw; i++) {
        int c = f.w[i].cell;
        bool seen = false;
        for (int j = 0; j < r->nobs; j++)
            if (r->obs[j] == c)
                seen = true;
        for (int j = 0; j < f.nsc; j++)
            if (f.sc[j] == c)
                seen = true;
        if (!seen)
            f.sc[f.nsc++] = c;
    }
    f.x = graph_exec(r);
    observers(r, &f, 0);
    exec_free(f.x);
    free(f.w);
    free(f.sc);
}

/* ---- the reverse search ---- */

static void visit(rs *r, int depth)
{
    if (r->stop)
        return;
    if (explore_should_stop(&r->clk, r->opts, r->res, depth)) {
        r->stop = true;
        return;
    }
    void *st = LSTATE(r, depth);
    finish_graph(r, st);
    if (r->stop)
        return;
    if (depth + 2 > r->scap) {
        r->scap *= 2;
        r->states = wmx_realloc(r->states, (size_t)r->scap * r->ss);
        st = LSTATE(r, depth);
    }
    const wmx_program *p = r->prog;
    for (int u = 0; u < r->nthreads && !r->stop; u++) {
        st = LSTATE(r, depth);
        if (machine_status(r->lm, st, u) != TS_RUNNING)
            continue;
        /* the new event must be the maximal event of the highest thread:
         * every higher thread's last event must be a write someone reads */
        int nbad = 0, bad = -1;
        for (int t = u + 1; t < r->nthreads; t++) {
            if (r->tn[t] == 0)
                continue;
            const gev *last = &r->tev[t][r->tn[t] - 1];
            if (!(gev_is_write(last) && last->nreaders > 0)) {
                nbad++;
                bad = t;
            }
        }
        if (nbad > 1)
            continue;
        const ir_instr *in = &p->threads[u].instrs[machine_pc(r->lm, st, u)];
        wmx_transition step = { TR_STEP, u, -1 };
        wmx_event ev;
        if (!instr_reads(in->kind)) {
            if (nbad)
                continue;
            void *ch = LSTATE(r, depth + 1);
            memcpy(ch, st, r->ss);
            machine_apply(r->lm, ch, &step, &ev);
            push_event(r, &ev);
            r->res->events++;
            /* a write or fence at the end of its thread is always consistent */
            visit(r, depth + 1);
            pop_event(r, u);
            continue;
        }
        int cell = ir_address_cell(p, &in->addr, machine_regs(r->lm, st, u));
        /* candidate sources: the initial value, then every write to the cell */
        for (int t = -1; t < r->nthreads && !r->stop; t++) {
            int n = t < 0 ? 1 : r->tn[t];
            for (int i = 0; i < n && !r->stop; i++) {
                wmx_eid src;
                wmx_val v;
                if (t < 0) {
                    if (nbad)
                        continue;
                    src = EID_INIT;
                    v = p->cell_init[cell];
                } else {
                    const gev *w = &r->tev[t][i];
                    if (w->x.cell != cell || !gev_is_write(w))
                        continue;
                    if (nbad && !(t == bad && i == r->tn[t] - 1))
                        continue;
                    src = EID_MAKE(t, i);
                    v = w->x.value;
                }
                st = LSTATE(r, depth);
                void *ch = LSTATE(r, depth + 1);
                memcpy(ch, st, r->ss);
                ((wmx_val *)machine_memory(r->lm, ch))[cell] = v;
                ((wmx_eid *)machine_memory_writer(r->lm, ch))[cell] = src;
                if (!machine_is_enabled(r->lm, ch, &step))
                    continue;      /* an await whose condition fails on v */
                machine_apply(r->lm, ch, &step, &ev);
                push_event(r, &ev);
                r->res->events++;
                if (graph_consistent(r))
                    visit(r, depth + 1);
                pop_event(r, u);
            }
        }
    }
}

int explore_rfsmc(const wmx_program *prog, const explore_opts *opts,
                  explore_result *res, wmx_error *err)
{
    explore_result_init(res, prog, opts->model, ALGO_RFSMC);
    double t0 = explore_now();
    rs r;
    memset(&r, 0, sizeof r);
    r.prog = prog;
    r.opts = opts;
    r.res = res;
    r.model = opts->model;
    r.lm = machine_new(prog, MODEL_SC, err);
    if (!r.lm)
        return -1;
    r.mm = machine_new(prog, opts->model, err);
    if (!r.mm) {
        machine_free(r.lm);
        return -1;
    }
    r.ss = machine_state_size(r.lm);
    r.nthreads = prog->nthreads;
    size_t nt = (size_t)(r.nthreads ? r.nthreads : 1);
    r.tev = wmx_calloc(nt, sizeof *r.tev);
    r.tn = wmx_calloc(nt, sizeof *r.tn);
    r.tcap = wmx_calloc(nt, sizeof *r.tcap);
    r.scap = 64;
    r.states = wmx_malloc((size_t)r.scap * r.ss);
    r.obs = wmx_malloc((size_t)(res->nobserved ? res->nobserved : 1) * sizeof *r.obs);
    for (int i = 0; i < res->nobserved; i++)
        if (res->observed[i].thread < 0)
            r.obs[r.nobs++] = res->observed[i].cell;
    r.rstate = wmx_malloc(machine_state_size(r.mm));
    explore_clock_start(&r.clk);
    machine_init(r.lm, LSTATE(&r, 0));
    visit(&r, 0);
    res->time_s = explore_now() - t0;
    explore_finish(res);
    for (int t = 0; t < r.nthreads; t++)
        free(r.tev[t]);
    free(r.tev);
    free(r.tn);
    free(r.tcap);
    free(r.states);
    free(r.obs);
    free(r.wit);
    free(r.rev);
    free(r.rsteps);
    free(r.rstate);
    machine_free(r.lm);
    machine_free(r.mm);
    return 0;
}
