/* repl.c - entry of the interactive explorer.  The full-screen UI is being
 * built (issue 6); scripted mode already runs REPL commands line by line
 * through the shared command table. */
#include "repl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int run_script(const char *script, cmd_ctx *ctx)
{
    FILE *f = fopen(script, "r");
    if (!f) {
        fprintf(ctx->err, "wmx: cannot open script '%s'\n", script);
        return EXIT_USAGE;
    }
    char line[4096];
    int rc = EXIT_OK, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        char *argv[64];
        int argc = split_words(line, argv, 64);
        if (argc == 0)
            continue;
        fprintf(ctx->out, "wmx> %s\n", line);
        if (strcmp(argv[0], "quit") == 0)
            break;
        int r = cmd_run(argc, argv, ctx);
        if (r == EXIT_USAGE)
            fprintf(ctx->err, "%s:%d: command failed\n", script, lineno);
        if (r > rc)
            rc = r;
    }
    fclose(f);
    return rc;
}

int repl_main(int argc, char **argv, cmd_ctx *ctx)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--script") == 0 && i + 1 < argc)
            return run_script(argv[i + 1], ctx);
    fprintf(ctx->err, "wmx: the interactive explorer is not in this build yet; "
                      "use `wmx explore FILE` (see `wmx --help`)\n");
    return EXIT_USAGE;
}
