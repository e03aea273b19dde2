/* pane_pgas.c - the explorer on PGAS programs (seed 001, doc/pgas.md).
 *
 * Loading a PGAS program puts the UI in PGAS mode: the top area shows the
 * spmd code with every rank's position, and per rank its status, memory,
 * registers and both queue levels of each queue; the command line takes
 * `step R1`, `popa R1 q0`, `popb R1 q0`, `barrier`, `undo`, `redo`,
 * `restart`; after `robust` the violating computation is the timeline, and
 * `graph hb` draws its happens-before relation (ranks as clusters, po, cf,
 * <-> in different styles, the cycle highlighted) in the graph pane.
 * The timeline keeps one state snapshot per step, as session.c does. */
#include "ui.h"
#include "graph.h"
#include "pgas.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct ui_pgas {
    wmx_program *prog;
    pgas_machine *m;
    size_t ssize;
    int N;
    int len, cap, pos;
    pgas_transition *steps;
    unsigned char *states;          /* (cap + 1) snapshots */
    /* the last `robust` violation, for `graph hb` */
    bool have_viol;
    int nvev;
    pgas_event *vev;
    int ncycle;
    int *cycle;
    char (*roles)[16];
};

static void reserve(ui_pgas *g, int n)
{
    if (n <= g->cap)
        return;
    int cap = g->cap ? g->cap : 16;
    while (cap < n)
        cap *= 2;
    g->steps = wmx_realloc(g->steps, (size_t)cap * sizeof *g->steps);
    g->states = wmx_realloc(g->states, (size_t)(cap + 1) * g->ssize);
    g->cap = cap;
}

static void *state_at(ui_pgas *g, int i) { return g->states + (size_t)i * g->ssize; }

static void drop_viol(ui_pgas *g)
{
    free(g->vev);
    free(g->cycle);
    free(g->roles);
    g->vev = NULL;
    g->cycle = NULL;
    g->roles = NULL;
    g->have_viol = false;
}

void ui_pgas_free(ui_state *ui)
{
    ui_pgas *g = ui->pgas;
    if (!g)
        return;
    drop_viol(g);
    free(g->steps);
    free(g->states);
    pgas_machine_free(g->m);
    ir_program_free(g->prog);
    free(g);
    ui->pgas = NULL;
}

const wmx_program *ui_pgas_program(const ui_state *ui) { return ui->pgas ? ui->pgas->prog : NULL; }

int ui_pgas_load(ui_state *ui, wmx_program *p, FILE *out, FILE *err)
{
    wmx_error e = { 0 };
    pgas_machine *m = pgas_machine_new(p, 0, 0, &e);
    if (!m) {
        char buf[1024];
        fprintf(err, "%s\n", wmx_error_format(&e, buf, sizeof buf));
        ir_program_free(p);
        return EXIT_USAGE;
    }
    ui_pgas_free(ui);
    /* the thread-program session steps aside */
    wmx_model model = ui->sess.model;
    explore_algo algo = ui->sess.algo;
    sess_free(&ui->sess);
    sess_init(&ui->sess);
    ui->sess.model = model;
    ui->sess.algo = algo;
    ui_graph_free(ui);
    ui_pgas *g = wmx_calloc(1, sizeof *g);
    g->prog = p;
    g->m = m;
    g->N = pgas_nranks(m);
    g->ssize = pgas_state_size(m);
    reserve(g, 16);
    pgas_init(m, state_at(g, 0));
    ui->pgas = g;
    fprintf(out, "loaded %s (%s): PGAS, %d ranks, %d queue%s per rank, %d variable%s\n", p->name,
            p->file, g->N, pgas_nqueues(m), pgas_nqueues(m) == 1 ? "" : "s", p->nvars,
            p->nvars == 1 ? "" : "s");
    return EXIT_OK;
}

static void apply(ui_pgas *g, const pgas_transition *t)
{
    if (g->pos < g->len && memcmp(&g->steps[g->pos], t, sizeof *t) == 0) {
        g->pos++;                   /* the redo part continues */
        return;
    }
    reserve(g, g->pos + 1);
    memcpy(state_at(g, g->pos + 1), state_at(g, g->pos), g->ssize);
    pgas_apply(g->m, state_at(g, g->pos + 1), t, NULL);
    g->steps[g->pos] = *t;
    g->len = ++g->pos;
}

/* ---- drawing ---- */

/* The status word of a rank with the line it stopped or waits at. */
static void rank_state(const ui_pgas *g, const void *s, int r, char *buf, size_t n)
{
    int pc = pgas_pc(g->m, s, r);
    const ir_thread *th = &g->prog->threads[0];
    int line = pc >= 0 && pc < th->ninstrs ? th->instrs[pc].loc.line : 0;
    switch (pgas_status(g->m, s, r)) {
    case TS_DONE:
        snprintf(buf, n, "done");
        return;
    case TS_BLOCKED:
        snprintf(buf, n, "blocked (%s), line %d", ir_is_loop_bound(g->prog, 0, pc) ? "loop bound" : "assume false",
                 line);
        return;
    case TS_ERROR:
        snprintf(buf, n, "%s, line %d", pgas_rank_fault(g->m, s, r) == PF_ASSERT ? "assert failed" : "fault", line);
        return;
    case TS_RUNNING:
        break;
    }
    const ir_instr *in = &th->instrs[pc];
    if (in->kind == I_QUIET && !pgas_rank_queues_empty(g->m, s, r))
        snprintf(buf, n, "at quiet (queues not empty)");
    else
        snprintf(buf, n, "%s", in->kind == I_BARRIER ? "at barrier" : "ready");
}

/* A line clipped to w columns, its last column marked when cut. */
static void put_clipped(ui_screen *s, int x, int y, int w, ui_style st, const char *text)
{
    if (w <= 0)
        return;
    if ((int)strlen(text) <= w) {
        scr_put(s, x, y, w, st, text);
        return;
    }
    scr_put(s, x, y, w - 1, st, text);
    scr_put(s, x + w - 1, y, 1, ST_DIM, scr_glyph(s, "\xe2\x80\xa6", ">"));
}

/* The right-hand side: per rank its status with the registers, its
 * memory, and its queues (a queue whose two levels do not fit on one
 * line takes two).  Returns the number of lines; fills at most max. */
typedef struct pline {
    ui_style st;
    char text[1024];
} pline;

static int rank_lines(const ui_pgas *g, const void *st, int w, pline *out, int max)
{
    const ir_thread *th = &g->prog->threads[0];
    int n = 0;
#define ADD(style, ...) do { if (n < max) { out[n].st = (style); snprintf(out[n].text, sizeof out[n].text, __VA_ARGS__); } n++; } while (0)
    for (int r = 0; r < g->N; r++) {
        char state[160], regs[400] = "";
        rank_state(g, st, r, state, sizeof state);
        const wmx_val *rv = pgas_regs(g->m, st, r);
        int o = 0;
        for (int i = 0; i < th->nregs && o < (int)sizeof regs - 40; i++) {
            if (th->reg_names[i][0] == '$' || i == g->prog->pgas_rank_reg || i == g->prog->pgas_nranks_reg)
                continue;
            o += snprintf(regs + o, sizeof regs - o, "%s%s=%lld", o ? " " : "", th->reg_names[i], (long long)rv[i]);
        }
        ADD(ui_thread_style(r), "R%d  %s%s%s", r, state, o ? "   regs: " : "", regs);
        char line[600];
        o = snprintf(line, sizeof line, "  mem:");
        const wmx_val *mem = pgas_memory(g->m, st, r);
        for (int c = 0; c < g->prog->ncells && o < (int)sizeof line - 40; c++) {
            char nb[64];
            o += snprintf(line + o, sizeof line - o, " %s=%lld", ir_cell_name(g->prog, c, nb, sizeof nb),
                          (long long)mem[c]);
        }
        ADD(ST_NORMAL, "%s", line);
        for (int q = 0; q < pgas_nqueues(g->m); q++) {
            const pgas_entry *e;
            int na = pgas_queue(g->m, st, r, q, 0, &e), nb = pgas_queue(g->m, st, r, q, 1, &e);
            if (na == 0 && nb == 0 && pgas_nqueues(g->m) > 2)
                continue;
            char qt[500];
            pgas_queue_text(g->m, st, r, q, qt, sizeof qt);
            ui_style qs = na || nb ? ST_CHANGED : ST_DIM;
            if ((int)strlen(qt) + 5 <= w) {
                ADD(qs, "  q%d %s", q, qt);
            } else {
                char *fb = strstr(qt, "  fb:");
                if (fb)
                    *fb = '\0';
                ADD(qs, "  q%d %s", q, qt);
                if (fb)
                    ADD(qs, "     %s", fb + 2);
            }
        }
    }
#undef ADD
    return n;
}

int ui_pgas_height(const ui_state *ui, int w)
{
    const ui_pgas *g = ui->pgas;
    int cw = w - 2, rw = cw - cw / 2 - 1;
    int code = 0, lastline = -1;
    const ir_thread *th = &g->prog->threads[0];
    for (int i = 0; i < th->ninstrs; i++)
        if (th->instrs[i].loc.line != lastline && th->instrs[i].text && th->instrs[i].text[0]) {
            lastline = th->instrs[i].loc.line;
            code++;
        }
    int ranks = rank_lines(g, ((ui_pgas *)g)->states + (size_t)g->pos * g->ssize, rw, NULL, 0);
    return (code > ranks ? code : ranks) + 2;
}

void ui_pgas_draw(ui_state *ui, ui_screen *s, int x, int y, int w, int h)
{
    ui_pgas *g = ui->pgas;
    const void *st = state_at(g, g->pos);
    char title[200];
    snprintf(title, sizeof title, "PGAS %s: %d ranks, step %d/%d", g->prog->name, g->N, g->pos, g->len);
    scr_box(s, x, y, w, h, ST_BORDER_FOCUS, ST_TITLE_FOCUS, title);
    int cx = x + 1, cy = y + 1, cw = w - 2, ch = h - 2;
    int LW = cw / 2;
    /* left: the code, with every rank's position */
    const ir_thread *th = &g->prog->threads[0];
    int row = 0, lastline = -1;
    for (int i = 0; i < th->ninstrs && row < ch; i++) {
        const ir_instr *in = &th->instrs[i];
        if (in->loc.line == lastline || !in->text || !in->text[0])
            continue;
        lastline = in->loc.line;
        char marks[64] = "";
        bool here = false;
        for (int r = 0; r < g->N; r++) {
            int pc = pgas_pc(g->m, st, r);
            if (pgas_status(g->m, st, r) == TS_RUNNING && pc < th->ninstrs &&
                th->instrs[pc].loc.line == in->loc.line) {
                size_t l = strlen(marks);
                snprintf(marks + l, sizeof marks - l, "%sR%d", here ? "," : "", r);
                here = true;
            }
        }
        char code[600];
        snprintf(code, sizeof code, "%3d %-8s %s", in->loc.line, marks, in->text);
        put_clipped(s, cx, cy + row, LW, here ? ST_NEXT : ST_NORMAL, code);
        row++;
    }
    /* right: per rank status with registers, memory, queues; when they do
     * not all fit, the last row says how many are left out */
    int rx = cx + LW + 1, rw = cw - LW - 1;
    int total = rank_lines(g, st, rw, NULL, 0);
    pline *lines = wmx_malloc(((size_t)total + 1) * sizeof *lines);
    rank_lines(g, st, rw, lines, total);
    int shown = total <= ch ? total : ch - 1;
    for (int i = 0; i < shown; i++)
        put_clipped(s, rx, cy + i, rw, lines[i].st, lines[i].text);
    if (shown < total && ch > 0)
        scr_printf(s, rx, cy + shown, rw, ST_DIM, "(%d more line%s: a taller terminal shows them)",
                   total - shown, total - shown == 1 ? "" : "s");
    free(lines);
}

/* ---- graph hb ---- */

static event_kind style_kind(pgas_ev_kind k)
{
    switch (k) {
    case PE_LOAD: case PE_POPA: return EV_READ;
    case PE_STORE: return EV_WRITE;
    case PE_READ: case PE_WRITE: return EV_WRITE_BUF;
    case PE_POPB: return EV_WRITE_MEM;
    case PE_BAR: case PE_QUIET: return EV_FENCE;
    }
    return EV_READ;
}

static gx_graph *hb_graph(ui_pgas *g, const pgas_event *ev, int n, const int *cycle, char (*roles)[16],
                          int ncycle)
{
    gx_graph *x = gx_new(GX_HB, g->prog->name);
    for (int r = 0; r < g->N; r++) {
        char c[32];
        snprintf(c, sizeof c, "rank %d", r);
        gx_add_cluster(x, c);
    }
    /* events are numbered by the timeline step that made them, as the
     * `robust` list and the step counter are: a barrier step makes one bar
     * per rank */
    int *stepno = wmx_malloc(((size_t)n + 1) * sizeof *stepno);
    for (int i = 0, step = 1; i < n; step++) {
        int k = ev[i].kind == PE_BAR ? g->N : 1;
        for (int j = 0; j < k && i < n; j++)
            stepno[i++] = step;
    }
    for (int i = 0; i < n; i++) {
        char id[32], full[256], shrt[128], tiny[16], addr[80] = "";
        const ir_instr *in = ev[i].instr >= 0 ? &g->prog->threads[0].instrs[ev[i].instr] : NULL;
        if (ev[i].cell >= 0) {
            char nb[64];
            snprintf(addr, sizeof addr, " R%d:%s", ev[i].addr_rank, ir_cell_name(g->prog, ev[i].cell, nb, sizeof nb));
        }
        const char *role = "";
        bool inc = false;
        for (int k = 0; k < ncycle; k++)
            if (cycle[k] == i) {
                role = roles[k];
                inc = true;
            }
        snprintf(id, sizeof id, "e%d", i);
        snprintf(full, sizeof full, "%d %s%s%s%s line %d", stepno[i], pgas_ev_name(ev[i].kind), addr,
                 *role ? " " : "", role, in ? in->loc.line : 0);
        snprintf(shrt, sizeof shrt, "%d %s%s", stepno[i], pgas_ev_name(ev[i].kind), addr);
        snprintf(tiny, sizeof tiny, "%d", stepno[i]);
        int k = gx_add_node(x, id, full, shrt, tiny, ev[i].rank, inc ? GX_FACT : 0);
        x->n[k].thread = ev[i].rank;
        x->n[k].ekind = style_kind(ev[i].kind);
        x->n[k].step = stepno[i];
    }
    free(stepno);
    pgas_edge *e;
    int ne = pgas_hb_edges(g->m, ev, n, &e);
    int first_edge = x->ne;
    for (int i = 0; i < ne; i++) {
        gx_ekind k = e[i].kind == PGAS_EDGE_PO ? GE_PO : e[i].kind == PGAS_EDGE_CF ? GE_FR : GE_WBM;
        gx_add_edge(x, e[i].from, e[i].to, k,
                    e[i].kind == PGAS_EDGE_PO ? NULL : e[i].kind == PGAS_EDGE_CF ? "cf" : "<->", 0);
    }
    /* the cycle: mark its edges, or add a po+ step */
    for (int c = 0; c < ncycle; c++) {
        int a = cycle[c], b = cycle[(c + 1) % ncycle];
        bool found = false;
        for (int i = first_edge; i < x->ne; i++)
            if ((x->e[i].from == a && x->e[i].to == b) ||
                (x->e[i].kind == GE_WBM && x->e[i].from == b && x->e[i].to == a)) {
                x->e[i].flags |= GX_FACT;
                found = true;
            }
        if (!found)
            gx_add_edge(x, a, b, GE_PO, "po+", GX_FACT);
    }
    free(e);
    return x;
}

void ui_pgas_after_robust(const wmx_program *p, const pgas_robust_result *res, cmd_ctx *ctx)
{
    ui_state *ui = ctx->ui;
    if (!ui || !ui->pgas || p != ui->pgas->prog || res->robust || res->nranks != ui->pgas->N)
        return;
    ui_pgas *g = ui->pgas;
    g->len = g->pos = 0;
    for (int i = 0; i < res->computation.len; i++) {
        if (!pgas_is_enabled(g->m, state_at(g, g->pos), &res->computation.steps[i]))
            break;
        apply(g, &res->computation.steps[i]);
    }
    drop_viol(g);
    g->have_viol = true;
    g->nvev = res->nevents;
    g->vev = wmx_malloc(((size_t)res->nevents + 1) * sizeof *g->vev);
    memcpy(g->vev, res->events, (size_t)res->nevents * sizeof *g->vev);
    g->ncycle = res->ncycle;
    g->cycle = wmx_malloc(((size_t)res->ncycle + 1) * sizeof *g->cycle);
    g->roles = wmx_malloc(((size_t)res->ncycle + 1) * sizeof *g->roles);
    for (int i = 0; i < res->ncycle; i++) {
        g->cycle[i] = res->cycle[i].event;
        snprintf(g->roles[i], sizeof g->roles[i], "%s", res->cycle[i].role);
    }
    fprintf(ctx->out, "The violating computation is the timeline now (%d steps): undo/redo walk it, "
            "`graph hb` draws its cycle.\n", g->len);
}

/* ---- commands ---- */

static int parse_rank(const ui_pgas *g, const char *s)
{
    if (!s)
        return -1;
    if (*s == 'R' || *s == 'r')
        s++;
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v >= 0 && v < g->N ? (int)v : -1;
}

static int parse_queue(const ui_pgas *g, const char *s)
{
    if (!s)
        return 0;
    if (*s == 'q' || *s == 'Q')
        s++;
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v >= 0 && v < pgas_nqueues(g->m) ? (int)v : -1;
}

static void print_event(ui_pgas *g, FILE *out, int from)
{
    /* describe what the step did, from the snapshot before it */
    pgas_event ev[WMX_PGAS_MAX_RANKS];
    int n = pgas_peek(g->m, state_at(g, from), &g->steps[from], ev);
    for (int i = 0; i < n; i++) {
        char d[512];
        pgas_describe(g->m, &ev[i], d, sizeof d);
        fprintf(out, "%3d  %s\n", from + 1, d);
    }
}

bool ui_pgas_run(ui_state *ui, int argc, char **argv, cmd_ctx *ctx, int *rc)
{
    ui_pgas *g = ui->pgas;
    if (!g || argc < 1)
        return false;
    const char *c = argv[0];
    *rc = EXIT_OK;
    pgas_transition t = { PT_STEP, -1, -1 };
    if (strcmp(c, "step") == 0 || strcmp(c, "popa") == 0 || strcmp(c, "popb") == 0 || strcmp(c, "barrier") == 0) {
        if (strcmp(c, "barrier") == 0) {
            t.kind = PT_BARRIER;
        } else {
            t.rank = parse_rank(g, argc > 1 ? argv[1] : NULL);
            if (t.rank < 0) {
                fprintf(ctx->err, "%s: which rank? (R0..R%d)\n", c, g->N - 1);
                *rc = EXIT_USAGE;
                return true;
            }
            if (c[0] == 'p') {
                t.kind = c[3] == 'a' ? PT_POPA : PT_POPB;
                t.queue = parse_queue(g, argc > 2 ? argv[2] : NULL);
                if (t.queue < 0) {
                    fprintf(ctx->err, "%s: no queue '%s' (q0..q%d)\n", c, argv[2], pgas_nqueues(g->m) - 1);
                    *rc = EXIT_USAGE;
                    return true;
                }
            }
        }
        if (!pgas_is_enabled(g->m, state_at(g, g->pos), &t)) {
            char b[64], why[1200];
            pgas_transition_name(&t, b, sizeof b);
            pgas_why_disabled(g->m, state_at(g, g->pos), &t, why, sizeof why);
            fprintf(ctx->err, "%s is not enabled now: %s\n", b, why);
            *rc = EXIT_USAGE;
            return true;
        }
        apply(g, &t);
        print_event(g, ctx->out, g->pos - 1);
        /* a rank that stopped in this step says why (not only in its status) */
        for (int r = 0; r < g->N; r++) {
            thread_status was = pgas_status(g->m, state_at(g, g->pos - 1), r);
            thread_status now = pgas_status(g->m, state_at(g, g->pos), r);
            if (was == now || (now != TS_BLOCKED && pgas_rank_fault(g->m, state_at(g, g->pos), r) != PF_ASSERT))
                continue;
            char why[600], regs[400] = "";
            pgas_rank_why(g->m, state_at(g, g->pos), r, why, sizeof why);
            const ir_thread *th = &g->prog->threads[0];
            const wmx_val *rv = pgas_regs(g->m, state_at(g, g->pos), r);
            for (int i = 0, o = 0; i < th->nregs && o < (int)sizeof regs - 40; i++)
                if (th->reg_names[i][0] != '$' && i != g->prog->pgas_rank_reg && i != g->prog->pgas_nranks_reg)
                    o += snprintf(regs + o, sizeof regs - o, " %s=%lld", th->reg_names[i], (long long)rv[i]);
            fprintf(ctx->out, "     R%d %s%s%s%s\n", r, why, now == TS_BLOCKED ? ": it cannot go on" : "",
                    regs[0] ? "   regs:" : "", regs);
        }
        int fr = pgas_fault_rank(g->m, state_at(g, g->pos));
        if (fr >= 0) {
            wmx_error e = { 0 };
            char buf[700];
            pgas_fault_error(g->m, state_at(g, g->pos), fr, &e);
            fprintf(ctx->err, "%s\n", wmx_error_format(&e, buf, sizeof buf));
        }
        return true;
    }
    if (strcmp(c, "undo") == 0 || strcmp(c, "redo") == 0) {
        int n = argc > 1 ? atoi(argv[1]) : 1;
        if (n <= 0)
            n = 1;
        int to = c[0] == 'u' ? g->pos - n : g->pos + n;
        if (to < 0)
            to = 0;
        if (to > g->len)
            to = g->len;
        g->pos = to;
        fprintf(ctx->out, "at step %d of %d\n", g->pos, g->len);
        return true;
    }
    if (strcmp(c, "restart") == 0) {
        g->pos = 0;
        fprintf(ctx->out, "at step 0 of %d\n", g->len);
        return true;
    }
    if (strcmp(c, "graph") == 0) {
        if (argc < 2 || strcmp(argv[1], "hb") != 0) {
            fprintf(ctx->err, "usage (PGAS): graph hb\n");
            *rc = EXIT_USAGE;
            return true;
        }
        gx_graph *x;
        if (g->have_viol) {
            x = hb_graph(g, g->vev, g->nvev, g->cycle, g->roles, g->ncycle);
            fprintf(ctx->out, "graph hb: the violating computation of `robust` (%d events), its cycle highlighted\n",
                    g->nvev);
        } else {
            pgas_path path = { g->pos, g->steps };
            pgas_event *ev;
            int n;
            pgas_replay(g->m, &path, &ev, &n);
            x = hb_graph(g, ev, n, NULL, NULL, 0);
            fprintf(ctx->out, "graph hb: the computation up to step %d (%d events)%s\n", g->pos, n,
                    pgas_hb_violating(g->m, ev, n) ? "; it is violating (run `robust` for its cycle)" : "");
            free(ev);
        }
        ui_graph_show(ui, x);
        return true;
    }
    return false;
}
