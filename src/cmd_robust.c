/* cmd_robust.c - `wmx robust FILE [--model tso|pso] [--max N] [--no-fences] [--json]`:
 * the reads-from classes the relaxed model allows and SC does not (VSC-rf
 * rejects them), each with a witness trace and SC's explanation (the
 * happens-before cycle), and a smallest set of fences after stores that
 * makes the program robust, verified by re-running.  Exit 0 robust, 1 not.
 * PGAS programs go to src/cmd_pgas.c. */
#include "cli.h"
#include "load.h"
#include "report.h"
#include "robust.h"
#include "cmd_pgas.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --json: the keys of the PGAS robust report where they apply (states =
 * reads-from classes; cycle = lines of the first violation's explanation;
 * computation = its witness trace). */
static int print_json(FILE *out, const wmx_program *p, const robust_result *rr, wmx_model model,
                      double secs)
{
    bool robust = rr->nviol_total == 0;
    fprintf(out, "{\"test\": ");
    json_string(out, p->name ? p->name : "");
    fprintf(out, ", \"robust\": %s, \"model\": \"%s\", \"method\": \"vsc-rf\", \"states\": %ld, "
            "\"violations\": %ld, \"time_s\": %.6f, \"complete\": %s, \"cycle\": ",
            robust ? "true" : "false", model_name(model), rr->classes, rr->nviol_total, secs,
            rr->complete ? "true" : "false");
    if (robust || rr->nviol == 0) {
        fprintf(out, "null, \"computation\": null");
    } else {
        fputc('[', out);
        const char *w = rr->viol[0].why ? rr->viol[0].why : "";
        bool first = true;
        while (*w) {
            const char *nl = strchr(w, '\n');
            size_t n = nl ? (size_t)(nl - w) : strlen(w);
            if (n > 0) {
                char *line = malloc(n + 1);
                memcpy(line, w, n);
                line[n] = '\0';
                fputs(first ? "" : ", ", out);
                json_string(out, line);
                free(line);
                first = false;
            }
            w += n + (nl ? 1 : 0);
        }
        fprintf(out, "], \"computation\": [");
        wmx_error err = { 0 };
        wmx_machine *m = machine_new(p, model, &err);
        for (int i = 0; m && i < rr->viol[0].len; i++) {
            char d[512];
            machine_describe(m, &rr->viol[0].events[i], d, sizeof d);
            fputs(i ? ", " : "", out);
            json_string(out, d);
        }
        machine_free(m);
        fputc(']', out);
    }
    fprintf(out, ", \"fences\": [");
    for (int i = 0; rr->fences_found && i < rr->nfences; i++) {
        const ir_instr *in = &p->threads[rr->fences[i].thread].instrs[rr->fences[i].instr];
        fprintf(out, "%s{\"thread\": ", i ? ", " : "");
        json_string(out, p->threads[rr->fences[i].thread].name);
        fprintf(out, ", \"after_instr\": %d, \"line\": %d}", rr->fences[i].instr, in->loc.line);
    }
    fprintf(out, "]}\n");
    return robust ? (rr->complete ? EXIT_OK : EXIT_LIMIT) : EXIT_FAIL;
}

int cmd_robust(int argc, char **argv, cmd_ctx *ctx)
{
    int pgas_rc;
    if (pgas_dispatch("robust", argc, argv, ctx, &pgas_rc))
        return pgas_rc;
    const char *file = NULL;
    wmx_model model = ctx->current ? ctx->current_model : MODEL_TSO;
    if (model == MODEL_SC)
        model = MODEL_TSO;
    int max_viol = 5;
    bool fences = true, json = false;
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
        } else if (strcmp(a, "--json") == 0) {
            json = true;
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
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (robust_check(p, model, &o, max_viol, fences, &rr, &err) != 0) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        ir_program_free(owned);
        return EXIT_USAGE;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (json) {
        int rc = print_json(ctx->out, p, &rr, model,
                            (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
        robust_result_free(&rr);
        ir_program_free(owned);
        return rc;
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
