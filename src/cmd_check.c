/* cmd_check.c - the `check` command: is this execution (a trace file) or
 * this outcome of a program consistent under a model?  Prints a witness
 * trace, or an explanation of why not (VSC-rf / VTSO-rf / VPSO-rf). */
#include "cli.h"
#include "cond.h"
#include "exec.h"
#include "explore.h"
#include "load.h"
#include "report.h"
#include "trace.h"
#include "verify.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void cond_cells(const wmx_program *p, int c, bool *cells)
{
    if (c < 0)
        return;
    const ir_cond *x = &p->conds[c];
    if (x->kind == C_EQ && x->lhs.thread < 0 && x->lhs.cell >= 0)
        cells[x->lhs.cell] = true;
    cond_cells(p, x->a, cells);
    cond_cells(p, x->b, cells);
}

/* ---- printing ---- */

static void print_witness_text(FILE *out, const wmx_exec *x, wmx_model model, const verify_result *r)
{
    wmx_error err;
    wmx_machine *m = machine_new(x->prog, model, &err);
    if (!m)
        return;
    void *st = wmx_malloc(machine_state_size(m));
    machine_init(m, st);
    fprintf(out, "Witness (%d step%s; replay it with `wmx check --save`):\n", r->wlen, r->wlen == 1 ? "" : "s");
    for (int i = 0; i < r->wlen; i++) {
        if (!machine_is_enabled(m, st, &r->witness[i]))
            break;
        wmx_event ev;
        machine_apply(m, st, &r->witness[i], &ev);
        char line[512];
        machine_describe(m, &ev, line, sizeof line);
        fprintf(out, "  %3d  %s\n", i + 1, line);
    }
    free(st);
    machine_free(m);
}

static void print_witness_json(FILE *out, const wmx_exec *x, wmx_model model, const verify_result *r)
{
    wmx_error err;
    wmx_machine *m = machine_new(x->prog, model, &err);
    if (!m) {
        fprintf(out, "null");
        return;
    }
    void *st = wmx_malloc(machine_state_size(m));
    machine_init(m, st);
    fprintf(out, "[");
    for (int i = 0; i < r->wlen; i++) {
        if (!machine_is_enabled(m, st, &r->witness[i]))
            break;
        wmx_event ev;
        machine_apply(m, st, &r->witness[i], &ev);
        char line[512], cell[128] = "";
        machine_describe(m, &ev, line, sizeof line);
        if (r->witness[i].kind == TR_FLUSH && r->witness[i].cell >= 0)
            ir_cell_name(x->prog, r->witness[i].cell, cell, sizeof cell);
        fprintf(out, "%s{\"step\":%d,\"kind\":\"%s\",\"thread\":", i ? "," : "", i + 1,
                r->witness[i].kind == TR_STEP ? "step" : "flush");
        json_string(out, x->prog->threads[r->witness[i].thread].name);
        if (cell[0]) {
            fprintf(out, ",\"var\":");
            json_string(out, cell);
        }
        fprintf(out, ",\"event\":\"%s\",\"text\":", event_kind_name(ev.kind));
        json_string(out, line);
        fprintf(out, "}");
    }
    fprintf(out, "]");
    free(st);
    machine_free(m);
}

static void print_facts_json(FILE *out, const wmx_exec *x, const verify_result *r)
{
    fprintf(out, "[");
    for (int i = 0; i < r->nfacts; i++) {
        const verify_fact *f = &r->facts[i];
        char a[64], b[64], da[512], db[512];
        fprintf(out, "%s{\"rel\":\"%s\",\"from\":", i ? "," : "", rel_name(f->kind));
        json_string(out, exec_event_name(x, f->from, a, sizeof a));
        fprintf(out, ",\"to\":");
        json_string(out, exec_event_name(x, f->to, b, sizeof b));
        fprintf(out, ",\"from_text\":");
        json_string(out, exec_event_describe(x, f->from, da, sizeof da));
        fprintf(out, ",\"to_text\":");
        json_string(out, exec_event_describe(x, f->to, db, sizeof db));
        fprintf(out, ",\"from_line\":%d,\"to_line\":%d", exec_event_line(x, f->from), exec_event_line(x, f->to));
        if (f->note) {
            fprintf(out, ",\"note\":");
            json_string(out, f->note);
        }
        fprintf(out, "}");
    }
    fprintf(out, "]");
}

static void print_json(FILE *out, const wmx_exec *x, wmx_model model, const verify_result *r,
                       const char *outcome, long candidates)
{
    fprintf(out, "{\"consistent\":%s,\"model\":\"%s\"", r->consistent ? "true" : "false", model_name(model));
    if (outcome) {
        fprintf(out, ",\"outcome\":");
        json_string(out, outcome);
        fprintf(out, ",\"candidates\":%ld", candidates);
    }
    fprintf(out, ",\"witness\":");
    if (r->consistent && x)
        print_witness_json(out, x, model, r);
    else
        fprintf(out, "null");
    fprintf(out, ",\"explanation\":");
    if (!r->consistent) {
        fprintf(out, "{\"text\":");
        json_string(out, r->text ? r->text : "");
        fprintf(out, ",\"facts\":");
        if (x)
            print_facts_json(out, x, r);
        else
            fprintf(out, "[]");
        fprintf(out, "}");
    } else {
        fprintf(out, "null");
    }
    fprintf(out, ",\"states\":%ld}\n", r->states);
}

static int save_witness(cmd_ctx *ctx, const char *save, const wmx_exec *x, wmx_model model,
                        const verify_result *r)
{
    wmx_error err = { 0 };
    wmx_machine *m = machine_new(x->prog, model, &err);
    int rc = -1;
    if (m) {
        trace_data td = { x->prog->file, model, r->wlen, r->witness, NULL };
        rc = trace_save(save, m, &td, &err);
        machine_free(m);
    }
    if (rc < 0) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
    }
    return rc;
}

/* ---- the outcome form ---- */

typedef struct cands {
    const wmx_program *p;
    int cond;
    bool *obs_cells;
    int n;
    wmx_exec **x;
    char **keys;
    long traces;
    wmx_machine *m;
    wmx_exec *any;      /* the first complete trace, for a constructed candidate */
} cands;

static void exec_key(const wmx_exec *x, char **out)
{
    size_t cap = 256, len = 0;
    char *s = wmx_malloc(cap);
    s[0] = '\0';
    for (int i = 0; i < x->nev + x->nobs; i++) {
        char item[160];
        int n;
        if (i < x->nev) {
            const xevent *e = &x->ev[i];
            n = snprintf(item, sizeof item, "%d.%d:%d:%d:%d:%lld:%lld:%d<%d;", e->thread, e->index, e->kind,
                         e->instr, e->cell, (long long)e->value, (long long)e->read, e->wrote,
                         xev_is_read(e) ? e->rf : -9);
        } else {
            n = snprintf(item, sizeof item, "o%d=%d;", x->obs_cell[i - x->nev], x->obs_writer[i - x->nev]);
        }
        if (len + (size_t)n + 1 > cap) {
            cap = (len + (size_t)n + 1) * 2;
            s = wmx_realloc(s, cap);
        }
        memcpy(s + len, item, (size_t)n + 1);
        len += (size_t)n;
    }
    *out = s;
}

static void on_trace(const explore_trace *tr, void *ud)
{
    cands *c = ud;
    if (tr->blocked)
        return;
    const wmx_program *p = c->p;
    wmx_error err;
    wmx_machine *m = c->m;
    if (!c->any)
        c->any = exec_from_events(p, MODEL_PSO, tr->events, tr->len, &err);
    const wmx_val **regs = wmx_malloc((size_t)(p->nthreads + 1) * sizeof *regs);
    for (int t = 0; t < p->nthreads; t++)
        regs[t] = machine_regs(m, tr->final_state, t);
    bool sat = ir_cond_eval(p, c->cond, regs, machine_memory(m, tr->final_state));
    free(regs);
    if (sat) {
        wmx_exec *x = exec_from_events(p, MODEL_PSO, tr->events, tr->len, &err);
        if (x) {
            const wmx_eid *wr = machine_memory_writer(m, tr->final_state);
            for (int cell = 0; cell < p->ncells; cell++)
                if (c->obs_cells[cell])
                    exec_set_observer(x, cell, wr[cell] == EID_INIT ? -1
                                                   : exec_find(x, EID_THREAD(wr[cell]), EID_INDEX(wr[cell])));
            char *key;
            exec_key(x, &key);
            bool dup = false;
            for (int i = 0; i < c->n && !dup; i++)
                dup = strcmp(c->keys[i], key) == 0;
            if (dup || c->n >= 4096) {
                free(key);
                exec_free(x);
            } else {
                c->x = wmx_realloc(c->x, (size_t)(c->n + 1) * sizeof *c->x);
                c->keys = wmx_realloc(c->keys, (size_t)(c->n + 1) * sizeof *c->keys);
                c->x[c->n] = x;
                c->keys[c->n] = key;
                c->n++;
            }
        }
    }
    c->traces++;
}

/* Whether every thread is straight-line code whose events do not depend on
 * the values read: loads, stores of constants, fences.  Then the outcome
 * alone fixes the candidate execution. */
static bool straight_line(const wmx_program *p)
{
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i < p->threads[t].ninstrs; i++) {
            const ir_instr *in = &p->threads[t].instrs[i];
            if (in->addr.index >= 0 || in->addr.ptr >= 0)
                return false;
            switch (in->kind) {
            case I_NOP: case I_FENCE: case I_HALT: case I_LOAD:
                break;
            case I_STORE:
                if (in->e1 < 0 || p->exprs[in->e1].op != OP_CONST)
                    return false;
                break;
            default:
                return false;
            }
        }
    return true;
}

/* Applies a conjunction of equalities to x: each named register's (last)
 * load takes the value and reads from a write that gives it; each named
 * memory cell's final value comes from a write that gives it (its
 * observer).  False when the outcome is not of that form or no write gives
 * a value. */
static bool apply_outcome(const wmx_program *p, int cond, wmx_exec *x)
{
    const ir_cond *c = &p->conds[cond];
    if (c->kind == C_TRUE)
        return true;
    if (c->kind == C_AND)
        return apply_outcome(p, c->a, x) && apply_outcome(p, c->b, x);
    if (c->kind != C_EQ || c->value_is_addr)
        return false;
    if (c->lhs.thread < 0) {
        if (c->lhs.cell < 0 || c->lhs.cell >= x->ncells)
            return false;
        int writer = -2;
        /* the last write of the cell that gives the value: a thread's own
         * later write would overwrite an earlier one */
        for (int w = 0; w < x->nev; w++)
            if (xev_is_write(&x->ev[w]) && x->ev[w].cell == c->lhs.cell && x->ev[w].value == c->value)
                writer = w;
        if (writer == -2 && x->cell_init[c->lhs.cell] == c->value)
            writer = -1;
        if (writer == -2)
            return false;
        exec_set_observer(x, c->lhs.cell, writer);
        return true;
    }
    int load = -1;
    for (int i = 0; i < x->nev; i++) {
        const xevent *e = &x->ev[i];
        if (e->thread == c->lhs.thread && e->kind == X_READ && e->instr >= 0 &&
            p->threads[e->thread].instrs[e->instr].dst == c->lhs.reg)
            load = i;
    }
    if (load < 0)
        return false;
    xevent *r = &x->ev[load];
    int src = -2;
    if (x->cell_init[r->cell] == c->value)
        src = -1;
    for (int w = 0; w < x->nev && src == -2; w++)
        if (xev_is_write(&x->ev[w]) && x->ev[w].cell == r->cell && x->ev[w].value == c->value)
            src = w;
    if (src == -2)
        return false;
    r->value = c->value;
    r->rf = src;
    return true;
}

static int check_outcome(cmd_ctx *ctx, const char *file, const char *outcome, bool have_model,
                         wmx_model model, const char *save, bool json, const explore_opts *lim)
{
    wmx_error err = { 0 };
    int lrc;
    wmx_program *p = cmd_load_file(ctx, file, lim, &lrc);   /* --timeout covers loading */
    if (!p)
        return lrc;
    if (!have_model)
        model = strcmp(p->arch, "wmx") == 0 ? MODEL_TSO : MODEL_TSO;
    int root;
    char text[2048];
    if (outcome) {
        cond_names names = { p, NULL, NULL, NULL };
        cond_error ce;
        root = cond_parse_string(outcome, &names, cond_out_program(p), &ce);
        if (root < 0) {
            fprintf(ctx->err, "wmx check: --outcome '%s': column %zu: %s\n", outcome, ce.off + 1, ce.msg);
            ir_program_free(p);
            return EXIT_USAGE;
        }
        snprintf(text, sizeof text, "%s", outcome);
    } else if (p->quant != Q_NONE && p->cond_root >= 0) {
        root = p->cond_root;
        ir_cond_format(p, root, text, sizeof text);
    } else {
        fprintf(ctx->err, "wmx check: %s has no condition; give one with --outcome 'COND'\n", file);
        ir_program_free(p);
        return EXIT_USAGE;
    }
    cands c = { p, root, wmx_calloc((size_t)p->ncells + 1, sizeof(bool)), 0, NULL, NULL, 0, NULL, NULL };
    cond_cells(p, root, c.obs_cells);
    /* the outcome's memory locations are observed, so that classes differ
     * by the write that gives their final value */
    for (int cell = 0; cell < p->ncells; cell++)
        if (c.obs_cells[cell]) {
            p->observed = wmx_realloc(p->observed, (size_t)(p->nobserved + 1) * sizeof *p->observed);
            p->observed[p->nobserved++] = (cond_lhs){ -1, -1, cell };
        }
    c.m = machine_new(p, MODEL_PSO, &err);
    if (!c.m) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        free(c.obs_cells);
        ir_program_free(p);
        return EXIT_USAGE;
    }
    /* candidates: every reads-from class (with the observed final writers)
     * that PSO, the weakest model, reaches with the outcome */
    explore_opts o;
    explore_opts_init(&o);
    o.model = MODEL_PSO;
    o.algo = ALGO_RFSMC;        /* one trace per reads-from class */
    o.cancel = ctx->cancel;
    o.timeout_s = lim->timeout_s;
    o.max_memory = lim->max_memory;
    o.max_memory_default = lim->max_memory_default;
    o.max_traces = lim->max_traces;
    o.started = ctx->started;
    o.on_trace = on_trace;
    o.ud = &c;
    explore_result res;
    int rc = EXIT_USAGE;
    if (explore_run(p, &o, &res, &err) < 0) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        explore_result_free(&res);
        goto out;
    }
    bool complete = res.complete;
    if (!complete) {
        fprintf(ctx->err, "wmx check: PARTIAL: stopped while enumerating candidate executions: %s\n",
                res.stop_text[0] ? res.stop_text : "a limit");
        explore_result_free(&res);
        rc = EXIT_LIMIT;
        goto out;
    }
    explore_result_free(&res);
    int found = -1;
    verify_result vr = { 0 }, first_bad = { 0 };
    int first_bad_i = -1;
    for (int i = 0; i < c.n; i++) {
        verify_check(c.x[i], model, VERIFY_EXPLAIN, &vr);
        if (vr.consistent) {
            found = i;
            break;
        }
        if (first_bad_i < 0) {
            first_bad = vr;
            first_bad_i = i;
        } else {
            verify_result_free(&vr);
        }
    }
    if (found >= 0) {
        const wmx_exec *x = c.x[found];
        if (json) {
            print_json(ctx->out, x, model, &vr, text, c.n);
        } else {
            fprintf(ctx->out, "Outcome %s of %s under %s: reachable (consistent).\n", text, p->name, model_name(model));
            print_witness_text(ctx->out, x, model, &vr);
        }
        rc = EXIT_OK;
        if (save) {
            if (save_witness(ctx, save, x, model, &vr) < 0)
                rc = EXIT_USAGE;
            else if (!json)
                fprintf(ctx->out, "Witness saved to %s\n", save);
        }
        verify_result_free(&vr);
    } else {
        /* No trace under PSO reaches it.  For straight-line code the outcome
         * itself names the candidate execution: check that one, so the
         * answer can show the cycle that forbids it. */
        wmx_exec *built = NULL;
        if (first_bad_i < 0 && c.any && straight_line(p)) {
            built = exec_copy(c.any);
            if (apply_outcome(p, root, built)) {
                verify_check(built, model, VERIFY_EXPLAIN, &first_bad);
                if (first_bad.consistent) {     /* cannot be: PSO found none */
                    verify_result_free(&first_bad);
                    memset(&first_bad, 0, sizeof first_bad);
                    exec_free(built);
                    built = NULL;
                }
            } else {
                exec_free(built);
                built = NULL;
            }
        }
        if (built) {
            char *why = first_bad.text;
            first_bad.text = wmx_asprintf("No execution of %s produces %s under any model wmx knows (SC, TSO, PSO): "
                                          "even PSO, the weakest of them, never reaches it (%ld reads-from "
                                          "classes explored).\nAll three are multi-copy atomic: every thread sees "
                                          "the stores to memory in one order.  Models without that (Power, ARM) "
                                          "may allow it; wmx does not model them.\nThe execution the outcome "
                                          "describes, and why %s forbids it:\n%s",
                                          p->name, text, c.traces, model_name(model), why ? why : "");
            free(why);
        } else if (first_bad_i < 0) {
            first_bad.model = model;
            first_bad.text = wmx_asprintf("No execution of %s produces %s under any model wmx knows (SC, TSO, PSO): "
                                          "even PSO, the weakest of them, never reaches it (%ld reads-from "
                                          "classes explored).\nAll three are multi-copy atomic: every thread sees "
                                          "the stores to memory in one order.  Models without that (Power, ARM) "
                                          "may allow it; wmx does not model them.\n",
                                          p->name, text, c.traces);
        }
        if (json) {
            print_json(ctx->out, first_bad_i >= 0 ? c.x[first_bad_i] : built, model, &first_bad, text, c.n);
        } else {
            fprintf(ctx->out, "Outcome %s of %s under %s: not reachable.\n", text, p->name, model_name(model));
            if (first_bad_i >= 0)
                fprintf(ctx->out, "%d candidate execution%s produce%s it (reads-from classes found under PSO); "
                                  "none is %s-consistent.\nWhy not%s:\n",
                        c.n, c.n == 1 ? "" : "s", c.n == 1 ? "s" : "", model_name(model),
                        c.n > 1 ? " (the first candidate)" : "");
            fprintf(ctx->out, "%s", first_bad.text ? first_bad.text : "");
        }
        if (save)
            fprintf(ctx->err, "wmx check: no witness to save\n");
        verify_result_free(&first_bad);
        exec_free(built);
        rc = EXIT_FAIL;
    }
out:
    for (int i = 0; i < c.n; i++) {
        exec_free(c.x[i]);
        free(c.keys[i]);
    }
    free(c.x);
    free(c.keys);
    free(c.obs_cells);
    exec_free(c.any);
    machine_free(c.m);
    ir_program_free(p);
    return rc;
}

/* ---- the trace form ---- */

static bool looks_like_trace(const char *path)
{
    return exec_is_trace_file(path);
}

static int check_trace(cmd_ctx *ctx, const char *file, bool have_model, wmx_model model,
                       const char *save, bool json)
{
    wmx_error err = { 0 };
    wmx_program *p = NULL;
    wmx_exec *x = exec_load(file, &p, &err);
    if (!x) {
        char buf[1024];
        fprintf(ctx->err, "%s\n", wmx_error_format(&err, buf, sizeof buf));
        return EXIT_USAGE;
    }
    if (!have_model)
        model = x->model;
    verify_result r;
    verify_check(x, model, VERIFY_EXPLAIN, &r);
    int rc = r.consistent ? EXIT_OK : EXIT_FAIL;
    if (r.consistent && verify_replay(x, model, r.witness, r.wlen, &err) < 0) {
        /* the checker agrees with itself, but the program does not produce
         * these events: the file does not describe a run of the program */
        char buf[1024];
        fprintf(ctx->err, "%s: the events do not match the program %s: %s\n",
                ctx->trace_label ? ctx->trace_label : file, p->file,
                wmx_error_format(&err, buf, sizeof buf));
        rc = EXIT_USAGE;
    } else if (json) {
        print_json(ctx->out, x, model, &r, NULL, 0);
    } else {
        if (ctx->trace_label)
            fprintf(ctx->out, "The %s (%d event%s of %s) under %s: %s.\n", ctx->trace_label, x->nev,
                    x->nev == 1 ? "" : "s", p->name, model_name(model),
                    r.consistent ? "consistent" : "NOT consistent");
        else
            fprintf(ctx->out, "Execution in %s (%d event%s of %s) under %s: %s.\n", file, x->nev,
                    x->nev == 1 ? "" : "s", p->name, model_name(model),
                    r.consistent ? "consistent" : "NOT consistent");
        if (r.consistent)
            print_witness_text(ctx->out, x, model, &r);
        else
            fprintf(ctx->out, "%s", r.text);
    }
    if (rc == EXIT_OK && save) {
        if (save_witness(ctx, save, x, model, &r) < 0)
            rc = EXIT_USAGE;
        else if (!json)
            fprintf(ctx->out, "Witness saved to %s\n", save);
    }
    verify_result_free(&r);
    exec_free(x);
    ir_program_free(p);
    return rc;
}

int cmd_check(int argc, char **argv, cmd_ctx *ctx)
{
    const char *file = NULL, *outcome = NULL, *save = NULL;
    bool json = false, have_model = false;
    wmx_model model = MODEL_TSO;
    explore_opts lim;
    explore_opts_init(&lim);
    for (int i = 1; i < argc; i++) {
        int l = cmd_limit_option(argc, argv, &i, &lim, ctx);
        if (l < 0)
            return EXIT_USAGE;
        if (l > 0)
            continue;
        const char *a = argv[i];
        const char *val = NULL;
        const char *names[] = { "--model", "--outcome", "--save" };
        int which = -1;
        for (int k = 0; k < 3; k++) {
            size_t n = strlen(names[k]);
            if (strncmp(a, names[k], n) == 0 && (a[n] == '\0' || a[n] == '=')) {
                which = k;
                if (a[n] == '=')
                    val = a + n + 1;
                else if (i + 1 < argc)
                    val = argv[++i];
                else {
                    fprintf(ctx->err, "wmx: option %s needs a value\n", names[k]);
                    return EXIT_USAGE;
                }
            }
        }
        if (which == 0) {
            if (model_parse(val, &model) < 0) {
                fprintf(ctx->err, "wmx: unknown model '%s' (sc, tso or pso)\n", val);
                return EXIT_USAGE;
            }
            have_model = true;
        } else if (which == 1) {
            outcome = val;
        } else if (which == 2) {
            save = val;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(ctx->err, "wmx check: unknown option '%s'\n", a);
            return EXIT_USAGE;
        } else if (!file) {
            file = a;
        } else {
            fprintf(ctx->err, "wmx check: more than one file given ('%s')\n", a);
            return EXIT_USAGE;
        }
    }
    if (!file) {
        fprintf(ctx->err, "usage: wmx check TRACE-FILE [--model M] [--json]\n"
                          "       wmx check PROGRAM --outcome COND [--model M] [--save F] [--json]\n");
        return EXIT_USAGE;
    }
    if (!have_model && ctx->current)
        model = ctx->current_model;
    if (!outcome && looks_like_trace(file))
        return check_trace(ctx, file, have_model, model, save, json);
    return check_outcome(ctx, file, outcome, have_model, model, save, json, &lim);
}
