/* pane_source.c - the program, one column per thread, with each thread's
 * next instruction marked (and the instruction where an assertion failed).
 * Too many threads for the width: the threads are stacked instead. */
#include "ui.h"

#include <string.h>

static const char *instr_text(const ir_instr *in, char *buf, size_t n)
{
    static const char *const kinds[] = { "nop", "load", "store", "fence", "xchg", "faa", "cas",
                                         "await", "assume", "assert", "let", "jump", "halt" };
    if (in->text && in->text[0])
        return in->text;
    snprintf(buf, n, "(%s)", (unsigned)in->kind < sizeof kinds / sizeof kinds[0] ? kinds[in->kind] : "?");
    return buf;
}

/* Draws one instruction line of thread t at (x, y) in w columns. */
static void draw_instr(ui_state *ui, ui_screen *s, int t, int i, int x, int y, int w)
{
    const ui_session *ss = &ui->sess;
    const ir_thread *th = &ss->prog->threads[t];
    const void *st = sess_state(ss);
    int pc = machine_pc(ss->m, st, t);
    thread_status ts = machine_status(ss->m, st, t);
    bool next = ts == TS_RUNNING && pc == i;
    bool err = ts == TS_ERROR && machine_error_instr(ss->m, st, t) == i;
    char buf[64], line[512];
    const char *mark = next ? scr_glyph(s, "\xe2\x96\xb6", ">") : err ? scr_glyph(s, "\xe2\x9c\x97", "X") : " ";
    snprintf(line, sizeof line, "%s%2d %s", mark, i, instr_text(&th->instrs[i], buf, sizeof buf));
    ui_style sty = next ? ST_NEXT : err ? ST_ERROR : (ts != TS_RUNNING || pc > i) ? ST_DIM : ST_NORMAL;
    int n = scr_put(s, x, y, w, sty, line);
    if (next && n < w - 1)
        scr_fill(s, x + n, y, w - 1 - n, 1, L' ', ST_NEXT);
}

static void draw_header(ui_state *ui, ui_screen *s, int t, int x, int y, int w)
{
    const ui_session *ss = &ui->sess;
    int n = scr_put(s, x, y, w, ui_thread_style(t), ss->prog->threads[t].name);
    const char *state = ui_thread_state(ss, sess_state(ss), t);
    scr_printf(s, x + n, y, w - n, strcmp(state, "error") == 0 ? ST_ERROR : ST_DIM, " (%s)", state);
}

static bool side_by_side(const ui_state *ui, int width)
{
    int nt = ui->sess.prog->nthreads;
    /* a column of 10 shows "> 0 r0 = x": enough to follow 4 threads at 80x24 */
    return nt > 0 && width / nt >= 10;
}

int ui_source_focus_row(ui_state *ui, int width, int *header)
{
    const ui_session *ss = &ui->sess;
    const wmx_program *prog = ss->prog;
    if (!prog)
        return 0;
    const void *st = sess_state(ss);
    *header = 0;
    if (side_by_side(ui, width)) {
        int most = 0;       /* the furthest next instruction, under its header */
        for (int t = 0; t < prog->nthreads; t++) {
            int pc = machine_pc(ss->m, st, t);
            if (pc > most)
                most = pc;
        }
        return most + 1;
    }
    /* stacked: the thread that moved last (or the first), at its next instruction */
    int t = ss->pos > 0 ? ss->events[ss->pos - 1].thread : 0, row = 0;
    for (int k = 0; k < t; k++)
        row += prog->threads[k].ninstrs + 1;
    int pc = machine_pc(ss->m, st, t);
    if (pc > prog->threads[t].ninstrs)
        pc = prog->threads[t].ninstrs;
    *header = row;
    return row + 1 + (pc < 0 ? 0 : pc);
}

static int source_lines(ui_state *ui, ui_pane *p, int width)
{
    const wmx_program *prog = ui->sess.prog;
    if (!prog)
        return 0;
    int total = 0, most = 0;
    for (int t = 0; t < prog->nthreads; t++) {
        total += prog->threads[t].ninstrs + 1;
        if (prog->threads[t].ninstrs > most)
            most = prog->threads[t].ninstrs;
    }
    return side_by_side(ui, width) ? most + 1 : total;
}

static void source_draw(ui_state *ui, ui_pane *p, ui_screen *s, ui_rect r)
{
    const wmx_program *prog = ui->sess.prog;
    if (!prog) {
        scr_put(s, r.x, r.y, r.w, ST_DIM, "no program loaded: `load FILE`");
        return;
    }
    if (side_by_side(ui, r.w)) {
        int nt = prog->nthreads, colw = r.w / nt;
        for (int t = 0; t < nt; t++) {
            int x = r.x + t * colw;
            draw_header(ui, s, t, x, r.y, colw - 1);
            for (int row = 1; row < r.h; row++) {
                int i = p->scroll + row - 1;
                if (i < prog->threads[t].ninstrs)
                    draw_instr(ui, s, t, i, x, r.y + row, colw - 1);
            }
        }
        return;
    }
    int row = 0, above = 0, below = 0;
    for (int t = 0; t < prog->nthreads; t++) {
        int first = row - p->scroll, last = first + prog->threads[t].ninstrs;
        if (last < 0)
            above++;            /* wholly above the pane */
        else if (first >= r.h)
            below++;
        for (int i = -1; i < prog->threads[t].ninstrs; i++, row++) {
            int y = row - p->scroll;
            if (y < 0 || y >= r.h)
                continue;
            if (i < 0)
                draw_header(ui, s, t, r.x, r.y + y, r.w);
            else
                draw_instr(ui, s, t, i, r.x + 1, r.y + y, r.w - 1);
        }
    }
    /* say what is off the pane, and how to see it */
    char note[64];
    if (below > 0) {
        snprintf(note, sizeof note, " %s %d more thread%s (zoom) ", scr_glyph(s, "\xe2\x86\x93", "v"), below,
                 below == 1 ? "" : "s");
        int l = (int)strlen(note) - (s->unicode ? 2 : 0);
        scr_put(s, r.x + (r.w > l ? r.w - l : 0), r.y + r.h - 1, r.w, ST_DIM, note);
    }
    if (above > 0 && p->scroll > 0) {
        snprintf(note, sizeof note, " %s %d thread%s above ", scr_glyph(s, "\xe2\x86\x91", "^"), above,
                 above == 1 ? "" : "s");
        int l = (int)strlen(note) - (s->unicode ? 2 : 0);
        scr_put(s, r.x + (r.w > l ? r.w - l : 0), r.y, r.w, ST_DIM, note);
    }
}

const ui_pane_ops pane_source_ops = { "source", "Program", source_draw, source_lines, NULL };
