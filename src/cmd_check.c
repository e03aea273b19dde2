/* cmd_check.c - the `check` command (being built; see its issue). */
#include "cli.h"

int cmd_check(int argc, char **argv, cmd_ctx *ctx)
{
    (void)argc;
    (void)argv;
    fprintf(ctx->err, "wmx check: not available in this build yet\n");
    return EXIT_USAGE;
}
