/* test_ui_graph.c - Graphviz graphs (ui/graph.c) on generated executions:
 * every node lands inside the pane, no two node boxes overlap, every edge
 * starts next to its tail's box and ends next to its head's box, drawing
 * stays inside its rectangle; exports: SVG is well-formed XML with one node
 * per event, PNG starts with the PNG signature, DOT reads back through
 * libcgraph.  Coordinates are never pinned (text metrics differ between
 * Graphviz plugin sets). */
#include <check.h>
#include <gvc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec.h"
#include "graph.h"
#include "odpor.h"
#include "verify.h"
#include "irbuild.h"

static unsigned long rng_state = 88172645463325252UL;

static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

static wmx_program *gen_program(int nt, int len)
{
    wmx_program *p = ir_program_new("gen", "gen.wmx", "wmx");
    const char *vn[] = { "x", "y", "z" };
    int nv = 2 + (int)rnd(2);
    for (int v = 0; v < nv; v++)
        ir_add_var(p, vn[v], 1);
    wmx_val val = 1;
    for (int t = 0; t < nt; t++) {
        char nm[16];
        snprintf(nm, sizeof nm, "P%d", t);
        ir_add_thread(p, nm);
        for (int i = 0; i < len; i++) {
            char reg[16];
            snprintf(reg, sizeof reg, "r%d", i);
            unsigned k = rnd(10);
            if (k < 5) store(p, t, (int)rnd((unsigned)nv), val++);
            else if (k < 9) load(p, t, reg, (int)rnd((unsigned)nv));
            else fence(p, t);
        }
    }
    return p;
}

/* A random run of p to the end under model; the execution it makes. */
static wmx_exec *random_exec(const wmx_program *p, wmx_model model)
{
    wmx_error err = { 0 };
    wmx_machine *m = machine_new(p, model, &err);
    ck_assert_ptr_nonnull(m);
    void *st = malloc(machine_state_size(m));
    machine_init(m, st);
    wmx_transition *en = malloc((size_t)machine_max_enabled(m) * sizeof *en);
    int cap = 64, len = 0;
    wmx_event *ev = malloc((size_t)cap * sizeof *ev);
    for (;;) {
        int n = machine_enabled(m, st, en);
        if (n == 0)
            break;
        if (len == cap)
            ev = realloc(ev, (size_t)(cap *= 2) * sizeof *ev);
        machine_apply(m, st, &en[rnd((unsigned)n)], &ev[len++]);
    }
    wmx_exec *x = exec_from_events(p, model, ev, len, &err);
    ck_assert_msg(x != NULL, "exec_from_events: %s", err.msg);
    free(ev);
    free(en);
    free(st);
    machine_free(m);
    return x;
}

static bool inside(const gx_node *n, int x, int y)
{
    return x >= n->x && x < n->x + n->w && y >= n->y && y < n->y + n->h;
}

static bool touches(const gx_node *n, int x, int y)
{
    if (inside(n, x, y))
        return false;
    bool hx = x >= n->x && x < n->x + n->w, vy = y >= n->y && y < n->y + n->h;
    return (hx && (y == n->y - 1 || y == n->y + n->h)) || (vy && (x == n->x - 1 || x == n->x + n->w));
}

/* The geometric properties of a laid-out graph, and drawing it. */
static void check_geometry(const gx_graph *g)
{
    ck_assert(g->laid);
    for (int i = 0; i < g->nn; i++) {
        const gx_node *a = &g->n[i];
        ck_assert_msg(a->x >= 0 && a->y >= 0 && a->x + a->w <= g->W && a->y + a->h <= g->H,
                      "node %s outside the %dx%d extent", a->id, g->W, g->H);
        ck_assert_int_eq(a->w, (int)strlen(a->label[g->zoom]) + 2);
        for (int j = i + 1; j < g->nn; j++) {
            const gx_node *b = &g->n[j];
            bool apart = a->x + a->w <= b->x || b->x + b->w <= a->x || a->y + a->h <= b->y || b->y + b->h <= a->y;
            ck_assert_msg(apart, "nodes %s and %s overlap", a->id, b->id);
        }
    }
    for (int i = 0; i < g->ne; i++) {
        const gx_edge *e = &g->e[i];
        ck_assert_msg(e->npts > 0, "edge %d has no path", i);
        const gx_node *a = &g->n[e->from], *b = &g->n[e->to];
        ck_assert_msg(touches(a, e->pts[0], e->pts[1]), "edge %s->%s does not start at its tail (%d,%d)",
                      a->id, b->id, e->pts[0], e->pts[1]);
        int lx = e->pts[2 * (e->npts - 1)], ly = e->pts[2 * (e->npts - 1) + 1];
        ck_assert_msg(touches(b, lx, ly), "edge %s->%s does not end at its head (%d,%d)", a->id, b->id, lx, ly);
        /* 4-connected */
        for (int k = 1; k < e->npts; k++) {
            int dx = abs(e->pts[2 * k] - e->pts[2 * k - 2]), dy = abs(e->pts[2 * k + 1] - e->pts[2 * k - 1]);
            ck_assert_msg(dx + dy == 1, "edge %s->%s jumps", a->id, b->id);
        }
    }
    /* small execution graphs: no two edges share a cell, except where
     * both run straight through it at right angles (a crossing) */
    if (g->nn <= GX_ROUTE_MAX_NODES && g->view != GX_WUT && g->view != GX_TREE) {
        int cells = g->W * g->H;
        unsigned char *axis = calloc((size_t)cells, 1);   /* 1 across, 2 down, 4 end or turn */
        int *owner = malloc((size_t)cells * sizeof *owner);
        for (int c = 0; c < cells; c++)
            owner[c] = -1;
        for (int i = 0; i < g->ne; i++) {
            const gx_edge *e = &g->e[i];
            for (int k = 0; k < e->npts; k++) {
                int x = e->pts[2 * k], y = e->pts[2 * k + 1];
                if (x < 0 || y < 0 || x >= g->W || y >= g->H)
                    continue;
                unsigned char a = 4;
                if (k > 0 && k + 1 < e->npts) {
                    bool vin = e->pts[2 * k - 2] == x, vout = e->pts[2 * k + 2] == x;
                    a = vin != vout ? 4 : vin ? 2 : 1;
                }
                int c = y * g->W + x;
                if (owner[c] >= 0 && owner[c] != i)
                    ck_assert_msg((axis[c] | a) == 3, "edges %s->%s and %s->%s share cell %d,%d",
                                  g->n[g->e[owner[c]].from].id, g->n[g->e[owner[c]].to].id,
                                  g->n[e->from].id, g->n[e->to].id, x, y);
                owner[c] = i;
                axis[c] |= a;
            }
        }
        free(axis);
        free(owner);
    }
    /* drawn in a pane its size (plus a margin of marked cells) every node
     * box shows whole; nothing lands outside the pane */
    ui_screen s = { 0 };
    scr_resize(&s, g->W + 4, g->H + 4);
    s.unicode = true;
    scr_fill(&s, 0, 0, s.w, s.h, L'@', ST_NORMAL);
    ui_rect r = { 2, 2, g->W, g->H };
    scr_fill(&s, r.x, r.y, r.w, r.h, L' ', ST_NORMAL);
    gx_draw(g, &s, r, 0, 0, 0);
    for (int y = 0; y < s.h; y++)
        for (int x = 0; x < s.w; x++) {
            bool in = x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
            if (!in)
                ck_assert_msg(s.cells[y * s.w + x].ch == L'@', "drawn outside the pane at %d,%d", x, y);
        }
    for (int i = 0; i < g->nn; i++) {
        const gx_node *a = &g->n[i];
        wchar_t tl = s.cells[(r.y + a->y) * s.w + r.x + a->x].ch;
        ck_assert_msg(tl == L'\x250c' || tl == L'\x250f', "node %s: no top-left corner", a->id);
        /* the label is inside */
        const char *lab = a->label[g->zoom];
        for (int k = 0; lab[k]; k++)
            ck_assert(s.cells[(r.y + a->y + 1) * s.w + r.x + a->x + 1 + k].ch == (wchar_t)lab[k]);
    }
    /* a small pane panned into the middle: still nothing outside */
    scr_fill(&s, 0, 0, s.w, s.h, L'@', ST_NORMAL);
    ui_rect small = { 3, 3, g->W / 2 + 1, g->H / 2 + 1 };
    gx_draw(g, &s, small, g->W / 3, g->H / 3, -1);
    for (int y = 0; y < s.h; y++)
        for (int x = 0; x < s.w; x++) {
            bool in = x >= small.x && x < small.x + small.w && y >= small.y && y < small.y + small.h;
            if (!in)
                ck_assert(s.cells[y * s.w + x].ch == L'@');
        }
    scr_free(&s);
}

START_TEST(generated_layouts)
{
    char err[700];
    for (int k = 0; k < 26; k++) {
        /* the last two are big enough for straight-line routing */
        wmx_program *p = k < 24 ? gen_program(2 + (int)rnd(3), 2 + (int)rnd(4)) : gen_program(4, 20);
        wmx_model model = (wmx_model)rnd(3);
        wmx_exec *x = random_exec(p, model);
        verify_result vr;
        verify_check(x, MODEL_SC, VERIFY_EXPLAIN, &vr);
        for (int v = 0; v < 2; v++) {
            gx_graph *g = gx_from_exec(x, v ? GX_EXEC : GX_HB, model, k % 2 == 0, &vr);
            int events = 0;
            for (int i = 0; i < g->nn; i++)
                events += g->n[i].id[0] == 'e';
            ck_assert_int_eq(events, x->nev);
            for (int z = 0; z < GX_ZOOMS; z++) {
                int rc = gx_layout(g, z, err, sizeof err);
                ck_assert_msg(rc == 0, "layout: %s", err);
                check_geometry(g);
            }
            gx_free(g);
        }
        verify_result_free(&vr);
        exec_free(x);
        ir_program_free(p);
    }
}
END_TEST

/* SB under TSO with both loads reading 0: SC forbids it; the facts of the
 * explanation are highlighted, and they include the two fr edges. */
START_TEST(sb_cycle_highlighted)
{
    wmx_program *p = ir_program_new("SB", "sb.wmx", "wmx");
    int vx = ir_add_var(p, "x", 1), vy = ir_add_var(p, "y", 1);
    ir_add_thread(p, "P0");
    ir_add_thread(p, "P1");
    store(p, 0, vx, 1);
    load(p, 0, "r0", vy);
    store(p, 1, vy, 1);
    load(p, 1, "r0", vx);
    wmx_error err = { 0 };
    wmx_machine *m = machine_new(p, MODEL_TSO, &err);
    void *st = malloc(machine_state_size(m));
    machine_init(m, st);
    wmx_event ev[4];
    wmx_transition tr[4] = { { TR_STEP, 0, -1 }, { TR_STEP, 1, -1 }, { TR_STEP, 0, -1 }, { TR_STEP, 1, -1 } };
    for (int i = 0; i < 4; i++)
        machine_apply(m, st, &tr[i], &ev[i]);
    wmx_exec *x = exec_from_events(p, MODEL_TSO, ev, 4, &err);
    ck_assert_ptr_nonnull(x);
    verify_result vr;
    verify_check(x, MODEL_SC, VERIFY_EXPLAIN, &vr);
    ck_assert(!vr.consistent);
    gx_graph *g = gx_from_exec(x, GX_HB, MODEL_TSO, true, &vr);
    int fr = 0, rf = 0, fact_fr = 0;
    for (int i = 0; i < g->ne; i++) {
        fr += g->e[i].kind == GE_FR;
        rf += g->e[i].kind == GE_RF;
        fact_fr += g->e[i].kind == GE_FR && (g->e[i].flags & GX_FACT);
    }
    ck_assert_int_eq(fr, 2);
    ck_assert_int_eq(rf, 2);
    ck_assert_int_eq(fact_fr, 2);
    gx_mark_steps(g, ev, 4, 3);
    int cur = -1, fut = 0;
    for (int i = 0; i < g->nn; i++) {
        if (g->n[i].flags & GX_CUR)
            cur = i;
        fut += (g->n[i].flags & GX_FUTURE) != 0;
    }
    ck_assert_int_ge(cur, 0);
    ck_assert_int_eq(g->n[cur].step, 3);
    ck_assert_int_eq(fut, 1);
    char msg[700];
    ck_assert_int_eq(gx_layout(g, 0, msg, sizeof msg), 0);
    check_geometry(g);
    gx_free(g);
    verify_result_free(&vr);
    exec_free(x);
    free(st);
    machine_free(m);
    ir_program_free(p);
}
END_TEST

/* ---- exports ---- */

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    ck_assert_int_eq(fread(b, 1, (size_t)n, f), (size_t)n);
    b[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* A small XML well-formedness check: tags nest and match, attributes are
 * quoted, comments/PIs/DOCTYPE are closed.  Returns NULL or the problem. */
static const char *xml_check(const char *s)
{
    static char msg[200];
    char *stack[256];
    int depth = 0, roots = 0;
    const char *p = s;
    while (*p) {
        if (*p != '<') {
            if (*p == '&') {
                const char *semi = strchr(p, ';');
                if (!semi || semi - p > 10)
                    return "bad entity";
            } else if (depth == 0 && *p != ' ' && *p != '\n' && *p != '\r' && *p != '\t') {
                return "text outside the root element";
            }
            p++;
            continue;
        }
        if (strncmp(p, "<!--", 4) == 0) {
            const char *e = strstr(p + 4, "-->");
            if (!e)
                return "unclosed comment";
            p = e + 3;
        } else if (strncmp(p, "<?", 2) == 0) {
            const char *e = strstr(p + 2, "?>");
            if (!e)
                return "unclosed processing instruction";
            p = e + 2;
        } else if (strncmp(p, "<!DOCTYPE", 9) == 0) {
            int nest = 0;
            for (p += 9; *p && (*p != '>' || nest); p++)
                nest += *p == '[' ? 1 : *p == ']' ? -1 : 0;
            if (!*p)
                return "unclosed DOCTYPE";
            p++;
        } else if (p[1] == '/') {
            const char *n = p + 2, *e = n;
            while (*e && *e != '>' && *e != ' ')
                e++;
            if (depth == 0 || strlen(stack[depth - 1]) != (size_t)(e - n) || strncmp(stack[depth - 1], n, (size_t)(e - n))) {
                snprintf(msg, sizeof msg, "mismatched </%.*s>", (int)(e - n), n);
                for (int i = 0; i < depth; i++)
                    free(stack[i]);
                return msg;
            }
            free(stack[--depth]);
            p = strchr(e, '>');
            if (!p)
                return "unclosed end tag";
            p++;
        } else {
            const char *n = p + 1, *e = n;
            while (*e && *e != '>' && *e != '/' && *e != ' ' && *e != '\n' && *e != '\t')
                e++;
            if (e == n)
                return "empty tag name";
            /* attributes */
            const char *q = e;
            bool self = false;
            for (;;) {
                while (*q == ' ' || *q == '\n' || *q == '\t' || *q == '\r')
                    q++;
                if (*q == '>')
                    break;
                if (q[0] == '/' && q[1] == '>') {
                    self = true;
                    q++;
                    break;
                }
                if (!*q)
                    return "unclosed start tag";
                while (*q && *q != '=' && *q != '>' && *q != ' ')
                    q++;
                if (*q != '=')
                    return "attribute without a value";
                q++;
                if (*q != '"' && *q != '\'')
                    return "unquoted attribute";
                char quote = *q++;
                const char *end = strchr(q, quote);
                if (!end)
                    return "unclosed attribute";
                if (memchr(q, '<', (size_t)(end - q)))
                    return "'<' in an attribute";
                q = end + 1;
            }
            if (!self) {
                if (depth == 256)
                    return "too deep";
                if (depth == 0)
                    roots++;
                stack[depth++] = strndup(n, (size_t)(e - n));
            } else if (depth == 0) {
                roots++;
            }
            p = q + 1;
        }
    }
    bool open = depth != 0;
    for (int i = 0; i < depth; i++)
        free(stack[i]);
    if (open)
        return "unclosed elements at the end";
    return roots == 1 ? NULL : "not exactly one root element";
}

static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

START_TEST(exports)
{
    char dir[] = "/tmp/wmx-graph-test-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256], err[700];
    for (int k = 0; k < 4; k++) {
        wmx_program *p = gen_program(2 + k % 2, 3);
        wmx_exec *x = random_exec(p, MODEL_TSO);
        gx_graph *g = gx_from_exec(x, GX_HB, MODEL_TSO, true, NULL);
        size_t len;

        snprintf(path, sizeof path, "%s/g.svg", dir);
        ck_assert_msg(gx_export(g, path, NULL, err, sizeof err) == 0, "svg: %s", err);
        char *svg = slurp(path, &len);
        const char *why = xml_check(svg);
        ck_assert_msg(why == NULL, "SVG is not well-formed: %s", why);
        ck_assert_int_eq(count(svg, "class=\"node\""), g->nn);
        int events = 0;
        for (int e = 0; e < x->nev; e++) {
            char t[64];
            snprintf(t, sizeof t, "<title>e%d</title>", e);
            ck_assert_msg(count(svg, t) == 1, "event %d is not one node of the SVG", e);
            events++;
        }
        ck_assert_int_eq(events, x->nev);
        free(svg);

        snprintf(path, sizeof path, "%s/g.png", dir);
        ck_assert_msg(gx_export(g, path, NULL, err, sizeof err) == 0, "png: %s", err);
        char *png = slurp(path, &len);
        ck_assert(len > 8 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0);
        free(png);

        snprintf(path, sizeof path, "%s/g.pdf", dir);
        ck_assert_msg(gx_export(g, path, NULL, err, sizeof err) == 0, "pdf: %s", err);
        char *pdf = slurp(path, &len);
        ck_assert(len > 5 && memcmp(pdf, "%PDF-", 5) == 0);
        free(pdf);

        snprintf(path, sizeof path, "%s/g.dot", dir);
        ck_assert_msg(gx_export(g, path, NULL, err, sizeof err) == 0, "dot: %s", err);
        char *dot = slurp(path, &len);
        Agraph_t *G = agmemread(dot);
        ck_assert_msg(G != NULL, "DOT does not read back: %s", gx_last_error());
        ck_assert_int_eq(agnnodes(G), g->nn);
        ck_assert_int_eq(agnedges(G), g->ne);
        for (int e = 0; e < x->nev; e++) {
            char id[32];
            snprintf(id, sizeof id, "e%d", e);
            ck_assert_ptr_nonnull(agnode(G, id, 0));
        }
        agclose(G);
        free(dot);

        /* no temporary files left behind */
        snprintf(path, sizeof path, "ls %s | grep -c tmp > /dev/null", dir);
        ck_assert_int_ne(system(path), 0);
        ck_assert_int_ne(gx_export(g, "/tmp/x.jpeg", NULL, err, sizeof err), 0);
        ck_assert_ptr_nonnull(strstr(err, ".svg"));
        gx_free(g);
        exec_free(x);
        ir_program_free(p);
    }
    snprintf(path, sizeof path, "rm -rf %s", dir);
    ck_assert_int_eq(system(path), 0);
}
END_TEST

/* Graphviz's complaints are captured, not printed. */
START_TEST(errors_captured)
{
    gx_graph *g = gx_new(GX_HB, "t");
    gx_add_node(g, "a", "a", NULL, NULL, -1, 0);
    char *t = gx_dot(g);        /* installs the capture */
    free(t);
    gx_free(g);
    gx_clear_error();
    Agraph_t *G = agmemread("digraph { a -> ; }");
    ck_assert_ptr_null(G);
    ck_assert_msg(gx_last_error()[0] != '\0', "no message captured");
}
END_TEST

/* ---- wakeup trees ---- */

typedef struct wut_ud {
    const wmx_program *p;
    int seen;
} wut_ud;

static void on_exec(const odpor_state *s, void *u)
{
    wut_ud *w = u;
    if (++w->seen > 5)
        return;
    gx_graph *g = gx_from_odpor(s, w->p, w->seen);
    ck_assert_int_ge(g->nn, odpor_depth(s) + 1);
    char err[700];
    ck_assert_msg(gx_layout(g, 0, err, sizeof err) == 0, "layout: %s", err);
    check_geometry(g);
    gx_free(g);
}

START_TEST(wakeup_trees)
{
    for (int k = 0; k < 4; k++) {
        wmx_program *p = gen_program(2 + k % 2, 2 + k % 2);
        explore_opts o;
        explore_opts_init(&o);
        o.model = MODEL_SC;
        o.algo = ALGO_ODPOR;
        wut_ud ud = { p, 0 };
        odpor_ext ext;
        memset(&ext, 0, sizeof ext);
        ext.ud = &ud;
        ext.on_execution = on_exec;
        explore_result res;
        wmx_error err = { 0 };
        ck_assert_int_eq(explore_odpor_ex(p, &o, &ext, &res, &err), 0);
        ck_assert_int_gt(ud.seen, 0);
        explore_result_free(&res);
        ir_program_free(p);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ui_graph");
    TCase *tc = tcase_create("graph");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, generated_layouts);
    tcase_add_test(tc, sb_cycle_highlighted);
    tcase_add_test(tc, exports);
    tcase_add_test(tc, errors_captured);
    tcase_add_test(tc, wakeup_trees);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
