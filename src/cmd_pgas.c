/* cmd_pgas.c - `wmx explore` and `wmx robust` on PGAS programs (seed 001).
 *
 * cmd_explore and cmd_robust hand a PGAS program over to these at their
 * start (pgas_dispatch), so each command keeps one name and one help entry.
 *   wmx explore FILE [--ranks N] [--json] [--timeout S] [--max-states N]
 *   wmx robust  FILE [--ranks N] [--json] [--method nf|search] [--timeout S] [--max-states N]
 *               [--dot FILE]   (the violating computation's hb as Graphviz text)
 * Exit codes: explore 0 / 1 (an assertion fails) / 2 / 3; robust 0 robust,
 * 1 not robust, 2 input error, 3 a limit stopped it.
 */
#include "cli.h"
#include "load.h"
#include "pgas.h"
#include "report.h"
#include "cmd_pgas.h"

#include <math.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Options of explore/robust that take a value (to find FILE among argv). */
static bool takes_value(const char *a)
{
    static const char *const v[] = { "--model", "--algo", "--max-traces", "--timeout", "--format",
                                     "--dump-wut", "--ranks", "--max-states", "--method", "--max", NULL };
    for (int i = 0; v[i]; i++)
        if (strcmp(a, v[i]) == 0)
            return true;
    return false;
}

static const char *find_file(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            if (takes_value(argv[i]))
                i++;
            continue;
        }
        return argv[i];
    }
    return NULL;
}

static int num_opt(cmd_ctx *ctx, const char *cmd, const char *name, const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long n = v ? strtol(v, &end, 10) : 0;
    if (!v || errno || *v == '\0' || *end != '\0' || n < lo || n > hi) {
        fprintf(ctx->err, "wmx %s: %s needs a number from %ld to %ld\n", cmd, name, lo, hi);
        return -1;
    }
    *out = n;
    return 0;
}

static void print_addr_json(FILE *out, const pgas_machine *m, const pgas_event *e)
{
    if (e->cell < 0) {
        fputs("null", out);
        return;
    }
    char c[128];
    fprintf(out, "[%d, ", e->addr_rank);
    json_string(out, ir_cell_name(pgas_program(m), e->cell, c, sizeof c));
    fputc(']', out);
}

static const ir_instr *ev_instr(const pgas_machine *m, const pgas_event *e)
{
    const ir_thread *th = &pgas_program(m)->threads[0];
    return e->instr >= 0 && e->instr < th->ninstrs ? &th->instrs[e->instr] : NULL;
}

static void print_event_json(FILE *out, const pgas_machine *m, const pgas_event *e, int index)
{
    const ir_instr *in = ev_instr(m, e);
    fprintf(out, "{\"index\": %d, \"rank\": %d, \"kind\": \"%s\", \"address\": ", index, e->rank,
            pgas_ev_name(e->kind));
    print_addr_json(out, m, e);
    if (e->cell >= 0)
        fprintf(out, ", \"value\": %lld", (long long)e->value);
    if (e->queue >= 0)
        fprintf(out, ", \"queue\": %d", e->queue);
    fprintf(out, ", \"line\": %d, \"text\": ", in ? in->loc.line : 0);
    json_string(out, in && in->text ? in->text : "");
    fputc('}', out);
}

static void event_short(const pgas_machine *m, const pgas_event *e, char *buf, size_t n)
{
    char c[128];
    if (e->cell >= 0)
        snprintf(buf, n, "%s R%d:%s", pgas_ev_name(e->kind), e->addr_rank,
                 ir_cell_name(pgas_program(m), e->cell, c, sizeof c));
    else if (e->queue >= 0)
        snprintf(buf, n, "%s q%d", pgas_ev_name(e->kind), e->queue);
    else
        snprintf(buf, n, "%s", pgas_ev_name(e->kind));
}

/* An event in words: "rank 1's remote write into R0:y"; with its_rank,
 * "its ..." (the rank was just named). */
static void event_words(const pgas_machine *m, const pgas_event *e, bool its_rank, char *buf, size_t n)
{
    char who[32], c[128] = "", where[160] = "";
    snprintf(who, sizeof who, its_rank ? "its" : "rank %d's", e->rank);
    if (e->cell >= 0) {
        ir_cell_name(pgas_program(m), e->cell, c, sizeof c);
        if (e->addr_rank == e->rank && (e->kind == PE_LOAD || e->kind == PE_STORE))
            snprintf(where, sizeof where, "%s", c);
        else
            snprintf(where, sizeof where, "R%d:%s", e->addr_rank, c);
    }
    const ir_instr *in = ev_instr(m, e);
    const char *xfer = in && in->kind == I_PREAD ? "remote read" : "remote write";
    switch (e->kind) {
    case PE_LOAD:  snprintf(buf, n, "%s load of %s", who, where); break;
    case PE_STORE: snprintf(buf, n, "%s store to %s", who, where); break;
    case PE_READ:  snprintf(buf, n, "%s remote read request", who); break;
    case PE_WRITE: snprintf(buf, n, "%s remote write request", who); break;
    case PE_POPA:  snprintf(buf, n, "%s %s taking %s", who, xfer, where); break;
    case PE_POPB:  snprintf(buf, n, "%s %s into %s", who, xfer, where); break;
    case PE_BAR:   snprintf(buf, n, "%s barrier", who); break;
    case PE_QUIET: snprintf(buf, n, "%s quiet", who); break;
    }
}

static bool writes_memory(pgas_ev_kind k) { return k == PE_STORE || k == PE_POPB; }

/* How x leads to y in words: "comes before (po)" and the like. */
static const char *relation_words(const pgas_event *x, const pgas_event *y, pgas_rel rel)
{
    switch (rel) {
    case PGAS_REL_PO: return "comes before (po)";
    case PGAS_REL_ID:
        return x->kind == PE_BAR ? "is the same barrier as (<->)" : "is part of the same transfer as (<->)";
    case PGAS_REL_CF:
        if (!writes_memory(x->kind))
            return "reads before (cf)";
        return writes_memory(y->kind) ? "is overwritten by (cf)" : "is read by (cf)";
    }
    return "?";
}

/* Prints text wrapped at width columns, every line indented. */
static void print_wrapped(FILE *out, const char *text, int indent, int width)
{
    const char *s = text;
    while (*s) {
        int avail = width - indent, len = (int)strlen(s);
        int cut = len;
        if (len > avail) {
            cut = avail;
            while (cut > 0 && s[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = avail;
        }
        fprintf(out, "%*s%.*s\n", indent, "", cut, s);
        s += cut;
        while (*s == ' ')
            s++;
    }
}

/* The cycle as a sentence ("rank 0's barrier (step 4) comes before (po)
 * its load of y (step 6), which reads before (cf) ..."), then the same in
 * the a/b/c/d names of the paper's Lemma 17 on a line of its own. */
static void print_cycle_words(FILE *out, const pgas_machine *m, const pgas_robust_result *res)
{
    wmx_strbuf b = { 0 };
    for (int i = 0; i <= res->ncycle; i++) {
        const pgas_cycle_elem *c = &res->cycle[i % res->ncycle];
        const pgas_event *e = &res->events[c->event];
        char w[300];
        bool its = i > 0 && res->events[res->cycle[i - 1].event].rank == e->rank;
        event_words(m, e, its, w, sizeof w);
        if (i == res->ncycle) {
            wmx_strbuf_printf(&b, "%s again.", w);
            break;
        }
        const pgas_event *next = &res->events[res->cycle[(i + 1) % res->ncycle].event];
        wmx_strbuf_printf(&b, "%s (step %d)%s%s ", w, pgas_event_step(res, c->event) + 1,
                          i ? ", which " : " ", relation_words(e, next, c->next));
    }
    /* a sentence starts with a capital */
    if (b.s && b.s[0] == 'r')
        b.s[0] = 'R';
    else if (b.s && b.s[0] == 'i')
        b.s[0] = 'I';
    fprintf(out, "Why: these events form a happens-before cycle (an event cannot come before itself):\n");
    print_wrapped(out, b.s ? b.s : "", 2, 78);
    free(b.s);
    wmx_strbuf n = { 0 };
    wmx_strbuf_printf(&n, "(as in the paper's Lemma 17:");
    for (int i = 0; i < res->ncycle; i++) {
        const pgas_cycle_elem *c = &res->cycle[i];
        char role[64] = "";
        for (const char *r = c->role; *r; r++) {
            size_t l = strlen(role);
            if (*r == '=')
                snprintf(role + l, sizeof role - l, "=");
            else
                snprintf(role + l, sizeof role - l, "%c%d", *r, c->seg + 1);
        }
        wmx_strbuf_printf(&n, "%s %s step %d", i ? "," : "", role, pgas_event_step(res, c->event) + 1);
    }
    wmx_strbuf_printf(&n, ")");
    print_wrapped(out, n.s, 2, 78);
    free(n.s);
}

/* A computation numbered by machine steps, as the explorer's timeline: a
 * barrier is one step (one bar event per rank). */
static void print_steps(FILE *out, const pgas_machine *m, const pgas_path *path, const pgas_event *ev, int nev)
{
    for (int i = 0, e = 0; i < path->len && e < nev; i++) {
        if (path->steps[i].kind == PT_BARRIER) {
            const ir_instr *in = ev_instr(m, &ev[e]);
            fprintf(out, "  %3d  barrier: all %d ranks pass it   (line %d: %s)\n", i + 1, pgas_nranks(m),
                    in ? in->loc.line : 0, in && in->text ? in->text : "");
            e += pgas_nranks(m);
            continue;
        }
        char d[512];
        pgas_describe(m, &ev[e++], d, sizeof d);
        fprintf(out, "  %3d  %s\n", i + 1, d);
    }
}

/* ---- explore ---- */

/* --ranks, --max-states, --timeout: shared by explore and robust.  1 when
 * argv[*i] was one of them (value consumed), 0 when not, -1 on a bad value. */
static int limit_opt(cmd_ctx *ctx, const char *cmd, int argc, char **argv, int *i, pgas_opts *o)
{
    const char *a = argv[*i];
    const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    long n;
    if (strcmp(a, "--ranks") == 0) {
        if (num_opt(ctx, cmd, "--ranks", v, 1, WMX_PGAS_MAX_RANKS, &n))
            return -1;
        o->nranks = (int)n;
    } else if (strcmp(a, "--max-states") == 0) {
        if (num_opt(ctx, cmd, "--max-states", v, 1, 1000000000L, &n))
            return -1;
        o->max_states = n;
    } else if (strcmp(a, "--timeout") == 0) {
        char *end;
        double d = v ? strtod(v, &end) : -1;
        if (!v || *v == '\0' || *end || !isfinite(d) || d < 0) {
            fprintf(ctx->err, "wmx %s: --timeout needs a finite number of seconds, got '%s'\n", cmd,
                    v ? v : "nothing");
            return -1;
        }
        o->timeout_s = d;
    } else {
        return 0;
    }
    if (v)
        (*i)++;
    return 1;
}

/* The state a witness ends in (caller frees). */
static void *witness_end(const pgas_machine *m, const pgas_path *w)
{
    void *s = wmx_malloc(pgas_state_size(m));
    pgas_init(m, s);
    for (int i = 0; i < w->len; i++)
        pgas_apply(m, s, &w->steps[i], NULL);
    return s;
}

/* What stops each rank of a blocked end state, in words ("R2 waits at the
 * barrier of line 8, which R0 never reaches"). */
static void blocked_rank_text(const pgas_machine *m, const void *s, int r, char *buf, size_t n)
{
    char why[600];
    pgas_rank_why(m, s, r, why, sizeof why);
    const ir_instr *in = &pgas_program(m)->threads[0].instrs[0];
    bool at_barrier = pgas_status(m, s, r) == TS_RUNNING && in[pgas_pc(m, s, r)].kind == I_BARRIER;
    if (!at_barrier) {
        snprintf(buf, n, "R%d %s%s", r, pgas_status(m, s, r) == TS_BLOCKED ? "is " : "", why);
        return;
    }
    wmx_strbuf b = { 0 };
    int k = 0;
    for (int o = 0; o < pgas_nranks(m); o++)
        if (!(pgas_status(m, s, o) == TS_RUNNING && in[pgas_pc(m, s, o)].kind == I_BARRIER))
            wmx_strbuf_printf(&b, "%sR%d", k++ ? ", " : "", o);
    snprintf(buf, n, "R%d %s, which %s never reach%s", r, why, b.s ? b.s : "?", k == 1 ? "es" : "");
    free(b.s);
}

#define BLOCKED_SHOW 5
/* Per kind of blocked end: the ranks that stop and why, the finished ones
 * in a word; a shortest computation into the first kind. */
static void print_blocked(FILE *out, const pgas_machine *m, const pgas_explore_result *res)
{
    if (res->nblocked == 0) {
        fprintf(out, "Blocked computations: 0\n");
        return;
    }
    fprintf(out, "Blocked computations: %ld end%s with ranks that cannot go on:\n", res->nblocked,
            res->nblocked == 1 ? "s" : "");
    long listed = 0;
    int shown = res->nblocked_at < BLOCKED_SHOW ? res->nblocked_at : BLOCKED_SHOW;
    for (int k = 0; k < shown; k++) {
        const pgas_blocked *b = &res->blocked_at[k];
        listed += b->count;
        wmx_strbuf w = { 0 }, done = { 0 };
        wmx_strbuf_printf(&w, "%ld end%s where", b->count, b->count == 1 ? "s" : "");
        void *s = witness_end(m, &b->witness);
        int nstop = 0, ndone = 0;
        for (int r = 0; r < res->nranks; r++) {
            if (pgas_status(m, s, r) == TS_DONE) {
                wmx_strbuf_printf(&done, "%sR%d", ndone++ ? ", " : "", r);
                continue;
            }
            char t[900];
            blocked_rank_text(m, s, r, t, sizeof t);
            wmx_strbuf_printf(&w, "%s %s", nstop++ ? ";" : "", t);
        }
        if (ndone)
            wmx_strbuf_printf(&w, "; %s %s finished", done.s, ndone == 1 ? "has" : "have");
        print_wrapped(out, w.s, 2, 78);
        free(s);
        free(w.s);
        free(done.s);
        if (k > 0)
            continue;
        wmx_strbuf c = { 0 };
        wmx_strbuf_printf(&c, "a shortest computation into it (%d step%s):", b->witness.len,
                          b->witness.len == 1 ? "" : "s");
        for (int i = 0; i < b->witness.len; i++) {
            char nm[64];
            pgas_transition_name(&b->witness.steps[i], nm, sizeof nm);
            wmx_strbuf_printf(&c, "%s %s", i ? "," : "", nm);
        }
        print_wrapped(out, c.s, 4, 78);
        free(c.s);
    }
    if (listed < res->nblocked)
        fprintf(out, "  and %ld more that stop elsewhere (--json lists up to %d kinds)\n", res->nblocked - listed,
                PGAS_MAX_BLOCKED_AT);
    for (int k = 0; k < res->nblocked_at; k++)
        for (int r = 0; r < res->nranks; r++)
            if (res->blocked_at[k].status[r] == TS_BLOCKED &&
                ir_is_loop_bound(pgas_program(m), 0, res->blocked_at[k].pc[r])) {
                fprintf(out, "  (a loop bound cuts computations: raise `bound N` if the loop may run longer)\n");
                return;
            }
}

static int pgas_explore_cmd(int argc, char **argv, cmd_ctx *ctx, const wmx_program *p)
{
    pgas_opts o;
    pgas_opts_init(&o);
    o.cancel = ctx->cancel;
    bool json = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int common = limit_opt(ctx, "explore", argc, argv, &i, &o);
        if (common < 0)
            return EXIT_USAGE;
        if (common > 0)
            continue;
        if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--format") == 0 && i + 1 < argc &&
                   (strcmp(argv[i + 1], "json") == 0 || strcmp(argv[i + 1], "text") == 0)) {
            json = strcmp(argv[++i], "json") == 0;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(ctx->err, "wmx explore: option '%s' does not apply to PGAS programs "
                              "(--ranks, --json, --timeout, --max-states)\n", a);
            return EXIT_USAGE;
        }
    }
    pgas_explore_result res;
    wmx_error err = { 0 };
    if (pgas_explore(p, &o, &res, &err) < 0) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        pgas_explore_result_free(&res);
        return EXIT_USAGE;
    }
    wmx_error e2 = { 0 };
    pgas_machine *m = pgas_machine_new(p, o.nranks, o.qcap, &e2);
    const ir_thread *th = &p->threads[0];
    if (json) {
        fprintf(ctx->out, "{\"test\": ");
        json_string(ctx->out, p->name);
        fprintf(ctx->out, ", \"ranks\": %d, \"queues\": %d, \"states\": %ld, \"complete\": %s, "
                "\"time_s\": %.6f, \"final_states\": [", res.nranks, res.nqueues, res.states,
                res.complete ? "true" : "false", res.time_s);
        for (int i = 0; i < res.nfinal; i++) {
            fputs(i ? ", " : "", ctx->out);
            json_string(ctx->out, res.final_text[i]);
        }
        fprintf(ctx->out, "], \"blocked\": %ld, \"blocked_at\": [", res.nblocked);
        for (int k = 0; k < res.nblocked_at && m; k++) {
            const pgas_blocked *b = &res.blocked_at[k];
            fprintf(ctx->out, "%s{\"count\": %ld, \"ranks\": [", k ? ", " : "", b->count);
            void *s = witness_end(m, &b->witness);
            for (int r = 0; r < res.nranks; r++) {
                char t[900];
                blocked_rank_text(m, s, r, t, sizeof t);
                const ir_instr *in = b->pc[r] >= 0 ? &th->instrs[b->pc[r]] : NULL;
                fprintf(ctx->out, "%s{\"rank\": %d, \"line\": %d, \"why\": ", r ? ", " : "", r,
                        in ? in->loc.line : 0);
                json_string(ctx->out, t);
                fputc('}', ctx->out);
            }
            free(s);
            fprintf(ctx->out, "], \"witness\": [");
            for (int i = 0; i < b->witness.len; i++) {
                char nm[64];
                pgas_transition_name(&b->witness.steps[i], nm, sizeof nm);
                fputs(i ? ", " : "", ctx->out);
                json_string(ctx->out, nm);
            }
            fprintf(ctx->out, "]}");
        }
        fprintf(ctx->out, "], \"assertion_failures\": [");
        for (int i = 0; i < res.nfail; i++) {
            const ir_instr *in = &th->instrs[res.fails[i].instr];
            fprintf(ctx->out, "%s{\"rank\": %d, \"line\": %d, \"col\": %d, \"text\": ", i ? ", " : "",
                    res.fails[i].rank, in->loc.line, in->loc.col);
            json_string(ctx->out, in->text ? in->text : "");
            fprintf(ctx->out, ", \"witness\": [");
            for (int k = 0; k < res.fails[i].witness.len; k++) {
                char b[64];
                pgas_transition_name(&res.fails[i].witness.steps[k], b, sizeof b);
                fputs(k ? ", " : "", ctx->out);
                json_string(ctx->out, b);
            }
            fprintf(ctx->out, "]}");
        }
        fprintf(ctx->out, "]}\n");
    } else {
        fprintf(ctx->out, "Test %s: PGAS, %d ranks, %d queue%s per rank: %ld states%s\n", p->name,
                res.nranks, res.nqueues, res.nqueues == 1 ? "" : "s", res.states,
                res.complete ? "" : " (incomplete: a limit stopped the run)");
        fprintf(ctx->out, "Terminated states (%d):\n", res.nfinal);
        for (int i = 0; i < res.nfinal; i++)
            fprintf(ctx->out, "  %s\n", res.final_text[i]);
        if (m)
            print_blocked(ctx->out, m, &res);
        if (res.nfail == 0)
            fprintf(ctx->out, "No assertion fails.\n");
        for (int i = 0; i < res.nfail; i++) {
            const ir_instr *in = &th->instrs[res.fails[i].instr];
            fprintf(ctx->out, "%s:%d:%d: assertion fails on rank %d: %s\n", p->file, in->loc.line,
                    in->loc.col, res.fails[i].rank, in->text ? in->text : "");
            if (m) {
                pgas_event *ev;
                int nev;
                pgas_replay(m, &res.fails[i].witness, &ev, &nev);
                fprintf(ctx->out, "  witness (%d steps):\n", res.fails[i].witness.len);
                print_steps(ctx->out, m, &res.fails[i].witness, ev, nev);
                free(ev);
            }
        }
    }
    int rc = res.nfail ? EXIT_FAIL : !res.complete ? EXIT_LIMIT : EXIT_OK;
    if (!res.complete)
        fprintf(ctx->err, "wmx: partial result: stopped by %s\n", res.stop_reason);
    pgas_machine_free(m);
    pgas_explore_result_free(&res);
    return rc;
}

/* ---- robust ---- */

/* Graphviz text of the violating computation's hb: one cluster per rank,
 * po solid, cf dashed, <-> thick grey without arrow heads, the cycle's
 * steps red (a po+ step of the cycle is drawn as one red edge). */
void pgas_write_dot(FILE *out, const wmx_program *p, const pgas_robust_result *res)
{
    wmx_error err = { 0 };
    pgas_machine *m = pgas_machine_new(p, res->nranks, 0, &err);
    if (!m)
        return;
    bool *in_cycle = calloc((size_t)res->nevents + 1, sizeof *in_cycle);
    for (int i = 0; i < res->ncycle; i++)
        in_cycle[res->cycle[i].event] = true;
    fprintf(out, "digraph hb {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n");
    fprintf(out, "  label=\"%s: happens-before of a violating computation (red: the cycle)\";\n", p->name);
    for (int r = 0; r < res->nranks; r++) {
        fprintf(out, "  subgraph cluster_r%d {\n    label=\"rank %d\";\n", r, r);
        for (int i = 0; i < res->nevents; i++) {
            const pgas_event *e = &res->events[i];
            if (e->rank != r)
                continue;
            char d[160];
            event_short(m, e, d, sizeof d);
            const ir_instr *in = ev_instr(m, e);
            const char *role = "";
            for (int k = 0; k < res->ncycle; k++)
                if (res->cycle[k].event == i)
                    role = res->cycle[k].role;
            fprintf(out, "    e%d [label=\"#%d %s\\nline %d%s%s\"%s];\n", i, i + 1, d, in ? in->loc.line : 0,
                    *role ? "  " : "", role, in_cycle[i] ? ", color=red, penwidth=2" : "");
        }
        fprintf(out, "  }\n");
    }
    pgas_edge *edges;
    int ne = pgas_hb_edges(m, res->events, res->nevents, &edges);
    for (int i = 0; i < ne; i++) {
        const pgas_edge *x = &edges[i];
        const char *style = x->kind == PGAS_EDGE_PO ? "label=\"po\""
                          : x->kind == PGAS_EDGE_CF ? "style=dashed, color=blue, label=\"cf\""
                          : "dir=none, style=bold, color=gray50, penwidth=3, label=\"<->\"";
        fprintf(out, "  e%d -> e%d [%s];\n", x->from, x->to, style);
    }
    for (int i = 0; i < res->ncycle; i++) {
        int a = res->cycle[i].event, b = res->cycle[(i + 1) % res->ncycle].event;
        fprintf(out, "  e%d -> e%d [color=red, penwidth=2, constraint=false];\n", a, b);
    }
    fprintf(out, "}\n");
    free(edges);
    free(in_cycle);
    pgas_machine_free(m);
}

void pgas_print_robust(FILE *out, const wmx_program *p, const pgas_robust_result *res, bool json)
{
    wmx_error err = { 0 };
    pgas_machine *m = pgas_machine_new(p, res->nranks, 0, &err);
    if (!m)
        return;
    if (json) {
        fprintf(out, "{\"test\": ");
        json_string(out, p->name);
        fprintf(out, ", \"robust\": %s, \"ranks\": %d, \"queues\": %d, \"method\": \"%s\", "
                "\"states\": %ld, \"time_s\": %.6f, \"complete\": %s",
                res->robust ? "true" : "false", res->nranks, res->nqueues, pgas_method_name(res->method),
                res->states, res->time_s, res->complete ? "true" : "false");
        if (!res->complete && res->stop_reason) {
            fprintf(out, ", \"stop_reason\": ");
            json_string(out, res->stop_reason);
        }
        fprintf(out, ", \"cycle\": ");
        if (res->robust || res->ncycle == 0) {
            fputs("null", out);
        } else {
            fputc('[', out);
            for (int i = 0; i < res->ncycle; i++) {
                const pgas_cycle_elem *c = &res->cycle[i];
                const pgas_event *e = &res->events[c->event];
                const ir_instr *in = ev_instr(m, e);
                fprintf(out, "%s{\"rank\": %d, \"kind\": \"%s\", \"address\": ", i ? ", " : "",
                        e->rank, pgas_ev_name(e->kind));
                print_addr_json(out, m, e);
                fprintf(out, ", \"line\": %d, \"role\": \"%s\", \"segment\": %d, \"event\": %d, "
                        "\"step\": %d, \"next\": \"%s\"}",
                        in ? in->loc.line : 0, c->role, c->seg + 1, c->event, pgas_event_step(res, c->event) + 1,
                        c->next == PGAS_REL_PO ? "po" : c->next == PGAS_REL_CF ? "cf" : "<->");
            }
            fputc(']', out);
        }
        fprintf(out, ", \"computation\": ");
        if (res->robust) {
            fputs("null", out);
        } else {
            fputc('[', out);
            for (int i = 0; i < res->nevents; i++) {
                fputs(i ? ", " : "", out);
                print_event_json(out, m, &res->events[i], i);
            }
            fprintf(out, "], \"steps\": [");
            for (int i = 0; i < res->computation.len; i++) {
                char b[64];
                pgas_transition_name(&res->computation.steps[i], b, sizeof b);
                fputs(i ? ", " : "", out);
                json_string(out, b);
            }
            fputc(']', out);
        }
        fprintf(out, "}\n");
        pgas_machine_free(m);
        return;
    }
    fprintf(out, "Test %s: PGAS, %d ranks, %d queue%s per rank; method %s: %ld states, %.3f s\n",
            p->name, res->nranks, res->nqueues, res->nqueues == 1 ? "" : "s",
            pgas_method_name(res->method), res->states, res->time_s);
    if (res->robust) {
        if (res->complete)
            fprintf(out, "Robust: no computation has a happens-before cycle (po, cf, <->) outside <->.\n");
        else
            fprintf(out, "No violation found, but a limit (%s) stopped the search: robustness unknown.\n",
                    res->stop_reason ? res->stop_reason : "?");
        pgas_machine_free(m);
        return;
    }
    fprintf(out, "Not robust: this computation has a happens-before cycle that is not inside <->.\n");
    if (res->ncycle > 0)
        print_cycle_words(out, m, res);
    fprintf(out, "Violating computation (%d steps; `robust` in the explorer makes it the timeline):\n",
            res->computation.len);
    print_steps(out, m, &res->computation, res->events, res->nevents);
    pgas_machine_free(m);
}

static int pgas_robust_cmd(int argc, char **argv, cmd_ctx *ctx, const wmx_program *p)
{
    pgas_opts o;
    pgas_opts_init(&o);
    o.cancel = ctx->cancel;
    bool json = false;
    const char *dot = NULL;
    pgas_method method = PGAS_SEARCH;   /* the faster one (bench/pgas.sh) */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int common = limit_opt(ctx, "robust", argc, argv, &i, &o);
        if (common < 0)
            return EXIT_USAGE;
        if (common > 0)
            continue;
        if (strcmp(a, "--method") == 0) {
            const char *v = i + 1 < argc ? argv[++i] : "";
            if (strcmp(v, "nf") == 0)
                method = PGAS_NF;
            else if (strcmp(v, "search") == 0)
                method = PGAS_SEARCH;
            else {
                fprintf(ctx->err, "wmx robust: --method needs nf or search\n");
                return EXIT_USAGE;
            }
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--dot") == 0) {
            dot = i + 1 < argc ? argv[++i] : NULL;
            if (!dot) {
                fprintf(ctx->err, "wmx robust: --dot needs a file name\n");
                return EXIT_USAGE;
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(ctx->err, "wmx robust: option '%s' does not apply to PGAS programs "
                              "(--ranks, --json, --method, --timeout, --max-states, --dot)\n", a);
            return EXIT_USAGE;
        }
    }
    pgas_robust_result res;
    wmx_error err = { 0 };
    if (pgas_robust(p, method, &o, &res, &err) < 0) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        pgas_robust_result_free(&res);
        return EXIT_USAGE;
    }
    /* --dot -: the graph alone on stdout (for `| dot -Tsvg`), the report
     * on stderr */
    bool dot_out = dot && strcmp(dot, "-") == 0;
    pgas_print_robust(dot_out ? ctx->err : ctx->out, p, &res, json);
    if (dot && !res.robust && !dot_out) {
        /* the file is written whole or not at all (temp + rename), every
         * write checked (issue 47 §7c); a device or FIFO is written in place */
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        int e = 0;
        if (f) {
            pgas_write_dot(f, p, &res);
            if (ferror(f))
                e = ENOMEM;
            if (fclose(f) != 0 && !e)
                e = ENOMEM;
        } else {
            e = ENOMEM;
        }
        struct stat st;
        wmx_error werr = { 0 };
        if (e) {
            /* reported below */
        } else if (stat(dot, &st) == 0 && !S_ISREG(st.st_mode)) {
            FILE *d = fopen(dot, "w");
            errno = 0;
            if (!d || fwrite(text, 1, len, d) != len || fflush(d) != 0)
                e = errno ? errno : EIO;
            if (d && fclose(d) != 0 && !e)
                e = errno ? errno : EIO;
        } else if (wmx_write_file_atomic(dot, text, len, &werr) != 0) {
            char buf[1024];
            fprintf(ctx->err, "wmx robust: %s\n", wmx_error_format(&werr, buf, sizeof buf));
            e = -1;
        }
        free(text);
        if (e) {
            if (e > 0)
                fprintf(ctx->err, "wmx robust: %s: cannot write: %s\n", dot, strerror(e));
            pgas_robust_result_free(&res);
            return EXIT_USAGE;
        }
    } else if (dot_out && !res.robust) {
        pgas_write_dot(ctx->out, p, &res);
    }
    if (ctx->pgas_after_robust)
        ctx->pgas_after_robust(p, &res, ctx);
    int rc = !res.robust ? EXIT_FAIL : !res.complete ? EXIT_LIMIT : EXIT_OK;
    if (!res.complete && res.robust)
        fprintf(ctx->err, "wmx: partial result: stopped by %s\n", res.stop_reason);
    pgas_robust_result_free(&res);
    return rc;
}

int pgas_dispatch(const char *cmd, int argc, char **argv, cmd_ctx *ctx, int *rc)
{
    const char *file = find_file(argc, argv);
    if (file && !wmx_file_may_be_pgas(file))
        return 0;              /* C and litmus are never PGAS: read them once, under the limits */
    const wmx_program *p = NULL;
    wmx_program *owned = NULL;
    if (file) {
        wmx_error err = { 0 };
        owned = wmx_load_program_c(file, ctx->c_opts, &err, NULL);
        if (!owned)
            return 0;          /* the command itself reports the error */
        p = owned;
    } else {
        p = ctx->current;
    }
    if (!p || p->pgas_ranks <= 0) {
        ir_program_free(owned);
        return 0;
    }
    *rc = strcmp(cmd, "robust") == 0 ? pgas_robust_cmd(argc, argv, ctx, p)
                                     : pgas_explore_cmd(argc, argv, ctx, p);
    ir_program_free(owned);
    return 1;
}
