/* repl_commands.c - commands that exist only at the `wmx>` prompt
 * (they act on the session: load, step, undo, ...).  The shared batch
 * commands are in src/commands.c; cmd_find() searches both tables, and the
 * `key` field of each entry is what keys.c binds and `keys` lists. */
#include "cli.h"
#include "ui.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cond.h"
#include "graph.h"
#include "load.h"
#include "report.h"
#include "rfsmc.h"
#include "trace.h"
#include "util.h"

#define UI(ctx) ((ui_state *)(ctx)->ui)

/* Every session command needs a program. */
static ui_session *need_program(cmd_ctx *ctx)
{
    ui_session *s = &UI(ctx)->sess;
    if (!s->prog) {
        fprintf(ctx->err, "no program loaded (use `load FILE`)\n");
        return NULL;
    }
    return s;
}

static int parse_int(cmd_ctx *ctx, const char *what, const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *s == '\0' || *end != '\0') {
        fprintf(ctx->err, "%s: expected a number, got '%s'\n", what, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* Prints the event of the step just taken ("  3  P0: r0 = y   r y=0"). */
static void print_step(cmd_ctx *ctx, const ui_session *s, int i)
{
    char line[512];
    machine_describe(s->m, &s->events[i], line, sizeof line);
    fprintf(ctx->out, "  %3d  %s\n", i + 1, line);
}

/* Tells why nothing more can happen, once the execution is final. */
static void print_final(cmd_ctx *ctx, const ui_session *s)
{
    const void *st = sess_state(s);
    if (!machine_is_final(s->m, st))
        return;
    const wmx_program *p = s->prog;
    fprintf(ctx->out, "final state:");
    bool any = false;
    for (int t = 0; t < p->nthreads; t++) {
        const ir_thread *th = &p->threads[t];
        const wmx_val *regs = machine_regs(s->m, st, t);
        for (int r = 0; r < th->nregs; r++)
            if (th->reg_names[r][0] != '$') {
                fprintf(ctx->out, " %s:%s=%lld;", th->name, th->reg_names[r], (long long)regs[r]);
                any = true;
            }
    }
    if (!any) {
        /* no registers to show (a C program's locals are hidden): memory */
        const wmx_val *mem = machine_memory(s->m, st);
        int shown = p->ncells < 32 ? p->ncells : 32;
        for (int c = 0; c < shown; c++) {
            char name[128];
            fprintf(ctx->out, " [%s]=%lld;", ir_cell_name(p, c, name, sizeof name), (long long)mem[c]);
        }
        if (p->ncells > shown)
            fprintf(ctx->out, " ... (%d more in the memory pane)", p->ncells - shown);
    }
    fprintf(ctx->out, "\n");
    for (int t = 0; t < p->nthreads; t++) {
        int ei = machine_error_instr(s->m, st, t);
        explore_wait w;
        if (machine_status(s->m, st, t) == TS_ERROR && ei >= 0) {
            const ir_instr *in = &p->threads[t].instrs[ei];
            fprintf(ctx->out, "%s:%d:%d: assertion failed in %s: %s\n", ir_loc_file(p, in->loc), in->loc.line,
                    in->loc.col, p->threads[t].name, in->text ? in->text : "");
        } else if (explore_wait_at(p, s->m, st, t, &w)) {
            char line[1024];
            report_wait(p, &w, line, sizeof line);
            fprintf(ctx->out, "%s\n", line);
        }
    }
    if (p->quant != Q_NONE) {
        const wmx_val **regs = wmx_malloc((size_t)p->nthreads * sizeof *regs);
        for (int t = 0; t < p->nthreads; t++)
            regs[t] = machine_regs(s->m, st, t);
        char cond[1024];
        report_condition(p, cond, sizeof cond);
        fprintf(ctx->out, "%s: proposition %s\n", cond,
                ir_cond_eval(p, p->cond_root, regs, machine_memory(s->m, st)) ? "holds" : "does not hold");
        free(regs);
    }
}

/* Prints the timeline's steps from `from` on and the final state. */
static void print_timeline(cmd_ctx *ctx, const ui_session *s, int from)
{
    for (int i = from; i < s->len; i++)
        print_step(ctx, s, i);
    print_final(ctx, s);
}

static void stepped(ui_state *ui)
{
    ui->panes[PANE_EVENTS].follow = true;
    ui->panes[PANE_SOURCE].follow = true;
}

/* ---- load / save ---- */

static int cmd_load(int argc, char **argv, cmd_ctx *ctx)
{
    ui_state *ui = UI(ctx);
    cfront_opts o = { 0 };
    char why[256];
    argc = cfront_take_args(argc, argv, &o, why, sizeof why);
    if (argc < 0) {
        fprintf(ctx->err, "load: %s\n", why);
        return EXIT_USAGE;
    }
    if (argc != 2) {
        fprintf(ctx->err, "usage: load FILE [-DNAME=V] [-I DIR] [--unroll N] (a program or a trace)\n");
        return EXIT_USAGE;
    }
    if (o.nflags > 0 || o.unroll_given) {
        /* copies: the words of this line are gone after the command */
        for (int i = 0; i < o.nflags; i++) {
            snprintf(ui->c_flags[i], sizeof ui->c_flags[i], "%s", o.flags[i]);
            o.flags[i] = ui->c_flags[i];
        }
        ui->c_opts = o;
        ui->ctx->c_opts = &ui->c_opts;
    }
    return ui_load(ui, argv[1], ctx->out, ctx->err);
}

static int save_trace(cmd_ctx *ctx, const char *path)
{
    ui_session *s = need_program(ctx);
    if (!s)
        return EXIT_USAGE;
    trace_data td = { s->prog->file, s->model, s->pos, s->steps, s->events };
    wmx_error err = { 0 };
    if (trace_save(path, s->m, &td, &err) < 0) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        return EXIT_USAGE;
    }
    fprintf(ctx->out, "saved the %d step%s of the current execution to %s\n", s->pos, s->pos == 1 ? "" : "s", path);
    return EXIT_OK;
}

static int save_screen(cmd_ctx *ctx, const char *path)
{
    ui_state *ui = UI(ctx);
    /* the screen as it will look once this command is done */
    ui_draw(ui);
    char *text = scr_text(&ui->scr);
    wmx_error err = { 0 };
    int rc = wmx_write_file_atomic(path, text, strlen(text), &err);
    free(text);
    if (rc < 0) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        return EXIT_USAGE;
    }
    fprintf(ctx->out, "screen (%dx%d) saved to %s\n", ui->scr.w, ui->scr.h, path);
    return EXIT_OK;
}

static int cmd_save(int argc, char **argv, cmd_ctx *ctx)
{
    if (argc == 3 && strcmp(argv[1], "trace") == 0)
        return save_trace(ctx, argv[2]);
    if (argc == 3 && strcmp(argv[1], "screen") == 0)
        return save_screen(ctx, argv[2]);
    /* `save FILE`: the trace is what people mean */
    if (argc == 2 && strcmp(argv[1], "trace") != 0 && strcmp(argv[1], "screen") != 0)
        return save_trace(ctx, argv[1]);
    fprintf(ctx->err, "usage: save [trace] FILE | save screen FILE\n");
    return EXIT_USAGE;
}

static int cmd_save_screen(int argc, char **argv, cmd_ctx *ctx)
{
    if (argc != 2) {
        fprintf(ctx->err, "usage: save-screen FILE\n");
        return EXIT_USAGE;
    }
    return save_screen(ctx, argv[1]);
}

/* ---- stepping ---- */

static void no_thread(cmd_ctx *ctx, const ui_session *s, const char *name)
{
    fprintf(ctx->err, "no thread '%s': the threads are", name);
    for (int t = 0; t < s->prog->nthreads; t++)
        fprintf(ctx->err, "%s %s (or %d)", t ? "," : "", s->prog->threads[t].name, t);
    fprintf(ctx->err, "\n");
}

static int cmd_step(int argc, char **argv, cmd_ctx *ctx)
{
    ui_session *s = need_program(ctx);
    if (!s)
        return EXIT_USAGE;
    if (argc != 2) {
        fprintf(ctx->err, "usage: step THREAD (a name like P0 or a number)\n");
        return EXIT_USAGE;
    }
    int t = ui_find_thread(s->prog, argv[1]);
    if (t < 0) {
        no_thread(ctx, s, argv[1]);
        return EXIT_USAGE;
    }
    wmx_transition tr = { TR_STEP, t, -1 };
    if (!machine_is_enabled(s->m, sess_state(s), &tr)) {
        const char *why = ui_thread_state(s, sess_state(s), t);
        fprintf(ctx->err, "%s cannot step: it is %s%s\n", s->prog->threads[t].name, why,
                strcmp(why, "waiting") == 0 ? " (a fence or await needs its buffer drained / a value)" : "");
        return EXIT_USAGE;
    }
    sess_apply(s, &tr);
    print_step(ctx, s, s->pos - 1);
    print_final(ctx, s);
    stepped(UI(ctx));
    return EXIT_OK;
}

static int cmd_flush(int argc, char **argv, cmd_ctx *ctx)
{
    ui_session *s = need_program(ctx);
    if (!s)
        return EXIT_USAGE;
    if (argc < 2 || argc > 3) {
        fprintf(ctx->err, "usage: flush THREAD [VARIABLE]\n");
        return EXIT_USAGE;
    }
    if (s->model == MODEL_SC) {
        fprintf(ctx->err, "there are no store buffers under SC (try `model tso`)\n");
        return EXIT_USAGE;
    }
    int t = ui_find_thread(s->prog, argv[1]);
    if (t < 0) {
        no_thread(ctx, s, argv[1]);
        return EXIT_USAGE;
    }
    const buf_entry *b;
    int n = machine_buffer(s->m, sess_state(s), t, &b);
    if (n == 0) {
        fprintf(ctx->err, "%s's store buffer is empty\n", s->prog->threads[t].name);
        return EXIT_USAGE;
    }
    int cell = -1;
    if (s->model == MODEL_PSO) {
        cell = b[0].cell;           /* default: the oldest entry's variable */
        if (argc == 3) {
            cell = ui_find_cell(s->prog, argv[2]);
            if (cell < 0) {
                fprintf(ctx->err, "no variable '%s'\n", argv[2]);
                return EXIT_USAGE;
            }
        }
    } else if (argc == 3) {
        int c = ui_find_cell(s->prog, argv[2]);
        if (c != b[0].cell) {
            char name[128];
            fprintf(ctx->err, "under TSO only the oldest entry (%s) can be flushed\n",
                    ir_cell_name(s->prog, b[0].cell, name, sizeof name));
            return EXIT_USAGE;
        }
    }
    wmx_transition tr = { TR_FLUSH, t, cell };
    if (!machine_is_enabled(s->m, sess_state(s), &tr)) {
        fprintf(ctx->err, "%s has no buffered store to %s\n", s->prog->threads[t].name, argv[2]);
        return EXIT_USAGE;
    }
    sess_apply(s, &tr);
    print_step(ctx, s, s->pos - 1);
    print_final(ctx, s);
    stepped(UI(ctx));
    return EXIT_OK;
}

static int move_to(cmd_ctx *ctx, ui_session *s, long pos)
{
    if (pos < 0)
        pos = 0;
    if (pos > s->len)
        pos = s->len;
    s->pos = (int)pos;
    fprintf(ctx->out, "at step %d of %d\n", s->pos, s->len);
    stepped(UI(ctx));
    return EXIT_OK;
}

static int undo_redo(int argc, char **argv, cmd_ctx *ctx, int dir)
{
    if (UI(ctx)->game) {            /* play mode: one user move at a time */
        long n = 1;
        if (argc > 2 || (argc == 2 && parse_int(ctx, argv[0], argv[1], &n) < 0))
            return EXIT_USAGE;
        return ui_game_undo(UI(ctx), dir, n, ctx->out, ctx->err);
    }
    ui_session *s = need_program(ctx);
    if (!s)
        return EXIT_USAGE;
    long n = 1;
    if (argc > 2 || (argc == 2 && parse_int(ctx, argv[0], argv[1], &n) < 0)) {
        fprintf(ctx->err, "usage: %s [N]\n", argv[0]);
        return EXIT_USAGE;
    }
    if (dir < 0 && s->pos == 0) {
        fprintf(ctx->err, "nothing to undo: at the start\n");
        return EXIT_USAGE;
    }
    if (dir > 0 && s->pos == s->len) {
        fprintf(ctx->err, "nothing to redo\n");
        return EXIT_USAGE;
    }
    if (dir > 0)
        for (long i = 0; i < n && s->pos + i < s->len; i++)
            print_step(ctx, s, (int)(s->pos + i));
    return move_to(ctx, s, s->pos + dir * n);
}

static int cmd_undo(int argc, char **argv, cmd_ctx *ctx) { return undo_redo(argc, argv, ctx, -1); }
static int cmd_redo(int argc, char **argv, cmd_ctx *ctx) { return undo_redo(argc, argv, ctx, 1); }

static int cmd_restart(int argc, char **argv, cmd_ctx *ctx)
{
    ui_session *s = need_program(ctx);
    if (!s)
        return EXIT_USAGE;
    return move_to(ctx, s, 0);
}

static int cmd_goto(int argc, char **argv, cmd_ctx *ctx)
{
    ui_session *s = need_program(ctx);
    long n;
    if (!s)
        return EXIT_USAGE;
    if (argc != 2 || parse_int(ctx, "goto", argv[1], &n) < 0) {
        fprintf(ctx->err, "usage: goto N (0 = the start, %d = the end of the timeline)\n", s->len);
        return EXIT_USAGE;
    }
    if (n < 0 || n > s->len) {
        fprintf(ctx->err, "goto: step %ld is outside the timeline (0..%d)\n", n, s->len);
        return EXIT_USAGE;
    }
    return move_to(ctx, s, n);
}

static uint64_t rng_next(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 2685821657736338717ULL;
}

static int cmd_random(int argc, char **argv, cmd_ctx *ctx)
{
    UI(ctx)->out.tail = true;    /* the final state and verdict come last */
    ui_session *s = need_program(ctx);
    if (!s)
        return EXIT_USAGE;
    long seed = (long)(time(NULL) % 100000);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            if (parse_int(ctx, "--seed", argv[++i], &seed) < 0)
                return EXIT_USAGE;
        } else if (strncmp(argv[i], "--seed=", 7) == 0) {
            if (parse_int(ctx, "--seed", argv[i] + 7, &seed) < 0)
                return EXIT_USAGE;
        } else {
            fprintf(ctx->err, "usage: random [--seed N]\n");
            return EXIT_USAGE;
        }
    }
    uint64_t x = (uint64_t)seed * 0x9E3779B97F4A7C15ULL + 1;
    wmx_transition *en = wmx_malloc((size_t)machine_max_enabled(s->m) * sizeof *en);
    int start = s->pos;
    fprintf(ctx->out, "random run from step %d, seed %ld\n", start, seed);
    for (;;) {
        if (ctx->cancel && *ctx->cancel)
            break;
        int n = machine_enabled(s->m, sess_state(s), en);
        if (n == 0)
            break;
        wmx_transition tr = en[rng_next(&x) % (uint64_t)n];
        sess_apply(s, &tr);
        print_step(ctx, s, s->pos - 1);
    }
    free(en);
    s->len = s->pos;
    print_final(ctx, s);
    stepped(UI(ctx));
    return EXIT_OK;
}

/* ---- until: explore, stop at the first trace that gets there, replay ---- */

typedef struct until_search {
    ui_state *ui;
    const ir_cond *cond;        /* the typed condition's nodes (core/cond.c), */
    int cond_root;              /* NULL: the program's own proposition */
    enum { WANT_COND, WANT_ERROR, WANT_BLOCKED, WANT_DEADLOCK } want;
    const wmx_transition *prefix;
    int prefix_len;
    volatile sig_atomic_t *cancel;
    bool found;
    int len;
    wmx_transition *steps;
} until_search;

static bool until_matches(until_search *u, const explore_trace *tr)
{
    if (tr->len < u->prefix_len)
        return false;
    for (int i = 0; i < u->prefix_len; i++) {
        const wmx_transition *a = &tr->steps[i], *b = &u->prefix[i];
        if (a->kind != b->kind || a->thread != b->thread || a->cell != b->cell)
            return false;
    }
    const ui_session *s = &u->ui->sess;
    if (u->want == WANT_ERROR)
        return tr->error;
    if (u->want == WANT_BLOCKED || u->want == WANT_DEADLOCK) {
        if (!tr->blocked)
            return false;
        if (u->want == WANT_BLOCKED)
            return true;
        /* a deadlock: every thread that did not finish waits at an await
         * or a lock (none stopped by an assumption or a loop bound) */
        for (int t = 0; t < s->prog->nthreads; t++)
            if (machine_status(s->m, tr->final_state, t) == TS_BLOCKED)
                return false;
        return true;
    }
    const wmx_program *p = s->prog;
    const wmx_val **regs = wmx_malloc((size_t)p->nthreads * sizeof *regs);
    for (int t = 0; t < p->nthreads; t++)
        regs[t] = machine_regs(s->m, tr->final_state, t);
    bool ok = cond_eval(p, u->cond ? u->cond : p->conds, u->cond ? u->cond_root : p->cond_root,
                        regs, machine_memory(s->m, tr->final_state));
    free(regs);
    return ok;
}

static void until_trace(const explore_trace *tr, void *ud)
{
    until_search *u = ud;
    if (u->found || !until_matches(u, tr))
        return;
    u->found = true;
    u->len = tr->len;
    u->steps = wmx_malloc((size_t)(tr->len ? tr->len : 1) * sizeof *u->steps);
    if (tr->len)                /* a trace of no steps may come without a buffer */
        memcpy(u->steps, tr->steps, (size_t)tr->len * sizeof *u->steps);
    *u->cancel = 1;             /* stop the explorer: we have our path */
}

static void ui_progress_cb(const explore_progress *pr, void *ud)
{
    ui_state *ui = ud;
    ui->progress.traces = pr->traces;
    ui->progress.blocked = pr->blocked;
    ui->progress.events = pr->events;
    ui->progress.depth = pr->depth;
    ui->progress.elapsed = pr->elapsed_s;
    ui->progress.tick++;
    /* the explorer reports ten times a second; drawing (and polling for
     * Ctrl-C) four times a second keeps the screen live and the search fast */
    if (ui_progress_hook && pr->elapsed_s - ui->progress.drawn >= 0.25) {
        ui->progress.drawn = pr->elapsed_s;
        ui_progress_hook(ui);
    }
}

static void until_progress(const explore_progress *pr, void *ud)
{
    ui_progress_cb(pr, ((until_search *)ud)->ui);
}

static int cmd_until(int argc, char **argv, cmd_ctx *ctx)
{
    UI(ctx)->out.tail = true;    /* the final state and verdict come last */
    ui_state *ui = UI(ctx);
    ui_session *s = need_program(ctx);
    if (!s)
        return EXIT_USAGE;
    explore_algo algo = ALGO_RFSTATE;
    char text[1024] = "";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--algo") == 0 && i + 1 < argc) {
            if (algo_parse(argv[++i], &algo) < 0) {
                fprintf(ctx->err, "unknown algorithm '%s' (rfsmc, rfstate, stateful, naive or odpor)\n", argv[i]);
                return EXIT_USAGE;
            }
            continue;
        }
        size_t l = strlen(text);
        snprintf(text + l, sizeof text - l, "%s%s", l ? " " : "", argv[i]);
    }
    until_search u = { ui, NULL, -1, WANT_COND, s->steps, s->pos, ctx->cancel, false, 0, NULL };
    ir_cond *cond = NULL;
    int ncond = 0, cap_cond = 0;
    if (strcmp(text, "error") == 0 || strcmp(text, "assert") == 0 || strcmp(text, "assertion") == 0) {
        u.want = WANT_ERROR;
    } else if (strcmp(text, "blocked") == 0) {
        u.want = WANT_BLOCKED;
    } else if (strcmp(text, "deadlock") == 0) {
        u.want = WANT_DEADLOCK;
    } else if (text[0]) {
        cond_names names = { s->prog, NULL, NULL, NULL };
        cond_error ce;
        u.cond_root = cond_parse_string(text, &names, (cond_out){ &cond, &ncond, &cap_cond }, &ce);
        if (u.cond_root < 0) {
            fprintf(ctx->err, "until: column %zu: %s\n", ce.off + 1, ce.msg);
            free(cond);
            return EXIT_USAGE;
        }
        u.cond = cond;
    } else if (s->prog->quant == Q_NONE) {
        fprintf(ctx->err, "until: the program has no condition; give one (until P0:r0=1 /\\ x=2), or `until error`, `until blocked`, `until deadlock`\n");
        return EXIT_USAGE;
    }
    char what[1100];
    if (u.want == WANT_ERROR)
        snprintf(what, sizeof what, "an assertion failure");
    else if (u.want == WANT_BLOCKED)
        snprintf(what, sizeof what, "a blocked execution");
    else if (u.want == WANT_DEADLOCK)
        snprintf(what, sizeof what, "a deadlock");
    else if (!text[0])
        report_condition(s->prog, what, sizeof what);
    else
        snprintf(what, sizeof what, "%s", text);
    /* first from the current state, then (if that fails) from the start */
    int rc = EXIT_OK;
    for (int pass = 0; pass < 2 && !u.found; pass++) {
        if (pass == 1) {
            if (s->pos == 0 || *ctx->cancel)
                break;
            u.prefix_len = 0;
        }
        explore_opts o;
        explore_opts_init(&o);
        o.model = s->model;
        o.algo = algo;
        o.cancel = ctx->cancel;
        o.on_trace = until_trace;
        o.progress = until_progress;
        o.ud = &u;
        explore_result res;
        wmx_error err = { 0 };
        ui->progress = (ui_progress){ .active = true, .what = "searching" };
        *ctx->cancel = 0;
        int r = explore_run(s->prog, &o, &res, &err);
        ui->progress.active = false;
        bool interrupted = !u.found && *ctx->cancel;
        *ctx->cancel = 0;
        if (r < 0) {
            char buf[1024];
            fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
            explore_result_free(&res);
            rc = EXIT_USAGE;
            break;
        }
        if (!u.found && interrupted)
            fprintf(ctx->out, "interrupted after %ld traces\n", res.traces);
        else if (!u.found && pass == 0 && s->pos > 0)
            fprintf(ctx->out, "%s is not reachable from the current state (step %d); searching from the start\n",
                    what, s->pos);
        else if (!u.found)
            fprintf(ctx->out, "no execution reaches %s under %s (%ld traces explored%s)\n", what,
                    model_name(s->model), res.traces, res.complete ? "" : ", PARTIAL");
        explore_result_free(&res);
        if (interrupted) {
            rc = EXIT_LIMIT;
            break;
        }
    }
    free(cond);
    if (!u.found)
        return rc == EXIT_OK ? EXIT_FAIL : rc;
    int from = u.prefix_len;
    sess_replay(s, u.steps, u.len, u.len, NULL);
    free(u.steps);
    fprintf(ctx->out, "reached %s in %d step%s%s:\n", what, s->len, s->len == 1 ? "" : "s",
            from > 0 ? " (continuing from the current state)" : "");
    print_timeline(ctx, s, from);
    fprintf(ctx->out, "(undo, redo and goto N step through it)\n");
    stepped(ui);
    return EXIT_OK;
}

/* ---- explore's executions list (hooks called by the shared `explore`) ---- */

static unsigned class_hash(const wmx_val *vals, int n, bool blocked, bool error, bool deadlock)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ (uint64_t)(blocked | error << 1 | deadlock << 2);
    for (int i = 0; i < n; i++)
        h = (h ^ (uint64_t)vals[i]) * 0xff51afd7ed558ccdu;
    h ^= h >> 33;               /* mix the high bits into the low ones the index uses */
    return (unsigned)h;
}

/* Puts class number ci, of hash h, into the index (which has room). */
static void index_put(ui_exec_list *l, unsigned h, int ci)
{
    unsigned mask = (unsigned)l->index_cap - 1;
    unsigned i = h & mask;
    while (l->index[i].ci)
        i = (i + 1) & mask;
    l->index[i] = (struct ui_exec_slot){ h, ci + 1 };
}

/* Keeps the index at most half full, so probes stay short. */
static void index_grow(ui_exec_list *l)
{
    if (2 * (l->n + 1) <= l->index_cap)
        return;
    struct ui_exec_slot *old = l->index;
    int old_cap = l->index_cap;
    l->index_cap = l->index_cap ? 2 * l->index_cap : 64;
    l->index = wmx_calloc((size_t)l->index_cap, sizeof *l->index);
    for (int i = 0; i < old_cap; i++)
        if (old[i].ci)
            index_put(l, old[i].hash, old[i].ci - 1);
    free(old);
}

/* The filter's word for hash h (its low bits) and two bits in it (from
 * its high bits, which the index's probe does not start from). */
static uint64_t *filter_word(const ui_exec_list *l, unsigned h, uint64_t *bits)
{
    *bits = (uint64_t)1 << (h >> 20 & 63) | (uint64_t)1 << (h >> 26 & 63);
    return &l->filter[h % UI_EXEC_FILTER_WORDS];
}

static ui_exec_class *class_find(ui_exec_list *l, unsigned h, const wmx_val *vals, int n, bool blocked,
                                 bool error, bool deadlock)
{
    if (!l->index_cap)
        return NULL;
    uint64_t bits, *w = filter_word(l, h, &bits);
    if ((*w & bits) != bits)
        return NULL;
    unsigned mask = (unsigned)l->index_cap - 1;
    for (unsigned i = h & mask; l->index[i].ci; i = (i + 1) & mask) {
        if (l->index[i].hash != h)
            continue;
        ui_exec_class *c = &l->v[l->index[i].ci - 1];
        if (c->blocked == blocked && c->error == error && c->deadlock == deadlock &&
            memcmp(c->vals, vals, (size_t)n * sizeof *vals) == 0)
            return c;
    }
    return NULL;
}

/* Copies tr's steps into t, packed when every step fits (see ui_trace). */
static void trace_keep(ui_exec_list *l, ui_trace *t, const explore_trace *tr)
{
    t->len = tr->len;
    uint32_t *packed = sess_exec_alloc(l, (size_t)(tr->len ? tr->len : 1) * sizeof *packed);
    int i;
    for (i = 0; i < tr->len; i++) {
        const wmx_transition *x = &tr->steps[i];
        if (x->thread < 0 || x->thread > 0x1ff || x->cell < -1 || x->cell >= 0x3fffff)
            break;
        packed[i] = (uint32_t)(x->kind == TR_FLUSH) | (uint32_t)x->thread << 1 | (uint32_t)(x->cell + 1) << 10;
    }
    t->wide = i < tr->len;
    if (!t->wide) {
        t->steps = packed;      /* the packed copy is left in the pool */
        return;
    }
    t->steps = sess_exec_alloc(l, (size_t)tr->len * sizeof *tr->steps);
    memcpy(t->steps, tr->steps, (size_t)tr->len * sizeof *tr->steps);
}

static void explore_trace_cb(const explore_trace *tr, void *ud)
{
    ui_state *ui = ud;
    ui_exec_list *l = &ui->sess.execs;
    const wmx_program *p = ui->sess.prog;
    wmx_val vals[64];
    int n = l->nobserved < 64 ? l->nobserved : 64;
    for (int i = 0; i < n; i++) {
        const cond_lhs *o = &l->observed[i];
        vals[i] = o->thread >= 0 ? machine_regs(l->m, tr->final_state, o->thread)[o->reg]
                                 : machine_memory(l->m, tr->final_state)[o->cell];
    }
    bool deadlock = false;
    if (tr->blocked) {
        int waiting = 0, stopped = 0;
        for (int t = 0; t < p->nthreads; t++) {
            thread_status st = machine_status(l->m, tr->final_state, t);
            waiting += st == TS_RUNNING;
            stopped += st == TS_BLOCKED;
        }
        deadlock = waiting >= 2 && stopped == 0;
    }
    unsigned h = class_hash(vals, n, tr->blocked, tr->error, deadlock);
    ui_exec_class *c = class_find(l, h, vals, n, tr->blocked, tr->error, deadlock);
    if (!c) {
        if (l->n >= UI_EXEC_LIST_CAP) {
            if (!tr->ending) {          /* an ending is no trace of its own */
                l->unlisted++;
                l->traces++;
            }
            return;
        }
        index_grow(l);
        if (l->n == l->cap) {
            l->cap = l->cap ? 2 * l->cap : 16;
            l->v = wmx_realloc(l->v, (size_t)l->cap * sizeof *l->v);
        }
        c = &l->v[l->n++];
        memset(c, 0, sizeof *c);
        c->vals = sess_exec_alloc(l, (size_t)(n ? n : 1) * sizeof *vals);
        memcpy(c->vals, vals, (size_t)n * sizeof *vals);
        c->blocked = tr->blocked;
        c->deadlock = deadlock;
        c->error = tr->error;
        index_put(l, h, l->n - 1);
        if (!l->filter)
            l->filter = wmx_calloc(UI_EXEC_FILTER_WORDS, sizeof *l->filter);
        uint64_t bits, *w = filter_word(l, h, &bits);
        *w |= bits;
        if (p->quant != Q_NONE) {
            const wmx_val **regs = wmx_malloc((size_t)p->nthreads * sizeof *regs);
            for (int t = 0; t < p->nthreads; t++)
                regs[t] = machine_regs(l->m, tr->final_state, t);
            c->satisfies = ir_cond_eval(p, p->cond_root, regs, machine_memory(l->m, tr->final_state));
            free(regs);
        }
    }
    c->count++;
    if (!tr->ending)
        l->traces++;
    if (c->ntraces < UI_TRACES_PER_CLASS) {
        if ((c->ntraces & (c->ntraces - 1)) == 0) {     /* 0, 1, 2, 4, ...: grow by doubling */
            ui_trace *more = sess_exec_alloc(l, (size_t)(c->ntraces ? 2 * c->ntraces : 1) * sizeof *more);
            if (c->ntraces)
                memcpy(more, c->traces, (size_t)c->ntraces * sizeof *more);
            c->traces = more;
        }
        ui_trace *t = &c->traces[c->ntraces++];
        trace_keep(l, t, tr);
    }
}

static void explore_progress_cb(const explore_progress *pr, void *ud)
{
    ui_progress_cb(pr, ud);
}

void ui_explore_before(explore_opts *o, cmd_ctx *ctx)
{
    ui_state *ui = UI(ctx);
    ui_exec_list *l = &ui->sess.execs;
    sess_exec_clear(l);
    wmx_error err = { 0 };
    l->m = machine_new(ui->sess.prog, o->model, &err);
    if (!l->m)
        return;                     /* explore_run reports it */
    explore_result tmp;
    explore_result_init(&tmp, ui->sess.prog, o->model, o->algo);
    l->nobserved = tmp.nobserved;
    l->observed = wmx_malloc((size_t)(tmp.nobserved ? tmp.nobserved : 1) * sizeof *l->observed);
    memcpy(l->observed, tmp.observed, (size_t)tmp.nobserved * sizeof *l->observed);
    explore_result_free(&tmp);
    /* the names once, not per execution */
    l->observed_names = wmx_malloc((size_t)(l->nobserved ? l->nobserved : 1) * sizeof *l->observed_names);
    for (int i = 0; i < l->nobserved; i++) {
        char lhs[128];
        ir_lhs_format(ui->sess.prog, &l->observed[i], lhs, sizeof lhs);
        l->observed_names[i] = wmx_strdup(lhs);
    }
    l->model = o->model;
    l->algo = o->algo;
    o->on_trace = explore_trace_cb;
    o->progress = explore_progress_cb;
    o->ud = ui;
    char what[64];
    snprintf(what, sizeof what, "exploring (%s, %s)", algo_name(o->algo), model_name(o->model));
    static char what_buf[64];
    memcpy(what_buf, what, sizeof what_buf);
    ui->progress = (ui_progress){ .active = true, .what = what_buf };
}

typedef struct class_order {
    const ui_exec_class *v;
    int n;                      /* observed values compared */
} class_order;

/* Orders class numbers by their classes (the list is sorted as numbers,
 * then permuted once: moving the classes themselves in every merge pass
 * cost more than comparing them). */
static int class_cmp(const void *a, const void *b, void *ctx)
{
    const class_order *o = ctx;
    const ui_exec_class *x = &o->v[*(const int *)a], *y = &o->v[*(const int *)b];
    int n = o->n;
    for (int i = 0; i < n; i++)
        if (x->vals[i] != y->vals[i])
            return x->vals[i] < y->vals[i] ? -1 : 1;
    if (x->blocked != y->blocked)
        return x->blocked ? 1 : -1;
    if (x->error != y->error)
        return x->error ? 1 : -1;
    return 0;
}

void ui_explore_after(const explore_result *r, cmd_ctx *ctx)
{
    ui_state *ui = UI(ctx);
    ui_exec_list *l = &ui->sess.execs;
    ui->progress.active = false;
    if (!l->m)
        return;
    int n = l->nobserved < 64 ? l->nobserved : 64;
    int *order = wmx_malloc((size_t)(l->n ? l->n : 1) * sizeof *order);
    for (int i = 0; i < l->n; i++)
        order[i] = i;
    wmx_sort(order, (size_t)l->n, sizeof *order, class_cmp, &(class_order){ l->v, n });
    ui_exec_class *sorted = wmx_malloc((size_t)(l->n ? l->n : 1) * sizeof *sorted);
    for (int i = 0; i < l->n; i++)
        sorted[i] = l->v[order[i]];
    free(order);
    free(l->v);
    l->v = sorted;
    l->cap = l->n ? l->n : 1;
    free(l->index);                 /* sorting moved the classes; the list is final */
    l->index = NULL;
    l->index_cap = 0;
    l->valid = true;
    l->complete = r->complete;
    int nfinal = 0;
    for (int i = 0; i < l->n; i++)
        nfinal += !l->v[i].blocked && !l->v[i].error;
    char capped[128] = "";
    if (l->unlisted)
        snprintf(capped, sizeof capped, " (list capped at %d: %ld trace%s of other outcomes not listed)",
                 UI_EXEC_LIST_CAP, l->unlisted, l->unlisted == 1 ? "" : "s");
    snprintf(l->summary, sizeof l->summary, "%d final state%s%s, %ld trace%s, %s, %s%s%s", nfinal,
             nfinal == 1 ? "" : "s", capped, l->traces, l->traces == 1 ? "" : "s", model_name(l->model),
             algo_name(l->algo), r->complete ? "" : " - PARTIAL: ",
             r->complete ? "" : (r->stop_reason ? r->stop_reason : "stopped"));
    fprintf(ctx->out, "Executions (%s) - `select N` or Enter in the list replays one:\n", l->summary);
    /* the first ones here; the Executions pane lists them all (the report
     * above already printed every final state) */
    int shown = l->n < UI_EXEC_OUTPUT_LINES ? l->n : UI_EXEC_OUTPUT_LINES;
    for (int i = 0; i < shown; i++) {
        const ui_exec_class *c = &l->v[i];
        char label[512];
        fprintf(ctx->out, "  %3d %7ld trace%s  %s%s%s%s\n", i + 1, c->count, c->count == 1 ? " " : "s",
                sess_exec_label(l, c, label, sizeof label), c->satisfies ? "  cond holds" : "",
                c->deadlock ? "  deadlock" : c->blocked ? "  blocked" : "",
                c->error ? "  ASSERTION FAILED" : "");
    }
    if (shown < l->n)
        fprintf(ctx->out, "  ... %d more in the Executions pane (`focus executions`, or `select N`)\n",
                l->n - shown);
    /* the Output pane drops its oldest lines: say the summary again last */
    if (l->n > 20)
        fprintf(ctx->out, "Summary: %s\n", l->summary);
    ui->panes[PANE_EXECS].sel = 0;
    ui->panes[PANE_EXECS].scroll = 0;
    ui->bottom = PANE_EXECS;
    ui->focus = PANE_EXECS;
}

static int cmd_select(int argc, char **argv, cmd_ctx *ctx)
{
    UI(ctx)->out.tail = true;    /* the final state and verdict come last */
    ui_state *ui = UI(ctx);
    ui_session *s = need_program(ctx);
    if (!s)
        return EXIT_USAGE;
    ui_exec_list *l = &s->execs;
    long n = 0, k = 1;
    if (!l->valid || l->n == 0) {
        fprintf(ctx->err, "no executions to select: run `explore` first\n");
        return EXIT_USAGE;
    }
    if (argc < 2 || argc > 3 || parse_int(ctx, "select", argv[1], &n) < 0 ||
        (argc == 3 && parse_int(ctx, "select", argv[2], &k) < 0)) {
        fprintf(ctx->err, "usage: select N [K]  (execution N of the list, its K-th trace)\n");
        return EXIT_USAGE;
    }
    if (n < 1 || n > l->n) {
        fprintf(ctx->err, "select: no execution %ld (1..%d)\n", n, l->n);
        return EXIT_USAGE;
    }
    ui_exec_class *c = &l->v[n - 1];
    if (k < 1 || k > c->ntraces) {
        fprintf(ctx->err, "select: execution %ld has %d recorded trace%s\n", n, c->ntraces,
                c->ntraces == 1 ? "" : "s");
        return EXIT_USAGE;
    }
    if (l->model != s->model) {
        wmx_error err = { 0 };
        if (sess_set_model(s, l->model, &err) < 0)
            return EXIT_USAGE;
        fprintf(ctx->out, "model switched to %s (the executions were explored under it)\n",
                model_name(l->model));
    }
    const ui_trace *t = &c->traces[k - 1];
    wmx_transition *steps = wmx_malloc((size_t)(t->len ? t->len : 1) * sizeof *steps);
    for (int i = 0; i < t->len; i++)
        steps[i] = ui_trace_step(t, i);
    int bad = 0;
    int replayed = sess_replay(s, steps, t->len, t->len, &bad);
    free(steps);
    if (replayed < 0) {
        fprintf(ctx->err, "select: step %d of the recorded trace is not enabled\n", bad + 1);
        return EXIT_USAGE;
    }
    ui->panes[PANE_EXECS].sel = (int)n - 1;
    char label[512];
    fprintf(ctx->out, "execution %ld (trace %ld of %ld): %s%s\n", n, k, c->count,
            sess_exec_label(l, c, label, sizeof label),
            c->satisfies ? "  cond holds" : "");
    print_timeline(ctx, s, 0);
    stepped(ui);
    return EXIT_OK;
}

/* ---- next-class: the RF-SMC search one class at a time ---- */

static int cmd_next_class(int argc, char **argv, cmd_ctx *ctx)
{
    UI(ctx)->out.tail = true;    /* the final state and verdict come last */
    ui_state *ui = UI(ctx);
    ui_session *s = need_program(ctx);
    if (!s)
        return EXIT_USAGE;
    bool restart = argc == 2 && strcmp(argv[1], "--restart") == 0;
    if (argc > 2 || (argc == 2 && !restart)) {
        fprintf(ctx->err, "usage: next-class [--restart]\n");
        return EXIT_USAGE;
    }
    if (restart)
        sess_classes_clear(s);
    if (!s->classes) {
        explore_opts_init(&s->classes_opts);
        s->classes_opts.model = s->model;
        s->classes_opts.algo = ALGO_RFSMC;
        s->classes_opts.cancel = ctx->cancel;
        wmx_error err = { 0 };
        s->classes = rfsmc_iter_new(s->prog, &s->classes_opts, &s->classes_res, &err);
        if (!s->classes) {
            fprintf(ctx->err, "next-class: %s\n", err.msg);
            return EXIT_USAGE;
        }
        s->classes_seen = 0;
    }
    explore_trace tr;
    if (!rfsmc_iter_next(s->classes, &tr)) {
        const explore_result *r = &s->classes_res;
        fprintf(ctx->out, "no more classes: %ld reads-from class%s under %s%s%s "
                "(`next-class --restart` starts again)\n", s->classes_seen,
                s->classes_seen == 1 ? "" : "es", model_name(s->model),
                r->complete ? "" : " - PARTIAL: ",
                r->complete ? "" : (r->stop_reason ? r->stop_reason : "stopped"));
        return EXIT_OK;
    }
    s->classes_seen++;
    int bad = 0;
    if (sess_replay(s, tr.steps, tr.len, tr.len, &bad) < 0) {
        fprintf(ctx->err, "next-class: step %d of the class's trace is not enabled\n", bad + 1);
        return EXIT_USAGE;
    }
    fprintf(ctx->out, "class %ld under %s (%d steps)%s%s:\n", s->classes_seen, model_name(s->model),
            tr.len, tr.blocked ? "  blocked" : "", tr.error ? "  ASSERTION FAILED" : "");
    print_timeline(ctx, s, 0);
    stepped(ui);
    return EXIT_OK;
}

/* ---- settings ---- */

/* Re-runs the saved schedule under the current model: the same thread
 * steps in order; a flush where the new model has the same write to move
 * (SC has none; TSO drains in order). */
static void replay_schedule(cmd_ctx *ctx, ui_session *s)
{
    wmx_model m = s->model;
    int done = 0, dropped = 0, n = s->sched_len;
    s->len = s->pos = 0;
    for (int i = 0; i < n; i++) {
        wmx_transition t = s->sched[i];
        if (t.kind == TR_FLUSH) {
            const buf_entry *b;
            int nb = machine_buffer(s->m, sess_state(s), t.thread, &b);
            bool found = false;
            t.cell = -1;
            for (int k = 0; k < nb && !found; k++)
                if (b[k].id == s->sched_writes[i]) {
                    found = true;
                    t.cell = m == MODEL_PSO ? b[k].cell : -1;
                }
            if (!found || !machine_is_enabled(s->m, sess_state(s), &t)) {
                dropped++;
                continue;
            }
        } else if (!machine_is_enabled(s->m, sess_state(s), &t)) {
            fprintf(ctx->out, "replay under %s: step %d (%s) is not possible here; stopped after %d step%s\n",
                    model_name(m), i + 1, s->prog->threads[t.thread].name, done, done == 1 ? "" : "s");
            return;
        }
        sess_apply(s, &t);
        done++;
    }
    fprintf(ctx->out, "replayed the %s schedule under %s: %d step%s", model_name(s->sched_model), model_name(m),
            done, done == 1 ? "" : "s");
    if (dropped)
        fprintf(ctx->out, " (%d flush%s left out: %s)", dropped, dropped == 1 ? "" : "es",
                m == MODEL_SC ? "SC has no store buffers" : "not possible in that order here");
    fprintf(ctx->out, "\n");
}

static int cmd_model(int argc, char **argv, cmd_ctx *ctx)
{
    ui_state *ui = UI(ctx);
    if (argc == 1) {
        fprintf(ctx->out, "model %s\n", model_name(ui->sess.model));
        return EXIT_OK;
    }
    wmx_model m;
    bool replay = argc == 3 && strcmp(argv[2], "--replay") == 0;
    if ((argc != 2 && !replay) || model_parse(argv[1], &m) < 0) {
        fprintf(ctx->err, "usage: model sc|tso|pso [--replay]\n");
        return EXIT_USAGE;
    }
    ui_session *s = &ui->sess;
    if (m == s->model) {
        fprintf(ctx->out, "model %s (unchanged)\n", model_name(m));
        return EXIT_OK;
    }
    if (s->prog && s->pos > 0) {
        int n = s->pos;
        free(s->sched);
        free(s->sched_writes);
        s->sched = wmx_malloc((size_t)n * sizeof *s->sched);
        s->sched_writes = wmx_malloc((size_t)n * sizeof *s->sched_writes);
        for (int i = 0; i < n; i++) {
            s->sched[i] = s->steps[i];
            s->sched_writes[i] = s->events[i].id;
        }
        s->sched_len = n;
        s->sched_model = s->model;
    }
    int n = s->prog ? s->pos : 0;
    wmx_error err = { 0 };
    if (sess_set_model(s, m, &err) < 0) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        return EXIT_USAGE;
    }
    if (replay && s->prog && s->sched_len > 0) {
        replay_schedule(ctx, s);
    } else {
        fprintf(ctx->out, "model %s: restarted at step 0", model_name(m));
        if (n > 0)
            fprintf(ctx->out, " (`replay` re-runs the %d step%s you took under %s)", n, n == 1 ? "" : "s",
                    model_name(s->sched_model));
        fprintf(ctx->out, "\n");
    }
    if (m != MODEL_SC && s->algo == ALGO_ODPOR) {
        s->algo = ALGO_RFSMC;
        fprintf(ctx->out, "algorithm rfsmc (odpor works under sc only)\n");
    }
    stepped(ui);
    return EXIT_OK;
}

static int cmd_replay(int argc, char **argv, cmd_ctx *ctx)
{
    ui_state *ui = UI(ctx);
    ui_session *s = need_program(ctx);
    if (!s)
        return EXIT_USAGE;
    if (argc != 1) {
        fprintf(ctx->err, "usage: replay\n");
        return EXIT_USAGE;
    }
    if (s->sched_len == 0) {
        fprintf(ctx->err, "replay: nothing to replay (it re-runs the steps you had before the last `model` change)\n");
        return EXIT_USAGE;
    }
    replay_schedule(ctx, s);
    stepped(ui);
    return EXIT_OK;
}

static int cmd_algo(int argc, char **argv, cmd_ctx *ctx)
{
    ui_state *ui = UI(ctx);
    explore_algo a;
    const char *choices0 = ui->sess.model == MODEL_SC ? "rfsmc, rfstate, stateful, naive, odpor"
                                                      : "rfsmc, rfstate, stateful, naive";
    if (argc == 1) {
        fprintf(ctx->out, "algorithm %s (choices under %s: %s)\n", algo_name(ui->sess.algo),
                model_name(ui->sess.model), choices0);
        return EXIT_OK;
    }
    const char *choices = ui->sess.model == MODEL_SC ? "rfsmc, rfstate, stateful, naive, odpor"
                                                     : "rfsmc, rfstate, stateful, naive";
    if (argc != 2 || algo_parse(argv[1], &a) < 0) {
        fprintf(ctx->err, "usage: algo ALGORITHM; under %s the choices are %s\n", model_name(ui->sess.model),
                choices);
        return EXIT_USAGE;
    }
    if (a == ALGO_ODPOR && ui->sess.model != MODEL_SC) {
        fprintf(ctx->err, "algo odpor: Optimal-DPOR works under sc only; under %s the choices are %s "
                          "(or `model sc` first)\n", model_name(ui->sess.model), choices);
        return EXIT_USAGE;
    }
    ui->sess.algo = a;
    fprintf(ctx->out, "algorithm %s (used by `explore`)\n", algo_name(a));
    return EXIT_OK;
}

static int cmd_theme(int argc, char **argv, cmd_ctx *ctx)
{
    ui_state *ui = UI(ctx);
    if (argc == 1) {
        char **names = ui_theme_list();
        fprintf(ctx->out, "themes:");
        for (int i = 0; names[i]; i++) {
            fprintf(ctx->out, " %s%s", names[i], strcmp(names[i], ui->theme.name) == 0 ? "*" : "");
            free(names[i]);
        }
        free(names);
        fprintf(ctx->out, "%s\n", ui->no_color ? "  (NO_COLOR is set: no colours)" : "");
        return EXIT_OK;
    }
    if (argc != 2) {
        fprintf(ctx->err, "usage: theme [NAME]\n");
        return EXIT_USAGE;
    }
    if (ui_set_theme(ui, argv[1], ctx->err) < 0)
        return EXIT_USAGE;
    fprintf(ctx->out, "theme %s\n", ui->theme.name);
    return EXIT_OK;
}

/* ---- panes ---- */

static int cmd_focus(int argc, char **argv, cmd_ctx *ctx)
{
    ui_state *ui = UI(ctx);
    if (argc != 2) {
        fprintf(ctx->err, "usage: focus PANE (");
        for (int i = 0; i < PANE_COUNT; i++)
            fprintf(ctx->err, "%s%s", i ? ", " : "", ui->panes[i].ops->name);
        fprintf(ctx->err, ")\n");
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "next") == 0 || strcmp(argv[1], "prev") == 0) {
        int d = argv[1][0] == 'n' ? 1 : PANE_COUNT - 1, f = ui->focus;
        /* the visible panes, plus the bottom area's other pane */
        for (int i = 0; i < PANE_COUNT; i++) {
            f = (f + d) % PANE_COUNT;
            if (ui->panes[f].shown || f == PANE_OUTPUT || (f == PANE_EXECS && ui->sess.execs.valid))
                break;
        }
        ui_focus(ui, f);
        return EXIT_OK;
    }
    for (int i = 0; i < PANE_COUNT; i++)
        if (strncmp(ui->panes[i].ops->name, argv[1], strlen(argv[1])) == 0) {
            ui_focus(ui, i);
            return EXIT_OK;
        }
    fprintf(ctx->err, "no pane '%s': the panes are ", argv[1]);
    for (int i = 0; i < PANE_COUNT; i++)
        fprintf(ctx->err, "%s%s", i ? ", " : "", ui->panes[i].ops->name);
    fprintf(ctx->err, "\n");
    return EXIT_USAGE;
}

static int cmd_zoom(int argc, char **argv, cmd_ctx *ctx)
{
    ui_state *ui = UI(ctx);
    if (argc > 2) {
        fprintf(ctx->err, "usage: zoom [PANE]\n");
        return EXIT_USAGE;
    }
    if (argc == 2) {
        int rc = cmd_focus(argc, argv, ctx);
        if (rc != EXIT_OK)
            return rc;
    }
    ui->zoom = argc == 2 ? true : !ui->zoom;
    return EXIT_OK;
}

static int cmd_scroll(int argc, char **argv, cmd_ctx *ctx)
{
    long n;
    if (argc != 2 || parse_int(ctx, "scroll", argv[1], &n) < 0) {
        fprintf(ctx->err, "usage: scroll N (lines, negative scrolls up)\n");
        return EXIT_USAGE;
    }
    ui_scroll(UI(ctx), (int)n);
    return EXIT_OK;
}

static int cmd_clear(int argc, char **argv, cmd_ctx *ctx)
{
    out_clear(&UI(ctx)->out);
    return EXIT_OK;
}

static int cmd_keys(int argc, char **argv, cmd_ctx *ctx)
{
    ui_print_keys(ctx->out);
    return EXIT_OK;
}

static int cmd_quit(int argc, char **argv, cmd_ctx *ctx)
{
    UI(ctx)->quit = true;
    return EXIT_OK;
}

const command wmx_repl_commands[] = {
    { "load", "FILE [-DNAME=V] [--unroll N]", "load a program (.wmx, .litmus, .c) or a trace file",
      "Loads a program, or a trace file (its program, model and steps).  A parse\n"
      "error is shown as file:line:col and the current program stays loaded.",
      "file", cmd_load, CMD_REPL, NULL },
    { "step", "THREAD", "run a thread's next instruction",
      "Runs the next instruction of THREAD (a name such as P0, or its number).\n"
      "Keys: the digit of the thread, with an empty command line.",
      "thread", cmd_step, CMD_REPL, "0-9" },
    { "flush", "THREAD [VARIABLE]", "move the oldest store of a buffer to memory",
      "Writes the oldest entry of THREAD's store buffer to memory (TSO), or the\n"
      "oldest entry for VARIABLE (PSO; default: the oldest entry's variable).\n"
      "Keys: Alt-digit (or Esc then the digit).",
      "thread var", cmd_flush, CMD_REPL, "M-0..M-9" },
    { "undo", "[N]", "go back N steps (default 1)",
      "Goes back N steps; the undone steps stay in the timeline for redo.",
      "", cmd_undo, CMD_REPL, "- ^Z" },
    { "redo", "[N]", "replay N undone steps (default 1)",
      "Replays the next N steps of the timeline.", "", cmd_redo, CMD_REPL, "+ ^Y" },
    { "restart", "", "back to the initial state (the timeline is kept)",
      "Goes back to step 0; redo or goto replays the timeline.", "", cmd_restart, CMD_REPL, "F5" },
    { "goto", "N", "jump to step N of the timeline",
      "Moves to step N (0 = the initial state) of the current timeline.", "", cmd_goto, CMD_REPL, NULL },
    { "random", "[--seed N]", "run randomly to the end",
      "From the current state, picks enabled steps (thread steps and flushes) at\n"
      "random until nothing is enabled.  The seed is printed so a run can be repeated.",
      "", cmd_random, CMD_REPL, "F6" },
    { "until", "[COND | error | blocked | deadlock] [--algo A]",
      "find a run to an outcome (an assertion failure, a deadlock) and replay it",
      "Explores from the current state for an execution ending where COND holds\n"
      "(default: the program's condition), e.g. `until P0:r0=0 /\\ P1:r0=0` or\n"
      "`until [x]=2`; `until error` looks for an assertion failure, `until blocked`\n"
      "for an execution where a thread cannot go on, `until deadlock` for one where\n"
      "every thread left waits at an await or a lock.  When nothing\n"
      "continues the current state it searches from the start.  The path found\n"
      "becomes the timeline: undo, redo and goto step through it.",
      "thread var", cmd_until, CMD_REPL, NULL },
    { "select", "N [K]", "replay execution N of the explore list (its K-th trace)",
      "Replays a recorded trace of the N-th execution of the last `explore` in\n"
      "the stepping panes.  Enter on a line of the executions pane does the same.",
      "", cmd_select, CMD_REPL, "Enter" },
    { "next-class", "[--restart]", "run RF-SMC to its next reads-from class and replay it",
      "Steps through the reads-from classes of the program under the current\n"
      "model one at a time: each call resumes the RF-SMC search where it paused,\n"
      "runs it to the next class and replays that class's trace in the stepping\n"
      "panes.  --restart starts from the first class again; loading a program or\n"
      "changing the model also does.  Ctrl-C stops the search.",
      "", cmd_next_class, CMD_REPL, NULL },
    { "model", "sc|tso|pso [--replay]", "change the memory model (restarts the execution)",
      "Switches the machine to SC, TSO or PSO and goes back to the initial state;\n"
      "the same model again changes nothing.  With --replay (or `replay` after\n"
      "it) the steps taken so far are re-run under the new model: the same thread\n"
      "steps in order, and each flush where the new model has that write to move.",
      "model", cmd_model, CMD_REPL, NULL },
    { "replay", "", "re-run the steps taken before the last `model` change",
      "Re-runs, under the current model, the schedule the timeline had before the\n"
      "last `model` change: a way to see one interleaving under SC and under TSO.",
      "", cmd_replay, CMD_REPL, NULL },
    { "algo", "rfsmc|rfstate|stateful|naive|odpor", "choose the algorithm `explore` uses",
      "Sets the default algorithm of `explore` (its --algo option overrides it).",
      "algo", cmd_algo, CMD_REPL, NULL },
    { "theme", "[NAME]", "switch the colour theme (list them without NAME)",
      "Loads themes/NAME.theme (default, light, mono, ...).  NO_COLOR disables colours.",
      "theme", cmd_theme, CMD_REPL, NULL },
    { "save", "trace FILE | screen FILE", "save the current execution or the screen",
      "`save trace FILE` writes the steps up to the current one as a trace file\n"
      "(load it again, or give it to `check` and `graph`).  `save screen FILE`\n"
      "writes the screen as text.", "file", cmd_save, CMD_REPL, NULL },
    { "export", "FILE.svg|FILE.png|FILE.pdf|FILE.dot", "write the graph pane's graph to a file",
      "Renders the graph shown by `graph hb|exec|wut|tree` (default: the happens-before\n"
      "graph of the current execution) through Graphviz; the format follows the\n"
      "file name.  The file is written atomically.", "file", ui_export_cmd, CMD_REPL, NULL },
    { "save-screen", "FILE", "write the screen as text",
      "Writes what the screen shows as plain text (atomically).", "file", cmd_save_screen, CMD_REPL, NULL },
    { "focus", "PANE|next|prev", "focus a pane (source, registers, buffers, memory, events, output, executions)",
      "Focuses a pane: its frame is highlighted and scrolling keys move it.",
      "pane", cmd_focus, CMD_REPL, "F2 S-Tab" },
    { "zoom", "[PANE]", "give the focused pane the whole screen (again: back)",
      "Toggles zoom of the focused pane (or zooms PANE).", "pane", cmd_zoom, CMD_REPL, "F3" },
    { "scroll", "N", "scroll the focused pane by N lines",
      "Scrolls the focused pane; PgUp/PgDn do it by pages.", "", cmd_scroll, CMD_REPL, "PgUp PgDn" },
    { "clear", "", "clear the output pane", "Empties the output pane.", "", cmd_clear, CMD_REPL, "^L" },
    { "keys", "", "list the key bindings", "Lists every key binding.", "", cmd_keys, CMD_REPL, "F1" },
    { "play", "A|B|none [A-UPDATE B-UPDATE [K]]", "play mode: play a game's side against the solver",
      "With a .game loaded: restarts the play with you as A or B (none: you move\n"
      "for both) under the update rules given (default never never; K bounds the\n"
      "buffers of inexact variants, default 2).  The computer answers with its\n"
      "winning strategy when it has one.", "", cmd_game_play, CMD_REPL, NULL },
    { "move", "PROCESS N", "play mode: take PROCESS's transition N (as numbered on screen)",
      "Takes the numbered transition of the process; `>` marks the enabled ones.", "", cmd_game_move, CMD_REPL, NULL },
    { "update", "PROCESS", "play mode: flush the oldest message of PROCESS's buffer",
      "Allowed before or after your instruction as the update rules say.", "", cmd_game_update, CMD_REPL, NULL },
    { "end", "", "play mode: end your updates after the instruction (your turn ends)",
      "Ends the update phase after an instruction.", "", cmd_game_end, CMD_REPL, NULL },
    { "hint", "", "play mode: the solver's move for the player to move",
      "Shows the winning strategy's move, or the best try when the mover loses.", "", cmd_game_hint, CMD_REPL, NULL },
    { "quit", "", "leave wmx", "Leaves the explorer (Ctrl-D on an empty line too).", "", cmd_quit, CMD_REPL, "^D" },
};
const int wmx_nrepl_commands = (int)(sizeof wmx_repl_commands / sizeof wmx_repl_commands[0]);
