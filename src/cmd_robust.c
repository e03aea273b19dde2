/* cmd_robust.c - `wmx robust FILE [--model tso|pso] [--max N] [--no-fences]`:
 * the reads-from classes the relaxed model allows and SC does not (VSC-rf
 * rejects them), each with a witness trace and SC's explanation (the
 * happens-before cycle), and a smallest set of fences after stores that
 * makes the program robust, verified by re-running.  Exit 0 robust, 1 not. */
#include "cli.h"
#include "load.h"
#include "report.h"
#include "robust.h"

#include <stdlib.h>
#include <string.h>

int cmd_robust(int argc, char **argv, cmd_ctx *ctx)
{
    const char *file = NULL;
    wmx_model model = ctx->current ? ctx->current_model : MODEL_TSO;
    if (model == MODEL_SC)
        model = MODEL_TSO;
    int max_viol = 5;
    bool fences = true;
    explore_opts o;
    explore_opts_init(&o);
    for (int i = 1; i < argc; i++) {
        int l = cmd_limit_option(argc, argv, &i, &o, ctx);
        if (l < 0)
            return EXIT_USAGE;
        if (l > 0)
            continue;
        const char *a = argv[i];
        if (strcmp(a, "--model") == 0 || strncmp(a, "--model=", 8) == 0) {
            const char *v = a[7] == '=' ? a + 8 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v || model_parse(v, &model) != 0 || model == MODEL_SC) {
                fprintf(ctx->err, "wmx robust: --model needs tso or pso\n");
                return EXIT_USAGE;
            }
        } else if (strcmp(a, "--max") == 0 || strncmp(a, "--max=", 6) == 0) {
            const char *v = a[5] == '=' ? a + 6 : (i + 1 < argc ? argv[++i] : NULL);
            char *end;
            long n = v ? strtol(v, &end, 10) : -1;
            if (!v || *end || n < 0 || n > 1000000) {
                fprintf(ctx->err, "wmx robust: --max needs a count\n");
                return EXIT_USAGE;
            }
            max_viol = (int)n;
        } else if (strcmp(a, "--no-fences") == 0) {
            fences = false;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(ctx->err, "wmx robust: unknown option '%s'\n", a);
            return EXIT_USAGE;
        } else if (!file) {
            file = a;
        } else {
            fprintf(ctx->err, "wmx robust: more than one file given ('%s')\n", a);
            return EXIT_USAGE;
        }
    }
    wmx_program *owned = NULL;
    wmx_error err = { 0 };
    int lrc;
    const wmx_program *p = cmd_load_program(ctx, file, &o, &owned, &lrc);
    if (!p)
        return lrc;
    o.cancel = ctx->cancel;
    o.started = ctx->started;
    robust_result rr;
    if (robust_check(p, model, &o, max_viol, fences, &rr, &err) != 0) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        ir_program_free(owned);
        return EXIT_USAGE;
    }
    const char *mn = model == MODEL_TSO ? "TSO" : "PSO";
    fprintf(ctx->out, "Test %s: %ld reads-from classes under %s, %ld not allowed by SC%s\n",
            p->name ? p->name : "?", rr.classes, mn, rr.nviol_total,
            rr.complete ? "" : " (incomplete: a limit stopped the run)");
    wmx_machine *m = machine_new(p, model, &err);
    for (int i = 0; i < rr.nviol && m; i++) {
        fprintf(ctx->out, "\nNon-SC class %d: witness trace under %s\n", i + 1, mn);
        report_trace(ctx->out, m, rr.viol[i].events, rr.viol[i].len);
        fprintf(ctx->out, "Why SC cannot produce it (happens-before cycle):\n%s\n", rr.viol[i].why);
    }
    if (rr.nviol_total > rr.nviol)
        fprintf(ctx->out, "\n(%ld more not shown; --max N)\n", rr.nviol_total - rr.nviol);
    machine_free(m);
    int rc = rr.nviol_total == 0 ? EXIT_OK : EXIT_FAIL;
    if (rr.nviol_total == 0) {
        fprintf(ctx->out, "Robust against %s: every %s class is an SC class.\n", mn, mn);
    } else if (fences) {
        if (rr.fences_found) {
            fprintf(ctx->out, "\nNot robust.  A smallest set of fences that makes it robust (verified):\n");
            for (int i = 0; i < rr.nfences; i++) {
                const ir_instr *in = &p->threads[rr.fences[i].thread].instrs[rr.fences[i].instr];
                fprintf(ctx->out, "  fence after %s instruction %d (line %d: %s)\n",
                        p->threads[rr.fences[i].thread].name, rr.fences[i].instr, in->loc.line,
                        in->text ? in->text : "store");
            }
        } else {
            fprintf(ctx->out, "\nNot robust.  No set of at most 4 fences after stores makes it robust.\n");
        }
    } else {
        fprintf(ctx->out, "\nNot robust.\n");
    }
    if (!rr.complete && rc == EXIT_OK)
        rc = EXIT_LIMIT;
    robust_result_free(&rr);
    ir_program_free(owned);
    return rc;
}
