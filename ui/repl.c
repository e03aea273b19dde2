/* repl.c - entry of the interactive explorer: options, ~/.wmxrc, loading,
 * running one command line through the shared table, scripted mode.
 *
 * A command line is split into words and handed to cmd_run() with the
 * output streams pointed at memory; what it prints lands in the output pane
 * (and on stdout in scripted mode).  The REPL fills in what batch commands
 * would otherwise need on their command line: `check` and `graph` without a
 * file get the current execution as a trace file, `robust`/`transform` the
 * current program, `explore` the session's algorithm. */
/* fopencookie: the output sink below */
#define _GNU_SOURCE
#include "repl.h"
#include "ui.h"

#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load.h"
#include "trace.h"
#include "util.h"

void (*ui_progress_hook)(ui_state *ui);

/* Splits a line into words (quotes group words); returns argc. */
static int split_words(char *line, char **argv, int max)
{
    int argc = 0;
    char *p = line;
    while (*p && argc < max - 1) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            break;
        char quote = (*p == '\'' || *p == '"') ? *p++ : 0;
        argv[argc++] = p;
        while (*p && (quote ? *p != quote : (*p != ' ' && *p != '\t')))
            p++;
        if (*p)
            *p++ = '\0';
    }
    argv[argc] = NULL;
    return argc;
}

/* Options of the shared commands that take a value (so the value is not
 * mistaken for the FILE argument). */
static bool takes_value(const char *opt)
{
    static const char *const opts[] = { "--model", "--algo", "--format", "-o", "--outcome", "--save",
                                        "--to", "--seed", "--max-traces", "--timeout",
                                        "--max-memory", "--max", "--unroll", "--a-update", "--b-update",
                                        "--first", "--k", "--k-max", "--max-positions", "--rows", NULL };
    for (int i = 0; opts[i]; i++)
        if (strcmp(opt, opts[i]) == 0)
            return true;
    return false;
}

static bool has_positional(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') {
            if (takes_value(argv[i]))
                i++;
            continue;
        }
        return true;
    }
    return false;
}

static bool has_option(int argc, char **argv, const char *opt)
{
    size_t l = strlen(opt);
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], opt, l) == 0 && (argv[i][l] == '\0' || argv[i][l] == '='))
            return true;
    return false;
}

/* Writes the current execution to a temporary trace file; "" on failure. */
static void temp_trace(ui_state *ui, char *path, size_t n)
{
    ui_session *s = &ui->sess;
    snprintf(path, n, "%s/wmx-current-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        path[0] = '\0';
        return;
    }
    trace_data td = { s->prog->file, s->model, s->pos, s->steps, s->events };
    char *text = trace_format(s->m, &td);
    size_t len = strlen(text), off = 0;
    while (off < len) {
        ssize_t w = write(fd, text + off, len - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    close(fd);
    free(text);
}

/* Where a command's standard output goes: the output pane keeps only its
 * last UI_OUT_MAX_LINES lines and the status line its first, so only those
 * are kept; scripted mode gets everything on its echo stream as it comes.
 * The kept text is a chain of fixed blocks that drops whole blocks from its
 * front once the others hold enough lines, and reuses them: an explore
 * prints a line per final state, and a memory stream of them all cost the
 * REPL as much time as the search, a buffer trimmed by moving its lines
 * a fifth of it. */
#define SINK_BLOCK ((size_t)1 << 16)

typedef struct sink_block {
    struct sink_block *next;
    size_t len;
    long lines;             /* newlines in data */
    char data[SINK_BLOCK];
} sink_block;

typedef struct out_sink {
    FILE *echo;
    size_t total;           /* bytes written */
    char first[512];        /* the first line, cut to fit */
    size_t first_len;
    bool first_done;
    sink_block *head, *last, *spare;
    long lines;             /* newlines in the chain */
} out_sink;

static void sink_append(out_sink *k, const char *data, size_t n)
{
    while (n > 0) {
        if (!k->last || k->last->len == SINK_BLOCK) {
            sink_block *b = k->spare;
            if (b)
                k->spare = b->next;
            else
                b = wmx_malloc(sizeof *b);
            b->next = NULL;
            b->len = 0;
            b->lines = 0;
            if (k->last)
                k->last->next = b;
            else
                k->head = b;
            k->last = b;
        }
        sink_block *b = k->last;
        size_t take = SINK_BLOCK - b->len < n ? SINK_BLOCK - b->len : n;
        memcpy(b->data + b->len, data, take);
        for (const char *p = data, *end = data + take; (p = memchr(p, '\n', (size_t)(end - p))); p++)
            b->lines++, k->lines++;
        b->len += take;
        data += take;
        n -= take;
    }
    /* the blocks after the first hold the last UI_OUT_MAX_LINES lines */
    while (k->head != k->last && k->lines - k->head->lines > UI_OUT_MAX_LINES) {
        sink_block *b = k->head;
        k->head = b->next;
        k->lines -= b->lines;
        b->next = k->spare;
        k->spare = b;
    }
}

static void sink_free(out_sink *k)
{
    for (int pass = 0; pass < 2; pass++) {
        sink_block *b = pass ? k->spare : k->head;
        while (b) {
            sink_block *next = b->next;
            free(b);
            b = next;
        }
    }
    k->head = k->last = k->spare = NULL;
}

/* Adds the chain's last UI_OUT_MAX_LINES lines to o, line by line (a line
 * that spans blocks is joined in `line`), and frees the blocks: joining
 * the whole chain first faulted in a fresh megabyte per explore. */
static void sink_finish(out_sink *k, ui_output *o, ui_style st)
{
    const sink_block *end = k->last;
    long lines = k->lines + (end && end->len && end->data[end->len - 1] != '\n');
    long skip = lines > UI_OUT_MAX_LINES ? lines - UI_OUT_MAX_LINES : 0;
    size_t len = 0, cap = 256;
    char *line = wmx_malloc(cap);
    for (const sink_block *b = k->head; b; b = b->next) {
        const char *p = b->data, *stop = b->data + b->len;
        while (p < stop) {
            const char *nl = memchr(p, '\n', (size_t)(stop - p));
            size_t n = (size_t)((nl ? nl : stop) - p);
            if (skip == 0) {
                if (len + n > cap) {
                    cap = 2 * (len + n);
                    line = wmx_realloc(line, cap);
                }
                memcpy(line + len, p, n);
                len += n;
            }
            p += n;
            if (!nl)
                break;          /* the line goes on in the next block */
            p++;
            if (skip > 0) {
                skip--;
            } else {
                out_add_line(o, st, line, len);
                len = 0;
            }
        }
    }
    if (len > 0)
        out_add_line(o, st, line, len);
    free(line);
    out_trim(o);
    sink_free(k);
}

static ssize_t sink_write(void *cookie, const char *data, size_t n)
{
    out_sink *k = cookie;
    if (k->echo)
        fwrite(data, 1, n, k->echo);
    k->total += n;
    for (size_t i = 0; i < n && !k->first_done; i++) {
        if (data[i] == '\n')
            k->first_done = true;
        else if (k->first_len + 1 < sizeof k->first)
            k->first[k->first_len++] = data[i];
    }
    sink_append(k, data, n);
    return (ssize_t)n;
}

int ui_exec_line(ui_state *ui, const char *line, FILE *echo)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", line);
    char *argv[72];
    int argc = split_words(buf, argv, 64);
    if (argc == 0)
        return EXIT_OK;
    char echo_line[4200];
    snprintf(echo_line, sizeof echo_line, "wmx> %s", line);
    ui->out.last_cmd = ui->out.n;
    ui->out.tail = false;
    out_add(&ui->out, ST_ECHO, echo_line);
    ui->panes[PANE_OUTPUT].follow = true;
    if (echo)
        fprintf(echo, "%s\n", echo_line);
    if (strcmp(argv[0], "q") == 0 || strcmp(argv[0], "exit") == 0)
        argv[0] = "quit";

    /* fill in what the REPL knows */
    char tmp[4096] = "", model_arg[8];
    bool play_mode = false;
    if (ui->sess.prog && !has_positional(argc, argv)) {
        bool outcome = strcmp(argv[0], "check") == 0 && has_option(argc, argv, "--outcome");
        if (!outcome && (strcmp(argv[0], "check") == 0 || strcmp(argv[0], "graph") == 0)) {
            temp_trace(ui, tmp, sizeof tmp);
            if (tmp[0]) {
                memmove(argv + 2, argv + 1, (size_t)argc * sizeof *argv);
                argv[1] = tmp;
                argc++;
            }
        } else if (outcome || strcmp(argv[0], "robust") == 0 || strcmp(argv[0], "transform") == 0) {
            argv[argc++] = ui->sess.prog->file;
            argv[argc] = NULL;
        }
    }
    if (ui->game && !ui->pgas && !has_positional(argc, argv) &&
        (strcmp(argv[0], "explore") == 0 || strcmp(argv[0], "run") == 0 || strcmp(argv[0], "robust") == 0 ||
         strcmp(argv[0], "transform") == 0 || strcmp(argv[0], "until") == 0 ||
         strcmp(argv[0], "next-class") == 0)) {
        play_mode = true;   /* these work on programs, and a game is loaded */
    }
    if (strcmp(argv[0], "game") == 0 && ui->game && !has_positional(argc, argv) && argc + 5 < 70) {
        /* the loaded game, in the variant being played */
        memmove(argv + 2, argv + 1, (size_t)argc * sizeof *argv);
        argv[1] = (char *)ui_game_path(ui);
        argc++;
        if (!has_option(argc, argv, "--a-update") && !has_option(argc, argv, "--b-update")) {
            argv[argc++] = "--a-update";
            argv[argc++] = (char *)ui_game_update(ui, 0);
            argv[argc++] = "--b-update";
            argv[argc++] = (char *)ui_game_update(ui, 1);
            argv[argc] = NULL;
        }
    }
    if (strcmp(argv[0], "check") == 0 && tmp[0] && !has_option(argc, argv, "--model")) {
        snprintf(model_arg, sizeof model_arg, "%s", model_name(ui->sess.model));
        argv[argc++] = "--model";
        argv[argc++] = model_arg;
        argv[argc] = NULL;
    }

    char *ebuf = NULL;
    size_t elen = 0;
    out_sink sink = { .echo = echo };
    FILE *out = fopencookie(&sink, "w", (cookie_io_functions_t){ .write = sink_write });
    FILE *err = open_memstream(&ebuf, &elen);
    if (!out || !err) {
        if (out)
            fclose(out);
        if (err)
            fclose(err);
        sink_free(&sink);
        free(ebuf);
        out_add(&ui->out, ST_ERROR, "out of memory");
        return EXIT_USAGE;
    }
    cmd_ctx c = *ui->ctx;
    c.out = out;
    c.err = err;
    c.cancel = ui->interactive ? &ui->cancel : ui->ctx->cancel;
    *c.cancel = 0;
    c.current = ui->pgas ? ui_pgas_program(ui) : ui->sess.prog;
    c.current_model = ui->sess.model;
    c.current_algo = ui->pgas ? 0 : (int)ui->sess.algo + 1;
    c.ui = ui;
    c.trace_label = tmp[0] ? "current execution" : NULL;
    c.explore_before = ui_explore_before;
    c.explore_after = ui_explore_after;
    c.pgas_after_robust = ui_pgas_after_robust;
    int bottom = ui->bottom;
    int rc;
    if (play_mode) {
        fprintf(err, "%s works on programs, and a game is loaded (%s):\n`game` solves it (the winner "
                "and a strategy), `play A` or `play B` plays it against\nthe solver, `load FILE` loads a "
                "program\n", argv[0], ui_game_path(ui));
        rc = EXIT_USAGE;
    } else if (!ui_pgas_run(ui, argc, argv, &c, &rc)) {
        rc = cmd_run(argc, argv, &c);
    }
    *c.cancel = 0;
    /* the executions list gives the bottom area back to the output as soon
     * as another kind of command has something to say */
    static const char *const keep_list[] = { "explore", "select", "focus", "zoom", "scroll", NULL };
    bool keep = false;
    for (int i = 0; keep_list[i]; i++)
        keep |= strcmp(argv[0], keep_list[i]) == 0;
    if (!keep && bottom == PANE_EXECS && ui->bottom == PANE_EXECS) {
        ui->bottom = PANE_OUTPUT;
        if (ui->focus == PANE_EXECS)
            ui->focus = PANE_OUTPUT;
    }
    ui->progress.active = false;
    fclose(out);
    fclose(err);
    size_t olen = sink.total;
    sink.first[sink.first_len] = '\0';
    /* the Graph pane covers the Output pane: what a graph command says goes
     * to the status line; any other command's output brings Output back */
    if (ui->bottom == PANE_GRAPH && (olen || elen)) {
        /* graph commands, and the stepping the graph's keys run, keep it */
        static const char *const graph_cmds[] = { "graph", "export", "zoom", "focus", "scroll", NULL };
        static const char *const nav_cmds[] = { "goto", "undo", "redo", "step", "flush", "restart", NULL };
        bool graphy = false, nav = false;
        for (int i = 0; graph_cmds[i]; i++)
            graphy |= strcmp(argv[0], graph_cmds[i]) == 0;
        for (int i = 0; nav_cmds[i]; i++)
            nav |= strcmp(argv[0], nav_cmds[i]) == 0;
        if (graphy || (nav && elen)) {
            const char *text = elen ? ebuf : sink.first;
            int n = (int)strcspn(text, "\n");
            ui_message(ui, elen != 0, "%.*s", n, text);
        } else if (!nav) {
            ui->bottom = PANE_OUTPUT;
            ui->zoom = false;
            ui->focus = PANE_OUTPUT;
        }
    }
    if (tmp[0])
        unlink(tmp);
    sink_finish(&sink, &ui->out, ST_NORMAL);
    if (elen)
        out_add(&ui->out, ST_ERROR, ebuf);
    if (echo && elen)           /* the standard output went to it as it came */
        fputs(ebuf, echo);
    free(ebuf);
    return rc;
}

/* Is this file a trace (its first word `program`) rather than a program? */
static bool looks_like_trace(const char *text)
{
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (*p == '#') {
            p += strcspn(p, "\n");
            continue;
        }
        return strncmp(p, "program ", 8) == 0 || strncmp(p, "program\t", 8) == 0;
    }
}

static int load_trace(ui_state *ui, const char *path, FILE *out, FILE *errf)
{
    wmx_error err = { 0 };
    char buf[1024];
    trace_file *tf = trace_load(path, &err);
    if (!tf) {
        fprintf(errf, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        return EXIT_USAGE;
    }
    if (!tf->program) {
        fprintf(errf, "%s: the trace names no program\n", path);
        trace_file_free(tf);
        return EXIT_USAGE;
    }
    /* the program path as written, else relative to the trace's directory */
    char prog_path[4096];
    snprintf(prog_path, sizeof prog_path, "%s", tf->program);
    if (access(prog_path, R_OK) != 0 && tf->program[0] != '/' && strrchr(path, '/'))
        snprintf(prog_path, sizeof prog_path, "%.*s/%s", (int)(strrchr(path, '/') - path), path, tf->program);
    wmx_program *p = wmx_load_program(prog_path, &err);
    if (!p) {
        fprintf(errf, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        trace_file_free(tf);
        return EXIT_USAGE;
    }
    ui_session *s = &ui->sess;
    s->model = tf->model;
    if (sess_set_program(s, p, &err) < 0) {
        fprintf(errf, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        trace_file_free(tf);
        return EXIT_USAGE;
    }
    for (int i = 0; i < tf->len; i++) {
        wmx_transition t = tf->steps[i];
        t.thread = ui_find_thread(s->prog, tf->thread_names[i]);
        t.cell = -1;
        if (t.thread >= 0 && t.kind == TR_FLUSH && s->model == MODEL_PSO) {
            if (tf->cell_names[i][0]) {
                t.cell = ui_find_cell(s->prog, tf->cell_names[i]);
            } else {
                const buf_entry *b;
                if (machine_buffer(s->m, sess_state(s), t.thread, &b) > 0)
                    t.cell = b[0].cell;
            }
        }
        if (t.thread < 0 || !machine_is_enabled(s->m, sess_state(s), &t)) {
            fprintf(errf, "%s:%d: %s %s is not possible here (kept the first %d steps)\n", path,
                    tf->lines[i], t.kind == TR_STEP ? "step" : "flush", tf->thread_names[i], i);
            break;
        }
        sess_apply(s, &t);
    }
    fprintf(out, "loaded trace %s: %d step%s of %s under %s\n", path, s->len, s->len == 1 ? "" : "s", prog_path,
            model_name(s->model));
    trace_file_free(tf);
    return EXIT_OK;
}

/* a load stops (clang is killed) when SIGINT comes, as in a script */
static bool load_cancelled(void *ud)
{
    const cmd_ctx *ctx = ud;
    return ctx->cancel && *ctx->cancel;
}

int ui_load(ui_state *ui, const char *path, FILE *out, FILE *errf)
{
    wmx_error err = { 0 };
    char buf[1024];
    size_t len;
    char *text = wmx_read_file(path, &len, &err);
    if (!text) {
        fprintf(errf, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        return EXIT_USAGE;
    }
    bool trace = looks_like_trace(text);
    free(text);
    int rc;
    size_t pl = strlen(path);
    if (pl > 5 && strcmp(path + pl - 5, ".game") == 0) {
        rc = ui_game_load(ui, path, out, errf);     /* play mode */
        if (rc == EXIT_OK)
            ui_pgas_free(ui);
    } else if (trace) {
        ui_pgas_free(ui);
        rc = load_trace(ui, path, out, errf);
    } else {
        wmx_stop stop = { load_cancelled, ui->ctx };
        wmx_program *p = wmx_load_program_c(path, ui->ctx->c_opts, &err, &stop);
        if (!p) {
            fprintf(errf, "%s\n", wmx_error_format(&err, buf, sizeof buf));
            if (ui->sess.prog)
                fprintf(errf, "(still showing %s)\n", ui->sess.prog->file);
            return EXIT_USAGE;
        }
        if (p->pgas_ranks > 0) {
            ui_game_free(ui);                       /* leaves play mode */
            if (ui->focus == PANE_GAME)
                ui->focus = PANE_SOURCE;
            return ui_pgas_load(ui, p, out, errf);
        }
        ui_pgas_free(ui);
        if (sess_set_program(&ui->sess, p, &err) < 0) {
            fprintf(errf, "%s\n", wmx_error_format(&err, buf, sizeof buf));
            return EXIT_USAGE;
        }
        p = ui->sess.prog;
        ui_game_free(ui);                           /* leaves play mode */
        if (ui->focus == PANE_GAME)
            ui->focus = PANE_SOURCE;
        fprintf(out, "loaded %s (%s): %d thread%s, %d variable%s, model %s\n", p->name ? p->name : "?",
                path, p->nthreads, p->nthreads == 1 ? "" : "s", p->nvars, p->nvars == 1 ? "" : "s",
                model_name(ui->sess.model));
        rc = EXIT_OK;
    }
    for (int i = 0; i < PANE_COUNT; i++) {
        ui->panes[i].scroll = 0;
        ui->panes[i].sel = 0;
    }
    if (ui->bottom == PANE_EXECS)
        ui->bottom = PANE_OUTPUT;
    if (ui->focus == PANE_EXECS)
        ui->focus = PANE_SOURCE;
    return rc;
}

int ui_set_theme(ui_state *ui, const char *name, FILE *errf)
{
    wmx_error err = { 0 };
    char buf[1024];
    if (ui_theme_load(&ui->theme, name, &err) < 0) {
        fprintf(errf, "theme: %s\n", wmx_error_format(&err, buf, sizeof buf));
        return -1;
    }
    ui->theme_gen++;
    return 0;
}

static int run_script(ui_state *ui, const char *script)
{
    FILE *f = fopen(script, "r");
    if (!f) {
        fprintf(stderr, "wmx: cannot open script '%s'\n", script);
        return EXIT_USAGE;
    }
    char line[4096];
    int rc = EXIT_OK, lineno = 0;
    while (!ui->quit && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        char copy[4096], *argv[64];
        snprintf(copy, sizeof copy, "%s", line);
        if (split_words(copy, argv, 64) == 0)
            continue;
        if (strcmp(argv[0], "save-screen") != 0 && strcmp(argv[0], "save") != 0)
            ui->message[0] = '\0';     /* as when the command is typed */
        int r = ui_exec_line(ui, line, stdout);
        fflush(stdout);
        if (r == EXIT_USAGE)
            fprintf(stderr, "%s:%d: command failed\n", script, lineno);
        if (r > rc)
            rc = r;
    }
    fclose(f);
    return rc;
}

/* The example opened by `wmx` alone. */
static bool default_example(char *path, size_t n)
{
    char exe[4096];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    const char *rel[] = { "examples/sb.wmx", "../examples/sb.wmx", "../share/wmx/examples/sb.wmx" };
    if (k > 0) {
        exe[k] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            for (int i = 0; i < 3; i++) {
                snprintf(path, n, "%.2000s/%s", exe, rel[i]);
                if (access(path, R_OK) == 0)
                    return true;
            }
        }
    }
    const char *fixed[] = { "examples/sb.wmx", "/usr/local/share/wmx/examples/sb.wmx",
                            "/usr/share/wmx/examples/sb.wmx" };
    for (int i = 0; i < 3; i++)
        if (access(fixed[i], R_OK) == 0) {
            snprintf(path, n, "%s", fixed[i]);
            return true;
        }
    return false;
}

/* ~/.wmxrc: REPL commands run at start-up (`theme light`, `model pso`...). */
static void run_rc(ui_state *ui)
{
    const char *home = getenv("HOME");
    if (!home)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s/.wmxrc", home);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        char copy[1024], *argv[64];
        snprintf(copy, sizeof copy, "%s", line);
        if (split_words(copy, argv, 64) > 0)
            ui_exec_line(ui, line, NULL);
    }
    fclose(f);
}

int repl_main(int argc, char **argv, cmd_ctx *ctx)
{
    const char *script = NULL, *theme = NULL, *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--script") == 0 && i + 1 < argc)
            script = argv[++i];
        else if (strcmp(argv[i], "--theme") == 0 && i + 1 < argc)
            theme = argv[++i];
        else if (strncmp(argv[i], "--theme=", 8) == 0)
            theme = argv[i] + 8;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "wmx: unknown option '%s' (see `wmx --help`)\n", argv[i]);
            return EXIT_USAGE;
        } else if (!file)
            file = argv[i];
        else {
            fprintf(stderr, "wmx: more than one program given ('%s')\n", argv[i]);
            return EXIT_USAGE;
        }
    }
    setlocale(LC_ALL, "");
    ui_state *ui = wmx_malloc(sizeof *ui);
    ui_init(ui, ctx);
    ui->scr.unicode = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    const char *nc = getenv("NO_COLOR");
    ui->no_color = nc && *nc;
    if (!script) {
        if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
            fprintf(stderr, "wmx: the interactive explorer needs a terminal "
                            "(use --script FILE.wmxs, or a batch command)\n");
            ui_free(ui);
            free(ui);
            return EXIT_USAGE;
        }
        run_rc(ui);
    } else {
        const char *c = getenv("COLUMNS"), *l = getenv("LINES");
        int w = c ? atoi(c) : 0, h = l ? atoi(l) : 0;
        scr_resize(&ui->scr, w >= 20 && w <= 1000 ? w : 80, h >= 5 && h <= 1000 ? h : 24);
    }
    int rc = EXIT_OK;
    if (theme) {
        /* through the command, so a bad name is reported where people look */
        char line[300];
        snprintf(line, sizeof line, "theme '%.250s'", theme);
        if (ui_exec_line(ui, line, script ? stdout : NULL) != EXIT_OK && script)
            rc = EXIT_USAGE;
    }
    char example[4096];
    if (!file && default_example(example, sizeof example))
        file = example;
    if (file) {
        char line[4200];
        snprintf(line, sizeof line, "load '%s'", file);
        int r = ui_exec_line(ui, line, script ? stdout : NULL);
        if (r != EXIT_OK && script)
            rc = r;
    }
    if (rc == EXIT_OK || script) {
        int r = script ? run_script(ui, script) : tui_main(ui);
        if (r > rc)
            rc = r;
    }
    ui_free(ui);
    free(ui);
    return rc;
}
