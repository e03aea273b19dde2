/* pane_events.c - the event log of the current execution: one line per step
 * with its kind, location and value, where each read took its value from
 * (rf: the step of that write, `init`, or the thread's own buffer) and which
 * store each flush (wM) moves to memory.  Steps after the current position
 * (what redo would replay) are dimmed. */
#include "ui.h"

#include <string.h>

static void format_event(const ui_session *ss, int i, char *buf, size_t n, bool wide)
{
    const wmx_event *ev = &ss->events[i];
    const wmx_program *p = ss->prog;
    char cell[128] = "", extra[400] = "";
    if (ev->cell >= 0)
        ir_cell_name(p, ev->cell, cell, sizeof cell);
    int rf = ev->rf == EID_INIT ? 0 : ui_event_step(ss, ev->rf);
    char src[32];
    if (ev->rf == EID_INIT)
        snprintf(src, sizeof src, "init");
    else
        snprintf(src, sizeof src, "#%d", rf);
    switch (ev->kind) {
    case EV_READ:
    case EV_AWAIT:
        snprintf(extra, sizeof extra, "%s=%lld  rf %s%s", cell, (long long)ev->value, src,
                 ev->from_buffer ? " (own buffer)" : "");
        break;
    case EV_RMW:
        snprintf(extra, sizeof extra, "%s: %lld->%lld  rf %s", cell, (long long)ev->read,
                 (long long)(ev->wrote ? ev->value : ev->read), src);
        break;
    case EV_WRITE_MEM: {
        int wb = ui_event_step(ss, ev->id);
        snprintf(extra, sizeof extra, "%s=%lld  of #%d", cell, (long long)ev->value, wb);
        break;
    }
    case EV_FENCE:
        break;
    default:
        snprintf(extra, sizeof extra, "%s=%lld", cell, (long long)ev->value);
        break;
    }
    int len = snprintf(buf, n, "%3d %-3s %-3s %s", i + 1, p->threads[ev->thread].name,
                       event_kind_name(ev->kind), extra);
    if (wide && ev->instr >= 0 && len > 0 && (size_t)len < n) {
        const char *text = p->threads[ev->thread].instrs[ev->instr].text;
        if (text)
            snprintf(buf + len, n - (size_t)len, "%*s%s", len < 34 ? 34 - len : 2, "", text);
    }
}

static void events_draw(ui_state *ui, ui_pane *p, ui_screen *s, ui_rect r)
{
    const ui_session *ss = &ui->sess;
    if (!ss->prog)
        return;
    if (ss->len == 0) {
        /* in the program's own names: its first thread that can step
         * (`step thread.1` in a C program whose main only waits) */
        int t0 = 0;
        for (int t = ss->prog->nthreads - 1; t >= 0; t--)
            if (strcmp(ui_thread_state(ss, sess_state(ss), t), "ready") == 0)
                t0 = t;
        scr_printf(s, r.x, r.y, r.w, ST_DIM, "no steps yet: `step %s`, digit keys,",
                   ss->prog->nthreads > 0 ? ss->prog->threads[t0].name : "P0");
        scr_put(s, r.x, r.y + 1, r.w, ST_DIM, "`random`, `until`, `explore`");
        return;
    }
    for (int row = 0; row < r.h; row++) {
        int i = p->scroll + row;
        if (i >= ss->len)
            break;
        char line[512];
        format_event(ss, i, line, sizeof line, r.w >= 60);
        bool future = i >= ss->pos, cur = i == ss->pos - 1;
        int y = r.y + row;
        scr_put(s, r.x, y, 1, cur ? ST_NEXT : ST_NORMAL, cur ? scr_glyph(s, "\xe2\x96\xb6", ">") : " ");
        int n = scr_put(s, r.x + 1, y, r.w - 1, future ? ST_DIM : ST_NORMAL, line);
        if (!future) {
            /* colour the thread and the kind */
            scr_set_style(s, r.x + 5, y, 3, ui_thread_style(ss->events[i].thread));
            scr_set_style(s, r.x + 9, y, 3, ui_event_style(ss->events[i].kind));
        }
        /* a cut line says so; `zoom events` shows it whole */
        int cols = 0;
        for (const char *c = line; *c; c++)
            cols += ((unsigned char)*c & 0xC0) != 0x80;
        if (cols > r.w - 1 && n > 0)
            scr_put(s, r.x + r.w - 1, y, 1, ST_DIM, scr_glyph(s, "\xe2\x80\xa6", ">"));
    }
}

static int events_lines(ui_state *ui, ui_pane *p, int width)
{
    return ui->sess.len;
}

const ui_pane_ops pane_events_ops = { "events", "Events", events_draw, events_lines, NULL };
