/* rfsmc.c - reads-from stateless model checking (RF-SMC) for SC, TSO and PSO.
 *
 * The search explores one maximal trace per class of the reads-from
 * partitioning and nothing else: every trace it runs is maximal, and no
 * class is run twice.  It is the decision-tree scheme of Abdulla et al.
 * (OOPSLA 2019), with the consistency checks of Bui et al. (VSC-rf,
 * VTSO-rf, VPSO-rf) deciding which alternatives exist under the model.
 *
 * A node of the search is a *fixed part* F: a po∪rf-closed execution graph
 * (per thread a prefix of events, a source for each read) plus a set of
 * threads frozen at an await.  The node asks the checker for a trace that
 * realises F, runs it on the model's machine and extends it by a fixed
 * scheduler to a maximal trace τ.  Each read e that the extension added is
 * a *decision* d(e): the classes that contain F_e = (the events before e in
 * τ, with their sources) all contain e, and split by e's source.  The
 * source τ gave e is the branch being explored; every other source is an
 * *alternative*, explored later with the fixed part F_e ∪ cone(w) ∪ {e←w},
 * where cone(w) is w's po∪rf past.  A write is named by its identity, its
 * thread and index together with the sources of the reads in its cone, so
 * two alternatives of one decision never share a class and each one is
 * queued once (a key comparison).  Alternatives are collected from every
 * trace run below the decision: a write that appears there, is not in e's
 * po∪rf future and (for awaits) satisfies the await, is a possible source.
 * Decisions are explored deepest first, so memory is the current path: one
 * decision per read of the current trace, each with its queued keys.
 *
 * Awaits: an await is a read that happens once its condition holds.  Its
 * decision has one more alternative, "absent": the classes where its
 * thread stays at the await for ever (the thread is frozen in that
 * subtree).  A thread that waits at the end of τ is a decision whose
 * branch is "absent" and whose alternatives are the satisfying writes.
 * A graph where threads wait is a class only when some final value fails
 * every waiting await; the final writers of observed locations (herd's
 * final conditions) are observer reads after the end, enumerated per graph
 * with the checker, each consistent choice one class.
 */
#include "budget.h"
#include "exec.h"
#include "parallel.h"
#include "thread_memo.h"
#include "verify.h"
#include "rfsmc.h"

#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define SRC_ABSENT (-2)    /* alternative "the await never happens" */
/* the thread memo's size before it starts over (per worker) */
#define THREAD_MEMO_BYTES ((size_t)32 << 20)

typedef struct waiter {
    int thread, cell;
    ir_op cmp;
    wmx_val operand;
} waiter;

typedef struct gev {
    xevent x;              /* x.rf unused here */
    wmx_eid rf;            /* reads: the source (EID_INIT for the initial value) */
    int pos;               /* position in the trace order (for clocks) */
} gev;

/* One graph: per thread the events in program order. */
typedef struct graph {
    gev **tev;
    int *tn, *tcap;
} graph;

typedef struct alt {
    wmx_eid src;           /* write, EID_INIT or SRC_ABSENT */
    int nextra;            /* reads of cone(src) outside the decision's fixed part */
    int *data;             /* nthreads cone counts, then nextra (eid, rf) pairs */
    uint64_t hash;
} alt;

/* Per thread, a bit per event index. */
typedef struct settled_set {
    uint64_t **bits;
    int *words;
} settled_set;

typedef struct decision {
    wmx_eid ev;            /* the read (thread, index) */
    int thread;
    bool is_await;         /* an await, or a lock (an await for a free mutex) */
    /* e's cell is a mutex chain (find_chain_cells): the alternatives are
     * the other RMWs that could take src0, e's source on the branch, and
     * leave e to run later (see taker_sources) */
    bool taker;
    wmx_eid src0;
    int cell;
    ir_op cmp;
    wmx_val operand;
    int *fcount;           /* the fixed part F_e: events per thread before e */
    unsigned char *frozen; /* threads frozen in this decision's classes */
    alt *alts;
    int nalts, cap, next;  /* alts[0..next) explored (or the branch taken) */
    int *aset;             /* hash set over alts (index + 1, 0 = empty), or NULL */
    int asetcap;           /* a power of two, > 2 * nalts */
    int **blocks;          /* key data of queued alts: a few blocks that never
                              move (alts point into them), not a malloc per key */
    int nblocks;
    size_t bused, bcap;    /* in the last block */
    _Atomic bool fixed_offered; /* discover offered the fixed part's writes (see there);
                              * a shared decision's workers read it unlocked */
    _Atomic bool init_offered; /* the initial value's key (always the same) is queued */
    _Atomic bool init_refuted; /* facts of F_e rule the initial value out (see discover) */
    /* an await whose "absent" alternative waits for a write that fails it
     * (see queue_absent); cleared once the alternative is queued */
    _Atomic bool absent_wanted;
    /* --jobs: a decision on the paths of several workers.  Its fields above
     * `alts` never change; alts, nalts, next, aset and blocks are then
     * guarded by mu, and the fixed part's sources are a copy (fsrc) since
     * the workers' graphs differ below it. */
    bool shared;
    int refs;              /* workers (and queued units) holding it */
    pthread_mutex_t mu;
    wmx_eid **fsrc;        /* per thread, fcount[t] sources (reads only) */
    settled_set settled;   /* sources whose key cannot change (see offer) */
    settled_set *wsettled; /* shared: one per worker, each touched by its worker only */
    int nworkers;
    /* over MPI ranks (see "units between ranks"): a decision another rank
     * owns is a replica here, shared and never growing: only alts[0,
     * nbatch) are this rank's to explore, and a key offered to it goes to
     * its owner.  owner/id name it across ranks (owner -1: a decision no
     * other rank has heard of) */
    bool replica;
    int nbatch;
    int owner, id;
} decision;

/* The alternatives this rank may take from d: alts[next, alts_end(d)). */
static inline int alts_end(const decision *d)
{
    return d->replica ? d->nbatch : d->nalts;
}

typedef struct rs {
    struct rfsmc_iter *iter;
    bool direct;           /* classes go to opts->on_trace, not to the queue */
    const wmx_program *prog;
    const explore_opts *opts;
    explore_result *res;
    wmx_model model;
    wmx_machine *lm;       /* SC machine: thread-local interpreter */
    wmx_machine *mm;       /* the model's machine */
    /* the program has locks (blocking CASes, see finish_graph) */
    bool locks;
    size_t lss, mss;
    int nthreads;
    graph g, ng;           /* current graph, scratch for the next one */
    team *team;            /* --jobs: the other workers, else NULL */
    int wid;               /* --jobs: this worker's number */
    struct rs_run *run;    /* --jobs: what the workers of this process share */
    decision **dec;        /* the path: the current trace's decisions */
    int ndec, capdec;
    /* the current trace */
    wmx_transition *steps;
    wmx_event *events;
    int tlen, tcap;
    char *mstate, *lstate;
    int *vc;               /* nthreads clock per trace position */
    int vccap;
    wmx_eid *order;        /* thread event at each trace position (-1 for a flush) */
    /* the order in which a trace is extended: threads that assert last (see
     * rfsmc_iter_new), or NULL (by number) */
    int *sched;
    struct waiter *winfo;  /* awaits of the extension: the condition they passed */
    int nobs;
    int *obs;              /* observed cells */
    explore_clock clk;
    bool stop;
    bool sat_skipped;      /* the last saturate() was skipped (too many events) */
    /* scratch */
    wmx_transition *wit;
    int wlen;
    wmx_event *rev;
    wmx_transition *rsteps;
    int rcap;
    char *rstate;
    int *tmpcount;
    int *tmpcone;
    int *keybuf;           /* scratch for the key being offered */
    uint64_t *rmwkeys;     /* scratch for rmw_sources_clash */
    size_t rmwcap;
    size_t keycap;
    int *evstart;
    int nev, nwords;
    uint64_t *bits;
    size_t bitcap;
    int *satstack;         /* saturate's search: stack, cursors, marks */
    size_t satcap;
    int64_t *satwrites;    /* saturate's writes by cell */
    const gev **evtab;
    size_t evcap;
    long refuted;
    long nodes, empty;     /* traces run; those that were no class */
    /* the current graph has been counted: its other final writers of
     * locations that are only shown are endings, not classes */
    bool graph_counted;
    bool shown_only;       /* explore_observed_shown_only */
    int *pairs;
    int pcap;
    long checks;
    /* per cell: every write to it stores a constant, listed in
     * wvals[woff[c]..woff[c+1]) when known[c]; sure[c]: some thread
     * always writes it */
    int *woff;
    wmx_val *wvals;
    unsigned char *known;
    unsigned char *sure;
    unsigned char *released;   /* per cell: ends at 0 in every class (find_released) */
    unsigned char *chain;      /* per cell: a mutex chain (find_chain_cells), or NULL */
    int *pastw;                /* scratch of discover: trace positions of writes */
    int pastcap;
    /* the current graph's writes by cell, thread by thread in program
     * order: gw[gwoff[c]..gwoff[c+1]) (built by index_writes) */
    int *gwoff;
    wmx_eid *gw;
    int gwcap;
    const graph *gw_of;    /* the graph gw indexes (NULL: none) */
    /* per thread, the current graph's events as the SC interpreter
     * describes them, fev[t][0, g.tn[t]) (build_fixed copies a fixed
     * part's prefix from them, and a greedy witness is its events in
     * another order), and fnode[t][i] the memo node after event i, -1
     * until asked for */
    wmx_event **fev;
    int32_t **fnode;
    int *fevcap;
    unsigned fnode_gen;    /* the memo generation fnode's numbers are of */
    thread_memo *memo;     /* each thread's runs so far (build_fixed walks them) */
    int *mcur;             /* build_fixed's node per thread */
    /* greedy_witness's scratch, kept between calls */
    int *gneed, *glastk, *gnext;
    size_t gneedcap, glastkcap;
    wmx_transition *gwit;  /* becomes r->wit on success (the two swap) */
    size_t gwitcap, witcap;
    int *gflushed, *gnbuf;  /* greedy_witness_tso's buffers, per thread */
    char *initstate;       /* the model machine's initial state */
} rs;

static bool gev_is_write(const gev *g)
{
    return g->x.kind == X_WRITE || (g->x.kind == X_RMW && g->x.wrote);
}

static bool gev_is_read(const gev *g)
{
    return xev_is_read(&g->x);
}

static void graph_init(graph *g, int nthreads)
{
    size_t nt = (size_t)(nthreads ? nthreads : 1);
    g->tev = wmx_calloc(nt, sizeof *g->tev);
    g->tn = wmx_calloc(nt, sizeof *g->tn);
    g->tcap = wmx_calloc(nt, sizeof *g->tcap);
}

static void graph_free(graph *g, int nthreads)
{
    for (int t = 0; t < nthreads; t++)
        free(g->tev[t]);
    free(g->tev);
    free(g->tn);
    free(g->tcap);
}

static inline gev *graph_slot(graph *g, int t, int i)
{
    if (i >= g->tcap[t]) {
        int cap = g->tcap[t] ? g->tcap[t] : 16;
        while (cap <= i)
            cap *= 2;
        g->tev[t] = wmx_realloc(g->tev[t], (size_t)cap * sizeof *g->tev[t]);
        g->tcap[t] = cap;
    }
    return &g->tev[t][i];
}

static gev *graph_ev(graph *g, wmx_eid id)
{
    return &g->tev[EID_THREAD(id)][EID_INDEX(id)];
}

/* Lists the writes of g by cell, so that the search for a read's other
 * sources and for final writers visits only its cell's writes (scanning
 * every event per decision was a tenth of lastzero-14's time). */
static void index_writes(rs *r, const graph *g)
{
    if (r->gw_of == g)
        return;             /* finish_graph and discover share the index */
    r->gw_of = g;
    int cells = r->prog->ncells, nt = r->nthreads, n = 0;
    if (!r->gwoff)
        r->gwoff = wmx_calloc((size_t)cells + 2, sizeof *r->gwoff);
    memset(r->gwoff, 0, ((size_t)cells + 2) * sizeof *r->gwoff);
    for (int t = 0; t < nt; t++)
        for (int i = 0; i < g->tn[t]; i++) {
            const gev *w = &g->tev[t][i];
            if (gev_is_write(w) && w->x.cell >= 0 && w->x.cell < cells) {
                r->gwoff[w->x.cell + 2]++;
                n++;
            }
        }
    if (n > r->gwcap) {
        r->gwcap = 2 * n + 16;
        r->gw = wmx_realloc(r->gw, (size_t)r->gwcap * sizeof *r->gw);
    }
    for (int c = 0; c < cells; c++)
        r->gwoff[c + 2] += r->gwoff[c + 1];
    /* gwoff[c+1] is now where cell c's writes start: fill, then shift */
    for (int t = 0; t < nt; t++)
        for (int i = 0; i < g->tn[t]; i++) {
            const gev *w = &g->tev[t][i];
            if (gev_is_write(w) && w->x.cell >= 0 && w->x.cell < cells)
                r->gw[r->gwoff[w->x.cell + 1]++] = EID_MAKE(t, i);
        }
}

static inline void gev_from_event(gev *g, const wmx_event *ev)
{
    /* every field set once, no memset: two calls per event of every trace */
    xkind k;
    switch (ev->kind) {
    case EV_READ: k = X_READ; break;
    case EV_AWAIT: k = X_AWAIT; break;
    case EV_FENCE: k = X_FENCE; break;
    case EV_RMW: k = X_RMW; break;
    default: k = X_WRITE; break;
    }
    g->x = (xevent){ .kind = k, .thread = ev->thread, .index = EID_INDEX(ev->id), .instr = ev->instr,
                     .cell = k == X_FENCE ? -1 : ev->cell, .value = ev->value, .read = ev->read,
                     .wrote = ev->wrote, .rf = -1, .flushed = false, .mem_order = -1, .line = 0 };
    g->rf = k == X_WRITE || k == X_FENCE ? EID_INIT : ev->rf;
    g->pos = 0;
}

/* ---- the graph as an execution for the checker ---- */

static wmx_exec *graph_exec(rs *r, const graph *g)
{
    wmx_exec *x = exec_new(r->prog, r->model);
    int n = 0;
    for (int t = 0; t < r->nthreads; t++)
        n += g->tn[t];
    x->ev = wmx_malloc((size_t)(n ? n : 1) * sizeof *x->ev);
    int k = 0;
    for (int t = 0; t < r->nthreads; t++)
        for (int i = 0; i < g->tn[t]; i++) {
            xevent e = g->tev[t][i].x;
            e.index = i;
            e.rf = xev_is_read(&e) ? g->tev[t][i].rf : -1;
            e.flushed = gev_is_write(&g->tev[t][i]);
            e.mem_order = -1;
            e.line = 0;
            x->ev[k++] = e;
        }
    x->nev = n;
    exec_seal(x);
    return x;
}

static bool rs_poll(rs *r);
static bool rs_stop_cb(void *ud) { return rs_poll(ud); }

static bool exec_consistent(rs *r, const wmx_exec *x, bool keep_witness)
{
    verify_result vr;
    r->checks++;
    verify_check_stop(x, r->model, 0, &vr, rs_stop_cb, r);
    bool ok = vr.consistent && !vr.stopped;
    if (ok && keep_witness) {
        free(r->wit);
        r->wlen = vr.wlen;
        r->witcap = (size_t)(vr.wlen ? vr.wlen : 1);
        r->wit = wmx_malloc(r->witcap * sizeof *r->wit);
        if (vr.wlen)
            memcpy(r->wit, vr.witness, (size_t)vr.wlen * sizeof *r->wit);
    }
    verify_result_free(&vr);
    return ok;
}

/* ---- a cheap necessary condition before the full check ----
 *
 * Saturation over the model's preserved order: ppo (program order minus
 * what the model relaxes: write→read under TSO, also write→write to other
 * variables under PSO; RMWs and fences keep everything), external
 * reads-from (all reads-from under SC), per-variable coherence (a read
 * sees its own thread's earlier writes or later ones), and the coherence
 * and from-read edges that follow: a write w' ordered before a read of w comes before w,
 * and a read of w comes before every write after w.  A cycle proves the
 * graph inconsistent; no cycle proves nothing and the checker decides. */

static bool plain_write(const gev *g) { return g->x.kind == X_WRITE; }
static bool plain_read(const gev *g) { return g->x.kind == X_READ || g->x.kind == X_AWAIT; }

static bool relaxed(wmx_model m, const gev *a, const gev *b)
{
    if (m == MODEL_SC || !plain_write(a))
        return false;
    if (plain_read(b))
        return true;
    return m == MODEL_PSO && plain_write(b) && b->x.cell != a->x.cell;
}

#define BIT_SET(row, j) ((row)[(j) >> 6] |= (uint64_t)1 << ((j) & 63))
#define BIT_GET(row, j) (((row)[(j) >> 6] >> ((j) & 63)) & 1)

/* Saturation is a cheap refutation before the exact check, and it costs
 * n^2 bits and an n^3/64 closure per node: beyond SAT_MAX_EVENTS events it
 * costs more than the checks it saves (longwriter-512: 0.60 s with it,
 * 0.04 s without; lastzero-12, 40 events: 0.27 s with it, 0.65 s without).
 * When it is skipped the exact check decides alone, so no count changes
 * (the differential suites pass with it never run). */
#define SAT_MAX_EVENTS 256

/* Polls the limits; true when the search must stop.  Cheap: every loop
 * whose length grows with the program calls it. */
static bool rs_poll(rs *r)
{
    if (!r->stop && explore_should_stop(&r->clk, r->opts, r->res, r->ndec))
        r->stop = true;
    return r->stop;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Saturates the preserved order of g into r->bits (rows by event, events
 * numbered thread by thread from r->evstart).  True when it has a cycle. */
static bool saturate(rs *r, const graph *g)
{
    int nt = r->nthreads, n = 0;
    int *start = r->evstart;      /* per-thread offsets */
    for (int t = 0; t < nt; t++) {
        start[t] = n;
        n += g->tn[t];
    }
    r->nev = n;
    /* n*n bits and an n^3/64 closure: beyond a few thousand events the
     * cheap refutation is not cheap; the exact check decides alone */
    r->sat_skipped = n > SAT_MAX_EVENTS;
    if (r->sat_skipped)
        return false;
    int nw = (n + 63) / 64;
    r->nwords = nw;
    if (n == 0)
        return false;   /* no events (every thread waits at once): no order, no table */
    size_t need = (size_t)n * (size_t)nw;
    if (2 * need > r->bitcap) {
        /* n*n bits twice: the one allocation here that grows quadratically */
        if (explore_reserve(&r->clk, r->opts, r->res, need * 4 * sizeof *r->bits)) {
            r->stop = true;
            return false;
        }
        r->bitcap = need * 4;
        r->bits = wmx_realloc(r->bits, r->bitcap * sizeof *r->bits);
    }
    if ((size_t)n * 3 > r->satcap) {
        r->satcap = (size_t)n * 6;
        r->satstack = wmx_realloc(r->satstack, r->satcap * sizeof *r->satstack);
        r->satwrites = wmx_realloc(r->satwrites, r->satcap * sizeof *r->satwrites);
    }
    uint64_t *c = r->bits;          /* the closure */
    uint64_t *dir = c + need;       /* the initial edges */
    memset(c, 0, 2 * need * sizeof *c);
#define ROW(i) (c + (size_t)(i) * (size_t)nw)
#define DROW(i) (dir + (size_t)(i) * (size_t)nw)
#define EV(i) (r->evtab[i])
    if ((size_t)n > r->evcap) {
        r->evcap = (size_t)n * 2;
        r->evtab = wmx_realloc(r->evtab, r->evcap * sizeof *r->evtab);
    }
    for (int t = 0; t < nt; t++)
        for (int i = 0; i < g->tn[t]; i++)
            r->evtab[start[t] + i] = &g->tev[t][i];
    for (int t = 0; t < nt; t++)
        for (int i = 0; i < g->tn[t]; i++) {
            const gev *a = &g->tev[t][i];
            if (rs_poll(r))
                return false;
            for (int j = i + 1; j < g->tn[t]; j++)
                if (!relaxed(r->model, a, &g->tev[t][j]))
                    BIT_SET(DROW(start[t] + i), start[t] + j);
            if (gev_is_read(a) && a->rf != EID_INIT &&
                (r->model == MODEL_SC || EID_THREAD(a->rf) != t))
                BIT_SET(DROW(start[EID_THREAD(a->rf)] + EID_INDEX(a->rf)), start[t] + i);
            /* coherence: a read sees its thread's earlier writes to the
             * variable or later ones, under every model */
            if (gev_is_read(a))
                for (int j = 0; j < i; j++) {
                    const gev *w = &g->tev[t][j];
                    if (!gev_is_write(w) || w->x.cell != a->x.cell || EID_MAKE(t, j) == a->rf)
                        continue;
                    if (a->rf == EID_INIT)
                        return true;
                    BIT_SET(DROW(start[t] + j), start[EID_THREAD(a->rf)] + EID_INDEX(a->rf));
                }
        }
    /* the closure of the initial edges, by depth-first search: a row is
     * complete once its search ends, and a successor already in the row
     * adds nothing (its row is in it).  A successor still on the stack is
     * a cycle.  O(n * edges / 64), where the cubic closure was most of a
     * refutation. */
    {
        int *stk = r->satstack, *at = r->satstack + n;
        unsigned char *mark = (unsigned char *)(r->satstack + 2 * n);   /* 0 new, 1 open, 2 done */
        memset(mark, 0, (size_t)n);
        for (int root = 0; root < n; root++) {
            if (mark[root])
                continue;
            if (rs_poll(r))
                return false;
            int sp = 0;
            stk[sp] = root;
            at[sp++] = 0;
            mark[root] = 1;
            while (sp > 0) {
                int i = stk[sp - 1];
                const uint64_t *di = DROW(i);
                uint64_t *ci = ROW(i);
                int j = -1;
                for (int w = at[sp - 1] >> 6; w < nw && j < 0; w++) {
                    uint64_t bits = di[w] & ~ci[w];
                    if (w == at[sp - 1] >> 6)
                        bits &= ~(uint64_t)0 << (at[sp - 1] & 63);
                    if (bits)
                        j = w * 64 + __builtin_ctzll(bits);
                }
                if (j < 0) {
                    mark[i] = 2;
                    sp--;
                    continue;
                }
                if (mark[j] == 1)
                    return true;
                if (mark[j] == 0) {
                    /* search j first; i comes back to j then */
                    at[sp - 1] = j;
                    mark[j] = 1;
                    stk[sp] = j;
                    at[sp++] = 0;
                    continue;
                }
                const uint64_t *cj = ROW(j);
                for (int w = 0; w < nw; w++)
                    ci[w] |= cj[w];
                BIT_SET(ci, j);
                at[sp - 1] = j + 1;
            }
        }
    }
    /* the writes by cell (cell << 32 | event, sorted): a read meets only
     * the writes of its cell */
    int64_t *wsort = r->satwrites;
    int nws = 0;
    for (int xi = 0; xi < n; xi++)
        if (gev_is_write(EV(xi)))
            wsort[nws++] = (int64_t)EV(xi)->x.cell << 32 | xi;
    qsort(wsort, (size_t)nws, sizeof *wsort, cmp_i64);
    /* derived edges, each added to the closure at once */
    bool added = true;
    while (added) {
        added = false;
        for (int ri = 0; ri < n; ri++) {
            const gev *rd = EV(ri);
            if (!gev_is_read(rd))
                continue;
            if (rs_poll(r))
                return false;
            int wi = rd->rf == EID_INIT ? -1 : start[EID_THREAD(rd->rf)] + EID_INDEX(rd->rf);
            int lo = 0, hi = nws;
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if ((int32_t)(wsort[mid] >> 32) < rd->x.cell)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            for (int k = lo; k < nws && (int32_t)(wsort[k] >> 32) == rd->x.cell; k++) {
                int xi = (int)(wsort[k] & 0xffffffff);
                if (xi == wi || xi == ri)
                    continue;
                int a = -1, b = -1;
                if (BIT_GET(ROW(xi), ri)) {          /* w' before the read: w' before w */
                    if (wi < 0)
                        return true;
                    if (!BIT_GET(ROW(xi), wi)) {
                        a = xi;
                        b = wi;
                    }
                } else if (wi >= 0 && BIT_GET(ROW(wi), xi) && !BIT_GET(ROW(ri), xi)) {
                    a = ri;                          /* the read before w' */
                    b = xi;
                }
                if (a < 0)
                    continue;
                if (BIT_GET(ROW(b), a))
                    return true;
                const uint64_t *rb = ROW(b);
                for (int i = 0; i < n; i++)
                    if (i == a || BIT_GET(ROW(i), a)) {
                        uint64_t *rr = ROW(i);
                        for (int w = 0; w < nw; w++)
                            rr[w] |= rb[w];
                        BIT_SET(rr, b);
                    }
                added = true;
            }
        }
    }
    return false;
#undef ROW
#undef DROW
#undef EV
}

/* ---- completion: observers, waiting awaits, reporting ---- */

typedef struct fin {
    wmx_exec *x;
    int nw;
    waiter *w;
    int nsc;              /* waiting cells that are not observed */
    int *sc;
    /* the writes of each cell: positions wpos[wstart[c] .. wstart[c + 1]),
     * made once per execution (a scan of the events per cell and level of
     * the search was most of twalock's time, with 4096 observed cells) */
    int *wstart, *wpos;
    int *order;           /* the observed cells, those with one choice first */
} fin;

static void fin_index_writes(fin *f)
{
    const wmx_exec *x = f->x;
    f->wstart = wmx_calloc((size_t)x->ncells + 2, sizeof *f->wstart);
    f->wpos = wmx_malloc((size_t)(x->nev ? x->nev : 1) * sizeof *f->wpos);
    for (int pos = 0; pos < x->nev; pos++)
        if (x->ev[pos].cell >= 0 && x->ev[pos].cell < x->ncells && xev_is_write(&x->ev[pos]))
            f->wstart[x->ev[pos].cell + 2]++;
    for (int c = 0; c < x->ncells; c++)
        f->wstart[c + 2] += f->wstart[c + 1];
    for (int pos = 0; pos < x->nev; pos++)
        if (x->ev[pos].cell >= 0 && x->ev[pos].cell < x->ncells && xev_is_write(&x->ev[pos]))
            f->wpos[f->wstart[x->ev[pos].cell + 1]++] = pos;
}

/* whether value v of cell fails every await waiting on it */
static bool fails_waiters(const fin *f, int cell, wmx_val v)
{
    for (int i = 0; i < f->nw; i++)
        if (f->w[i].cell == cell && ir_cmp_holds(f->w[i].cmp, v, f->w[i].operand))
            return false;
    return true;
}

static wmx_val pos_value(const wmx_exec *x, int cell, int pos)
{
    return pos < 0 ? x->cell_init[cell] : x->ev[pos].value;
}

static void queue_trace(rs *r, const explore_trace *tr);

static void add_trace(rs *r, const explore_trace *class_tr)
{
    explore_trace t = *class_tr, *tr = &t;
    t.ending = r->graph_counted && r->shown_only;
    r->graph_counted = true;
    explore_result_add_trace(r->res, r->mm, tr);
    if (!r->direct)
        queue_trace(r, tr);
    else if (r->opts->on_trace)
        r->opts->on_trace(tr, r->opts->ud);
    if (explore_should_stop(&r->clk, r->opts, r->res, r->ndec))
        r->stop = true;
}

/* Reports the class whose witness the last check kept. */
static void report_witness(rs *r)
{
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
    r->res->events += len;
    explore_trace tr = { len, r->rsteps, r->rev, r->rstate,
                         machine_is_blocked(m, r->rstate), machine_has_error(m, r->rstate), false };
    add_trace(r, &tr);
}


/* some failing final writer for each unobserved waiting cell j.. */
static bool waiting_ok(rs *r, fin *f, int j)
{
    if (j == f->nsc)
        return exec_consistent(r, f->x, true);
    int c = f->sc[j];
    int nw = f->wstart[c + 1] - f->wstart[c];
    for (int k = nw == 1 ? 0 : -1; k < nw; k++) {
        int pos = k < 0 ? -1 : f->wpos[f->wstart[c] + k];
        if (!fails_waiters(f, c, pos_value(f->x, c, pos)))
            continue;
        exec_put_observer(f->x, r->nobs + j, c, pos);
        if (j + 1 < f->nsc && nw > 1 && !exec_consistent(r, f->x, false))
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
        if (waiting_ok(r, f, 0))
            report_witness(r);
        return;
    }
    int c = f->order[i];
    int nw = f->wstart[c + 1] - f->wstart[c];
    for (int k = nw == 1 ? 0 : -1; k < nw && !r->stop; k++) {
        int pos = k < 0 ? -1 : f->wpos[f->wstart[c] + k];
        if (!fails_waiters(f, c, pos_value(f->x, c, pos)))
            continue;
        exec_put_observer(f->x, i, c, pos);
        if (i + 1 < r->nobs && nw > 1 && !exec_consistent(r, f->x, false))
            continue;
        observers(r, f, i + 1);
    }
    f->x->nobs = i;
}

/* The await a waiting thread stands at: cell, comparison, operand. */
static void await_at(rs *r, const void *st, int t, waiter *w)
{
    const wmx_program *p = r->prog;
    const ir_instr *in = &p->threads[t].instrs[machine_pc(r->mm, st, t)];
    const wmx_val *regs = machine_regs(r->mm, st, t);
    *w = (waiter){ t, ir_address_cell(p, &in->addr, regs), in->cmp,
                   ir_eval(p, in->e1, regs, NULL) };
}

/* at an await, or at a lock (a blocking CAS: an await for e1 that then
 * writes) */
static bool at_await(rs *r, const void *st, int t)
{
    return machine_status(r->mm, st, t) == TS_RUNNING &&
           ir_waits(&r->prog->threads[t].instrs[machine_pc(r->mm, st, t)]);
}

static bool greedy_witness_obs(rs *r, const graph *g, const wmx_eid *obs_w);
static bool greedy_witness_tso(rs *r, const graph *g, const wmx_eid *obs_w);

static int *vc_of(rs *r, int pos);

/* Whether one write of cell c has every other write of c in its po∪rf
 * past (the current trace's clocks). */
static bool one_last_write(rs *r, int c)
{
    /* only each thread's last write of c can be it, and it holds the
     * others when it holds each thread's last (gw: by thread, then index) */
    int lo = r->gwoff[c], hi = r->gwoff[c + 1], n = 0;
    if (r->nthreads > r->pastcap) {
        r->pastcap = r->nthreads;
        r->pastw = wmx_realloc(r->pastw, (size_t)r->pastcap * sizeof *r->pastw);
    }
    for (int k = lo; k < hi; k++)
        if (k + 1 == hi || EID_THREAD(r->gw[k + 1]) != EID_THREAD(r->gw[k]))
            r->pastw[n++] = k;
    for (int a = 0; a < n; a++) {
        const int *v = vc_of(r, graph_ev(&r->g, r->gw[r->pastw[a]])->pos);
        bool all = true;
        for (int b = 0; b < n && all; b++) {
            wmx_eid w = r->gw[r->pastw[b]];
            all = a == b || v[EID_THREAD(w)] > EID_INDEX(w);
        }
        if (all)
            return true;
    }
    return false;
}

/* The classes of a graph where nothing waits: one per choice of final
 * writers of the observed cells.  A write ordered before another write to
 * its cell cannot be final; the trace itself realises its own choice, the
 * others go to the greedy order, then to the checker. */
static void final_writers(rs *r)
{
    const void *st = r->mstate;
    explore_trace tr = { r->tlen, r->steps, r->events, r->mstate,
                         machine_is_blocked(r->mm, st), machine_has_error(r->mm, st), false };
    if (r->nobs == 0) {
        add_trace(r, &tr);
        return;
    }
    const graph *g = &r->g;
    int nt = r->nthreads;
    /* a cell written at most once has one possible final writer; under
     * SC and TSO so does a cell whose writes are all in the po∪rf past of
     * one of them (ordered before it: see discover), e.g. a counter
     * increased in critical sections, whose closure was a quarter of a
     * mutex program's time */
    bool choice = false;
    index_writes(r, g);
    for (int o = 0; o < r->nobs && !choice; o++) {
        int c = r->obs[o];
        choice = r->gwoff[c + 1] - r->gwoff[c] > 1;
        if (choice && r->model != MODEL_PSO)
            choice = !one_last_write(r, c);
    }
    if (!choice) {
        add_trace(r, &tr);
        return;
    }
    saturate(r, g);
    if (r->stop)
        return;                 /* the closure is unfinished (or was not allocated) */
    int nw = r->nwords;
    const wmx_eid *fin_w = machine_memory_writer(r->mm, st);
    /* candidates per observed cell: eids, EID_INIT when no write */
    int total = 0;
    for (int t = 0; t < nt; t++)
        total += g->tn[t];
    wmx_eid *cand = wmx_malloc((size_t)(total + 1) * (size_t)r->nobs * sizeof *cand);
    int *ncand = wmx_calloc((size_t)r->nobs, sizeof *ncand);
    int *pick = wmx_calloc((size_t)r->nobs, sizeof *pick);
    bool several = false;
    for (int o = 0; o < r->nobs; o++) {
        int cell = r->obs[o];
        wmx_eid *cs = cand + (size_t)o * (size_t)(total + 1);
        bool any = r->gwoff[cell + 1] > r->gwoff[cell];
        for (int k = r->gwoff[cell]; k < r->gwoff[cell + 1]; k++) {
            int t = EID_THREAD(r->gw[k]), i = EID_INDEX(r->gw[k]);
            bool later = false;
            if (r->sat_skipped) {
                /* no closure: only coherence along program order */
                for (int j = i + 1; j < g->tn[t] && !later; j++)
                    later = gev_is_write(&g->tev[t][j]) && g->tev[t][j].x.cell == cell;
                if (!later)
                    cs[ncand[o]++] = EID_MAKE(t, i);
                continue;
            }
            const uint64_t *row = r->bits + (size_t)(r->evstart[t] + i) * (size_t)nw;
            for (int k2 = r->gwoff[cell]; k2 < r->gwoff[cell + 1] && !later; k2++)
                later = BIT_GET(row, r->evstart[EID_THREAD(r->gw[k2])] + EID_INDEX(r->gw[k2]));
            if (!later)
                cs[ncand[o]++] = EID_MAKE(t, i);
        }
        if (!any)
            cs[ncand[o]++] = EID_INIT;
        several |= ncand[o] > 1;
    }
    if (!several) {
        add_trace(r, &tr);
    } else {
        wmx_exec *x = graph_exec(r, g);
        wmx_eid *chosen = wmx_malloc((size_t)r->nobs * sizeof *chosen);
        for (;;) {
            bool own = true;
            x->nobs = 0;
            for (int o = 0; o < r->nobs; o++) {
                wmx_eid w = cand[(size_t)o * (size_t)(total + 1) + pick[o]];
                chosen[o] = w;
                own &= w == fin_w[r->obs[o]];
                exec_set_observer(x, r->obs[o], w == EID_INIT ? -1 : exec_find(x, EID_THREAD(w), EID_INDEX(w)));
            }
            /* another choice of final writers: the greedy order proves most
             * of them at once (a C program observes every global, and
             * checking each choice in full was most of its time) */
            if (own)
                add_trace(r, &tr);
            else if (greedy_witness_obs(r, g, chosen) ||
                     (r->model == MODEL_TSO && greedy_witness_tso(r, g, chosen)) ||
                     exec_consistent(r, x, true))
                report_witness(r);
            if (r->stop)
                break;
            int o = 0;
            while (o < r->nobs && ++pick[o] == ncand[o])
                pick[o++] = 0;
            if (o == r->nobs)
                break;
        }
        free(chosen);
        exec_free(x);
    }
    free(cand);
    free(ncand);
    free(pick);
}

/* Reports the classes of the current graph: the trace itself when nothing
 * waits and nothing is observed, else one class per consistent choice of
 * final writers. */
static void finish_graph(rs *r)
{
    const void *st = r->mstate;
    r->graph_counted = false;
    if (r->locks)
        for (int t = 0; t < r->nthreads; t++)
            if (machine_status(r->mm, st, t) == TS_BLOCKED &&
                ir_waits(&r->prog->threads[t].instrs[machine_pc(r->mm, st, t)]))
                return;     /* a lock that failed: a way to other classes, not one */
    fin f;
    memset(&f, 0, sizeof f);
    f.w = wmx_malloc((size_t)(r->nthreads ? r->nthreads : 1) * sizeof *f.w);
    for (int t = 0; t < r->nthreads; t++)
        if (at_await(r, st, t))
            await_at(r, st, t, &f.w[f.nw++]);
    if (f.nw == 0) {
        free(f.w);
        final_writers(r);
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
    f.x = graph_exec(r, &r->g);
    fin_index_writes(&f);
    /* a cell written at most once has one possible final writer, and
     * choosing it needs no check: set those first, in one pass (the
     * search went one level deep per observed cell) */
    f.order = wmx_malloc((size_t)(r->nobs ? r->nobs : 1) * sizeof *f.order);
    int nforced = 0, nlater = r->nobs;
    for (int o = 0; o < r->nobs; o++) {
        int c = r->obs[o];
        if (f.wstart[c + 1] - f.wstart[c] <= 1)
            f.order[nforced++] = c;
        else
            f.order[--nlater] = c;
    }
    bool possible = true;
    for (int k = 0; k < nforced && possible; k++) {
        int c = f.order[k];
        int pos = f.wstart[c + 1] > f.wstart[c] ? f.wpos[f.wstart[c]] : -1;
        possible = fails_waiters(&f, c, pos_value(f.x, c, pos));
        exec_put_observer(f.x, k, c, pos);
    }
    if (possible)
        observers(r, &f, nforced);
    free(f.order);
    exec_free(f.x);
    free(f.w);
    free(f.sc);
    free(f.wstart);
    free(f.wpos);
}

/* ---- decisions and their alternatives ---- */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

static int *vc_of(rs *r, int pos)
{
    return &r->vc[(size_t)pos * (size_t)r->nthreads];
}

/* The key of source src for decision d in the current graph: its cone's
 * counts and the sources of the cone's reads outside d's fixed part.  With
 * use_ovr, src is an RMW taken with source ovr instead of its own (its cone
 * is then its program-order past, ovr's cone and itself).  The key's data
 * is scratch (r->keybuf), valid until the next call: key_keep copies it. */
static alt make_key2(rs *r, const decision *d, wmx_eid src, wmx_eid ovr, bool use_ovr)
{
    int nt = r->nthreads;
    alt a = { src, 0, NULL, mix(0, (uint64_t)(uint32_t)src) };
    if (src < 0)
        return a;
    int *cone = r->tmpcone;
    int ts = EID_THREAD(src), is = EID_INDEX(src);
    if (!use_ovr) {
        memcpy(cone, vc_of(r, graph_ev(&r->g, src)->pos), (size_t)nt * sizeof *cone);
    } else {
        if (is > 0)
            memcpy(cone, vc_of(r, r->g.tev[ts][is - 1].pos), (size_t)nt * sizeof *cone);
        else
            memset(cone, 0, (size_t)nt * sizeof *cone);
        if (ovr >= 0) {
            const int *c2 = vc_of(r, graph_ev(&r->g, ovr)->pos);
            for (int t = 0; t < nt; t++)
                if (c2[t] > cone[t])
                    cone[t] = c2[t];
        }
        cone[ts] = is + 1;
    }
    size_t need = (size_t)nt;
    for (int t = 0; t < nt; t++)
        if (cone[t] > d->fcount[t])
            need += 2 * (size_t)(cone[t] - d->fcount[t]);
    if (need > r->keycap) {
        r->keycap = 2 * need;
        r->keybuf = wmx_realloc(r->keybuf, r->keycap * sizeof *r->keybuf);
    }
    a.data = r->keybuf;
    memcpy(a.data, cone, (size_t)nt * sizeof *a.data);
    int k = nt;
    for (int t = 0; t < nt; t++) {
        a.hash = mix(a.hash, (uint64_t)cone[t]);
        for (int i = d->fcount[t]; i < cone[t]; i++)
            /* src may be a lock its thread waits at, not yet in the
             * graph (taker_sources): an RMW, so a read */
            if ((use_ovr && t == ts && i == is) || gev_is_read(&r->g.tev[t][i])) {
                wmx_eid rf = use_ovr && t == ts && i == is ? ovr : r->g.tev[t][i].rf;
                a.data[k++] = EID_MAKE(t, i);
                a.data[k++] = rf;
                a.hash = mix(mix(a.hash, (uint64_t)EID_MAKE(t, i)), (uint64_t)(uint32_t)rf);
            }
    }
    a.nextra = (k - nt) / 2;
    return a;
}

/* A copy of key a whose data lives in d's blocks (they never move, so the
 * pointer stays valid until d is popped). */
static alt key_keep(decision *d, alt a, int nt)
{
    if (a.data) {
        size_t n = (size_t)(nt + 2 * a.nextra);
        if (d->nblocks == 0 || d->bused + n > d->bcap) {
            size_t cap = d->bcap ? 2 * d->bcap : 256;
            if (cap < n)
                cap = n;
            d->blocks = wmx_realloc(d->blocks, (size_t)(d->nblocks + 1) * sizeof *d->blocks);
            d->blocks[d->nblocks++] = wmx_malloc(cap * sizeof **d->blocks);
            d->bcap = cap;
            d->bused = 0;
        }
        int *data = d->blocks[d->nblocks - 1] + d->bused;
        d->bused += n;
        memcpy(data, a.data, n * sizeof *data);
        a.data = data;
    }
    return a;
}

static alt make_key(rs *r, const decision *d, wmx_eid src)
{
    return make_key2(r, d, src, EID_INIT, false);
}

/* The alternative "the await never happens": no source, no cone. */
static alt absent_alt(void)
{
    return (alt){ SRC_ABSENT, 0, NULL, mix(0, (uint64_t)(uint32_t)SRC_ABSENT) };
}

static bool key_equal(const alt *a, const alt *b, int nt)
{
    if (a->src != b->src || a->nextra != b->nextra || a->hash != b->hash)
        return false;
    if (!a->data || !b->data)
        return a->data == b->data;
    return memcmp(a->data, b->data, (size_t)(nt + 2 * a->nextra) * sizeof *a->data) == 0;
}

static void aset_put(decision *d, int ai)
{
    int mask = d->asetcap - 1;
    int i = (int)(d->alts[ai].hash & (uint64_t)mask);
    while (d->aset[i])
        i = (i + 1) & mask;
    d->aset[i] = ai + 1;
}

/* Whether key a is already among d's alternatives: a linear scan while
 * there are few, a hash set over them beyond that. */
static bool alt_known(decision *d, const alt *a, int nt)
{
    if (!d->aset) {
        for (int i = 0; i < d->nalts; i++)
            if (key_equal(&d->alts[i], a, nt))
                return true;
        return false;
    }
    int mask = d->asetcap - 1;
    for (int i = (int)(a->hash & (uint64_t)mask); d->aset[i]; i = (i + 1) & mask)
        if (key_equal(&d->alts[d->aset[i] - 1], a, nt))
            return true;
    return false;
}

/* Queues an alternative of decision di unless it is known. */
static bool decision_add(decision *d, alt a, int nt)
{
    if (alt_known(d, &a, nt))
        return false;
    if (d->nalts == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 4;
        d->alts = wmx_realloc(d->alts, (size_t)d->cap * sizeof *d->alts);
    }
    /* key_keep first: it is what the new slot is assigned from */
    alt kept = key_keep(d, a, nt);
    d->alts[d->nalts++] = kept;
    if (d->nalts >= 16 && 2 * d->nalts >= d->asetcap) {
        free(d->aset);
        d->asetcap = d->asetcap ? 2 * d->asetcap : 64;
        d->aset = wmx_calloc((size_t)d->asetcap, sizeof *d->aset);
        for (int i = 0; i < d->nalts; i++)
            aset_put(d, i);
    } else if (d->aset) {
        aset_put(d, d->nalts - 1);
    }
    return true;
}

static void replica_offer(rs *r, decision *d, const alt *a);

static void offer_key(rs *r, int di, alt a)
{
    decision *d = r->dec[di];
    bool added;
    if (!d->shared) {
        added = decision_add(d, a, r->nthreads);
    } else {
        pthread_mutex_lock(&d->mu);
        added = decision_add(d, a, r->nthreads);
        pthread_mutex_unlock(&d->mu);
    }
    /* a key holds its cone's reads: on a long trace each is as long as
     * the trace, and the reads of the resident size between two polls let
     * --max-memory 64M reach 80 MB under load */
    if (added && a.data &&
        explore_charge(&r->clk, r->opts, r->res, (size_t)(r->nthreads + 2 * a.nextra) * sizeof *a.data))
        r->stop = true;
    if (added && d->replica)
        replica_offer(r, d, &a);
}

/* A source whose cone has no read outside d's fixed part has the same key
 * in every trace below d (its thread's events up to it, and their cones,
 * follow from the fixed part alone): once offered it is *settled*, and
 * later traces skip it without building its key again (longwriter's one
 * read was offered all N writes by each of its N traces). */
static bool settled(const settled_set *ss, wmx_eid src)
{
    int t = EID_THREAD(src), i = EID_INDEX(src);
    return ss->bits && i < 64 * ss->words[t] && ((ss->bits[t][i >> 6] >> (i & 63)) & 1);
}

static void settle(settled_set *ss, wmx_eid src, int nthreads)
{
    int t = EID_THREAD(src), i = EID_INDEX(src);
    if (!ss->bits) {
        ss->bits = wmx_calloc((size_t)nthreads, sizeof *ss->bits);
        ss->words = wmx_calloc((size_t)nthreads, sizeof *ss->words);
    }
    if (i >= 64 * ss->words[t]) {
        int w = ss->words[t] ? 2 * ss->words[t] : 1;
        while (i >= 64 * w)
            w *= 2;
        ss->bits[t] = wmx_realloc(ss->bits[t], (size_t)w * sizeof **ss->bits);
        memset(ss->bits[t] + ss->words[t], 0, (size_t)(w - ss->words[t]) * sizeof **ss->bits);
        ss->words[t] = w;
    }
    ss->bits[t][i >> 6] |= (uint64_t)1 << (i & 63);
}

static settled_set settled_copy(const settled_set *ss, int nthreads)
{
    settled_set c = { NULL, NULL };
    if (!ss->bits)
        return c;
    c.bits = wmx_calloc((size_t)nthreads, sizeof *c.bits);
    c.words = wmx_calloc((size_t)nthreads, sizeof *c.words);
    for (int t = 0; t < nthreads; t++)
        if (ss->words[t]) {
            c.bits[t] = wmx_malloc((size_t)ss->words[t] * sizeof **c.bits);
            memcpy(c.bits[t], ss->bits[t], (size_t)ss->words[t] * sizeof **c.bits);
            c.words[t] = ss->words[t];
        }
    return c;
}

static void settled_free(settled_set *ss, int nthreads)
{
    if (!ss->bits)
        return;
    for (int t = 0; t < nthreads; t++)
        free(ss->bits[t]);
    free(ss->bits);
    free(ss->words);
    ss->bits = NULL;
    ss->words = NULL;
}

static void offer(rs *r, int di, wmx_eid src)
{
    decision *d = r->dec[di];
    /* a shared decision's cache is per worker: a source settled by one
     * worker is in the decision's key set for all, but the bits are
     * written without the lock */
    settled_set *ss = d->shared ? &d->wsettled[r->wid] : &d->settled;
    if (src < 0) {
        /* the initial value's key has no cone: one offer is enough, and
         * skipping the rest keeps the workers off a shared decision's lock
         * (readers-18 offered it once per trace to every decision) */
        if (atomic_load_explicit(&d->init_offered, memory_order_acquire))
            return;
        offer_key(r, di, make_key(r, d, src));
        atomic_store_explicit(&d->init_offered, true, memory_order_release);
        return;
    }
    if (settled(ss, src))
        return;
    alt a = make_key(r, d, src);
    bool fixed = a.nextra == 0;
    offer_key(r, di, a);
    if (fixed)
        settle(ss, src, r->nthreads);
}

static decision *push_decision(rs *r, wmx_eid ev, const int *fcount, const unsigned char *frozen)
{
    if (r->ndec == r->capdec) {
        r->capdec = r->capdec ? 2 * r->capdec : 16;
        r->dec = wmx_realloc(r->dec, (size_t)r->capdec * sizeof *r->dec);
    }
    decision *d = wmx_calloc(1, sizeof *d);
    r->dec[r->ndec++] = d;
    d->owner = d->id = -1;
    d->ev = ev;
    d->thread = EID_THREAD(ev);
    size_t nt = (size_t)(r->nthreads ? r->nthreads : 1);
    d->fcount = wmx_malloc(nt * sizeof *d->fcount);
    memcpy(d->fcount, fcount, (size_t)r->nthreads * sizeof *d->fcount);
    d->frozen = wmx_malloc(nt);
    memcpy(d->frozen, frozen, (size_t)r->nthreads);
    return d;
}

/* Drops one holder of d; the last one frees it. */
static void decision_release(decision *d, int nthreads)
{
    if (d->shared) {
        pthread_mutex_lock(&d->mu);
        bool last = --d->refs == 0;
        pthread_mutex_unlock(&d->mu);
        if (!last)
            return;
        pthread_mutex_destroy(&d->mu);
        for (int t = 0; t < nthreads; t++)
            free(d->fsrc[t]);
        free(d->fsrc);
    }
    for (int i = 0; i < d->nblocks; i++)
        free(d->blocks[i]);
    free(d->blocks);
    free(d->aset);
    free(d->alts);
    free(d->fcount);
    free(d->frozen);
    settled_free(&d->settled, nthreads);
    for (int k = 0; d->wsettled && k < d->nworkers; k++)
        settled_free(&d->wsettled[k], nthreads);
    free(d->wsettled);
    free(d);
}

static void pop_decision(rs *r)
{
    decision_release(r->dec[--r->ndec], r->nthreads);
}

static bool await_accepts(const decision *d, wmx_val v)
{
    return ir_cmp_holds(d->cmp, v, d->operand);
}

static bool await_may_wait(const rs *r, const decision *d);

static bool on_chain(const rs *r, int cell)
{
    return r->chain && cell >= 0 && cell < r->prog->ncells && r->chain[cell];
}

/* Whether the program-order past of thread tc's event ic (in the current
 * trace) holds event (te, ie) or, when rt >= 0, event (rt, ri). */
static bool past_holds(rs *r, int tc, int ic, int te, int ie, int rt, int ri)
{
    if (ic == 0)
        return false;
    const int *vp = vc_of(r, r->g.tev[tc][ic - 1].pos);
    return vp[te] > ie || (rt >= 0 && vp[rt] > ri);
}

/* The alternatives of a decision d on a mutex chain (find_chain_cells):
 * an RMW c of the cell that could read src0 instead of e, with its
 * program-order past as in the current trace.  Its past must not hold e
 * nor the event that reads src0 here, and a lock must find the value it
 * waits for.  The node runs F_e, c's cone and c reading src0; e is not in
 * it and runs when the scheduler gets to it (a later decision). */
static void taker_sources(rs *r, int di)
{
    graph *g = &r->g;
    decision *d = r->dec[di];
    int te = d->thread, ie = EID_INDEX(d->ev), cell = d->cell;
    wmx_eid s = d->src0;
    if (s == SRC_ABSENT)
        return;
    wmx_val sv = s == EID_INIT ? r->prog->cell_init[cell] : graph_ev(g, s)->x.value;
    /* every access of a chain writes: the cell's writes (index_writes,
     * by thread, then index) are its RMWs */
    int lo = r->gwoff[cell], hi = r->gwoff[cell + 1];
    /* who reads src0 in this trace (e on the branch, else the taker) */
    int rt = -1, ri = 0;
    for (int k = lo; k < hi && rt < 0; k++) {
        int t = EID_THREAD(r->gw[k]), i = EID_INDEX(r->gw[k]);
        if (i >= d->fcount[t] && g->tev[t][i].rf == s) {
            rt = t;
            ri = i;
        }
    }
    for (int k = lo; k < hi; k++) {
        int tc = EID_THREAD(r->gw[k]), ic = EID_INDEX(r->gw[k]);
        const gev *c = &g->tev[tc][ic];
        if (tc == te || ic < d->fcount[tc] || (tc == rt && ic == ri) ||
            past_holds(r, tc, ic, te, ie, rt, ri))
            continue;                   /* after e in program order, in F_e, the taker,
                                         * or its past holds e or src0's reader */
        const ir_instr *in = &r->prog->threads[tc].instrs[c->x.instr];
        if (in->kind == I_CAS && in->blocking && in->cmp == OP_EQ && c->x.read != sv)
            continue;                   /* a lock that would wait there (other
                                         * comparisons: build_fixed refuses) */
        if (rs_poll(r))
            return;
        offer_key(r, di, make_key2(r, d, EID_MAKE(tc, ic), s, true));
    }
    for (int tc = 0; tc < r->nthreads; tc++) {
        if (tc == te)
            continue;
        /* a lock its thread waits at for ever here: it may take src0 in
         * other classes (Nidhugg's RF-SMC swaps its deadlocked locks the
         * same way); it is no event of the graph, so only here */
        int ic = g->tn[tc];
        if (ic < d->fcount[tc] || !at_await(r, r->mstate, tc))
            continue;
        waiter w;
        await_at(r, r->mstate, tc, &w);
        if (w.cell != cell || !ir_cmp_holds(w.cmp, sv, w.operand) ||
            past_holds(r, tc, ic, te, ie, rt, ri))
            continue;
        offer_key(r, di, make_key2(r, d, EID_MAKE(tc, ic), s, true));
    }
}

/* An RMW e excludes every other RMW reading its source, so an RMW c that
 * reads from e's chain (and is therefore in e's future) may in other
 * classes come before e: c reading any source s that is not in e's future
 * is a possible source of e. */
static void swap_sources(rs *r, int di, int cell)
{
    graph *g = &r->g;
    decision *d = r->dec[di];
    int te = d->thread, ie = EID_INDEX(d->ev);
    for (int tc = 0; tc < r->nthreads; tc++)
        for (int ic = 0; ic < g->tn[tc]; ic++) {
            const gev *c = &g->tev[tc][ic];
            if (c->x.kind != X_RMW || c->x.cell != cell || (tc == te && ic == ie))
                continue;
            if (rs_poll(r))
                return;
            if (vc_of(r, c->pos)[te] <= ie)
                continue;               /* not in e's future: an ordinary source */
            if (ic > 0 && vc_of(r, g->tev[tc][ic - 1].pos)[te] > ie)
                continue;               /* its program-order past follows e */
            for (int ts = -1; ts < r->nthreads; ts++)
                for (int is = 0; is < (ts < 0 ? 1 : g->tn[ts]); is++) {
                    wmx_eid s = ts < 0 ? EID_INIT : EID_MAKE(ts, is);
                    if (ts >= 0) {
                        const gev *w = &g->tev[ts][is];
                        if (!gev_is_write(w) || w->x.cell != cell || (ts == tc && is == ic))
                            continue;
                        const int *vs = vc_of(r, w->pos);
                        if (vs[te] > ie || vs[tc] > ic)
                            continue;
                    }
                    offer_key(r, di, make_key2(r, d, EID_MAKE(tc, ic), s, true));
                }
        }
}

/* The first position in gw[lo, hi) (one cell's writes, by thread, then
 * index) of a write of thread t at index i or later. */
static int gw_lower(const rs *r, int lo, int hi, int t, int i)
{
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int mt = EID_THREAD(r->gw[mid]), mi = EID_INDEX(r->gw[mid]);
        if (mt < t || (mt == t && mi < i))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Every source the current trace offers to the decisions on the path. */
/* ---- when an await can wait for ever ----
 *
 * A class where e's thread stays at the await (its "absent" alternative)
 * ends with a value of e's cell that fails the await, written by a write
 * w_f that is coherence-last.  Under SC and TSO a write is coherence-before
 * every write of its cell in its po∪rf future, so w_f is either a write of
 * F_e in the future of no other write of F_e to the cell, or a write
 * outside F_e; like a source of e, such a write appears in a trace below
 * d, outside e's po∪rf future (Optimal-DPOR with awaits finds a blocked
 * await the same way: by reversing its race with a write that disables it).
 * The initial value is never w_f: e's source src0 is in F_e and satisfies
 * the await, and it is the initial value only when no write precedes it.
 * So "absent" is queued when discover meets such a write, not up front: a
 * ticket lock's waiter, whose cell only its predecessor writes, queued
 * seven absent runs for each of 5040 classes, none of them a class.
 * PSO lets a write overtake one of another cell on its way to memory, so
 * po∪rf does not order writes there; and a lock or an exchange-await is an
 * RMW, which no other RMW of its source can follow: the classes where it
 * waits hold writes (a lock taken from that source and kept) that no graph
 * with it has.  For both the alternative is queued up front. */
static bool absent_lazy(const rs *r, const decision *d, const gev *e)
{
    return r->model != MODEL_PSO && e->x.kind != X_RMW && d->cell >= 0 && d->cell < r->prog->ncells;
}

/* Whether w, a write of F_e to cell, is in the po∪rf past of no other write
 * of F_e to cell (else it is coherence-before that write, never last). */
static bool fixed_write_last(rs *r, const decision *d, int cell, wmx_eid w)
{
    int t = EID_THREAD(w), i = EID_INDEX(w);
    for (int k = r->gwoff[cell]; k < r->gwoff[cell + 1]; k++) {
        wmx_eid id = r->gw[k];
        int u = EID_THREAD(id), j = EID_INDEX(id);
        if (j >= d->fcount[u] || id == w)
            continue;
        if (vc_of(r, graph_ev(&r->g, id)->pos)[t] > i)
            return false;
    }
    return true;
}

static void queue_absent(rs *r, int di)
{
    decision *d = r->dec[di];
    if (!atomic_exchange_explicit(&d->absent_wanted, false, memory_order_relaxed))
        return;
    offer_key(r, di, absent_alt());
}

static void discover(rs *r)
{
    graph *g = &r->g;
    index_writes(r, g);
    for (int di = 0; di < r->ndec; di++) {
        decision *d = r->dec[di];
        if (d->taker) {
            taker_sources(r, di);
            if (r->stop)
                return;
            continue;
        }
        int te = d->thread, ie = EID_INDEX(d->ev);
        bool present = ie < g->tn[te];
        wmx_eid cur = present ? g->tev[te][ie].rf : SRC_ABSENT;
        int cell = present ? g->tev[te][ie].x.cell : d->cell;
        /* coherence: e reads nothing older than the last write of its cell
         * in its own thread before it */
        int own = -1;
        for (int i = ie - 1; i >= 0 && own < 0; i--)
            if (i < g->tn[te] && gev_is_write(&g->tev[te][i]) && g->tev[te][i].x.cell == cell)
                own = i;
        /* a write of the fixed part is the same event, with the same
         * cone, in every trace below d: the first pass offered it (or it
         * was the source taken, alts[0]), so later passes skip it */
        bool skip_fixed = atomic_load_explicit(&d->fixed_offered, memory_order_acquire);
        /* Under SC and TSO, e cannot read a write w in the po∪rf past of
         * another write w' of its cell that is in the past of e's
         * program-order predecessor (w' comes between w and e), nor the
         * initial value when there is any such w'.  Under TSO such a path
         * leaves each thread by a write read by another thread (W->W and
         * R->W are kept, and the last step, into e, is R->R or a write of
         * e's own thread, kept by coherence), so it orders w' before e;
         * PSO lets a write overtake one to another cell, so not there.
         * Facts of F_e alone, so only the first pass needs them.  Mutex
         * programs: a read in a critical section was offered every older
         * write of its cell, each refuted by the saturation. */
        int npast = 0;
        bool need_past = r->model != MODEL_PSO && ie > 0 && cell >= 0 &&
            (!skip_fixed || !(atomic_load_explicit(&d->init_offered, memory_order_acquire) ||
                              atomic_load_explicit(&d->init_refuted, memory_order_relaxed)));
        if (need_past) {
            /* per thread the last such w' (the others are in its past) */
            const int *pe = vc_of(r, g->tev[te][ie - 1].pos);
            if (r->nthreads > r->pastcap) {
                r->pastcap = r->nthreads;
                r->pastw = wmx_realloc(r->pastw, (size_t)r->pastcap * sizeof *r->pastw);
            }
            int lo = r->gwoff[cell], hi = r->gwoff[cell + 1];
            for (int t = 0; t < r->nthreads; t++) {
                int k = gw_lower(r, lo, hi, t, pe[t]);
                if (k > lo && EID_THREAD(r->gw[k - 1]) == t)
                    r->pastw[npast++] = graph_ev(g, r->gw[k - 1])->pos;
            }
        }
        /* the initial value */
        bool init_ok = own < 0 && npast == 0 &&
            !atomic_load_explicit(&d->init_refuted, memory_order_relaxed) &&
            (!d->is_await || await_accepts(d, r->prog->cell_init[cell]));
        if (init_ok && cur != EID_INIT)
            offer(r, di, EID_INIT);
        /* own, npast and the await are facts of F_e: once they refute the
         * initial value, later passes need not look for w' again (the
         * search per pass was 3% of fib_bench under TSO) */
        if (!init_ok && !skip_fixed && cell >= 0)
            atomic_store_explicit(&d->init_refuted, true, memory_order_relaxed);
        unsigned polls = 0;
        /* gw lists each thread's writes of the cell in program order: the
         * fixed ones and those before own are a prefix of a thread's run,
         * and once one is in e's future so are the rest (a clock only
         * grows along po), so the search jumps over them */
        int hi = cell >= 0 ? r->gwoff[cell + 1] : 0;
        for (int k = cell >= 0 ? r->gwoff[cell] : 0; k < hi; k++) {
            wmx_eid id = r->gw[k];
            int t = EID_THREAD(id), i = EID_INDEX(id);
            if (skip_fixed && i < d->fcount[t]) {
                k = gw_lower(r, k, hi, t, d->fcount[t]) - 1;
                continue;
            }
            const gev *w = &g->tev[t][i];
            if (t == te && i < own) {
                k = gw_lower(r, k, hi, t, own) - 1;
                continue;
            }
            if (id == cur)
                continue;
            if (++polls >= 64) {
                polls = 0;
                if (rs_poll(r))
                    return;
            }
            /* not in e's po∪rf future (nor e itself) */
            if (vc_of(r, w->pos)[te] > ie) {
                /* the budget is polled as often as when each was looked
                 * at: offers allocate keys, and polling less let
                 * --max-memory 64M reach 77 MB on a long trace */
                int next = gw_lower(r, k, hi, t + 1, 0);
                polls += (unsigned)(next - k - 1);
                k = next - 1;
                continue;
            }
            /* a lock too is offered only the writes it can take: a lock
             * that reads a held mutex fails, a graph that is never a
             * class; the ones the search needs come from swap_sources */
            if (d->is_await && !await_accepts(d, w->x.value)) {
                if (atomic_load_explicit(&d->absent_wanted, memory_order_relaxed) &&
                    (i >= d->fcount[t] || fixed_write_last(r, d, cell, id)))
                    queue_absent(r, di);
                continue;
            }
            bool over = false;
            for (int q = 0; q < npast && !over; q++)
                over = r->pastw[q] != w->pos && vc_of(r, r->pastw[q])[t] > i;
            if (over)
                continue;
            offer(r, di, id);
        }
        if (r->stop)
            return;
        /* stored once: a store per trace kept the line of a shared
         * decision bouncing between the workers (readers-18 on two
         * workers took a third more CPU than on one) */
        if (!skip_fixed)
            atomic_store_explicit(&d->fixed_offered, true, memory_order_release);
        if (present && g->tev[te][ie].x.kind == X_RMW)
            swap_sources(r, di, cell);
    }
}

/* ---- building a fixed part and running a node ---- */

/* The source of read (t, i) in the fixed part of alternative a at d. */
static wmx_eid fixed_source(rs *r, const decision *d, const alt *a, int t, int i)
{
    if (i < d->fcount[t])
        return d->fsrc ? d->fsrc[t][i] : r->g.tev[t][i].rf;
    if (EID_MAKE(t, i) == d->ev)
        return a->src;
    const int *pr = a->data + r->nthreads;
    for (int k = 0; k < a->nextra; k++)
        if (pr[2 * k] == EID_MAKE(t, i))
            return pr[2 * k + 1];
    return EID_INIT - 1;  /* cannot happen */
}

static void fev_reserve(rs *r, int t, int i)
{
    if (i >= r->fevcap[t]) {
        r->fevcap[t] = 2 * i + 16;
        r->fev[t] = wmx_realloc(r->fev[t], (size_t)r->fevcap[t] * sizeof *r->fev[t]);
        r->fnode[t] = wmx_realloc(r->fnode[t], (size_t)r->fevcap[t] * sizeof *r->fnode[t]);
    }
}

/* the value event ev's read returned (the key of the memo's edge) */
static wmx_val read_value(const wmx_event *ev)
{
    return ev->kind == EV_RMW ? ev->read : ev->value;
}

/* The memo node after thread t's event i of the current graph, walking
 * from the last one known; -1 when the memo cannot follow. */
static int fnode_at(rs *r, int t, int i)
{
    int k = i;
    while (k >= 0 && r->fnode[t][k] < 0)
        k--;
    int node = k >= 0 ? r->fnode[t][k] : thread_memo_root(r->memo, t);
    for (int j = k + 1; j <= i && node >= 0; j++) {
        const wmx_event *ev = &r->fev[t][j];
        node = thread_memo_step(r->memo, t, node, read_value(ev), ev->rf);
        r->fnode[t][j] = node;
    }
    return node;
}

/* Builds the fixed part of alternative a of d in r->ng by running each
 * thread's code with the given sources.  False when it cannot be built.
 *
 * d's own fixed part F_e is a prefix of the current graph (it lies below
 * every decision on the path), the same events with the same sources for
 * every alternative of d: those are copied, and only the cone's other
 * events and e itself are run.  Under --jobs a shared decision's
 * alternatives may run on a worker whose graph is elsewhere: they are
 * built from the start. */
static bool build_fixed(rs *r, const decision *d, const alt *a, int *cnt)
{
    int nt = r->nthreads;
    for (int t = 0; t < nt; t++) {
        cnt[t] = d->fcount[t];
        if (a->data && a->data[t] > cnt[t])
            cnt[t] = a->data[t];
    }
    if (a->src != SRC_ABSENT && !d->taker)
        cnt[d->thread] = d->fcount[d->thread] + 1;   /* e itself */
    graph *ng = &r->ng;
    for (int t = 0; t < nt; t++)
        ng->tn[t] = 0;
    /* each thread walks its memo (core/thread_memo.h): the interpreter
     * runs only for runs no earlier fixed part took */
    thread_memo *tm = r->memo;
    thread_memo_trim(tm);
    if (r->fnode_gen != thread_memo_generation(tm)) {
        for (int t = 0; t < nt; t++)
            for (int i = 0; i < r->g.tn[t]; i++)
                r->fnode[t][i] = -1;
        r->fnode_gen = thread_memo_generation(tm);
    }
    int *cur = r->mcur;
    bool reuse = !d->fsrc;
    int left = 0;
    for (int t = 0; t < nt; t++) {
        int start = reuse && d->fcount[t] <= r->g.tn[t] ? d->fcount[t] : 0;
        cur[t] = thread_memo_root(tm, t);
        if (start > 0) {
            int node = fnode_at(r, t, start - 1);
            if (node >= 0) {
                graph_slot(ng, t, start - 1);
                memcpy(ng->tev[t], r->g.tev[t], (size_t)start * sizeof *ng->tev[t]);
                cur[t] = node;
            } else {
                start = 0;
            }
        }
        ng->tn[t] = start;
        left += cnt[t] - start;
    }
    const wmx_program *p = r->prog;
    bool progress = true;
    while (left > 0 && progress) {
        progress = false;
        for (int t = 0; t < nt; t++) {
            while (ng->tn[t] < cnt[t]) {
                int i = ng->tn[t];
                const thread_memo_node *nd = thread_memo_node_of(tm, t, cur[t]);
                if (nd->status != TS_RUNNING)
                    return false;
                bool reads = nd->reads;
                wmx_eid src = EID_INIT;
                wmx_val v = 0;
                if (reads) {
                    src = fixed_source(r, d, a, t, i);
                    if (src < EID_INIT)
                        return false;
                    if (src != EID_INIT && EID_INDEX(src) >= ng->tn[EID_THREAD(src)])
                        break;   /* its source is not built yet */
                    int cell = nd->cell;
                    if (src != EID_INIT) {
                        const gev *w = graph_ev(ng, src);
                        if (!gev_is_write(w) || w->x.cell != cell)
                            return false;   /* e.g. a CAS that fails there */
                        v = w->x.value;
                    } else if (cell >= 0) {
                        v = p->cell_init[cell];
                    }
                }
                int next = thread_memo_step(tm, t, cur[t], v, src);
                if (next < 0)
                    return false;  /* an await whose condition fails */
                cur[t] = next;
                wmx_event ev = thread_memo_node_of(tm, t, next)->ev;
                if (reads)
                    ev.rf = src;
                fev_reserve(r, t, i);
                r->fev[t][i] = ev;
                r->fnode[t][i] = next;
                gev *gv = graph_slot(ng, t, i);
                gev_from_event(gv, &ev);
                gv->x.index = i;
                if (reads)
                    gv->rf = src;
                ng->tn[t]++;
                left--;
                progress = true;
            }
        }
    }
    if (left != 0)
        return false;
    /* where the threads stand, for run_node (memory is rebuilt there) */
    for (int t = 0; t < nt; t++)
        thread_memo_load(tm, t, cur[t], r->lstate);
    return true;
}

static void trace_push(rs *r, const wmx_transition *tr, const wmx_event *ev)
{
    if (r->tlen == r->tcap) {
        r->tcap = r->tcap ? 2 * r->tcap : 64;
        r->steps = wmx_realloc(r->steps, (size_t)r->tcap * sizeof *r->steps);
        r->events = wmx_realloc(r->events, (size_t)r->tcap * sizeof *r->events);
        r->order = wmx_realloc(r->order, (size_t)r->tcap * sizeof *r->order);
        r->winfo = wmx_realloc(r->winfo, (size_t)r->tcap * sizeof *r->winfo);
    }
    r->steps[r->tlen] = *tr;
    r->events[r->tlen] = *ev;
    r->tlen++;
}

/* Keeps a thread event of the trace being run in fev, as the SC
 * interpreter describes it (what build_fixed copies from). */
static void fev_keep(rs *r, const wmx_event *ev)
{
    int t = ev->thread, i = EID_INDEX(ev->id);
    fev_reserve(r, t, i);
    wmx_event e = *ev;
    if (e.kind == EV_WRITE_BUF)
        e.kind = EV_WRITE;
    e.from_buffer = false;
    r->fev[t][i] = e;
    r->fnode[t][i] = -1;
}

/* Runs the node whose fixed part is realised by the witness r->wit: the
 * witness, then the scheduler's extension to a maximal trace.  `from` is
 * the decision whose alternative this is (-1 for the root), `fcnt` the
 * fixed part's counts, `frozen` the frozen threads.  Builds the new current
 * graph, reports its classes, pushes its decisions and collects sources. */
static void run_node(rs *r, int from, const int *fcnt, const unsigned char *frozen, bool built)
{
    int nt = r->nthreads;
    const wmx_machine *m = r->mm;
    r->tlen = 0;
    if (built) {
        /* a greedy witness: the threads stand where build_fixed left them
         * (under TSO and PSO with empty buffers: every store was flushed
         * at once), and memory is what the witness order leaves */
        bool sc = r->model == MODEL_SC;
        if (sc)
            memcpy(r->mstate, r->lstate, r->mss);
        else
            machine_transplant(m, r->mstate, r->lm, r->lstate);
        int cells = r->prog->ncells;
        wmx_val *mem = (wmx_val *)machine_memory(m, r->mstate);
        wmx_eid *wr = (wmx_eid *)machine_memory_writer(m, r->mstate);
        memcpy(mem, machine_memory(m, r->initstate), (size_t)cells * sizeof *mem);
        memcpy(wr, machine_memory_writer(m, r->initstate), (size_t)cells * sizeof *wr);
        int *at = r->tmpcone;
        memset(at, 0, (size_t)nt * sizeof *at);
        /* per thread, no store before fl[t] is still buffered (a TSO
         * witness flushes a store later than the step after it) */
        int *fl = r->tmpcount;
        memset(fl, 0, (size_t)nt * sizeof *fl);
        for (int i = 0; i < r->wlen; i++) {
            int t = r->wit[i].thread;
            wmx_event ev;
            if (r->wit[i].kind == TR_FLUSH) {
                /* the thread's oldest buffered store, reaching memory */
                while (r->fev[t][fl[t]].kind != EV_WRITE)
                    fl[t]++;
                const wmx_event *st = &r->fev[t][fl[t]++];
                ev = (wmx_event){ .kind = EV_WRITE_MEM, .thread = t, .id = st->id, .instr = -1,
                                  .cell = st->cell, .value = st->value, .rf = EID_INIT };
            } else {
                int k = at[t]++;
                ev = r->fev[t][k];
                if (!sc && ev.kind == EV_WRITE)
                    ev.kind = EV_WRITE_BUF;
                else if (!sc && ev.kind != EV_WRITE && ev.cell >= 0 && ev.kind != EV_RMW)
                    /* a read of a store still in its own buffer */
                    for (int j = k - 1; j >= fl[t] && !ev.from_buffer; j--)
                        ev.from_buffer = r->fev[t][j].kind == EV_WRITE && r->fev[t][j].cell == ev.cell;
            }
            trace_push(r, &r->wit[i], &ev);
            if (ev.cell >= 0 && (ev.kind == EV_WRITE || ev.kind == EV_WRITE_MEM ||
                                 (ev.kind == EV_RMW && ev.wrote))) {
                mem[ev.cell] = ev.value;
                wr[ev.cell] = ev.id;
            }
        }
#ifdef WMX_CHECK_BUILT
        {
            char *chk = wmx_malloc(r->mss);
            machine_init(m, chk);
            for (int i = 0; i < r->wlen; i++) {
                wmx_event ev;
                if (!machine_is_enabled(m, chk, &r->wit[i]))
                    abort();
                machine_apply(m, chk, &r->wit[i], &ev);
                const wmx_event *a = &r->events[i];
                if (a->kind != ev.kind || a->thread != ev.thread || a->id != ev.id || a->instr != ev.instr ||
                    a->cell != ev.cell || a->value != ev.value || a->read != ev.read || a->wrote != ev.wrote ||
                    a->rf != ev.rf || a->from_buffer != ev.from_buffer)
                    abort();
            }
            if (memcmp(chk, r->mstate, r->mss) != 0)
                abort();
            free(chk);
        }
#endif
    } else {
        machine_init(m, r->mstate);
        for (int i = 0; i < r->wlen; i++) {
            if (!machine_is_enabled(m, r->mstate, &r->wit[i]))
                break;
            wmx_event ev;
            machine_apply(m, r->mstate, &r->wit[i], &ev);
            trace_push(r, &r->wit[i], &ev);
            if (r->wit[i].kind == TR_STEP)
                fev_keep(r, &ev);
        }
    }
    for (;;) {
        /* the budget every 64 steps: polling per step was 3% of a long trace */
        if (((r->tlen & 63) == 0 || r->stop) && rs_poll(r))
            break;
        /* the first enabled transition, frozen threads' steps left out */
        wmx_transition next;
        if (!machine_first_enabled_in(m, r->mstate, frozen, r->sched, &next))
            break;
        waiter w = { -1, -1, OP_EQ, 0 };
        if (next.kind == TR_STEP && at_await(r, r->mstate, next.thread))
            await_at(r, r->mstate, next.thread, &w);
        wmx_event ev;
        machine_apply(m, r->mstate, &next, &ev);
        trace_push(r, &next, &ev);
        r->winfo[r->tlen - 1] = w;
        if (next.kind == TR_STEP)
            fev_keep(r, &ev);
    }
    if (r->stop)
        return;                 /* not a maximal trace: report nothing */
    r->res->events += r->tlen;

    /* the new graph.  A built node's fixed part is in r->ng already, as
     * build_fixed left it (the same events, with their sources): only
     * their trace positions are new */
    graph *ng = &r->ng;
    for (int t = 0; t < nt && !built; t++)
        ng->tn[t] = 0;
    if ((size_t)r->tlen * (size_t)nt > (size_t)r->vccap) {
        /* a clock per event: threads x events, the one table here that
         * grows with their product (64 threads x 2000 steps: 32 MiB) */
        if (explore_reserve(&r->clk, r->opts, r->res, (size_t)r->tlen * nt * sizeof *r->vc)) {
            r->stop = true;
            return;
        }
        r->vccap = r->tlen * nt * 2 + 16;
        r->vc = wmx_realloc(r->vc, (size_t)r->vccap * sizeof *r->vc);
    }
    for (int k = 0; k < r->tlen; k++) {
        if ((k & 255) == 255 && rs_poll(r))
            return;
        const wmx_event *ev = &r->events[k];
        if (ev->kind == EV_WRITE_MEM) {
            r->order[k] = -1;
            continue;
        }
        int t = ev->thread, i = EID_INDEX(ev->id);
        gev *gv = graph_slot(ng, t, i);
        if (!built || i >= fcnt[t])
            gev_from_event(gv, ev);
        gv->pos = k;
        ng->tn[t] = i + 1;
        r->order[k] = ev->id;
        /* clock: program-order predecessor, source, itself */
        int *c = vc_of(r, k);
        if (i > 0)
            memcpy(c, vc_of(r, graph_ev(ng, EID_MAKE(t, i - 1))->pos), (size_t)nt * sizeof *c);
        else
            memset(c, 0, (size_t)nt * sizeof *c);
        if (gev_is_read(gv) && gv->rf != EID_INIT) {
            const int *s = vc_of(r, graph_ev(ng, gv->rf)->pos);
            for (int u = 0; u < nt; u++)
                if (s[u] > c[u])
                    c[u] = s[u];
        }
        c[t] = i + 1;
    }
    graph tmp = r->g;
    r->g = r->ng;
    r->ng = tmp;
    r->gw_of = NULL;

    long before = r->res->traces + r->res->blocked;
    finish_graph(r);
    r->nodes++;
    if (r->res->traces + r->res->blocked == before)
        r->empty++;             /* threads wait at awaits that could pass */
    if (r->stop)
        return;

    /* decisions for the reads the extension added, in trace order */
    int *cnt = r->tmpcount;
    memcpy(cnt, fcnt, (size_t)nt * sizeof *cnt);
    for (int k = 0; k < r->tlen; k++) {
        /* each key holds its read's cone: on a long trace these decisions
         * take memory quadratic in its length, so the budget is polled here
         * too (--max-memory 64M stopped at 197 MiB, issue 47) */
        if ((k & 63) == 63 && rs_poll(r))
            return;
        if (r->order[k] < 0)
            continue;
        int t = EID_THREAD(r->order[k]), i = EID_INDEX(r->order[k]);
        if (i < fcnt[t])
            continue;
        gev *gv = &r->g.tev[t][i];
        if (gev_is_read(gv)) {
            decision *d = push_decision(r, r->order[k], cnt, frozen);
            d->cell = gv->x.cell;
            if (r->winfo[k].thread >= 0) {     /* an await or a lock */
                d->is_await = true;
                d->cmp = r->winfo[k].cmp;
                d->operand = r->winfo[k].operand;
            }
            d->taker = on_chain(r, d->cell);
            d->src0 = gv->rf;
            /* the branch taken is known; "absent" is an alternative of awaits */
            alt taken = key_keep(d, make_key(r, d, gv->rf), nt);
            if (explore_charge(&r->clk, r->opts, r->res, (size_t)(nt + 2 * taken.nextra) * sizeof *taken.data))
                r->stop = true;
            d->alts = wmx_malloc(2 * sizeof *d->alts);
            d->cap = 2;
            d->alts[d->nalts++] = taken;
            d->next = 1;
            if (d->is_await && !d->taker && await_may_wait(r, d)) {
                if (absent_lazy(r, d, gv))
                    atomic_store_explicit(&d->absent_wanted, true, memory_order_relaxed);
                else
                    d->alts[d->nalts++] = absent_alt();
            }
        }
        cnt[t] = i + 1;
    }
    /* threads that wait at the end: a decision each, branch "absent" */
    unsigned char *fz = wmx_malloc((size_t)(nt ? nt : 1));
    memcpy(fz, frozen, (size_t)nt);
    for (int t = 0; t < nt; t++) {
        if (frozen[t] || !at_await(r, r->mstate, t))
            continue;
        waiter w;
        await_at(r, r->mstate, t, &w);
        decision *d = push_decision(r, EID_MAKE(t, r->g.tn[t]), cnt, fz);
        d->is_await = true;
        d->cell = w.cell;
        d->cmp = w.cmp;
        d->operand = w.operand;
        /* a lock waiting at the end of a chain's held mutex: every write
         * of the chain is in F_e and has its reader, so nothing is left */
        d->taker = on_chain(r, d->cell);
        d->src0 = SRC_ABSENT;
        d->alts = wmx_malloc(2 * sizeof *d->alts);
        d->cap = 2;
        d->alts[d->nalts++] = absent_alt();
        d->next = 1;
        fz[t] = 1;
    }
    free(fz);
    discover(r);
}


/* What both greedy orders start from: per-thread offsets in r->tmpcount
 * (event k of thread t is number off[t] + k), r->gneed[k] the reads still
 * to come of write k (then of each cell's initial value, at n + cell; the
 * observers' final writes count as reads at the end), r->glastk[c] = -1
 * (memory holds the initial values), r->gnext zeroed and room for
 * per_event * n transitions in r->gwit.  Returns n, the graph's events. */
static int greedy_setup(rs *r, const graph *g, const wmx_eid *obs_w, int per_event)
{
    int nt = r->nthreads, n = 0;
    int *off = r->tmpcount;
    for (int t = 0; t < nt; t++) {
        off[t] = n;
        n += g->tn[t];
    }
    if (n == 0)
        return 0;
    int cells = r->prog->ncells;
    /* scratch kept in r: allocating it per call was 2-3% of a run */
    size_t nneed = (size_t)n + (size_t)cells + 1;
    if (nneed > r->gneedcap) {
        r->gneedcap = 2 * nneed;
        r->gneed = wmx_realloc(r->gneed, r->gneedcap * sizeof *r->gneed);
    }
    if ((size_t)(cells ? cells : 1) > r->glastkcap) {
        r->glastkcap = (size_t)(cells ? cells : 1);
        r->glastk = wmx_realloc(r->glastk, r->glastkcap * sizeof *r->glastk);
    }
    if (!r->gnext)
        r->gnext = wmx_calloc((size_t)(nt ? nt : 1), sizeof *r->gnext);
    int *need = r->gneed;
    memset(need, 0, nneed * sizeof *need);
    memset(r->gnext, 0, (size_t)(nt ? nt : 1) * sizeof *r->gnext);
    size_t nwit = (size_t)per_event * (size_t)n;
    if (nwit > r->gwitcap) {
        r->gwitcap = 2 * nwit;
        r->gwit = wmx_realloc(r->gwit, r->gwitcap * sizeof *r->gwit);
    }
    for (int c = 0; c < cells; c++)
        r->glastk[c] = -1;
    for (int t = 0; t < nt; t++)
        for (int i = 0; i < g->tn[t]; i++) {
            const gev *e = &g->tev[t][i];
            if (!gev_is_read(e) || e->x.cell < 0)
                continue;
            if (e->rf == EID_INIT)
                need[n + e->x.cell]++;
            else
                need[off[EID_THREAD(e->rf)] + EID_INDEX(e->rf)]++;
        }
    for (int o = 0; obs_w && o < r->nobs; o++) {
        wmx_eid w = obs_w[o];
        if (w == EID_INIT)
            need[n + r->obs[o]]++;
        else
            need[off[EID_THREAD(w)] + EID_INDEX(w)]++;
    }
    return n;
}

/* A greedy order of wl steps in r->gwit succeeded: it becomes the witness
 * r->wit, and the old witness's buffer the next scratch. */
static void greedy_keep(rs *r, int wl)
{
    wmx_transition *old = r->wit;
    size_t oldcap = r->witcap;
    r->wit = r->gwit;
    r->witcap = r->gwitcap;
    r->wlen = wl;
    r->gwit = old;
    r->gwitcap = old ? oldcap : 0;
}

/* A witness can usually be built greedily, as an SC execution: run the threads of the
 * fixed part in program order, taking a read (or fence) as soon as its
 * source is the last write to its cell, and a write only when no read not
 * yet taken still needs the value it overwrites.  Every step is checked,
 * so a finished order realises the graph; when the greedy order gets stuck
 * the full checker decides (and would accept whenever this succeeds), so
 * no count depends on it.  It costs threads x events, where the full check
 * was a quarter of readers-16's time and most of longwriter's. */
static bool greedy_witness(rs *r, const graph *g) { return greedy_witness_obs(r, g, NULL); }

/* What thread t's next event (index i) can do in greedy_witness: 1 a read
 * whose source is the last write of its cell, a fence or a cell-less step;
 * 2 a write (or RMW) whose overwritten value no read still needs; else 0. */
static inline int greedy_ready(const graph *g, int t, int i, const int *off, const int *lastk,
                               const int *need, int n)
{
    if (i >= g->tn[t])
        return 0;
    const gev *e = &g->tev[t][i];
    int c = e->x.cell;
    bool rd = gev_is_read(e), wr = gev_is_write(e);
    if (c < 0 || (!rd && !wr))
        return 1;
    if (rd) {
        int src = e->rf == EID_INIT ? -1 : off[EID_THREAD(e->rf)] + EID_INDEX(e->rf);
        if (src != lastk[c])
            return 0;
    }
    if (!wr)
        return 1;
    int left = lastk[c] < 0 ? need[n + c] : need[lastk[c]];
    return left - (rd ? 1 : 0) == 0 ? 2 : 0;
}

/* obs_w: when given, the write each observed cell r->obs[o] must end with
 * (EID_INIT: none): an observer read at the end that needs it, so nothing
 * may overwrite it. */
static bool greedy_witness_obs(rs *r, const graph *g, const wmx_eid *obs_w)
{
    /* under TSO and PSO the same order with each store flushed at once is
     * a trace of the machine (an SC execution is one of theirs) */
    bool flush = r->model != MODEL_SC;
    int n = greedy_setup(r, g, obs_w, flush ? 2 : 1);
    if (n == 0)
        return false;
    int nt = r->nthreads;
    int *off = r->tmpcount, *need = r->gneed, *lastk = r->glastk, *next = r->gnext;
    wmx_transition *wit = r->gwit;
    int wl = 0;
#define NEED_OF(c) (lastk[c] < 0 ? &need[n + (c)] : &need[lastk[c]])
    bool ok = true;
    /* threads below lo0 cannot take a read or a cell-less step: none could
     * at the last step, and only a write (which resets lo0) makes a read's
     * source current */
    int lo0 = 0;
    for (int step = 0; step < n; step++) {
        /* the first read or cell-less step from lo0 on, else the first
         * write (or RMW) whose overwritten value nobody needs: threads
         * lo0.. are looked at once for both, 0..lo0 only for a write */
        int pick = -1, wpick = -1;
        for (int t = lo0; t < nt && pick < 0; t++) {
            int k = greedy_ready(g, t, next[t], off, lastk, need, n);
            if (k == 1)
                pick = t;
            else if (k == 2 && wpick < 0)
                wpick = t;
        }
        for (int t = 0; t < lo0 && pick < 0; t++)
            if (greedy_ready(g, t, next[t], off, lastk, need, n) == 2) {
                wpick = t;
                break;
            }
        if (pick < 0)
            pick = wpick;
        if (pick < 0) {
            ok = false;
            break;
        }
        const gev *e = &g->tev[pick][next[pick]];
        lo0 = gev_is_write(e) ? 0 : pick;
        int c = e->x.cell;
        if (gev_is_read(e) && c >= 0)
            (*NEED_OF(c))--;
        if (gev_is_write(e) && c >= 0)
            lastk[c] = off[pick] + next[pick];
        next[pick]++;
        wit[wl++] = (wmx_transition){ TR_STEP, pick, -1 };
        if (flush && e->x.kind == X_WRITE)
            wit[wl++] = (wmx_transition){ TR_FLUSH, pick, r->model == MODEL_PSO ? c : -1 };
    }
#undef NEED_OF
    if (ok)
        greedy_keep(r, wl);
    return ok;
}

/* Under TSO the greedy order above flushes each store at once, so it finds
 * no witness for a graph where a thread reads its own store before another
 * thread sees it (most of fib_bench's classes: 58% went to the full
 * check).  This one runs TSO's machine itself: stores go into their
 * thread's buffer; a read takes the youngest store of its cell there, else
 * memory; a fence or an RMW waits for an empty buffer; a buffer's oldest
 * store reaches memory only when no read still to come needs the value it
 * overwrites.  Greedily: any step but a store, else a store, else a
 * flush; at the end every buffer is flushed (observers' writes last).
 * Every step is checked as in greedy_witness, and a stuck order leaves
 * the decision to the full checker. */
static bool greedy_witness_tso(rs *r, const graph *g, const wmx_eid *obs_w)
{
    int n = greedy_setup(r, g, obs_w, 2);
    if (n == 0)
        return false;
    int nt = r->nthreads;
    if (!r->gflushed) {
        r->gflushed = wmx_calloc((size_t)(nt ? nt : 1), sizeof *r->gflushed);
        r->gnbuf = wmx_calloc((size_t)(nt ? nt : 1), sizeof *r->gnbuf);
    }
    int *off = r->tmpcount, *need = r->gneed, *lastk = r->glastk, *next = r->gnext;
    int *fl = r->gflushed;      /* per thread: its oldest buffered store */
    int *nb = r->gnbuf;         /* per thread: stores in the buffer */
    memset(fl, 0, (size_t)nt * sizeof *fl);
    memset(nb, 0, (size_t)nt * sizeof *nb);
    int cap = machine_buffer_cap(r->mm);
    wmx_transition *wit = r->gwit;
    int wl = 0;
#define NEED_OF(c) (lastk[c] < 0 ? &need[n + (c)] : &need[lastk[c]])
    int left = n;
    for (;;) {
        /* 1: a step that is not a store; 2: a store; 3: a flush */
        int pick = -1, spick = -1, fpick = -1;
        for (int t = 0; t < nt && pick < 0; t++) {
            int i = next[t];
            if (i < g->tn[t]) {
                const gev *e = &g->tev[t][i];
                int c = e->x.cell;
                if (e->x.kind == X_WRITE) {
                    if (c >= 0 && nb[t] < cap && spick < 0)
                        spick = t;
                } else if (e->x.kind == X_FENCE) {
                    if (nb[t] == 0)
                        pick = t;
                } else if (gev_is_read(e) && c >= 0) {
                    int src = e->rf == EID_INIT ? -1 : off[EID_THREAD(e->rf)] + EID_INDEX(e->rf);
                    int own = -2;       /* the youngest buffered store of c */
                    if (e->x.kind != X_RMW && nb[t] > 0)
                        for (int j = i - 1; j >= fl[t] && own == -2; j--) {
                            const gev *s = &g->tev[t][j];
                            if (s->x.kind == X_WRITE && s->x.cell == c)
                                own = off[t] + j;
                        }
                    bool ok = own != -2 ? own == src : lastk[c] == src;
                    if (ok && e->x.kind == X_RMW)
                        ok = nb[t] == 0 && (!e->x.wrote || *NEED_OF(c) == 1);
                    if (ok)
                        pick = t;
                } else {
                    pick = t;           /* a cell-less step */
                }
            }
        }
        if (pick < 0)
            pick = spick;
        /* fl[t] is the oldest buffered store when nb[t] > 0 */
        for (int t = 0; t < nt && pick < 0 && fpick < 0; t++)
            if (nb[t] > 0 && *NEED_OF(g->tev[t][fl[t]].x.cell) == 0)
                fpick = t;
        if (pick >= 0) {
            const gev *e = &g->tev[pick][next[pick]];
            int c = e->x.cell;
            if (gev_is_read(e) && c >= 0) {
                int src = e->rf == EID_INIT ? n + c : off[EID_THREAD(e->rf)] + EID_INDEX(e->rf);
                need[src]--;
            }
            if (e->x.kind == X_WRITE) {
                if (nb[pick]++ == 0)
                    fl[pick] = next[pick];
            } else if (gev_is_write(e) && c >= 0) {
                lastk[c] = off[pick] + next[pick];
            }
            next[pick]++;
            left--;
            wit[wl++] = (wmx_transition){ TR_STEP, pick, -1 };
            continue;
        }
        if (fpick < 0)
            break;
        int j = fl[fpick];
        lastk[g->tev[fpick][j].x.cell] = off[fpick] + j;
        if (--nb[fpick] > 0)
            while (g->tev[fpick][++j].x.kind != X_WRITE)
                ;
        fl[fpick] = j;
        wit[wl++] = (wmx_transition){ TR_FLUSH, fpick, -1 };
    }
#undef NEED_OF
    bool ok = left == 0;
    for (int t = 0; t < nt && ok; t++)
        ok = nb[t] == 0;
    if (ok)
        greedy_keep(r, wl);
    return ok;
}

/* Explores alternative a (a copy: a shared decision's alts may move) of
 * decision di. */
static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Two read-modify-writes that wrote and read the same write of one cell:
 * never consistent, under any model (each must come right after that write
 * in coherence).  On mutex programs almost every refuted alternative is one
 * (two locks taking the same release): found here by a sort instead of a
 * failed greedy witness and a saturation. */
static bool rmw_sources_clash(rs *r, const graph *g)
{
    size_t n = 0;
    for (int t = 0; t < r->nthreads; t++)
        for (int i = 0; i < g->tn[t]; i++) {
            const gev *e = &g->tev[t][i];
            if (e->x.kind != X_RMW || !e->x.wrote)
                continue;
            if (n == r->rmwcap) {
                r->rmwcap = r->rmwcap ? 2 * r->rmwcap : 64;
                r->rmwkeys = wmx_realloc(r->rmwkeys, r->rmwcap * sizeof *r->rmwkeys);
            }
            r->rmwkeys[n++] = (uint64_t)(uint32_t)e->x.cell << 32 | (uint32_t)e->rf;
        }
    if (n < 2)
        return false;
    if (n <= 32) {                      /* the usual size: no sort needed */
        for (size_t k = 1; k < n; k++)
            for (size_t j = 0; j < k; j++)
                if (r->rmwkeys[k] == r->rmwkeys[j])
                    return true;
        return false;
    }
    qsort(r->rmwkeys, n, sizeof *r->rmwkeys, cmp_u64);
    for (size_t k = 1; k < n; k++)
        if (r->rmwkeys[k] == r->rmwkeys[k - 1])
            return true;
    return false;
}

static void explore_alt(rs *r, int di, const alt *a)
{
    decision *d = r->dec[di];
    int nt = r->nthreads;
    int *cnt = wmx_malloc((size_t)(nt ? nt : 1) * sizeof *cnt);
    if (!build_fixed(r, d, a, cnt)) {
        free(cnt);
        return;
    }
    if (rmw_sources_clash(r, &r->ng)) {
        r->refuted++;
        free(cnt);
        return;
    }
    /* A greedy witness proves the graph consistent at once; only when
     * it gets stuck are the cheap refutation and then the full check run
     * (saturating first was a tenth of readers-16's time, for
     * alternatives the greedy order accepts anyway). */
    bool ok = greedy_witness(r, &r->ng) ||
              (r->model == MODEL_TSO && greedy_witness_tso(r, &r->ng, NULL));
    bool built = ok;
    if (!ok) {
        if (saturate(r, &r->ng)) {
            r->refuted++;
            free(cnt);
            return;
        }
        if (r->stop) {
            free(cnt);
            return;
        }
        wmx_exec *x = graph_exec(r, &r->ng);
        ok = exec_consistent(r, x, true);
        exec_free(x);
    }
    if (!ok) {
        free(cnt);
        return;
    }
    unsigned char *fz = wmx_malloc((size_t)(nt ? nt : 1));
    memcpy(fz, d->frozen, (size_t)nt);
    if (a->src == SRC_ABSENT)
        fz[d->thread] = 1;
    run_node(r, di, cnt, fz, built);
    free(fz);
    free(cnt);
}

/* ---- the search, one class at a time ---- */

typedef struct owned_trace {
    explore_trace tr;
    wmx_transition *steps;
    wmx_event *events;
    void *state;
} owned_trace;

struct rfsmc_iter {
    rs r;
    double t0;
    bool started, finished;
    owned_trace *q;            /* classes found and not yet handed out */
    int qhead, qn, qcap;
    owned_trace cur;           /* the one handed out last */
};

static void owned_free(owned_trace *o)
{
    free(o->steps);
    free(o->events);
    free(o->state);
    memset(o, 0, sizeof *o);
}

static void queue_trace(rs *r, const explore_trace *tr)
{
    rfsmc_iter *it = r->iter;
    if (it->qhead > 0 && it->qhead == it->qn) {
        it->qhead = it->qn = 0;
    }
    if (it->qn == it->qcap) {
        it->qcap = it->qcap ? 2 * it->qcap : 8;
        it->q = wmx_realloc(it->q, (size_t)it->qcap * sizeof *it->q);
    }
    owned_trace *o = &it->q[it->qn++];
    size_t n = (size_t)(tr->len ? tr->len : 1);
    o->steps = wmx_malloc(n * sizeof *o->steps);
    o->events = wmx_malloc(n * sizeof *o->events);
    if (tr->len) {
        memcpy(o->steps, tr->steps, (size_t)tr->len * sizeof *o->steps);
        memcpy(o->events, tr->events, (size_t)tr->len * sizeof *o->events);
    }
    o->state = wmx_malloc(r->mss);
    memcpy(o->state, tr->final_state, r->mss);
    o->tr = (explore_trace){ tr->len, o->steps, o->events, o->state, tr->blocked, tr->error, tr->ending };
}

/* ---- which awaits can stay waiting for ever ---- */

/* Whether expression e reads a register (else its value is known now). */
static bool expr_uses_reg(const wmx_program *p, int e)
{
    if (e < 0)
        return false;
    const ir_expr *x = &p->exprs[e];
    return x->op == OP_REG || expr_uses_reg(p, x->a) || expr_uses_reg(p, x->b);
}

/* The one OP_ADDR leaf of e (a pointer into one variable), or -1. */
static int expr_addr_leaf(const wmx_program *p, int e, int *count)
{
    if (e < 0)
        return -1;
    const ir_expr *x = &p->exprs[e];
    if (x->op == OP_ADDR) {
        ++*count;
        return (int)x->value;
    }
    int a = expr_addr_leaf(p, x->a, count), b = expr_addr_leaf(p, x->b, count);
    return a >= 0 ? a : b;
}

/* The cell a memory operand names when it is known before running (a
 * variable with a constant index, a constant pointer); -1 otherwise. */
static int fixed_cell(const wmx_program *p, const ir_addr *a)
{
    if (a->ptr >= 0)
        return expr_uses_reg(p, a->ptr) ? -1 : ir_address_cell(p, a, NULL);
    if (a->var < 0 || expr_uses_reg(p, a->index))
        return -1;
    return ir_address_cell(p, a, NULL);
}

/* The cells [*lo, *hi) a memory operand may name: one cell, one variable
 * (a run-time index or an offset from one variable's address; anything
 * else faults), or false for any cell (a pointer loaded from memory). */
static bool operand_cells(const wmx_program *p, const ir_addr *a, int *lo, int *hi)
{
    int c = fixed_cell(p, a);
    int v = -1;
    if (c >= 0) {
        *lo = c;
        *hi = c + 1;
        return true;
    }
    if (a->ptr < 0)
        v = a->var;
    else {
        int n = 0, leaf = expr_addr_leaf(p, a->ptr, &n);
        if (n == 1 && leaf >= 0 && leaf < p->ncells)
            v = ir_cell_var(p, leaf);
    }
    if (v < 0 || v >= p->nvars)
        return false;
    *lo = p->vars[v].base;
    *hi = p->vars[v].base + p->vars[v].length;
    return true;
}

/* Finds, per cell, the values written to it (when they are all constants)
 * and whether some thread writes it on every path: a thread that cannot
 * block, fail or fault, whose every path to its end passes a write of the
 * cell.  An await on such a cell that every written value satisfies can
 * never wait for ever, so it gets no "absent" alternative: exploring one
 * would only find graphs where the writer's write is missing, none of them
 * a class (a C join, an await on the joined thread's end flag, or a
 * created thread's wait for its pthread_create, is the common case). */
static void find_sure_writes(rs *r)
{
    const wmx_program *p = r->prog;
    int nc = p->ncells;
    r->woff = wmx_calloc((size_t)nc + 2, sizeof *r->woff);
    r->sure = wmx_calloc((size_t)nc + 1, 1);
    r->known = wmx_calloc((size_t)nc + 1, 1);
    r->wvals = NULL;
    if (p->pgas_ranks > 0 || nc == 0)
        return;
    /* only awaited cells matter: a program without awaits pays nothing */
    unsigned char *awaited = wmx_calloc((size_t)nc + 1, 1);
    bool any_await = false;
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i < p->threads[t].ninstrs; i++) {
            const ir_instr *in = &p->threads[t].instrs[i];
            if (!ir_waits(in))
                continue;
            int lo = 0, hi = nc;
            if (!operand_cells(p, &in->addr, &lo, &hi)) {
                lo = 0;
                hi = nc;
            }
            for (int c = lo; c < hi; c++)
                awaited[c] = 1;
            any_await = true;
        }
    if (!any_await) {
        free(awaited);
        return;
    }
    unsigned char *unknown = wmx_calloc((size_t)nc + 1, 1);
    bool any_unknown = false;
    /* pass 1 counts the writes per cell, pass 2 stores their values */
    for (int pass = 0; pass < 2 && !any_unknown; pass++) {
        int *fill = pass ? wmx_calloc((size_t)nc + 1, sizeof *fill) : NULL;
        for (int t = 0; t < p->nthreads && !any_unknown; t++) {
            const ir_thread *th = &p->threads[t];
            for (int i = 0; i < th->ninstrs; i++) {
                const ir_instr *in = &th->instrs[i];
                int val = -1;
                if (in->kind == I_STORE || in->kind == I_XCHG)
                    val = in->e1;
                else if (in->kind == I_CAS)
                    val = in->e2;
                else if (in->kind != I_FAA)
                    continue;
                int lo, hi;
                if (!operand_cells(p, &in->addr, &lo, &hi)) {
                    any_unknown = true;
                    break;
                }
                /* a trylock that fails writes back what it read */
                bool konst = in->kind != I_FAA && val >= 0 && !expr_uses_reg(p, val) &&
                             !(in->kind == I_CAS && in->writes_back);
                for (int c = lo; c < hi; c++) {
                    if (!konst)
                        unknown[c] = 1;
                    else if (pass == 0)
                        r->woff[c + 1]++;
                    else
                        r->wvals[r->woff[c] + fill[c]++] = ir_eval(p, val, NULL, NULL);
                }
            }
        }
        if (pass == 0) {
            for (int c = 0; c < nc; c++)
                r->woff[c + 1] += r->woff[c];
            int total = r->woff[nc];
            r->wvals = wmx_malloc((size_t)(total ? total : 1) * sizeof *r->wvals);
        }
        free(fill);
    }
    if (any_unknown) {
        free(unknown);
        free(awaited);
        return;
    }
    /* must[i]: every path from instruction i to the thread's end writes c;
     * a greatest fixpoint, so it is per cell and per thread */
    int maxn = 1;
    for (int t = 0; t < p->nthreads; t++)
        if (p->threads[t].ninstrs > maxn)
            maxn = p->threads[t].ninstrs;
    unsigned char *must = wmx_malloc((size_t)maxn + 1);
    for (int t = 0; t < p->nthreads; t++) {
        const ir_thread *th = &p->threads[t];
        bool safe = true;
        for (int i = 0; i < th->ninstrs && safe; i++) {
            const ir_instr *in = &th->instrs[i];
            switch (in->kind) {
            case I_AWAIT: case I_ASSUME: case I_ASSERT:
            case I_PREAD: case I_PWRITE: case I_BARRIER: case I_QUIET:
                safe = false;
                break;
            case I_LOAD: case I_STORE: case I_XCHG: case I_FAA: case I_CAS:
                if (fixed_cell(p, &in->addr) < 0 || ir_waits(in))
                    safe = false;    /* a lock may wait for ever */
                break;
            case I_JUMP:
                if (in->target < 0 || in->target > th->ninstrs)
                    safe = false;
                break;
            default:
                break;
            }
        }
        if (!safe)
            continue;
        for (int c = 0; c < nc; c++) {
            if (!awaited[c] || r->sure[c] || unknown[c] || r->woff[c + 1] == r->woff[c])
                continue;
            int n = th->ninstrs;
            memset(must, 1, (size_t)n + 1);
            must[n] = 0;            /* running off the end is the end */
            for (bool changed = true; changed;) {
                changed = false;
                for (int i = n - 1; i >= 0; i--) {
                    const ir_instr *in = &th->instrs[i];
                    bool writes = (in->kind == I_STORE || in->kind == I_XCHG || in->kind == I_FAA)
                                  && fixed_cell(p, &in->addr) == c;   /* a CAS may fail */
                    unsigned char v;
                    if (writes)
                        v = 1;
                    else if (in->kind == I_HALT)
                        v = 0;
                    else if (in->kind == I_JUMP)
                        v = must[in->target] && (in->e1 < 0 ? 1 : must[i + 1]);
                    else
                        v = must[i + 1];
                    if (v != must[i]) {
                        must[i] = v;
                        changed = true;
                    }
                }
            }
            if (must[0])
                r->sure[c] = 1;
        }
    }
    for (int c = 0; c < nc; c++) {
        if (unknown[c])
            r->sure[c] = 0;
        r->known[c] = !unknown[c];
    }
    free(must);
    free(unknown);
    free(awaited);
}

/* Whether instruction `in` writes cell c: 1 a constant 0, 2 anything
 * else (or a value not known), 0 not at all. */
static int writes_cell(const wmx_program *p, const ir_instr *in, int c)
{
    int val;
    switch (in->kind) {
    case I_STORE: case I_XCHG: val = in->e1; break;
    case I_CAS: val = in->e2; break;
    case I_FAA: val = -1; break;
    default: return 0;
    }
    if (fixed_cell(p, &in->addr) != c)
        return 0;
    if (in->kind == I_CAS && in->writes_back)
        return 2;                           /* a failed one writes back what it read */
    if (in->kind != I_FAA && val >= 0 && !expr_uses_reg(p, val) && ir_eval(p, val, NULL, NULL) == 0)
        return in->kind == I_CAS ? 0 : 1;   /* a CAS of 0 may not write: no release */
    return 2;
}

/* Finds the cells that end at 0 in every class: a cell that starts at 0,
 * is named only by fixed operands, and where every write of another value
 * (a lock) is followed, on every path of its thread, by a write of 0 (the
 * unlock) with nothing between that can stop the thread: no await, lock,
 * assume or assert, no operand that may fault.  The mutex's last write in
 * coherence order is then an unlock (each lock is coherence-before its own
 * thread's unlock).  So a lock of a mutex that every holder releases never
 * waits for ever, and gets no "absent" alternative: all of that subtree's
 * graphs would end with the mutex free, none of them a class. */
static void find_released(rs *r)
{
    const wmx_program *p = r->prog;
    int nc = p->ncells;
    r->released = wmx_calloc((size_t)nc + 1, 1);
    if (p->pgas_ranks > 0 || nc == 0 || !r->locks)
        return;
    int maxn = 1;
    for (int t = 0; t < p->nthreads; t++)
        if (p->threads[t].ninstrs > maxn)
            maxn = p->threads[t].ninstrs;
    unsigned char *must = wmx_malloc((size_t)maxn + 1);
    for (int t0 = 0; t0 < p->nthreads; t0++)
        for (int i0 = 0; i0 < p->threads[t0].ninstrs; i0++) {
            const ir_instr *lk = &p->threads[t0].instrs[i0];
            int c = lk->kind == I_CAS && lk->blocking ? fixed_cell(p, &lk->addr) : -1;
            if (c < 0 || c >= nc || r->released[c] || p->cell_init[c] != 0)
                continue;
            bool ok = true;
            for (int t = 0; t < p->nthreads && ok; t++) {
                const ir_thread *th = &p->threads[t];
                int n = th->ninstrs;
                /* must[i]: every path from i writes 0 to c before the
                 * thread could stop (a greatest fixpoint) */
                memset(must, 1, (size_t)n + 1);
                must[n] = 0;
                for (bool changed = true; changed;) {
                    changed = false;
                    for (int i = n - 1; i >= 0; i--) {
                        const ir_instr *in = &th->instrs[i];
                        unsigned char v;
                        if (writes_cell(p, in, c) == 1)
                            v = 1;
                        else if (in->kind == I_HALT || in->kind == I_ASSUME || in->kind == I_ASSERT ||
                                 ir_waits(in) || in->kind == I_PREAD || in->kind == I_PWRITE ||
                                 in->kind == I_BARRIER || in->kind == I_QUIET ||
                                 (ir_is_visible(in) && in->kind != I_FENCE && fixed_cell(p, &in->addr) < 0))
                            v = 0;
                        else if (in->kind == I_JUMP)
                            v = in->target >= 0 && in->target <= n && must[in->target] &&
                                (in->e1 < 0 ? 1 : must[i + 1]);
                        else
                            v = must[i + 1];
                        if (v != must[i]) {
                            must[i] = v;
                            changed = true;
                        }
                    }
                }
                for (int i = 0; i < n && ok; i++) {
                    const ir_instr *in = &th->instrs[i];
                    if (ir_is_visible(in) && in->kind != I_FENCE) {
                        int lo, hi;
                        if (!operand_cells(p, &in->addr, &lo, &hi) ||
                            (lo <= c && c < hi && fixed_cell(p, &in->addr) != c))
                            ok = false;     /* may name c through a pointer */
                    }
                    if (writes_cell(p, in, c) == 2 && !must[i + 1])
                        ok = false;
                }
            }
            r->released[c] = ok;
        }
    free(must);
}

/* Finds the mutex chains: cells that only read-modify-writes which always
 * write can name (locks, that is CASes that wait until they succeed,
 * exchanges and fetch-and-adds), and that some lock names.  Each access
 * of such a cell reads the one before it in coherence and no two read the
 * same write, so in every class that holds a decision's fixed part F_e,
 * the write e reads on the branch (src0, in F_e) is read by e or by one
 * other RMW c.  The decision splits its classes by that reader: no
 * "e reads w" alternatives, no "absent" one (with src0 free, e would run),
 * and no lock ever runs on a held mutex, so no graph is a stepping stone
 * (see finish_graph): c taking src0 with e left to run later reaches the
 * other orders of two critical sections directly.  Returns whether every
 * lock of the program is on a chain (else the locks fail, as before, and
 * no cell is a chain). */
static bool find_chain_cells(rs *r)
{
    const wmx_program *p = r->prog;
    int nc = p->ncells;
    if (p->pgas_ranks > 0 || nc == 0 || !r->locks)
        return false;
    unsigned char *lockc = wmx_calloc((size_t)nc, 1), *other = wmx_calloc((size_t)nc, 1);
    bool ok = true;
    for (int t = 0; t < p->nthreads && ok; t++)
        for (int i = 0; i < p->threads[t].ninstrs && ok; i++) {
            const ir_instr *in = &p->threads[t].instrs[i];
            if (!ir_is_visible(in) || in->kind == I_FENCE)
                continue;
            int lo, hi;
            if (!operand_cells(p, &in->addr, &lo, &hi)) {
                ok = false;         /* a pointer loaded from memory: any cell */
                break;
            }
            bool lock = in->kind == I_CAS && in->blocking;
            bool rmw = lock || in->kind == I_XCHG || in->kind == I_FAA ||
                       (in->kind == I_CAS && in->writes_back);
            for (int c = lo; c < hi && c < nc; c++) {
                if (lock)
                    lockc[c] = 1;
                if (!rmw)
                    other[c] = 1;
            }
        }
    for (int c = 0; c < nc && ok; c++)
        if (lockc[c] && other[c])
            ok = false;             /* a lock on a cell also read or stored */
    if (ok) {
        r->chain = lockc;
        lockc = NULL;
    }
    free(lockc);
    free(other);
    return ok;
}

/* Whether the await of decision d can wait for ever in some class.  Not
 * when every write of its cell satisfies it and the branch reads a write
 * (in F_e, so every class of d has one, and ends with one of their values:
 * a pthread_join after the thread's end flag was read, where the threads
 * may wait at locks and sure writes cannot be proved). */
static bool await_may_wait(const rs *r, const decision *d)
{
    int c = d->cell;
    if (c >= 0 && c < r->prog->ncells && r->released[c] && await_accepts(d, 0))
        return false;
    if (c >= 0 && c < r->prog->ncells && r->known[c] && d->src0 >= 0) {
        bool all = true;
        for (int k = r->woff[c]; k < r->woff[c + 1] && all; k++)
            all = await_accepts(d, r->wvals[k]);
        if (all)
            return false;
    }
    if (c < 0 || c >= r->prog->ncells || !r->sure[c])
        return true;
    for (int k = r->woff[c]; k < r->woff[c + 1]; k++)
        if (!await_accepts(d, r->wvals[k]))
            return true;
    return false;
}

rfsmc_iter *rfsmc_iter_new(const wmx_program *prog, const explore_opts *opts,
                           explore_result *res, wmx_error *err)
{
    explore_result_init(res, prog, opts->model, ALGO_RFSMC);
    rfsmc_iter *it = wmx_calloc(1, sizeof *it);
    it->t0 = explore_now();
    rs *r = &it->r;
    r->iter = it;
    r->prog = prog;
    r->opts = opts;
    r->res = res;
    r->model = opts->model;
    r->lm = machine_new(prog, MODEL_SC, err);
    if (!r->lm) {
        free(it);
        return NULL;
    }
    r->mm = machine_new(prog, opts->model, err);
    if (!r->mm) {
        machine_free(r->lm);
        free(it);
        return NULL;
    }
    /* Traces are extended with the threads that assert last, so that a
     * check sees the others' work done in the first trace (and the
     * decisions that can fail it are the deepest, explored first): the
     * classes are the same whatever the order, but a checker thread that
     * ran first found SV-COMP's nondet-loop-bound bug only after
     * (n+1)^n - n! classes of the incrementers' races. */
    r->sched = wmx_malloc((size_t)(prog->nthreads ? prog->nthreads : 1) * sizeof *r->sched);
    unsigned char *asserts = wmx_calloc((size_t)(prog->nthreads ? prog->nthreads : 1), 1);
    for (int t = 0; t < prog->nthreads; t++)
        for (int i = 0; i < prog->threads[t].ninstrs && !asserts[t]; i++)
            asserts[t] = prog->threads[t].instrs[i].kind == I_ASSERT;
    int ns = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int t = 0; t < prog->nthreads; t++)
            if (asserts[t] == pass)
                r->sched[ns++] = t;
    free(asserts);
    r->locks = ir_has_locks(prog);
    if (r->locks && !find_chain_cells(r)) {
        machine_set_locks_fail(r->lm);
        machine_set_locks_fail(r->mm);
    }
    r->lss = machine_state_size(r->lm);
    r->mss = machine_state_size(r->mm);
    r->nthreads = prog->nthreads;
    size_t nt = (size_t)(r->nthreads ? r->nthreads : 1);
    graph_init(&r->g, r->nthreads);
    graph_init(&r->ng, r->nthreads);
    r->lstate = wmx_malloc(r->lss);
    r->mstate = wmx_malloc(r->mss);
    r->rstate = wmx_malloc(r->mss);
    r->fev = wmx_calloc(nt, sizeof *r->fev);
    r->fevcap = wmx_calloc(nt, sizeof *r->fevcap);
    r->fnode = wmx_calloc(nt, sizeof *r->fnode);
    r->initstate = wmx_malloc(r->mss);
    machine_init(r->mm, r->initstate);
    machine_init(r->lm, r->lstate);
    r->memo = thread_memo_new(r->lm, THREAD_MEMO_BYTES);
    r->mcur = wmx_calloc(nt, sizeof *r->mcur);
    r->tmpcount = wmx_calloc(nt, sizeof *r->tmpcount);
    r->tmpcone = wmx_calloc(nt, sizeof *r->tmpcone);
    r->evstart = wmx_calloc(nt, sizeof *r->evstart);
    r->shown_only = explore_observed_shown_only(prog);
    r->obs = wmx_malloc((size_t)(res->nobserved ? res->nobserved : 1) * sizeof *r->obs);
    for (int i = 0; i < res->nobserved; i++)
        if (res->observed[i].thread < 0)
            r->obs[r->nobs++] = res->observed[i].cell;
    find_sure_writes(r);
    find_released(r);
    explore_clock_start(&r->clk, opts);
    return it;
}

static void iter_finish(rfsmc_iter *it)
{
    if (it->finished)
        return;
    it->finished = true;
    rs *r = &it->r;
    r->res->time_s = explore_now() - it->t0;
    r->res->runs_no_class = r->empty;
    if (getenv("WMX_RFSMC_STATS"))
        fprintf(stderr, "rfsmc: %ld traces run, %ld of them no class; %ld checks, %ld refuted early\n",
                r->nodes, r->empty, r->checks, r->refuted);
    explore_finish(r->res);
}

/* ---- --jobs: sharing decisions ----
 *
 * The search below a decision does not depend on the order in which its
 * alternatives are explored: each alternative's node is a function of the
 * decision's fixed part and the alternative's key, and every trace below
 * the decision offers its sources to it, deduplicated by key.  So several
 * workers may take alternatives of one decision, each exploring below it
 * with its own graph and offering what it finds to the decisions they
 * share: the classes are the same as with one worker.  A worker asked for
 * work gives its shallowest decision that has alternatives left, as the
 * path from the root to it; a decision is freed by the last worker whose
 * path holds it, when nothing is left to take from it. */

typedef struct rs_unit {
    int n;
    /* its giver still holds the path and takes what is left (give_away);
     * false for a unit from another rank or for a key (owner_offer) */
    bool held;
    decision *path[];
} rs_unit;

/* Makes d shareable: its fixed part's sources copied from the current
 * graph (which lies below every decision on the path). */
static void share(rs *r, decision *d)
{
    if (d->shared)
        return;
    int nt = r->nthreads;
    d->fsrc = wmx_calloc((size_t)(nt ? nt : 1), sizeof *d->fsrc);
    for (int t = 0; t < nt; t++) {
        d->fsrc[t] = wmx_malloc((size_t)(d->fcount[t] ? d->fcount[t] : 1) * sizeof **d->fsrc);
        for (int i = 0; i < d->fcount[t]; i++)
            d->fsrc[t][i] = r->g.tev[t][i].rf;
    }
    /* what this worker settled holds for every worker */
    d->nworkers = team_workers(r->team);
    d->wsettled = wmx_calloc((size_t)d->nworkers, sizeof *d->wsettled);
    for (int k = 0; k < d->nworkers; k++)
        d->wsettled[k] = settled_copy(&d->settled, nt);
    settled_free(&d->settled, nt);
    pthread_mutex_init(&d->mu, NULL);
    d->refs = 1;
    d->shared = true;
}

static bool has_work(decision *d)
{
    if (!d->shared)
        return d->next < d->nalts;
    pthread_mutex_lock(&d->mu);
    bool w = d->next < alts_end(d);
    pthread_mutex_unlock(&d->mu);
    return w;
}

static void give_away(rs *r)
{
    int di = 0;
    while (di < r->ndec && !has_work(r->dec[di]))
        di++;
    if (di == r->ndec)
        return;
    rs_unit *u = wmx_malloc(sizeof *u + (size_t)(di + 1) * sizeof *u->path);
    u->n = di + 1;
    u->held = true;
    for (int k = 0; k <= di; k++) {
        decision *d = r->dec[k];
        share(r, d);
        pthread_mutex_lock(&d->mu);
        d->refs++;
        pthread_mutex_unlock(&d->mu);
        u->path[k] = d;
    }
    team_give(r->team, u);
}

/* What the workers of one process share. */
typedef struct rs_run {
    int nthreads;
    int nworkers;
    /* over MPI ranks: this rank, and its decisions that units sent away
     * name, by number, each with its path from the root (held, as a
     * unit's, until the run ends) */
    team_net *net;
    int rank;
    pthread_mutex_t mu;
    struct rs_named {
        int n;
        decision **path;       /* path[n - 1] is the decision */
    } *named;
    int nnamed, capnamed;
} rs_run;

static void unit_drop(void *unit, void *ctx)
{
    rs_unit *u = unit;
    const rs_run *c = ctx;
    for (int k = u->n - 1; k >= 0; k--)
        decision_release(u->path[k], c->nthreads);
    free(u);
}

static void hold(decision *d)
{
    pthread_mutex_lock(&d->mu);
    d->refs++;
    pthread_mutex_unlock(&d->mu);
}

/* ---- units between ranks (team_net.h) ----
 *
 * A unit sent to another rank is the path to a shared decision d with a
 * batch of d's alternatives taken out of it (half of those left when the
 * giver still holds d, else all): the
 * receiver makes a replica of each decision on the path (its fixed part,
 * the sources of F_e, and the flags discover keeps) and explores the
 * batch below the deepest one, as a worker explores a unit's decision.
 * Every key its traces offer to a replica goes to the replica's owner,
 * which queues it if new, as a worker on the owner's rank would have; a
 * new key at a decision whose workers may have left it comes with a unit
 * of its path, so it is explored.  Each alternative is thus taken at
 * exactly one place, once (a key is in the owner's set, and a batch leaves
 * it), and the classes are those of one worker. */

static void put_alt(wire *w, const alt *a, int nt)
{
    wire_i32(w, a->src);
    wire_i32(w, a->nextra);
    wire_i64(w, (int64_t)a->hash);
    wire_i32(w, a->data != NULL);
    if (a->data)
        wire_put(w, a->data, (size_t)(nt + 2 * a->nextra) * sizeof *a->data);
}

/* An alternative read from r into scratch *buf; false when it is bad. */
static bool get_alt(wire_reader *r, alt *a, int nt, int **buf, size_t *cap)
{
    a->src = wire_get_i32(r);
    a->nextra = wire_get_count(r, 1 << 24);
    a->hash = (uint64_t)wire_get_i64(r);
    a->data = NULL;
    if (a->nextra < 0)
        return false;
    if (!wire_get_i32(r))
        return !r->bad && a->nextra == 0;
    size_t n = (size_t)(nt + 2 * a->nextra);
    if (n > *cap) {
        *cap = 2 * n;
        *buf = wmx_realloc(*buf, *cap * sizeof **buf);
    }
    a->data = *buf;
    return wire_get(r, a->data, n * sizeof *a->data);
}

/* Names d (this rank's) for other ranks, with its path path[0, n). */
static void name_decision(rs_run *run, decision **path, int n)
{
    decision *d = path[n - 1];
    if (d->owner >= 0)
        return;
    if (run->nnamed == run->capnamed) {
        run->capnamed = run->capnamed ? 2 * run->capnamed : 64;
        run->named = wmx_realloc(run->named, (size_t)run->capnamed * sizeof *run->named);
    }
    struct rs_named *x = &run->named[run->nnamed];
    x->n = n;
    x->path = wmx_malloc((size_t)n * sizeof *x->path);
    for (int k = 0; k < n; k++) {
        x->path[k] = path[k];
        hold(path[k]);
    }
    d->owner = run->rank;
    d->id = run->nnamed++;
}

static void unit_encode(const void *unit, void *ctx, wire *w)
{
    const rs_unit *u = unit;
    rs_run *run = ctx;
    int nt = run->nthreads;
    pthread_mutex_lock(&run->mu);
    for (int k = 0; k < u->n; k++)
        if (!u->path[k]->replica)
            name_decision(run, (decision **)u->path, k + 1);
    pthread_mutex_unlock(&run->mu);
    wire_i32(w, nt);
    wire_i32(w, u->n);
    for (int k = 0; k < u->n; k++) {
        /* the fields below alts never change once shared (see share) */
        const decision *d = u->path[k];
        wire_i32(w, d->owner);
        wire_i32(w, d->id);
        wire_i32(w, d->ev);
        wire_i32(w, d->is_await);
        wire_i32(w, d->taker);
        wire_i32(w, d->src0);
        wire_i32(w, d->cell);
        wire_i32(w, (int32_t)d->cmp);
        wire_i64(w, d->operand);
        wire_put(w, d->fcount, (size_t)nt * sizeof *d->fcount);
        wire_put(w, d->frozen, (size_t)nt);
        for (int t = 0; t < nt; t++)
            wire_put(w, d->fsrc[t], (size_t)d->fcount[t] * sizeof *d->fsrc[t]);
        unsigned char flags = (unsigned char)(atomic_load(&d->fixed_offered) | atomic_load(&d->init_offered) << 1 |
                                              atomic_load(&d->init_refuted) << 2 | atomic_load(&d->absent_wanted) << 3);
        wire_put(w, &flags, 1);
    }
    /* the batch: half of what is left at the deepest decision when the
     * giver still holds it (it takes the rest), else all: a unit queued
     * for a key from another rank (owner_offer), or received from one,
     * has nobody else here to take the rest (keeping half lost classes).
     * Half, not all: all made longwriter's one decision of 2048
     * alternatives go back and forth between two ranks 112 times */
    decision *d = u->path[u->n - 1];
    pthread_mutex_lock(&d->mu);
    int left = alts_end(d) - d->next, b = u->held ? (left + 1) / 2 : left;
    wire_i32(w, b);
    for (int i = 0; i < b; i++)
        put_alt(w, &d->alts[d->next + i], nt);
    d->next += b;
    pthread_mutex_unlock(&d->mu);
}

static void *unit_decode(wire_reader *r, void *ctx)
{
    rs_run *run = ctx;
    int nt = run->nthreads;
    if (wire_get_i32(r) != nt)
        return NULL;
    int n = wire_get_count(r, 1 << 24);
    if (n < 1)
        return NULL;
    rs_unit *u = wmx_calloc(1, sizeof *u + (size_t)n * sizeof *u->path);
    size_t ntz = (size_t)(nt ? nt : 1);
    bool ok = true;
    for (int k = 0; k < n && ok; k++) {
        decision *d = wmx_calloc(1, sizeof *d);
        u->path[u->n++] = d;
        d->fcount = wmx_calloc(ntz, sizeof *d->fcount);
        d->frozen = wmx_calloc(ntz, 1);
        d->fsrc = wmx_calloc(ntz, sizeof *d->fsrc);
        d->nworkers = run->nworkers;
        d->wsettled = wmx_calloc((size_t)d->nworkers, sizeof *d->wsettled);
        pthread_mutex_init(&d->mu, NULL);
        d->refs = 1;
        d->shared = true;
        d->replica = true;
        d->owner = wire_get_i32(r);
        d->id = wire_get_i32(r);
        d->ev = wire_get_i32(r);
        d->thread = EID_THREAD(d->ev);
        d->is_await = wire_get_i32(r) != 0;
        d->taker = wire_get_i32(r) != 0;
        d->src0 = wire_get_i32(r);
        d->cell = wire_get_i32(r);
        d->cmp = (ir_op)wire_get_i32(r);
        d->operand = wire_get_i64(r);
        wire_get(r, d->fcount, (size_t)nt * sizeof *d->fcount);
        wire_get(r, d->frozen, (size_t)nt);
        ok = !r->bad && d->owner >= 0 && run->net && d->owner < run->net->size && d->id >= 0 &&
             d->ev >= 0 && d->thread < nt;
        for (int t = 0; t < nt && ok; t++) {
            ok = d->fcount[t] >= 0 && d->fcount[t] < (1 << 24);
            if (ok) {
                d->fsrc[t] = wmx_malloc((size_t)(d->fcount[t] ? d->fcount[t] : 1) * sizeof *d->fsrc[t]);
                ok = wire_get(r, d->fsrc[t], (size_t)d->fcount[t] * sizeof *d->fsrc[t]);
            }
        }
        unsigned char flags = 0;
        ok = ok && wire_get(r, &flags, 1);
        atomic_store(&d->fixed_offered, (flags & 1) != 0);
        atomic_store(&d->init_offered, (flags & 2) != 0);
        atomic_store(&d->init_refuted, (flags & 4) != 0);
        atomic_store(&d->absent_wanted, (flags & 8) != 0);
    }
    int b = ok ? wire_get_count(r, 1 << 24) : -1;
    ok = ok && b >= 0;
    int *buf = NULL;
    size_t cap = 0;
    decision *d = u->path[u->n - 1];
    for (int i = 0; i < b && ok; i++) {
        alt a;
        ok = get_alt(r, &a, nt, &buf, &cap);
        if (ok)
            decision_add(d, a, nt);
    }
    free(buf);
    d->nbatch = d->nalts;
    if (!ok || !wire_done(r)) {
        unit_drop(u, run);
        return NULL;
    }
    return u;
}

/* At d's owner: key a offered below a replica of d elsewhere.  A new key
 * comes with a unit of d's path: the workers that held d may have left
 * it. */
static void owner_offer(rs_run *run, team *t, int id, alt a)
{
    /* the entry is copied under the lock: a worker comes here for a
     * replica of this rank's own decision while the messenger may grow
     * run->named (name_decision); each path array itself never moves */
    pthread_mutex_lock(&run->mu);
    struct rs_named x = { 0, NULL };
    if (id >= 0 && id < run->nnamed)
        x = run->named[id];
    pthread_mutex_unlock(&run->mu);
    if (!x.path) {
        fprintf(stderr, "wmx: rank %d: a key from another rank names no decision\n", run->rank);
        return;
    }
    decision *d = x.path[x.n - 1];
    pthread_mutex_lock(&d->mu);
    bool added = decision_add(d, a, run->nthreads);
    pthread_mutex_unlock(&d->mu);
    if (!added)
        return;
    rs_unit *u = wmx_malloc(sizeof *u + (size_t)x.n * sizeof *u->path);
    u->n = x.n;
    u->held = false;
    for (int k = 0; k < x.n; k++) {
        u->path[k] = x.path[k];
        hold(x.path[k]);
    }
    team_give(t, u);
}

static void replica_offer(rs *r, decision *d, const alt *a)
{
    rs_run *run = r->run;
    if (d->owner == run->rank) {
        owner_offer(run, r->team, d->id, *a);
        return;
    }
    wire w;
    wire_init(&w);
    wire_i32(&w, d->id);
    put_alt(&w, a, r->nthreads);
    run->net->post(run->net, d->owner, &w);
    wire_free(&w);
}

static void key_receive(wire_reader *rd, void *ctx, team *t)
{
    rs_run *run = ctx;
    int id = wire_get_i32(rd);
    int *buf = NULL;
    size_t cap = 0;
    alt a;
    if (get_alt(rd, &a, run->nthreads, &buf, &cap) && wire_done(rd))
        owner_offer(run, t, id, a);
    else
        fprintf(stderr, "wmx: rank %d: a key from another rank was corrupt\n", run->rank);
    free(buf);
}

static void run_free(rs_run *run)
{
    for (int i = 0; i < run->nnamed; i++) {
        for (int k = run->named[i].n - 1; k >= 0; k--)
            decision_release(run->named[i].path[k], run->nthreads);
        free(run->named[i].path);
    }
    free(run->named);
    pthread_mutex_destroy(&run->mu);
}

static bool iter_step(rfsmc_iter *it);
static void iter_finish(rfsmc_iter *it);

static void rfsmc_work(explore_worker *w)
{
    /* rfsmc_iter_new prepares the result itself */
    explore_result_free(&w->res);
    rfsmc_iter *it = rfsmc_iter_new(w->prog, &w->opts, &w->res, &w->err);
    if (!it) {
        explore_result_init(&w->res, w->prog, w->opts.model, ALGO_RFSMC);
        w->rc = -1;
        return;
    }
    rs *r = &it->r;
    r->direct = true;
    r->team = w->team;
    r->wid = w->id;
    r->run = w->ctx;
    it->started = !w->starts;    /* worker 0 (of rank 0) runs the root */
    for (;;) {
        while (iter_step(it))
            ;
        if (r->stop || !w->res.complete)
            break;
        rs_unit *u = team_take(w->team);
        if (!u)
            break;
        /* the unit's holds become this worker's path */
        if (u->n > r->capdec) {
            r->capdec = u->n * 2;
            r->dec = wmx_realloc(r->dec, (size_t)r->capdec * sizeof *r->dec);
        }
        for (int k = 0; k < u->n; k++)
            r->dec[k] = u->path[k];
        r->ndec = u->n;
        free(u);
    }
    iter_finish(it);
    rfsmc_iter_free(it);
}

/* One step of the search: the root, or the next alternative of the
 * deepest decision.  False when the search is over. */
static bool iter_step(rfsmc_iter *it)
{
    rs *r = &it->r;
    size_t nt = (size_t)(r->nthreads ? r->nthreads : 1);
    if (!it->started) {
        it->started = true;
        int *zero = wmx_calloc(nt, sizeof *zero);
        unsigned char *nofz = wmx_calloc(nt, 1);
        r->wlen = 0;
        run_node(r, -1, zero, nofz, false);
        free(zero);
        free(nofz);
        return true;
    }
    while (r->ndec > 0 && !r->stop) {
        if (explore_should_stop(&r->clk, r->opts, r->res, r->ndec)) {
            r->stop = true;
            break;
        }
        if (r->team && team_hungry(r->team))
            give_away(r);
        decision *d = r->dec[r->ndec - 1];
        alt a;
        bool have;
        if (d->shared)
            pthread_mutex_lock(&d->mu);
        have = d->next < alts_end(d);
        if (have)
            a = d->alts[d->next++];
        if (d->shared)
            pthread_mutex_unlock(&d->mu);
        if (!have) {
            pop_decision(r);
            continue;
        }
        explore_alt(r, r->ndec - 1, &a);
        return true;
    }
    return false;
}

bool rfsmc_iter_next(rfsmc_iter *it, explore_trace *tr)
{
    owned_free(&it->cur);
    while (it->qhead == it->qn) {
        if (it->finished || !iter_step(it)) {
            iter_finish(it);
            return false;
        }
    }
    it->cur = it->q[it->qhead++];
    *tr = it->cur.tr;
    return true;
}

void rfsmc_iter_free(rfsmc_iter *it)
{
    if (!it)
        return;
    rs *r = &it->r;
    if (!it->finished && r->res->complete && (it->qhead < it->qn || r->ndec > 0 || !it->started)) {
        explore_stop(r->res, "interrupted", "the class browser was closed early");
    }
    iter_finish(it);
    owned_free(&it->cur);
    for (int i = it->qhead; i < it->qn; i++)
        owned_free(&it->q[i]);
    free(it->q);
    while (r->ndec > 0)
        pop_decision(r);
    free(r->dec);
    graph_free(&r->g, r->nthreads);
    graph_free(&r->ng, r->nthreads);
    free(r->steps);
    free(r->events);
    free(r->order);
    free(r->sched);
    free(r->winfo);
    free(r->vc);
    free(r->obs);
    free(r->woff);
    free(r->wvals);
    free(r->sure);
    free(r->known);
    free(r->released);
    free(r->chain);
    free(r->pastw);
    free(r->wit);
    free(r->rev);
    free(r->rsteps);
    free(r->rstate);
    free(r->mstate);
    free(r->lstate);
    free(r->tmpcount);
    free(r->tmpcone);
    free(r->keybuf);
    free(r->rmwkeys);
    free(r->evstart);
    free(r->satstack);
    free(r->satwrites);
    free(r->bits);
    free(r->gwoff);
    free(r->gw);
    for (int t = 0; t < r->nthreads; t++) {
        free(r->fev[t]);
        free(r->fnode[t]);
    }
    free(r->fev);
    free(r->fnode);
    free(r->fevcap);
    thread_memo_free(r->memo);
    free(r->mcur);
    free(r->initstate);
    free(r->gneed);
    free(r->glastk);
    free(r->gnext);
    free(r->gflushed);
    free(r->gnbuf);
    free(r->gwit);
    free(r->evtab);
    machine_free(r->lm);
    machine_free(r->mm);
    free(it);
}

int explore_rfsmc(const wmx_program *prog, const explore_opts *opts,
                  explore_result *res, wmx_error *err)
{
    if (explore_split(opts)) {
        rs_run run = { .nthreads = prog->nthreads, .nworkers = explore_jobs(opts), .net = opts->net,
                       .rank = opts->net ? opts->net->rank : 0 };
        pthread_mutex_init(&run.mu, NULL);
        static const explore_codec codec = { unit_encode, unit_decode, unit_drop, key_receive };
        int rc = explore_parallel_net(prog, opts, ALGO_RFSMC, rfsmc_work, unit_drop, &codec, &run, res, err);
        run_free(&run);
        return rc;
    }
    rfsmc_iter *it = rfsmc_iter_new(prog, opts, res, err);
    if (!it)
        return -1;
    it->r.direct = true;       /* hand classes to on_trace, no queue */
    while (iter_step(it))
        ;
    iter_finish(it);
    rfsmc_iter_free(it);
    return 0;
}

/* ---- tests: units and keys as bytes (tests/unit/test_wire.c) ---- */

typedef struct rs_capture {
    team_net pub;                /* first: post() gets it */
    wire msg;
    int to, posts;
} rs_capture;

static void rs_capture_post(team_net *n, int to, const wire *msg)
{
    rs_capture *c = (rs_capture *)n;
    wire_reset(&c->msg);
    wire_put(&c->msg, msg->buf, msg->len);
    c->to = to;
    c->posts++;
}

static void selftest_run(rs_run *run, rs_capture *net, int rank, int nt)
{
    memset(net, 0, sizeof *net);
    wire_init(&net->msg);
    net->pub.rank = rank;
    net->pub.size = 3;
    net->pub.post = rs_capture_post;
    memset(run, 0, sizeof *run);
    pthread_mutex_init(&run->mu, NULL);
    run->net = &net->pub;
    run->rank = rank;
    run->nthreads = nt;
    run->nworkers = 2;
}

/* A random key: a cone of up to 3 events per thread, and reads in it. */
static alt selftest_alt(unsigned *x, int nt, int *buf)
{
    alt a = { (wmx_eid)(wire_selftest_next(x) % 5) - 2, 0, NULL, 0 };
    if (a.src < 0)
        a.src = wire_selftest_next(x) % 2 ? EID_INIT : SRC_ABSENT;
    else
        a.src = EID_MAKE((int)(wire_selftest_next(x) % (unsigned)nt), (int)(wire_selftest_next(x) % 4));
    a.hash = mix(0, (uint64_t)(uint32_t)a.src);
    if (a.src < 0)
        return a;
    a.data = buf;
    for (int t = 0; t < nt; t++)
        a.data[t] = (int)(wire_selftest_next(x) % 4);
    a.nextra = (int)(wire_selftest_next(x) % 3);
    for (int k = 0; k < 2 * a.nextra; k++)
        a.data[nt + k] = (int)(wire_selftest_next(x) % 64);
    for (int k = 0; k < nt + 2 * a.nextra; k++)
        a.hash = mix(a.hash, (uint64_t)a.data[k]);
    return a;
}

static decision *selftest_decision(unsigned *x, int nt, int *buf)
{
    size_t ntz = (size_t)(nt ? nt : 1);
    decision *d = wmx_calloc(1, sizeof *d);
    d->owner = d->id = -1;
    d->ev = EID_MAKE((int)(wire_selftest_next(x) % (unsigned)nt), (int)(wire_selftest_next(x) % 6));
    d->thread = EID_THREAD(d->ev);
    d->is_await = wire_selftest_next(x) % 2;
    d->taker = wire_selftest_next(x) % 2;
    d->src0 = (wmx_eid)(wire_selftest_next(x) % 9) - 1;
    d->cell = (int)(wire_selftest_next(x) % 5) - 1;
    d->cmp = (ir_op)(wire_selftest_next(x) % 3);
    d->operand = (wmx_val)wire_selftest_next(x) - 7;
    d->fcount = wmx_calloc(ntz, sizeof *d->fcount);
    d->frozen = wmx_calloc(ntz, 1);
    d->fsrc = wmx_calloc(ntz, sizeof *d->fsrc);
    for (int t = 0; t < nt; t++) {
        d->fcount[t] = (int)(wire_selftest_next(x) % 5);
        d->frozen[t] = wire_selftest_next(x) % 2;
        d->fsrc[t] = wmx_malloc((size_t)(d->fcount[t] + 1) * sizeof *d->fsrc[t]);
        for (int i = 0; i < d->fcount[t]; i++)
            d->fsrc[t][i] = (wmx_eid)(wire_selftest_next(x) % 40) - 1;
    }
    atomic_store(&d->fixed_offered, wire_selftest_next(x) % 2);
    atomic_store(&d->init_offered, wire_selftest_next(x) % 2);
    atomic_store(&d->init_refuted, wire_selftest_next(x) % 2);
    atomic_store(&d->absent_wanted, wire_selftest_next(x) % 2);
    d->nworkers = 2;
    d->wsettled = wmx_calloc(2, sizeof *d->wsettled);
    pthread_mutex_init(&d->mu, NULL);
    d->refs = 1;
    d->shared = true;
    int n = 1 + (int)(wire_selftest_next(x) % 6);
    for (int k = 0; k < n; k++)
        decision_add(d, selftest_alt(x, nt, buf), nt);
    d->next = (int)(wire_selftest_next(x) % (unsigned)(d->nalts + 1));
    return d;
}

/* Whether replica c carries d's fixed part, flags and name. */
static const char *same_decision(const decision *d, const decision *c, int nt)
{
    if (c->owner != d->owner || c->id != d->id || !c->replica)
        return "a replica's name differs";
    if (c->ev != d->ev || c->thread != d->thread || c->is_await != d->is_await || c->taker != d->taker ||
        c->src0 != d->src0 || c->cell != d->cell || c->cmp != d->cmp || c->operand != d->operand)
        return "a replica's fields differ";
    for (int t = 0; t < nt; t++) {
        if (c->fcount[t] != d->fcount[t] || c->frozen[t] != d->frozen[t])
            return "a replica's fixed part differs";
        if (memcmp(c->fsrc[t], d->fsrc[t], (size_t)d->fcount[t] * sizeof *d->fsrc[t]) != 0)
            return "a replica's fixed sources differ";
    }
    if (atomic_load(&c->fixed_offered) != atomic_load(&d->fixed_offered) ||
        atomic_load(&c->init_offered) != atomic_load(&d->init_offered) ||
        atomic_load(&c->init_refuted) != atomic_load(&d->init_refuted) ||
        atomic_load(&c->absent_wanted) != atomic_load(&d->absent_wanted))
        return "a replica's flags differ";
    return NULL;
}

/* The batch at c is d's alts[from, from + b). */
static const char *same_batch(const decision *d, int from, int b, const decision *c, int nt)
{
    if (c->nbatch != b || c->nalts != b || c->next != 0)
        return "a batch has the wrong size";
    for (int i = 0; i < b; i++)
        if (c->alts[i].src != d->alts[from + i].src || c->alts[i].hash != d->alts[from + i].hash ||
            !key_equal(&c->alts[i], &d->alts[from + i], nt))
            return "a batch's keys differ";
    return NULL;
}

const char *rfsmc_wire_selftest(const wmx_program *p, unsigned seed)
{
    int nt = p->nthreads;
    if (nt < 2)
        return "rfsmc: the program needs two threads";
    unsigned x = seed * 2654435761u + 11;
    int *buf = wmx_malloc((size_t)(nt + 8) * sizeof *buf);
    rs_run ra, rb;
    rs_capture na, nb;
    selftest_run(&ra, &na, 0, nt);
    selftest_run(&rb, &nb, 1, nt);
    const char *why = NULL;
    /* a path of rank 0's decisions */
    int n = 1 + (int)(wire_selftest_next(&x) % 4);
    rs_unit *u = wmx_calloc(1, sizeof *u + (size_t)n * sizeof *u->path);
    u->n = n;
    u->held = wire_selftest_next(&x) % 2;   /* a giver's unit: half goes */
    for (int k = 0; k < n; k++)
        u->path[k] = selftest_decision(&x, nt, buf);
    decision *deep = u->path[n - 1];
    int from = deep->next, left = deep->nalts - deep->next, b = u->held ? (left + 1) / 2 : left;
    wire w;
    wire_init(&w);
    unit_encode(u, &ra, &w);
    if (deep->next != from + b)
        why = "the batch did not leave the sender";
    wire_reader rd;
    wire_reader_init(&rd, w.buf, w.len);
    rs_unit *v = why ? NULL : unit_decode(&rd, &rb);
    if (!why && !v)
        why = "a unit read back was refused";
    for (int k = 0; !why && k < n; k++)
        if (u->path[k]->owner != 0 || u->path[k]->id != k)
            why = "a sent decision was not named";
    for (int k = 0; !why && k < n; k++)
        why = same_decision(u->path[k], v->path[k], nt);
    if (!why)
        why = same_batch(deep, from, b, v->path[n - 1], nt);
    /* short bytes are refused */
    if (!why && w.len > 0) {
        size_t cut = (size_t)(wire_selftest_next(&x) % w.len);
        wire_reader_init(&rd, w.buf, cut);
        rs_unit *bad = unit_decode(&rd, &rb);
        if (bad) {
            unit_drop(bad, &rb);
            why = "a cut unit was read";
        }
    }
    /* back from rank 1 to the owner: replicas again, named as before */
    if (!why) {
        decision *vd = v->path[n - 1];
        int vfrom = vd->next, vb = vd->nbatch - vd->next;
        wire_reset(&w);
        unit_encode(v, &rb, &w);
        wire_reader_init(&rd, w.buf, w.len);
        rs_unit *back = unit_decode(&rd, &ra);
        if (!back)
            why = "a unit sent back was refused";
        for (int k = 0; !why && k < n; k++)
            why = same_decision(u->path[k], back->path[k], nt);
        if (!why)
            why = same_batch(vd, vfrom, vb, back->path[n - 1], nt);
        if (back)
            unit_drop(back, &ra);
    }
    /* a key offered below rank 1's replica reaches rank 0's decision,
     * with a unit of its path when it is new there */
    if (!why) {
        rs rsb;
        memset(&rsb, 0, sizeof rsb);
        explore_opts no_limits;
        memset(&no_limits, 0, sizeof no_limits);
        rsb.run = &rb;
        rsb.opts = &no_limits;
        rsb.nthreads = nt;
        rsb.dec = v->path;
        rsb.ndec = n;
        decision *vd = v->path[n - 1];
        alt a = selftest_alt(&x, nt, buf);
        bool at_replica = alt_known(vd, &a, nt), fresh = !alt_known(deep, &a, nt);
        int before = deep->nalts;
        offer_key(&rsb, n - 1, a);
        if ((nb.posts > 0) == at_replica || (nb.posts > 0 && nb.to != 0))
            why = "a key new at a replica did not go to its owner (or a known one did)";
        for (int round = 0; round < 2 && !why && nb.posts > 0; round++) {
            /* the second time the key is known there: nothing is queued */
            team *ta = team_new(1);
            wire_reader_init(&rd, nb.msg.buf, nb.msg.len);
            key_receive(&rd, &ra, ta);
            team_abort(ta);
            rs_unit *got = team_drain(ta);
            bool queued = fresh && round == 0;
            if (deep->nalts != before + (fresh ? 1 : 0))
                why = "the owner did not keep a new key, or kept a known one";
            else if (queued ? !got || got->n != n || got->path[n - 1] != deep : got != NULL)
                why = "a new key at the owner came without a unit of its path (or a known one with one)";
            if (got)
                unit_drop(got, &ra);
            team_free(ta);
        }
    }
    if (v)
        unit_drop(v, &rb);
    unit_drop(u, &ra);
    run_free(&ra);
    run_free(&rb);
    wire_free(&w);
    wire_free(&na.msg);
    wire_free(&nb.msg);
    free(buf);
    return why;
}
