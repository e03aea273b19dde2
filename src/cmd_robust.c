/* cmd_robust.c - the `robust` command (being built; see its issue). */
#include "cli.h"

int cmd_robust(int argc, char **argv, cmd_ctx *ctx)
{
    (void)argc;
    (void)argv;
    fprintf(ctx->err, "wmx robust: not available in this build yet\n");
    return EXIT_USAGE;
}
