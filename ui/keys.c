/* keys.c - key bindings: each key stands for a command line, so a key does
 * exactly what typing its command does (and shows up in the output pane the
 * same way).  The `key` fields of the command tables document them for
 * `keys` and `help`; this file maps the key codes.
 *
 * On the command line, printable keys are bindings only while the line is
 * empty and only for characters no command starts with (digits, - and +);
 * in pane mode (Esc) letters are bindings too. */
#include "ui.h"

#include <string.h>

const char *ui_key_command(ui_state *ui, int key, char *buf, size_t n)
{
    bool empty = !ui->line || !ui->line[0];
    bool free_keys = empty || ui->pane_mode;
    const wmx_program *p = ui->sess.prog;
    if (free_keys && key >= '0' && key <= '9') {
        if (!p || key - '0' >= p->nthreads)
            return NULL;
        snprintf(buf, n, "step %s", p->threads[key - '0'].name);
        return buf;
    }
    if ((key & UI_KEY_ALT) && (key & 0xffff) >= '0' && (key & 0xffff) <= '9') {
        int t = (key & 0xffff) - '0';
        if (!p || t >= p->nthreads)
            return NULL;
        snprintf(buf, n, "flush %s", p->threads[t].name);
        return buf;
    }
    switch (key) {
    case 26: return "undo";                             /* ^Z */
    case 25: return empty ? "redo" : NULL;              /* ^Y (yank otherwise) */
    case UI_KEY_F1: return "keys";
    case UI_KEY_F1 + 1: case UI_KEY_BTAB: return "focus next";
    case UI_KEY_F1 + 2: return "zoom";
    case UI_KEY_F1 + 4: return "restart";
    case UI_KEY_F1 + 5: return "random";
    case UI_KEY_F1 + 6: return "explore";
    case UI_KEY_F1 + 7: return "until";
    }
    if (!free_keys)
        return NULL;
    switch (key) {
    case '-': return "undo";
    case '+': case '=': return "redo";
    }
    if (!ui->pane_mode)
        return NULL;
    switch (key) {
    case 'u': return "undo";
    case 'r': return "redo";
    case 'R': return "restart";
    case 'n': return "random";
    case 'e': return "explore";
    case 'z': return "zoom";
    case '\t': return "focus next";
    case 'q': return "quit";
    case '?': return "keys";
    }
    return NULL;
}

void ui_print_keys(FILE *out)
{
    fprintf(out, "Keys on the command line (digits, - and + only while it is empty):\n");
    const command *tabs[2] = { wmx_repl_commands, wmx_commands };
    int ns[2] = { wmx_nrepl_commands, wmx_ncommands };
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < ns[k]; i++)
            if (tabs[k][i].key)
                fprintf(out, "  %-12s %-10s %s\n", tabs[k][i].key, tabs[k][i].name, tabs[k][i].summary);
    fprintf(out,
            "  %-12s %-10s %s\n"
            "  %-12s %-10s %s\n"
            "  %-12s %-10s %s\n"
            "  %-12s %-10s %s\n"
            "  %-12s %-10s %s\n"
            "  %-12s %-10s %s\n",
            "S-Up S-Down", "", "move in the focused list / scroll the focused pane by a line",
            "F7", "explore", "explore every execution (Ctrl-C stops it)",
            "F8", "until", "find a run to the program's condition",
            "Tab", "", "complete commands, files, threads, variables, models, algorithms",
            "Up/Down ^R", "", "command history (kept in ~/.wmx_history)",
            "Esc", "", "pane mode: keys drive the focused pane");
    fprintf(out, "Pane mode: j/k or arrows scroll (move in lists), PgUp/PgDn, g/G top/bottom,\n"
                 "  Enter replays the selected execution, Tab next pane, z zoom, u/r undo/redo,\n"
                 "  R restart, n random run, e explore, digits step, q quit, : or Esc back.\n"
                 "  In the graph pane: + zoom in, - zoom out, 0 fit, arrows/hjkl pan, n/N nodes,\n"
                 "  Enter goes to the node's step (at the prompt - and + are undo and redo).\n");
}
