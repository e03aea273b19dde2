/* layout.c - where the panes go, the status line and the prompt line.
 *
 *   +-- Program -----------------+-- Events ---------+
 *   | P0 (ready)    P1 (ready)   |  1 P0  wB  x=1    |
 *   +-- Registers --+-- Memory --+                   |
 *   +-- Store buffers -----------+                   |
 *   +-- Output (or Executions) ----------------------+
 *    status: program | model | algorithm | step | condition
 *   wmx> command line
 *
 * Heights follow the program (threads, instructions, cells) so small tests
 * leave room for the output; `zoom` gives the focused pane everything. */
#include "ui.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "graph.h"
#include "util.h"

static const ui_pane_ops *const pane_ops[PANE_COUNT] = {
    [PANE_SOURCE] = &pane_source_ops, [PANE_REGS] = &pane_regs_ops,
    [PANE_BUFFERS] = &pane_buffers_ops, [PANE_MEMORY] = &pane_memory_ops,
    [PANE_EVENTS] = &pane_events_ops, [PANE_OUTPUT] = &pane_output_ops,
    [PANE_EXECS] = &pane_execs_ops, [PANE_GRAPH] = &pane_graph_ops,
    [PANE_GAME] = &pane_game_ops,
};

void ui_init(ui_state *ui, cmd_ctx *ctx)
{
    memset(ui, 0, sizeof *ui);
    sess_init(&ui->sess);
    ui_theme_builtin(&ui->theme);
    snprintf(ui->theme.name, sizeof ui->theme.name, "default");
    for (int i = 0; i < PANE_COUNT; i++)
        ui->panes[i].ops = pane_ops[i];
    ui->focus = PANE_SOURCE;
    ui->bottom = PANE_OUTPUT;
    ui->ctx = ctx;
    ui->prompt = "wmx> ";
    ui->line = "";
    scr_resize(&ui->scr, 80, 24);
}

void ui_free(ui_state *ui)
{
    sess_free(&ui->sess);
    ui_pgas_free(ui);
    ui_graph_free(ui);
    ui_game_free(ui);
    out_clear(&ui->out);
    scr_free(&ui->scr);
}

void ui_message(ui_state *ui, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ui->message, sizeof ui->message, fmt, ap);
    va_end(ap);
    ui->message_error = error;
}

void ui_focus(ui_state *ui, int pane)
{
    if (pane < 0 || pane >= PANE_COUNT)
        return;
    ui->focus = pane;
    if (pane == PANE_OUTPUT || pane == PANE_EXECS)
        ui->bottom = pane;
    else if (!ui->panes[pane].shown && !ui->zoom)
        ui->bottom = pane;      /* no room for it in this layout: use the bottom */
}

static int max_scroll(ui_state *ui, ui_pane *p)
{
    if (!p->ops->lines)
        return 0;
    int n = p->ops->lines(ui, p, p->r.w) - p->r.h;
    return n > 0 ? n : 0;
}

void ui_scroll(ui_state *ui, int delta)
{
    ui_pane *p = &ui->panes[ui->focus];
    p->scroll += delta;
    int m = max_scroll(ui, p);
    if (p->scroll > m)
        p->scroll = m;
    if (p->scroll < 0)
        p->scroll = 0;
    p->follow = false;
}

/* ---- helpers shared by panes and commands ---- */

int ui_find_thread(const wmx_program *p, const char *name)
{
    if (!p || !name)
        return -1;
    for (int t = 0; t < p->nthreads; t++)
        if (strcmp(p->threads[t].name, name) == 0)
            return t;
    char *end;
    long v = strtol(name, &end, 10);
    if (*name && *end == '\0' && v >= 0 && v < p->nthreads)
        return (int)v;
    /* "P0" style names of herd tests given as "p0" */
    for (int t = 0; t < p->nthreads; t++)
        if (strcasecmp(p->threads[t].name, name) == 0)
            return t;
    return -1;
}

int ui_find_cell(const wmx_program *p, const char *name)
{
    if (!p || !name)
        return -1;
    for (int c = 0; c < p->ncells; c++) {
        char buf[128];
        if (strcmp(ir_cell_name(p, c, buf, sizeof buf), name) == 0)
            return c;
    }
    int v = ir_find_var(p, name);
    return v >= 0 ? p->vars[v].base : -1;
}

const char *ui_thread_state(const ui_session *s, const void *st, int t)
{
    switch (machine_status(s->m, st, t)) {
    case TS_DONE: return "done";
    case TS_BLOCKED: return "blocked";
    case TS_ERROR: return "error";
    case TS_RUNNING: break;
    }
    wmx_transition tr = { TR_STEP, t, -1 };
    return machine_is_enabled(s->m, st, &tr) ? "ready" : "waiting";
}

int ui_event_step(const ui_session *s, wmx_eid id)
{
    for (int i = 0; i < s->len; i++)
        if (s->events[i].id == id && s->events[i].kind != EV_WRITE_MEM)
            return i + 1;
    return 0;
}

/* ---- drawing ---- */

static void place(ui_state *ui, int pane, int x, int y, int w, int h)
{
    ui_pane *p = &ui->panes[pane];
    p->shown = w >= 3 && h >= 3;
    p->r = (ui_rect){ x + 1, y + 1, w - 2, h - 2 };
    if (!p->shown)
        return;
    bool focus = ui->focus == pane;
    char title[128];
    const char *t = p->ops->title;
    if (pane == PANE_SOURCE && ui->sess.prog)
        snprintf(title, sizeof title, "%s %s", t, ui->sess.prog->name ? ui->sess.prog->name : "");
    else if (pane == PANE_EXECS && ui->sess.execs.valid)
        snprintf(title, sizeof title, "%s (%d)", t, ui->sess.execs.n);
    else
        snprintf(title, sizeof title, "%s", t);
    if (focus && ui->zoom)
        snprintf(title + strlen(title), sizeof title - strlen(title), " [zoom]");
    scr_box(&ui->scr, x, y, w, h, focus ? ST_BORDER_FOCUS : ST_BORDER,
            focus ? ST_TITLE_FOCUS : ST_TITLE, title);
}

/* Scrolls a pane whose `follow` flag is set to show what just changed. */
static void follow(ui_state *ui, int pane)
{
    ui_pane *p = &ui->panes[pane];
    if (!p->shown)
        return;
    int h = p->r.h;
    if (pane == PANE_EVENTS && p->follow) {
        int cur = ui->sess.pos - 1;
        if (cur < p->scroll || cur >= p->scroll + h)
            p->scroll = cur - h / 2;
    } else if (pane == PANE_OUTPUT && p->follow) {
        /* show the last command's output from its start, or the end */
        int last = out_rows(&ui->out, 0, ui->out.last_cmd, p->r.w);
        int total = last + out_rows(&ui->out, ui->out.last_cmd, ui->out.n, p->r.w);
        p->scroll = total - last > h && !ui->out.tail ? last : total - h;
    } else if (pane == PANE_SOURCE && p->follow && ui->sess.prog) {
        /* keep the instruction that matters now in view (see pane_source.c) */
        int header, row = ui_source_focus_row(ui, p->r.w, &header);
        if (row >= p->scroll + h || header < p->scroll)
            p->scroll = row - header < h ? header : row - h + 1;   /* with its thread's name if it fits */
    }
    int m = max_scroll(ui, p);
    if (p->scroll > m)
        p->scroll = m;
    if (p->scroll < 0)
        p->scroll = 0;
}

static int text_cols(const char *t)
{
    int n = 0;
    for (; *t; t++)
        n += ((unsigned char)*t & 0xc0) != 0x80;    /* one column per character */
    return n;
}

/* Puts text in w columns; a longer one is cut at a word (when one ends in
 * the second half) and ends with "...", so a cut never passes for whole. */
static int put_cut(ui_screen *s, int x, int y, int w, ui_style st, const char *text)
{
    if (text_cols(text) <= w || w < 8)
        return scr_put(s, x, y, w, st, text);
    char buf[1024];
    size_t b = 0;
    int cols = 0, space = -1;
    size_t space_at = 0;
    for (const char *t = text; *t && b + 4 < sizeof buf;) {
        int len = 1;
        while ((t[len] & 0xc0) == 0x80)
            len++;
        if (cols + 1 > w - 3)
            break;
        if (*t == ' ')
            space = cols, space_at = b;
        memcpy(buf + b, t, (size_t)len);
        b += (size_t)len;
        t += len;
        cols++;
    }
    if (space > (w - 3) / 2)
        b = space_at;
    memcpy(buf + b, "...", 4);
    return scr_put(s, x, y, w, st, buf);
}

static void draw_status(ui_state *ui, int y)
{
    ui_screen *s = &ui->scr;
    scr_fill(s, 0, y, s->w, 1, L' ', ST_STATUS);
    if (ui->progress.active) {
        ui_progress_draw(ui);
        return;
    }
    const ui_session *ss = &ui->sess;
    char buf[1024];
    if (ui_game_status(ui, buf, sizeof buf)) {     /* play mode */
        scr_put(s, 0, y, s->w, ST_STATUS, buf);
        return;
    }
    if (!ss->prog && ui->pgas) {
        snprintf(buf, sizeof buf, " %s | PGAS | step R | popa R q | popb R q | barrier | undo | robust | graph hb",
                 ui_pgas_program(ui)->name);
        scr_put(s, 0, y, s->w, ST_STATUS, buf);
        return;
    }
    if (!ss->prog) {
        snprintf(buf, sizeof buf, " wmx | %s | no program: `load FILE`", model_name(ss->model));
        scr_put(s, 0, y, s->w, ST_STATUS, buf);
        return;
    }
    const void *st = sess_state(ss);
    bool final = machine_is_final(ss->m, st);
    const char *cond = "";
    char cbuf[64] = "";
    if (machine_has_error(ss->m, st)) {
        cond = "ASSERTION FAILED";
    } else if (ss->prog->quant != Q_NONE && !machine_cond_settled(ss->m, st)) {
        /* registers nobody has read yet hold 0, so the condition means
         * nothing until its threads are done (or the run is over) */
        cond = "";
    } else if (ss->prog->quant != Q_NONE) {
        const wmx_val **regs = wmx_malloc((size_t)ss->prog->nthreads * sizeof *regs);
        for (int t = 0; t < ss->prog->nthreads; t++)
            regs[t] = machine_regs(ss->m, st, t);
        bool holds = ir_cond_eval(ss->prog, ss->prog->cond_root, regs, machine_memory(ss->m, st));
        free(regs);
        snprintf(cbuf, sizeof cbuf, "cond %s", holds ? "true" : "false");
        cond = cbuf;
    }
    /* the pane-mode hint keeps its place at the right end */
    const char *hint = " [pane mode]";
    int hl = ui->pane_mode ? (int)strlen(hint) : 0;
    int room = s->w - hl;
    const char *state = final ? (machine_is_blocked(ss->m, st) ? "final, blocked" : "final") : "running";
    /* a message (e.g. the graph pane's node, a Graphviz error) that does not
     * fit after the whole status makes room: the algorithm goes first, then
     * the model, the condition and the running/final state; program and
     * step stay */
    for (int drop = 0; drop <= 4; drop++) {
        snprintf(buf, sizeof buf, " %s%s%s%s%s | step %d/%d%s%s%s%s", ss->prog->name ? ss->prog->name : "?",
                 drop < 2 ? " | " : "", drop < 2 ? model_name(ss->model) : "", drop < 1 ? " | " : "",
                 drop < 1 ? algo_name(ss->algo) : "", ss->pos, ss->len, drop < 4 ? " | " : "",
                 drop < 4 ? state : "", drop < 3 && cond[0] ? " | " : "", drop < 3 ? cond : "");
        if (!ui->message[0] || text_cols(buf) + 3 + text_cols(ui->message) <= room)
            break;
    }
    int n = scr_put(s, 0, y, room, ST_STATUS, buf);
    if (ui->message[0] && n + 3 < room) {
        n += scr_put(s, n, y, room - n, ST_STATUS, " | ");
        n += put_cut(s, n, y, room - n, ui->message_error ? ST_ERROR : ST_STATUS, ui->message);
    }
    if (ui->pane_mode && s->w - hl >= 0)
        scr_put(s, s->w - hl, y, hl, ST_STATUS, hint);
}

void ui_progress_draw(ui_state *ui)
{
    ui_screen *s = &ui->scr;
    int y = s->h - 2;
    if (y < 0)
        return;
    ui_progress *pr = &ui->progress;
    scr_fill(s, 0, y, s->w, 1, L' ', ST_STATUS);
    int x = scr_printf(s, 0, y, s->w, ST_STATUS, " %s ", pr->what ? pr->what : "working");
    /* a bouncing block: exploration has no known total */
    int bw = 16;
    if (x + bw + 2 < s->w) {
        x += scr_put(s, x, y, 1, ST_STATUS, "[");
        int at = pr->tick % (2 * (bw - 3));
        if (at >= bw - 3)
            at = 2 * (bw - 3) - at;
        scr_fill(s, x, y, bw, 1, L' ', ST_STATUS);
        scr_fill(s, x + at, y, 3, 1, s->unicode ? L'\x2588' : L'#', ST_PROGRESS);
        x += bw;
        x += scr_put(s, x, y, 1, ST_STATUS, "]");
    }
    double rate = pr->elapsed > 0 ? (double)(pr->traces + pr->blocked) / pr->elapsed : 0;
    scr_printf(s, x, y, s->w - x, ST_STATUS, " %ld traces (%.0f/s), %ld blocked, depth %d, %.1f s  (Ctrl-C stops)",
               pr->traces, rate, pr->blocked, pr->depth, pr->elapsed);
}

static void draw_prompt(ui_state *ui, int y)
{
    ui_screen *s = &ui->scr;
    scr_fill(s, 0, y, s->w, 1, L' ', ST_NORMAL);
    if (ui->pane_mode) {
        if (ui->focus == PANE_GRAPH)    /* its own keys: +/- zoom the labels here */
            scr_put(s, 0, y, s->w, ST_PROMPT,
                    "-- graph -- +/- zoom, 0 fit, arrows/hjkl pan, n/N node, Enter its step, Esc back");
        else
            scr_printf(s, 0, y, s->w, ST_PROMPT,
                       "-- %s -- j/k move, Enter select, Tab pane, z zoom, u/r undo/redo, Esc back",
                       ui->panes[ui->focus].ops->name);
        return;
    }
    int pl = scr_put(s, 0, y, s->w, ST_PROMPT, ui->prompt);
    int avail = s->w - pl - 1;
    int len = (int)strlen(ui->line), start = 0;
    if (avail < 1)
        return;
    if (ui->point > avail)
        start = ui->point - avail;
    (void)len;
    scr_put(s, pl, y, avail + 1, ST_NORMAL, ui->line + start);
}

/* The x of the cursor on the prompt line (tui.c places the terminal cursor). */
int ui_prompt_cursor(const ui_state *ui)
{
    int pl = (int)strlen(ui->prompt), avail = ui->scr.w - pl - 1;
    int p = ui->point;
    if (avail > 0 && p > avail)
        p = avail;
    return pl + p;
}

void ui_draw(ui_state *ui)
{
    ui_screen *s = &ui->scr;
    scr_clear(s);
    for (int i = 0; i < PANE_COUNT; i++)
        ui->panes[i].shown = false;
    int W = s->w, H = s->h, A = H - 2;
    if (W < 30 || H < 8) {
        scr_put(s, 0, 0, W, ST_ERROR, "terminal too small");
        if (H >= 2)
            draw_status(ui, H - 2);
        draw_prompt(ui, H - 1);
        return;
    }
    const ui_session *ss = &ui->sess;
    if (ui->zoom) {
        place(ui, ui->focus, 0, 0, W, A);
    } else if (ui->game) {
        /* play mode: the Game pane over the output */
        int gh = ui_game_height(ui, W - 2);
        if (gh > A - 5)
            gh = A - 5;
        place(ui, PANE_GAME, 0, 0, W, gh);
        place(ui, ui->bottom, 0, gh, W, A - gh);
    } else if (ui->pgas) {
        /* PGAS mode: code, ranks and queues on top, output below */
        int top = A * 3 / 5, want = ui_pgas_height(ui, W);
        /* grow to show every rank and queue, leaving the output 6 rows */
        if (want > top)
            top = want < A - 6 ? want : A - 6 > top ? A - 6 : top;
        ui_pgas_draw(ui, s, 0, 0, W, top);
        place(ui, ui->bottom, 0, top, W, A - top);
    } else {
        int nt = ss->prog ? ss->prog->nthreads : 1, nc = ss->prog ? ss->prog->ncells : 1;
        int RW = W * 2 / 5;
        if (RW > 72)
            RW = 72;
        int LW = W - RW;
        int src_h = ui->panes[PANE_SOURCE].ops->lines(ui, &ui->panes[PANE_SOURCE], LW - 2) + 2;
        int band_h = (nt > nc ? nt : nc) + 2;
        int buf_h = (ss->model == MODEL_SC ? 1 : nt) + 2;
        if (src_h < 4)
            src_h = 4;
        if (src_h > A * 2 / 5)
            src_h = A * 2 / 5;
        if (band_h > A / 4 + 2)
            band_h = A / 4 + 2;
        if (buf_h > A / 5 + 2)
            buf_h = A / 5 + 2;
        int top = src_h + band_h + buf_h;
        /* leave the bottom area at least 5 rows (3 of text) */
        while (A - top < 5 && (src_h > 4 || band_h > 3 || buf_h > 3)) {
            if (src_h > 4) src_h--;
            else if (band_h > 3) band_h--;
            else buf_h--;
            top = src_h + band_h + buf_h;
        }
        place(ui, PANE_SOURCE, 0, 0, LW, src_h);
        place(ui, PANE_REGS, 0, src_h, LW / 2, band_h);
        place(ui, PANE_MEMORY, LW / 2, src_h, LW - LW / 2, band_h);
        place(ui, PANE_BUFFERS, 0, src_h + band_h, LW, buf_h);
        place(ui, PANE_EVENTS, LW, 0, RW, top);
        int bh = A - top;
        if (bh >= 3) {
            if (W >= 140 && ss->execs.valid && (ui->bottom == PANE_OUTPUT || ui->bottom == PANE_EXECS)) {
                place(ui, PANE_EXECS, 0, top, W / 2, bh);
                place(ui, PANE_OUTPUT, W / 2, top, W - W / 2, bh);
            } else {
                place(ui, ui->bottom, 0, top, W, bh);
            }
        }
    }
    for (int i = 0; i < PANE_COUNT; i++) {
        ui_pane *p = &ui->panes[i];
        if (!p->shown)
            continue;
        follow(ui, i);
        p->ops->draw(ui, p, s, p->r);
    }
    draw_status(ui, H - 2);
    draw_prompt(ui, H - 1);
}
