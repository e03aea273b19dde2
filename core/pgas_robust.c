/* pgas_robust.c - deciding robustness of PGAS programs (seed 001 §3-5).
 *
 * The happens-before summary.  Call the ↔-class of a read/write command
 * (command, popa, popb) *open* while its popb is pending; only open classes
 * can still receive edges, so every new cycle closes at an open class.
 * Edges only ever enter the newest event, and only from these frontier
 * events: the last issued event of each rank (po), the last write of each
 * address and the reads of it since (cf).  The summary keeps, for each
 * frontier event and each open class, the set of open classes that reach it
 * (a 64-bit mask over the open classes, numbered by (rank, queue) and then
 * by age - exactly the order of the queue entries fb ++ fa, so the numbering
 * is canonical).  Adding an event e of class C with incoming sources S:
 *   cycle          iff C is open and C ∈ S (C reaches a source of e);
 *   propagation    every mask containing C gains S;
 *   reach(e)       = reach(C) when C is open, else S;
 * a class that closes (its popb) leaves every mask.  A barrier is one class
 * of N bar events, closed at once.  This is the exact information the future
 * needs, so a visited set of (machine state, summary) is exact.
 *
 * PGAS_SEARCH explores all computations with it.  PGAS_NF explores only the
 * normal-form computations τ1·τ2·τ3·τ4 of seed Definition 4, as the
 * automaton Y(P,N) of §5.2 generates them: each request gets, when issued,
 * the parts (pa ≤ pb, non-decreasing per queue) of its popa and popb; part-1
 * pops happen right after the command, later ones are appended, in issue
 * order, after τ1 ends - which can be at any state, so every state is also
 * checked with τ2..τ4 appended.  By Theorem 5 both answer the same.
 */
#include "pgas.h"
#include "pgas_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_MAX_STATES 4000000L
#define MAX_OPEN 64

typedef struct rctx {
    const pgas_machine *m;
    const wmx_program *p;
    pgas_method method;
    int N, C, Q;
    size_t msize;          /* machine state */
    size_t nmask;          /* N + 2NC + MAX_OPEN words */
    size_t wsize;          /* working state: machine + masks + nf order */
    bool overflow;         /* more than MAX_OPEN requests in flight */
    pgas_store *memo;      /* nf: sub-searches of τ2..τ4 known to find no cycle */
    const pgas_opts *o;    /* timeout, cancel and progress, polled by the inner searches too */
    double t0;
    long finish_left;      /* steps left for all of nf's τ2..τ4 searches together */
    const char *stop;      /* why an inner search stopped early, or NULL */
    long nstates;          /* states so far, for the progress hook */
} rctx;

/* Working state = machine state | masks | nf order (MAX_OPEN x 3 bytes). */
static uint64_t *masks(const rctx *c, void *w) { return (uint64_t *)((char *)w + c->msize); }
static uint8_t *order(const rctx *c, void *w) { return (uint8_t *)(masks(c, w) + c->nmask); }
#define PO(S, r)  (S)[(r)]
#define LW(S, a)  (S)[c->N + (a)]
#define RS(S, a)  (S)[c->N + (size_t)c->N * c->C + (a)]
#define RO(S, p)  (S)[c->N + (size_t)2 * c->N * c->C + (p)]


static int count(const rctx *c, const void *s, int r, int q, int level)
{
    const pgas_entry *e;
    return pgas_queue(c->m, s, r, q, level, &e);
}

/* First open-class position of queue (r,q). */
static int seg_base(const rctx *c, const void *s, int r, int q)
{
    int b = 0;
    for (int rr = 0; rr < c->N; rr++)
        for (int qq = 0; qq < c->Q; qq++) {
            if (rr == r && qq == q)
                return b;
            b += count(c, s, rr, qq, 0) + count(c, s, rr, qq, 1);
        }
    return b;
}

static int open_total(const rctx *c, const void *s)
{
    return seg_base(c, s, c->N, 0);
}

static uint64_t low(int p) { return p >= 64 ? ~0ULL : ((1ULL << p) - 1); }

static void insert_pos(const rctx *c, uint64_t *S, int p, int K)
{
    for (size_t i = 0; i < c->nmask; i++) {
        uint64_t w = S[i];
        S[i] = (w & low(p)) | ((w & ~low(p)) << 1);
    }
    uint64_t *ro = &RO(S, 0);
    memmove(ro + p + 1, ro + p, (size_t)(K - p) * sizeof *ro);
    ro[p] = 0;
}

static void remove_pos(const rctx *c, uint64_t *S, int p, int K)
{
    uint64_t *ro = &RO(S, 0);
    memmove(ro + p, ro + p + 1, (size_t)(K - p - 1) * sizeof *ro);
    ro[K - 1] = 0;
    for (size_t i = 0; i < c->nmask; i++) {
        uint64_t w = S[i] & ~(1ULL << p);
        S[i] = (w & low(p)) | ((w >> 1) & ~low(p));
    }
}

/* Edges S -> the open class at p: cycle test, then propagation. */
static bool into_open(const rctx *c, uint64_t *S, int p, uint64_t src)
{
    if (src >> p & 1)
        return true;
    uint64_t bit = 1ULL << p;
    for (size_t i = 0; i < c->nmask; i++)
        if (S[i] & bit)
            S[i] |= src;
    return false;
}

/* Applies transition t to the working state w (machine and summary);
 * returns true when the new event closes a happens-before cycle. */
static bool step(rctx *c, void *w, const pgas_transition *t)
{
    void *s = w;
    uint64_t *S = masks(c, w);
    int NC = c->C;
    bool cyc = false;
    switch (t->kind) {
    case PT_BARRIER: {
        uint64_t src = 0;
        for (int r = 0; r < c->N; r++)
            src |= PO(S, r);
        for (int r = 0; r < c->N; r++)
            PO(S, r) = src;
        break;
    }
    case PT_POPA: {
        const pgas_entry *e;
        pgas_queue(c->m, s, t->rank, t->queue, 0, &e);
        int p = seg_base(c, s, t->rank, t->queue) + count(c, s, t->rank, t->queue, 1);
        int a = e[0].src_rank * NC + e[0].src_cell;
        cyc = into_open(c, S, p, LW(S, a));
        RS(S, a) |= RO(S, p);
        break;
    }
    case PT_POPB: {
        const pgas_entry *e;
        pgas_queue(c->m, s, t->rank, t->queue, 1, &e);
        int p = seg_base(c, s, t->rank, t->queue);
        int a = e[0].dst_rank * NC + e[0].dst_cell;
        cyc = into_open(c, S, p, LW(S, a) | RS(S, a));
        LW(S, a) = RO(S, p);
        RS(S, a) = 0;
        remove_pos(c, S, p, open_total(c, s));
        break;
    }
    case PT_STEP: {
        int r = t->rank;
        const ir_instr *in = &c->p->threads[0].instrs[pgas_pc(c->m, s, r)];
        const wmx_val *regs = pgas_regs(c->m, s, r);
        if (in->kind == I_LOAD) {
            int a = r * NC + ir_address_cell(c->p, &in->addr, regs);
            uint64_t reach = PO(S, r) | LW(S, a);
            RS(S, a) |= reach;
            PO(S, r) = reach;
        } else if (in->kind == I_STORE) {
            int a = r * NC + ir_address_cell(c->p, &in->addr, regs);
            uint64_t reach = PO(S, r) | LW(S, a) | RS(S, a);
            LW(S, a) = reach;
            RS(S, a) = 0;
            PO(S, r) = reach;
        } else if (in->kind == I_PREAD || in->kind == I_PWRITE) {
            int q = (int)ir_eval(c->p, in->e2, regs, NULL);
            int K = open_total(c, s);
            if (K >= MAX_OPEN) {
                c->overflow = true;
                return false;
            }
            int p = seg_base(c, s, r, q) + count(c, s, r, q, 0) + count(c, s, r, q, 1);
            insert_pos(c, S, p, K);
            RO(S, p) = PO(S, r) | 1ULL << p;
            PO(S, r) = RO(S, p);
        }
        break;
    }
    }
    pgas_apply(c->m, s, t, NULL);
    return cyc;
}

/* ---- normal form: the order list holds, per delayed request in issue
 * order, rank * Q + queue (3 bytes per entry, the other two unused).  Every
 * open request is delayed in nf mode: part-1 pops happen at issue. ---- */

static int nf_len(const rctx *c, const void *w) { return open_total(c, w); }

/* Appending τ2·τ3·τ4: Y(P,N) puts each delayed pop into a part 2..4, per
 * queue in FIFO order (so parts never decrease along a queue), a popb no
 * earlier than its popa, and lists each part in the issue order of the
 * commands.  Depth-first over those choices: at each pending pop, take it
 * into the current part or defer it (and with it every later pop of that
 * kind and queue) to a later part. */
typedef struct finish {
    rctx *c;
    int K;
    uint8_t lab[MAX_OPEN];
    uint8_t pend[MAX_OPEN][2];
    uint8_t deferred[2][WMX_PGAS_MAX_RANKS * WMX_PGAS_MAX_QUEUES];
    pgas_transition out[2 * MAX_OPEN];
    int nout;
} finish;

static const char finish_budget[] = "normal-form search budget";

static bool fin_dfs(finish *f, const void *w, int part, int j, int lvl)
{
    for (;;) {
        if (j == f->K) {
            if (part == 4)
                return false;
            part++;
            j = 0;
            lvl = 0;
            memset(f->deferred, 0, sizeof f->deferred);
            continue;
        }
        if (lvl == 2) {
            j++;
            lvl = 0;
            continue;
        }
        if (!f->pend[j][lvl]) {
            lvl++;
            continue;
        }
        break;
    }
    /* one budget for every call, not one per call: each step keeps a memo
     * key, so the memo is bounded with it (a fuzzed program once spent
     * 50M steps in a single call) */
    if (f->c->stop)
        return false;
    if (--f->c->finish_left < 0) {
        f->c->stop = finish_budget;
        return false;
    }
    if ((f->c->finish_left & 1023) == 0 && (f->c->stop = pgas_poll(f->c->o, f->c->t0, f->c->nstates)) != NULL)
        return false;
    /* the rest depends only on: where we are, which pops are pending (and
     * their addresses), the deferrals, and the cf/<-> part of the summary */
    {
        rctx *c = f->c;
        size_t nl = (size_t)c->N * c->Q;
        size_t cap = 8 + (size_t)f->K * 3 + 2 * nl + (size_t)f->K * 8 + (c->nmask - c->N) * 8;
        unsigned char *key = wmx_malloc(cap);
        size_t o = 0;
        key[o++] = (unsigned char)part;
        key[o++] = (unsigned char)j;
        key[o++] = (unsigned char)lvl;
        key[o++] = (unsigned char)f->K;
        for (int i = 0; i < f->K; i++) {
            key[o++] = f->lab[i];
            key[o++] = f->pend[i][0];
            key[o++] = f->pend[i][1];
        }
        memcpy(key + o, f->deferred[0], nl);
        o += nl;
        memcpy(key + o, f->deferred[1], nl);
        o += nl;
        for (int r = 0; r < c->N; r++)
            for (int q = 0; q < c->Q; q++)
                for (int l = 1; l >= 0; l--) {
                    const pgas_entry *e;
                    int n = pgas_queue(c->m, w, r, q, l, &e);
                    for (int i = 0; i < n; i++) {
                        int16_t a[4] = { e[i].src_rank, e[i].src_cell, e[i].dst_rank, e[i].dst_cell };
                        memcpy(key + o, a, sizeof a);
                        o += sizeof a;
                    }
                }
        int Kopen = open_total(c, w);
        const uint64_t *S = masks(c, (void *)w);
        size_t nm = (size_t)2 * c->N * c->C + (size_t)Kopen;
        memcpy(key + o, S + c->N, nm * 8);
        o += nm * 8;
        bool added;
        pgas_store_add(c->memo, key, o, -1, (pgas_xstep){ 0 }, &added);
        free(key);
        if (!added)
            return false;
    }
    int L = f->lab[j];
    bool can_take = !f->deferred[lvl][L] && (lvl == 0 || !f->pend[j][0]);
    if (can_take) {
        void *t = wmx_malloc(f->c->wsize);
        memcpy(t, w, f->c->wsize);
        pgas_transition tr = { lvl == 0 ? PT_POPA : PT_POPB, L / f->c->Q, L % f->c->Q };
        f->out[f->nout++] = tr;
        f->pend[j][lvl] = 0;
        bool cyc = step(f->c, t, &tr) || fin_dfs(f, t, part, j, lvl + 1);
        free(t);
        if (cyc)
            return true;
        f->pend[j][lvl] = 1;
        f->nout--;
    }
    if (part < 4) {
        uint8_t was = f->deferred[lvl][L];
        f->deferred[lvl][L] = 1;
        bool cyc = fin_dfs(f, w, part, j, lvl + 1);
        f->deferred[lvl][L] = was;
        if (cyc)
            return true;
    }
    return false;
}

/* Whether some τ2·τ3·τ4 closes a cycle after the τ1 that led to w; the
 * pops are left in out.  c->stop is set when the budget, the timeout or a
 * cancel stopped the search. */
static bool nf_finish(rctx *c, const void *w, pgas_transition *out, int *nout)
{
    int K = nf_len(c, w);
    *nout = 0;
    if (K == 0)
        return false;
    finish *f = wmx_calloc(1, sizeof *f);
    f->c = c;
    f->K = K;
    const uint8_t *o = order(c, (void *)w);
    /* which pops are pending: the k-th delayed request of a queue is its
     * k-th entry, fb (popa done) before fa */
    int seen[WMX_PGAS_MAX_RANKS * WMX_PGAS_MAX_QUEUES] = { 0 };
    for (int i = 0; i < K; i++) {
        int L = o[3 * i];
        f->lab[i] = (uint8_t)L;
        int nb = count(c, w, L / c->Q, L % c->Q, 1);
        f->pend[i][0] = seen[L] >= nb;
        f->pend[i][1] = 1;
        seen[L]++;
    }
    bool cyc = fin_dfs(f, w, 2, 0, 0);
    if (cyc) {
        memcpy(out, f->out, (size_t)f->nout * sizeof *out);
        *nout = f->nout;
    }
    free(f);
    return cyc;
}

/* Canonical key of a working state. */
static size_t wkey(const rctx *c, void *w, unsigned char *key)
{
    size_t o = pgas_key(c->m, w, key);
    int K = open_total(c, w);
    uint64_t *S = masks(c, w);
    size_t fixed = (size_t)c->N + (size_t)2 * c->N * c->C;
    memcpy(key + o, S, (fixed + (size_t)K) * sizeof *S);
    o += (fixed + (size_t)K) * sizeof *S;
    if (c->method == PGAS_NF) {
        memcpy(key + o, order(c, w), (size_t)K * 3);
        o += (size_t)K * 3;
    }
    return o;
}

static void unwkey(const rctx *c, const unsigned char *key, void *w)
{
    memset(w, 0, c->wsize);
    pgas_unkey(c->m, key, w);
    size_t o = pgas_key_len(c->m, w);
    int K = open_total(c, w);
    size_t fixed = (size_t)c->N + (size_t)2 * c->N * c->C;
    memcpy(masks(c, w), key + o, (fixed + (size_t)K) * sizeof(uint64_t));
    o += (fixed + (size_t)K) * sizeof(uint64_t);
    if (c->method == PGAS_NF)
        memcpy(order(c, w), key + o, (size_t)K * 3);
}

/* In nf mode, a read/write step; pa == 1: its popa follows at once (part
 * 1), pb == 1: its popb too; otherwise they are delayed (parts 2..4, chosen
 * when τ1 ends).  Returns true on a cycle. */
static bool nf_request(rctx *c, void *w, int r, int pa, int pb)
{
    const ir_instr *in = &c->p->threads[0].instrs[pgas_pc(c->m, w, r)];
    int q = (int)ir_eval(c->p, in->e2, pgas_regs(c->m, w, r), NULL);
    int K = open_total(c, w);
    pgas_transition t = { PT_STEP, r, -1 };
    if (step(c, w, &t))
        return true;
    /* the request is in its queue even when the local code after it then
     * failed (an assertion): it needs its place in the order list, or
     * nf_finish pops a queue that entry does not name (an empty one) */
    if (!c->overflow && open_total(c, w) > K) {
        uint8_t *o = order(c, w);
        o[3 * K] = (uint8_t)(r * c->Q + q);
        o[3 * K + 1] = o[3 * K + 2] = 0;
    }
    if (c->overflow || pgas_rank_fault(c->m, w, r) != PF_NONE)
        return false;
    if (pa == 1) {
        pgas_transition ta = { PT_POPA, r, q };
        if (step(c, w, &ta))
            return true;
    }
    if (pb == 1) {
        /* the request leaves the order list: it was the newest */
        pgas_transition tb = { PT_POPB, r, q };
        if (step(c, w, &tb))
            return true;
    }
    return false;
}

/* ---- reporting: events of the computation and a Lemma 17 cycle ---- */

typedef struct egraph {
    int n;
    const pgas_event *ev;
    int *cls;           /* ↔ class id */
    int *iss;           /* the issued event of the class in this rank */
    int *poi;           /* po index of issued events (per rank), -1 for pops */
    int *bar;           /* barrier number for bar events, else -1 */
    int ncf;
    int (*cf)[2];
} egraph;

static bool is_pop(pgas_ev_kind k) { return k == PE_POPA || k == PE_POPB; }
static bool is_readk(pgas_ev_kind k) { return k == PE_LOAD || k == PE_POPA; }
static bool is_writek(pgas_ev_kind k) { return k == PE_STORE || k == PE_POPB; }

static void egraph_build(egraph *g, const pgas_machine *m, const pgas_event *ev, int n)
{
    int N = pgas_nranks(m), Q = pgas_nqueues(m), C = pgas_program(m)->ncells;
    g->n = n;
    g->ev = ev;
    g->cls = wmx_malloc(((size_t)n + 1) * sizeof(int));
    g->iss = wmx_malloc(((size_t)n + 1) * sizeof(int));
    g->poi = wmx_malloc(((size_t)n + 1) * sizeof(int));
    g->bar = wmx_malloc(((size_t)n + 1) * sizeof(int));
    int *pocount = wmx_calloc((size_t)N, sizeof(int));
    int *barcount = wmx_calloc((size_t)N, sizeof(int));
    /* FIFO matching of pops to their commands */
    int *fa = wmx_malloc((size_t)N * Q * (size_t)(n + 1) * sizeof(int));
    int *fb = wmx_malloc((size_t)N * Q * (size_t)(n + 1) * sizeof(int));
    int *fah = wmx_calloc((size_t)N * Q, sizeof(int)), *fat = wmx_calloc((size_t)N * Q, sizeof(int));
    int *fbh = wmx_calloc((size_t)N * Q, sizeof(int)), *fbt = wmx_calloc((size_t)N * Q, sizeof(int));
    int *firstbar = wmx_malloc(((size_t)n + 1) * sizeof(int));
    for (int i = 0; i < n; i++) {
        const pgas_event *e = &ev[i];
        int rq = e->rank * Q + (e->queue >= 0 ? e->queue : 0);
        g->bar[i] = -1;
        g->poi[i] = -1;
        if (!is_pop(e->kind))
            g->poi[i] = pocount[e->rank]++;
        g->cls[i] = i;
        g->iss[i] = i;
        switch (e->kind) {
        case PE_READ: case PE_WRITE:
            fa[(size_t)rq * (n + 1) + fat[rq]++] = i;
            break;
        case PE_POPA: {
            int c = fa[(size_t)rq * (n + 1) + fah[rq]++];
            fb[(size_t)rq * (n + 1) + fbt[rq]++] = c;
            g->cls[i] = c;
            g->iss[i] = c;
            break;
        }
        case PE_POPB: {
            int c = fb[(size_t)rq * (n + 1) + fbh[rq]++];
            g->cls[i] = c;
            g->iss[i] = c;
            break;
        }
        case PE_BAR: {
            int k = barcount[e->rank]++;
            g->bar[i] = k;
            if (e->rank == 0 || k >= n)
                firstbar[k] = i;
            break;
        }
        default:
            break;
        }
    }
    /* bar events of barrier k share the class of rank 0's */
    for (int i = 0; i < n; i++)
        if (ev[i].kind == PE_BAR)
            g->cls[i] = firstbar[g->bar[i]];
    /* cf: immediate conflicts per address */
    g->ncf = 0;
    g->cf = wmx_malloc(((size_t)n * n + 1) * sizeof *g->cf);
    for (int a = 0; a < N * C; a++) {
        int lastw = -1;
        for (int i = 0; i < n; i++) {
            const pgas_event *e = &ev[i];
            if (e->cell < 0 || e->addr_rank * C + e->cell != a)
                continue;
            if (is_readk(e->kind)) {
                if (lastw >= 0) {
                    g->cf[g->ncf][0] = lastw;
                    g->cf[g->ncf++][1] = i;
                }
            } else if (is_writek(e->kind)) {
                if (lastw >= 0) {
                    g->cf[g->ncf][0] = lastw;
                    g->cf[g->ncf++][1] = i;
                }
                for (int j = lastw + 1; j < i; j++) {
                    const pgas_event *x = &ev[j];
                    if (x->cell >= 0 && x->addr_rank * C + x->cell == a && is_readk(x->kind)) {
                        g->cf[g->ncf][0] = j;
                        g->cf[g->ncf++][1] = i;
                    }
                }
                lastw = i;
            }
        }
    }
    free(pocount); free(barcount); free(fa); free(fb);
    free(fah); free(fat); free(fbh); free(fbt); free(firstbar);
}

static void egraph_free(egraph *g)
{
    free(g->cls); free(g->iss); free(g->poi); free(g->bar); free(g->cf);
}

/* Searching a cycle a1 ↔* b1 →po* c1 ↔* d1 ⇝ a2 ... ⇝ a1 with distinct
 * ranks (seed Lemma 17), fewest segments first. */
typedef struct cyc_search {
    const egraph *g;
    int start;
    int k;              /* segments wanted */
    int a[WMX_PGAS_MAX_RANKS + 1], d[WMX_PGAS_MAX_RANKS + 1];
    long budget;
    const pgas_opts *o;     /* the timeout and cancel stop this search too */
    long states;            /* for the progress hook */
    double t0;
} cyc_search;

/* d ⇝ x: cf edge, or the bar events of one barrier (different ranks). */
static bool leads(const egraph *g, int d, int x)
{
    if (g->ev[d].kind == PE_BAR && g->ev[x].kind == PE_BAR && d != x && g->cls[d] == g->cls[x])
        return true;
    for (int i = 0; i < g->ncf; i++)
        if (g->cf[i][0] == d && g->cf[i][1] == x)
            return true;
    return false;
}

static bool is_cf(const egraph *g, int d, int x)
{
    for (int i = 0; i < g->ncf; i++)
        if (g->cf[i][0] == d && g->cf[i][1] == x)
            return true;
    return false;
}

static bool cyc_dfs(cyc_search *cs, int depth, unsigned used, bool nontrivial)
{
    const egraph *g = cs->g;
    if (--cs->budget < 0)
        return false;
    if ((cs->budget & 1023) == 0 && pgas_poll(cs->o, cs->t0, cs->states)) {
        cs->budget = 0;
        return false;
    }
    int a = cs->a[depth];
    int ra = g->ev[a].rank;
    for (int d = 0; d < g->n; d++) {
        if (g->ev[d].rank != ra || g->poi[g->iss[d]] < g->poi[g->iss[a]])
            continue;
        bool nt = nontrivial || g->iss[d] != g->iss[a];
        cs->d[depth] = d;
        if (depth + 1 == cs->k) {
            if (leads(g, d, cs->start) && (nt || is_cf(g, d, cs->start)))
                return true;
            continue;
        }
        for (int x = 0; x < g->n; x++) {
            int rx = g->ev[x].rank;
            if (used >> rx & 1 || !leads(g, d, x))
                continue;
            cs->a[depth + 1] = x;
            if (cyc_dfs(cs, depth + 1, used | 1u << rx, nt || is_cf(g, d, x)))
                return true;
        }
    }
    return false;
}

static void add_elem(pgas_robust_result *res, int event, int seg, const char *role)
{
    if (res->ncycle > 0 && res->cycle[res->ncycle - 1].event == event) {
        pgas_cycle_elem *e = &res->cycle[res->ncycle - 1];
        size_t l = strlen(e->role);
        snprintf(e->role + l, sizeof e->role - l, "=%s", role);
        return;
    }
    res->cycle = wmx_realloc(res->cycle, (size_t)(res->ncycle + 1) * sizeof *res->cycle);
    pgas_cycle_elem *e = &res->cycle[res->ncycle++];
    e->event = event;
    e->seg = seg;
    snprintf(e->role, sizeof e->role, "%s", role);
}

static void find_cycle(const pgas_machine *m, pgas_robust_result *res, int nprefix,
                       const pgas_opts *o, double t0)
{
    egraph g;
    egraph_build(&g, m, res->events, nprefix);
    cyc_search cs = { .g = &g, .budget = 20000000L, .o = o, .t0 = t0, .states = res->states };
    int N = pgas_nranks(m);
    bool found = false;
    for (int k = 1; k <= N && !found; k++) {
        cs.k = k;
        /* the detected cycle goes through the last event: try it first */
        for (int pass = 0; pass < 2 && !found; pass++)
            for (int s = nprefix - 1; s >= 0 && !found; s--) {
                bool through_last = g.cls[s] == g.cls[nprefix - 1];
                if ((pass == 0) != through_last)
                    continue;
                cs.start = s;
                cs.a[0] = s;
                found = cyc_dfs(&cs, 0, 1u << g.ev[s].rank, false);
            }
    }
    res->lemma17 = found;
    if (found) {
        /* start at the segment of the smallest rank, as the seed counts */
        int first = 0;
        for (int i = 1; i < cs.k; i++)
            if (g.ev[cs.a[i]].rank < g.ev[cs.a[first]].rank)
                first = i;
        int ra[WMX_PGAS_MAX_RANKS + 1] = { 0 }, rd[WMX_PGAS_MAX_RANKS + 1] = { 0 };
        for (int i = 0; i < cs.k; i++) {
            ra[i] = cs.a[(first + i) % cs.k];
            rd[i] = cs.d[(first + i) % cs.k];
        }
        memcpy(cs.a, ra, sizeof ra);
        memcpy(cs.d, rd, sizeof rd);
        for (int i = 0; i < cs.k; i++) {
            add_elem(res, cs.a[i], i, "a");
            add_elem(res, g.iss[cs.a[i]], i, "b");
            add_elem(res, g.iss[cs.d[i]], i, "c");
            add_elem(res, cs.d[i], i, "d");
        }
        if (res->ncycle > 1 && res->cycle[res->ncycle - 1].event == res->cycle[0].event)
            res->ncycle--;     /* cannot happen with distinct ranks; kept safe */
        for (int i = 0; i < res->ncycle; i++) {
            int x = res->cycle[i].event, y = res->cycle[(i + 1) % res->ncycle].event;
            res->cycle[i].next = g.cls[x] == g.cls[y] ? PGAS_REL_ID
                               : g.ev[x].rank == g.ev[y].rank && g.poi[x] >= 0 && g.poi[x] < g.poi[y] ? PGAS_REL_PO
                               : PGAS_REL_CF;
        }
    }
    egraph_free(&g);
}

int pgas_robust(const wmx_program *p, pgas_method method, const pgas_opts *o,
                pgas_robust_result *res, wmx_error *err)
{
    memset(res, 0, sizeof *res);
    res->method = method;
    res->complete = true;
    res->robust = true;
    double t0 = pgas_now();
    if (method == PGAS_NF) {
        /* Theorem 5's normal form moves pops after the end of τ1; a quiet
         * forbids moving a rank's pops past it, so nf would not be exact */
        const ir_thread *th = &p->threads[0];
        for (int i = 0; p->nthreads == 1 && i < th->ninstrs; i++)
            if (th->instrs[i].kind == I_QUIET) {
                wmx_error_set(err, p->file, th->instrs[i].loc.line, th->instrs[i].loc.col,
                              "--method nf does not support 'quiet' (the normal form may delay a "
                              "rank's remote accesses past it); use --method search, which is exact "
                              "with quiet");
                return -1;
            }
    }
    pgas_machine *m = pgas_machine_new(p, o->nranks, o->qcap, err);
    if (!m)
        return -1;
    rctx c = { .m = m, .p = p, .method = method, .N = pgas_nranks(m), .C = p->ncells,
               .Q = pgas_nqueues(m) };
    res->nranks = c.N;
    res->nqueues = c.Q;
    c.msize = (pgas_state_size(m) + 7) & ~(size_t)7;
    c.nmask = (size_t)c.N + (size_t)2 * c.N * c.C + MAX_OPEN;
    c.wsize = c.msize + c.nmask * 8 + 3 * MAX_OPEN;
    long max_states = o->max_states > 0 ? o->max_states : DEFAULT_MAX_STATES;
    c.o = o;
    c.t0 = t0;
    /* each finishing step keeps a memo key, about as big as a state */
    c.finish_left = 4 * max_states;
    pgas_store memo;
    pgas_store_init(&memo);
    c.memo = &memo;
    void *w = wmx_calloc(1, c.wsize), *t = wmx_calloc(1, c.wsize), *tmp = wmx_calloc(1, c.wsize);
    unsigned char *key = wmx_malloc(pgas_key_max(m) + c.nmask * 8 + 3 * MAX_OPEN);
    pgas_transition *tr = wmx_malloc((size_t)pgas_max_enabled(m) * sizeof *tr);
    pgas_transition finish[2 * MAX_OPEN];
    int nfinish = 0;
    pgas_store st;
    pgas_store_init(&st);
    pgas_init(m, w);
    bool added;
    pgas_store_add(&st, key, wkey(&c, w, key), -1, (pgas_xstep){ 0 }, &added);
    long viol_node = -1;           /* the node reached by the violating step */
    pgas_xstep viol_step = { 0 };
    bool viol_finish = false;
    int rc = 0;
    /* search: breadth first (short witnesses); nf: depth first, which
     * reaches the ends of τ1, where violations are looked for, soonest */
    long *todo = wmx_malloc(1024 * sizeof *todo), ntodo = 0, captodo = 1024, head = 0;
    todo[ntodo++] = 0;
    for (long iter = 0; head < ntodo && viol_node < 0; iter++) {
        long i = method == PGAS_NF ? todo[--ntodo] : todo[head++];
        const char *stop = (iter & 1023) == 0 ? pgas_poll(o, t0, st.n) : NULL;
        if (stop) {
            res->complete = false;
            res->stop_reason = stop;
            break;
        }
        unwkey(&c, pgas_store_key(&st, i), w);
        int fr = pgas_fault_rank(m, w);
        if (fr >= 0) {
            if (pgas_rank_fault(m, w, fr) == PF_QFULL) {
                res->complete = false;
                res->stop_reason = "queue capacity";
                continue;
            }
            pgas_fault_error(m, w, fr, err);
            rc = -1;
            break;
        }
        int n = pgas_enabled(m, w, tr);
        /* τ2..τ4 only after a τ1 that cannot go on: appending more of τ1
         * before the delayed pops only inserts events, and insertions keep
         * every po/cf path (an inserted write splits a cf edge into two), so
         * a violation found later covers the earlier end */
        bool tau1_end = true;
        for (int k = 0; k < n; k++)
            if (tr[k].kind == PT_STEP || tr[k].kind == PT_BARRIER)
                tau1_end = false;
        c.nstates = st.n;
        if (method == PGAS_NF && tau1_end && nf_finish(&c, w, finish, &nfinish)) {
            viol_node = i;
            viol_finish = true;
            break;
        }
        if (c.stop) {
            /* out of finishing budget, τ1's own steps may still close a
             * cycle; a timeout or a cancel stops everything */
            res->complete = false;
            res->stop_reason = c.stop;
            if (c.stop != finish_budget)
                break;
        }
        for (int kk = 0; kk < n && viol_node < 0; kk++) {
            /* the order only picks which witness is found first; these
             * orders give the seed's Example 18 shape for 1to1 */
            int k = method == PGAS_SEARCH ? n - 1 - kk : kk;
            if (method == PGAS_NF && (tr[k].kind == PT_POPA || tr[k].kind == PT_POPB))
                continue;        /* in τ1, pops only right after their command */
            const ir_instr *in = tr[k].kind == PT_STEP
                ? &p->threads[0].instrs[pgas_pc(m, w, tr[k].rank)] : NULL;
            bool request = in && (in->kind == I_PREAD || in->kind == I_PWRITE);
            /* nf: (pa, pb) = (1, 1) both pops at once, (1, 2) popa at once,
             * (2, 2) both delayed; FIFO allows a part-1 pop only when
             * nothing of its level is delayed in that queue */
            int lo_a = 1, lo_b = 1, hi = 1;
            if (method == PGAS_NF && request) {
                int q = (int)ir_eval(p, in->e2, pgas_regs(m, w, tr[k].rank), NULL);
                hi = 2;
                if (count(&c, w, tr[k].rank, q, 0) > 0)
                    lo_a = lo_b = 2;
                else if (count(&c, w, tr[k].rank, q, 1) > 0)
                    lo_b = 2;
            }
            for (int pa = lo_a; pa <= hi && viol_node < 0; pa++)
                for (int pb = pa > lo_b ? pa : lo_b; pb <= hi && viol_node < 0; pb++) {
                    memcpy(t, w, c.wsize);
                    c.overflow = false;
                    bool cyc = method == PGAS_NF && request ? nf_request(&c, t, tr[k].rank, pa, pb)
                                                            : step(&c, t, &tr[k]);
                    pgas_xstep x = { (int8_t)tr[k].kind, (int8_t)tr[k].rank, (int8_t)tr[k].queue,
                                     (int8_t)(request ? pa : 0), (int8_t)(request ? pb : 0) };
                    if (c.overflow) {
                        res->complete = false;
                        res->stop_reason = "more than 64 requests in flight";
                        continue;
                    }
                    if (cyc) {
                        viol_node = i;
                        viol_step = x;
                        break;
                    }
                    long ni = pgas_store_add(&st, key, wkey(&c, t, key), i, x, &added);
                    if (added) {
                        if (ntodo == captodo) {
                            captodo *= 2;
                            todo = wmx_realloc(todo, (size_t)captodo * sizeof *todo);
                        }
                        todo[ntodo++] = ni;
                    }
                }
        }
        if (st.n > max_states) {
            res->complete = false;
            res->stop_reason = "state limit";
            break;
        }
    }
    res->states = st.n;
    if (rc == 0 && viol_node >= 0) {
        res->robust = false;
        res->complete = true;
        /* the machine transitions from the initial state to the violation */
        int len = 0;
        for (long i = viol_node; st.parent[i] >= 0; i = st.parent[i])
            len++;
        pgas_xstep *xs = wmx_malloc(((size_t)len + 1) * sizeof *xs);
        int k = len;
        for (long i = viol_node; st.parent[i] >= 0; i = st.parent[i])
            xs[--k] = st.step[i];
        if (!viol_finish)
            xs[len++] = viol_step;
        size_t cap = (size_t)len * 3 + 2 * MAX_OPEN + 16;
        pgas_transition *path = wmx_malloc(cap * sizeof *path);
        int np = 0;
        pgas_init(m, w);
        for (int j = 0; j < len; j++) {
            pgas_transition tt = { (pgas_tr_kind)xs[j].kind, xs[j].rank, xs[j].queue };
            int q = -1;
            if (tt.kind == PT_STEP && xs[j].pa > 0) {
                const ir_instr *in = &p->threads[0].instrs[pgas_pc(m, w, tt.rank)];
                q = (int)ir_eval(p, in->e2, pgas_regs(m, w, tt.rank), NULL);
            }
            path[np++] = tt;
            pgas_apply(m, w, &tt, NULL);
            /* as nf_request: a rank whose local code failed after the
             * request does not go on to its pops */
            if (tt.kind == PT_STEP && pgas_rank_fault(m, w, tt.rank) != PF_NONE)
                continue;
            if (method == PGAS_NF && xs[j].pa == 1) {
                path[np] = (pgas_transition){ PT_POPA, tt.rank, q };
                pgas_apply(m, w, &path[np++], NULL);
            }
            if (method == PGAS_NF && xs[j].pb == 1) {
                path[np] = (pgas_transition){ PT_POPB, tt.rank, q };
                pgas_apply(m, w, &path[np++], NULL);
            }
        }
        if (viol_finish)
            for (int j = 0; j < nfinish; j++) {
                path[np] = finish[j];
                pgas_apply(m, w, &path[np++], NULL);
            }
        int nprefix_steps = np;
        /* drain the queues: a computation ends with empty queues */
        for (int r = 0; r < c.N; r++)
            for (int q = 0; q < c.Q; q++) {
                const pgas_entry *e;
                int na = pgas_queue(m, w, r, q, 0, &e), nb = pgas_queue(m, w, r, q, 1, &e);
                if ((size_t)(np + 2 * na + nb) >= cap) {
                    cap = cap * 2 + (size_t)(2 * na + nb);
                    path = wmx_realloc(path, cap * sizeof *path);
                }
                int from = np;
                for (int j = 0; j < na; j++)
                    path[np++] = (pgas_transition){ PT_POPA, r, q };
                for (int j = 0; j < na + nb; j++)
                    path[np++] = (pgas_transition){ PT_POPB, r, q };
                for (int j = from; j < np; j++)
                    pgas_apply(m, w, &path[j], NULL);
            }
        res->computation.len = np;
        res->computation.steps = path;
        free(xs);
        int nev = 0;
        if (pgas_replay(m, &res->computation, &res->events, &nev) == 0) {
            res->nevents = nev;
            /* events of the prefix up to the violation */
            int nprefix = 0;
            for (int j = 0; j < nprefix_steps; j++)
                nprefix += res->computation.steps[j].kind == PT_BARRIER ? c.N : 1;
            find_cycle(m, res, nprefix, o, t0);
        }
    }
    res->time_s = pgas_now() - t0;
    pgas_store_free(&st);
    pgas_store_free(&memo);
    free(todo);
    free(w);
    free(t);
    free(tmp);
    free(key);
    free(tr);
    pgas_machine_free(m);
    return rc;
}

int pgas_event_step(const pgas_robust_result *res, int ev)
{
    int e = 0;
    for (int i = 0; i < res->computation.len; i++) {
        e += res->computation.steps[i].kind == PT_BARRIER ? res->nranks : 1;
        if (ev < e)
            return i;
    }
    return res->computation.len - 1;
}

void pgas_robust_result_free(pgas_robust_result *r)
{
    free(r->computation.steps);
    free(r->events);
    free(r->cycle);
    memset(r, 0, sizeof *r);
}
