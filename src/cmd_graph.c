/* cmd_graph.c - the `graph` command: the execution graph of a trace file
 * (either form) with po/rf/co/fr (and wB->wM) edges styled by kind, as DOT,
 * or rendered to svg/png/pdf through libgvc.  The graph itself is built and
 * rendered by ui/graph.c, which the graph pane shares; in the REPL,
 * `graph hb|exec|wut|tree` opens that pane instead (ui/pane_graph.c). */
#include "cli.h"
#include "exec.h"
#include "graph.h"
#include "verify.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cmd_graph(int argc, char **argv, cmd_ctx *ctx)
{
    gx_view view = GX_HB;
    if (ctx->ui && argc >= 2 && gx_view_parse(argv[1], &view) == 0)
        return ui_graph_cmd(argc, argv, ctx);
    if (ctx->ui && argc >= 2 && argv[1][0] != '-' && access(argv[1], F_OK) != 0) {
        fprintf(ctx->err, "graph: no view '%s': the views are hb, exec, wut and tree "
                          "(or give a trace file to export)\n", argv[1]);
        return EXIT_USAGE;
    }
    const char *file = NULL, *outpath = NULL, *format = NULL, *check = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((strcmp(a, "--view") == 0 || strcmp(a, "--check") == 0) && i + 1 < argc) {
            if (a[2] == 'v' && (gx_view_parse(argv[i + 1], &view) < 0 || view > GX_EXEC)) {
                fprintf(ctx->err, "wmx graph: --view hb or exec (got '%s')\n", argv[i + 1]);
                return EXIT_USAGE;
            }
            if (a[2] == 'c')
                check = argv[i + 1];
            i++;
        } else if (strcmp(a, "--format") == 0 || strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (i + 1 >= argc) {
                fprintf(ctx->err, "wmx: option %s needs a value\n", a);
                return EXIT_USAGE;
            }
            if (a[1] == 'o' || a[2] == 'o')
                outpath = argv[++i];
            else
                format = argv[++i];
        } else if (strncmp(a, "--format=", 9) == 0) {
            format = a + 9;
        } else if (strncmp(a, "--output=", 9) == 0) {
            outpath = a + 9;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(ctx->err, "wmx graph: unknown option '%s'\n", a);
            return EXIT_USAGE;
        } else if (!file) {
            file = a;
        } else {
            fprintf(ctx->err, "wmx graph: more than one file given ('%s')\n", a);
            return EXIT_USAGE;
        }
    }
    if (!format) {
        /* like `export`: the output file's extension says the format */
        const char *ext = outpath ? strrchr(outpath, '.') : NULL;
        format = "dot";
        if (ext && (strcmp(ext, ".svg") == 0 || strcmp(ext, ".png") == 0 || strcmp(ext, ".pdf") == 0 ||
                    strcmp(ext, ".dot") == 0 || strcmp(ext, ".gv") == 0))
            format = strcmp(ext, ".gv") == 0 ? "dot" : ext + 1;
    }
    bool dot = strcmp(format, "dot") == 0;
    if (!dot && strcmp(format, "svg") && strcmp(format, "png") && strcmp(format, "pdf")) {
        fprintf(ctx->err, "wmx graph: unknown format '%s' (dot, svg, png or pdf)\n", format);
        return EXIT_USAGE;
    }
    if (!file) {
        fprintf(ctx->err, "usage: wmx graph TRACE-FILE [--format dot|svg|png|pdf] [-o FILE]\n");
        return EXIT_USAGE;
    }
    if (!dot && !outpath) {
        fprintf(ctx->err, "wmx graph: --format %s needs -o FILE\n", format);
        return EXIT_USAGE;
    }
    wmx_model check_model = MODEL_SC;
    if (check && model_parse(check, &check_model) < 0) {
        fprintf(ctx->err, "wmx graph: --check sc, tso or pso (got '%s')\n", check);
        return EXIT_USAGE;
    }
    if (access(file, F_OK) == 0 && !exec_is_trace_file(file)) {
        fprintf(ctx->err, "wmx graph: %s is a program, and graph draws one execution: a trace file.\n"
                          "  Make one with `wmx run %s --save T.trace` (a random run) or\n"
                          "  `wmx check %s --outcome 'COND' --save T.trace` (a run to an outcome),\n"
                          "  then `wmx graph T.trace`.\n", file, file, file);
        return EXIT_USAGE;
    }
    wmx_error err = { 0 };
    wmx_program *p = NULL;
    wmx_exec *x = exec_load(file, &p, &err);
    if (!x) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        return EXIT_USAGE;
    }
    int rc = EXIT_OK;
    verify_result vr;
    if (check)
        verify_check(x, check_model, VERIFY_EXPLAIN, &vr);
    gx_graph *g = gx_from_exec(x, view, x->model, true, check ? &vr : NULL);
    if (dot && !outpath) {
        char *text = gx_dot(g);
        if (text)
            fputs(text, ctx->out);
        else
            rc = EXIT_USAGE;
        free(text);
    } else {
        char msg[1024];
        if (gx_export(g, outpath, format, msg, sizeof msg) < 0) {
            fprintf(ctx->err, "wmx graph: %s\n", msg);
            rc = EXIT_USAGE;
        }
    }
    if (check && !vr.consistent && vr.text)
        fprintf(ctx->err, "%s", vr.text);
    if (check)
        verify_result_free(&vr);
    gx_free(g);
    exec_free(x);
    ir_program_free(p);
    return rc;
}
