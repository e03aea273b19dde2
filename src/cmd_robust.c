/* cmd_robust.c - `wmx robust FILE [--model tso|pso] [--max N] [--no-fences] [--json]`:
 * the reads-from classes the relaxed model allows and SC does not (VSC-rf
 * rejects them), each with a witness trace and SC's explanation (the
 * happens-before cycle), and a smallest set of fences after stores that
 * makes the program robust, verified by re-running, named by source
 * position (core/robust.c).  Exit 0 robust, 1 not, 3 when a limit cut the
 * run or the fence search.
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
/* 0 robust, 1 not, 3 when a limit cut the run or the fence search (then
 * neither robustness nor "no fence set" is claimed) */
static int robust_exit(const robust_result *rr, bool searched)
{
    if (rr->nviol_total == 0)
        return rr->complete ? EXIT_OK : EXIT_LIMIT;
    if (searched && !rr->fence_search_complete)
        return EXIT_LIMIT;
    return EXIT_FAIL;
}

/* "examples/sb.wmx:14: x = 1  (P0)", "d.c:9: want[me] = 1  (4 copies: worker.1 x2, worker.2 x2)" */
static void print_site(FILE *out, const wmx_program *p, const fence_site *f)
{
    const ir_instr *in = &p->threads[f->copies[0].thread].instrs[f->copies[0].instr];
    if (f->loc.line > 0)
        fprintf(out, "  fence after %s:%d: %s  (", ir_loc_file(p, f->loc), f->loc.line,
                in->text ? in->text : "store");
    else
        fprintf(out, "  fence after %s instruction %d: %s  (", p->threads[f->copies[0].thread].name,
                f->copies[0].instr, in->text ? in->text : "store");
    if (f->ncopies > 1)
        fprintf(out, "%d copies: ", f->ncopies);
    for (int c = 0; c < f->ncopies; ) {
        int t = f->copies[c].thread, n = 0;
        while (c < f->ncopies && f->copies[c].thread == t)
            c++, n++;
        fprintf(out, "%s%s", c - n > 0 ? ", " : "", p->threads[t].name);
        if (n > 1)
            fprintf(out, " x%d", n);
    }
    fprintf(out, ")\n");
}

static int print_json(FILE *out, const wmx_program *p, const robust_result *rr, wmx_model model,
                      double secs, bool searched)
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
        const fence_site *f = &rr->fences[i];
        const ir_instr *in = &p->threads[f->copies[0].thread].instrs[f->copies[0].instr];
        fprintf(out, "%s{\"file\": ", i ? ", " : "");
        json_string(out, f->loc.line > 0 ? ir_loc_file(p, f->loc) : "");
        fprintf(out, ", \"line\": %d, \"col\": %d, \"text\": ", f->loc.line, f->loc.col);
        json_string(out, in->text ? in->text : "");
        fprintf(out, ", \"copies\": [");
        for (int c = 0; c < f->ncopies; c++) {
            fprintf(out, "%s{\"thread\": ", c ? ", " : "");
            json_string(out, p->threads[f->copies[c].thread].name);
            fprintf(out, ", \"after_instr\": %d}", f->copies[c].instr);
        }
        fprintf(out, "]}");
    }
    fprintf(out, "]");
    if (!robust && searched) {
        fprintf(out, ", \"fence_search\": {\"complete\": %s, \"candidates\": %d, \"sets_tried\": %ld, "
                "\"smallest\": %s, \"stopped\": ",
                rr->fence_search_complete ? "true" : "false", rr->nsites, rr->fence_sets_tried,
                rr->fences_found && rr->fences_smallest ? "true" : "false");
        if (rr->fence_search_complete)
            fprintf(out, "null");
        else
            json_string(out, rr->fence_stop_text[0] ? rr->fence_stop_text : "a limit");
        fprintf(out, "}");
    }
    fprintf(out, "}\n");
    return robust_exit(rr, searched);
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
                            (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9, fences);
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
    int rc = robust_exit(&rr, fences);
    if (rr.nviol_total == 0) {
        if (rr.complete)
            fprintf(ctx->out, "Robust against %s: every %s class is an SC class.\n", mn, mn);
        else
            fprintf(ctx->out, "No non-SC class among the %ld explored, but a limit cut the run (%s):\n"
                    "robustness is not decided.\n", rr.classes, rr.stop_text[0] ? rr.stop_text : "a limit");
    } else if (!fences) {
        fprintf(ctx->out, "\nNot robust.\n");
    } else if (!rr.fence_search_complete) {
        fprintf(ctx->out, "\nNot robust.\nThe fence search stopped by the limit after %ld candidate%s "
                "(%s):\nno claim about fences (%d store position%s to choose from).\n",
                rr.fence_sets_tried, rr.fence_sets_tried == 1 ? "" : "s",
                rr.fence_stop_text[0] ? rr.fence_stop_text : "a limit", rr.nsites, rr.nsites == 1 ? "" : "s");
    } else if (rr.fences_found && rr.fences_smallest) {
        fprintf(ctx->out, "\nNot robust.  A smallest set of fences that makes it robust (verified):\n");
        bool copies = false;
        for (int i = 0; i < rr.nfences; i++) {
            print_site(ctx->out, p, &rr.fences[i]);
            copies |= rr.fences[i].ncopies > 1;
        }
        if (copies)
            fprintf(ctx->out, "(a fence after a source line stands in every copy of its store: each "
                    "thread that runs it,\n each unrolled round, each inlined call)\n");
    } else if (rr.fences_found) {
        fprintf(ctx->out, "\nNot robust.  No set of at most %d fences makes it robust; a fence after each "
                "of its %d store positions does (verified):\n", ROBUST_MAX_FENCES, rr.nsites);
        for (int i = 0; i < rr.nfences; i++)
            print_site(ctx->out, p, &rr.fences[i]);
    } else if (rr.nsites == 0) {
        fprintf(ctx->out, "\nNot robust.  It has no store without a fence after it, so no fence after a "
                "store makes it robust.\n");
    } else {
        fprintf(ctx->out, "\nNot robust.  No set of fences after stores makes it robust: with a fence "
                "after each of its %d store positions a non-SC class remains.\n", rr.nsites);
    }
    robust_result_free(&rr);
    ir_program_free(owned);
    return rc;
}
