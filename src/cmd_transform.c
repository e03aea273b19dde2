/* cmd_transform.c - `wmx transform FILE [--to assume|await] [--original]`:
 * prints the program after the partial loop purity (PLP) rewrite of
 * core/plp.c.  Instruction indices are the same in both listings, so the
 * original (--original) and the rewritten program line up side by side. */
#include "cli.h"
#include "load.h"
#include "plp.h"

#include <stdlib.h>
#include <string.h>

int cmd_transform(int argc, char **argv, cmd_ctx *ctx)
{
    const char *file = NULL;
    plp_mode mode = PLP_AWAIT;
    bool original = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        if (strcmp(a, "--to") == 0) {
            if (i + 1 >= argc) {
                fprintf(ctx->err, "wmx transform: --to needs a value (assume or await)\n");
                return EXIT_USAGE;
            }
            val = argv[++i];
        } else if (strncmp(a, "--to=", 5) == 0) {
            val = a + 5;
        } else if (strcmp(a, "--original") == 0) {
            original = true;
            continue;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(ctx->err, "wmx transform: unknown option '%s'\n", a);
            return EXIT_USAGE;
        } else if (!file) {
            file = a;
            continue;
        } else {
            fprintf(ctx->err, "wmx transform: more than one file given ('%s')\n", a);
            return EXIT_USAGE;
        }
        if (strcmp(val, "assume") == 0)
            mode = PLP_ASSUME;
        else if (strcmp(val, "await") == 0)
            mode = PLP_AWAIT;
        else {
            fprintf(ctx->err, "wmx transform: unknown target '%s' (assume or await)\n", val);
            return EXIT_USAGE;
        }
    }
    const wmx_program *p = ctx->current;
    wmx_program *owned = NULL;
    if (file) {
        int lrc;
        owned = cmd_load_file(ctx, file, NULL, &lrc);   /* Ctrl-C stops clang */
        if (!owned)
            return lrc;
        p = owned;
    }
    if (!p) {
        fprintf(ctx->err, "wmx transform: no program given\n");
        return EXIT_USAGE;
    }
    plp_result res;
    wmx_error err = { 0 };
    if (plp_transform(p, mode, &res, &err) < 0) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        ir_program_free(owned);
        return EXIT_USAGE;
    }
    if (original) {
        char *o = plp_format(p, NULL);
        fprintf(ctx->out, "%s\n", o);
        free(o);
    }
    char *s = plp_format(res.prog, &res);
    fputs(s, ctx->out);
    free(s);
    plp_result_free(&res);
    ir_program_free(owned);
    return EXIT_OK;
}
