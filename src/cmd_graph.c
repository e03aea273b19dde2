/* cmd_graph.c - the `graph` command: the execution graph of a trace file
 * (either form) with po/rf/co/fr edges styled by kind, as DOT, or rendered
 * to svg/png/pdf through libgvc. */
#include "cli.h"
#include "exec.h"

#include <gvc.h>
#include <stdlib.h>
#include <string.h>

static void dot_escape(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if (*s == '\n')
            fputs("\\n", out);
        else
            fputc(*s, out);
    }
}

static void write_dot(FILE *out, const wmx_exec *x)
{
    const wmx_program *p = x->prog;
    xedge *edges;
    int ne = exec_edges(x, &edges);
    fprintf(out, "digraph execution {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
                 "  edge [fontname=\"monospace\", fontsize=9];\n  label=\"");
    dot_escape(out, p->name ? p->name : "execution");
    fprintf(out, " (%s)\";\n", model_name(x->model));
    /* initial values that some edge uses */
    bool *init_used = calloc((size_t)x->ncells + 1, sizeof(bool));
    for (int i = 0; i < ne; i++)
        if (edges[i].from < 0 && edges[i].cell >= 0)
            init_used[edges[i].cell] = true;
    for (int c = 0; c < x->ncells; c++)
        if (init_used[c]) {
            char cn[128];
            fprintf(out, "  init_%d [label=\"init %s=%lld\", style=dashed];\n", c,
                    ir_cell_name(p, c, cn, sizeof cn), (long long)x->cell_init[c]);
        }
    free(init_used);
    for (int t = 0; t < x->nthreads; t++) {
        fprintf(out, "  subgraph cluster_%d {\n    label=\"", t);
        dot_escape(out, p->threads[t].name);
        fprintf(out, "\";\n");
        for (int e = x->tstart[t]; e < x->tstart[t + 1]; e++) {
            char d[512];
            exec_event_describe(x, e, d, sizeof d);
            fprintf(out, "    e%d [label=\"", e);
            dot_escape(out, d);
            fprintf(out, "\"%s];\n", x->ev[e].kind == X_WRITE && !x->ev[e].flushed ? ", style=dotted" : "");
        }
        fprintf(out, "  }\n");
    }
    for (int i = 0; i < ne; i++) {
        const xedge *g = &edges[i];
        const char *style = "";
        switch (g->kind) {
        case REL_PO: style = "color=black, label=\"po\""; break;
        case REL_RF: style = "color=red, fontcolor=red, label=\"rf\""; break;
        case REL_CO: style = "color=blue, fontcolor=blue, label=\"co\", style=bold"; break;
        case REL_FR: style = "color=orange, fontcolor=orange, label=\"fr\", style=dashed"; break;
        default: style = "color=gray"; break;
        }
        if (g->from < 0)
            fprintf(out, "  init_%d -> e%d [%s];\n", g->cell, g->to, style);
        else
            fprintf(out, "  e%d -> e%d [%s];\n", g->from, g->to, style);
    }
    fprintf(out, "}\n");
    free(edges);
}

int cmd_graph(int argc, char **argv, cmd_ctx *ctx)
{
    const char *file = NULL, *outpath = NULL, *format = "dot";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--format") == 0 || strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
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
    wmx_error err = { 0 };
    wmx_program *p = NULL;
    wmx_exec *x = exec_load(file, &p, &err);
    if (!x) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        return EXIT_USAGE;
    }
    int rc = EXIT_OK;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        fprintf(ctx->err, "wmx graph: out of memory\n");
        rc = EXIT_USAGE;
        goto out;
    }
    write_dot(mem, x);
    fclose(mem);
    if (dot) {
        if (outpath) {
            if (wmx_write_file_atomic(outpath, text, len, &err) < 0) {
                char buf[1024];
                fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
                rc = EXIT_USAGE;
            }
        } else {
            fwrite(text, 1, len, ctx->out);
        }
    } else {
        GVC_t *gvc = gvContext();
        Agraph_t *g = agmemread(text);
        bool laid = g && gvLayout(gvc, g, "dot") == 0;
        if (!laid || gvRenderFilename(gvc, g, format, outpath) != 0) {
            fprintf(ctx->err, "wmx graph: graphviz could not render %s\n", outpath);
            rc = EXIT_USAGE;
        }
        if (g) {
            if (laid)
                gvFreeLayout(gvc, g);
            agclose(g);
        }
        gvFreeContext(gvc);
    }
out:
    free(text);
    exec_free(x);
    ir_program_free(p);
    return rc;
}
