/* pane_memory.c - shared memory, one cell per line, with the step whose
 * write (flush) put the value there. */
#include "ui.h"

static void memory_draw(ui_state *ui, ui_pane *p, ui_screen *s, ui_rect r)
{
    const ui_session *ss = &ui->sess;
    if (!ss->prog)
        return;
    const void *st = sess_state(ss);
    const void *prev = ss->pos > 0 ? sess_state_at(ss, ss->pos - 1) : NULL;
    const wmx_val *mem = machine_memory(ss->m, st);
    const wmx_val *old = prev ? machine_memory(ss->m, prev) : NULL;
    const wmx_eid *wr = machine_memory_writer(ss->m, st);
    for (int c = p->scroll, row = 0; c < ss->prog->ncells && row < r.h; c++, row++) {
        char name[128];
        ir_cell_name(ss->prog, c, name, sizeof name);
        int y = r.y + row;
        int n = scr_printf(s, r.x, y, r.w, old && old[c] != mem[c] ? ST_CHANGED : ST_NORMAL,
                           "%s = %lld", name, (long long)mem[c]);
        int step = wr[c] == EID_INIT ? 0 : ui_event_step(ss, wr[c]);
        if (wr[c] == EID_INIT)
            scr_put(s, r.x + n, y, r.w - n, ST_DIM, "  (init)");
        else if (step > 0)
            scr_printf(s, r.x + n, y, r.w - n, ST_DIM, "  (#%d %s)", step,
                       ss->prog->threads[EID_THREAD(wr[c])].name);
    }
}

static int memory_lines(ui_state *ui, ui_pane *p, int width)
{
    return ui->sess.prog ? ui->sess.prog->ncells : 0;
}

const ui_pane_ops pane_memory_ops = { "memory", "Memory", memory_draw, memory_lines, NULL };
