/* pgas_hb.c - replaying a computation and checking happens-before facts
 * from scratch (seed 001 §3).  Deliberately shares nothing with the
 * summaries of pgas_robust.c: the tests use it to check their answers. */
#include "pgas.h"

#include <stdlib.h>
#include <string.h>

int pgas_replay(const pgas_machine *m, const pgas_path *path, pgas_event **events, int *nevents)
{
    int N = pgas_nranks(m);
    void *s = wmx_malloc(pgas_state_size(m));
    pgas_init(m, s);
    pgas_event *ev = wmx_malloc(((size_t)path->len * N + 1) * sizeof *ev);
    int n = 0, rc = 0;
    for (int i = 0; i < path->len; i++) {
        if (!pgas_is_enabled(m, s, &path->steps[i])) {
            rc = -1;
            break;
        }
        n += pgas_apply(m, s, &path->steps[i], ev + n);
    }
    free(s);
    *events = ev;
    *nevents = n;
    return rc;
}

/* ---- the relation, built the slow and obvious way ---- */

typedef struct hbg {
    int n;
    int *uf;          /* union-find over ↔ */
    char *po, *cf;    /* n x n adjacency: po successor, cf */
    char *done;       /* n x n: a pop of the rank's request -> its later quiet */
} hbg;

static int find(int *uf, int x)
{
    while (uf[x] != x)
        x = uf[x] = uf[uf[x]];
    return x;
}

static bool pop(pgas_ev_kind k) { return k == PE_POPA || k == PE_POPB; }
static bool reads(pgas_ev_kind k) { return k == PE_LOAD || k == PE_POPA; }
static bool writes(pgas_ev_kind k) { return k == PE_STORE || k == PE_POPB; }

static bool same_addr(const pgas_event *a, const pgas_event *b)
{
    return a->cell >= 0 && b->cell >= 0 && a->addr_rank == b->addr_rank && a->cell == b->cell;
}

static void hbg_build(hbg *g, const pgas_machine *m, const pgas_event *ev, int n)
{
    int N = pgas_nranks(m), Q = pgas_nqueues(m);
    g->n = n;
    g->uf = wmx_malloc(((size_t)n + 1) * sizeof(int));
    g->po = wmx_calloc((size_t)n * n + 1, 1);
    g->cf = wmx_calloc((size_t)n * n + 1, 1);
    g->done = wmx_calloc((size_t)n * n + 1, 1);
    for (int i = 0; i < n; i++)
        g->uf[i] = i;
    /* quiet waits for every pop of the rank's earlier requests.  These
     * edges add no reachability (the pop <-> its command ->po the quiet),
     * which is why the summaries of pgas_robust.c ignore them; they are
     * here so that the tests check that claim */
    for (int i = 0; i < n; i++)
        if (ev[i].kind == PE_QUIET)
            for (int j = 0; j < i; j++)
                if (ev[j].rank == ev[i].rank && pop(ev[j].kind))
                    g->done[(size_t)j * n + i] = 1;
    /* ↔ for requests: the j-th popa of a queue handles its j-th command,
     * the j-th popb its j-th popa (FIFO levels) */
    for (int r = 0; r < N; r++)
        for (int q = 0; q < Q; q++) {
            int kc = 0;
            for (int i = 0; i < n; i++) {
                if (ev[i].rank != r || ev[i].queue != q || (ev[i].kind != PE_READ && ev[i].kind != PE_WRITE))
                    continue;
                int ka = 0, kb = 0;
                for (int j = 0; j < n; j++) {
                    if (ev[j].rank != r || ev[j].queue != q)
                        continue;
                    if (ev[j].kind == PE_POPA && ka++ == kc)
                        g->uf[find(g->uf, j)] = find(g->uf, i);
                    if (ev[j].kind == PE_POPB && kb++ == kc)
                        g->uf[find(g->uf, j)] = find(g->uf, i);
                }
                kc++;
            }
        }
    /* ↔ for barriers: the k-th bar of every rank */
    for (int i = 0; i < n; i++) {
        if (ev[i].kind != PE_BAR)
            continue;
        int k = 0;
        for (int j = 0; j < i; j++)
            k += ev[j].kind == PE_BAR && ev[j].rank == ev[i].rank;
        for (int j = 0; j < n; j++) {
            if (ev[j].kind != PE_BAR || ev[j].rank == ev[i].rank)
                continue;
            int kj = 0;
            for (int x = 0; x < j; x++)
                kj += ev[x].kind == PE_BAR && ev[x].rank == ev[j].rank;
            if (kj == k)
                g->uf[find(g->uf, j)] = find(g->uf, i);
        }
    }
    /* po: successive issued events of a rank */
    for (int i = 0; i < n; i++) {
        if (pop(ev[i].kind))
            continue;
        for (int j = i + 1; j < n; j++)
            if (ev[j].rank == ev[i].rank && !pop(ev[j].kind)) {
                g->po[(size_t)i * n + j] = 1;
                break;
            }
    }
    /* cf: same address, one a write, no write to it strictly between */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (!same_addr(&ev[i], &ev[j]) || !(writes(ev[i].kind) || writes(ev[j].kind)))
                continue;
            if (!(reads(ev[i].kind) || writes(ev[i].kind)) || !(reads(ev[j].kind) || writes(ev[j].kind)))
                continue;
            bool between = false;
            for (int x = i + 1; x < j && !between; x++)
                between = same_addr(&ev[x], &ev[i]) && writes(ev[x].kind);
            if (!between)
                g->cf[(size_t)i * n + j] = 1;
        }
}

static void hbg_free(hbg *g)
{
    free(g->uf);
    free(g->po);
    free(g->cf);
    free(g->done);
}

/* Cycle in the quotient by ↔ (self-loops included): colour DFS. */
static bool dfs(const hbg *g, int *colour, int **adj, int *nadj, int u)
{
    colour[u] = 1;
    for (int k = 0; k < nadj[u]; k++) {
        int v = adj[u][k];
        if (colour[v] == 1)
            return true;
        if (colour[v] == 0 && dfs(g, colour, adj, nadj, v))
            return true;
    }
    colour[u] = 2;
    return false;
}

bool pgas_hb_violating(const pgas_machine *m, const pgas_event *ev, int n)
{
    if (n == 0)
        return false;
    hbg g;
    hbg_build(&g, m, ev, n);
    int **adj = wmx_calloc((size_t)n, sizeof *adj);
    int *nadj = wmx_calloc((size_t)n, sizeof *nadj);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (g.po[(size_t)i * n + j] || g.cf[(size_t)i * n + j] || g.done[(size_t)i * n + j]) {
                int a = find(g.uf, i), b = find(g.uf, j);
                adj[a] = wmx_realloc(adj[a], (size_t)(nadj[a] + 1) * sizeof(int));
                adj[a][nadj[a]++] = b;
            }
    int *colour = wmx_calloc((size_t)n, sizeof *colour);
    bool cyc = false;
    for (int i = 0; i < n && !cyc; i++)
        if (find(g.uf, i) == i && colour[i] == 0)
            cyc = dfs(&g, colour, adj, nadj, i);
    for (int i = 0; i < n; i++)
        free(adj[i]);
    free(adj);
    free(nadj);
    free(colour);
    hbg_free(&g);
    return cyc;
}

bool pgas_check_cycle(const pgas_machine *m, const pgas_event *ev, int n,
                      const int *cycle, int ncycle, const char **why)
{
    *why = NULL;
    if (ncycle < 1) {
        *why = "empty cycle";
        return false;
    }
    hbg g;
    hbg_build(&g, m, ev, n);
    bool strict = false, ok = true;
    for (int i = 0; i < ncycle && ok; i++) {
        int x = cycle[i], y = cycle[(i + 1) % ncycle];
        if (x < 0 || x >= n || y < 0 || y >= n) {
            *why = "event out of range";
            ok = false;
            break;
        }
        bool iso = find(g.uf, x) == find(g.uf, y);
        bool po = x < y && ev[x].rank == ev[y].rank && !pop(ev[x].kind) && !pop(ev[y].kind);
        bool cf = g.cf[(size_t)x * n + y];
        if (po || cf)
            strict = true;
        else if (!iso) {
            *why = "two consecutive events are not related by po, cf or <->";
            ok = false;
        }
    }
    if (ok && !strict) {
        *why = "the cycle lies inside <->";
        ok = false;
    }
    hbg_free(&g);
    return ok;
}

int pgas_hb_edges(const pgas_machine *m, const pgas_event *ev, int n, pgas_edge **edges)
{
    hbg g;
    hbg_build(&g, m, ev, n);
    int ne = 0, cap = 16;
    pgas_edge *e = wmx_malloc((size_t)cap * sizeof *e);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            bool has[3] = { g.po[(size_t)i * n + j] != 0, g.cf[(size_t)i * n + j] != 0,
                            i < j && find(g.uf, i) == find(g.uf, j) };
            for (int k = 0; k < 3; k++) {
                if (!has[k])
                    continue;
                if (ne == cap) {
                    cap *= 2;
                    e = wmx_realloc(e, (size_t)cap * sizeof *e);
                }
                e[ne++] = (pgas_edge){ (pgas_edge_kind)k, i, j };
            }
        }
    hbg_free(&g);
    *edges = e;
    return ne;
}
