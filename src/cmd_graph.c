/* cmd_graph.c - the `graph` command (being built; see its issue). */
#include "cli.h"

int cmd_graph(int argc, char **argv, cmd_ctx *ctx)
{
    (void)argc;
    (void)argv;
    fprintf(ctx->err, "wmx graph: not available in this build yet\n");
    return EXIT_USAGE;
}
