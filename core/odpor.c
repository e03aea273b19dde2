/* odpor.c - Optimal-DPOR under SC (Abdulla, Aronis, Jonsson, Sagonas,
 * "Source Sets: A Foundation for Optimal Dynamic Partial Order Reduction",
 * JACM 2017) extended with awaits and independent fetch-and-adds as in
 * "Awaiting for Godot" (seed 003).
 *
 * The exploration is a depth-first search over the current execution E.
 * For every prefix E[0..i) we keep
 *   - the state reached (so wakeup sequences can be replayed from there),
 *   - the sleep set: threads (with their next event) whose exploration from
 *     that prefix is finished,
 *   - the wakeup tree, as nodes of one pool: the root of prefix i is a node
 *     whose children are the threads still to explore from E[0..i); the
 *     leftmost child is the one on the current path and is also the root of
 *     prefix i+1.
 * When E is maximal we analyse it:
 *   - non-blocking races e < e' (conflicting, adjacent in happens-before,
 *     e' not an await): v = notdep(e, E).thread(e') is inserted at pre(E, e)
 *     unless a sleeping thread is a weak initial of v;
 *   - blocking races: for every await e' (executed, or blocked at the end of
 *     E) and every earlier write e to its cell from another thread, the
 *     maximal happens-before prefixes u of notdep(e, pre(E, e')) after which
 *     e' is enabled give the wakeup sequences u.thread(e') at pre(E, e).
 *     The prefixes are enumerated by removing one write to the await's cell
 *     (with everything that happens after it) at a time, stopping at
 *     prefixes that enable e'.
 * An event is one machine transition (one shared-memory access); two events
 * of different threads conflict when they access the same cell and one of
 * them writes (a failed CAS only reads; an await reads), except that with
 * --ifaa two FAAs whose results are unused do not conflict.
 */
#include "odpor.h"
#include "budget.h"
#include "parallel.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the dependency relation ---- */

/* inlined in the explorer's loops, where it is most of the race analysis */
static inline bool conflict(const odpor_event *a, const odpor_event *b, bool ifaa)
{
    if (a->thread == b->thread)
        return true;
    if (a->cell < 0 || a->cell != b->cell)
        return false;
    if (!a->writes && !b->writes)
        return false;
    if (ifaa && a->faa_unused && b->faa_unused)
        return false;
    return true;
}

bool odpor_conflict(const odpor_event *a, const odpor_event *b, bool ifaa)
{
    return conflict(a, b, ifaa);
}

odpor_event odpor_event_of(const wmx_program *p, const wmx_event *ev, bool *const *faa_unused)
{
    odpor_event o = { .thread = ev->thread, .index = EID_INDEX(ev->id), .instr = ev->instr,
                      .cell = ev->cell };
    switch (ev->kind) {
    case EV_READ:
        o.reads = true;
        break;
    case EV_AWAIT:
        o.reads = true;
        o.await = true;
        break;
    case EV_WRITE: case EV_WRITE_BUF: case EV_WRITE_MEM:
        o.writes = true;
        break;
    case EV_RMW:
        o.reads = true;
        o.writes = ev->wrote;
        if (ev->instr >= 0 && p->threads[ev->thread].instrs[ev->instr].kind == I_CAS &&
            p->threads[ev->thread].instrs[ev->instr].blocking) {
            /* a lock: an await that writes once it passes (a blocked one,
             * stepped on scratch for the race analysis, reads only) */
            o.await = true;
            o.writes = true;
        }
        if (faa_unused && ev->instr >= 0 &&
            p->threads[ev->thread].instrs[ev->instr].kind == I_FAA)
            o.faa_unused = faa_unused[ev->thread][ev->instr];
        break;
    case EV_FENCE:
        o.cell = -1;
        break;
    }
    return o;
}

static void mark_expr_regs(const wmx_program *p, int e, bool *used)
{
    while (e >= 0) {
        const ir_expr *x = &p->exprs[e];
        if (x->op == OP_REG && x->reg >= 0)
            used[x->reg] = true;
        if (x->b >= 0)
            mark_expr_regs(p, x->b, used);
        e = x->a;
    }
}

bool **odpor_faa_unused_table(const wmx_program *p, const explore_result *res)
{
    bool **tab = wmx_calloc((size_t)(p->nthreads ? p->nthreads : 1), sizeof *tab);
    for (int t = 0; t < p->nthreads; t++) {
        const ir_thread *th = &p->threads[t];
        tab[t] = wmx_calloc((size_t)(th->ninstrs ? th->ninstrs : 1), sizeof **tab);
        bool *used = wmx_calloc((size_t)(th->nregs ? th->nregs : 1), sizeof *used);
        for (int i = 0; i < th->ninstrs; i++) {
            const ir_instr *in = &th->instrs[i];
            mark_expr_regs(p, in->e1, used);
            mark_expr_regs(p, in->e2, used);
            mark_expr_regs(p, in->addr.index, used);
            mark_expr_regs(p, in->addr.ptr, used);
        }
        if (res)
            for (int o = 0; o < res->nobserved; o++)
                if (res->observed[o].thread == t && res->observed[o].reg >= 0)
                    used[res->observed[o].reg] = true;
        for (int i = 0; i < th->ninstrs; i++) {
            const ir_instr *in = &th->instrs[i];
            tab[t][i] = in->kind == I_FAA && (in->dst < 0 || !used[in->dst]);
        }
        free(used);
    }
    return tab;
}

void odpor_faa_unused_free(const wmx_program *p, bool **t)
{
    if (!t)
        return;
    for (int i = 0; i < p->nthreads; i++)
        free(t[i]);
    free(t);
}

/* ---- explorer state ---- */

typedef struct sleep_entry {
    bool on;
    bool foreign;       /* asleep when the unit was given (see try_insert) */
    odpor_event ev;
} sleep_entry;

struct odpor_state {
    const wmx_program *prog;
    const wmx_machine *m;
    const explore_opts *opts;
    odpor_ext *ext;
    explore_result *res;
    bool dump_failed;          /* a --dump-wut file could not be written: dump_err says which */
    wmx_error dump_err;
    bool ifaa;
    bool **faa_unused;
    int nthreads;
    int *sched;                /* the order new steps are chosen in: threads
                                * that assert last (see state_init) */
    size_t ssize;
    int maxen;

    int cap;                   /* capacity of the per-depth arrays */
    int depth;
    char *states;              /* cap + 1 states */
    wmx_transition *steps;     /* cap */
    wmx_event *events;         /* cap */
    odpor_event *oev;          /* cap */
    int *root;                 /* cap + 1 wakeup tree roots */
    sleep_entry *sleep;        /* (cap + 1) * nthreads */
    wmx_transition *enabled;   /* maxen */

    odpor_node *nodes;
    int nnodes, cap_nodes, free_nodes;

    char *scratch;             /* one state */
    /* race analysis scratch, sized for the current execution */
    int words;                 /* 64-bit words per bitset */
    int bits_cap;              /* executions up to this length fit */
    uint64_t *pred;            /* [n][words]: i happens-before j (i != j) */
    uint64_t *succ;            /* [n][words]: j happens-after i */
    int *seq;                  /* a sequence of positions */
    odpor_event *arr;          /* a wakeup sequence */
    uint64_t *work;            /* enumeration worklist of bitsets */
    int work_cap;
    /* happens-before by direct predecessors: each event's earlier event in
     * its thread and, per other thread, that thread's last access to the
     * cell that conflicts with it (earlier ones are po-before that one) */
    int hb_n;                  /* length of the execution analysed */
    int *cand_off;             /* [n + 1]: cand[cand_off[j] ..] are j's other-thread direct predecessors */
    int *cand;                 /* up to n * (nthreads - 1) positions */
    int cand_cap;
    int *prev_pos;             /* [nthreads] scratch */
    int *last_w, *last_a, *last_s; /* [ncells][nthreads]: last write / access / non-IFAA access */
    int *touched;              /* cells whose last_* entries are set */
    unsigned *succ_stamp;      /* [bits_cap]: row of succ valid when == stamp */
    int *prev_of;              /* [n]: the thread's previous position, or -1 */
    unsigned stamp;
    int hb_from;               /* rows and races before this position are those of the
                                * last execution analysed (its prefix is unchanged) */
    long nexec;
    long enum_capped;
    int base;                  /* depth of the unit's prefix: the search stays below it */
    struct odpor_split **split; /* cap + 1: a forced node's record (or NULL) */
    struct odpor_run *run;     /* --jobs: what the workers share (NULL: one worker) */
    team *team;
    bool patient;              /* crowded splits may wait (not the tests' forced splits) */
    long refused;              /* crowded splits declined in a row (give_away) */
    int forced;                /* prefixes shorter than this take no wakeup sequence
                                * (their alternatives are units, see give_away) */
    explore_clock *clk;        /* the run's limits, polled inside long analyses */
};

#define STATE(s, i) ((void *)((s)->states + (size_t)(i) * (s)->ssize))
#define SLEEP(s, i) (&(s)->sleep[(size_t)(i) * (size_t)(s)->nthreads])

/* ---- units and forced nodes (--jobs) ---- */

/* checks (one per execution) a crowded split may wait at least (longer
 * after a long search, see give_away): lastzero-14 with 1000 ran 1.23 M
 * events, with 10000 mostly one worker's 917503 */
enum { SPLIT_PATIENCE = 10000 };

/* A forced node j of some worker's path (see give_away), shared by the
 * workers whose units start below it: the threads that are branches there
 * (asleep at j, on the giver's path, or units) with their next events.  A
 * wakeup sequence for j found by any of them becomes a new unit, claimed
 * under the mutex, unless one of those threads is an initial of it. */
typedef struct odpor_split {
    pthread_mutex_t mu;
    int depth;                  /* j */
    wmx_transition *steps;      /* E[0..j) */
    struct odpor_split **above; /* [j]: the records of the forced nodes above (or NULL) */
    _Atomic unsigned char *branch; /* [nthreads]: set (release) after ev */
    odpor_event *ev;            /* [nthreads]: a branch's next event at j */
    struct odpor_split *next;   /* the run's list (freed at its end) */
    /* over MPI ranks (team_net.h): the rank that holds the record and its
     * number there; a record another rank holds is a proxy here (nothing
     * but these two): its wakeup sequences go to the owner as messages */
    int owner, id;
} odpor_split;

/* What the workers of one run share: every record. */
typedef struct odpor_run {
    pthread_mutex_t mu;
    odpor_split *splits;
    /* tests: with WMX_TEST_SPLIT_AT=k (and WMX_TEST_SPLIT=1, so that a
     * worker is always "hungry") the run splits once, after its k-th
     * execution, instead of after every one: each k is another cut */
    long split_at;              /* -1: whenever someone waits */
    _Atomic long checks;
    /* over MPI ranks: this rank, its records by number, and proxies of the
     * other ranks' records (open addressing on owner and number) */
    team_net *net;
    int rank, nthreads;
    bool ifaa;
    odpor_split **byid;
    int nbyid, capbyid;
    odpor_split **proxies;
    int nproxies, capproxies;
} odpor_run;

typedef struct odpor_unit_node {
    int parent;                 /* index in the unit's wut, -1: the unit's root */
    odpor_node node;            /* thread, event and race; links unused */
} odpor_unit_node;

/* A unit of work for --jobs: the prefix E[0..len) (a schedule from the
 * initial state), the threads asleep after it, and the wakeup tree below
 * it.  Every prefix node of a unit is forced: it takes no wakeup sequence
 * in this worker's tree (its record, if any, does). */
typedef struct odpor_unit {
    int len;
    unsigned char *asleep;      /* [nthreads]: asleep, as a foreign sleeper (see give_away) */
    odpor_unit_node *wut;       /* in preorder */
    int nwut, capwut;
    odpor_split **above;        /* [len]: records of the prefix's forced nodes (or NULL) */
    wmx_transition steps[];
} odpor_unit;

static void unit_free(odpor_unit *u)
{
    if (u) {
        free(u->asleep);
        free(u->wut);
        free(u->above);
    }
    free(u);
}

/* A unit E[0..k).q (steps: E[0..k)), no thread asleep yet, below the
 * records above[0..k] (above[k] may be NULL). */
static odpor_unit *unit_new(int nthreads, const wmx_transition *steps, int k, int q,
                            odpor_split *const *above, odpor_split *at_k)
{
    odpor_unit *u = wmx_calloc(1, sizeof *u + (size_t)(k + 1) * sizeof *u->steps);
    u->len = k + 1;
    memcpy(u->steps, steps, (size_t)k * sizeof *u->steps);
    u->steps[k] = (wmx_transition){ TR_STEP, q, -1 };
    u->asleep = wmx_calloc((size_t)nthreads, 1);
    u->above = wmx_malloc((size_t)(k + 1) * sizeof *u->above);
    memcpy(u->above, above, (size_t)k * sizeof *u->above);
    u->above[k] = at_k;
    return u;
}

static void grow(odpor_state *s)
{
    int cap = s->cap ? 2 * s->cap : 64;
    s->states = wmx_realloc(s->states, (size_t)(cap + 1) * s->ssize);
    s->steps = wmx_realloc(s->steps, (size_t)cap * sizeof *s->steps);
    s->events = wmx_realloc(s->events, (size_t)cap * sizeof *s->events);
    s->oev = wmx_realloc(s->oev, (size_t)cap * sizeof *s->oev);
    s->root = wmx_realloc(s->root, (size_t)(cap + 1) * sizeof *s->root);
    s->sleep = wmx_realloc(s->sleep, (size_t)(cap + 1) * (size_t)s->nthreads * sizeof *s->sleep);
    s->split = wmx_realloc(s->split, (size_t)(cap + 1) * sizeof *s->split);
    s->cap = cap;
}

/* ---- wakeup tree nodes ---- */

static int node_new(odpor_state *s, int thread, const odpor_event *ev)
{
    int n;
    if (s->free_nodes >= 0) {
        n = s->free_nodes;
        s->free_nodes = s->nodes[n].sibling;
    } else {
        if (s->nnodes == s->cap_nodes) {
            s->cap_nodes = s->cap_nodes ? 2 * s->cap_nodes : 256;
            s->nodes = wmx_table_grow(s->nodes, (size_t)s->nnodes * sizeof *s->nodes,
                                      (size_t)s->cap_nodes * sizeof *s->nodes);
        }
        n = s->nnodes++;
    }
    odpor_node *x = &s->nodes[n];
    memset(x, 0, sizeof *x);
    x->thread = thread;
    if (ev)
        x->ev = *ev;
    x->child = x->sibling = -1;
    x->race_e = x->race_e2 = EID_INIT;
    return n;
}

/* frees the sibling list starting at c, and subtrees */
static void node_free_list(odpor_state *s, int c)
{
    while (c >= 0) {
        int next = s->nodes[c].sibling;
        if (s->nodes[c].child >= 0)
            node_free_list(s, s->nodes[c].child);
        s->nodes[c].child = -1;
        s->nodes[c].sibling = s->free_nodes;
        s->free_nodes = c;
        c = next;
    }
}

/* frees node n (already unlinked from its siblings) and its subtree */
static void node_free_tree(odpor_state *s, int n)
{
    node_free_list(s, s->nodes[n].child);
    s->nodes[n].child = -1;
    s->nodes[n].sibling = s->free_nodes;
    s->free_nodes = n;
}

static void node_append_child(odpor_state *s, int parent, int child)
{
    int c = s->nodes[parent].child;
    if (c < 0) {
        s->nodes[parent].child = child;
        return;
    }
    while (s->nodes[c].sibling >= 0)
        c = s->nodes[c].sibling;
    s->nodes[c].sibling = child;
}

/* ---- weak initials and insertion ---- */

/* Whether thread p (whose next event is pev) is a weak initial of v. */
static bool weak_initial(int p, const odpor_event *pev, const odpor_event *v, int len, bool ifaa)
{
    int first = -1;
    for (int i = 0; i < len; i++)
        if (v[i].thread == p) {
            first = i;
            break;
        }
    if (first >= 0) {
        for (int j = 0; j < first; j++)
            if (conflict(&v[j], &v[first], ifaa))
                return false;
        return true;
    }
    for (int j = 0; j < len; j++)
        if (conflict(pev, &v[j], ifaa))
            return false;
    return true;
}

/* insert(v, wut(E[0..k))): descends to the leftmost child that is a weak
 * initial of what remains of v; stops when v is redundant, else adds the
 * rest of v as a new rightmost branch.  v is modified.  Returns whether a
 * new leaf was added. */
static bool wut_insert(odpor_state *s, int k, odpor_event *v, int len,
                       wmx_eid race_e, wmx_eid race_e2, bool blocking)
{
    int u = s->root[k];
    for (;;) {
        if (u != s->root[k] && s->nodes[u].child < 0)
            return false;          /* reached a leaf: v is redundant */
        if (len == 0)
            return false;          /* u is explored or will be extended */
        int c = s->nodes[u].child;
        for (; c >= 0; c = s->nodes[c].sibling) {
            odpor_node *x = &s->nodes[c];
            if (weak_initial(x->thread, &x->ev, v, len, s->ifaa))
                break;
        }
        if (c < 0)
            break;
        int p = s->nodes[c].thread;
        for (int i = 0; i < len; i++)
            if (v[i].thread == p) {
                memmove(&v[i], &v[i + 1], (size_t)(len - i - 1) * sizeof *v);
                len--;
                break;
            }
        u = c;
    }
    for (int i = 0; i < len; i++) {
        int n = node_new(s, v[i].thread, &v[i]);
        s->nodes[n].race_e = race_e;
        s->nodes[n].race_e2 = race_e2;
        s->nodes[n].blocking_race = blocking;
        node_append_child(s, u, n);
        u = n;
    }
    if (s->ext)
        s->ext->inserted++;
    return true;
}

/* Whether thread p is an initial of v: it occurs in v and nothing before
 * its first event there conflicts with that event. */
static bool initial(int p, const odpor_event *v, int len, bool ifaa)
{
    for (int i = 0; i < len; i++)
        if (v[i].thread == p) {
            for (int j = 0; j < i; j++)
                if (conflict(&v[j], &v[i], ifaa))
                    return false;
            return true;
        }
    return false;
}

/* A wakeup sequence v for a forced node k (its record r): redundant when a
 * branch of k is an initial of it (that branch's exploration reaches every
 * class that starts with it); otherwise v's first thread becomes a branch
 * of k, and a unit: E[0..k).v[0] with v's rest as its wakeup tree, asleep
 * every branch before it whose event is independent of v[0]'s, as foreign
 * sleepers (see give_away). */
static void claim_send(odpor_run *run, odpor_split *r, const odpor_event *v, int len,
                       wmx_eid race_e, wmx_eid race_e2, bool blocking);

static void split_claim_at(odpor_run *run, team *t, odpor_ext *ext, odpor_split *r,
                           const odpor_event *v, int len, wmx_eid race_e, wmx_eid race_e2,
                           bool blocking)
{
    if (r->owner != run->rank) {
        /* a proxy knows some of the branches (those its units brought,
         * a subset of the owner's): a sequence they make redundant stays */
        bool redundant = false;
        pthread_mutex_lock(&r->mu);
        for (int q = 0; r->branch && q < run->nthreads && !redundant; q++)
            redundant = r->branch[q] && initial(q, v, len, run->ifaa);
        pthread_mutex_unlock(&r->mu);
        if (!redundant)
            claim_send(run, r, v, len, race_e, race_e2, blocking);
        return;
    }
    int T = run->nthreads, k = r->depth;
    bool ifaa = run->ifaa;
    /* the branches only grow: most sequences are redundant, seen unlocked */
    for (int q = 0; q < T; q++)
        if (atomic_load_explicit(&r->branch[q], memory_order_acquire) && initial(q, v, len, ifaa))
            return;
    pthread_mutex_lock(&r->mu);
    for (int q = 0; q < T; q++)
        if (r->branch[q] && initial(q, v, len, ifaa)) {
            pthread_mutex_unlock(&r->mu);
            return;
        }
    odpor_unit *u = unit_new(T, r->steps, k, v[0].thread, r->above, r);
    for (int q = 0; q < T; q++)
        if (r->branch[q] && !conflict(&r->ev[q], &v[0], ifaa))
            u->asleep[q] = 1;
    r->ev[v[0].thread] = v[0];
    atomic_store_explicit(&r->branch[v[0].thread], 1, memory_order_release);
    pthread_mutex_unlock(&r->mu);
    if (len > 1) {
        u->wut = wmx_malloc((size_t)(len - 1) * sizeof *u->wut);
        u->nwut = u->capwut = len - 1;
        for (int i = 1; i < len; i++) {
            odpor_node x = { .thread = v[i].thread, .ev = v[i], .child = -1, .sibling = -1,
                             .race_e = race_e, .race_e2 = race_e2, .blocking_race = blocking };
            u->wut[i - 1] = (odpor_unit_node){ i - 2, x };
        }
    }
    if (ext)
        ext->inserted++;
    team_give(t, u);
}

static void split_claim(odpor_state *s, odpor_split *r, const odpor_event *v, int len,
                        wmx_eid race_e, wmx_eid race_e2, bool blocking)
{
    split_claim_at(s->run, s->team, s->ext, r, v, len, race_e, race_e2, blocking);
}

/* Optimal-DPOR's test: v is redundant when a sleeping thread is a weak
 * initial of it.  That is sound when every wakeup sequence of the search
 * so far went into this tree.  For a foreign sleeper (--jobs: asleep when
 * the unit was handed over, see give_away) some went into other workers'
 * trees, so it makes v redundant only when it is an initial of v, as in
 * Source-DPOR; a unit may then meet executions cut by the sleep set, which
 * are analysed but not counted, and sleep sets still keep every counted
 * execution in a class of its own. */
static void try_insert(odpor_state *s, int k, odpor_event *v, int len,
                       wmx_eid race_e, wmx_eid race_e2, bool blocking)
{
    if (k < s->forced) {
        if (s->split[k])
            split_claim(s, s->split[k], v, len, race_e, race_e2, blocking);
        return;
    }
    const sleep_entry *sl = SLEEP(s, k);
    for (int q = 0; q < s->nthreads; q++)
        if (sl[q].on && (sl[q].foreign ? initial(q, v, len, s->ifaa)
                                       : weak_initial(q, &sl[q].ev, v, len, s->ifaa)))
            return;
    wut_insert(s, k, v, len, race_e, race_e2, blocking);
}

/* ---- race analysis ---- */

static inline bool bit(const uint64_t *b, int i) { return (b[i >> 6] >> (i & 63)) & 1; }
static inline void setbit(uint64_t *b, int i) { b[i >> 6] |= (uint64_t)1 << (i & 63); }
static inline void clrbit(uint64_t *b, int i) { b[i >> 6] &= ~((uint64_t)1 << (i & 63)); }

static void ensure_bits(odpor_state *s, int n)
{
    int words = (n + 63) / 64;
    if (words < 1)
        words = 1;
    if (n <= s->bits_cap && words == s->words)
        return;
    int cap = n > s->bits_cap ? n + 32 : s->bits_cap;
    words = (cap + 63) / 64;
    s->hb_from = 0;            /* new rows: nothing of the last execution is kept */
    s->words = words;
    s->bits_cap = cap;
    free(s->pred);
    free(s->succ);
    free(s->seq);
    free(s->arr);
    free(s->succ_stamp);
    free(s->cand_off);
    free(s->prev_of);
    s->prev_of = wmx_malloc(((size_t)cap + 1) * sizeof *s->prev_of);
    s->pred = wmx_malloc((size_t)cap * (size_t)words * sizeof *s->pred);
    s->succ = wmx_malloc((size_t)cap * (size_t)words * sizeof *s->succ);
    s->succ_stamp = wmx_calloc((size_t)cap + 1, sizeof *s->succ_stamp);
    s->cand_off = wmx_malloc(((size_t)cap + 2) * sizeof *s->cand_off);
    s->seq = wmx_malloc((size_t)(cap + 1) * sizeof *s->seq);
    s->arr = wmx_malloc((size_t)(cap + 1) * sizeof *s->arr);
}

#define PRED(s, j) (&(s)->pred[(size_t)(j) * (size_t)(s)->words])

/* Records access j (event e, which has a cell) as its thread's last one to
 * the cell; a cell's first access by any thread joins `touched` (cleared
 * after the analysis).  Returns the new count of touched cells. */
static inline int record_access(odpor_state *s, const odpor_event *e, int j, int ntouched)
{
    int T = s->nthreads;
    size_t at = (size_t)e->cell * (size_t)T + (size_t)e->thread;
    if (s->last_a[at] < 0 && s->last_w[at] < 0 && s->last_s[at] < 0) {
        bool seen = false;
        for (int t = 0; t < T && !seen; t++)
            seen = t != e->thread && s->last_a[(size_t)e->cell * (size_t)T + (size_t)t] >= 0;
        if (!seen)
            s->touched[ntouched++] = e->cell;
    }
    s->last_a[at] = j;
    if (e->writes)
        s->last_w[at] = j;
    if (!e->faa_unused)
        s->last_s[at] = j;
    return ntouched;
}

/* happens-before of E[0..n): pred[j] = positions before j that happen
 * before it, built from j's direct predecessors only, so an event costs
 * (threads x words) rather than a scan of the whole trace. */
static bool compute_hb(odpor_state *s, int n)
{
    /* two n x n bit matrices: refuse them past the memory budget */
    if (n > s->bits_cap) {
        size_t words = ((size_t)n + 32 + 63) / 64;
        if (explore_reserve(s->clk, s->opts, s->res, 2 * ((size_t)n + 32) * words * sizeof *s->pred))
            return false;
    }
    ensure_bits(s, n);
    int w = s->words, T = s->nthreads, C = s->prog->ncells;
    if (!s->prev_pos) {
        s->prev_pos = wmx_malloc((size_t)(T ? T : 1) * sizeof *s->prev_pos);
        size_t cells = (size_t)(C ? C : 1) * (size_t)(T ? T : 1);
        s->last_w = wmx_malloc(cells * sizeof *s->last_w);
        s->last_a = wmx_malloc(cells * sizeof *s->last_a);
        s->last_s = wmx_malloc(cells * sizeof *s->last_s);
        for (size_t c = 0; c < cells; c++)
            s->last_w[c] = s->last_a[c] = s->last_s[c] = -1;
        s->touched = wmx_malloc((size_t)(C ? C : 1) * sizeof *s->touched);
    }
    size_t need = (size_t)n * (size_t)(T > 1 ? T - 1 : 1) + 1;
    if ((size_t)s->cand_cap < need) {
        s->cand = wmx_realloc(s->cand, need * sizeof *s->cand);
        s->cand_cap = (int)need;
    }
    for (int t = 0; t < T; t++)
        s->prev_pos[t] = -1;
    int ntouched = 0, ncand = 0;
    bool stopped = false;
    /* E[0..from) is the last analysed execution's prefix: its rows stand,
     * and only the per-cell last accesses are replayed up to it */
    int from = s->hb_from < n ? s->hb_from : n;
    for (int j = 0; j < from; j++) {
        const odpor_event *e = &s->oev[j];
        if (e->cell >= 0)
            ntouched = record_access(s, e, j, ntouched);
        s->prev_pos[e->thread] = j;
    }
    ncand = from ? s->cand_off[from] : 0;
    for (int j = from; j < n; j++) {
        /* a long trace's rows take seconds: --timeout and Ctrl-C act here */
        if ((j & 1023) == 1023 && explore_should_stop(s->clk, s->opts, s->res, n)) {
            stopped = true;
            break;
        }
        const odpor_event *e = &s->oev[j];
        uint64_t *pj = PRED(s, j);
        int p = s->prev_pos[e->thread];
        s->prev_of[j] = p;
        if (p >= 0) {
            memcpy(pj, PRED(s, p), (size_t)w * sizeof *pj);
            setbit(pj, p);
        } else {
            memset(pj, 0, (size_t)w * sizeof *pj);
        }
        s->cand_off[j] = ncand;
        if (e->cell >= 0) {
            const int *row = !e->writes ? s->last_w : (s->ifaa && e->faa_unused) ? s->last_s : s->last_a;
            row += (size_t)e->cell * (size_t)T;
            for (int t = 0; t < T; t++) {
                int i = row[t];
                if (t == e->thread || i < 0)
                    continue;
                s->cand[ncand++] = i;
                if (!bit(pj, i)) {
                    const uint64_t *pi = PRED(s, i);
                    for (int x = 0; x < w; x++)
                        pj[x] |= pi[x];
                    setbit(pj, i);
                }
            }
            /* the earlier race analysis met candidates in position order */
            for (int a = s->cand_off[j] + 1; a < ncand; a++)
                for (int b2 = a; b2 > s->cand_off[j] && s->cand[b2 - 1] > s->cand[b2]; b2--) {
                    int tmp = s->cand[b2];
                    s->cand[b2] = s->cand[b2 - 1];
                    s->cand[b2 - 1] = tmp;
                }
            ntouched = record_access(s, e, j, ntouched);
        }
        s->prev_pos[e->thread] = j;
    }
    s->cand_off[n] = ncand;
    if (!stopped)
        s->hb_from = n;
    for (int k = 0; k < ntouched; k++)
        for (int t = 0; t < T; t++) {
            size_t at = (size_t)s->touched[k] * (size_t)T + (size_t)t;
            s->last_w[at] = s->last_a[at] = s->last_s[at] = -1;
        }
    s->hb_n = n;
    if (++s->stamp == 0) {      /* wrapped: forget every row */
        memset(s->succ_stamp, 0, (size_t)s->bits_cap * sizeof *s->succ_stamp);
        s->stamp = 1;
    }
    return !stopped;
}

/* succ[i] = positions after i that happen after it; built when first asked
 * for in this execution (races need few rows). */
static const uint64_t *succ_row(odpor_state *s, int i)
{
    uint64_t *row = &s->succ[(size_t)i * (size_t)s->words];
    if (s->succ_stamp[i] == s->stamp)
        return row;
    memset(row, 0, (size_t)s->words * sizeof *row);
    for (int k = i + 1; k < s->hb_n; k++)
        if (bit(PRED(s, k), i))
            setbit(row, k);
    s->succ_stamp[i] = s->stamp;
    return row;
}
#define SUCC(s, j) succ_row((s), (j))

/* scratch := state after E[0..k) followed by the steps at positions seq[] */
static void replay(odpor_state *s, int k, const int *seq, int len)
{
    memcpy(s->scratch, STATE(s, k), s->ssize);
    for (int i = 0; i < len; i++)
        machine_apply(s->m, s->scratch, &s->steps[seq[i]], NULL);
}

/* The budget is asked every 32nd step, and at once after a trace is
 * counted (so --max-traces stops exactly): asking twice per step was 7% of
 * a long thread's exploration. */
typedef struct budget_poll {
    long found;              /* traces + blocked when last asked */
    unsigned steps;
} budget_poll;

static bool poll_budget(budget_poll *bp, explore_clock *clk, const explore_opts *opts,
                        explore_result *res, int depth)
{
    long found = res->traces + res->blocked;
    if (found == bp->found && (++bp->steps & 31) != 0)
        return false;
    bp->found = found;
    return explore_should_stop(clk, opts, res, depth);
}

static bool thread_enabled(const odpor_state *s, const void *state, int t)
{
    wmx_transition tr = { TR_STEP, t, -1 };
    return machine_is_enabled(s->m, state, &tr);
}

/* next event of thread t in the scratch state (applied to scratch) */
static odpor_event scratch_step(odpor_state *s, int t)
{
    wmx_transition tr = { TR_STEP, t, -1 };
    wmx_event ev;
    machine_apply(s->m, s->scratch, &tr, &ev);
    return odpor_event_of(s->prog, &ev, s->faa_unused);
}

/* i -> j is a race when i conflicts with j from another thread and no
 * event lies between them in happens-before.  Only j's direct
 * predecessors can be such an i (an earlier conflicting access of the same
 * thread is po-before the last one), and i is adjacent to j exactly when
 * no other direct predecessor of j happens after i. */
static void nonblocking_races(odpor_state *s, int n)
{
    for (int j = 0; j < n; j++) {
        if (s->oev[j].await || s->cand_off[j] == s->cand_off[j + 1])
            continue;          /* awaits: the blocking analysis */
        int t = s->oev[j].thread;
        /* a candidate that happens before another direct predecessor of j
         * (its thread's previous event or another candidate) has an event
         * between it and j: a few bit tests, not a union of rows */
        int prev = s->prev_of[j];
        for (int c = s->cand_off[j]; c < s->cand_off[j + 1]; c++) {
            int i = s->cand[c];
            if (i < s->forced && !s->split[i])
                continue;          /* nothing is inserted there */
            bool covered = prev >= 0 && bit(PRED(s, prev), i);
            for (int c2 = s->cand_off[j]; c2 < s->cand_off[j + 1] && !covered; c2++)
                covered = c2 != c && bit(PRED(s, s->cand[c2]), i);
            if (covered)
                continue;
            if (s->ext)
                s->ext->races++;
            int len = 0;
            for (int k = i + 1; k < n; k++)
                if (!bit(PRED(s, k), i))
                    s->arr[len++] = s->oev[k];
            /* After notdep(i) thread t stands just before j (its events
             * between i and j are all in notdep, or i and j would not be
             * adjacent) with the same registers, so its next event is j's
             * again; only a CAS's outcome depends on memory, and for it
             * notdep is replayed on the machine. */
            if (s->prog->threads[t].instrs[s->oev[j].instr].kind != I_CAS) {
                s->arr[len] = s->oev[j];
            } else {
                int sl = 0;
                for (int k = i + 1; k < n; k++)
                    if (!bit(PRED(s, k), i))
                        s->seq[sl++] = k;
                replay(s, i, s->seq, sl);
                if (!thread_enabled(s, s->scratch, t))
                    continue;      /* cannot happen for non-await events */
                s->arr[len] = scratch_step(s, t);
            }
            try_insert(s, i, s->arr, len + 1, s->events[i].id, s->events[j].id, false);
        }
    }
}

/* Enumerates the maximal happens-before prefixes u of w (positions in the
 * bitset `w`) that keep every event of thread t in w and after which t's
 * next event (an await on `aw`'s cell) is enabled, and inserts u.t at
 * prefix i. */
#define ENUM_LIMIT 4096

static void blocking_race(odpor_state *s, int i, int n, const uint64_t *w0, int t,
                          const odpor_event *aw, wmx_eid e2)
{
    int words = s->words;
    size_t need = (size_t)words * 2 * ENUM_LIMIT;
    if (s->work_cap < (int)need) {
        free(s->work);
        s->work = wmx_malloc(need * sizeof *s->work);
        s->work_cap = (int)need;
    }
    /* work[0 .. nvisited) visited sets, processed in order (BFS);
     * found sets are flagged in a side array */
    uint64_t *vis = s->work;
    bool found[ENUM_LIMIT];
    int nvis = 1;
    memcpy(vis, w0, (size_t)words * sizeof *vis);
    found[0] = false;
    uint64_t *tmp = s->work + (size_t)words * ENUM_LIMIT;
    for (int h = 0; h < nvis; h++) {
        uint64_t *u = vis + (size_t)h * (size_t)words;
        int len = 0;
        for (int k = i + 1; k < n; k++)
            if (bit(u, k))
                s->seq[len++] = k;
        replay(s, i, s->seq, len);
        if (thread_enabled(s, s->scratch, t)) {
            found[h] = true;
            continue;
        }
        for (int x = 0; x < len; x++) {
            int k = s->seq[x];
            if (s->oev[k].thread == t || !conflict(&s->oev[k], aw, s->ifaa))
                continue;
            /* u' = u minus k and what happens after k */
            memcpy(tmp, u, (size_t)words * sizeof *tmp);
            clrbit(tmp, k);
            const uint64_t *sk = SUCC(s, k);
            for (int y = 0; y < words; y++)
                tmp[y] &= ~sk[y];
            bool ok = true;
            for (int y = x + 1; y < len && ok; y++)
                if (s->oev[s->seq[y]].thread == t && !bit(tmp, s->seq[y]))
                    ok = false;
            if (!ok)
                continue;
            bool seen = false;
            for (int v = 0; v < nvis && !seen; v++)
                if (memcmp(vis + (size_t)v * (size_t)words, tmp, (size_t)words * sizeof *tmp) == 0)
                    seen = true;
            if (seen)
                continue;
            if (nvis == ENUM_LIMIT) {
                s->enum_capped++;
                continue;
            }
            memcpy(vis + (size_t)nvis * (size_t)words, tmp, (size_t)words * sizeof *tmp);
            found[nvis++] = false;
        }
    }
    for (int h = 0; h < nvis; h++) {
        if (!found[h])
            continue;
        const uint64_t *u = vis + (size_t)h * (size_t)words;
        /* skip u when a strictly larger found set contains it */
        bool maximal = true;
        for (int g = 0; g < nvis && maximal; g++) {
            if (g == h || !found[g])
                continue;
            const uint64_t *o = vis + (size_t)g * (size_t)words;
            bool sub = true;
            for (int y = 0; y < words && sub; y++)
                if ((u[y] & ~o[y]) != 0)
                    sub = false;
            if (sub)
                maximal = false;    /* sets are distinct, so strictly smaller */
        }
        if (!maximal)
            continue;
        int len = 0;
        for (int k = i + 1; k < n; k++)
            if (bit(u, k))
                s->seq[len++] = k;
        replay(s, i, s->seq, len);
        for (int x = 0; x < len; x++)
            s->arr[x] = s->oev[s->seq[x]];
        s->arr[len] = scratch_step(s, t);
        try_insert(s, i, s->arr, len + 1, s->events[i].id, e2, true);
    }
}

/* Whether thread t's await aw would pass on the memory of prefix i; true
 * when that cannot be told (an operand that depends on registers). */
static bool await_holds_at(const odpor_state *s, int i, int t, const odpor_event *aw)
{
    const ir_instr *in = &s->prog->threads[t].instrs[aw->instr];
    if (in->kind != I_AWAIT || in->e1 < 0 || s->prog->exprs[in->e1].op != OP_CONST || aw->cell < 0)
        return true;
    wmx_val v = machine_memory(s->m, STATE(s, i))[aw->cell];
    return ir_cmp_holds(in->cmp, v, s->prog->exprs[in->e1].value);
}

static void blocking_races(odpor_state *s, int n)
{
    int words = s->words;
    uint64_t *w = wmx_malloc((size_t)words * sizeof *w);
    /* awaits of E, then awaits blocked at the end of E */
    for (int j = 0; j <= n + s->nthreads; j++) {
        int end, t;
        odpor_event aw;
        wmx_eid e2;
        if (j < n) {
            if (!s->oev[j].await)
                continue;
            end = j;
            t = s->oev[j].thread;
            aw = s->oev[j];
            e2 = s->events[j].id;
        } else if (j > n) {
            t = j - n - 1;
            if (machine_status(s->m, STATE(s, n), t) != TS_RUNNING ||
                thread_enabled(s, STATE(s, n), t))
                continue;
            end = n;
            memcpy(s->scratch, STATE(s, n), s->ssize);
            aw = scratch_step(s, t);
            e2 = EID_MAKE(t, aw.index);
        } else {
            continue;
        }
        for (int i = 0; i < end; i++) {
            if (i < s->forced && !s->split[i])
                continue;          /* nothing is inserted there */
            if (s->oev[i].thread == t || !conflict(&s->oev[i], &aw, s->ifaa))
                continue;
            const uint64_t *si = SUCC(s, i);
            bool ok = true, rewritten = false;
            memset(w, 0, (size_t)words * sizeof *w);
            for (int k = i + 1; k < end; k++) {
                if (!bit(si, k)) {
                    setbit(w, k);
                    rewritten |= s->oev[k].writes && s->oev[k].cell == aw.cell;
                } else if (s->oev[k].thread == t)
                    ok = false;
            }
            if (!ok)
                continue;
            /* nothing that may stay writes the cell: it keeps its value at
             * prefix i, so when that fails the await no reversal exists (a
             * C join waits for the one write of its thread's end flag) */
            if (!rewritten && !await_holds_at(s, i, t, &aw))
                continue;
            if (s->ext)
                s->ext->races++;
            blocking_race(s, i, end, w, t, &aw, e2);
        }
    }
    free(w);
}

/* ---- introspection ---- */

int odpor_depth(const odpor_state *s) { return s->depth; }
const wmx_event *odpor_events(const odpor_state *s) { return s->events; }
int odpor_wut_root(const odpor_state *s, int i) { return i >= 0 && i <= s->depth ? s->root[i] : -1; }
const odpor_node *odpor_node_at(const odpor_state *s, int n)
{
    return n >= 0 && n < s->nnodes ? &s->nodes[n] : NULL;
}

int odpor_sleep(const odpor_state *s, int i, odpor_event *out, int max)
{
    if (i < 0 || i > s->depth)
        return 0;
    int k = 0;
    const sleep_entry *sl = SLEEP(s, i);
    for (int t = 0; t < s->nthreads && k < max; t++)
        if (sl[t].on)
            out[k++] = sl[t].ev;
    return k;
}

static void dot_event(const odpor_state *s, const odpor_event *e, char *buf, size_t n)
{
    char cell[96] = "";
    if (e->cell >= 0)
        ir_cell_name(s->prog, e->cell, cell, sizeof cell);
    const char *what = e->await ? "await" : e->writes && e->reads ? "rmw" : e->writes ? "w"
                     : e->reads ? "r" : "fnc";
    snprintf(buf, n, "%s.%d %s %s", s->prog->threads[e->thread].name, e->index, what, cell);
}

static void dot_subtree(const odpor_state *s, FILE *f, int parent_id, const char *parent_prefix, int c)
{
    for (; c >= 0; c = s->nodes[c].sibling) {
        const odpor_node *x = &s->nodes[c];
        char lab[160];
        dot_event(s, &x->ev, lab, sizeof lab);
        fprintf(f, "  n%d [label=\"%s\", style=dashed];\n", c, lab);
        if (parent_prefix)
            fprintf(f, "  %s%d -> n%d", parent_prefix, parent_id, c);
        else
            fprintf(f, "  n%d -> n%d", parent_id, c);
        if (x->race_e != EID_INIT)
            fprintf(f, " [label=\"%s race %d.%d-%d.%d\"]", x->blocking_race ? "await" : "",
                    EID_THREAD(x->race_e), EID_INDEX(x->race_e),
                    EID_THREAD(x->race_e2), EID_INDEX(x->race_e2));
        fprintf(f, ";\n");
        dot_subtree(s, f, c, NULL, x->child);
    }
}

void odpor_write_dot(const odpor_state *s, FILE *f)
{
    fprintf(f, "digraph wut {\n  node [shape=box, fontname=monospace];\n");
    for (int i = 0; i <= s->depth; i++) {
        char sl[512] = "";
        size_t len = 0;
        const sleep_entry *se = SLEEP(s, i);
        for (int t = 0; t < s->nthreads; t++)
            if (se[t].on && len + 40 < sizeof sl)
                len += (size_t)snprintf(sl + len, sizeof sl - len, "%s%s", len ? "," : "",
                                        s->prog->threads[t].name);
        fprintf(f, "  p%d [label=\"E[0..%d)\\nsleep {%s}\"];\n", i, i, sl);
        if (i < s->depth) {
            char lab[160];
            dot_event(s, &s->oev[i], lab, sizeof lab);
            fprintf(f, "  p%d -> p%d [label=\"%s\", penwidth=2];\n", i, i + 1, lab);
            /* pending branches: root's children other than the current one */
            int cur = s->root[i + 1];
            for (int c = s->nodes[s->root[i]].child; c >= 0; c = s->nodes[c].sibling) {
                if (c == cur)
                    continue;
                const odpor_node *x = &s->nodes[c];
                char l2[160];
                dot_event(s, &x->ev, l2, sizeof l2);
                fprintf(f, "  n%d [label=\"%s\", style=dashed];\n", c, l2);
                fprintf(f, "  p%d -> n%d", i, c);
                if (x->race_e != EID_INIT)
                    fprintf(f, " [label=\"%s race %d.%d-%d.%d\"]", x->blocking_race ? "await" : "",
                            EID_THREAD(x->race_e), EID_INDEX(x->race_e),
                            EID_THREAD(x->race_e2), EID_INDEX(x->race_e2));
                fprintf(f, ";\n");
                dot_subtree(s, f, c, NULL, x->child);
            }
        }
    }
    fprintf(f, "}\n");
}

static void dump_dot(odpor_state *s)
{
    if (s->dump_failed)
        return;
    char *path = wmx_asprintf("%s/exec-%06ld.dot", s->ext->dump_dir, s->nexec);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    bool ok = f != NULL;
    if (f) {
        odpor_write_dot(s, f);
        ok = !ferror(f);
        ok &= fclose(f) == 0;
    }
    /* checked and atomic: a full disk is an error, never a short file */
    if (!ok)
        wmx_error_set(&s->dump_err, path, 0, 0, "cannot write: out of memory");
    else if (wmx_write_file_atomic(path, text, len, &s->dump_err) != 0)
        ok = false;
    if (!ok) {
        s->dump_failed = true;
        explore_stop(s->res, "write", "cannot write %s", path);
    }
    free(text);
    free(path);
}

/* ---- the exploration ---- */

/* Race analysis of E[0..n), maximal or cut by the sleep set. */
static void analyse(odpor_state *s, int n)
{
    if (!compute_hb(s, n))
        return;                 /* stopped by a limit: the run ends here */
    nonblocking_races(s, n);
    blocking_races(s, n);
}

static void maximal(odpor_state *s)
{
    int n = s->depth;
    void *fin = STATE(s, n);
    explore_trace tr = { n, s->steps, s->events, fin,
                         machine_is_blocked(s->m, fin), machine_has_error(s->m, fin), false };
    explore_result_add_trace(s->res, s->m, &tr);
    if (s->opts->on_trace)
        s->opts->on_trace(&tr, s->opts->ud);
    analyse(s, n);
    s->nexec++;
    if (s->ext && s->ext->dump_dir)
        dump_dot(s);
    if (s->ext && s->ext->on_execution)
        s->ext->on_execution(s, s->ext->ud);
}

/* Appends the subtree below node n to u->wut in preorder (parent: an index
 * into u->wut, -1 for the unit's root). */
static void wut_save(const odpor_state *s, odpor_unit *u, int n, int parent)
{
    for (int c = s->nodes[n].child; c >= 0; c = s->nodes[c].sibling) {
        if (u->nwut == u->capwut) {
            u->capwut = u->capwut ? 2 * u->capwut : 8;
            u->wut = wmx_realloc(u->wut, (size_t)u->capwut * sizeof *u->wut);
        }
        int at = u->nwut++;
        u->wut[at] = (odpor_unit_node){ parent, s->nodes[c] };
        wut_save(s, u, c, at);
    }
}

/* Whether node j has an enabled thread neither asleep nor on the path. */
static bool has_alternative(odpor_state *s, int j)
{
    const sleep_entry *sl = SLEEP(s, j);
    for (int q = 0; q < s->nthreads; q++)
        if (q != s->oev[j].thread && !sl[q].on && thread_enabled(s, STATE(s, j), q))
            return true;
    return false;
}

/* The record of node j, about to be forced: its branches are its sleepers,
 * the path's thread and its pending wakeup branches. */
static odpor_split *split_new(odpor_state *s, int j)
{
    int T = s->nthreads;
    odpor_split *r = wmx_calloc(1, sizeof *r);
    pthread_mutex_init(&r->mu, NULL);
    r->depth = j;
    r->steps = wmx_malloc((size_t)(j ? j : 1) * sizeof *r->steps);
    memcpy(r->steps, s->steps, (size_t)j * sizeof *r->steps);
    r->above = wmx_malloc((size_t)(j ? j : 1) * sizeof *r->above);
    memcpy(r->above, s->split, (size_t)j * sizeof *r->above);
    r->branch = wmx_malloc((size_t)T * sizeof *r->branch);
    r->ev = wmx_calloc((size_t)T, sizeof *r->ev);
    const sleep_entry *sl = SLEEP(s, j);
    for (int q = 0; q < T; q++) {
        atomic_init(&r->branch[q], sl[q].on);
        if (sl[q].on)
            r->ev[q] = sl[q].ev;
    }
    int c = s->nodes[s->root[j]].child;
    atomic_init(&r->branch[s->oev[j].thread], 1);
    r->ev[s->oev[j].thread] = s->oev[j];
    for (int b = s->nodes[c].sibling; b >= 0; b = s->nodes[b].sibling) {
        atomic_init(&r->branch[s->nodes[b].thread], 1);
        r->ev[s->nodes[b].thread] = s->nodes[b].ev;
    }
    pthread_mutex_lock(&s->run->mu);
    r->next = s->run->splits;
    s->run->splits = r;
    r->owner = s->run->rank;
    r->id = s->run->nbyid;
    if (s->run->nbyid == s->run->capbyid) {
        s->run->capbyid = s->run->capbyid ? 2 * s->run->capbyid : 64;
        s->run->byid = wmx_realloc(s->run->byid, (size_t)s->run->capbyid * sizeof *s->run->byid);
    }
    s->run->byid[s->run->nbyid++] = r;
    pthread_mutex_unlock(&s->run->mu);
    return r;
}

/* ---- units and records between MPI ranks (team_net.h) ---- */

/* The record (owner, id): this rank's, or its proxy here (made on first
 * sight); NULL when a number is out of range.  Under run->mu. */
static odpor_split *record_find(odpor_run *run, int owner, int id)
{
    if (owner == run->rank)
        return id >= 0 && id < run->nbyid ? run->byid[id] : NULL;
    if (owner < 0 || id < 0 || !run->net || owner >= run->net->size)
        return NULL;
    if (2 * (run->nproxies + 1) > run->capproxies) {
        int cap = run->capproxies ? 2 * run->capproxies : 256;
        odpor_split **old = run->proxies;
        int oldcap = run->capproxies;
        run->proxies = wmx_calloc((size_t)cap, sizeof *run->proxies);
        run->capproxies = cap;
        for (int i = 0; i < oldcap; i++)
            if (old[i]) {
                uint64_t h = ((uint64_t)old[i]->owner * 0x9e3779b97f4a7c15u) ^ ((uint64_t)old[i]->id * 0xc2b2ae3d27d4eb4fu);
                size_t at = (size_t)(h >> 17) & (size_t)(cap - 1);
                while (run->proxies[at])
                    at = (at + 1) & (size_t)(cap - 1);
                run->proxies[at] = old[i];
            }
        free(old);
    }
    uint64_t h = ((uint64_t)owner * 0x9e3779b97f4a7c15u) ^ ((uint64_t)id * 0xc2b2ae3d27d4eb4fu);
    size_t mask = (size_t)run->capproxies - 1, at = (size_t)(h >> 17) & mask;
    for (; run->proxies[at]; at = (at + 1) & mask)
        if (run->proxies[at]->owner == owner && run->proxies[at]->id == id)
            return run->proxies[at];
    odpor_split *r = wmx_calloc(1, sizeof *r);
    pthread_mutex_init(&r->mu, NULL);
    r->owner = owner;
    r->id = id;
    r->next = run->splits;
    run->splits = r;
    run->proxies[at] = r;
    run->nproxies++;
    return r;
}

/* A unit as bytes: its schedule, sleepers, wakeup tree and the records
 * of its prefix's forced nodes as (owner, number). */
static void unit_encode(const void *unit, void *ctx, wire *w)
{
    const odpor_unit *u = unit;
    const odpor_run *run = ctx;
    wire_i32(w, u->len);
    wire_put(w, u->steps, (size_t)u->len * sizeof *u->steps);
    wire_put(w, u->asleep, (size_t)run->nthreads);
    wire_i32(w, u->nwut);
    for (int i = 0; i < u->nwut; i++) {
        wire_i32(w, u->wut[i].parent);
        const odpor_node *x = &u->wut[i].node;
        wire_i32(w, x->thread);
        wire_put(w, &x->ev, sizeof x->ev);
        wire_i32(w, x->race_e);
        wire_i32(w, x->race_e2);
        wire_i32(w, x->blocking_race);
    }
    for (int i = 0; i < u->len; i++) {
        odpor_split *rec = u->above[i];
        wire_i32(w, rec ? rec->owner : -1);
        wire_i32(w, rec ? rec->id : -1);
        if (!rec)
            continue;
        /* the branches known here, so that the receiver's proxy drops the
         * sequences they make redundant instead of sending them */
        pthread_mutex_lock(&rec->mu);
        wire_i32(w, rec->branch != NULL);
        if (rec->branch) {
            for (int q = 0; q < run->nthreads; q++) {
                unsigned char b = atomic_load(&rec->branch[q]);
                wire_put(w, &b, 1);
            }
            wire_put(w, rec->ev, (size_t)run->nthreads * sizeof *rec->ev);
        }
        pthread_mutex_unlock(&rec->mu);
    }
}

static void *unit_decode(wire_reader *r, void *ctx)
{
    odpor_run *run = ctx;
    int T = run->nthreads;
    int len = wire_get_count(r, 1 << 24);
    if (len < 1)
        return NULL;
    odpor_unit *u = wmx_calloc(1, sizeof *u + (size_t)len * sizeof *u->steps);
    u->len = len;
    wire_get(r, u->steps, (size_t)len * sizeof *u->steps);
    u->asleep = wmx_calloc((size_t)T, 1);
    wire_get(r, u->asleep, (size_t)T);
    u->nwut = u->capwut = wire_get_count(r, 1 << 24);
    bool ok = u->nwut >= 0;
    if (ok && u->nwut > 0) {
        u->wut = wmx_calloc((size_t)u->nwut, sizeof *u->wut);
        for (int i = 0; i < u->nwut && ok; i++) {
            u->wut[i].parent = wire_get_i32(r);
            odpor_node *x = &u->wut[i].node;
            x->thread = wire_get_i32(r);
            wire_get(r, &x->ev, sizeof x->ev);
            x->race_e = wire_get_i32(r);
            x->race_e2 = wire_get_i32(r);
            x->blocking_race = wire_get_i32(r) != 0;
            x->child = x->sibling = -1;
            ok = u->wut[i].parent >= -1 && u->wut[i].parent < i && x->thread >= 0 && x->thread < T;
        }
    }
    u->above = wmx_calloc((size_t)len, sizeof *u->above);
    pthread_mutex_lock(&run->mu);
    unsigned char *branch = wmx_malloc((size_t)T);
    odpor_event *ev = wmx_malloc((size_t)T * sizeof *ev);
    for (int i = 0; i < len && ok; i++) {
        int owner = wire_get_i32(r), id = wire_get_i32(r);
        if (owner < 0)
            continue;
        odpor_split *rec = u->above[i] = record_find(run, owner, id);
        if (!rec) {
            ok = false;
            break;
        }
        if (!wire_get_i32(r))
            continue;
        wire_get(r, branch, (size_t)T);
        wire_get(r, ev, (size_t)T * sizeof *ev);
        if (rec->owner == run->rank || r->bad)
            continue;           /* our own record knows better */
        pthread_mutex_lock(&rec->mu);
        if (!rec->branch) {
            rec->branch = wmx_calloc((size_t)T, sizeof *rec->branch);
            rec->ev = wmx_calloc((size_t)T, sizeof *rec->ev);
        }
        for (int q = 0; q < T; q++)
            if (branch[q] && !rec->branch[q]) {
                rec->ev[q] = ev[q];
                atomic_store(&rec->branch[q], 1);
            }
        pthread_mutex_unlock(&rec->mu);
    }
    free(branch);
    free(ev);
    pthread_mutex_unlock(&run->mu);
    for (int i = 0; i < len && ok; i++)
        ok = u->steps[i].thread >= 0 && u->steps[i].thread < T;
    if (!ok || !wire_done(r)) {
        unit_free(u);
        return NULL;
    }
    return u;
}

/* A wakeup sequence for a forced node another rank holds: to its owner. */
static void claim_send(odpor_run *run, odpor_split *r, const odpor_event *v, int len,
                       wmx_eid race_e, wmx_eid race_e2, bool blocking)
{
    wire w;
    wire_init(&w);
    wire_i32(&w, r->id);
    wire_i32(&w, len);
    wire_put(&w, v, (size_t)len * sizeof *v);
    wire_i32(&w, race_e);
    wire_i32(&w, race_e2);
    wire_i32(&w, blocking);
    run->net->post(run->net, r->owner, &w);
    wire_free(&w);
}

/* ... and at the owner, the claim as if found here. */
static void claim_receive(wire_reader *rd, void *ctx, team *t)
{
    odpor_run *run = ctx;
    int id = wire_get_i32(rd);
    int len = wire_get_count(rd, 1 << 24);
    if (len < 1)
        return;
    odpor_event *v = wmx_malloc((size_t)len * sizeof *v);
    wire_get(rd, v, (size_t)len * sizeof *v);
    wmx_eid race_e = wire_get_i32(rd), race_e2 = wire_get_i32(rd);
    bool blocking = wire_get_i32(rd) != 0;
    pthread_mutex_lock(&run->mu);
    odpor_split *r = record_find(run, run->rank, id);
    pthread_mutex_unlock(&run->mu);
    bool ok = r && wire_done(rd);
    for (int i = 0; i < len && ok; i++)
        ok = v[i].thread >= 0 && v[i].thread < run->nthreads;
    if (ok)
        split_claim_at(run, t, NULL, r, v, len, race_e, race_e2, blocking);
    else
        fprintf(stderr, "wmx: rank %d: a wakeup sequence from another rank was corrupt\n", run->rank);
    free(v);
}

static void split_free(odpor_split *r)
{
    pthread_mutex_destroy(&r->mu);
    free(r->steps);
    free(r->above);
    free((void *)r->branch);
    free(r->ev);
    free(r);
}

/* Whether splitting at node j would start a unit with more than one
 * sleeper.  Each is foreign there (see try_insert), and a unit with
 * several foreign sleepers meets many executions cut by the sleep set:
 * lastzero-14 split anywhere ran 1.1-1.5 M events against one worker's
 * 917503 (units asleep on P0 and P1 ran 87 events a trace where one worker
 * runs 13, and deeper ones ran tens of thousands of events without one
 * trace).  Such a split waits (give_away) while the giver's path moves on
 * and may offer a better node, at most max(SPLIT_PATIENCE, the worker's
 * executions so far) times in a row. */
static bool crowded_split(odpor_state *s, int j)
{
    const sleep_entry *sl = SLEEP(s, j);
    int c = s->nodes[s->root[j]].child;
    for (int b = s->nodes[c].sibling; b >= 0; b = s->nodes[b].sibling) {
        const odpor_event *ev = &s->nodes[b].ev;
        int n = !conflict(&s->oev[j], ev, s->ifaa);
        for (int x = 0; x < s->nthreads; x++)
            n += sl[x].on && !conflict(&sl[x].ev, ev, s->ifaa);
        for (int e = s->nodes[c].sibling; e != b; e = s->nodes[e].sibling)
            n += !conflict(&s->nodes[e].ev, ev, s->ifaa);
        if (n > 1)
            return true;
    }
    return false;
}

/* Someone waits for work.  The shallowest node j of the path with a
 * pending wakeup branch is forced, and so are the nodes between the last
 * forced one and j: j's pending branches become units E[0..j).q, each with
 * its wakeup subtree and a sleep set that holds j's sleep set, the path's
 * thread and the units before it (those independent of q's event), as if
 * j's branches ran one after the other in that order.  Every one of them
 * is a foreign sleeper there (see try_insert): the path's thread and the
 * earlier units run elsewhere at the same time, and even a branch that
 * finished before may have counted, for a sequence it made redundant, on
 * one that the path's thread inserts below q only later (lastzero-4 lost
 * 2 of 28 traces when j's own sleepers kept Optimal-DPOR's test, the
 * subtree of q missing [q 3 4 3 4 0 0 0 0] while the sleeping P0 made
 * [4] redundant).  A forced node takes no wakeup
 * sequence into this tree any more; a forced node with an enabled thread
 * not asleep nor on the path gets a record, and a wakeup sequence for it
 * becomes a unit (split_claim). */
static void give_away(odpor_state *s)
{
    int T = s->nthreads;
    int j = -1;
    for (int i = s->forced; i < s->depth && j < 0; i++)
        if (s->nodes[s->nodes[s->root[i]].child].sibling >= 0)
            j = i;
    if (j < 0)
        return;
    /* A unit is worth its cost only when the work below j is well above
     * replaying its prefix of j steps: the executions below j run
     * s->depth - j steps each at least.  Forcing j also makes every later
     * wakeup sequence for a node above j a unit (split_claim), so the
     * bound holds for those too.  longwriter-2048 (C, SC) is a comb whose
     * branches lie along a 2049-step path: split at j = 1366 (half way),
     * every unit replayed ~1000 steps to run ~700 (--jobs 2 1.26 s
     * against 0.54 s on one); now the split waits for j <= depth / 4.
     * (The tests' forced splits are not patient.) */
    if (s->patient && 4 * j > s->depth)
        return;
    /* waiting costs at most the other worker's time for as many executions
     * as this one has run: lastzero-14 still split crowded in one run of
     * five after 10000 (1.2-1.4 M events), never in 20 with this */
    long patience = s->nexec > SPLIT_PATIENCE ? s->nexec : SPLIT_PATIENCE;
    if (s->patient && s->refused < patience && crowded_split(s, j)) {
        s->refused++;
        return;
    }
    s->refused = 0;
    for (int i = s->forced; i <= j; i++)
        s->split[i] = has_alternative(s, i) ? split_new(s, i) : NULL;
    const sleep_entry *sl = SLEEP(s, j);
    int cur = s->oev[j].thread;
    odpor_event *evs = wmx_malloc((size_t)T * sizeof *evs);
    bool *in = wmx_calloc((size_t)T, sizeof *in);   /* a branch before the next unit */
    for (int q = 0; q < T; q++)
        if (sl[q].on) {
            in[q] = true;
            evs[q] = sl[q].ev;
        }
    in[cur] = true;
    evs[cur] = s->oev[j];
    int c = s->nodes[s->root[j]].child;   /* the path's, root[j + 1] */
    int n = 0;
    for (int b = s->nodes[c].sibling; b >= 0; b = s->nodes[b].sibling)
        n++;
    odpor_unit **units = wmx_malloc((size_t)n * sizeof *units);
    int k = 0;
    for (int b = s->nodes[c].sibling; b >= 0; b = s->nodes[b].sibling) {
        int q = s->nodes[b].thread;
        const odpor_event *ev = &s->nodes[b].ev;
        odpor_unit *u = unit_new(T, s->steps, j, q, s->split, s->split[j]);
        for (int x = 0; x < T; x++)
            if (in[x] && !conflict(&evs[x], ev, s->ifaa))
                u->asleep[x] = 1;
        wut_save(s, u, b, -1);
        units[k++] = u;
        in[q] = true;
        evs[q] = *ev;
    }
    /* a stack: the first unit is taken first */
    for (int x = k - 1; x >= 0; x--)
        team_give(s->team, units[x]);
    free(units);
    free(evs);
    free(in);
    node_free_list(s, s->nodes[c].sibling);
    s->nodes[c].sibling = -1;
    s->forced = j + 1;
}

static void state_free(odpor_state *s)
{
    free(s->sched);
    free(s->states);
    free(s->steps);
    free(s->events);
    free(s->oev);
    free(s->root);
    free(s->sleep);
    free(s->split);
    free(s->enabled);
    free(s->nodes);
    free(s->scratch);
    free(s->pred);
    free(s->succ);
    free(s->seq);
    free(s->arr);
    free(s->work);
    free(s->succ_stamp);
    free(s->cand_off);
    free(s->prev_of);
    free(s->cand);
    free(s->prev_pos);
    free(s->last_w);
    free(s->last_a);
    free(s->last_s);
    free(s->touched);
    odpor_faa_unused_free(s->prog, s->faa_unused);
}

static void state_init(odpor_state *s, const wmx_program *prog, const wmx_machine *m,
                       const explore_opts *opts, odpor_ext *ext, explore_result *res,
                       explore_clock *clk)
{
    memset(s, 0, sizeof *s);
    s->prog = prog;
    s->m = m;
    s->opts = opts;
    s->ext = ext;
    s->res = res;
    s->ifaa = opts->ifaa;
    s->faa_unused = opts->ifaa ? odpor_faa_unused_table(prog, res) : NULL;
    s->nthreads = prog->nthreads > 0 ? prog->nthreads : 1;
    /* New steps come from thread 0 first (it creates the others: a C
     * program's main), then from the other threads, checkers last: threads
     * that assert and write nothing of the program's (hidden $ flags
     * aside).  The executions are the same in any order, but a checker
     * that ran first saw the others' work only after most orders of their
     * races (SV-COMP's inc tasks: 6 incrementers and a checker found the
     * error after 3000 executions, now in the first).  A thread that
     * asserts and writes (pthread-wmm's P0 checks its store buffer) stays
     * in its place: moved back, mix050's error took over 800000
     * executions, not under 200000. */
    s->sched = wmx_malloc((size_t)s->nthreads * sizeof *s->sched);
    unsigned char *asserts = wmx_calloc((size_t)s->nthreads, 1);
    for (int t = 1; t < prog->nthreads; t++) {
        bool writes = false;
        for (int i = 0; i < prog->threads[t].ninstrs && !writes; i++) {
            const ir_instr *in = &prog->threads[t].instrs[i];
            if (in->kind == I_ASSERT)
                asserts[t] = 1;
            if (in->kind == I_STORE || in->kind == I_XCHG || in->kind == I_FAA || in->kind == I_CAS)
                writes = in->addr.var < 0 || prog->vars[in->addr.var].name[0] != '$';
        }
        if (writes)
            asserts[t] = 0;
    }
    int ns = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int t = 0; t < s->nthreads; t++)
            if (asserts[t] == pass)
                s->sched[ns++] = t;
    free(asserts);
    s->ssize = machine_state_size(m);
    s->maxen = machine_max_enabled(m);
    s->free_nodes = -1;
    s->enabled = wmx_malloc((size_t)(s->maxen > 0 ? s->maxen : 1) * sizeof *s->enabled);
    s->scratch = wmx_malloc(s->ssize);
    s->clk = clk;
    grow(s);
}

/* Sets up the unit's prefix (NULL: the initial state with nothing asleep):
 * its states, events and sleep set.  False when the budget refused the
 * stack (the run ends). */
static bool load_unit(odpor_state *s, const odpor_unit *u)
{
    int len = u ? u->len : 0;
    while (len + 1 >= s->cap) {
        if (explore_reserve(s->clk, s->opts, s->res, (size_t)s->cap * s->ssize))
            return false;
        grow(s);
    }
    if (s->nnodes > 0 && s->root[s->base] >= 0)
        node_free_tree(s, s->root[s->base]);
    machine_init(s->m, STATE(s, 0));
    for (int i = 0; i < len; i++) {
        memcpy(STATE(s, i + 1), STATE(s, i), s->ssize);
        machine_apply(s->m, STATE(s, i + 1), &u->steps[i], &s->events[i]);
        s->steps[i] = u->steps[i];
        s->oev[i] = odpor_event_of(s->prog, &s->events[i], s->faa_unused);
        s->root[i] = -1;        /* no wakeup tree: nothing is inserted there */
        s->split[i] = u->above[i];
    }
    sleep_entry *sl = SLEEP(s, len);
    memset(sl, 0, (size_t)s->nthreads * sizeof *sl);
    for (int q = 0; u && q < s->nthreads; q++)
        if (u->asleep[q] && thread_enabled(s, STATE(s, len), q)) {
            memcpy(s->scratch, STATE(s, len), s->ssize);
            sl[q].on = true;
            sl[q].foreign = true;
            sl[q].ev = scratch_step(s, q);
        }
    if (u)
        s->res->events++;       /* the unit's own step; its giver did not run it */
    s->root[len] = node_new(s, -1, NULL);
    if (u && u->nwut > 0) {
        int *made = wmx_malloc((size_t)u->nwut * sizeof *made);
        for (int i = 0; i < u->nwut; i++) {
            const odpor_node *x = &u->wut[i].node;
            int n = node_new(s, x->thread, &x->ev);
            s->nodes[n].race_e = x->race_e;
            s->nodes[n].race_e2 = x->race_e2;
            s->nodes[n].blocking_race = x->blocking_race;
            node_append_child(s, u->wut[i].parent < 0 ? s->root[len] : made[u->wut[i].parent], n);
            made[i] = n;
        }
        free(made);
    }
    s->base = s->depth = s->forced = len;
    s->hb_from = 0;             /* another prefix: no row of the last analysis stands */
    return true;
}

/* Explores everything below the loaded unit's prefix; false when a limit
 * stopped it. */
static bool run_unit(odpor_state *s)
{
    team *t = s->team;
    const explore_opts *opts = s->opts;
    explore_result *res = s->res;
    odpor_ext *ext = s->ext;
    const wmx_machine *m = s->m;
    enum { ENTER, DESCEND, BACKTRACK } mode = ENTER;
    budget_poll poll = { -1, 0 };
    int picked = -1;         /* the node ENTER just chose */
    for (;;) {
        int d = s->depth;
        if (mode == ENTER) {
            if (poll_budget(&poll, s->clk, opts, res, d))
                return false;
            /* a pending wakeup sequence is enabled here by construction:
             * the enabled set is needed only to choose, or to see the end */
            if (s->nodes[s->root[d]].child >= 0) {
                mode = DESCEND;
                continue;
            }
            /* the first enabled thread that is not asleep (SC: a step per
             * thread, no flushes); its event is filled in when taken */
            const sleep_entry *sl = SLEEP(s, d);
            int pick = -1;
            for (int k = 0; k < s->nthreads && pick < 0; k++) {
                int q = s->sched[k];
                if (!sl[q].on && thread_enabled(s, STATE(s, d), q))
                    pick = q;
            }
            if (pick < 0) {
                bool any = false;
                for (int q = 0; q < s->nthreads && !any; q++)
                    any = sl[q].on && thread_enabled(s, STATE(s, d), q);
                if (!any) {
                    maximal(s);
                } else {
                    /* Cut by the sleep set.  Never on one worker
                     * (Optimal-DPOR's wakeup sequences leave nothing
                     * asleep), but a unit's foreign sleepers may never
                     * wake: the races are analysed as a maximal
                     * execution's would be, as Source-DPOR does. */
                    if (ext)
                        ext->sleep_blocked++;
                    analyse(s, d);
                }
                if (t && team_hungry(t) &&
                    (s->run->split_at < 0 || atomic_fetch_add(&s->run->checks, 1) == s->run->split_at))
                    give_away(s);
                mode = BACKTRACK;
                continue;
            }
            int c = node_new(s, pick, NULL);
            node_append_child(s, s->root[d], c);
            picked = c;          /* enabled: thread_enabled just said so */
            mode = DESCEND;
            continue;
        }
        if (mode == DESCEND) {
            if (poll_budget(&poll, s->clk, opts, res, d))
                return false;
            if (d + 1 >= s->cap) {
                /* the stack of states doubles: refuse it past the memory budget */
                if (explore_reserve(s->clk, opts, res, (size_t)s->cap * s->ssize))
                    return false;
                grow(s);
            }
            int c = s->nodes[s->root[d]].child;
            int q = s->nodes[c].thread;
            wmx_transition tr = { TR_STEP, q, -1 };
            bool known = c == picked;
            picked = -1;
            if (!known && !machine_is_enabled(m, STATE(s, d), &tr)) {
                /* cannot happen: wakeup sequences are executions */
                s->nodes[s->root[d]].child = s->nodes[c].sibling;
                s->nodes[c].sibling = -1;
                node_free_tree(s, c);
                mode = s->nodes[s->root[d]].child >= 0 ? DESCEND : BACKTRACK;
                continue;
            }
            memcpy(STATE(s, d + 1), STATE(s, d), s->ssize);
            machine_apply(m, STATE(s, d + 1), &tr, &s->events[d]);
            s->steps[d] = tr;
            s->oev[d] = odpor_event_of(s->prog, &s->events[d], s->faa_unused);
            s->nodes[c].ev = s->oev[d];
            res->events++;
            const sleep_entry *sl = SLEEP(s, d);
            sleep_entry *nsl = SLEEP(s, d + 1);
            for (int q2 = 0; q2 < s->nthreads; q2++) {
                nsl[q2].on = sl[q2].on && !conflict(&sl[q2].ev, &s->oev[d], s->ifaa);
                nsl[q2].ev = sl[q2].ev;
                nsl[q2].foreign = sl[q2].foreign;
            }
            s->root[d + 1] = c;
            s->depth = d + 1;
            mode = ENTER;
            continue;
        }
        /* BACKTRACK */
        if (d == s->base)
            return true;
        d = --s->depth;
        if (d < s->hb_from)
            s->hb_from = d;
        int c = s->nodes[s->root[d]].child;
        sleep_entry *sl = SLEEP(s, d);
        sl[s->oev[d].thread].on = true;
        sl[s->oev[d].thread].foreign = false;
        sl[s->oev[d].thread].ev = s->oev[d];
        s->nodes[s->root[d]].child = s->nodes[c].sibling;
        s->nodes[c].sibling = -1;
        node_free_tree(s, c);
        mode = s->nodes[s->root[d]].child >= 0 ? DESCEND : BACKTRACK;
    }
}

/* ---- --jobs N ---- */

static void odpor_work(explore_worker *w)
{
    wmx_machine *m = machine_new(w->prog, w->opts.model, &w->err);
    if (!m) {
        w->rc = -1;
        return;
    }
    explore_clock clk;
    explore_clock_start(&clk, &w->opts);
    odpor_state st;
    state_init(&st, w->prog, m, &w->opts, NULL, &w->res, &clk);
    st.run = w->ctx;
    st.team = w->team;
    st.patient = !team_eager(w->team) && st.run->split_at < 0;
    odpor_unit *u = NULL;
    for (bool first = w->starts; first || (u = team_take(w->team)) != NULL; first = false) {
        bool ok = load_unit(&st, u) && run_unit(&st);
        unit_free(u);
        u = NULL;
        if (!ok || !w->res.complete)
            break;
    }
    state_free(&st);
    machine_free(m);
}

static void odpor_drop(void *unit, void *ctx)
{
    (void)ctx;
    unit_free(unit);
}

int explore_odpor_ex(const wmx_program *prog, const explore_opts *opts, odpor_ext *ext,
                     explore_result *res, wmx_error *err)
{
    explore_result_init(res, prog, opts->model, ALGO_ODPOR);
    if (opts->model != MODEL_SC) {
        wmx_error_set(err, prog->file, 0, 0,
                      "--algo odpor supports only --model sc (got %s); use rfsmc or naive",
                      model_name(opts->model));
        return -1;
    }
    /* introspection follows one search: it stays on one worker */
    if (!ext && explore_split(opts)) {
        explore_result_free(res);
        odpor_run run = { .splits = NULL, .split_at = -1, .nthreads = prog->nthreads, .ifaa = opts->ifaa };
        if (explore_net_on(opts)) {
            run.net = opts->net;
            run.rank = opts->net->rank;
        }
        const char *at = getenv("WMX_TEST_SPLIT_AT");
        if (at && *at)
            run.split_at = atol(at);
        atomic_init(&run.checks, 0);
        pthread_mutex_init(&run.mu, NULL);
        static const explore_codec codec = { unit_encode, unit_decode, odpor_drop, claim_receive };
        int rc = explore_parallel_net(prog, opts, ALGO_ODPOR, odpor_work, odpor_drop, &codec, &run, res, err);
        for (odpor_split *r = run.splits, *next; r; r = next) {
            next = r->next;
            split_free(r);
        }
        free(run.byid);
        free(run.proxies);
        pthread_mutex_destroy(&run.mu);
        return rc;
    }
    double t0 = explore_now();
    wmx_machine *m = machine_new(prog, opts->model, err);
    if (!m)
        return -1;
    if (ext && ext->dump_dir) {
        if (mkdir(ext->dump_dir, 0777) != 0 && errno != EEXIST) {
            wmx_error_set(err, ext->dump_dir, 0, 0, "cannot create directory: %s", strerror(errno));
            machine_free(m);
            return -1;
        }
    }
    explore_clock clk;
    explore_clock_start(&clk, opts);
    odpor_state st;
    state_init(&st, prog, m, opts, ext, res, &clk);
    if (load_unit(&st, NULL))
        run_unit(&st);
    res->time_s = explore_now() - t0;
    explore_finish(res);
    bool failed = st.dump_failed;
    if (failed)
        *err = st.dump_err;
    state_free(&st);
    machine_free(m);
    return failed ? -1 : 0;
}

int explore_odpor(const wmx_program *prog, const explore_opts *opts,
                  explore_result *res, wmx_error *err)
{
    return explore_odpor_ex(prog, opts, NULL, res, err);
}

/* ---- tests: units and claims between ranks ---- */

typedef struct capture_net {
    team_net pub;                /* first: post() gets it */
    wire msg;
    int to;
} capture_net;

static void capture_post(team_net *n, int to, const wire *msg)
{
    capture_net *c = (capture_net *)n;
    wire_reset(&c->msg);
    wire_put(&c->msg, msg->buf, msg->len);
    c->to = to;
}

/* rank's run with m records of its own, each at depth j with steps */
static void selftest_run(odpor_run *run, capture_net *net, int rank, int T, int m)
{
    memset(net, 0, sizeof *net);
    net->pub.rank = rank;
    net->pub.size = 3;
    net->pub.post = capture_post;
    memset(run, 0, sizeof *run);
    pthread_mutex_init(&run->mu, NULL);
    run->net = &net->pub;
    run->rank = rank;
    run->nthreads = T;
    run->split_at = -1;
    for (int k = 0; k < m; k++) {
        odpor_split *r = wmx_calloc(1, sizeof *r);
        pthread_mutex_init(&r->mu, NULL);
        r->depth = k;
        r->steps = wmx_calloc((size_t)k + 1, sizeof *r->steps);
        for (int i = 0; i < k; i++)
            r->steps[i] = (wmx_transition){ TR_STEP, i % T, -1 };
        r->above = wmx_calloc((size_t)k + 1, sizeof *r->above);
        r->branch = wmx_calloc((size_t)T, sizeof *r->branch);
        r->ev = wmx_calloc((size_t)T, sizeof *r->ev);
        r->owner = rank;
        r->id = k;
        r->next = run->splits;
        run->splits = r;
        if (run->nbyid == run->capbyid) {
            run->capbyid = run->capbyid ? 2 * run->capbyid : 64;
            run->byid = wmx_realloc(run->byid, (size_t)run->capbyid * sizeof *run->byid);
        }
        run->byid[run->nbyid++] = r;
    }
}

static void selftest_free(odpor_run *run, capture_net *net)
{
    for (odpor_split *r = run->splits, *next; r; r = next) {
        next = r->next;
        split_free(r);
    }
    free(run->byid);
    free(run->proxies);
    pthread_mutex_destroy(&run->mu);
    wire_free(&net->msg);
}

const char *odpor_wire_selftest(const wmx_program *p, unsigned seed)
{
    int T = p->nthreads, m = 6;
    if (T < 2)
        return "odpor: the program needs two threads";
    unsigned x = seed * 2654435761u + 7;
#define NEXT() wire_selftest_next(&x)
    odpor_run a, b;
    capture_net na, nb;
    selftest_run(&a, &na, 0, T, m);
    selftest_run(&b, &nb, 1, T, m);
    /* a unit of rank 0 */
    int len = 1 + (int)(NEXT() % 24);
    odpor_unit *u = wmx_calloc(1, sizeof *u + (size_t)len * sizeof *u->steps);
    u->len = len;
    for (int i = 0; i < len; i++)
        u->steps[i] = (wmx_transition){ NEXT() % 3 ? TR_STEP : TR_FLUSH, (int)(NEXT() % (unsigned)T),
                                        (int)(NEXT() % 4) - 1 };
    u->asleep = wmx_calloc((size_t)T, 1);
    for (int q = 0; q < T; q++)
        u->asleep[q] = NEXT() % 2;
    u->nwut = u->capwut = (int)(NEXT() % 7);
    u->wut = wmx_calloc((size_t)u->nwut + 1, sizeof *u->wut);
    for (int i = 0; i < u->nwut; i++) {
        odpor_node nd = { .thread = (int)(NEXT() % (unsigned)T), .child = -1, .sibling = -1,
                          .race_e = (wmx_eid)NEXT() % 50, .race_e2 = (wmx_eid)NEXT() % 50,
                          .blocking_race = NEXT() % 2 };
        nd.ev = (odpor_event){ nd.thread, (int)(NEXT() % 9), (int)(NEXT() % 9), (int)(NEXT() % 4) - 1,
                               NEXT() % 2, NEXT() % 2, NEXT() % 2, NEXT() % 2 };
        u->wut[i] = (odpor_unit_node){ i ? (int)(NEXT() % (unsigned)(i + 1)) - 1 : -1, nd };
    }
    u->above = wmx_calloc((size_t)len, sizeof *u->above);
    for (int i = 0; i < len; i++) {
        switch (NEXT() % 4) {
        case 0: u->above[i] = NULL; break;
        case 1: u->above[i] = a.byid[NEXT() % (unsigned)m]; break;                  /* rank 0's */
        case 2: u->above[i] = record_find(&a, 1, (int)(NEXT() % (unsigned)m)); break; /* rank 1's */
        default: u->above[i] = record_find(&a, 2, (int)(NEXT() % 100)); break;      /* rank 2's */
        }
    }
    wire w1, w2;
    wire_init(&w1);
    wire_init(&w2);
    unit_encode(u, &a, &w1);
    wire_reader rd;
    wire_reader_init(&rd, w1.buf, w1.len);
    odpor_unit *v = unit_decode(&rd, &b);
    const char *why = NULL;
    if (!v) {
        why = "odpor: the unit did not read back";
    } else {
        /* (written again the bytes may differ: rank 1 adds what its own
         * records know of their branches) */
        unit_encode(v, &b, &w2);
        wire_reader_init(&rd, w2.buf, w2.len);
        odpor_unit *again = unit_decode(&rd, &a);
        if (!again || again->len != u->len || memcmp(again->steps, u->steps, (size_t)len * sizeof *u->steps) != 0)
            why = "odpor: written again and read back, another unit";
        unit_free(again);
        if (why)
            ;
        else if (v->len != u->len || memcmp(v->steps, u->steps, (size_t)len * sizeof *u->steps) != 0 ||
                 memcmp(v->asleep, u->asleep, (size_t)T) != 0 || v->nwut != u->nwut)
            why = "odpor: another schedule, sleep set or tree read back";
        for (int i = 0; i < u->nwut && !why; i++)
            if (v->wut[i].parent != u->wut[i].parent || v->wut[i].node.thread != u->wut[i].node.thread ||
                memcmp(&v->wut[i].node.ev, &u->wut[i].node.ev, sizeof u->wut[i].node.ev) != 0 ||
                v->wut[i].node.race_e != u->wut[i].node.race_e || v->wut[i].node.race_e2 != u->wut[i].node.race_e2 ||
                v->wut[i].node.blocking_race != u->wut[i].node.blocking_race)
                why = "odpor: another wakeup tree read back";
        for (int i = 0; i < len && !why; i++) {
            const odpor_split *s = u->above[i], *t = v->above[i];
            if (!s ? t != NULL : !t || t->owner != s->owner || t->id != s->id)
                why = "odpor: other records read back";
            else if (s && s->owner == 1 && t != b.byid[s->id])
                why = "odpor: the receiver's own record came back as a proxy";
        }
    }
    /* a wakeup sequence for rank 1's record 3, found on rank 0 */
    if (!why) {
        odpor_split *proxy = record_find(&a, 1, 3);
        odpor_event seq[3];
        for (int i = 0; i < 3; i++)
            seq[i] = (odpor_event){ i % T, i, 1, 0, true, false, false, false };
        team *tb = team_new(1);
        split_claim_at(&a, NULL, NULL, proxy, seq, 3, 5, 6, false);
        wire_reader_init(&rd, na.msg.buf, na.msg.len);
        if (na.to != 1)
            why = "odpor: the claim went to another rank";
        else
            claim_receive(&rd, &b, tb);
        odpor_unit *c = why ? NULL : team_drain(tb);
        if (!why && !c)
            why = "odpor: the claim made no unit at its owner";
        else if (c && (c->len != 4 || c->steps[3].thread != seq[0].thread || c->nwut != 2 ||
                       c->above[3] != b.byid[3] || c->wut[0].node.race_e != 5))
            why = "odpor: the claim made another unit";
        unit_free(c);
        team_free(tb);
    }
#undef NEXT
    unit_free(u);
    unit_free(v);
    wire_free(&w1);
    wire_free(&w2);
    selftest_free(&a, &na);
    selftest_free(&b, &nb);
    return why;
}
