/* pane_output.c - what commands print (help, explore reports, errors). */
#include "ui.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define OUT_MAX_LINES 5000

void out_add(ui_output *o, ui_style st, const char *text)
{
    const char *p = text;
    while (*p) {
        size_t n = strcspn(p, "\n");
        if (o->n == o->cap) {
            o->cap = o->cap ? 2 * o->cap : 64;
            o->lines = wmx_realloc(o->lines, (size_t)o->cap * sizeof *o->lines);
        }
        o->lines[o->n++] = (ui_line){ wmx_strndup(p, n), (unsigned char)st };
        p += n;
        if (*p == '\n')
            p++;
    }
    if (o->n > OUT_MAX_LINES) {
        int drop = o->n - OUT_MAX_LINES;
        for (int i = 0; i < drop; i++)
            free(o->lines[i].text);
        memmove(o->lines, o->lines + drop, (size_t)(o->n - drop) * sizeof *o->lines);
        o->n -= drop;
        o->last_cmd = o->last_cmd > drop ? o->last_cmd - drop : 0;
    }
}

void out_clear(ui_output *o)
{
    for (int i = 0; i < o->n; i++)
        free(o->lines[i].text);
    free(o->lines);
    memset(o, 0, sizeof *o);
}

static void output_draw(ui_state *ui, ui_pane *p, ui_screen *s, ui_rect r)
{
    const ui_output *o = &ui->out;
    for (int row = 0; row < r.h; row++) {
        int i = p->scroll + row;
        if (i >= o->n)
            break;
        scr_put(s, r.x, r.y + row, r.w, (ui_style)o->lines[i].style, o->lines[i].text);
    }
}

static int output_lines(ui_state *ui, ui_pane *p, int width)
{
    return ui->out.n;
}

const ui_pane_ops pane_output_ops = { "output", "Output", output_draw, output_lines, NULL };
