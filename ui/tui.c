/* tui.c - the curses and readline glue.
 *
 * curses owns the terminal; readline runs through its callback interface
 * with its input (rl_getc_function) fed from curses' getch and its output
 * (rl_redisplay_function) drawn into the prompt line, and with its terminal
 * preparation disabled - so readline never writes to the terminal behind
 * curses' back.  The screen is the virtual screen of layout.c, copied cell by
 * cell (curses sends only what changed).
 *
 * readline's callbacks take no user pointer, hence the one static `ui`. */
#define _XOPEN_SOURCE_EXTENDED 1
#include "ui.h"

#include <curses.h>
#include <readline/history.h>
#include <readline/readline.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static ui_state *ui;
static int applied_theme_gen = -1;
static bool colors;

/* bytes waiting for readline */
static unsigned char rlq[64];
static int rlq_head, rlq_len;
static FILE *devnull;

/* ---- colours ---- */

static attr_t style_attr[ST_COUNT];
static short style_pair[ST_COUNT];

static void apply_theme(void)
{
    if (applied_theme_gen == ui->theme_gen)
        return;
    applied_theme_gen = ui->theme_gen;
    for (int i = 0; i < ST_COUNT; i++) {
        const ui_style_spec *sp = &ui->theme.st[i];
        attr_t a = A_NORMAL;
        if (sp->attr & UI_ATTR_BOLD) a |= A_BOLD;
        if (sp->attr & UI_ATTR_UNDERLINE) a |= A_UNDERLINE;
        if (sp->attr & UI_ATTR_REVERSE) a |= A_REVERSE;
        if (sp->attr & UI_ATTR_DIM) a |= A_DIM;
        style_pair[i] = 0;
        if (colors && (sp->fg >= 0 || sp->bg >= 0)) {
            int fg = sp->fg, bg = sp->bg;
            if (fg >= COLORS)
                fg %= 8;
            if (bg >= COLORS)
                bg %= 8;
            if (i + 1 < COLOR_PAIRS) {
                init_pair((short)(i + 1), (short)fg, (short)bg);
                style_pair[i] = (short)(i + 1);
            }
        }
        if (!colors) {
            /* without colour keep the structure visible */
            if (i == ST_STATUS || i == ST_SELECTED || i == ST_NEXT || i == ST_TITLE_FOCUS || i == ST_PROGRESS)
                a |= A_REVERSE;
        }
        style_attr[i] = a;
    }
}

/* ---- drawing ---- */

static void blit(void)
{
    apply_theme();
    ui_screen *s = &ui->scr;
    for (int y = 0; y < s->h && y < LINES; y++)
        for (int x = 0; x < s->w && x < COLS; x++) {
            const ui_cell *c = &s->cells[y * s->w + x];
            wchar_t wc[2] = { c->ch, 0 };
            cchar_t cc;
            setcchar(&cc, wc, style_attr[c->style], style_pair[c->style], NULL);
            mvadd_wch(y, x, &cc);
        }
    if (ui->pane_mode || ui->progress.active)
        curs_set(0);
    else {
        curs_set(1);
        move(s->h - 1, ui_prompt_cursor(ui));
    }
    refresh();
}

static void redraw(void)
{
    if (ui->scr.w != COLS || ui->scr.h != LINES)
        scr_resize(&ui->scr, COLS, LINES);
    ui->line = rl_line_buffer ? rl_line_buffer : "";
    ui->point = rl_point;
    ui_draw(ui);
    blit();
}

static void on_resize(void)
{
    scr_resize(&ui->scr, COLS, LINES);
    clear();
    redraw();
}

/* ---- readline plumbing ---- */

static int rl_getc_cb(FILE *f)
{
    (void)f;
    if (rlq_len == 0) {
        /* readline wants more of a key sequence: wait for a raw byte */
        int ch;
        do
            ch = getch();
        while (ch == ERR || ch >= KEY_MIN);
        return ch;
    }
    int c = rlq[rlq_head];
    rlq_head = (rlq_head + 1) % (int)sizeof rlq;
    rlq_len--;
    return c;
}

static int rl_input_available_cb(void)
{
    return rlq_len > 0;
}

static void rl_redisplay_cb(void)
{
    redraw();
}

static void rl_prep_noop(int meta)
{
    (void)meta;
}

static void rl_deprep_noop(void)
{
}

static void feed(const char *bytes, int n)
{
    for (int i = 0; i < n; i++) {
        if (rlq_len == (int)sizeof rlq)
            break;
        rlq[(rlq_head + rlq_len) % (int)sizeof rlq] = (unsigned char)bytes[i];
        rlq_len++;
    }
    while (rlq_len > 0 && !ui->quit)
        rl_callback_read_char();
}

static char *history_path(void)
{
    const char *home = getenv("HOME");
    return home ? wmx_asprintf("%s/.wmx_history", home) : NULL;
}


static void on_line(char *line)
{
    if (!line) {                     /* Ctrl-D on an empty line */
        ui->quit = true;
        return;
    }
    if (*line) {
        add_history(line);
        char *h = history_path();
        if (h) {
            append_history(1, h);
            history_truncate_file(h, 1000);
            free(h);
        }
    }
    ui->message[0] = '\0';         /* a status message lasts until the next typed command */
    ui_exec_line(ui, line, NULL);
    free(line);
}

/* ---- completion ---- */

static char **matches;
static int match_i;

static char *match_gen(const char *text, int state)
{
    if (state == 0)
        match_i = 0;
    size_t n = strlen(text);
    while (matches && matches[match_i]) {
        const char *m = matches[match_i++];
        if (strncmp(m, text, n) == 0)
            return strdup(m);
    }
    return NULL;
}

static void free_matches(void)
{
    for (int i = 0; matches && matches[i]; i++)
        free(matches[i]);
    free(matches);
    matches = NULL;
}

static char **complete_cb(const char *text, int start, int end)
{
    bool files = false;
    free_matches();
    matches = ui_complete(ui, rl_line_buffer, start, end, &files);
    if (files) {
        rl_attempted_completion_over = 0;
        return NULL;                 /* readline's file name completion */
    }
    rl_attempted_completion_over = 1;
    /* "P0:r0=" style words should not get a space appended */
    char **r = rl_completion_matches(text, match_gen);
    if (r && r[0] && r[0][0] && r[0][strlen(r[0]) - 1] == '=')
        rl_completion_append_character = '\0';
    return r;
}

static void display_matches_cb(char **m, int num, int max_len)
{
    char line[4096];
    size_t len = 0;
    line[0] = '\0';
    int colw = max_len + 2, per = ui->scr.w / (colw > 0 ? colw : 1);
    if (per < 1)
        per = 1;
    out_add(&ui->out, ST_DIM, "completions:");
    ui->out.last_cmd = ui->out.n - 1;
    for (int i = 1; i <= num; i++) {
        len += (size_t)snprintf(line + len, sizeof line - len, "  %-*s", max_len, m[i]);
        if (i % per == 0 || i == num || len > sizeof line - 200) {
            out_add(&ui->out, ST_NORMAL, line);
            len = 0;
            line[0] = '\0';
        }
    }
    ui->panes[PANE_OUTPUT].follow = true;
    if (ui->bottom != PANE_OUTPUT && ui->scr.w < 140)
        ui->bottom = PANE_OUTPUT;
    redraw();
}

/* ---- keys ---- */

static int map_key(int ch)
{
    switch (ch) {
    case KEY_UP: return UI_KEY_UP;
    case KEY_DOWN: return UI_KEY_DOWN;
    case KEY_LEFT: return UI_KEY_LEFT;
    case KEY_RIGHT: return UI_KEY_RIGHT;
    case KEY_PPAGE: return UI_KEY_PGUP;
    case KEY_NPAGE: return UI_KEY_PGDN;
    case KEY_HOME: return UI_KEY_HOME;
    case KEY_END: return UI_KEY_END;
    case KEY_ENTER: return '\r';
    case KEY_BTAB: return UI_KEY_BTAB;
    case KEY_RESIZE: return UI_KEY_RESIZE;
    }
    if (ch >= KEY_F(1) && ch <= KEY_F(12))
        return UI_KEY_F1 + (ch - KEY_F(1));
    return ch;
}

/* Runs a key's command line (echoed like typed ones); keeps what was typed. */
static void run_binding(const char *cmd)
{
    ui_exec_line(ui, cmd, NULL);
}

static void pane_key(int key)
{
    ui_pane *p = &ui->panes[ui->focus];
    char buf[128];
    const char *cmd;
    if (key == 27 || key == ':' || key == 'i' || key == 3) {
        ui->pane_mode = false;
        return;
    }
    if (p->ops->key && p->ops->key(ui, p, key))
        return;
    int page = p->r.h > 1 ? p->r.h - 1 : 1;
    switch (key) {
    case 'j': case UI_KEY_DOWN: ui_scroll(ui, 1); return;
    case 'k': case UI_KEY_UP: ui_scroll(ui, -1); return;
    case ' ': case UI_KEY_PGDN: ui_scroll(ui, page); return;
    case 'b': case UI_KEY_PGUP: ui_scroll(ui, -page); return;
    case 'g': case UI_KEY_HOME: ui_scroll(ui, -1000000); return;
    case 'G': case UI_KEY_END: ui_scroll(ui, 1000000); return;
    }
    if ((cmd = ui_key_command(ui, key, buf, sizeof buf)))
        run_binding(cmd);
}

static void command_key(int key)
{
    char buf[128];
    const char *cmd = ui_key_command(ui, key, buf, sizeof buf);
    if (cmd) {
        run_binding(cmd);
        return;
    }
    ui_pane *p = &ui->panes[ui->focus];
    int page = p->r.h > 1 ? p->r.h - 1 : 1;
    bool empty = rl_end == 0;
    /* with an empty line, Enter and Shift-arrows act on the focused pane */
    if (empty && (key == '\r' || key == '\n') && p->ops->key && p->ops->key(ui, p, '\r'))
        return;
    if (key == KEY_SR || key == KEY_SF) {
        int k = key == KEY_SR ? UI_KEY_UP : UI_KEY_DOWN;
        if (!(p->ops->key && p->ops->key(ui, p, k)))
            ui_scroll(ui, k == UI_KEY_UP ? -1 : 1);
        return;
    }
    switch (key) {
    case UI_KEY_PGUP: ui_scroll(ui, -page); return;
    case UI_KEY_PGDN: ui_scroll(ui, page); return;
    case UI_KEY_UP: feed("\033[A", 3); return;
    case UI_KEY_DOWN: feed("\033[B", 3); return;
    case UI_KEY_RIGHT: feed("\033[C", 3); return;
    case UI_KEY_LEFT: feed("\033[D", 3); return;
    case UI_KEY_HOME: feed("\001", 1); return;
    case UI_KEY_END: feed("\005", 1); return;
    case KEY_DC: feed("\004", rl_end > 0 ? 1 : 0); return;
    case KEY_BACKSPACE: feed("\177", 1); return;
    case 3:                          /* Ctrl-C: drop the line and any half-typed key sequence */
        feed("\a", 1);              /* readline's own abort (C-g) ends searches, arguments */
        rl_replace_line("", 0);
        rl_point = rl_end = 0;
        out_add(&ui->out, ST_DIM, "(Ctrl-C: line dropped; `quit` or Ctrl-D leaves)");
        ui->panes[PANE_OUTPUT].follow = true;
        return;
    case 12:                         /* Ctrl-L: repaint everything */
        clearok(curscr, TRUE);
        return;
    case '\r': case '\n':
        feed("\r", 1);
        return;
    }
    if ((key & UI_KEY_ALT) && (key & 0xffff) >= '0' && (key & 0xffff) <= '9')
        return;                      /* Alt-digit of a thread that does not exist */
    if (key & UI_KEY_ALT) {
        char b[2] = { 27, (char)(key & 0xff) };
        feed(b, 2);
        return;
    }
    if (key >= 0 && key < 256) {
        char b = (char)key;
        feed(&b, 1);
    }
}

static void handle_key(int ch)
{
    if (ch == ERR)
        return;
    if (ch == KEY_RESIZE) {
        on_resize();
        return;
    }
    int key = map_key(ch);
    if (ch == 27) {
        /* Esc alone toggles pane mode; Esc + key is Alt-key */
        timeout(30);
        int next = getch();
        timeout(-1);
        if (next == ERR) {
            ui->pane_mode = !ui->pane_mode;
            return;
        }
        if (next >= KEY_MIN) {
            handle_key(next);
            return;
        }
        key = UI_KEY_ALT | next;
    }
    if (ui->pane_mode)
        pane_key(key);
    else
        command_key(key);
}

/* Called by the explorer's progress callback: show it, poll for Ctrl-C. */
static void progress_hook(ui_state *u)
{
    (void)u;
    int ch;
    nodelay(stdscr, TRUE);
    while ((ch = getch()) != ERR) {
        if (ch == 3 || ch == 27 || ch == 'q')
            ui->cancel = 1;
        else if (ch == KEY_RESIZE)
            scr_resize(&ui->scr, COLS, LINES), clear();
    }
    nodelay(stdscr, FALSE);
    redraw();
}

int tui_main(ui_state *u)
{
    ui = u;
    ui->interactive = true;
    devnull = fopen("/dev/null", "w");
    if (!initscr()) {
        fprintf(stderr, "wmx: cannot initialise the terminal\n");
        return EXIT_USAGE;
    }
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    colors = has_colors() && !ui->no_color;
    if (colors) {
        start_color();
        use_default_colors();
    }
    applied_theme_gen = -1;
    ui_progress_hook = progress_hook;

    rl_readline_name = "wmx";
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_change_environment = 0;
    rl_prep_term_function = rl_prep_noop;
    rl_deprep_term_function = rl_deprep_noop;
    rl_getc_function = rl_getc_cb;
    rl_input_available_hook = rl_input_available_cb;
    rl_redisplay_function = rl_redisplay_cb;
    rl_outstream = devnull ? devnull : stdout;
    rl_attempted_completion_function = complete_cb;
    rl_completion_display_matches_hook = display_matches_cb;
    rl_bind_key('\t', rl_complete);
    rl_variable_bind("show-all-if-ambiguous", "on");
    rl_variable_bind("bell-style", "none");
    using_history();
    stifle_history(1000);
    char *h = history_path();
    if (h) {
        read_history(h);
        free(h);
    }
    rl_callback_handler_install(ui->prompt, on_line);

    scr_resize(&ui->scr, COLS, LINES);
    redraw();
    while (!ui->quit) {
        int ch = getch();
        handle_key(ch);
        if (!ui->quit)
            redraw();
    }
    rl_callback_handler_remove();
    free_matches();
    ui_progress_hook = NULL;
    /* leave a blank screen with the cursor home: terminals that resize the
     * saved screen on the way out (tmux) then have nothing to scroll back */
    erase();
    move(0, 0);
    refresh();
    endwin();
    if (devnull)
        fclose(devnull);
    ui->interactive = false;
    return EXIT_OK;
}
