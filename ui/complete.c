/* complete.c - tab completion from the command tables: command names, then
 * each command's options (read from its synopsis) and argument kinds (its
 * `complete` field: file, model, algo, thread, var, command, pane, theme). */
#include "ui.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

typedef struct list {
    int n, cap;
    char **v;
} list;

static void add(list *l, const char *s)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return;
    if (l->n + 2 > l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = wmx_realloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n++] = wmx_strdup(s);
    l->v[l->n] = NULL;
}

static bool has_kind(const char *kinds, const char *k)
{
    size_t l = strlen(k);
    for (const char *p = kinds; p && (p = strstr(p, k)); p += l)
        if ((p == kinds || p[-1] == ' ') && (p[l] == '\0' || p[l] == ' '))
            return true;
    return false;
}

static void add_kind(ui_state *ui, list *l, const char *kind)
{
    const wmx_program *p = ui->sess.prog;
    if (strcmp(kind, "model") == 0) {
        add(l, "sc"); add(l, "tso"); add(l, "pso");
    } else if (strcmp(kind, "algo") == 0) {
        add(l, "rfsmc"); add(l, "rfstate"); add(l, "stateful"); add(l, "naive"); add(l, "odpor");
    } else if (strcmp(kind, "thread") == 0 && p) {
        for (int t = 0; t < p->nthreads; t++)
            add(l, p->threads[t].name);
    } else if (strcmp(kind, "var") == 0 && p) {
        for (int v = 0; v < p->nvars; v++)
            add(l, p->vars[v].name);
    } else if (strcmp(kind, "pane") == 0) {
        for (int i = 0; i < PANE_COUNT; i++)
            add(l, ui->panes[i].ops->name);
        add(l, "next"); add(l, "prev");
    } else if (strcmp(kind, "theme") == 0) {
        char **names = ui_theme_list();
        for (int i = 0; names[i]; i++) {
            add(l, names[i]);
            free(names[i]);
        }
        free(names);
    } else if (strcmp(kind, "command") == 0) {
        for (int i = 0; i < wmx_ncommands; i++)
            if (wmx_commands[i].flags & CMD_REPL)
                add(l, wmx_commands[i].name);
        for (int i = 0; i < wmx_nrepl_commands; i++)
            add(l, wmx_repl_commands[i].name);
    }
}

char **ui_complete(ui_state *ui, const char *line, int start, int end, bool *files)
{
    list l = { 0 };
    *files = false;
    /* the words before the one being completed */
    char buf[2048];
    snprintf(buf, sizeof buf, "%.*s", start, line);
    char *words[64];
    int nw = 0;
    for (char *w = strtok(buf, " \t"); w && nw < 64; w = strtok(NULL, " \t"))
        words[nw++] = w;
    const char *cur = line + start;
    if (nw == 0) {
        add_kind(ui, &l, "command");
        return l.v;
    }
    const command *c = cmd_find(words[0]);
    if (!c)
        return NULL;
    const char *prev = words[nw - 1];
    if (strcmp(prev, "--model") == 0) {
        add_kind(ui, &l, "model");
    } else if (strcmp(prev, "--algo") == 0) {
        add_kind(ui, &l, "algo");
    } else if (strcmp(prev, "--format") == 0) {
        add(&l, "text"); add(&l, "herd"); add(&l, "json"); add(&l, "dot"); add(&l, "svg");
    } else if (cur[0] == '-') {
        /* options, read from the synopsis */
        const char *s = c->synopsis;
        while ((s = strstr(s, "--"))) {
            size_t n = strcspn(s, " ]|=");
            char opt[64];
            snprintf(opt, sizeof opt, "%.*s", (int)(n < 63 ? n : 63), s);
            add(&l, opt);
            s += n;
        }
    } else if (strcmp(c->name, "save") == 0 && nw == 1) {
        add(&l, "trace"); add(&l, "screen");
    } else if (has_kind(c->complete, "file")) {
        *files = true;
    } else {
        static const char *const kinds[] = { "model", "algo", "thread", "var", "command", "pane", "theme" };
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
            if (has_kind(c->complete, kinds[i]))
                add_kind(ui, &l, kinds[i]);
        if (strcmp(c->name, "until") == 0) {
            add(&l, "error");
            add(&l, "blocked");
            add(&l, "deadlock");
        }
        /* until: registers as THREAD:REG */
        if (strcmp(c->name, "until") == 0 && ui->sess.prog) {
            const wmx_program *p = ui->sess.prog;
            for (int t = 0; t < p->nthreads; t++)
                for (int r = 0; r < p->threads[t].nregs; r++)
                    if (p->threads[t].reg_names[r][0] != '$') {
                        char x[160];
                        snprintf(x, sizeof x, "%s:%s=", p->threads[t].name, p->threads[t].reg_names[r]);
                        add(&l, x);
                    }
        }
    }
    (void)end;
    return l.v;
}
