/* pane_buffers.c - the store buffers drawn as queues, oldest entry first
 * (the next one to reach memory): one per thread under TSO, one per thread
 * and variable under PSO. */
#include "ui.h"

#include <stdlib.h>

static void buffers_draw(ui_state *ui, ui_pane *p, ui_screen *s, ui_rect r)
{
    const ui_session *ss = &ui->sess;
    if (!ss->prog)
        return;
    if (ss->model == MODEL_SC) {
        scr_put(s, r.x, r.y, r.w, ST_DIM, "none under SC: stores go straight to memory");
        return;
    }
    const void *st = sess_state(ss);
    const wmx_program *prog = ss->prog;
    for (int t = p->scroll, row = 0; t < prog->nthreads && row < r.h; t++, row++) {
        const buf_entry *b;
        int n = machine_buffer(ss->m, st, t, &b);
        int x = r.x, y = r.y + row, end = r.x + r.w;
        x += scr_printf(s, x, y, r.w, ui_thread_style(t), "%-3s", prog->threads[t].name);
        if (n == 0) {
            scr_put(s, x + 1, y, end - x - 1, ST_DIM, "(empty)");
            continue;
        }
        if (ss->model == MODEL_TSO) {
            for (int i = 0; i < n && x < end; i++) {
                char c[128];
                x += scr_printf(s, x, y, end - x, i == 0 ? ST_EV_WB : ST_NORMAL, " [%s=%lld]",
                                ir_cell_name(prog, b[i].cell, c, sizeof c), (long long)b[i].value);
            }
            continue;
        }
        /* PSO: one queue per variable, in the order of their oldest entry */
        bool *done = calloc((size_t)n, sizeof *done);
        for (int i = 0; i < n && x < end && done; i++) {
            if (done[i])
                continue;
            char c[128];
            x += scr_printf(s, x, y, end - x, ST_HEADER, " %s:", ir_cell_name(prog, b[i].cell, c, sizeof c));
            bool first = true;
            for (int j = i; j < n; j++) {
                if (b[j].cell != b[i].cell)
                    continue;
                done[j] = true;
                x += scr_printf(s, x, y, end - x, first ? ST_EV_WB : ST_NORMAL, "[%lld]",
                                (long long)b[j].value);
                first = false;
            }
        }
        free(done);
    }
}

static int buffers_lines(ui_state *ui, ui_pane *p, int width)
{
    return ui->sess.prog && ui->sess.model != MODEL_SC ? ui->sess.prog->nthreads : 1;
}

const ui_pane_ops pane_buffers_ops = { "buffers", "Store buffers (oldest first)", buffers_draw,
                                       buffers_lines, NULL };
