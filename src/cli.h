/* cli.h - the one command table shared by the batch CLI and the REPL.
 *
 * Each command is one entry: its name, argument synopsis, help text,
 * completion hints and the function that runs it.  `wmx CMD ARGS` calls the
 * function directly; the REPL parses a line into argv and calls the same one,
 * with its output stream pointed at a pane.
 */
#ifndef WMX_CLI_H
#define WMX_CLI_H

#include <signal.h>
#include <stdio.h>

#include "ir.h"
#include "machine.h"

/* Exit codes (documented in doc/wmx.1). */
enum {
    EXIT_OK = 0,          /* ran fine / consistent / robust */
    EXIT_FAIL = 1,        /* an assertion failed / inconsistent / not robust */
    EXIT_USAGE = 2,       /* usage or input error */
    EXIT_LIMIT = 3        /* a limit (--max-traces, --timeout, --max-memory, Ctrl-C)
                             stopped the run (and nothing failed before it) */
};

struct explore_opts;                /* core/explore.h */
struct pgas_robust_result;          /* core/pgas.h */
struct explore_result;

typedef struct cmd_ctx {
    FILE *out;                      /* results */
    FILE *err;                      /* diagnostics */
    volatile sig_atomic_t *cancel;  /* set by SIGINT */
    double started;                 /* explore_now() when this command began (cmd_run) */
    /* the REPL's current program and model, used when FILE is omitted;
     * NULL in batch mode */
    const wmx_program *current;
    wmx_model current_model;
    /* the REPL's algorithm + 1 (0: none, batch mode): explore's default
     * when no --algo is given; PGAS programs have no algorithms to pick */
    int current_algo;
    void *ui;                       /* the REPL's state (opaque here) */
    /* how to name a trace file the REPL wrote for the current execution
     * ("the current execution"), so no temporary path reaches the user;
     * NULL in batch mode */
    const char *trace_label;
    /* -D/-I/--unroll for C programs (core/cfront.h); NULL = defaults */
    const struct cfront_opts *c_opts;
    /* REPL hooks around an explorer run (NULL in batch mode): `before` may
     * add progress/on_trace callbacks to the options (ui/ records each trace
     * for its executions list); `after` sees the result once it is printed. */
    void (*explore_before)(struct explore_opts *opts, struct cmd_ctx *ctx);
    void (*explore_after)(const struct explore_result *res, struct cmd_ctx *ctx);
    /* the ranks of an MPI job (core/team_net.h) when wmx was started by an
     * MPI launcher with more than one rank; NULL otherwise */
    struct team_net *net;
    /* REPL hook after `robust` on a PGAS program (src/cmd_pgas.c). */
    void (*pgas_after_robust)(const wmx_program *p, const struct pgas_robust_result *res,
                              struct cmd_ctx *ctx);
} cmd_ctx;

typedef int (*cmd_fn)(int argc, char **argv, cmd_ctx *ctx);

typedef struct command {
    const char *name;
    const char *synopsis;           /* "FILE [--model M] ..." */
    const char *summary;            /* one line for `help` */
    const char *help;               /* the full text for `help CMD` */
    const char *complete;           /* argument kinds: "file model algo ..." */
    cmd_fn fn;
    unsigned flags;                 /* CMD_BATCH, CMD_REPL */
    const char *key;                /* REPL key binding ("s", "^Z", ...) or NULL */
} command;

#define CMD_BATCH 1u                /* available as `wmx NAME ...` */
#define CMD_REPL  2u                /* available at the `wmx>` prompt */
#define CMD_BOTH  (CMD_BATCH | CMD_REPL)

/* The limit options every exploring command takes: --timeout S,
 * --max-memory SIZE, --max-traces N.  Returns 1 when argv[*i] was one (and
 * consumed it, advancing *i past a separate value), 0 when it was not,
 * -1 after printing a usage error. */
int cmd_limit_option(int argc, char **argv, int *i, struct explore_opts *o, cmd_ctx *ctx);
/* Loads FILE (or takes the REPL's current program when NULL) under the
 * limits of o (--timeout counts from ctx->started, Ctrl-C).  NULL after
 * printing why, with *rc EXIT_USAGE (bad input) or EXIT_LIMIT (stopped:
 * a partial report saying so was printed).  *owned: what to free. */
const wmx_program *cmd_load_program(cmd_ctx *ctx, const char *file, const struct explore_opts *o,
                            wmx_program **owned, int *rc);
/* The same for a file the caller will own (and may change). */
wmx_program *cmd_load_file(cmd_ctx *ctx, const char *file, const struct explore_opts *o, int *rc);
#define CMD_LIMITS_SYNOPSIS "[--timeout S] [--max-memory SIZE] [--max-traces N]"

/* Commands implemented in their own files (one owner each). */
int cmd_check(int argc, char **argv, cmd_ctx *ctx);      /* src/cmd_check.c */
int cmd_graph(int argc, char **argv, cmd_ctx *ctx);      /* src/cmd_graph.c */
int cmd_robust(int argc, char **argv, cmd_ctx *ctx);     /* src/cmd_robust.c */
int cmd_transform(int argc, char **argv, cmd_ctx *ctx);  /* src/cmd_transform.c */
int cmd_game(int argc, char **argv, cmd_ctx *ctx);       /* src/cmd_game.c */

extern const command wmx_commands[];
extern const int wmx_ncommands;
/* REPL-only commands (load, step, undo, ...), defined by ui/ in
 * ui/repl_commands.c; cmd_find() searches both tables. */
extern const command wmx_repl_commands[];
extern const int wmx_nrepl_commands;

const command *cmd_find(const char *name);
/* The command closest to a mistyped name (NULL when none is close). */
const char *cmd_suggest(const char *name, unsigned flags);
/* Runs argv[0] as a command; unknown command → message and EXIT_USAGE. */
int cmd_run(int argc, char **argv, cmd_ctx *ctx);
/* Prints the list of commands (or one command's help). */
void cmd_print_help(FILE *out, const char *name);

#endif
