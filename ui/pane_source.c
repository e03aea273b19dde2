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
    return nt > 0 && width / nt >= 14;
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
    int row = 0;
    for (int t = 0; t < prog->nthreads; t++) {
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
}

const ui_pane_ops pane_source_ops = { "source", "Program", source_draw, source_lines, NULL };
