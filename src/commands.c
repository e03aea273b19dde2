/* commands.c - the command table and the commands shared by CLI and REPL. */
#include "cli.h"
#include "report.h"
#include "explore.h"
#include "load.h"
#include "cfront.h"
#include "trace.h"
#include "odpor.h"
#include "plp.h"
#include "cmd_pgas.h"
#include "team_net.h"

#include <math.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef WMX_VERSION
#define WMX_VERSION "0.1.0"
#endif

/* ---- option parsing: --name VALUE, --name=VALUE and flags ---- */

typedef struct opt_state {
    int argc;
    char **argv;
    int i;
    const char *value;     /* value of the option just matched */
    cmd_ctx *ctx;
    int bad;               /* set once a usage error was printed */
} opt_state;

/* Matches argv[i] against --name (taking a value when `takes`). */
static int opt_match(opt_state *o, const char *name, int takes)
{
    const char *a = o->argv[o->i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '\0') {
        if (!takes)
            return 1;
        if (o->i + 1 >= o->argc) {
            fprintf(o->ctx->err, "wmx: option %s needs a value\n", name);
            o->bad = 1;
            return 0;
        }
        o->value = o->argv[++o->i];
        return 1;
    }
    if (takes && a[n] == '=') {
        o->value = a + n + 1;
        return 1;
    }
    return 0;
}

static int parse_long(cmd_ctx *ctx, const char *opt, const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno == ERANGE && *end == '\0' && *s != '-') {
        fprintf(ctx->err, "wmx: %s: '%s' is too large (at most %ld)\n", opt, s, LONG_MAX);
        return -1;
    }
    if (errno || *s == '\0' || *end != '\0' || v < 0) {
        fprintf(ctx->err, "wmx: %s: expected a non-negative integer, got '%s'\n", opt, s);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_double(cmd_ctx *ctx, const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    /* nan and inf are not numbers of seconds (inf passed as "no limit") */
    if (errno || *s == '\0' || *end != '\0' || !isfinite(v) || v < 0) {
        fprintf(ctx->err, "wmx: %s: expected a non-negative number of seconds, got '%s'\n", opt, s);
        return -1;
    }
    *out = v;
    return 0;
}

int cmd_limit_option(int argc, char **argv, int *i, struct explore_opts *opts, cmd_ctx *ctx)
{
    opt_state o = { argc, argv, *i, NULL, ctx, 0 };
    int rc = 0;
    if (opt_match(&o, "--timeout", 1)) {
        rc = parse_double(ctx, "--timeout", o.value, &opts->timeout_s) < 0 ? -1 : 1;
    } else if (opt_match(&o, "--max-traces", 1)) {
        rc = parse_long(ctx, "--max-traces", o.value, &opts->max_traces) < 0 ? -1 : 1;
    } else if (opt_match(&o, "--max-memory", 1)) {
        size_t n;
        if (explore_parse_size(o.value, &n) < 0) {
            fprintf(ctx->err, "wmx: --max-memory: expected a size such as 512M, 2G or a byte count, "
                              "got '%s'\n", o.value);
            rc = -1;
        } else {
            opts->max_memory = n;   /* 0 = no limit */
            opts->max_memory_default = false;
            rc = 1;
        }
    }
    if (o.bad)
        return -1;
    *i = o.i;
    return rc;
}

typedef struct load_limits {
    cmd_ctx *ctx;
    const explore_opts *o;
    const char *why;
} load_limits;

static bool load_should_stop(void *ud)
{
    load_limits *l = ud;
    if (l->ctx->cancel && *l->ctx->cancel) {
        l->why = "interrupted (Ctrl-C)";
        return true;
    }
    if (l->o && l->o->timeout_s > 0 && l->ctx->started > 0 &&
        explore_now() - l->ctx->started >= l->o->timeout_s) {
        l->why = "timeout";
        return true;
    }
    if (l->o && l->o->max_memory > 0 && explore_rss() > l->o->max_memory) {
        l->why = "memory limit";
        return true;
    }
    return false;
}

const wmx_program *cmd_load_program(cmd_ctx *ctx, const char *file, const explore_opts *o,
                            wmx_program **owned, int *rc)
{
    *owned = NULL;
    *rc = EXIT_USAGE;
    if (!file) {
        if (ctx->current)
            return ctx->current;
        fprintf(ctx->err, "wmx: no program given (and none loaded)\n");
        return NULL;
    }
    *owned = cmd_load_file(ctx, file, o, rc);
    return *owned;
}

wmx_program *cmd_load_file(cmd_ctx *ctx, const char *file, const explore_opts *o, int *rc)
{
    *rc = EXIT_USAGE;
    wmx_error err = { 0 };
    load_limits l = { ctx, o, NULL };
    wmx_stop stop = { load_should_stop, &l };
    wmx_program *p = wmx_load_program_c(file, ctx->c_opts, &err, &stop);
    if (!p && err.limit) {
        char sz[32];
        if (l.why && strcmp(l.why, "timeout") == 0)
            fprintf(ctx->out, "%s: PARTIAL: stopped: timeout after %g s while reading the file "
                              "(nothing explored)\n", file, o->timeout_s);
        else if (l.why && strcmp(l.why, "memory limit") == 0)
            fprintf(ctx->out, "%s: PARTIAL: stopped: memory limit %s reached while reading the file "
                              "(nothing explored%s)\n", file,
                    explore_format_size(o->max_memory, sz, sizeof sz), explore_memory_hint(o));
        else
            fprintf(ctx->out, "%s: PARTIAL: stopped: %s while reading the file (nothing explored)\n",
                    file, l.why ? l.why : "a limit");
        *rc = EXIT_LIMIT;
        return NULL;
    }
    if (!p) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        return NULL;
    }
    return p;
}

/* ---- explore ---- */

/* C loops on shared data are unrolled --unroll times (default 8).  When the
 * user did not fix the bound and some execution stopped at it, the counts
 * would fall short of what GenMC and Nidhugg report (they run loops to their
 * end): translate again with twice the bound and explore again, up to
 * CFRONT_MAX_AUTO_UNROLL.  A loop that can run for ever cuts ever more
 * executions as the bound grows; doubling stops when the cut count more than
 * doubles.  Returns the program the result `res` belongs to. */
static wmx_program *explore_auto_unroll(cmd_ctx *ctx, const char *file, wmx_program *owned,
                                        const explore_opts *opts, explore_result *res)
{
    long prev_cut = -1;
    while (owned && owned->unroll > 0 && ctx->c_opts && !ctx->c_opts->unroll_given
           && res->complete && res->bound_cut > 0 && owned->unroll < CFRONT_MAX_AUTO_UNROLL
           && (prev_cut < 0 || res->bound_cut <= 2 * prev_cut)) {
        cfront_opts wider = *ctx->c_opts;
        wider.unroll = owned->unroll * 2;
        wmx_error err = { 0 };
        load_limits l = { ctx, opts, NULL };
        wmx_stop stop = { load_should_stop, &l };
        wmx_program *np = wmx_load_program_c(file, &wider, &err, &stop);
        if (!np)
            break;              /* keep the answer at the bound that translated */
        explore_result nres;
        if (explore_run(np, opts, &nres, &err) < 0) {
            explore_result_free(&nres);
            ir_program_free(np);
            break;
        }
        prev_cut = res->bound_cut;
        explore_result_free(res);
        *res = nres;
        ir_program_free(owned);
        owned = np;
    }
    return owned;
}

/* Bugs hide at small bounds: with --timeout and no --unroll, a C program
 * whose loops can be cut (`while (1) pthread_create(...)`, a spin loop) is
 * first explored at --unroll 2 for a quarter of the time.  A violation
 * found there is the answer (each execution there is a prefix of a real
 * one), and so is a pass that ended with no execution at the bound
 * (*whole_run); otherwise the run starts again at the default bound.  True
 * when res holds the first pass's result (and *owned its program). */
#define SMALL_BOUND 2
static bool explore_small_bound_first(cmd_ctx *ctx, const char *file, wmx_program **owned,
                                      const explore_opts *opts, explore_result *res, bool *whole_run)
{
    const wmx_program *p = *owned;
    if (!p || !ctx->c_opts || ctx->c_opts->unroll_given || opts->timeout_s <= 0 || p->unroll <= SMALL_BOUND)
        return false;
    bool cut = false;
    for (int t = 0; t < p->nthreads && !cut; t++)
        for (int i = 0; i < p->threads[t].ninstrs && !cut; i++)
            cut = p->threads[t].instrs[i].bound_cut;
    if (!cut)
        return false;
    explore_opts first = *opts;
    double spent = opts->started > 0 ? explore_now() - opts->started : 0;
    first.timeout_s = spent + opts->timeout_s / 4;
    if (first.timeout_s > opts->timeout_s)
        return false;
    cfront_opts small = *ctx->c_opts;
    small.unroll = SMALL_BOUND;
    wmx_error err = { 0 };
    load_limits l = { ctx, &first, NULL };
    wmx_stop stop = { load_should_stop, &l };
    wmx_program *np = wmx_load_program_c(file, &small, &err, &stop);
    if (!np)
        return false;
    explore_result r;
    if (explore_run(np, &first, &r, &err) < 0) {
        explore_result_free(&r);
        ir_program_free(np);
        return false;
    }
    /* a complete pass where no execution reached the bound is the answer
     * at every bound too: the loops never went round more often (spin
     * loops that became awaits; twalock of 5 threads ran twice, 35 s) */
    bool whole = r.complete && r.bound_cut == 0;
    if (!whole && r.nerrors == 0) {
        explore_result_free(&r);
        ir_program_free(np);
        return false;
    }
    *whole_run = whole && r.nerrors == 0;
    *res = r;
    ir_program_free(*owned);
    *owned = np;
    return true;
}

/* A long batch run says how far it got on stderr when that is a terminal
 * (stdout may be a file): one line, redrawn twice a second after the first
 * second, erased before the report. */
typedef struct batch_progress {
    FILE *err;
    double next;
    bool shown;
} batch_progress;

static void batch_progress_show(const explore_progress *pr, void *ud)
{
    batch_progress *bp = ud;
    if (pr->elapsed_s < 1.0 || pr->elapsed_s < bp->next)
        return;
    bp->next = pr->elapsed_s + 0.5;
    fprintf(bp->err, "\r\033[Kexploring: %ld complete, %ld blocked, %ld events, %.0f s", pr->traces, pr->blocked,
            pr->events, pr->elapsed_s);
    fflush(bp->err);
    bp->shown = true;
}

static void batch_progress_end(batch_progress *bp)
{
    if (bp->shown) {
        fprintf(bp->err, "\r\033[K");
        fflush(bp->err);
    }
}

static int cmd_explore(int argc, char **argv, cmd_ctx *ctx)
{
    int pgas_rc;
    if (pgas_dispatch("explore", argc, argv, ctx, &pgas_rc))
        return pgas_rc;
    explore_opts opts;
    explore_opts_init(&opts);
    opts.cancel = ctx->cancel;
    opts.started = ctx->started;   /* --timeout covers loading the file too */
    if (ctx->current)
        opts.model = ctx->current_model;
    bool algo_given = ctx->current_algo > 0;
    if (ctx->current_algo > 0)
        opts.algo = (explore_algo)(ctx->current_algo - 1);
    const char *file = NULL;
    enum { FMT_TEXT, FMT_JSON, FMT_HERD } fmt = FMT_TEXT;
    int plp = -1;                  /* -1 none, else a plp_mode */
    const char *dump_wut = NULL;
    opt_state o = { argc, argv, 1, NULL, ctx, 0 };
    for (; o.i < argc && !o.bad; o.i++) {
        int lim = cmd_limit_option(argc, argv, &o.i, &opts, ctx);
        if (lim < 0)
            return EXIT_USAGE;
        if (lim > 0)
            continue;
        if (opt_match(&o, "--model", 1)) {
            if (model_parse(o.value, &opts.model) < 0) {
                fprintf(ctx->err, "wmx: unknown model '%s' (sc, tso or pso)\n", o.value);
                return EXIT_USAGE;
            }
        } else if (opt_match(&o, "--algo", 1)) {
            if (algo_parse(o.value, &opts.algo) < 0) {
                fprintf(ctx->err, "wmx: unknown algorithm '%s' (rfsmc, rfstate, stateful, naive or odpor)\n", o.value);
                return EXIT_USAGE;
            }
            algo_given = true;
        } else if (opt_match(&o, "--json", 0)) {
            fmt = FMT_JSON;
        } else if (opt_match(&o, "--format", 1)) {
            if (strcmp(o.value, "herd") == 0) fmt = FMT_HERD;
            else if (strcmp(o.value, "json") == 0) fmt = FMT_JSON;
            else if (strcmp(o.value, "text") == 0) fmt = FMT_TEXT;
            else {
                fprintf(ctx->err, "wmx: unknown format '%s' (text, herd or json)\n", o.value);
                return EXIT_USAGE;
            }
        } else if (opt_match(&o, "--ifaa", 0)) {
            opts.ifaa = true;
        } else if (opt_match(&o, "--jobs", 1) || opt_match(&o, "-j", 1)) {
            long j;
            if (parse_long(ctx, "--jobs", o.value, &j) < 0)
                return EXIT_USAGE;
            if (j > 1024) {
                fprintf(ctx->err, "wmx: --jobs: at most 1024 workers, got %ld\n", j);
                return EXIT_USAGE;
            }
            opts.jobs = j == 0 ? -1 : (int)j;   /* 0: every core */
        } else if (opt_match(&o, "--plp", 0)) {
            plp = PLP_ASSUME;
        } else if (opt_match(&o, "--plp", 1)) {
            if (strcmp(o.value, "await") == 0) plp = PLP_AWAIT;
            else if (strcmp(o.value, "assume") == 0) plp = PLP_ASSUME;
            else {
                fprintf(ctx->err, "wmx: --plp=%s: expected assume or await\n", o.value);
                return EXIT_USAGE;
            }
        } else if (opt_match(&o, "--dump-wut", 1)) {
            dump_wut = o.value;
        } else if (argv[o.i][0] == '-' && argv[o.i][1] != '\0') {
            if (!o.bad)
                fprintf(ctx->err, "wmx explore: unknown option '%s'\n", argv[o.i]);
            return EXIT_USAGE;
        } else if (!file) {
            file = argv[o.i];
        } else {
            fprintf(ctx->err, "wmx explore: more than one file given ('%s')\n", argv[o.i]);
            return EXIT_USAGE;
        }
    }
    if (o.bad)
        return EXIT_USAGE;
    wmx_program *owned;
    int lrc;
    const wmx_program *p = cmd_load_program(ctx, file, &opts, &owned, &lrc);
    if (!p)
        return lrc;
    /* C under SC explores with odpor unless --algo says otherwise: its
     * executions are what GenMC and Nidhugg count (reads-from with the
     * coherence order: GenMC's published SC counts of its own tests match
     * odpor's on 47 of 51, rfsmc's reads-from classes on 28), and it
     * explores each order of the locks once, where rfsmc runs many traces
     * that are no class only to reorder them (SV-COMP's atomic sections
     * and mutexes; doc/c-input.md) */
    if (!algo_given && opts.model == MODEL_SC && p->file && cfront_is_c_file(p->file))
        opts.algo = ALGO_ODPOR;
    explore_result res;
    wmx_error err = { 0 };
    plp_result rewritten = { 0 };
    if (plp >= 0) {
        if (plp_transform(p, (plp_mode)plp, &rewritten, &err) < 0) {
            char buf[1024];
            fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
            ir_program_free(owned);
            return EXIT_USAGE;
        }
        p = rewritten.prog;
        if (rewritten.loops_total == 0) {
            if (file && cfront_is_c_file(file)) {
                if (plp == PLP_AWAIT)
                    fprintf(ctx->err, "wmx: note: --plp=await on C input: the time rounds that wrote nothing are "
                                      "blocked by assume while translating (doc/c-input.md)\n");
            } else
                fprintf(ctx->err, "wmx: note: --plp has no loop to rewrite\n");
        }
    }
    if (opts.jobs != 0 && opts.jobs != 1 && opts.algo != ALGO_NAIVE && opts.algo != ALGO_RFSMC &&
        opts.algo != ALGO_ODPOR)
        /* said, not refused: the run is right, only not parallel */
        fprintf(ctx->err, "wmx: note: --algo %s explores on one worker (--jobs splits naive, rfsmc and odpor)\n",
                algo_name(opts.algo));
    if (ctx->net) {
        if (team_net_algo(opts.algo) && !dump_wut) {
            opts.net = ctx->net;
        } else {
            /* the other ranks have nothing to do: they end now */
            if (ctx->net->rank != 0) {
                plp_result_free(&rewritten);
                ir_program_free(owned);
                return EXIT_OK;
            }
            fprintf(ctx->err, "wmx: note: %s runs on rank 0 alone (MPI ranks split naive, rfsmc and odpor)\n",
                    dump_wut ? "--dump-wut" : algo_name(opts.algo));
        }
    }
    if (dump_wut && opts.algo == ALGO_ODPOR && opts.jobs != 0 && opts.jobs != 1)
        fprintf(ctx->err, "wmx: note: --dump-wut follows one search: odpor explores on one worker\n");
    if (dump_wut && opts.algo != ALGO_ODPOR) {
        fprintf(ctx->err, "wmx: --dump-wut needs --algo odpor\n");
        plp_result_free(&rewritten);
        ir_program_free(owned);
        return EXIT_USAGE;
    }
    batch_progress bprog = { ctx->err, 0, false };
    if (ctx->explore_before)
        ctx->explore_before(&opts, ctx);
    else if (!opts.progress && ctx->err && isatty(fileno(ctx->err))) {
        opts.progress = batch_progress_show;
        opts.ud = &bprog;
    }
    int ran;
    bool small_first = false, small_whole = false;
    if (dump_wut) {
        odpor_ext ext = { .dump_dir = dump_wut };
        ran = explore_odpor_ex(p, &opts, &ext, &res, &err);
    } else if (plp < 0 && !ctx->net && !ctx->explore_before && owned == p &&
               explore_small_bound_first(ctx, file, &owned, &opts, &res, &small_whole)) {
        ran = 0;
        p = owned;
        small_first = true;
    } else {
        ran = explore_run(p, &opts, &res, &err);
        if (ran == 0 && plp < 0) {
            owned = explore_auto_unroll(ctx, file, owned, &opts, &res);
            p = owned ? owned : p;
        }
    }
    batch_progress_end(&bprog);
    if (ran < 0) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        explore_result_free(&res);
        plp_result_free(&rewritten);
        ir_program_free(owned);
        return EXIT_USAGE;
    }
    if (fmt == FMT_JSON)
        report_json(ctx->out, &res);
    else if (fmt == FMT_HERD)
        report_herd(ctx->out, &res);
    else
        report_text(ctx->out, &res);
    if (ctx->explore_after)
        ctx->explore_after(&res, ctx);
    /* a violation found is a definite answer even when a limit then
     * stopped the run: exit 1 (the report says both) */
    int rc = res.nerrors ? EXIT_FAIL : !res.complete ? EXIT_LIMIT : EXIT_OK;
    /* no run got to its end: nothing was checked past the bound */
    bool all_cut = rc == EXIT_OK && res.traces == 0 && res.bound_cut > 0;
    if (all_cut) {
        rc = EXIT_LIMIT;
        fprintf(fmt == FMT_TEXT ? ctx->out : ctx->err,
                "%severy execution was cut at the loop bound %d: raise --unroll\n",
                fmt == FMT_TEXT ? "Not checked: " : "wmx: not checked: ", p->unroll);
    }
    if (rc == EXIT_OK && p->has_nondet) {
        fprintf(fmt == FMT_TEXT ? ctx->out : ctx->err, "%sno error for __VERIFIER_nondet values in %lld..%lld",
                fmt == FMT_TEXT ? "Note: " : "wmx: note: ", (long long)p->nondet_lo, (long long)p->nondet_hi);
        for (int i = 0; i < p->nondet_nextra; i++)
            fprintf(fmt == FMT_TEXT ? ctx->out : ctx->err, "%s%lld", i ? ", " : " and ",
                    (long long)p->nondet_extra[i]);
        fprintf(fmt == FMT_TEXT ? ctx->out : ctx->err, "%s only (--nondet LO..HI widens it)\n",
                p->nondet_nextra ? " (next to the constants they are compared with)" : "");
    }
    if (small_first && small_whole)
        fprintf(fmt == FMT_TEXT ? ctx->out : ctx->err,
                "%sexplored whole by a first pass at --unroll %d: no execution reached the loop bound, "
                "so a larger one changes nothing\n", fmt == FMT_TEXT ? "Note: " : "wmx: note: ", SMALL_BOUND);
    else if (small_first)
        fprintf(fmt == FMT_TEXT ? ctx->out : ctx->err,
                "%sfound by a first pass at --unroll %d, in a quarter of --timeout (loops that can go round "
                "for ever are cut there; --unroll N explores at N alone)\n",
                fmt == FMT_TEXT ? "Note: " : "wmx: note: ", SMALL_BOUND);
    if (!res.complete && fmt != FMT_TEXT)
        fprintf(ctx->err, "wmx: partial result: stopped: %s\n",
                res.stop_text[0] ? res.stop_text : res.stop_reason ? res.stop_reason : "a limit");
    explore_result_free(&res);
    plp_result_free(&rewritten);
    ir_program_free(owned);
    return rc;
}

/* ---- run: one random execution ---- */

/* xorshift64*: a tiny reproducible generator; the state lives on the stack */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static void print_buffers(FILE *out, const wmx_machine *m, const void *st)
{
    const wmx_program *p = machine_program(m);
    if (machine_model(m) == MODEL_SC)
        return;
    for (int t = 0; t < p->nthreads; t++) {
        const buf_entry *b;
        int n = machine_buffer(m, st, t, &b);
        if (n == 0)
            continue;
        fprintf(out, "         buffer %s:", p->threads[t].name);
        for (int i = 0; i < n; i++) {
            char c[128];
            fprintf(out, " %s=%lld", ir_cell_name(p, b[i].cell, c, sizeof c), (long long)b[i].value);
        }
        fprintf(out, "   (oldest first)\n");
    }
}

static int cmd_run_one(int argc, char **argv, cmd_ctx *ctx)
{
    wmx_model model = ctx->current ? ctx->current_model : MODEL_TSO;
    long seed = 1;
    const char *file = NULL, *save = NULL;
    opt_state o = { argc, argv, 1, NULL, ctx, 0 };
    for (; o.i < argc && !o.bad; o.i++) {
        if (opt_match(&o, "--model", 1)) {
            if (model_parse(o.value, &model) < 0) {
                fprintf(ctx->err, "wmx: unknown model '%s' (sc, tso or pso)\n", o.value);
                return EXIT_USAGE;
            }
        } else if (opt_match(&o, "--seed", 1)) {
            if (parse_long(ctx, "--seed", o.value, &seed) < 0)
                return EXIT_USAGE;
        } else if (opt_match(&o, "--save", 1)) {
            save = o.value;
        } else if (argv[o.i][0] == '-' && argv[o.i][1] != '\0') {
            if (!o.bad)
                fprintf(ctx->err, "wmx run: unknown option '%s'\n", argv[o.i]);
            return EXIT_USAGE;
        } else if (!file) {
            file = argv[o.i];
        } else {
            fprintf(ctx->err, "wmx run: more than one file given ('%s')\n", argv[o.i]);
            return EXIT_USAGE;
        }
    }
    if (o.bad)
        return EXIT_USAGE;
    wmx_program *owned;
    int lrc;
    const wmx_program *p = cmd_load_program(ctx, file, NULL, &owned, &lrc);   /* Ctrl-C stops clang */
    if (!p)
        return lrc;
    wmx_error err = { 0 };
    wmx_machine *m = machine_new(p, model, &err);
    if (!m) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        ir_program_free(owned);
        return EXIT_USAGE;
    }
    void *st = wmx_malloc(machine_state_size(m));
    machine_init(m, st);
    wmx_transition *en = wmx_malloc((size_t)machine_max_enabled(m) * sizeof *en);
    int cap = 64, len = 0;
    wmx_transition *steps = wmx_malloc((size_t)cap * sizeof *steps);
    wmx_event *events = wmx_malloc((size_t)cap * sizeof *events);
    uint64_t rng = (uint64_t)seed * 0x9E3779B97F4A7C15ULL + 1;
    fprintf(ctx->out, "Run of %s under %s, seed %ld\n", p->name, model_name(model), seed);
    int rc = EXIT_OK;
    for (;;) {
        if (ctx->cancel && *ctx->cancel) {
            rc = EXIT_LIMIT;
            fprintf(ctx->out, "interrupted after %d steps\n", len);
            break;
        }
        int n = machine_enabled(m, st, en);
        if (n == 0)
            break;
        wmx_transition tr = en[rng_next(&rng) % (uint64_t)n];
        if (len == cap) {
            cap *= 2;
            steps = wmx_realloc(steps, (size_t)cap * sizeof *steps);
            events = wmx_realloc(events, (size_t)cap * sizeof *events);
        }
        machine_apply(m, st, &tr, &events[len]);
        steps[len] = tr;
        char line[512];
        machine_describe(m, &events[len], line, sizeof line);
        fprintf(ctx->out, "  %3d  %s\n", len + 1, line);
        print_buffers(ctx->out, m, st);
        len++;
    }
    /* final state */
    fprintf(ctx->out, "Final state:");
    for (int t = 0; t < p->nthreads; t++) {
        const ir_thread *th = &p->threads[t];
        const wmx_val *regs = machine_regs(m, st, t);
        for (int r = 0; r < th->nregs; r++)
            if (th->reg_names[r][0] != '$')
                fprintf(ctx->out, " %s:%s=%lld;", th->name, th->reg_names[r], (long long)regs[r]);
    }
    const wmx_val *mem = machine_memory(m, st);
    for (int c = 0; c < p->ncells; c++) {
        char name[128];
        fprintf(ctx->out, " [%s]=%lld;", ir_cell_name(p, c, name, sizeof name), (long long)mem[c]);
    }
    fprintf(ctx->out, "\n");
    for (int t = 0; t < p->nthreads; t++) {
        thread_status s = machine_status(m, st, t);
        int ei = machine_error_instr(m, st, t);
        if (s == TS_ERROR && ei >= 0) {
            const ir_instr *in = &p->threads[t].instrs[ei];
            fprintf(ctx->out, "%s:%d:%d: %s in %s: %s\n", ir_loc_file(p, in->loc), in->loc.line, in->loc.col,
                    in->kind == I_ASSERT ? "assertion failed" : "runtime fault",
                    p->threads[t].name, in->text ? in->text : "");
            rc = EXIT_FAIL;
        } else if (s == TS_BLOCKED || s == TS_RUNNING) {
            explore_wait w;
            char line[1024];
            if (explore_wait_at(p, m, st, t, &w)) {
                report_wait(p, &w, line, sizeof line);
                fprintf(ctx->out, "%s\n", line);
            }
        }
    }
    if (p->quant != Q_NONE) {
        const wmx_val **regs = wmx_malloc((size_t)p->nthreads * sizeof *regs);
        for (int t = 0; t < p->nthreads; t++)
            regs[t] = machine_regs(m, st, t);
        char cond[2048];
        report_condition(p, cond, sizeof cond);
        fprintf(ctx->out, "Proposition of %s: %s\n", cond,
                ir_cond_eval(p, p->cond_root, regs, mem) ? "true" : "false");
        free(regs);
    }
    if (save) {
        trace_data td = { p->file, model, len, steps, events };
        if (trace_save(save, m, &td, &err) < 0) {
            char buf[1024];
            fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
            rc = EXIT_USAGE;
        } else {
            fprintf(ctx->out, "Trace saved to %s\n", save);
        }
    }
    free(steps);
    free(events);
    free(en);
    free(st);
    machine_free(m);
    ir_program_free(owned);
    return rc;
}

/* ---- help, version ---- */

static int cmd_help(int argc, char **argv, cmd_ctx *ctx)
{
    cmd_print_help(ctx->out, argc > 1 ? argv[1] : NULL);
    if (argc > 1 && !cmd_find(argv[1]))
        return EXIT_USAGE;
    return EXIT_OK;
}

static int cmd_version(int argc, char **argv, cmd_ctx *ctx)
{
    fprintf(ctx->out, "wmx %s\n", WMX_VERSION);
    /* the default --max-memory, so a user can see what a run may take */
    char a[32], b[32];
    size_t total = explore_memory_size();
    if (total)
        fprintf(ctx->out, "default --max-memory: %s (half of %s of memory)\n",
                explore_format_size(explore_default_max_memory(), a, sizeof a),
                explore_format_size(total, b, sizeof b));
    else
        fprintf(ctx->out, "default --max-memory: none (the memory size is unknown)\n");
    return EXIT_OK;
}

const command wmx_commands[] = {
    { "explore", "[FILE] [--model sc|tso|pso] [--algo rfsmc|rfstate|stateful|naive|odpor] [--ifaa] [--plp[=await]] [--dump-wut DIR] [--jobs N] [--max-traces N] [--timeout S] [--max-memory SIZE] [--json | --format herd|json|text]",
      "explore every execution and report final states and the condition's verdict",
      "Explores the program under the memory model (default tso) with the chosen\n"
      "algorithm: rfsmc (default: reads-from SMC, one maximal trace per\n"
      "reads-from class, observers of final values included), rfstate (the same\n"
      "classes over memoised (state, reads-from history) pairs), stateful (counts\n"
      "every interleaving and flush order, over the memoised state graph), naive\n"
      "(every interleaving, enumerated), odpor\n"
      "(Optimal-DPOR, SC only: one trace per Mazurkiewicz class; --ifaa makes\n"
      "unused fetch-and-adds independent; --plp[=await] explores the loop-purity\n"
      "rewrite; --dump-wut DIR writes the wakeup trees as DOT).  Prints the\n"
      "distinct final states of the observed locations (those the condition names,\n"
      "plus `locations`), the condition's verdict (Ok/No) and herd7's observation\n"
      "(Never/Sometimes/Always), and any assertion violation with its trace.\n"
      "--jobs N explores on N workers (0: one per core; default 1) with naive,\n"
      "rfsmc and odpor: the same counts, states and verdict, states in the same\n"
      "order (other algorithms run on one).\n"
      "--max-traces, --timeout (seconds, counted from the start of the command,\n"
      "loading included), --max-memory (resident size: 512M, 2G, bytes; default\n"
      "half of the RAM; 0 = none) and Ctrl-C stop early; the report then says\n"
      "PARTIAL and why, and the exit code is 3 (1 if a violation was found before\n"
      "the stop).  --format herd prints herd7's layout, --json one object.",
      "file model algo", cmd_explore, CMD_BOTH, NULL },
    { "run", "[FILE] [--model M] [--seed N] [--save TRACE]",
      "run one random execution step by step, showing the store buffers",
      "Runs one execution, choosing each step (thread step or buffer flush) at\n"
      "random from the seed (default 1), and prints every event with the buffer\n"
      "contents after it, then the final state.  --save writes the trace file\n"
      "(see doc/trace-format.md).",
      "file model", cmd_run_one, CMD_BOTH, NULL },
    { "check", "TRACE-FILE [--model M] [--json] | PROGRAM --outcome COND [--model M] [--save F] [--json] " CMD_LIMITS_SYNOPSIS,
      "is this execution (or outcome) consistent under the model? witness or explanation",
      "Checks a trace file's execution, or asks whether an outcome of PROGRAM is\n"
      "reachable, under the model (VSC-rf, VTSO-rf, VPSO-rf).  Prints a witness\n"
      "trace when consistent, else an explanation.  With --outcome, --timeout\n"
      "(loading included), --max-memory and --max-traces limit the search.\n"
      "Exit 0 consistent, 1 not, 2 bad input, 3 stopped by a limit.",
      "file model", cmd_check, CMD_BOTH, NULL },
    { "graph", "TRACE-FILE [--view hb|exec] [--check sc|tso|pso|none] [--format dot|svg|png|pdf] [-o FILE]  |  (REPL) graph hb|exec|wut|tree",
      "draw the execution graph (po, rf, co, fr edges); in the REPL also wakeup trees",
      "Batch: writes the execution graph of a trace (events grouped per thread;\n"
      "po, rf, co, fr and wB->wM edges styled by kind), laid out by Graphviz, as\n"
      "DOT, SVG, PNG or PDF.  --check MODEL highlights the facts that make the\n"
      "execution inconsistent under MODEL.\n"
      "REPL: `graph hb|exec` opens the graph pane on the current execution,\n"
      "`graph wut [N]` the Optimal-DPOR wakeup trees and sleep sets, `graph tree`\n"
      "the tree of explored traces.  The graph's keys work in pane mode (Esc\n"
      "first): arrows/hjkl pan, + zooms in (longer labels), - zooms out, 0 fits\n"
      "the pane, n/N move between nodes, Enter jumps to the event, Esc back to\n"
      "the prompt.  At the prompt keys are commands: - is undo, + redo.\n"
      "`export FILE.svg` writes the view.",
      "file", cmd_graph, CMD_BOTH, NULL },
    { "robust", "FILE [--model tso|pso] [--max N] [--no-fences] " CMD_LIMITS_SYNOPSIS,
      "list executions the relaxed model allows and SC does not; propose fences",
      "Robustness against TSO/PSO: lists the reads-from classes that are not SC,\n"
      "each with a witness and its happens-before cycle, and proposes a smallest\n"
      "set of at most 4 fences, named by source line (a fence after a line stands\n"
      "in every copy of its store: threads running it, unrolled rounds, inlined\n"
      "calls).  --timeout, --max-memory and --max-traces limit the run and the\n"
      "fence search (as for explore).\n"
      "Exit 0 when robust, 1 when not, 3 when a limit stopped the run or the search.",
      "file model", cmd_robust, CMD_BOTH, NULL },
    { "transform", "FILE [--to assume|await]",
      "print the program after the partial loop purity (PLP) rewrite",
      "Prints the program with pure loop iterations bounded by assume, or turned\n"
      "into await when the test is on a shared load.",
      "file", cmd_transform, CMD_BOTH, NULL },
    { "game", "FILE.game [--a-update U] [--b-update U] [--k N|auto] [--first A|B] [--json] [--format text|dot] [--rows N] [--timeout S]",
      "solve a TSO safety game: winner, graph size, the winner's strategy",
      "Builds the positions of the TSO game (doc/games.md) and solves it by\n"
      "backward attractor.  U is never, before, after or always (default never).\n"
      "never/never is solved exactly; --k N solves the N-bounded game; --k auto\n"
      "(the default for the other variants) raises N until the winner is the\n"
      "same for 3 bounds or --k-max (8) or --max-positions is hit.  Prints the\n"
      "winner, the graph's size and the winner's strategy (--rows N rows, 0 all);\n"
      "--format dot the strategy graph, --json one object.  --timeout S and\n"
      "Ctrl-C stop a build; --k auto then answers with the last bound solved.\n"
      "Exit 0 solved, 2 bad input, 3 a limit stopped it before any bound was\n"
      "solved.",
      "file", cmd_game, CMD_BOTH, NULL },
    { "help", "[COMMAND]", "list the commands, or show one command's help",
      "Without an argument lists every command; with one prints its help.",
      "command", cmd_help, CMD_BOTH, NULL },
    { "version", "", "print the version", "Prints wmx's version.", "", cmd_version, CMD_BOTH, NULL },
};
const int wmx_ncommands = (int)(sizeof wmx_commands / sizeof wmx_commands[0]);

const command *cmd_find(const char *name)
{
    for (int i = 0; i < wmx_ncommands; i++)
        if (strcmp(wmx_commands[i].name, name) == 0)
            return &wmx_commands[i];
    for (int i = 0; i < wmx_nrepl_commands; i++)
        if (strcmp(wmx_repl_commands[i].name, name) == 0)
            return &wmx_repl_commands[i];
    return NULL;
}

void cmd_print_help(FILE *out, const char *name)
{
    if (name) {
        const command *c = cmd_find(name);
        if (!c) {
            fprintf(out, "no such command: %s (try `help`)\n", name);
            return;
        }
        fprintf(out, "%s %s\n\n%s\n", c->name, c->synopsis, c->help);
        return;
    }
    fprintf(out, "Commands:\n");
    for (int i = 0; i < wmx_ncommands; i++)
        fprintf(out, "  %-10s %s\n", wmx_commands[i].name, wmx_commands[i].summary);
    if (wmx_nrepl_commands)
        fprintf(out, "In the interactive explorer also:\n");
    for (int i = 0; i < wmx_nrepl_commands; i++)
        fprintf(out, "  %-10s %s\n", wmx_repl_commands[i].name, wmx_repl_commands[i].summary);
}

/* Edit distance with transpositions, for "did you mean" (short words). */
static int edit_distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 30 || lb > 30)
        return 99;
    int d[32][32];
    for (int i = 0; i <= la; i++)
        d[i][0] = i;
    for (int j = 0; j <= lb; j++)
        d[0][j] = j;
    for (int i = 1; i <= la; i++)
        for (int j = 1; j <= lb; j++) {
            int c = a[i - 1] == b[j - 1] ? 0 : 1;
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + c < v) v = d[i - 1][j - 1] + c;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[la][lb];
}

const char *cmd_suggest(const char *name, unsigned flags)
{
    const char *best = NULL;
    int bestd = strlen(name) <= 5 ? 1 : 2;
    for (int t = 0; t < 2; t++) {
        const command *v = t ? wmx_repl_commands : wmx_commands;
        int n = t ? wmx_nrepl_commands : wmx_ncommands;
        for (int i = 0; i < n; i++) {
            if (!(v[i].flags & flags))
                continue;
            int d = edit_distance(name, v[i].name);
            if (d <= bestd && (!best || d < edit_distance(name, best)))
                best = v[i].name;
        }
    }
    return best;
}

int cmd_run(int argc, char **argv, cmd_ctx *ctx)
{
    const command *c = cmd_find(argv[0]);
    if (!c || !(c->flags & (ctx->ui ? CMD_REPL : CMD_BATCH))) {
        const char *s = cmd_suggest(argv[0], ctx->ui ? CMD_REPL : CMD_BATCH);
        if (s)
            fprintf(ctx->err, "wmx: unknown command '%s': did you mean `%s`? (`help` lists them all)\n", argv[0], s);
        else
            fprintf(ctx->err, "wmx: unknown command '%s' (try `help`)\n", argv[0]);
        return EXIT_USAGE;
    }
    /* `wmx CMD --help` prints the command's help, for every command */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cmd_print_help(ctx->out, c->name);
            return EXIT_OK;
        }
    double outer = ctx->started;
    ctx->started = explore_now();   /* limits count from here */
    int rc = c->fn(argc, argv, ctx);
    ctx->started = outer;
    return rc;
}
