/* graph.c - graphs as data, laid out by libgvc's `dot`, rasterised into the
 * virtual screen, exported through gvRenderFilename.
 *
 * Layout in cells: every node is a fixed-size box of (label + 2) x 3 cells,
 * given to dot in points with one column = CW points and one row = CH
 * points, and with node/rank separations of at least two cells, so boxes that
 * dot keeps apart stay apart once rounded to cells.  Edges come back as
 * Bezier splines; they are sampled, mapped to cells and joined by
 * 4-connected steps, then trimmed or extended so that each starts next to
 * its tail's box and ends (in an arrow head) next to its head's box. */
#include "graph.h"

#include <errno.h>
#include <gvc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

#define CW 8.0      /* points per column */
#define CH 16.0     /* points per row */

/* ---- Graphviz errors ---- */

static char last_err[512];

static int capture(char *msg)
{
    size_t l = strlen(last_err);
    if (l > 0 && l + 3 < sizeof last_err) {
        /* keep the first message (usually the cause); note there are more */
        return 0;
    }
    snprintf(last_err, sizeof last_err, "%s", msg);
    for (char *p = last_err; *p; p++)
        if (*p == '\n')
            *p = ' ';
    l = strlen(last_err);
    while (l > 0 && last_err[l - 1] == ' ')
        last_err[--l] = '\0';
    return 0;
}

const char *gx_last_error(void) { return last_err; }
void gx_clear_error(void) { last_err[0] = '\0'; }

/* Parts of Graphviz (libpathplan's "triangulation failed") write to stderr
 * directly: while it runs, fd 2 goes to a temporary file whose text becomes
 * the captured message. */
typedef struct errcap {
    int saved;
    FILE *tmp;
} errcap;

static void cap_begin(errcap *c)
{
    fflush(stderr);
    c->saved = -1;
    c->tmp = tmpfile();
    if (!c->tmp)
        return;
    c->saved = dup(2);
    if (c->saved < 0 || dup2(fileno(c->tmp), 2) < 0) {
        if (c->saved >= 0)
            close(c->saved);
        fclose(c->tmp);
        c->tmp = NULL;
    }
}

static void cap_end(errcap *c)
{
    if (!c->tmp)
        return;
    fflush(stderr);
    dup2(c->saved, 2);
    close(c->saved);
    char buf[400];
    rewind(c->tmp);
    size_t n = fread(buf, 1, sizeof buf - 1, c->tmp);
    buf[n] = '\0';
    if (n > 0)
        capture(buf);
    fclose(c->tmp);
}

static GVC_t *gvc_ctx;

/* The one libgvc context (plugins are loaded once); errors captured. */
static GVC_t *gvc(void)
{
    agseterrf(capture);
    agseterr(AGWARN);
    if (!gvc_ctx)
        gvc_ctx = gvContext();
    return gvc_ctx;
}

/* ---- names ---- */

const char *gx_view_name(gx_view v)
{
    static const char *const n[] = { "hb", "exec", "wut", "tree" };
    return v <= GX_TREE ? n[v] : "?";
}

int gx_view_parse(const char *s, gx_view *v)
{
    for (int i = 0; i <= GX_TREE; i++)
        if (strcmp(s, gx_view_name((gx_view)i)) == 0) {
            *v = (gx_view)i;
            return 0;
        }
    return -1;
}

const char *gx_ekind_name(gx_ekind k)
{
    static const char *const n[] = { "po", "po", "rf", "co", "fr", "wB-wM", "", "" };
    return k < GE_COUNT ? n[k] : "?";
}

/* ---- graphs as data ---- */

gx_graph *gx_new(gx_view view, const char *title)
{
    gx_graph *g = wmx_calloc(1, sizeof *g);
    g->view = view;
    g->title = wmx_strdup(title ? title : "");
    return g;
}

void gx_free(gx_graph *g)
{
    if (!g)
        return;
    free(g->verdict);
    for (int i = 0; i < g->nn; i++) {
        free(g->n[i].id);
        for (int z = 0; z < GX_ZOOMS; z++)
            free(g->n[i].label[z]);
        free(g->n[i].info);
    }
    for (int i = 0; i < g->ne; i++) {
        free(g->e[i].label);
        free(g->e[i].pts);
    }
    for (int i = 0; i < g->nclusters; i++)
        free(g->clusters[i]);
    free(g->clusters);
    free(g->cbox);
    free(g->n);
    free(g->e);
    free(g->title);
    free(g->note);
    free(g);
}

int gx_add_cluster(gx_graph *g, const char *name)
{
    g->clusters = wmx_realloc(g->clusters, (size_t)(g->nclusters + 1) * sizeof *g->clusters);
    g->clusters[g->nclusters] = wmx_strdup(name);
    return g->nclusters++;
}

int gx_add_node(gx_graph *g, const char *id, const char *full, const char *shrt, const char *tiny,
                int cluster, unsigned flags)
{
    if (g->nn == g->ncap) {
        g->ncap = g->ncap ? 2 * g->ncap : 16;
        g->n = wmx_realloc(g->n, (size_t)g->ncap * sizeof *g->n);
    }
    gx_node *n = &g->n[g->nn];
    memset(n, 0, sizeof *n);
    n->id = wmx_strdup(id);
    n->label[0] = wmx_strdup(full);
    n->label[1] = wmx_strdup(shrt ? shrt : full);
    n->label[2] = wmx_strdup(tiny ? tiny : shrt ? shrt : full);
    n->info = wmx_strdup(full);
    n->cluster = cluster;
    n->thread = -1;
    n->eid = EID_INIT;
    n->flags = flags;
    return g->nn++;
}

int gx_add_edge(gx_graph *g, int from, int to, gx_ekind kind, const char *label, unsigned flags)
{
    if (from < 0 || to < 0)
        return -1;
    if (g->ne == g->ecap) {
        g->ecap = g->ecap ? 2 * g->ecap : 16;
        g->e = wmx_realloc(g->e, (size_t)g->ecap * sizeof *g->e);
    }
    gx_edge *e = &g->e[g->ne];
    memset(e, 0, sizeof *e);
    e->from = from;
    e->to = to;
    e->kind = kind;
    e->label = label && *label ? wmx_strdup(label) : NULL;
    e->flags = flags;
    e->lx = e->ly = -1;
    return g->ne++;
}

int gx_find_node(const gx_graph *g, const char *id)
{
    for (int i = 0; i < g->nn; i++)
        if (strcmp(g->n[i].id, id) == 0)
            return i;
    return -1;
}

static void set_info(gx_node *n, const char *info)
{
    free(n->info);
    n->info = wmx_strdup(info);
}

/* ---- execution graphs ---- */

static event_kind thread_event_kind(const xevent *e, wmx_model model)
{
    switch (e->kind) {
    case X_READ: return EV_READ;
    case X_WRITE: return model == MODEL_SC ? EV_WRITE : EV_WRITE_BUF;
    case X_FENCE: return EV_FENCE;
    case X_RMW: return EV_RMW;
    case X_AWAIT: return EV_AWAIT;
    }
    return EV_READ;
}

/* What the event does, without its name: "r y=0", "wB x=1", "fnc". */
static void event_what(const wmx_exec *x, int e, wmx_model model, char *buf, size_t n, bool cell_only)
{
    const xevent *v = &x->ev[e];
    char cell[128] = "";
    if (v->cell >= 0)
        ir_cell_name(x->prog, v->cell, cell, sizeof cell);
    const char *k = event_kind_name(thread_event_kind(v, model));
    if (v->kind == X_FENCE)
        snprintf(buf, n, "%s", k);
    else if (cell_only)
        snprintf(buf, n, "%s %s", k, cell);
    else if (v->kind == X_RMW)
        snprintf(buf, n, "%s %s %lld>%lld", k, cell, (long long)v->read,
                 (long long)(v->wrote ? v->value : v->read));
    else
        snprintf(buf, n, "%s %s=%lld", k, cell, (long long)v->value);
}

/* Whether po from a to b (immediate successors) is one the model may reorder. */
static bool po_relaxed(const xevent *a, const xevent *b, wmx_model model)
{
    if (model == MODEL_SC || a->kind != X_WRITE)
        return false;
    if (b->kind == X_READ || b->kind == X_AWAIT)
        return true;
    return model == MODEL_PSO && b->kind == X_WRITE && b->cell != a->cell;
}

static int find_edge(const gx_graph *g, int from, int to, gx_ekind kind)
{
    for (int i = 0; i < g->ne; i++)
        if (g->e[i].from == from && g->e[i].to == to &&
            (g->e[i].kind == kind || (kind == GE_PO && g->e[i].kind == GE_PO_RELAXED)))
            return i;
    return -1;
}

gx_graph *gx_from_exec(const wmx_exec *x, gx_view view, wmx_model model, bool inits,
                       const verify_result *facts)
{
    const wmx_program *p = x->prog;
    char title[256];
    snprintf(title, sizeof title, "%s (%s)", p->name ? p->name : "execution", model_name(model));
    gx_graph *g = gx_new(view, title);
    if (facts)
        g->verdict = facts->consistent
                         ? wmx_asprintf("consistent under %s", model_name(facts->model))
                         : wmx_asprintf("INCONSISTENT under %s: the %d red edge%s form%s the cycle that forbids it",
                                        model_name(facts->model), facts->nfacts, facts->nfacts == 1 ? "" : "s",
                                        facts->nfacts == 1 ? "s" : "");
    bool split = view == GX_EXEC && model != MODEL_SC;
    int *ev_node = wmx_malloc((size_t)(x->nev + 1) * sizeof *ev_node);
    int *mem_node = wmx_malloc((size_t)(x->nev + 1) * sizeof *mem_node);
    int *init_node = wmx_malloc((size_t)(x->ncells + 1) * sizeof *init_node);
    for (int c = 0; c < x->ncells; c++)
        init_node[c] = -1;
    xedge *edges;
    int ne = exec_edges(x, &edges);
    /* initial values read */
    if (inits)
        for (int i = 0; i < x->nev; i++) {
            const xevent *v = &x->ev[i];
            if (!xev_is_read(v) || v->rf >= 0 || v->cell < 0 || init_node[v->cell] >= 0)
                continue;
            char cn[128], id[32], full[192], tiny[160];
            ir_cell_name(p, v->cell, cn, sizeof cn);
            snprintf(id, sizeof id, "init_%d", v->cell);
            snprintf(full, sizeof full, "init %s=%lld", cn, (long long)x->cell_init[v->cell]);
            snprintf(tiny, sizeof tiny, "%s=%lld", cn, (long long)x->cell_init[v->cell]);
            init_node[v->cell] = gx_add_node(g, id, full, tiny, tiny, -1, GX_INIT);
            g->n[init_node[v->cell]].eid = EID_INIT;
        }
    for (int t = 0; t < x->nthreads; t++) {
        int cl = gx_add_cluster(g, p->threads[t].name);
        for (int e = x->tstart[t]; e < x->tstart[t + 1]; e++) {
            const xevent *v = &x->ev[e];
            char id[32], name[64], what[192], full[300], shrt[200], tiny[160], info[600];
            exec_event_name(x, e, name, sizeof name);
            event_what(x, e, model, what, sizeof what, false);
            snprintf(id, sizeof id, "e%d", e);
            snprintf(full, sizeof full, "%s %s", name, what);
            snprintf(shrt, sizeof shrt, "%s", what);
            event_what(x, e, model, tiny, sizeof tiny, true);
            unsigned fl = v->kind == X_WRITE && !v->flushed && model != MODEL_SC ? GX_DASHED : 0;
            int n = gx_add_node(g, id, full, shrt, tiny, cl, fl);
            exec_event_describe(x, e, info, sizeof info);
            set_info(&g->n[n], info);
            g->n[n].thread = t;
            g->n[n].ekind = thread_event_kind(v, model);
            g->n[n].eid = EID_MAKE(t, v->index);
            ev_node[e] = n;
            mem_node[e] = n;
            if (split && v->kind == X_WRITE && v->flushed) {
                char cn[128];
                ir_cell_name(p, v->cell, cn, sizeof cn);
                snprintf(id, sizeof id, "m%d", e);
                snprintf(full, sizeof full, "%s wM %s=%lld", name, cn, (long long)v->value);
                snprintf(shrt, sizeof shrt, "wM %s=%lld", cn, (long long)v->value);
                snprintf(tiny, sizeof tiny, "wM %s", cn);
                int m = gx_add_node(g, id, full, shrt, tiny, cl, 0);
                snprintf(info, sizeof info, "%s wM %s=%lld: the store reaches memory", name, cn,
                         (long long)v->value);
                set_info(&g->n[m], info);
                g->n[m].thread = t;
                g->n[m].ekind = EV_WRITE_MEM;
                g->n[m].eid = EID_MAKE(t, v->index);
                g->n[m].mem = true;
                mem_node[e] = m;
            }
        }
    }
    /* po */
    for (int t = 0; t < x->nthreads; t++)
        for (int e = x->tstart[t]; e + 1 < x->tstart[t + 1]; e++) {
            bool rel = view == GX_HB && po_relaxed(&x->ev[e], &x->ev[e + 1], model);
            gx_add_edge(g, ev_node[e], ev_node[e + 1], rel ? GE_PO_RELAXED : GE_PO, "po", 0);
        }
    if (split)
        for (int e = 0; e < x->nev; e++)
            if (mem_node[e] != ev_node[e])
                gx_add_edge(g, ev_node[e], mem_node[e], GE_WBM, NULL, 0);
    /* rf, co, fr; fr from the initial value when co is unknown */
    bool *has_co = wmx_calloc((size_t)x->ncells + 1, sizeof *has_co);
    for (int i = 0; i < ne; i++) {
        const xedge *d = &edges[i];
        if (d->kind == REL_RF) {
            int from;
            if (d->from < 0)
                from = d->cell >= 0 ? init_node[d->cell] : -1;
            else
                from = x->ev[d->from].thread == x->ev[d->to].thread ? ev_node[d->from] : mem_node[d->from];
            gx_add_edge(g, from, ev_node[d->to], GE_RF, "rf", 0);
        } else if (d->kind == REL_CO) {
            if (d->cell >= 0)
                has_co[d->cell] = true;
            if (d->from >= 0)
                gx_add_edge(g, mem_node[d->from], mem_node[d->to], GE_CO, "co", 0);
        } else if (d->kind == REL_FR) {
            gx_add_edge(g, ev_node[d->from], mem_node[d->to], GE_FR, "fr", 0);
        }
    }
    for (int r = 0; r < x->nev; r++) {
        const xevent *v = &x->ev[r];
        if (!xev_is_read(v) || v->rf >= 0 || v->cell < 0 || has_co[v->cell])
            continue;
        for (int w = 0; w < x->nev; w++)
            if (w != r && xev_is_write(&x->ev[w]) && x->ev[w].cell == v->cell)
                gx_add_edge(g, ev_node[r], mem_node[w], GE_FR, "fr", 0);
    }
    free(has_co);
    /* the facts of an explanation */
    if (facts && !facts->consistent)
        for (int i = 0; i < facts->nfacts; i++) {
            const verify_fact *f = &facts->facts[i];
            gx_ekind k = f->kind == REL_RF ? GE_RF : f->kind == REL_CO ? GE_CO
                       : f->kind == REL_FR ? GE_FR : GE_PO;
            int from = -1, to = -1;
            if (f->from >= 0 && f->from < x->nev)
                from = k == GE_CO || (k == GE_RF && f->to >= 0 && x->ev[f->from].thread != x->ev[f->to].thread)
                     ? mem_node[f->from] : ev_node[f->from];
            else if (f->from < 0 && f->cell >= 0 && f->cell < x->ncells)
                from = init_node[f->cell];
            if (f->to >= 0 && f->to < x->nev)
                to = k == GE_CO || k == GE_FR ? mem_node[f->to] : ev_node[f->to];
            if (from < 0 || to < 0)
                continue;
            int ei = find_edge(g, from, to, k);
            if (ei < 0)
                ei = gx_add_edge(g, from, to, k, gx_ekind_name(k), 0);
            g->e[ei].flags |= GX_FACT;
            g->n[from].flags |= GX_FACT;
            g->n[to].flags |= GX_FACT;
        }
    free(edges);
    free(ev_node);
    free(mem_node);
    free(init_node);
    return g;
}

void gx_mark_steps(gx_graph *g, const wmx_event *events, int len, int pos)
{
    for (int i = 0; i < g->nn; i++) {
        gx_node *n = &g->n[i];
        n->flags &= ~(GX_CUR | GX_FUTURE);
        n->step = 0;
        if (n->thread < 0 || n->eid == EID_INIT)
            continue;
        for (int k = 0; k < len; k++)
            if (events[k].id == n->eid && (events[k].kind == EV_WRITE_MEM) == n->mem) {
                n->step = k + 1;
                break;
            }
        /* an atomic write (SC) is one step; hb nodes of flushed writes under
         * TSO/PSO stand for the buffer-write */
        if (n->step == pos && pos > 0)
            n->flags |= GX_CUR;
        if (n->step > pos)
            n->flags |= GX_FUTURE;
    }
}

/* ---- Optimal-DPOR: path, sleep sets, wakeup trees ---- */

static void odpor_what(const wmx_program *p, const odpor_event *e, char *buf, size_t n, bool name)
{
    char cell[96] = "";
    if (e->cell >= 0)
        ir_cell_name(p, e->cell, cell, sizeof cell);
    const char *what = e->await ? "await" : e->writes && e->reads ? "rmw" : e->writes ? "w"
                     : e->reads ? "r" : "fnc";
    if (name)
        snprintf(buf, n, "%s.%d %s %s", p->threads[e->thread].name, e->index, what, cell);
    else
        snprintf(buf, n, "%s %s %s", p->threads[e->thread].name, what, cell);
}

static void race_label(const wmx_program *p, const odpor_node *x, char *buf, size_t n)
{
    if (x->race_e == EID_INIT) {
        buf[0] = '\0';
        return;
    }
    int t1 = EID_THREAD(x->race_e), t2 = EID_THREAD(x->race_e2);
    snprintf(buf, n, "%srace %s.%d-%s.%d", x->blocking_race ? "await " : "",
             t1 < p->nthreads ? p->threads[t1].name : "?", EID_INDEX(x->race_e),
             t2 < p->nthreads ? p->threads[t2].name : "?", EID_INDEX(x->race_e2));
}

static void wut_subtree(gx_graph *g, const odpor_state *s, const wmx_program *p, int parent, int c, int depth)
{
    for (; c >= 0 && depth < 64; c = odpor_node_at(s, c)->sibling) {
        const odpor_node *x = odpor_node_at(s, c);
        char id[32], full[200], shrt[160], race[160];
        snprintf(id, sizeof id, "n%d", c);
        odpor_what(p, &x->ev, full, sizeof full, true);
        odpor_what(p, &x->ev, shrt, sizeof shrt, false);
        race_label(p, x, race, sizeof race);
        unsigned fl = GX_DASHED | (x->race_e != EID_INIT ? GX_RACE : 0);
        int n = gx_add_node(g, id, full, shrt, p->threads[x->ev.thread].name, -1, fl);
        g->n[n].thread = x->ev.thread;
        g->n[n].ekind = x->ev.writes ? (x->ev.reads ? EV_RMW : EV_WRITE) : x->ev.await ? EV_AWAIT : EV_READ;
        if (race[0]) {
            char info[800];
            snprintf(info, sizeof info, "wakeup branch %s, inserted by the %s", full, race);
            set_info(&g->n[n], info);
        }
        gx_add_edge(g, parent, n, GE_BRANCH, race, fl & GX_RACE);
        wut_subtree(g, s, p, n, x->child, depth + 1);
    }
}

gx_graph *gx_from_odpor(const odpor_state *s, const wmx_program *p, long nexec)
{
    char title[200];
    snprintf(title, sizeof title, "%s: Optimal-DPOR, execution %ld", p->name ? p->name : "program", nexec);
    gx_graph *g = gx_new(GX_WUT, title);
    int depth = odpor_depth(s);
    const wmx_event *ev = odpor_events(s);
    int *path = wmx_malloc((size_t)(depth + 1) * sizeof *path);
    odpor_event sl[WMX_MAX_THREADS];
    for (int i = 0; i <= depth; i++) {
        char id[32], full[600], shrt[560], tiny[32], sleep[500] = "";
        size_t len = 0;
        int ns = odpor_sleep(s, i, sl, WMX_MAX_THREADS);
        for (int k = 0; k < ns && len + 40 < sizeof sleep; k++)
            len += (size_t)snprintf(sleep + len, sizeof sleep - len, "%s%s", k ? "," : "",
                                    p->threads[sl[k].thread].name);
        snprintf(id, sizeof id, "p%d", i);
        snprintf(full, sizeof full, "E[0..%d) sleep {%s}", i, sleep);
        snprintf(shrt, sizeof shrt, "%d {%s}", i, sleep);
        snprintf(tiny, sizeof tiny, "%d", i);
        path[i] = gx_add_node(g, id, full, shrt, tiny, -1, 0);
        g->n[path[i]].step = i;
    }
    for (int i = 0; i < depth; i++) {
        char lab[200], cell[96] = "";
        if (ev[i].cell >= 0)
            ir_cell_name(p, ev[i].cell, cell, sizeof cell);
        snprintf(lab, sizeof lab, "%s.%d %s %s", p->threads[ev[i].thread].name, EID_INDEX(ev[i].id),
                 event_kind_name(ev[i].kind), cell);
        gx_add_edge(g, path[i], path[i + 1], GE_TREE, lab, 0);
        int root = odpor_wut_root(s, i), cur = odpor_wut_root(s, i + 1);
        if (root < 0)
            continue;
        for (int c = odpor_node_at(s, root)->child; c >= 0; c = odpor_node_at(s, c)->sibling) {
            if (c == cur)
                continue;
            const odpor_node *x = odpor_node_at(s, c);
            char id[32], full[200], shrt[160], race[160];
            snprintf(id, sizeof id, "n%d", c);
            odpor_what(p, &x->ev, full, sizeof full, true);
            odpor_what(p, &x->ev, shrt, sizeof shrt, false);
            race_label(p, x, race, sizeof race);
            unsigned fl = GX_DASHED | (x->race_e != EID_INIT ? GX_RACE : 0);
            int n = gx_add_node(g, id, full, shrt, p->threads[x->ev.thread].name, -1, fl);
            g->n[n].thread = x->ev.thread;
            if (race[0]) {
                char info[800];
                snprintf(info, sizeof info, "wakeup branch %s after E[0..%d), inserted by the %s", full, i, race);
                set_info(&g->n[n], info);
            }
            gx_add_edge(g, path[i], n, GE_BRANCH, race, fl & GX_RACE);
            wut_subtree(g, s, p, n, x->child, 0);
        }
    }
    free(path);
    return g;
}

/* ---- the tree of the recorded traces ---- */

gx_graph *gx_from_traces(const ui_exec_list *l, const wmx_program *p, int max_nodes)
{
    char title[300];
    snprintf(title, sizeof title, "%s: explored traces (%s, %s)", p->name ? p->name : "program",
             model_name(l->model), algo_name(l->algo));
    gx_graph *g = gx_new(GX_TREE, title);
    gx_add_node(g, "root", "start", "start", "*", -1, 0);
    /* the trie: node -> transition of the edge into it */
    int cap = 64, *first_child = NULL, *next_sib = NULL;
    wmx_transition *tr_of = NULL;
    first_child = wmx_malloc((size_t)cap * sizeof *first_child);
    next_sib = wmx_malloc((size_t)cap * sizeof *next_sib);
    tr_of = wmx_malloc((size_t)cap * sizeof *tr_of);
    first_child[0] = next_sib[0] = -1;
    bool truncated = false;
    void *st = l->m ? wmx_malloc(machine_state_size(l->m)) : NULL;
    for (int ci = 0; ci < l->n && !truncated; ci++) {
        const ui_exec_class *c = &l->v[ci];
        for (int k = 0; k < c->ntraces && !truncated; k++) {
            const ui_trace *t = &c->traces[k];
            int cur = 0;
            if (st)
                machine_init(l->m, st);
            for (int i = 0; i < t->len; i++) {
                const wmx_transition step = ui_trace_step(t, i), *x = &step;
                wmx_event ev;
                memset(&ev, 0, sizeof ev);
                if (st)
                    machine_apply(l->m, st, x, &ev);
                int ch;
                for (ch = first_child[cur]; ch >= 0; ch = next_sib[ch])
                    if (tr_of[ch].kind == x->kind && tr_of[ch].thread == x->thread && tr_of[ch].cell == x->cell)
                        break;
                if (ch < 0) {
                    if (g->nn + 2 > max_nodes) {
                        truncated = true;
                        break;
                    }
                    char id[32], full[200], tiny[64], cell[96] = "";
                    if (ev.cell >= 0)
                        ir_cell_name(p, ev.cell, cell, sizeof cell);
                    snprintf(id, sizeof id, "t%d", g->nn);
                    if (st && ev.kind != EV_FENCE)
                        snprintf(full, sizeof full, "%s %s %s=%lld", p->threads[x->thread].name,
                                 event_kind_name(ev.kind), cell, (long long)ev.value);
                    else
                        snprintf(full, sizeof full, "%s %s", p->threads[x->thread].name,
                                 x->kind == TR_FLUSH ? "flush" : "step");
                    snprintf(tiny, sizeof tiny, "%s", p->threads[x->thread].name);
                    ch = gx_add_node(g, id, full, full, tiny, -1, 0);
                    g->n[ch].thread = x->thread;
                    g->n[ch].ekind = ev.kind;
                    if (ch >= cap) {
                        cap *= 2;
                        first_child = wmx_realloc(first_child, (size_t)cap * sizeof *first_child);
                        next_sib = wmx_realloc(next_sib, (size_t)cap * sizeof *next_sib);
                        tr_of = wmx_realloc(tr_of, (size_t)cap * sizeof *tr_of);
                    }
                    tr_of[ch] = *x;
                    first_child[ch] = -1;
                    next_sib[ch] = first_child[cur];
                    first_child[cur] = ch;
                    gx_add_edge(g, cur, ch, GE_TREE, NULL, 0);
                }
                cur = ch;
            }
            if (truncated)
                break;
            if (first_child[cur] < 0 && g->nn + 1 <= max_nodes && cur != 0) {
                /* a leaf: name its final state (once) */
                char id[32], full[600];
                snprintf(id, sizeof id, "leaf%d", cur);
                if (gx_find_node(g, id) >= 0)
                    continue;
                char label[512];
                snprintf(full, sizeof full, "%d: %s%s", ci + 1, sess_exec_label(l, c, label, sizeof label),
                         c->error ? " ASSERTION" : c->deadlock ? " deadlock" : c->blocked ? " blocked"
                         : c->satisfies ? " cond" : "");
                char shrt[32];
                snprintf(shrt, sizeof shrt, "#%d", ci + 1);
                int lf = gx_add_node(g, id, full, shrt, shrt, -1, c->satisfies ? GX_RACE : 0);
                if (lf >= cap) {
                    cap *= 2;
                    first_child = wmx_realloc(first_child, (size_t)cap * sizeof *first_child);
                    next_sib = wmx_realloc(next_sib, (size_t)cap * sizeof *next_sib);
                    tr_of = wmx_realloc(tr_of, (size_t)cap * sizeof *tr_of);
                }
                first_child[lf] = next_sib[lf] = -1;
                tr_of[lf] = (wmx_transition){ TR_STEP, -1, -2 };
                gx_add_edge(g, cur, lf, GE_BRANCH, NULL, 0);
            }
        }
    }
    if (truncated)
        g->note = wmx_asprintf("only the first %d nodes of the trace tree are shown", max_nodes);
    free(st);
    free(first_child);
    free(next_sib);
    free(tr_of);
    return g;
}

/* ---- to libcgraph ---- */

static void set(void *obj, const char *name, const char *value)
{
    agsafeset(obj, (char *)name, (char *)value, (char *)"");
}

static const char *edge_color(gx_ekind k)
{
    switch (k) {
    case GE_PO: return "black";
    case GE_PO_RELAXED: return "gray50";
    case GE_RF: return "darkgreen";
    case GE_CO: return "red";
    case GE_FR: return "magenta3";
    case GE_WBM: return "goldenrod";
    case GE_TREE: return "black";
    case GE_BRANCH: return "gray40";
    default: return "black";
    }
}

/* Builds the cgraph: for_cells sizes each node as a fixed box of cells for
 * the pane's layout; otherwise the graph is styled for files. */
static Agraph_t *to_cgraph(const gx_graph *g, int zoom, bool for_cells, Agnode_t **nodes, Agedge_t **edges)
{
    Agraph_t *G = agopen((char *)(g->view == GX_WUT || g->view == GX_TREE ? "tree" : "execution"),
                         Agdirected, NULL);
    if (!G)
        return NULL;
    char buf[64];
    set(G, "rankdir", "TB");
    if (for_cells) {
        snprintf(buf, sizeof buf, "%.3f", 4.0 * CW / 72.0 + 0.01);   /* room for arrowheads between boxes */
        set(G, "nodesep", buf);
        /* edge labels are placed on the drawn paths, not by dot (labels
         * on flat edges crash dot 2.42 in flat_edges) */
        snprintf(buf, sizeof buf, "%.3f", 4.0 * CH / 72.0 + 0.01);
        set(G, "ranksep", buf);
        /* the terminal only shows runs of cells: big graphs get straight
         * line routing, which keeps a 200-event graph well under 100 ms
         * (polyline routing takes about twice as long).  Small execution
         * graphs are routed again on the cell grid (graph_route.c); dot's
         * `ortho` routing would keep edges apart, but it aborts on some of
         * our graphs (maze.c: chkSgraph, graphviz 2.43). */
        set(G, "splines", g->nn > 60 ? "line" : "polyline");
        set(G, "fontsize", "10");
    } else {
        /* a file stands alone: title, verdict and a legend of the edges drawn */
        wmx_strbuf lab = { 0 };
        wmx_strbuf_printf(&lab, "%s", g->title);
        if (g->verdict)
            wmx_strbuf_printf(&lab, "\n%s", g->verdict);
        static const char *const kind_names[GE_COUNT] = {
            [GE_PO] = "po (kept)", [GE_PO_RELAXED] = "po (may reorder, dotted)", [GE_RF] = "rf",
            [GE_CO] = "co (bold)", [GE_FR] = "fr (dashed)", [GE_WBM] = "buffer -> memory",
            [GE_TREE] = "explored", [GE_BRANCH] = "pending branch (dashed)" };
        bool seen[GE_COUNT] = { false };
        for (int i = 0; i < g->ne; i++)
            if ((int)g->e[i].kind >= 0 && g->e[i].kind < GE_COUNT)
                seen[g->e[i].kind] = true;
        const char *sep = "\nedges: ";
        for (int k = 0; k < GE_COUNT; k++)
            if (seen[k] && kind_names[k]) {
                wmx_strbuf_printf(&lab, "%s%s %s", sep, edge_color((gx_ekind)k), kind_names[k]);
                sep = ", ";
            }
        set(G, "label", lab.s ? lab.s : g->title);
        free(lab.s);
        set(G, "labelloc", "t");
        set(G, "forcelabels", "true");
        set(G, "fontname", "monospace");
    }
    agattr(G, AGNODE, (char *)"shape", (char *)"box");
    agattr(G, AGNODE, (char *)"fontname", (char *)"monospace");
    agattr(G, AGEDGE, (char *)"fontname", (char *)"monospace");
    Agraph_t **sub = wmx_calloc((size_t)g->nclusters + 1, sizeof *sub);
    bool *used = wmx_calloc((size_t)g->nclusters + 1, sizeof *used);
    for (int i = 0; i < g->nn; i++)
        if (g->n[i].cluster >= 0 && g->n[i].cluster < g->nclusters)
            used[g->n[i].cluster] = true;
    for (int c = 0; c < g->nclusters; c++) {
        if (!used[c])
            continue;       /* a thread with no events yet: no empty box, no stray label */
        snprintf(buf, sizeof buf, "cluster_%d", c);
        sub[c] = agsubg(G, buf, 1);
        set(sub[c], "label", g->clusters[c]);
        if (for_cells) {
            snprintf(buf, sizeof buf, "%.1f", CW);
            set(sub[c], "margin", buf);
        }
    }
    for (int i = 0; i < g->nn; i++) {
        const gx_node *n = &g->n[i];
        Agraph_t *where = n->cluster >= 0 && n->cluster < g->nclusters ? sub[n->cluster] : G;
        Agnode_t *a = agnode(where, n->id, 1);
        nodes[i] = a;
        set(a, "label", n->label[zoom]);
        if (for_cells) {
            int w = (int)strlen(n->label[zoom]) + 2;
            snprintf(buf, sizeof buf, "%.4f", w * CW / 72.0);
            set(a, "width", buf);
            snprintf(buf, sizeof buf, "%.4f", 3 * CH / 72.0);
            set(a, "height", buf);
            set(a, "fixedsize", "true");
        } else {
            char style[64] = "";
            if (n->flags & (GX_DASHED | GX_INIT))
                snprintf(style, sizeof style, "dashed");
            if (n->flags & GX_CUR) {
                snprintf(style + strlen(style), sizeof style - strlen(style), "%sfilled", style[0] ? "," : "");
                set(a, "fillcolor", "yellow");
            }
            if (style[0])
                set(a, "style", style);
            if (n->flags & GX_FACT) {
                set(a, "color", "red");
                set(a, "penwidth", "2");
            } else if (n->flags & GX_FUTURE) {
                set(a, "color", "gray60");
                set(a, "fontcolor", "gray60");
            }
            if (n->info && strcmp(n->info, n->label[zoom]) != 0)
                set(a, "tooltip", n->info);
        }
    }
    for (int i = 0; i < g->ne; i++) {
        const gx_edge *e = &g->e[i];
        Agedge_t *a = agedge(G, nodes[e->from], nodes[e->to], NULL, 1);
        edges[i] = a;
        bool free_edge = e->kind == GE_RF || e->kind == GE_CO || e->kind == GE_FR;
        if (e->label && !for_cells)
            set(a, free_edge ? "xlabel" : "label", e->label);
        /* only program order (and wB->wM, tree edges) ranks the nodes:
         * the threads then stand side by side */
        if (free_edge)
            set(a, "constraint", "false");
        if (for_cells)
            continue;
        set(a, "color", (e->flags & GX_FACT) ? "red" : edge_color(e->kind));
        set(a, "fontcolor", (e->flags & GX_FACT) ? "red" : edge_color(e->kind));
        if (e->flags & (GX_FACT | GX_RACE))
            set(a, "penwidth", "2.5");
        switch (e->kind) {
        case GE_PO_RELAXED: set(a, "style", "dotted"); break;
        case GE_FR: case GE_BRANCH: set(a, "style", "dashed"); break;
        case GE_CO: case GE_TREE: set(a, "style", "bold"); break;
        default: break;
        }
    }
    free(sub);
    free(used);
    return G;
}

char *gx_dot(const gx_graph *g)
{
    Agnode_t **nodes = wmx_malloc((size_t)(g->nn + 1) * sizeof *nodes);
    Agedge_t **edges = wmx_malloc((size_t)(g->ne + 1) * sizeof *edges);
    gvc();
    Agraph_t *G = to_cgraph(g, 0, false, nodes, edges);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (G && f)
        agwrite(G, f);
    if (f)
        fclose(f);
    if (G)
        agclose(G);
    free(nodes);
    free(edges);
    return text;
}

/* ---- layout ---- */

static void add_pt(int **pts, int *n, int *cap, int x, int y)
{
    if (*n > 0 && (*pts)[2 * (*n - 1)] == x && (*pts)[2 * (*n - 1) + 1] == y)
        return;
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 32;
        *pts = wmx_realloc(*pts, (size_t)*cap * 2 * sizeof **pts);
    }
    (*pts)[2 * *n] = x;
    (*pts)[2 * *n + 1] = y;
    (*n)++;
}

static bool inside(const gx_node *n, int x, int y)
{
    return x >= n->x && x < n->x + n->w && y >= n->y && y < n->y + n->h;
}

/* The cell next to node n's box nearest to (x, y). */
static void outside_near(const gx_node *n, int x, int y, int *ox, int *oy)
{
    int cx = x < n->x ? n->x : x >= n->x + n->w ? n->x + n->w - 1 : x;
    int cy = y < n->y ? n->y : y >= n->y + n->h ? n->y + n->h - 1 : y;
    /* step out across the nearest side */
    int dl = cx - n->x, dr = n->x + n->w - 1 - cx, du = cy - n->y, dd = n->y + n->h - 1 - cy;
    if (x < n->x) dl = -1;
    if (x >= n->x + n->w) dr = -1;
    if (y < n->y) du = -1;
    if (y >= n->y + n->h) dd = -1;
    int best = du, side = 0;
    if (dd < best) best = dd, side = 1;
    if (dl < best) best = dl, side = 2;
    if (dr < best) best = dr, side = 3;
    switch (side) {
    case 0: *ox = cx; *oy = n->y - 1; break;
    case 1: *ox = cx; *oy = n->y + n->h; break;
    case 2: *ox = n->x - 1; *oy = cy; break;
    default: *ox = n->x + n->w; *oy = cy; break;
    }
}

bool gx_beside(const gx_node *n, int x, int y)
{
    bool hx = x >= n->x && x < n->x + n->w, vy = y >= n->y && y < n->y + n->h;
    return (hx && (y == n->y - 1 || y == n->y + n->h)) || (vy && (x == n->x - 1 || x == n->x + n->w));
}

/* Appends a 4-connected run of cells from the last point to (x, y):
 * vertical first when the run is mostly vertical. */
static void run_to(int **pts, int *n, int *cap, int x, int y)
{
    if (*n == 0) {
        add_pt(pts, n, cap, x, y);
        return;
    }
    int cx = (*pts)[2 * (*n - 1)], cy = (*pts)[2 * (*n - 1) + 1];
    int dx = x - cx, dy = y - cy;
    int steps = abs(dx) > abs(dy) ? abs(dx) : abs(dy);
    /* walk the straight line, taking 4-connected steps */
    for (int i = 1; i <= steps; i++) {
        int tx = cx + (int)lround((double)dx * i / steps), ty = cy + (int)lround((double)dy * i / steps);
        int lx = (*pts)[2 * (*n - 1)], ly = (*pts)[2 * (*n - 1) + 1];
        if (tx != lx && ty != ly)
            add_pt(pts, n, cap, abs(dy) >= abs(dx) ? lx : tx, abs(dy) >= abs(dx) ? ty : ly);
        add_pt(pts, n, cap, tx, ty);
    }
}

/* Turns sampled cell points into a path that leaves `a` and reaches `b`. */
static void route(gx_edge *e, const gx_node *a, const gx_node *b, const int *raw, int nraw)
{
    int *pts = NULL, n = 0, cap = 0;
    for (int i = 0; i < nraw; i++)
        run_to(&pts, &n, &cap, raw[2 * i], raw[2 * i + 1]);
    /* drop the cells inside the tail's box at the start and the head's at the end */
    int s = 0, t = n - 1;
    while (s < n && inside(a, pts[2 * s], pts[2 * s + 1]))
        s++;
    while (t >= s && inside(b, pts[2 * t], pts[2 * t + 1]))
        t--;
    int *out = NULL, m = 0, mcap = 0;
    if (s > t) {
        /* nothing left (adjacent boxes): a straight stub between them */
        int ox, oy;
        outside_near(a, b->x + b->w / 2, b->y + b->h / 2, &ox, &oy);
        add_pt(&out, &m, &mcap, ox, oy);
    } else {
        int sx = pts[2 * s], sy = pts[2 * s + 1];
        if (!gx_beside(a, sx, sy)) {
            int ox, oy;
            outside_near(a, sx, sy, &ox, &oy);
            add_pt(&out, &m, &mcap, ox, oy);
        }
        for (int i = s; i <= t; i++)
            run_to(&out, &m, &mcap, pts[2 * i], pts[2 * i + 1]);
    }
    int lx = out[2 * (m - 1)], ly = out[2 * (m - 1) + 1];
    if (!gx_beside(b, lx, ly)) {
        int ox, oy;
        outside_near(b, lx, ly, &ox, &oy);
        run_to(&out, &m, &mcap, ox, oy);
        /* the run may have crossed into b; cut it at the first touching cell */
        for (int i = 0; i < m; i++)
            if (gx_beside(b, out[2 * i], out[2 * i + 1])) {
                m = i + 1;
                break;
            }
    }
    free(pts);
    free(e->pts);
    e->pts = out;
    e->npts = m;
}

static int cell_x(double x, double x0) { return (int)lround((x - x0) / CW); }
static int cell_y(double y, double y1) { return (int)lround((y1 - y) / CH); }

int gx_layout(gx_graph *g, int zoom, char *err, size_t n)
{
    if (zoom < 0)
        zoom = 0;
    if (zoom >= GX_ZOOMS)
        zoom = GX_ZOOMS - 1;
    g->laid = false;
    gx_clear_error();
    GVC_t *ctx = gvc();
    if (!ctx) {
        snprintf(err, n, "graphviz: cannot create a context%s%s", last_err[0] ? ": " : "", last_err);
        return -1;
    }
    Agnode_t **nodes = wmx_malloc((size_t)(g->nn + 1) * sizeof *nodes);
    Agedge_t **edges = wmx_malloc((size_t)(g->ne + 1) * sizeof *edges);
    Agraph_t *G = to_cgraph(g, zoom, true, nodes, edges);
    if (!G) {
        snprintf(err, n, "graphviz: cannot build the graph%s%s", last_err[0] ? ": " : "", last_err);
        free(nodes);
        free(edges);
        return -1;
    }
    errcap cap;
    cap_begin(&cap);
    int lrc = gvLayout(ctx, G, "dot");
    cap_end(&cap);
    if (lrc != 0) {
        snprintf(err, n, "graphviz: the `dot` layout is not available (%s) - is the graphviz plugin "
                 "configuration installed? (`dot -c` registers the plugins)",
                 last_err[0] ? last_err : "no message");
        agclose(G);
        free(nodes);
        free(edges);
        return -1;
    }
    boxf bb = GD_bb(G);
    double x0 = bb.LL.x, y1 = bb.UR.y;
    g->W = (int)ceil((bb.UR.x - bb.LL.x) / CW) + 2;
    g->H = (int)ceil((bb.UR.y - bb.LL.y) / CH) + 2;
    for (int i = 0; i < g->nn; i++) {
        gx_node *v = &g->n[i];
        pointf c = ND_coord(nodes[i]);
        v->w = (int)strlen(v->label[zoom]) + 2;
        v->h = 3;
        v->x = (int)lround((c.x - x0) / CW - v->w / 2.0);
        v->y = (int)lround((y1 - c.y) / CH - v->h / 2.0);
    }
    free(g->cbox);
    g->cbox = wmx_calloc((size_t)g->nclusters * 4 + 1, sizeof *g->cbox);
    for (int c = 1; c <= GD_n_cluster(G); c++) {
        Agraph_t *sg = GD_clust(G)[c];
        int k;
        if (sscanf(agnameof(sg), "cluster_%d", &k) != 1 || k < 0 || k >= g->nclusters)
            continue;
        boxf b = GD_bb(sg);
        int *cb = &g->cbox[4 * k];
        cb[0] = cell_x(b.LL.x, x0);
        cb[1] = cell_y(b.UR.y, y1);
        cb[2] = cell_x(b.UR.x, x0) - cb[0] + 1;
        cb[3] = cell_y(b.LL.y, y1) - cb[1] + 1;
    }
    int *raw = NULL, nraw = 0, rcap = 0;
    for (int i = 0; i < g->ne; i++) {
        gx_edge *e = &g->e[i];
        const gx_node *a = &g->n[e->from], *b = &g->n[e->to];
        nraw = 0;
        splines *sp = ED_spl(edges[i]);
        if (sp && sp->size > 0) {
            for (int k = 0; k < sp->size; k++) {
                bezier *bz = &sp->list[k];
                if (bz->sflag)
                    add_pt(&raw, &nraw, &rcap, cell_x(bz->sp.x, x0), cell_y(bz->sp.y, y1));
                for (int j = 0; j + 3 < bz->size; j += 3) {
                    pointf *q = &bz->list[j];
                    for (int s = 0; s <= 8; s++) {
                        double t = s / 8.0, u = 1 - t;
                        double px = u * u * u * q[0].x + 3 * u * u * t * q[1].x + 3 * u * t * t * q[2].x + t * t * t * q[3].x;
                        double py = u * u * u * q[0].y + 3 * u * u * t * q[1].y + 3 * u * t * t * q[2].y + t * t * t * q[3].y;
                        add_pt(&raw, &nraw, &rcap, cell_x(px, x0), cell_y(py, y1));
                    }
                }
                if (bz->eflag)
                    add_pt(&raw, &nraw, &rcap, cell_x(bz->ep.x, x0), cell_y(bz->ep.y, y1));
            }
        }
        if (nraw == 0) {
            add_pt(&raw, &nraw, &rcap, a->x + a->w / 2, a->y + a->h / 2);
            add_pt(&raw, &nraw, &rcap, b->x + b->w / 2, b->y + b->h / 2);
        } else {
            /* splines run tail to head; be safe with reversed ones */
            int fx = raw[0], fy = raw[1], lx = raw[2 * (nraw - 1)], ly = raw[2 * (nraw - 1) + 1];
            long da = labs((long)fx - (a->x + a->w / 2)) + labs((long)fy - (a->y + a->h / 2));
            long db = labs((long)lx - (a->x + a->w / 2)) + labs((long)ly - (a->y + a->h / 2));
            if (db < da && a != b)
                for (int l = 0, r = nraw - 1; l < r; l++, r--) {
                    int tx = raw[2 * l], ty = raw[2 * l + 1];
                    raw[2 * l] = raw[2 * r];
                    raw[2 * l + 1] = raw[2 * r + 1];
                    raw[2 * r] = tx;
                    raw[2 * r + 1] = ty;
                }
        }
        route(e, a, b, raw, nraw);
    }
    free(raw);
    if (g->nn <= GX_ROUTE_MAX_NODES && g->view != GX_WUT && g->view != GX_TREE)
        gx_route_apart(g);
    /* each label next to the middle of its path */
    for (int i = 0; i < g->ne; i++) {
        gx_edge *e = &g->e[i];
        e->lx = e->ly = -1;
        if (e->label && e->npts > 0) {
            int mid = e->npts / 2;
            e->lx = e->pts[2 * mid] + 1 + (int)strlen(e->label) / 2;
            e->ly = e->pts[2 * mid + 1];
        }
    }
    gvFreeLayout(ctx, G);
    agclose(G);
    free(nodes);
    free(edges);
    g->zoom = zoom;
    g->laid = true;
    return 0;
}

/* ---- drawing ---- */

enum { DU = 1, DD = 2, DL = 4, DR = 8 };

static wchar_t line_glyph(bool uni, unsigned d)
{
    if (!uni) {
        if (d == (DU | DD) || d == DU || d == DD)
            return L'|';
        if (d == (DL | DR) || d == DL || d == DR)
            return L'-';
        return L'+';
    }
    switch (d) {
    case DU: case DD: case DU | DD: return L'\x2502';
    case DL: case DR: case DL | DR: return L'\x2500';
    case DD | DR: return L'\x250c';
    case DD | DL: return L'\x2510';
    case DU | DR: return L'\x2514';
    case DU | DL: return L'\x2518';
    case DU | DD | DR: return L'\x251c';
    case DU | DD | DL: return L'\x2524';
    case DD | DL | DR: return L'\x252c';
    case DU | DL | DR: return L'\x2534';
    default: return L'\x253c';
    }
}

static unsigned dir_to(int x, int y, int nx, int ny)
{
    if (nx > x) return DR;
    if (nx < x) return DL;
    if (ny > y) return DD;
    if (ny < y) return DU;
    return 0;
}

/* Direction from a cell next to box n into the box. */
static unsigned dir_into(const gx_node *n, int x, int y)
{
    if (y < n->y) return DD;
    if (y >= n->y + n->h) return DU;
    if (x < n->x) return DR;
    return DL;
}

static ui_style edge_style(const gx_edge *e)
{
    if (e->flags & GX_FACT)
        return ST_ERROR;
    if (e->flags & GX_RACE)
        return ST_CHANGED;
    switch (e->kind) {
    case GE_PO: case GE_TREE: return ST_EDGE_PO;
    case GE_PO_RELAXED: case GE_BRANCH: return ST_DIM;
    case GE_RF: return ST_EDGE_RF;
    case GE_CO: return ST_EDGE_CO;
    case GE_FR: return ST_EDGE_FR;
    case GE_WBM: return ST_EV_WM;
    default: return ST_NORMAL;
    }
}

typedef struct canvas {
    ui_screen *s;
    ui_rect r;
    int px, py;
    unsigned *dirs;      /* per cell of r: line directions drawn so far */
} canvas;

static ui_cell *cv_cell(canvas *c, int gx, int gy, int *idx)
{
    int x = gx - c->px, y = gy - c->py;
    if (x < 0 || y < 0 || x >= c->r.w || y >= c->r.h)
        return NULL;
    int sx = c->r.x + x, sy = c->r.y + y;
    if (sx < 0 || sy < 0 || sx >= c->s->w || sy >= c->s->h)
        return NULL;
    if (idx)
        *idx = y * c->r.w + x;
    return &c->s->cells[sy * c->s->w + sx];
}

static void cv_put(canvas *c, int gx, int gy, wchar_t ch, ui_style st)
{
    ui_cell *cell = cv_cell(c, gx, gy, NULL);
    if (cell)
        *cell = (ui_cell){ ch, (unsigned char)st };
}

static void cv_text(canvas *c, int gx, int gy, int maxw, const char *t, ui_style st)
{
    for (int i = 0; t[i] && i < maxw; i++)
        cv_put(c, gx + i, gy, (wchar_t)(unsigned char)t[i], st);
}

static void cv_line(canvas *c, int gx, int gy, unsigned d, ui_style st)
{
    int idx;
    ui_cell *cell = cv_cell(c, gx, gy, &idx);
    if (!cell)
        return;
    c->dirs[idx] |= d;
    *cell = (ui_cell){ line_glyph(c->s->unicode, c->dirs[idx]), (unsigned char)st };
}

static void draw_edge(canvas *c, const gx_graph *g, const gx_edge *e)
{
    if (e->npts <= 0)
        return;
    const gx_node *a = &g->n[e->from], *b = &g->n[e->to];
    ui_style st = edge_style(e);
    bool uni = c->s->unicode;
    for (int i = 0; i < e->npts; i++) {
        int x = e->pts[2 * i], y = e->pts[2 * i + 1];
        unsigned d = 0;
        if (i == 0)
            d |= dir_into(a, x, y);
        else
            d |= dir_to(x, y, e->pts[2 * i - 2], e->pts[2 * i - 1]);
        if (i + 1 < e->npts) {
            d |= dir_to(x, y, e->pts[2 * i + 2], e->pts[2 * i + 3]);
            cv_line(c, x, y, d, st);
        } else {
            /* the arrow head points into b */
            unsigned in = dir_into(b, x, y);
            wchar_t h = in == DD ? (uni ? L'\x25bc' : L'v') : in == DU ? (uni ? L'\x25b2' : L'^')
                      : in == DR ? (uni ? L'\x25b6' : L'>') : (uni ? L'\x25c0' : L'<');
            cv_put(c, x, y, h, st);
        }
    }
}

static ui_style node_style(const gx_node *n)
{
    if (n->flags & GX_FACT)
        return ST_ERROR;
    if (n->flags & GX_RACE)
        return ST_CHANGED;
    if (n->flags & (GX_FUTURE | GX_INIT | GX_DASHED))
        return ST_DIM;
    return n->thread >= 0 ? ui_thread_style(n->thread) : ST_BORDER;
}

static void draw_node(canvas *c, const gx_graph *g, const gx_node *n, bool sel)
{
    bool uni = c->s->unicode;
    bool dashed = n->flags & (GX_DASHED | GX_INIT);
    ui_style st = node_style(n);
    wchar_t hz = uni ? (dashed ? L'\x254c' : L'\x2500') : (dashed ? L'.' : L'-');
    wchar_t vt = uni ? (dashed ? L'\x254e' : L'\x2502') : (dashed ? L':' : L'|');
    wchar_t tl = uni ? L'\x250c' : L'+', tr = uni ? L'\x2510' : L'+';
    wchar_t bl = uni ? L'\x2514' : L'+', br = uni ? L'\x2518' : L'+';
    if (n->flags & (GX_FACT | GX_CUR)) {
        hz = uni ? L'\x2501' : L'=';
        vt = uni ? L'\x2503' : L'#';
        tl = uni ? L'\x250f' : L'#';
        tr = uni ? L'\x2513' : L'#';
        bl = uni ? L'\x2517' : L'#';
        br = uni ? L'\x251b' : L'#';
    }
    for (int i = 1; i < n->w - 1; i++) {
        cv_put(c, n->x + i, n->y, hz, st);
        cv_put(c, n->x + i, n->y + n->h - 1, hz, st);
    }
    for (int j = 1; j < n->h - 1; j++) {
        cv_put(c, n->x, n->y + j, vt, st);
        cv_put(c, n->x + n->w - 1, n->y + j, vt, st);
        for (int i = 1; i < n->w - 1; i++)
            cv_put(c, n->x + i, n->y + j, L' ', ST_NORMAL);
    }
    cv_put(c, n->x, n->y, tl, st);
    cv_put(c, n->x + n->w - 1, n->y, tr, st);
    cv_put(c, n->x, n->y + n->h - 1, bl, st);
    cv_put(c, n->x + n->w - 1, n->y + n->h - 1, br, st);
    ui_style ts = sel ? ST_SELECTED : (n->flags & GX_CUR) ? ST_NEXT : (n->flags & GX_FUTURE) ? ST_DIM : ST_NORMAL;
    cv_text(c, n->x + 1, n->y + n->h / 2, n->w - 2, n->label[g->zoom], ts);
}

void gx_draw(const gx_graph *g, ui_screen *s, ui_rect r, int panx, int pany, int sel)
{
    if (!g->laid || r.w <= 0 || r.h <= 0)
        return;
    canvas c = { s, r, panx, pany, wmx_calloc((size_t)r.w * (size_t)r.h, sizeof(unsigned)) };
    bool uni = s->unicode;
    /* clusters: the thread's name above its events (frames would mix with
     * the edges in a character grid) */
    for (int k = 0; k < g->nclusters && g->cbox; k++) {
        const int *b = &g->cbox[4 * k];
        int tl = (int)strlen(g->clusters[k]);
        if (b[2] <= 0)
            continue;       /* not laid out (no events): no box to name */
        int x = b[0] + (b[2] - tl) / 2;
        /* a name wider than its box starts at the box, not left of the
         * graph where its head would be cut off */
        cv_text(&c, x < b[0] ? b[0] : x, b[1], tl, g->clusters[k], ST_HEADER);
    }
    /* plain edges first, highlighted ones over them */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < g->ne; i++)
            if (((g->e[i].flags & (GX_FACT | GX_RACE)) != 0) == (pass == 1))
                draw_edge(&c, g, &g->e[i]);
    /* labels beside their paths, on free cells when there are some */
    for (int i = 0; i < g->ne; i++) {
        const gx_edge *e = &g->e[i];
        if (!e->label || e->lx < 0)
            continue;
        int len = (int)strlen(e->label), mid = e->npts / 2, lx = e->lx - len / 2, ly = e->ly;
        for (int d = 0; d < e->npts; d++) {
            int k = mid + (d % 2 ? -(d + 1) / 2 : d / 2);
            if (k < 0 || k >= e->npts)
                continue;
            int x = e->pts[2 * k] + 1, y = e->pts[2 * k + 1];
            bool free_cells = true;
            for (int j = 0; j < len && free_cells; j++) {
                ui_cell *cell = cv_cell(&c, x + j, y, NULL);
                free_cells = cell && cell->ch == L' ';
                for (int q = 0; q < g->nn && free_cells; q++)
                    free_cells = !inside(&g->n[q], x + j, y);
            }
            if (free_cells) {
                lx = x;
                ly = y;
                break;
            }
        }
        cv_text(&c, lx, ly, len, e->label, edge_style(e));
    }
    /* arrow heads over the labels */
    for (int i = 0; i < g->ne; i++) {
        const gx_edge *e = &g->e[i];
        if (e->npts <= 0)
            continue;
        int x = e->pts[2 * (e->npts - 1)], y = e->pts[2 * (e->npts - 1) + 1];
        unsigned in = dir_into(&g->n[e->to], x, y);
        wchar_t h = in == DD ? (uni ? L'\x25bc' : L'v') : in == DU ? (uni ? L'\x25b2' : L'^')
                  : in == DR ? (uni ? L'\x25b6' : L'>') : (uni ? L'\x25c0' : L'<');
        cv_put(&c, x, y, h, edge_style(e));
    }
    for (int i = 0; i < g->nn; i++)
        draw_node(&c, g, &g->n[i], i == sel);
    free(c.dirs);
}

/* ---- export ---- */

const char *gx_format_of(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot)
        return NULL;
    static const char *const f[] = { "dot", "gv", "svg", "png", "pdf", NULL };
    for (int i = 0; f[i]; i++)
        if (strcmp(dot + 1, f[i]) == 0)
            return i == 1 ? "dot" : f[i];
    return NULL;
}

int gx_export(const gx_graph *g, const char *path, const char *format, char *err, size_t n)
{
    if (!format)
        format = gx_format_of(path);
    if (!format || (strcmp(format, "dot") && strcmp(format, "svg") && strcmp(format, "png") && strcmp(format, "pdf"))) {
        snprintf(err, n, "export: give a file ending in .svg, .png, .pdf or .dot (got '%s')", path);
        return -1;
    }
    gx_clear_error();
    if (strcmp(format, "dot") == 0) {
        char *text = gx_dot(g);
        if (!text) {
            snprintf(err, n, "export: cannot write the graph as DOT%s%s", last_err[0] ? ": " : "", last_err);
            return -1;
        }
        wmx_error we = { 0 };
        int rc = wmx_write_file_atomic(path, text, strlen(text), &we);
        free(text);
        if (rc < 0)
            wmx_error_format(&we, err, n);
        return rc;
    }
    GVC_t *ctx = gvc();
    Agnode_t **nodes = wmx_malloc((size_t)(g->nn + 1) * sizeof *nodes);
    Agedge_t **edges = wmx_malloc((size_t)(g->ne + 1) * sizeof *edges);
    Agraph_t *G = ctx ? to_cgraph(g, 0, false, nodes, edges) : NULL;
    free(nodes);
    free(edges);
    if (!G) {
        snprintf(err, n, "export: graphviz could not build the graph%s%s", last_err[0] ? ": " : "", last_err);
        return -1;
    }
    int rc = -1;
    char *tmp = wmx_asprintf("%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, n, "%s: cannot create a temporary file next to it: %s", path, strerror(errno));
    } else {
        wmx_temp_add(tmp);
        mode_t mask = umask(0);
        umask(mask);
        if (fchmod(fd, 0666 & ~mask) != 0) {
            /* keep mkstemp's 0600 */
        }
        close(fd);
        errcap cap;
        cap_begin(&cap);
        int lrc = gvLayout(ctx, G, "dot");
        int rrc = lrc == 0 ? gvRenderFilename(ctx, G, format, tmp) : -1;
        cap_end(&cap);
        if (lrc != 0) {
            snprintf(err, n, "export: the graphviz `dot` layout is not available (%s)",
                     last_err[0] ? last_err : "no message");
        } else {
            if (rrc != 0)
                snprintf(err, n, "export: graphviz cannot render %s (%s)", format,
                         last_err[0] ? last_err : "no renderer for it?");
            else if (rename(tmp, path) != 0)
                snprintf(err, n, "%s: %s", path, strerror(errno));
            else
                rc = 0;
            gvFreeLayout(ctx, G);
        }
        if (rc < 0)
            wmx_temp_unlink(tmp);
        else
            wmx_temp_drop(tmp);
    }
    free(tmp);
    agclose(G);
    return rc;
}
