/* pane_graph.c - the graph pane: the execution graph of the current timeline
 * (`graph hb`, `graph exec`), the Optimal-DPOR wakeup trees (`graph wut`)
 * or the tree of the explored traces (`graph tree`), laid out by Graphviz
 * (graph.c) and drawn into the pane.
 *
 * The layout is cached: the execution graph is rebuilt only when the
 * timeline (program, model, steps) changes, and laid out again only then or
 * when the label level (zoom) changes; moving along the timeline (undo,
 * redo, goto) only moves the highlight.  Keys (pane mode only: at the
 * prompt - and + are undo and redo): arrows/hjkl pan, +/- zoom, 0 fit,
 * n/N next/previous node, Enter shows the node's event and moves the
 * stepping panes to its step, g back to the top-left corner. */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define UI(ctx) ((ui_state *)(ctx)->ui)

struct ui_graph_pane {
    gx_view view;
    bool check;                 /* hb/exec: check the execution against check_model */
    wmx_model check_model;
    gx_graph *g;
    verify_result vr;
    bool have_vr;
    /* what g was built from (hb/exec) */
    const wmx_program *prog;
    wmx_model model;
    int len;
    uint64_t hash;
    bool built;
    int zoom;                   /* -1: pick the most detailed level that fits */
    int panx, pany, sel;
    bool center_sel;
    char err[600];
    char note[300];
    bool fixed;                 /* p->g was handed in (ui_graph_show): never rebuilt */
};

static ui_graph_pane *gp(ui_state *ui)
{
    if (!ui->graph) {
        ui->graph = wmx_calloc(1, sizeof *ui->graph);
        ui->graph->view = GX_HB;
        ui->graph->check = true;
        ui->graph->check_model = MODEL_SC;
        ui->graph->zoom = -1;
        ui->graph->sel = -1;
    }
    return ui->graph;
}

static void drop_graph(ui_graph_pane *p)
{
    gx_free(p->g);
    p->g = NULL;
    if (p->have_vr)
        verify_result_free(&p->vr);
    p->have_vr = false;
    p->built = false;
    p->fixed = false;
    p->err[0] = p->note[0] = '\0';
    p->sel = -1;
    p->panx = p->pany = 0;
}

void ui_graph_free(ui_state *ui)
{
    if (!ui->graph)
        return;
    drop_graph(ui->graph);
    free(ui->graph);
    ui->graph = NULL;
}

static uint64_t steps_hash(const ui_session *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < s->len; i++) {
        const wmx_transition *t = &s->steps[i];
        uint64_t v = (uint64_t)t->kind * 31u + (uint64_t)(t->thread + 1) * 1009u + (uint64_t)(t->cell + 2);
        h = (h ^ v) * 1099511628211ULL;
    }
    return h;
}

/* Builds the execution graph of the session's timeline; NULL + p->err. */
static gx_graph *exec_graph(ui_state *ui, ui_graph_pane *p)
{
    const ui_session *s = &ui->sess;
    wmx_error err = { 0 };
    wmx_exec *x = exec_from_events(s->prog, s->model, s->events, s->len, &err);
    if (!x) {
        char buf[512];
        snprintf(p->err, sizeof p->err, "cannot build the execution: %s", wmx_error_format(&err, buf, sizeof buf));
        return NULL;
    }
    if (p->have_vr)
        verify_result_free(&p->vr);
    p->have_vr = false;
    p->note[0] = '\0';
    if (p->check) {
        verify_check(x, p->check_model, VERIFY_EXPLAIN, &p->vr);
        p->have_vr = true;
        if (p->vr.consistent)
            snprintf(p->note, sizeof p->note, "consistent under %s", model_name(p->check_model));
        else
            snprintf(p->note, sizeof p->note, "INCONSISTENT under %s: the %d highlighted edge%s form%s the cycle",
                     model_name(p->check_model), p->vr.nfacts, p->vr.nfacts == 1 ? "" : "s",
                     p->vr.nfacts == 1 ? "s" : "");
    }
    gx_graph *g = gx_from_exec(x, p->view, s->model, true, p->have_vr ? &p->vr : NULL);
    exec_free(x);
    return g;
}

/* Makes p->g current and laid out for a pane of w x h cells. */
static void refresh(ui_state *ui, ui_graph_pane *p, int w, int h, bool lay)
{
    const ui_session *s = &ui->sess;
    if (!p->fixed && (p->view == GX_HB || p->view == GX_EXEC)) {
        if (!s->prog) {
            drop_graph(p);
            snprintf(p->err, sizeof p->err, "no program loaded (use `load FILE`)");
            return;
        }
        uint64_t h0 = steps_hash(s);
        if (!p->built || p->prog != s->prog || p->model != s->model || p->len != s->len || p->hash != h0) {
            drop_graph(p);
            p->built = true;
            p->prog = s->prog;
            p->model = s->model;
            p->len = s->len;
            p->hash = h0;
            p->g = exec_graph(ui, p);
        }
    }
    if (!p->g)
        return;
    if (!p->fixed && (p->view == GX_HB || p->view == GX_EXEC))
        gx_mark_steps(p->g, s->events, s->len, s->pos);
    if (!lay)
        return;
    if (p->zoom >= 0) {
        if (!p->g->laid || p->g->zoom != p->zoom) {
            if (gx_layout(p->g, p->zoom, p->err, sizeof p->err) < 0)
                ui_message(ui, true, "%s", p->err);
        }
        return;
    }
    if (p->g->laid)
        return;
    for (int z = 0; z < GX_ZOOMS; z++) {
        if (gx_layout(p->g, z, p->err, sizeof p->err) < 0) {
            ui_message(ui, true, "%s", p->err);
            return;
        }
        if (p->g->W <= w && p->g->H <= h)
            break;
        if (p->g->nn > 60 && z == 0)
            z = GX_ZOOMS - 2;        /* big graphs: one more layout, the compact one */
    }
}

static void graph_draw(ui_state *ui, ui_pane *pane, ui_screen *s, ui_rect r)
{
    ui_graph_pane *p = gp(ui);
    if (r.h < 2 || r.w < 4)
        return;
    p->err[0] = '\0';
    refresh(ui, p, r.w, r.h - 1, true);
    if (!p->g || !p->g->laid) {
        scr_put(s, r.x, r.y, r.w, ST_ERROR, p->err[0] ? p->err : "no graph: `graph hb|exec|wut|tree`");
        return;
    }
    gx_graph *g = p->g;
    char head[600];
    /* zoom N/3: 3 is the most detailed labels, as "zoom in" suggests */
    /* where the zoom keys work: at the prompt - and + undo and redo */
    snprintf(head, sizeof head, "%s  [%s, zoom %d/%d%s, %d nodes]", g->title, gx_view_name(p->view),
             GX_ZOOMS - g->zoom, GX_ZOOMS, ui->pane_mode ? " (+/-)" : " (Esc +/-)", g->nn);
    /* the verdict follows on the same line, or on a line of its own when
     * both do not fit */
    const char *note = p->note[0] ? p->note : g->note ? g->note : "";
    int hl = 1;
    if (note[0] && (int)(strlen(head) + 2 + strlen(note)) > r.w && r.h > 4)
        hl = 2;
    else if (note[0])
        snprintf(head + strlen(head), sizeof head - strlen(head), "  %s", note);
    const char *vline = hl == 2 ? note : head;
    scr_put(s, r.x, r.y, r.w, ST_HEADER, head);
    if (hl == 2)
        scr_put(s, r.x, r.y + 1, r.w, ST_HEADER, note);
    const char *at = p->note[0] ? strstr(vline, "INCONSISTENT") : NULL;
    if (at) {
        int len = (int)strlen(at), room = r.w - (int)(at - vline);
        scr_set_style(s, r.x + (int)(at - vline), r.y + hl - 1, len < room ? len : room, ST_ERROR);
    }
    ui_rect gr = { r.x, r.y + hl, r.w, r.h - hl };
    if (p->center_sel && p->sel >= 0 && p->sel < g->nn) {
        const gx_node *v = &g->n[p->sel];
        if (v->x < p->panx || v->x + v->w > p->panx + gr.w)
            p->panx = v->x + v->w / 2 - gr.w / 2;
        if (v->y < p->pany || v->y + v->h > p->pany + gr.h)
            p->pany = v->y + v->h / 2 - gr.h / 2;
        p->center_sel = false;
    }
    int mx = g->W - gr.w, my = g->H - gr.h;
    if (p->panx > mx) p->panx = mx;
    if (p->pany > my) p->pany = my;
    if (p->panx < 0) p->panx = 0;
    if (p->pany < 0) p->pany = 0;
    gx_draw(g, s, gr, p->panx, p->pany, p->sel);
}

/* Nodes in reading order (top to bottom, left to right). */
static int next_node(const gx_graph *g, int sel, int dir)
{
    int best = -1;
    long cur = sel >= 0 ? (long)g->n[sel].y * 100000 + g->n[sel].x : (dir > 0 ? -1 : 1L << 40);
    for (int i = 0; i < g->nn; i++) {
        long k = (long)g->n[i].y * 100000 + g->n[i].x;
        if (dir > 0 ? k > cur : k < cur) {
            long bk = best >= 0 ? (long)g->n[best].y * 100000 + g->n[best].x : 0;
            if (best < 0 || (dir > 0 ? k < bk : k > bk))
                best = i;
        }
    }
    return best >= 0 ? best : sel;
}

static bool graph_key(ui_state *ui, ui_pane *pane, int key)
{
    ui_graph_pane *p = gp(ui);
    gx_graph *g = p->g;
    int hstep = pane->r.w > 8 ? pane->r.w / 4 : 2, vstep = pane->r.h > 4 ? pane->r.h / 4 : 1;
    switch (key) {
    case 'h': case UI_KEY_LEFT: p->panx -= hstep; return true;
    case 'l': case UI_KEY_RIGHT: p->panx += hstep; return true;
    case 'k': case UI_KEY_UP: p->pany -= vstep; return true;
    case 'j': case UI_KEY_DOWN: p->pany += vstep; return true;
    case UI_KEY_PGUP: p->pany -= pane->r.h - 2; return true;
    case UI_KEY_PGDN: case ' ': p->pany += pane->r.h - 2; return true;
    case 'g': case UI_KEY_HOME: p->panx = p->pany = 0; return true;
    case '+': case '=': case '-': case '0': {
        int z = g && g->laid ? g->zoom : 0;
        if (key == '0')
            p->zoom = -1;
        else
            p->zoom = key == '-' ? (z + 1 < GX_ZOOMS ? z + 1 : z) : (z > 0 ? z - 1 : 0);
        if (g && key == '0')
            g->laid = false;
        p->center_sel = true;
        return true;
    }
    case 'n': case 'N': case '\t':
        if (!g || g->nn == 0)
            return true;
        p->sel = next_node(g, p->sel, key == 'N' ? -1 : 1);
        p->center_sel = true;
        if (p->sel >= 0)
            ui_message(ui, false, "%s", g->n[p->sel].info);
        return true;
    case '\r': case '\n': case UI_KEY_ENTER: {
        if (!g || p->sel < 0 || p->sel >= g->nn)
            return true;
        const gx_node *v = &g->n[p->sel];
        ui_message(ui, false, "%s", v->info);
        if ((p->view == GX_HB || p->view == GX_EXEC) && v->step > 0) {
            char cmd[32];
            snprintf(cmd, sizeof cmd, "goto %d", v->step);
            ui_exec_line(ui, cmd, NULL);
            ui_message(ui, false, "step %d: %s", v->step, v->info);
        }
        return true;
    }
    }
    return false;
}

const ui_pane_ops pane_graph_ops = { "graph", "Graph", graph_draw, NULL, graph_key };

/* ---- commands ---- */

typedef struct wut_pick {
    const ui_session *sess;
    long want;                  /* execution number, 0 = the one of the timeline */
    long nexec;
    gx_graph *g, *first;
    volatile sig_atomic_t stop;
    long matched;
} wut_pick;

static bool same_events(const ui_session *s, const odpor_state *st)
{
    int n = odpor_depth(st);
    const wmx_event *e = odpor_events(st);
    if (s->model != MODEL_SC || n != s->len)
        return false;
    for (int i = 0; i < n; i++)
        if (e[i].id != s->events[i].id || e[i].kind != s->events[i].kind)
            return false;
    return true;
}

static void wut_cb(const odpor_state *st, void *ud)
{
    wut_pick *w = ud;
    w->nexec++;
    if (w->g)
        return;
    if (w->want > 0 ? w->nexec == w->want : same_events(w->sess, st)) {
        w->g = gx_from_odpor(st, w->sess->prog, w->nexec);
        w->matched = w->nexec;
        w->stop = 1;
    } else if (w->nexec == 1 && w->want == 0) {
        w->first = gx_from_odpor(st, w->sess->prog, 1);
    }
}

static int graph_wut(ui_state *ui, ui_graph_pane *p, long want, cmd_ctx *ctx)
{
    const ui_session *s = &ui->sess;
    explore_opts o;
    explore_opts_init(&o);
    o.model = MODEL_SC;
    o.algo = ALGO_ODPOR;
    o.max_traces = 200000;
    wut_pick w = { s, want, 0, NULL, NULL, 0, 0 };
    o.cancel = &w.stop;
    odpor_ext ext;
    memset(&ext, 0, sizeof ext);
    ext.on_execution = wut_cb;
    ext.ud = &w;
    explore_result res;
    wmx_error err = { 0 };
    int rc = explore_odpor_ex(s->prog, &o, &ext, &res, &err);
    explore_result_free(&res);
    if (rc < 0) {
        char buf[512];
        fprintf(ctx->err, "graph wut: %s\n", wmx_error_format(&err, buf, sizeof buf));
        gx_free(w.first);
        return EXIT_USAGE;
    }
    if (!w.g && want > 0) {
        fprintf(ctx->err, "graph wut: Optimal-DPOR explored only %ld executions\n", w.nexec);
        gx_free(w.first);
        return EXIT_USAGE;
    }
    drop_graph(p);
    if (w.g) {
        gx_free(w.first);
        p->g = w.g;
        snprintf(p->note, sizeof p->note, "%s", want > 0 ? "" : "the current execution");
    } else {
        p->g = w.first;
        snprintf(p->note, sizeof p->note, "the current timeline is not an SC execution Optimal-DPOR "
                 "explored; showing execution 1");
    }
    if (!p->g) {
        fprintf(ctx->err, "graph wut: nothing explored\n");
        return EXIT_USAGE;
    }
    fprintf(ctx->out, "graph wut: Optimal-DPOR (SC) execution %ld: the explored path, its sleep sets and the "
            "pending wakeup-tree branches with the race that inserted each\n",
            w.g ? w.matched : 1L);
    return EXIT_OK;
}

int ui_graph_cmd(int argc, char **argv, cmd_ctx *ctx)
{
    ui_state *ui = UI(ctx);
    ui_graph_pane *p = gp(ui);
    gx_view v;
    if (argc < 2 || gx_view_parse(argv[1], &v) < 0) {
        fprintf(ctx->err, "usage: graph hb|exec [--check sc|tso|pso|none] | graph wut [N] | graph tree\n");
        return EXIT_USAGE;
    }
    if (!ui->sess.prog) {
        fprintf(ctx->err, "no program loaded (use `load FILE`)\n");
        return EXIT_USAGE;
    }
    ui_message(ui, false, "%s", "");
    bool check = true;
    wmx_model cm = MODEL_SC;
    long want = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0 && i + 1 < argc && (v == GX_HB || v == GX_EXEC)) {
            i++;
            if (strcmp(argv[i], "none") == 0)
                check = false;
            else if (model_parse(argv[i], &cm) < 0) {
                fprintf(ctx->err, "graph: unknown model '%s'\n", argv[i]);
                return EXIT_USAGE;
            }
        } else if (v == GX_WUT && argv[i][0] >= '1' && argv[i][0] <= '9') {
            want = strtol(argv[i], NULL, 10);
        } else {
            fprintf(ctx->err, "graph %s: unexpected '%s'\n", argv[1], argv[i]);
            return EXIT_USAGE;
        }
    }
    int rc = EXIT_OK;
    if (v == GX_HB || v == GX_EXEC) {
        drop_graph(p);
        p->view = v;
        p->check = check;
        p->check_model = cm;
        refresh(ui, p, 0, 0, false);     /* build now to report; laid out at the first draw */
        if (p->g) {
            fprintf(ctx->out, "graph %s: %d nodes, %d edges%s%s\n", argv[1], p->g->nn, p->g->ne,
                    p->note[0] ? "; " : "", p->note);
            if (p->have_vr && !p->vr.consistent && p->vr.text)
                fprintf(ctx->out, "%s%s", p->vr.text, p->vr.text[strlen(p->vr.text) - 1] == '\n' ? "" : "\n");
        } else if (p->err[0]) {
            fprintf(ctx->err, "graph: %s\n", p->err);
            rc = EXIT_USAGE;
        }
    } else if (v == GX_WUT) {
        p->view = v;
        rc = graph_wut(ui, p, want, ctx);
    } else {
        const ui_exec_list *l = &ui->sess.execs;
        if (!l->valid) {
            fprintf(ctx->err, "graph tree: no exploration yet (run `explore`)\n");
            return EXIT_USAGE;
        }
        drop_graph(p);
        p->view = v;
        p->g = gx_from_traces(l, ui->sess.prog, 400);
        fprintf(ctx->out, "graph tree: the %ld explored traces merged by common prefix (%d nodes; "
                "up to %d recorded traces per final state)%s%s\n", l->traces, p->g->nn, UI_TRACES_PER_CLASS,
                p->g->note ? "; " : "", p->g->note ? p->g->note : "");
    }
    if (rc == EXIT_OK) {
        p->zoom = -1;
        ui->focus = PANE_GRAPH;
        ui->bottom = PANE_GRAPH;
        ui->zoom = true;
    }
    return rc;
}

void ui_graph_show(ui_state *ui, gx_graph *g)
{
    ui_graph_pane *p = gp(ui);
    drop_graph(p);
    p->view = g->view;
    p->g = g;
    p->fixed = true;
    p->zoom = -1;
    ui->focus = PANE_GRAPH;
    ui->bottom = PANE_GRAPH;
    ui->zoom = true;
}

int ui_export_cmd(int argc, char **argv, cmd_ctx *ctx)
{
    ui_state *ui = UI(ctx);
    if (argc != 2) {
        fprintf(ctx->err, "usage: export FILE.svg|FILE.png|FILE.pdf|FILE.dot\n");
        return EXIT_USAGE;
    }
    ui_graph_pane *p = gp(ui);
    if (!p->g && p->view != GX_WUT && p->view != GX_TREE && ui->sess.prog)
        refresh(ui, p, 0, 0, false);
    if (!p->g) {
        fprintf(ctx->err, "export: no graph to export (`graph hb` first)\n");
        return EXIT_USAGE;
    }
    char err[700];
    if (gx_export(p->g, argv[1], NULL, err, sizeof err) < 0) {
        fprintf(ctx->err, "%s\n", err);
        ui_message(ui, true, "%s", err);
        return EXIT_USAGE;
    }
    fprintf(ctx->out, "exported the %s graph (%d nodes) to %s\n", gx_view_name(p->view), p->g->nn, argv[1]);
    ui_message(ui, false, "exported to %s", argv[1]);
    return EXIT_OK;
}
