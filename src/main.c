/* main.c - the wmx entry point: `wmx COMMAND ...` runs a batch command from
 * the shared table; `wmx [FILE]` (no command) opens the interactive explorer. */
#include "cfront.h"
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "repl.h"
#include "tempfiles.h"
#include "team_net.h"
#ifdef WMX_HAVE_MPI
#include "team_mpi.h"
#endif

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    /* a second Ctrl-C while the first is still being handled kills us */
    if (interrupted) {
        wmx_temp_cleanup_now();
        _exit(130);
    }
    interrupted = 1;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: wmx [--theme NAME] [FILE]          interactive explorer\n"
            "       wmx --script SCRIPT.wmxs [FILE]    run REPL commands without a terminal\n"
            "       wmx COMMAND [ARGS]                 batch command\n"
            "       wmx --help | --version\n\n");
    cmd_print_help(out, NULL);
    fprintf(out, "\nRun `wmx help COMMAND` for a command's options; see wmx(1).\n"
                 "Exit codes: 0 ok, 1 assertion failed / inconsistent / not robust,\n"
                 "2 usage or input error, 3 stopped by a limit or Ctrl-C.\n");
}

/* Output is never lost silently (issue 47 §7c): stdout is flushed and
 * checked before exit, and a failed write (a full disk, `> /dev/full`, a
 * closed descriptor) is an error, exit 2, whatever the command's answer. */
static int finish(int rc)
{
    int earlier = ferror(stdout), bad = 0;
    errno = 0;
    if (fflush(stdout) != 0)
        bad = errno ? errno : EIO;
    /* flushed, not closed: libLLVM's own streams are torn down after main
     * returns, and LeakSanitizer's exit check crashed once stdout was closed */
    if (bad) {
        fprintf(stderr, "wmx: cannot write the output: %s\n", strerror(bad));
        return EXIT_USAGE;
    }
    if (earlier) {                  /* a write failed during the run: its errno is gone */
        fprintf(stderr, "wmx: cannot write the output: a write to the standard output failed\n");
        return EXIT_USAGE;
    }
    return rc;
}

static int run(int argc, char **argv, struct team_net *net);

#ifdef WMX_HAVE_MPI
/* Started by mpirun or srun (doc/distributed.md): `wmx explore` spreads
 * over the ranks; every rank parses the same arguments and loads the same
 * file (the program is not sent: it is small, and loading it everywhere at
 * once costs one load's time), rank 0 alone writes the report, and every
 * rank exits with rank 0's code.  SIGTERM (what mpirun sends every rank on
 * Ctrl-C) stops the run as Ctrl-C does, so that rank 0 still reports. */
static int mpi_main(int argc, char **argv)
{
    char why[256];
    team_net *net = team_mpi_init(&argc, &argv, why, sizeof why);
    if (!net) {
        fprintf(stderr, "wmx: cannot start MPI: %s\n", why);
        return EXIT_USAGE;
    }
    if (net->rank != 0 && !freopen("/dev/null", "w", stdout)) {
        fprintf(stderr, "wmx: rank %d: cannot open /dev/null\n", net->rank);
        return team_mpi_finish(net, EXIT_USAGE);
    }
    int rc = finish(run(argc, argv, net->size > 1 ? net : NULL));
    return team_mpi_finish(net, rc);
}
#endif

int main(int argc, char **argv)
{
#ifdef WMX_HAVE_MPI
    if (team_mpi_launched())
        return mpi_main(argc, argv);
#endif
    return finish(run(argc, argv, NULL));
}

static int run(int argc, char **argv, struct team_net *net)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);

    cmd_ctx ctx = { .out = stdout, .err = stderr, .cancel = &interrupted, .current_model = MODEL_TSO,
                    .net = net };
    /* -D, -I, --unroll and --no-spin-assume belong to C programs, whichever command loads one */
    static cfront_opts c_opts;
    char why[256];
    argc = cfront_take_args(argc, argv, &c_opts, why, sizeof why);
    if (argc < 0) {
        fprintf(stderr, "wmx: %s\n", why);
        return EXIT_USAGE;
    }
    ctx.c_opts = &c_opts;
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return EXIT_OK;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        char *v[] = { "version", NULL };
        return cmd_run(1, v, &ctx);
    }
    /* every rank reads the same input and sees the same mistakes in it:
     * rank 0 alone says them (a rank's own trouble, MPI's or a corrupt
     * message, goes to its stderr from core/team_mpi.c) */
    static FILE *quiet;
    if (net && net->rank != 0 && (quiet = fopen("/dev/null", "w")) != NULL)
        ctx.err = quiet;
    if (net && !(argc >= 2 && strcmp(argv[1], "explore") == 0)) {
        /* only explore spreads over ranks: the rest runs on rank 0 */
        if (net->rank != 0)
            return EXIT_OK;
        fprintf(stderr, "wmx: note: only `wmx explore` runs over MPI ranks: this runs on rank 0 alone\n");
        ctx.net = NULL;
    }
    if (argc >= 2 && cmd_find(argv[1])) {
        wmx_temp_on_signals();
        if (ctx.net)                /* SIGTERM from the launcher: a partial report, as Ctrl-C */
            sigaction(SIGTERM, &sa, NULL);
        return cmd_run(argc - 1, argv + 1, &ctx);
    }
    if (argc >= 2 && strcmp(argv[1], "--script") == 0)
        wmx_temp_on_signals();      /* no terminal to restore */
    if (argc >= 2 && argv[1][0] != '-' && access(argv[1], F_OK) != 0) {
        const char *s = cmd_suggest(argv[1], CMD_BATCH);
        if (s) {
            fprintf(stderr, "wmx: '%s' is neither a command nor a file: did you mean `wmx %s`?\n", argv[1], s);
            return EXIT_USAGE;
        }
        fprintf(stderr, "wmx: '%s' is neither a command nor a file\n\n", argv[1]);
        usage(stderr);
        return EXIT_USAGE;
    }
    return repl_main(argc, argv, &ctx);
}
