/* theme.c - colour themes: plain-text files in themes/NAME.theme.
 *
 *   # comment
 *   color ELEMENT FOREGROUND BACKGROUND [bold] [underline] [reverse] [dim]
 *
 * ELEMENT is a style name from UI_STYLES (ui.h); colours are `default`, the
 * eight names (black red green yellow blue magenta cyan white), `bright-NAME`
 * or a number 0..255.  Elements a file does not mention keep the built-in
 * default, so a theme can be short. */
#include "ui.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static const char *const style_names[ST_COUNT] = {
#define UI_STYLE_NAME(id, name) name,
    UI_STYLES(UI_STYLE_NAME)
#undef UI_STYLE_NAME
};

const char *ui_style_name(ui_style s)
{
    return s < ST_COUNT ? style_names[s] : "?";
}

ui_style ui_thread_style(int thread)
{
    return (ui_style)(ST_THREAD0 + (thread < 0 ? 0 : thread % UI_NTHREAD_STYLES));
}

ui_style ui_event_style(event_kind k)
{
    switch (k) {
    case EV_READ: return ST_EV_R;
    case EV_WRITE: return ST_EV_W;
    case EV_WRITE_BUF: return ST_EV_WB;
    case EV_WRITE_MEM: return ST_EV_WM;
    case EV_FENCE: return ST_EV_FENCE;
    case EV_RMW: return ST_EV_RMW;
    case EV_AWAIT: return ST_EV_AWAIT;
    }
    return ST_NORMAL;
}

enum { BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE };

void ui_theme_builtin(ui_theme *t)
{
    snprintf(t->name, sizeof t->name, "builtin");
    for (int i = 0; i < ST_COUNT; i++)
        t->st[i] = (ui_style_spec){ -1, -1, 0 };
    t->st[ST_BORDER_FOCUS] = (ui_style_spec){ CYAN, -1, UI_ATTR_BOLD };
    t->st[ST_TITLE] = (ui_style_spec){ -1, -1, UI_ATTR_BOLD };
    t->st[ST_TITLE_FOCUS] = (ui_style_spec){ CYAN, -1, UI_ATTR_BOLD | UI_ATTR_REVERSE };
    t->st[ST_HEADER] = (ui_style_spec){ -1, -1, UI_ATTR_UNDERLINE };
    t->st[ST_STATUS] = (ui_style_spec){ WHITE, BLUE, UI_ATTR_BOLD };
    t->st[ST_PROMPT] = (ui_style_spec){ GREEN, -1, UI_ATTR_BOLD };
    t->st[ST_NEXT] = (ui_style_spec){ YELLOW, -1, UI_ATTR_BOLD | UI_ATTR_REVERSE };
    t->st[ST_DIM] = (ui_style_spec){ -1, -1, UI_ATTR_DIM };
    t->st[ST_SELECTED] = (ui_style_spec){ -1, -1, UI_ATTR_REVERSE };
    t->st[ST_ERROR] = (ui_style_spec){ RED, -1, UI_ATTR_BOLD };
    t->st[ST_OK] = (ui_style_spec){ GREEN, -1, UI_ATTR_BOLD };
    t->st[ST_CHANGED] = (ui_style_spec){ YELLOW, -1, UI_ATTR_BOLD };
    t->st[ST_PROGRESS] = (ui_style_spec){ BLACK, CYAN, 0 };
    t->st[ST_ECHO] = (ui_style_spec){ GREEN, -1, 0 };
    t->st[ST_THREAD0] = (ui_style_spec){ CYAN, -1, UI_ATTR_BOLD };
    t->st[ST_THREAD1] = (ui_style_spec){ MAGENTA, -1, UI_ATTR_BOLD };
    t->st[ST_THREAD2] = (ui_style_spec){ GREEN, -1, UI_ATTR_BOLD };
    t->st[ST_THREAD3] = (ui_style_spec){ YELLOW, -1, UI_ATTR_BOLD };
    t->st[ST_THREAD4] = (ui_style_spec){ BLUE, -1, UI_ATTR_BOLD };
    t->st[ST_THREAD5] = (ui_style_spec){ RED, -1, UI_ATTR_BOLD };
    t->st[ST_EV_R] = (ui_style_spec){ GREEN, -1, 0 };
    t->st[ST_EV_W] = (ui_style_spec){ RED, -1, 0 };
    t->st[ST_EV_WB] = (ui_style_spec){ YELLOW, -1, 0 };
    t->st[ST_EV_WM] = (ui_style_spec){ RED, -1, 0 };
    t->st[ST_EV_FENCE] = (ui_style_spec){ BLUE, -1, UI_ATTR_BOLD };
    t->st[ST_EV_RMW] = (ui_style_spec){ MAGENTA, -1, 0 };
    t->st[ST_EV_AWAIT] = (ui_style_spec){ CYAN, -1, 0 };
    t->st[ST_EDGE_PO] = (ui_style_spec){ -1, -1, 0 };
    t->st[ST_EDGE_RF] = (ui_style_spec){ GREEN, -1, 0 };
    t->st[ST_EDGE_CO] = (ui_style_spec){ RED, -1, 0 };
    t->st[ST_EDGE_FR] = (ui_style_spec){ MAGENTA, -1, 0 };
}

static int parse_color(const char *s, int *out)
{
    static const char *const names[] = { "black", "red", "green", "yellow",
                                         "blue", "magenta", "cyan", "white" };
    if (strcmp(s, "default") == 0) {
        *out = -1;
        return 0;
    }
    int bright = 0;
    if (strncmp(s, "bright-", 7) == 0) {
        bright = 8;
        s += 7;
    }
    for (int i = 0; i < 8; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = i + bright;
            return 0;
        }
    if (bright)
        return -1;
    if (strncmp(s, "color", 5) == 0)
        s += 5;
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0 || v > 255)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_theme(ui_theme *t, const char *text, const char *file, wmx_error *err)
{
    int line = 0;
    const char *p = text;
    while (*p) {
        line++;
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char buf[512];
        if (n >= sizeof buf) {
            wmx_error_set(err, file, line, 1, "line too long");
            return -1;
        }
        memcpy(buf, p, n);
        buf[n] = '\0';
        p += n + (eol ? 1 : 0);
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *w[8];
        int nw = 0;
        for (char *tok = strtok(buf, " \t\r"); tok && nw < 8; tok = strtok(NULL, " \t\r"))
            w[nw++] = tok;
        if (nw == 0)
            continue;
        if (strcmp(w[0], "color") != 0 || nw < 4) {
            wmx_error_set(err, file, line, 1, "expected `color ELEMENT FG BG [ATTR...]`");
            return -1;
        }
        int st = -1;
        for (int i = 0; i < ST_COUNT; i++)
            if (strcmp(style_names[i], w[1]) == 0)
                st = i;
        if (st < 0) {
            wmx_error_set(err, file, line, 1, "unknown element '%s'", w[1]);
            return -1;
        }
        ui_style_spec spec = { -1, -1, 0 };
        if (parse_color(w[2], &spec.fg) < 0 || parse_color(w[3], &spec.bg) < 0) {
            wmx_error_set(err, file, line, 1, "bad colour in '%s %s' (a name, bright-NAME, default or 0..255)",
                          w[2], w[3]);
            return -1;
        }
        for (int i = 4; i < nw; i++) {
            if (strcmp(w[i], "bold") == 0) spec.attr |= UI_ATTR_BOLD;
            else if (strcmp(w[i], "underline") == 0) spec.attr |= UI_ATTR_UNDERLINE;
            else if (strcmp(w[i], "reverse") == 0) spec.attr |= UI_ATTR_REVERSE;
            else if (strcmp(w[i], "dim") == 0) spec.attr |= UI_ATTR_DIM;
            else if (strcmp(w[i], "normal") != 0) {
                wmx_error_set(err, file, line, 1, "unknown attribute '%s'", w[i]);
                return -1;
            }
        }
        t->st[st] = spec;
    }
    return 0;
}

/* The directories searched for NAME.theme, in order. */
static int theme_dirs(char dirs[][PATH_MAX], int max)
{
    int n = 0;
    const char *env = getenv("WMX_THEMES");
    if (env && *env && n < max)
        snprintf(dirs[n++], PATH_MAX, "%s", env);
    char exe[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k > 0) {
        exe[k] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            if (n < max)
                snprintf(dirs[n++], PATH_MAX, "%.*s/themes", PATH_MAX - 8, exe);
            if (n < max)
                snprintf(dirs[n++], PATH_MAX, "%.*s/../themes", PATH_MAX - 11, exe);
            if (n < max)
                snprintf(dirs[n++], PATH_MAX, "%.*s/../share/wmx/themes", PATH_MAX - 21, exe);
        }
    }
    if (n < max)
        snprintf(dirs[n++], PATH_MAX, "themes");
    if (n < max)
        snprintf(dirs[n++], PATH_MAX, "/usr/local/share/wmx/themes");
    if (n < max)
        snprintf(dirs[n++], PATH_MAX, "/usr/share/wmx/themes");
    return n;
}

int ui_theme_load(ui_theme *t, const char *name, wmx_error *err)
{
    char path[PATH_MAX + 80];
    char *text = NULL;
    size_t len;
    size_t nl = strlen(name);
    if (strchr(name, '/') || (nl > 6 && strcmp(name + nl - 6, ".theme") == 0)) {
        snprintf(path, sizeof path, "%s", name);
        text = wmx_read_file(path, &len, err);
        if (!text)
            return -1;
    } else {
        char dirs[8][PATH_MAX];
        int nd = theme_dirs(dirs, 8);
        for (int i = 0; i < nd && !text; i++) {
            snprintf(path, sizeof path, "%.2000s/%.200s.theme", dirs[i], name);
            if (access(path, R_OK) == 0)
                text = wmx_read_file(path, &len, err);
        }
        if (!text) {
            if (strcmp(name, "default") == 0) {     /* always available */
                ui_theme_builtin(t);
                snprintf(t->name, sizeof t->name, "default");
                return 0;
            }
            wmx_error_set(err, name, 0, 0, "no such theme (try `theme` to list them)");
            return -1;
        }
    }
    ui_theme nt;
    ui_theme_builtin(&nt);
    int rc = parse_theme(&nt, text, path, err);
    free(text);
    if (rc < 0)
        return -1;
    const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
    snprintf(nt.name, sizeof nt.name, "%.*s", (int)strcspn(base, "."), base);
    *t = nt;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **ui_theme_list(void)
{
    char dirs[8][PATH_MAX];
    int nd = theme_dirs(dirs, 8);
    int n = 0, cap = 8;
    char **v = wmx_malloc((size_t)cap * sizeof *v);
    for (int i = 0; i < nd; i++) {
        DIR *d = opendir(dirs[i]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t l = strlen(e->d_name);
            if (l <= 6 || strcmp(e->d_name + l - 6, ".theme") != 0)
                continue;
            char *name = wmx_strndup(e->d_name, l - 6);
            bool dup = false;
            for (int j = 0; j < n; j++)
                dup |= strcmp(v[j], name) == 0;
            if (dup) {
                free(name);
                continue;
            }
            if (n + 2 > cap) {
                cap *= 2;
                v = wmx_realloc(v, (size_t)cap * sizeof *v);
            }
            v[n++] = name;
        }
        closedir(d);
    }
    if (n == 0)
        v[n++] = wmx_strdup("default");
    qsort(v, (size_t)n, sizeof *v, cmp_str);
    v[n] = NULL;
    return v;
}
