/* game.c - the TSO game's position graph and its attractor solver.
 *
 * A position is a TSO configuration, the player to move and a phase:
 *   S  the mover starts her turn (B wins at an A-position in S with a final
 *      process state: the paper's C_F, a subset of C_A);
 *   P  the mover has flushed one or more messages before her instruction;
 *   Q  the mover has executed her instruction and may flush before ending.
 * A paper move c_A -> c'_B is then a path S (P...) [instr] (Q...) to the
 * other player's S.  A P-position without any instruction or flush is a dead
 * end that loses for the mover (that update sequence is no move).  A player
 * who has no move at all (no instruction enabled in any configuration her
 * allowed updates reach) passes: S -> the other's S, configuration unchanged.
 * Process states never change during updates, so where the final-state test
 * sits among update phases does not change the winner.
 *
 * Key layout (bytes): tag (owner | phase<<1), a state per process, a value
 * per variable, then `slots` buffer bytes per process.  Buffered messages are
 * 1 + var*ndom + val, oldest first, 0 = free.  In the collapsed encoding
 * (never/never, exact) slot x holds 1 + the last value written to x, or 0. */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void game_opts_init(game_opts *o)
{
    memset(o, 0, sizeof *o);
    o->first = GAME_A;
    o->k = 2;
}

#define KEY(G, v) ((G)->keys + (size_t)(v) * (size_t)(G)->keylen)
#define ST(G, key, p) ((key)[1 + (p)])
#define MEM(G, key, x) ((key)[1 + (G)->g->nprocs + (x)])
#define BUF(G, key, p) ((key) + 1 + (G)->g->nprocs + (G)->g->nvars + (size_t)(p) * (size_t)(G)->slots)

static int upd_of(const game_graph *G, int owner) { return owner == GAME_A ? G->o.a_update : G->o.b_update; }

int game_owner(const game_graph *G, uint32_t v) { return KEY(G, v)[0] & 1; }
int game_phase(const game_graph *G, uint32_t v) { return KEY(G, v)[0] >> 1; }

static int key_final(const game_graph *G, const uint8_t *key)
{
    for (int p = 0; p < G->g->nprocs; p++)
        if (G->g->procs[p].final[ST(G, key, p)])
            return 1;
    return 0;
}

int game_is_target(const game_graph *G, uint32_t v)
{
    const uint8_t *k = KEY(G, v);
    return k[0] == (GAME_A | (GP_S << 1)) && key_final(G, k);
}

static int buf_len(const game_graph *G, const uint8_t *key, int p)
{
    const uint8_t *b = BUF(G, key, p);
    int n = 0;
    if (G->collapse) {
        for (int i = 0; i < G->slots; i++)
            n += b[i] != 0;
        return n;
    }
    while (n < G->slots && b[n])
        n++;
    return n;
}

/* The value process p sees for x: its newest buffered write, else memory. */
static int view(const game_graph *G, const uint8_t *key, int p, int x)
{
    const uint8_t *b = BUF(G, key, p);
    int nd = G->g->ndom;
    if (G->collapse)
        return b[x] ? b[x] - 1 : MEM(G, key, x);
    for (int i = buf_len(G, key, p) - 1; i >= 0; i--)
        if ((b[i] - 1) / nd == x)
            return (b[i] - 1) % nd;
    return MEM(G, key, x);
}

/* Applies transition t of process p to key in place; 0 if not enabled. */
static int apply_instr(const game_graph *G, uint8_t *key, int p, const game_trans *t)
{
    if (ST(G, key, p) != t->from)
        return 0;
    uint8_t *b = BUF(G, key, p);
    switch (t->op) {
    case GOP_WR:
        if (G->collapse) {
            b[t->var] = (uint8_t)(1 + t->val);
        } else {
            int n = buf_len(G, key, p);
            if (n >= G->slots)
                return 0;         /* K-bounded: a full buffer disables writes */
            b[n] = (uint8_t)(1 + t->var * G->g->ndom + t->val);
        }
        break;
    case GOP_RD:
        if (view(G, key, p, t->var) != t->val)
            return 0;
        break;
    case GOP_MF:
        if (buf_len(G, key, p) != 0)
            return 0;
        break;
    case GOP_SKIP:
        break;
    }
    ST(G, key, p) = (uint8_t)t->to;
    return 1;
}

/* Moves the oldest message of p's buffer to memory; 0 if empty. */
static int apply_flush(const game_graph *G, uint8_t *key, int p)
{
    if (G->collapse)
        return 0;
    uint8_t *b = BUF(G, key, p);
    if (!b[0])
        return 0;
    int m = b[0] - 1;
    MEM(G, key, m / G->g->ndom) = (uint8_t)(m % G->g->ndom);
    memmove(b, b + 1, (size_t)G->slots - 1);
    b[G->slots - 1] = 0;
    return 1;
}

static uint64_t hash_key(const uint8_t *k, int n)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < n; i++) {
        h ^= k[i];
        h *= 1099511628211ull;
    }
    /* murmur3's finaliser: FNV alone leaves the low bits (the index) poor */
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

static void grow_hash(game_graph *G)
{
    uint32_t ncap = G->hcap ? G->hcap * 2 : 1024;
    uint32_t *nh = wmx_calloc(ncap, sizeof *nh);
    for (uint32_t v = 0; v < G->n; v++) {
        uint32_t i = (uint32_t)hash_key(KEY(G, v), G->keylen) & (ncap - 1);
        while (nh[i])
            i = (i + 1) & (ncap - 1);
        nh[i] = v + 1;
    }
    free(G->hash);
    G->hash = nh;
    G->hcap = ncap;
}

/* Index of key (whose hash is h), inserting it when new.  The caller has
 * made room in the table. */
static uint32_t intern_h(game_graph *G, const uint8_t *key, uint64_t h)
{
    uint32_t i = (uint32_t)h & (G->hcap - 1);
    while (G->hash[i]) {
        uint32_t v = G->hash[i] - 1;
        if (memcmp(KEY(G, v), key, (size_t)G->keylen) == 0)
            return v;
        i = (i + 1) & (G->hcap - 1);
    }
    if (G->n == G->cap) {
        G->cap = G->cap ? G->cap * 2 : 1024;
        G->keys = wmx_realloc(G->keys, (size_t)G->cap * (size_t)G->keylen);
        G->soff = wmx_realloc(G->soff, ((size_t)G->cap + 1) * sizeof *G->soff);
    }
    memcpy(KEY(G, G->n), key, (size_t)G->keylen);
    G->hash[i] = G->n + 1;
    return G->n++;
}

static void add_edge(game_graph *G, uint32_t to, uint16_t lab)
{
    if (G->nedges == G->ecap) {
        G->ecap = G->ecap ? G->ecap * 2 : 4096;
        G->succ = wmx_realloc(G->succ, (size_t)G->ecap * sizeof *G->succ);
        G->lab = wmx_realloc(G->lab, (size_t)G->ecap * sizeof *G->lab);
    }
    G->succ[G->nedges] = to;
    G->lab[G->nedges] = lab;
    G->nedges++;
}

static uint32_t intern(game_graph *G, const uint8_t *key)
{
    if ((uint64_t)(G->n + 1) * 2 > G->hcap)
        grow_hash(G);
    return intern_h(G, key, hash_key(key, G->keylen));
}

static void emit(game_graph *G, const uint8_t *key, uint16_t lab)
{
    if (G->bn == G->bcap) {
        G->bcap = G->bcap ? G->bcap * 2 : 64;
        G->bkeys = wmx_realloc(G->bkeys, (size_t)G->bcap * (size_t)G->keylen);
        G->blab = wmx_realloc(G->blab, (size_t)G->bcap * sizeof *G->blab);
        G->bhash = wmx_realloc(G->bhash, (size_t)G->bcap * sizeof *G->bhash);
    }
    memcpy(G->bkeys + (size_t)G->bn * (size_t)G->keylen, key, (size_t)G->keylen);
    G->blab[G->bn++] = lab;
}

/* Interns the batch in order (the same graph as one at a time). */
static void flush_batch(game_graph *G)
{
    while ((uint64_t)(G->n + (uint32_t)G->bn + 1) * 2 > G->hcap)
        grow_hash(G);
    size_t kl = (size_t)G->keylen;
    for (int i = 0; i < G->bn; i++) {
        G->bhash[i] = hash_key(G->bkeys + (size_t)i * kl, G->keylen);
#if defined(__GNUC__)
        __builtin_prefetch(&G->hash[(uint32_t)G->bhash[i] & (G->hcap - 1)]);
#endif
    }
    for (int i = 0; i < G->bn; i++)
        add_edge(G, intern_h(G, G->bkeys + (size_t)i * kl, G->bhash[i]), G->blab[i]);
    G->bn = 0;
}

static uint16_t mklab(int kind, int p, int t) { return (uint16_t)((kind << 14) | (p << 8) | t); }

static void set_tag(uint8_t *k, int owner, int phase) { k[0] = (uint8_t)(owner | (phase << 1)); }

/* Generates the successors of position v (the rules in the header comment). */
static void expand(game_graph *G, uint32_t v, uint8_t *cur, uint8_t *nk)
{
    const game_def *g = G->g;
    memcpy(cur, KEY(G, v), (size_t)G->keylen);
    int owner = cur[0] & 1, phase = cur[0] >> 1, other = !owner;
    int u = upd_of(G, owner);
    size_t kl = (size_t)G->keylen;
    if (phase == GP_Q) {
        for (int p = 0; p < g->nprocs; p++) {
            memcpy(nk, cur, kl);
            if (apply_flush(G, nk, p))
                emit(G, nk, mklab(GE_FLUSH, p, 0));
        }
        memcpy(nk, cur, kl);
        set_tag(nk, other, GP_S);
        emit(G, nk, mklab(GE_END, 0, 0));
        return;
    }
    int ninstr = 0, nflush = 0;
    for (int p = 0; p < g->nprocs; p++) {
        const game_proc *pr = &g->procs[p];
        for (int t = 0; t < pr->ntrans; t++) {
            memcpy(nk, cur, kl);
            if (!apply_instr(G, nk, p, &pr->trans[t]))
                continue;
            if (u & GAME_AFTER)
                set_tag(nk, owner, GP_Q);
            else
                set_tag(nk, other, GP_S);
            emit(G, nk, mklab(GE_INSTR, p, t));
            ninstr++;
        }
    }
    if (u & GAME_BEFORE)
        for (int p = 0; p < g->nprocs; p++) {
            memcpy(nk, cur, kl);
            if (apply_flush(G, nk, p)) {
                set_tag(nk, owner, GP_P);
                emit(G, nk, mklab(GE_FLUSH, p, 0));
                nflush++;
            }
        }
    /* No instruction here: pass (when flushes exist the pass is kept only
     * if no update sequence enables an instruction; see resolve_passes). */
    if (phase == GP_S && ninstr == 0) {
        memcpy(nk, cur, kl);
        set_tag(nk, other, GP_S);
        emit(G, nk, mklab(GE_PASS, 0, 0));
    }
}

/* canmove[v] for P positions: some update sequence from here enables an
 * instruction.  Flushes shorten buffers, so the recursion is shallow. */
static int canmove(game_graph *G, uint32_t v, uint8_t *memo)
{
    if (memo[v])
        return memo[v] - 1;
    int r = 0;
    for (uint32_t e = G->soff[v]; e < G->soff[v + 1] && !r; e++) {
        unsigned k = GE_KIND(G->lab[e]);
        if (k == GE_INSTR)
            r = 1;
        else if (k == GE_FLUSH)
            r = canmove(G, G->succ[e], memo);
    }
    memo[v] = (uint8_t)(r + 1);
    return r;
}

/* Keeps the pass edge of an S position only when the mover has no move. */
static int resolve_passes(game_graph *G)
{
    uint8_t *memo = NULL;
    uint32_t w = 0;
    int dropped = 0;
    for (uint32_t v = 0; v < G->n; v++) {
        uint32_t b = G->soff[v], e = G->soff[v + 1];
        int has_pass = 0, has_flush = 0;
        for (uint32_t i = b; i < e; i++) {
            has_pass |= GE_KIND(G->lab[i]) == GE_PASS;
            has_flush |= GE_KIND(G->lab[i]) == GE_FLUSH;
        }
        int keep_pass = 1, keep_flush = 1;
        if (has_pass && has_flush && game_phase(G, v) == GP_S) {
            if (!memo)
                memo = wmx_calloc(G->n, 1);
            int can = 0;
            for (uint32_t i = b; i < e && !can; i++)
                if (GE_KIND(G->lab[i]) == GE_FLUSH)
                    can = canmove(G, G->succ[i], memo);
            keep_pass = !can;
            keep_flush = can;
            dropped = 1;
        }
        G->soff[v] = w;
        for (uint32_t i = b; i < e; i++) {
            unsigned k = GE_KIND(G->lab[i]);
            if ((k == GE_PASS && !keep_pass) || (k == GE_FLUSH && !keep_flush))
                continue;
            G->succ[w] = G->succ[i];
            G->lab[w] = G->lab[i];
            w++;
        }
    }
    G->soff[G->n] = w;
    G->nedges = w;
    free(memo);
    return dropped;
}

int game_build(game_graph *G, const game_def *g, const game_opts *o)
{
    double t0 = now_s();
    memset(G, 0, sizeof *G);
    G->g = g;
    G->o = *o;
    G->collapse = o->k <= 0;   /* only meaningful for never/never (caller checks) */
    G->slots = G->collapse ? g->nvars : o->k;
    if (G->slots == 0)
        G->slots = 1;
    G->keylen = 1 + g->nprocs + g->nvars + g->nprocs * G->slots;
    uint8_t *cur = wmx_malloc((size_t)G->keylen), *nk = wmx_malloc((size_t)G->keylen);
    memset(cur, 0, (size_t)G->keylen);
    set_tag(cur, o->first, GP_S);
    for (int p = 0; p < g->nprocs; p++)
        ST(G, cur, p) = (uint8_t)g->procs[p].init;
    for (int x = 0; x < g->nvars; x++)
        MEM(G, cur, x) = (uint8_t)g->init[x];
    intern(G, cur);
    int rc = 0;
    for (uint32_t v = 0; v < G->n; v++) {
        G->soff[v] = G->nedges;
        /* a target ends the play: its moves do not matter */
        if (!game_is_target(G, v)) {
            expand(G, v, cur, nk);
            flush_batch(G);
        }
        if ((v & 0xffff) == 0xffff) {
            if ((o->cancel && *o->cancel) || (o->progress && o->progress(G->n, o->ud))) {
                rc = -1;
                break;
            }
        }
        if (o->max_positions && G->n > o->max_positions) {
            rc = -1;
            break;
        }
    }
    free(cur);
    free(nk);
    free(G->bkeys);
    free(G->blab);
    free(G->bhash);
    G->bkeys = NULL;
    G->blab = NULL;
    G->bhash = NULL;
    G->bn = G->bcap = 0;
    if (rc < 0) {
        G->limited = 1;
        G->build_s = now_s() - t0;
        return -1;
    }
    G->soff[G->n] = G->nedges;
    G->nreach = G->n;
    if (((o->a_update & GAME_BEFORE) || (o->b_update & GAME_BEFORE)) && resolve_passes(G)) {
        /* dropped edges may leave positions unreachable: count the rest */
        uint8_t *seen = wmx_calloc(G->n, 1);
        uint32_t *q = wmx_malloc((size_t)G->n * sizeof *q), qh = 0, qt = 0;
        seen[0] = 1;
        q[qt++] = 0;
        while (qh < qt) {
            uint32_t v = q[qh++];
            for (uint32_t e = G->soff[v]; e < G->soff[v + 1]; e++)
                if (!seen[G->succ[e]]) {
                    seen[G->succ[e]] = 1;
                    q[qt++] = G->succ[e];
                }
        }
        G->nreach = qt;
        free(seen);
        free(q);
    }
    /* the hash is not needed any more: free it before the predecessor
     * lists so the two never coexist (peak memory) */
    free(G->hash);
    G->hash = NULL;
    G->hcap = 0;
    G->succ = wmx_realloc(G->succ, ((size_t)G->nedges + 1) * sizeof *G->succ);
    G->lab = wmx_realloc(G->lab, ((size_t)G->nedges + 1) * sizeof *G->lab);
    G->ecap = G->nedges + 1;
    /* predecessor lists */
    G->poff = wmx_calloc((size_t)G->n + 1, sizeof *G->poff);
    for (uint32_t e = 0; e < G->nedges; e++)
        G->poff[G->succ[e] + 1]++;
    for (uint32_t v = 0; v < G->n; v++)
        G->poff[v + 1] += G->poff[v];
    G->pred = wmx_malloc(((size_t)G->nedges + 1) * sizeof *G->pred);
    uint32_t *fill = wmx_malloc(((size_t)G->n + 1) * sizeof *fill);
    memcpy(fill, G->poff, (size_t)G->n * sizeof *fill);
    for (uint32_t v = 0; v < G->n; v++)
        for (uint32_t e = G->soff[v]; e < G->soff[v + 1]; e++)
            G->pred[fill[G->succ[e]]++] = v;
    free(fill);
    G->build_s = now_s() - t0;
    return 0;
}

void game_solve(game_graph *G)
{
    double t0 = now_s();
    uint32_t n = G->n;
    G->winB = wmx_calloc(n ? n : 1, 1);
    G->rank = wmx_malloc((n ? n : 1) * sizeof *G->rank);
    G->strat = wmx_malloc((n ? n : 1) * sizeof *G->strat);
    uint32_t *cnt = G->strat;   /* A's counters share the strategy array until the end */
    uint32_t *queue = G->rank;  /* ... and the queue is filled in rank order */
    uint32_t qh = 0, qt = 0;
    uint32_t *rk = wmx_malloc((n ? n : 1) * sizeof *rk);
    for (uint32_t v = 0; v < n; v++) {
        uint32_t deg = G->soff[v + 1] - G->soff[v];
        cnt[v] = deg;
        rk[v] = UINT32_MAX;
        if (game_is_target(G, v) || (deg == 0 && game_owner(G, v) == GAME_A)) {
            G->winB[v] = 1;
            rk[v] = 0;
            queue[qt++] = v;
        }
    }
    while (qh < qt) {
        uint32_t v = queue[qh++];
        for (uint32_t i = G->poff[v]; i < G->poff[v + 1]; i++) {
            uint32_t u = G->pred[i];
            if (G->winB[u])
                continue;
            if (game_owner(G, u) == GAME_B || --cnt[u] == 0) {
                G->winB[u] = 1;
                rk[u] = rk[v] + 1;
                queue[qt++] = u;
            }
        }
    }
    /* strategies: B takes an edge to a lower rank, A stays out of B's region */
    for (uint32_t v = 0; v < n; v++) {
        uint32_t s = UINT32_MAX;
        int mine = game_owner(G, v) == (G->winB[v] ? GAME_B : GAME_A);
        if (mine && rk[v] != 0)
            for (uint32_t e = G->soff[v]; e < G->soff[v + 1]; e++) {
                uint32_t w = G->succ[e];
                if (G->winB[v] ? (G->winB[w] && rk[w] + 1 == rk[v]) : !G->winB[w]) {
                    s = e;
                    break;
                }
            }
        G->strat[v] = s;
    }
    free(G->rank);
    G->rank = rk;
    G->solve_s = now_s() - t0;
}

void game_graph_free(game_graph *G)
{
    free(G->keys);
    free(G->hash);
    free(G->soff);
    free(G->succ);
    free(G->lab);
    free(G->poff);
    free(G->pred);
    free(G->winB);
    free(G->rank);
    free(G->strat);
    memset(G, 0, sizeof *G);
}

/* ---- independent checks ---- */

uint8_t *game_solve_naive(const game_graph *G)
{
    uint8_t *w = wmx_calloc(G->n ? G->n : 1, 1);
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t v = 0; v < G->n; v++) {
            if (w[v])
                continue;
            int win;
            uint32_t b = G->soff[v], e = G->soff[v + 1];
            if (game_is_target(G, v)) {
                win = 1;
            } else if (game_owner(G, v) == GAME_B) {
                win = 0;
                for (uint32_t i = b; i < e; i++)
                    win |= w[G->succ[i]];
            } else {
                win = 1;
                for (uint32_t i = b; i < e; i++)
                    win &= w[G->succ[i]];
            }
            if (win) {
                w[v] = 1;
                changed = 1;
            }
        }
    }
    return w;
}

int game_check_strategy(const game_graph *G, char *why, size_t n)
{
    for (uint32_t v = 0; v < G->n; v++) {
        int owner = game_owner(G, v), t = game_is_target(G, v);
        uint32_t b = G->soff[v], e = G->soff[v + 1];
        if (!G->winB[v]) {
            /* A's region: no target, A's move stays inside, B's moves too */
            if (t) {
                snprintf(why, n, "target %u in A's region", v);
                return -1;
            }
            if (owner == GAME_A) {
                uint32_t s = G->strat[v];
                if (s == UINT32_MAX || s < b || s >= e || G->winB[G->succ[s]]) {
                    snprintf(why, n, "A's strategy at %u leaves her region", v);
                    return -1;
                }
            } else {
                for (uint32_t i = b; i < e; i++)
                    if (G->winB[G->succ[i]]) {
                        snprintf(why, n, "B can leave A's region at %u", v);
                        return -1;
                    }
            }
        } else if (!t && !(owner == GAME_A && b == e)) {
            /* B's region: every move B's strategy allows lowers the rank */
            if (G->rank[v] == UINT32_MAX || G->rank[v] == 0) {
                snprintf(why, n, "bad rank at %u", v);
                return -1;
            }
            if (owner == GAME_B) {
                uint32_t s = G->strat[v];
                if (s == UINT32_MAX || s < b || s >= e || !G->winB[G->succ[s]] ||
                    G->rank[G->succ[s]] >= G->rank[v]) {
                    snprintf(why, n, "B's strategy at %u does not progress", v);
                    return -1;
                }
            } else {
                for (uint32_t i = b; i < e; i++)
                    if (!G->winB[G->succ[i]] || G->rank[G->succ[i]] >= G->rank[v]) {
                        snprintf(why, n, "A escapes B's attractor at %u", v);
                        return -1;
                    }
            }
        }
    }
    return 0;
}

/* ---- text ---- */

void game_trans_str(const game_def *g, int p, int t, wmx_strbuf *b)
{
    const game_proc *pr = &g->procs[p];
    const game_trans *tr = &pr->trans[t];
    wmx_strbuf_printf(b, "%s.%d %s->%s ", pr->name, t + 1, pr->states[tr->from], pr->states[tr->to]);
    switch (tr->op) {
    case GOP_WR:
        wmx_strbuf_printf(b, "wr(%s,%ld)", g->vars[tr->var], g->dom[tr->val]);
        break;
    case GOP_RD:
        wmx_strbuf_printf(b, "rd(%s,%ld)", g->vars[tr->var], g->dom[tr->val]);
        break;
    case GOP_MF:
        wmx_strbuf_printf(b, "mf");
        break;
    case GOP_SKIP:
        wmx_strbuf_printf(b, "skip");
        break;
    }
}

void game_move_str(const game_graph *G, uint16_t lab, wmx_strbuf *b)
{
    switch (GE_KIND(lab)) {
    case GE_INSTR:
        game_trans_str(G->g, (int)GE_PROC(lab), (int)GE_TRANS(lab), b);
        break;
    case GE_FLUSH:
        wmx_strbuf_printf(b, "update %s", G->g->procs[GE_PROC(lab)].name);
        break;
    case GE_END:
        wmx_strbuf_printf(b, "end turn");
        break;
    default:
        wmx_strbuf_printf(b, "pass (no move)");
        break;
    }
}

void game_pos_str(const game_graph *G, uint32_t v, wmx_strbuf *b)
{
    const game_def *g = G->g;
    const uint8_t *k = KEY(G, v);
    static const char *ph[] = { "", " updating before", " updating after" };
    wmx_strbuf_printf(b, "%c%s |", (k[0] & 1) ? 'B' : 'A', ph[(k[0] >> 1) % 3]);
    for (int p = 0; p < g->nprocs; p++) {
        wmx_strbuf_printf(b, " %s:%s[", g->procs[p].name, g->procs[p].states[ST(G, k, p)]);
        const uint8_t *bf = BUF(G, k, p);
        int first = 1;
        for (int i = 0; i < G->slots; i++) {
            if (!bf[i])
                continue;
            int var = G->collapse ? i : (bf[i] - 1) / g->ndom;
            int val = G->collapse ? bf[i] - 1 : (bf[i] - 1) % g->ndom;
            wmx_strbuf_printf(b, "%s%s=%ld", first ? "" : " ", g->vars[var], g->dom[val]);
            first = 0;
        }
        wmx_strbuf_printf(b, "]");
    }
    wmx_strbuf_printf(b, " | mem");
    for (int x = 0; x < g->nvars; x++)
        wmx_strbuf_printf(b, " %s=%ld", g->vars[x], g->dom[MEM(G, k, x)]);
    if (g->nvars == 0)
        wmx_strbuf_printf(b, " -");
}

int game_moves(const game_graph *G, uint32_t v, game_move *out, int max)
{
    int n = 0;
    for (uint32_t e = G->soff[v]; e < G->soff[v + 1] && n < max; e++) {
        out[n].lab = G->lab[e];
        out[n].to = G->succ[e];
        n++;
    }
    return n;
}
