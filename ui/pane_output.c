/* pane_output.c - what commands print (help, explore reports, errors). */
#include "ui.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"


void out_add(ui_output *o, ui_style st, const char *text)
{
    const char *p = text;
    /* only the last UI_OUT_MAX_LINES lines are kept: skip the others before
     * copying them (an explore can print hundreds of thousands) */
    long lines = 0;
    for (const char *q = p; *q; lines++) {
        q = strchr(q, '\n');
        if (!q)
            break;
        q++;
    }
    for (long skip = lines - UI_OUT_MAX_LINES; skip > 0 && *p; skip--) {
        p += strcspn(p, "\n");
        if (*p == '\n')
            p++;
    }
    while (*p) {
        size_t n = strcspn(p, "\n");
        out_add_line(o, st, p, n);
        p += n;
        if (*p == '\n')
            p++;
    }
    out_trim(o);
}

void out_add_line(ui_output *o, ui_style st, const char *line, size_t n)
{
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 64;
        o->lines = wmx_realloc(o->lines, (size_t)o->cap * sizeof *o->lines);
    }
    o->lines[o->n++] = (ui_line){ wmx_strndup(line, n), (unsigned char)st };
}

void out_trim(ui_output *o)
{
    if (o->n > UI_OUT_MAX_LINES) {
        int drop = o->n - UI_OUT_MAX_LINES;
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

/* Long lines wrap (at a space when there is one in the second half of the
 * row), so nothing is cut; scrolling counts screen rows. */
static int cols_of(const char *s, int n)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* Bytes of `s` that fill one row of `width` columns. */
static int row_bytes(const char *s, int width)
{
    int bytes = 0, cols = 0, space = -1;
    while (s[bytes] && cols < width) {
        if (s[bytes] == ' ' && cols >= width / 2)
            space = bytes + 1;
        bytes++;
        while (((unsigned char)s[bytes] & 0xC0) == 0x80)
            bytes++;
        cols++;
    }
    if (s[bytes] == ' ')
        return bytes + 1;           /* the space at the break is not drawn */
    if (s[bytes] && space > 0)
        return space;
    return bytes;
}

static int line_rows(const char *text, int width)
{
    if (width <= 0)
        return 1;
    int len = (int)strlen(text);
    if (cols_of(text, len) <= width)
        return 1;
    int rows = 0;
    for (const char *p = text; *p; rows++)
        p += row_bytes(p, width);
    return rows ? rows : 1;
}

static void output_draw(ui_state *ui, ui_pane *p, ui_screen *s, ui_rect r)
{
    const ui_output *o = &ui->out;
    int skip = p->scroll, row = 0;
    for (int i = 0; i < o->n && row < r.h; i++) {
        const char *t = o->lines[i].text;
        int rows = line_rows(t, r.w);
        if (skip >= rows) {
            skip -= rows;
            continue;
        }
        if (rows == 1) {
            scr_put(s, r.x, r.y + row++, r.w, (ui_style)o->lines[i].style, t);
            skip = 0;
            continue;
        }
        for (int k = 0; *t && row < r.h; k++) {
            int b = row_bytes(t, r.w);
            if (k >= skip) {
                char buf[1024];
                int n = b < (int)sizeof buf - 1 ? b : (int)sizeof buf - 1;
                memcpy(buf, t, (size_t)n);
                buf[n] = '\0';
                scr_put(s, r.x, r.y + row++, r.w, (ui_style)o->lines[i].style, buf);
            }
            t += b;
        }
        skip = 0;
    }
}

int out_rows(const ui_output *o, int from, int to, int width)
{
    int rows = 0;
    for (int i = from; i < to && i < o->n; i++)
        rows += line_rows(o->lines[i].text, width);
    return rows;
}

static int output_lines(ui_state *ui, ui_pane *p, int width)
{
    return out_rows(&ui->out, 0, ui->out.n, width);
}

const ui_pane_ops pane_output_ops = { "output", "Output", output_draw, output_lines, NULL };
