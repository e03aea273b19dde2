/* pane_execs.c - the executions the last `explore` found, one line per
 * distinct final state (blocked and failing ones apart), with how many
 * traces ended there.  Enter (or `select N`) replays one in the panes. */
#include "ui.h"

#include <string.h>

static void execs_draw(ui_state *ui, ui_pane *p, ui_screen *s, ui_rect r)
{
    const ui_exec_list *l = &ui->sess.execs;
    if (!l->valid) {
        scr_put(s, r.x, r.y, r.w, ST_DIM, "no executions yet: run `explore`");
        return;
    }
    scr_put(s, r.x, r.y, r.w, ST_HEADER, l->summary);
    bool any_cond = ui->sess.prog->quant != Q_NONE, any_flag = false;
    for (int k = 0; k < l->n; k++)
        any_flag |= l->v[k].blocked || l->v[k].error;
    for (int row = 1; row < r.h; row++) {
        int i = p->scroll + row - 1;
        if (i >= l->n)
            break;
        const ui_exec_class *c = &l->v[i];
        char line[512];
        /* count and flags first, the final state last (it can be long) */
        int len = snprintf(line, sizeof line, "%2d %7ld trace%s  ", i + 1, c->count, c->count == 1 ? " " : "s");
        if (any_cond)
            len += snprintf(line + len, sizeof line - (size_t)len, "%-10s  ", c->satisfies ? "cond holds" : "");
        if (any_flag)
            len += snprintf(line + len, sizeof line - (size_t)len, "%-9s  ",
                            c->error ? "ASSERTION" : c->deadlock ? "deadlock" : c->blocked ? "blocked" : "");
        char label[512];
        snprintf(line + len, sizeof line - (size_t)len, "%s", sess_exec_label(l, c, label, sizeof label));
        int y = r.y + row;
        bool sel = i == p->sel;
        scr_put(s, r.x, y, 1, sel ? ST_NEXT : ST_NORMAL, sel ? scr_glyph(s, "\xe2\x96\xb6", ">") : " ");
        int n = 1 + scr_put(s, r.x + 1, y, r.w - 1, sel ? ST_SELECTED : ST_NORMAL, line);
        if (sel && n < r.w)
            scr_fill(s, r.x + n, y, r.w - n, 1, L' ', ST_SELECTED);
        if (!sel) {
            const char *h = strstr(line, "cond holds");
            if (h)
                scr_set_style(s, r.x + 1 + (int)(h - line), y, 10, ST_OK);
            h = strstr(line, "ASSERTION");
            if (h)
                scr_set_style(s, r.x + 1 + (int)(h - line), y, 9, ST_ERROR);
            h = strstr(line, "deadlock");
            if (h)
                scr_set_style(s, r.x + 1 + (int)(h - line), y, 8, ST_ERROR);
        }
    }
}

static int execs_lines(ui_state *ui, ui_pane *p, int width)
{
    return ui->sess.execs.n + 1;
}

static bool execs_key(ui_state *ui, ui_pane *p, int key)
{
    const ui_exec_list *l = &ui->sess.execs;
    if (!l->valid || l->n == 0)
        return false;
    int sel = p->sel;
    switch (key) {
    case 'j': case UI_KEY_DOWN: sel++; break;
    case 'k': case UI_KEY_UP: sel--; break;
    case 'g': case UI_KEY_HOME: sel = 0; break;
    case 'G': case UI_KEY_END: sel = l->n - 1; break;
    case UI_KEY_PGDN: sel += p->r.h - 1; break;
    case UI_KEY_PGUP: sel -= p->r.h - 1; break;
    case '\r': case '\n': case UI_KEY_ENTER: {
        char cmd[32];
        snprintf(cmd, sizeof cmd, "select %d", p->sel + 1);
        ui_exec_line(ui, cmd, NULL);
        return true;
    }
    default:
        return false;
    }
    if (sel < 0)
        sel = 0;
    if (sel >= l->n)
        sel = l->n - 1;
    p->sel = sel;
    /* keep the selection visible: row 0 is the summary */
    int rows = p->r.h - 1;
    if (rows < 1)
        rows = 1;
    if (sel < p->scroll)
        p->scroll = sel;
    if (sel >= p->scroll + rows)
        p->scroll = sel - rows + 1;
    return true;
}

const ui_pane_ops pane_execs_ops = { "executions", "Executions", execs_draw, execs_lines, execs_key };
