/* pane_regs.c - each thread's registers; values the last step changed are
 * highlighted.  Hidden registers (loop counters, "$...") are not shown. */
#include "ui.h"

static void regs_draw(ui_state *ui, ui_pane *p, ui_screen *s, ui_rect r)
{
    const ui_session *ss = &ui->sess;
    if (!ss->prog)
        return;
    const void *st = sess_state(ss);
    const void *prev = ss->pos > 0 ? sess_state_at(ss, ss->pos - 1) : NULL;
    for (int t = p->scroll, row = 0; t < ss->prog->nthreads && row < r.h; t++, row++) {
        const ir_thread *th = &ss->prog->threads[t];
        const wmx_val *regs = machine_regs(ss->m, st, t);
        const wmx_val *old = prev ? machine_regs(ss->m, prev, t) : NULL;
        int x = r.x, y = r.y + row;
        x += scr_printf(s, x, y, r.w, ui_thread_style(t), "%-3s", th->name);
        int shown = 0;
        for (int i = 0; i < th->nregs && x < r.x + r.w; i++) {
            if (th->reg_names[i][0] == '$')
                continue;
            bool changed = old && old[i] != regs[i];
            x += scr_put(s, x, y, r.x + r.w - x, ST_NORMAL, " ");
            x += scr_printf(s, x, y, r.x + r.w - x, changed ? ST_CHANGED : ST_NORMAL, "%s=%lld",
                            th->reg_names[i], (long long)regs[i]);
            shown++;
        }
        if (!shown)
            scr_put(s, x + 1, y, r.x + r.w - x - 1, ST_DIM, "(none)");
    }
}

static int regs_lines(ui_state *ui, ui_pane *p, int width)
{
    return ui->sess.prog ? ui->sess.prog->nthreads : 0;
}

const ui_pane_ops pane_regs_ops = { "registers", "Registers", regs_draw, regs_lines, NULL };
