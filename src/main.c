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

static int run(int argc, char **argv);

int main(int argc, char **argv)
{
    return finish(run(argc, argv));
}

static int run(int argc, char **argv)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);

    cmd_ctx ctx = { .out = stdout, .err = stderr, .cancel = &interrupted, .current_model = MODEL_TSO };
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
    if (argc >= 2 && cmd_find(argv[1])) {
        wmx_temp_on_signals();
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
