/* screen.c - the virtual screen every pane draws into.
 *
 * A grid of (character, style) cells.  tui.c copies it to curses; scripted
 * mode and `save-screen` turn it into text, so a test compares exactly what
 * a person sees.  Text is UTF-8 and decoded here (no locale dependence);
 * every character is assumed one column wide, which holds for the ASCII
 * programs and the few box/arrow glyphs we draw. */
#include "ui.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void scr_resize(ui_screen *s, int w, int h)
{
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
    if (w != s->w || h != s->h || !s->cells) {
        free(s->cells);
        s->w = w;
        s->h = h;
        s->cells = wmx_calloc((size_t)w * (size_t)h, sizeof *s->cells);
    }
    scr_clear(s);
}

void scr_free(ui_screen *s)
{
    free(s->cells);
    s->cells = NULL;
    s->w = s->h = 0;
}

void scr_clear(ui_screen *s)
{
    for (int i = 0; i < s->w * s->h; i++)
        s->cells[i] = (ui_cell){ L' ', ST_NORMAL };
}

static ui_cell *cell_at(ui_screen *s, int x, int y)
{
    if (x < 0 || y < 0 || x >= s->w || y >= s->h)
        return NULL;
    return &s->cells[y * s->w + x];
}

/* Decodes one UTF-8 character; returns bytes used (invalid bytes → '?'). */
static int utf8_next(const char *p, wchar_t *out)
{
    const unsigned char *u = (const unsigned char *)p;
    if (u[0] < 0x80) {
        *out = u[0];
        return 1;
    }
    int n = (u[0] & 0xe0) == 0xc0 ? 2 : (u[0] & 0xf0) == 0xe0 ? 3 : (u[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (n == 0) {
        *out = L'?';
        return 1;
    }
    wchar_t c = u[0] & (0x7f >> n);
    for (int i = 1; i < n; i++) {
        if ((u[i] & 0xc0) != 0x80) {
            *out = L'?';
            return i;
        }
        c = (c << 6) | (u[i] & 0x3f);
    }
    *out = c;
    return n;
}

int scr_put(ui_screen *s, int x, int y, int maxw, ui_style st, const char *text)
{
    int cols = 0;
    if (y < 0 || y >= s->h)
        return 0;
    while (*text && cols < maxw) {
        wchar_t c;
        text += utf8_next(text, &c);
        if (c == L'\t')
            c = L' ';
        if (c < 0x20 || c == 0x7f)
            c = L'?';
        if (c >= 0x80 && !s->unicode)
            c = L'?';
        ui_cell *cell = cell_at(s, x + cols, y);
        if (cell)
            *cell = (ui_cell){ c, (unsigned char)st };
        cols++;
    }
    return cols;
}

int scr_printf(ui_screen *s, int x, int y, int maxw, ui_style st, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return scr_put(s, x, y, maxw, st, buf);
}

void scr_fill(ui_screen *s, int x, int y, int w, int h, wchar_t ch, ui_style st)
{
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            ui_cell *c = cell_at(s, x + i, y + j);
            if (c)
                *c = (ui_cell){ ch, (unsigned char)st };
        }
}

void scr_set_style(ui_screen *s, int x, int y, int w, ui_style st)
{
    for (int i = 0; i < w; i++) {
        ui_cell *c = cell_at(s, x + i, y);
        if (c)
            c->style = (unsigned char)st;
    }
}

const char *scr_glyph(const ui_screen *s, const char *unicode, const char *ascii)
{
    return s->unicode ? unicode : ascii;
}

void scr_box(ui_screen *s, int x, int y, int w, int h, ui_style st, ui_style tst, const char *title)
{
    if (w < 2 || h < 2)
        return;
    wchar_t hz = s->unicode ? L'\x2500' : L'-', vt = s->unicode ? L'\x2502' : L'|';
    wchar_t tl = s->unicode ? L'\x250c' : L'+', tr = s->unicode ? L'\x2510' : L'+';
    wchar_t bl = s->unicode ? L'\x2514' : L'+', br = s->unicode ? L'\x2518' : L'+';
    scr_fill(s, x + 1, y, w - 2, 1, hz, st);
    scr_fill(s, x + 1, y + h - 1, w - 2, 1, hz, st);
    scr_fill(s, x, y + 1, 1, h - 2, vt, st);
    scr_fill(s, x + w - 1, y + 1, 1, h - 2, vt, st);
    scr_fill(s, x, y, 1, 1, tl, st);
    scr_fill(s, x + w - 1, y, 1, 1, tr, st);
    scr_fill(s, x, y + h - 1, 1, 1, bl, st);
    scr_fill(s, x + w - 1, y + h - 1, 1, 1, br, st);
    if (title && w > 6) {
        int n = scr_put(s, x + 2, y, w - 4, tst, " ");
        n += scr_put(s, x + 2 + n, y, w - 5 - n, tst, title);
        scr_put(s, x + 2 + n, y, w - 4 - n, tst, " ");
    }
}

char *scr_text(const ui_screen *s)
{
    size_t cap = (size_t)s->h * ((size_t)s->w * 4 + 1) + 1, len = 0;
    char *out = wmx_malloc(cap);
    for (int y = 0; y < s->h; y++) {
        size_t line_start = len, last = len;
        for (int x = 0; x < s->w; x++) {
            wchar_t c = s->cells[y * s->w + x].ch;
            unsigned long u = (unsigned long)c;
            if (u < 0x80) {
                out[len++] = (char)u;
            } else if (u < 0x800) {
                out[len++] = (char)(0xc0 | (u >> 6));
                out[len++] = (char)(0x80 | (u & 0x3f));
            } else if (u < 0x10000) {
                out[len++] = (char)(0xe0 | (u >> 12));
                out[len++] = (char)(0x80 | ((u >> 6) & 0x3f));
                out[len++] = (char)(0x80 | (u & 0x3f));
            } else {
                out[len++] = (char)(0xf0 | (u >> 18));
                out[len++] = (char)(0x80 | ((u >> 12) & 0x3f));
                out[len++] = (char)(0x80 | ((u >> 6) & 0x3f));
                out[len++] = (char)(0x80 | (u & 0x3f));
            }
            if (c != L' ')
                last = len;
        }
        (void)line_start;
        len = last;
        out[len++] = '\n';
    }
    out[len] = '\0';
    return out;
}
