/* graph_route.c - routes the edges of a laid-out graph again, on the grid of
 * terminal cells, so that they stay apart.
 *
 * dot's polyline splines are fine on paper, but sampled into cells two
 * edges that cross between threads often fall into the same cells: they
 * merge into one run with T-junctions (`├┬──fr──┴┬`), and the reader cannot
 * tell which edge goes where.  Here every edge is routed by A* over the
 * cells with these rules: boxes and thread names are walls; a cell where an
 * edge starts, ends or turns belongs to that edge alone; a cell an edge runs
 * straight through may only be crossed at a right angle by one other edge.
 * Turns and crossings cost extra, so routes stay short and plain.  The edges
 * of the highlighted cycle go first, then program order, then the shortest.
 * An edge that finds no route keeps dot's. */
#include "graph.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum { USE_H = 1, USE_V = 2, USE_OWN = 4, USE_END = 8 };
enum { GO_UP, GO_DOWN, GO_LEFT, GO_RIGHT, GO_DONE };   /* the direction a cell was entered */

static const int step_x[4] = { 0, 0, -1, 1 }, step_y[4] = { -1, 1, 0, 0 };

#define TURN_COST 3
#define CROSS_COST 4
#define END_NEIGHBOUR_COST 6
#define ARRIVE_SIDEWAYS_COST 2
#define CORNER_COST 3
#define ROUTE_MARGIN 4

typedef struct grid {
    int W, H;
    int x0, y0, x1, y1;    /* the search window of the edge being routed */
    bool *wall;            /* boxes and thread names */
    unsigned char *use;    /* USE_* of the edges routed so far */
    /* A* per (cell, direction entered): allocated once, and only the
     * states a search touched are reset after it */
    int *cost, *prev, *touched;
    int ntouched, tcap;
} grid;

static void set_cost(grid *gr, int state, int cost, int prev)
{
    if (gr->cost[state] == INT_MAX) {
        if (gr->ntouched == gr->tcap) {
            gr->tcap = gr->tcap ? 2 * gr->tcap : 1024;
            gr->touched = wmx_realloc(gr->touched, (size_t)gr->tcap * sizeof *gr->touched);
        }
        gr->touched[gr->ntouched++] = state;
    }
    gr->cost[state] = cost;
    gr->prev[state] = prev;
}

typedef struct heap_item {
    int f, state;
} heap_item;

typedef struct heap {
    heap_item *a;
    int n, cap;
} heap;

static void heap_push(heap *h, int f, int state)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 256;
        h->a = wmx_realloc(h->a, (size_t)h->cap * sizeof *h->a);
    }
    int i = h->n++;
    while (i > 0) {
        int p = (i - 1) / 2;
        if (h->a[p].f <= f)
            break;
        h->a[i] = h->a[p];
        i = p;
    }
    h->a[i] = (heap_item){ f, state };
}

static heap_item heap_pop(heap *h)
{
    heap_item top = h->a[0], last = h->a[--h->n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->a[c + 1].f < h->a[c].f)
            c++;
        if (h->a[c].f >= last.f)
            break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->n > 0)
        h->a[i] = last;
    return top;
}

static bool in_grid(const grid *gr, int x, int y)
{
    return x >= gr->x0 && y >= gr->y0 && x <= gr->x1 && y <= gr->y1;
}

/* The direction that leads from a cell beside n into n. */
static int into(const gx_node *n, int x, int y)
{
    if (y < n->y) return GO_DOWN;
    if (y >= n->y + n->h) return GO_UP;
    if (x < n->x) return GO_RIGHT;
    return GO_LEFT;
}

static int opposite(int d)
{
    return d ^ 1;
}

static int dist_to_box(const gx_node *n, int x, int y)
{
    int dx = x < n->x ? n->x - x : x >= n->x + n->w ? x - (n->x + n->w - 1) : 0;
    int dy = y < n->y ? n->y - y : y >= n->y + n->h ? y - (n->y + n->h - 1) : 0;
    return dx + dy;
}

/* Beside a box's left or right side at its top or bottom row: an arrow
 * there looks as if it pointed at the frame, not the box. */
static bool at_corner_row(const gx_node *n, int x, int y)
{
    return (x == n->x - 1 || x == n->x + n->w) && n->h > 2 && (y == n->y || y == n->y + n->h - 1);
}

static bool near_end(const grid *gr, int x, int y)
{
    for (int d = 0; d < 4; d++) {
        int nx = x + step_x[d], ny = y + step_y[d];
        if (in_grid(gr, nx, ny) && (gr->use[ny * gr->W + nx] & USE_END))
            return true;
    }
    return false;
}

/* Limits the search to a rectangle of the grid (clipped to it). */
static void set_window(grid *gr, int x0, int y0, int x1, int y1)
{
    gr->x0 = x0 > 0 ? x0 : 0;
    gr->y0 = y0 > 0 ? y0 : 0;
    gr->x1 = x1 < gr->W - 1 ? x1 : gr->W - 1;
    gr->y1 = y1 < gr->H - 1 ? y1 : gr->H - 1;
}

/* A free cell where an edge may start or end beside box n. */
static bool end_cell(const grid *gr, const gx_node *n, int x, int y)
{
    return in_grid(gr, x, y) && gx_beside(n, x, y) && !gr->wall[y * gr->W + x] && gr->use[y * gr->W + x] == 0;
}

/* Routes e from box a to box b; the path in *out (cells), or false. */
static bool route_one(grid *gr, const gx_node *a, const gx_node *b, const gx_edge *e,
                      int **out, int *nout)
{
    int W = gr->W;
    const int *cost = gr->cost, *prev = gr->prev;
    int px0 = e->npts > 0 ? e->pts[0] : a->x + a->w / 2, py0 = e->npts > 0 ? e->pts[1] : a->y + a->h;
    int px1 = e->npts > 0 ? e->pts[2 * (e->npts - 1)] : b->x + b->w / 2;
    int py1 = e->npts > 0 ? e->pts[2 * (e->npts - 1) + 1] : b->y - 1;
    heap h = { 0 };
    /* every free cell beside a may start the route, the farther from
     * where dot started it the dearer; the route leaves a straight out */
    for (int y = a->y - 1; y <= a->y + a->h; y++)
        for (int x = a->x - 1; x <= a->x + a->w; x++) {
            if (!end_cell(gr, a, x, y))
                continue;
            int c = abs(x - px0) + abs(y - py0) + (near_end(gr, x, y) ? END_NEIGHBOUR_COST : 0)
                  + (at_corner_row(a, x, y) ? CORNER_COST : 0);
            int s = (y * W + x) * 5 + opposite(into(a, x, y));
            if (c < cost[s]) {
                set_cost(gr, s, c, -1);
                heap_push(&h, c + dist_to_box(b, x, y), s);
            }
        }
    int goal = -1;
    while (h.n > 0) {
        heap_item it = heap_pop(&h);
        int s = it.state, c = s / 5, d = s % 5, x = c % W, y = c / W;
        int g = cost[s];
        if (it.f != g + (d == GO_DONE ? 0 : dist_to_box(b, x, y)))
            continue;                    /* a stale entry */
        if (d == GO_DONE) {
            goal = s;
            break;
        }
        /* end here, beside b */
        if (end_cell(gr, b, x, y)) {
            int t = c * 5 + GO_DONE;
            int gc = g + abs(x - px1) + abs(y - py1) + (d != into(b, x, y) ? ARRIVE_SIDEWAYS_COST : 0)
                   + (near_end(gr, x, y) ? END_NEIGHBOUR_COST : 0) + (at_corner_row(b, x, y) ? CORNER_COST : 0);
            if (gc < cost[t]) {
                set_cost(gr, t, gc, s);
                heap_push(&h, gc, t);
            }
        }
        bool start = prev[s] == -1;
        for (int nd = 0; nd < 4; nd++) {
            if (nd == opposite(d))
                continue;
            bool turn = nd != d;
            /* a turn, like a start, needs a cell of its own */
            if ((turn || start) && gr->use[c] != 0)
                continue;
            int nx = x + step_x[nd], ny = y + step_y[nd];
            if (!in_grid(gr, nx, ny))
                continue;
            int n = ny * W + nx;
            if (gr->wall[n] || (gr->use[n] & USE_OWN))
                continue;
            unsigned axis = nd == GO_UP || nd == GO_DOWN ? USE_V : USE_H;
            if (gr->use[n] & axis)
                continue;                /* never along another edge */
            int nc = g + 1 + (turn ? TURN_COST : 0) + (gr->use[n] ? CROSS_COST : 0);
            int t = n * 5 + nd;
            if (nc < cost[t]) {
                set_cost(gr, t, nc, s);
                heap_push(&h, nc + dist_to_box(b, nx, ny), t);
            }
        }
    }
    bool ok = goal >= 0;
    if (ok) {
        int len = 0;
        for (int s = prev[goal]; s >= 0; s = prev[s])
            len++;
        int *pts = wmx_malloc((size_t)len * 2 * sizeof *pts), k = len;
        for (int s = prev[goal]; s >= 0; s = prev[s]) {
            k--;
            pts[2 * k] = (s / 5) % W;
            pts[2 * k + 1] = (s / 5) / W;
        }
        *out = pts;
        *nout = len;
    }
    free(h.a);
    for (int i = 0; i < gr->ntouched; i++)
        gr->cost[gr->touched[i]] = INT_MAX;
    gr->ntouched = 0;
    return ok;
}

/* Claims the cells of a path: its ends and turns for itself alone. */
static void claim(grid *gr, const int *pts, int n)
{
    for (int i = 0; i < n; i++) {
        int x = pts[2 * i], y = pts[2 * i + 1];
        if (!in_grid(gr, x, y))
            continue;
        unsigned char *u = &gr->use[y * gr->W + x];
        if (i == 0 || i == n - 1) {
            *u |= USE_OWN | USE_END;
            continue;
        }
        bool vin = pts[2 * i - 2] == x, vout = pts[2 * i + 2] == x;
        if (vin != vout)
            *u |= USE_OWN;
        else
            *u |= vin ? USE_V : USE_H;
    }
}

static int edge_rank(const gx_graph *g, const gx_edge *e)
{
    const gx_node *a = &g->n[e->from], *b = &g->n[e->to];
    int len = abs((a->x + a->w / 2) - (b->x + b->w / 2)) + abs((a->y + a->h / 2) - (b->y + b->h / 2));
    int cls = (e->flags & GX_FACT) ? 0 : (e->kind == GE_PO || e->kind == GE_PO_RELAXED || e->kind == GE_WBM) ? 1 : 2;
    return cls * 100000 + len;
}

typedef struct ranked_edge {
    int rank, edge;
} ranked_edge;

static int by_rank(const void *pa, const void *pb)
{
    const ranked_edge *a = pa, *b = pb;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return (a->edge > b->edge) - (a->edge < b->edge);
}

void gx_route_apart(gx_graph *g)
{
    if (g->W <= 0 || g->H <= 0 || g->ne == 0)
        return;
    grid gr = { g->W, g->H, 0, 0, g->W - 1, g->H - 1, NULL, NULL, NULL, NULL, NULL, 0, 0 };
    size_t cells = (size_t)gr.W * (size_t)gr.H;
    gr.cost = wmx_malloc(cells * 5 * sizeof *gr.cost);
    gr.prev = wmx_malloc(cells * 5 * sizeof *gr.prev);
    for (size_t i = 0; i < cells * 5; i++)
        gr.cost[i] = INT_MAX;
    gr.wall = wmx_calloc(cells, sizeof *gr.wall);
    gr.use = wmx_calloc(cells, sizeof *gr.use);
    for (int i = 0; i < g->nn; i++) {
        const gx_node *n = &g->n[i];
        for (int y = n->y; y < n->y + n->h; y++)
            for (int x = n->x; x < n->x + n->w; x++)
                if (in_grid(&gr, x, y))
                    gr.wall[y * gr.W + x] = true;
    }
    for (int k = 0; k < g->nclusters && g->cbox; k++) {
        const int *cb = &g->cbox[4 * k];
        int tl = (int)strlen(g->clusters[k]), x0 = cb[0] + (cb[2] - tl) / 2;
        for (int x = x0; x < x0 + tl; x++)
            if (in_grid(&gr, x, cb[1]))
                gr.wall[cb[1] * gr.W + x] = true;
    }
    ranked_edge *order = wmx_malloc((size_t)g->ne * sizeof *order);
    for (int i = 0; i < g->ne; i++)
        order[i] = (ranked_edge){ edge_rank(g, &g->e[i]), i };
    qsort(order, (size_t)g->ne, sizeof *order, by_rank);
    for (int k = 0; k < g->ne; k++) {
        gx_edge *e = &g->e[order[k].edge];
        if (e->from == e->to)
            continue;
        int *pts = NULL, n = 0;
        /* search near the two boxes and dot's route first: most edges are
         * short, and the whole grid costs a hundred times more */
        const gx_node *a = &g->n[e->from], *b = &g->n[e->to];
        int bx0 = a->x < b->x ? a->x : b->x, by0 = a->y < b->y ? a->y : b->y;
        int bx1 = a->x + a->w > b->x + b->w ? a->x + a->w : b->x + b->w;
        int by1 = a->y + a->h > b->y + b->h ? a->y + a->h : b->y + b->h;
        for (int i = 0; i < e->npts; i++) {
            int x = e->pts[2 * i], y = e->pts[2 * i + 1];
            if (x < bx0) bx0 = x;
            if (x > bx1) bx1 = x;
            if (y < by0) by0 = y;
            if (y > by1) by1 = y;
        }
        set_window(&gr, bx0 - ROUTE_MARGIN, by0 - ROUTE_MARGIN, bx1 + ROUTE_MARGIN, by1 + ROUTE_MARGIN);
        bool found = route_one(&gr, a, b, e, &pts, &n);
        set_window(&gr, 0, 0, gr.W - 1, gr.H - 1);
        if (!found)
            found = route_one(&gr, a, b, e, &pts, &n);
        if (found) {
            free(e->pts);
            e->pts = pts;
            e->npts = n;
        }
        claim(&gr, e->pts, e->npts);
    }
    free(order);
    free(gr.wall);
    free(gr.use);
    free(gr.cost);
    free(gr.prev);
    free(gr.touched);
}
