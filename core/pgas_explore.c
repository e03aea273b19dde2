/* pgas_explore.c - every computation of X(P,N), breadth first over
 * canonical state keys (pgas.h). */
#include "pgas.h"
#include "pgas_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_MAX_STATES 4000000L

const char *pgas_method_name(pgas_method m) { return m == PGAS_NF ? "nf" : "search"; }

void pgas_opts_init(pgas_opts *o)
{
    memset(o, 0, sizeof *o);
}

double pgas_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

const char *pgas_poll(const pgas_opts *o, double t0, long states)
{
    if (o->cancel && *o->cancel)
        return "interrupt";
    if (o->timeout_s > 0 && pgas_now() - t0 > o->timeout_s)
        return "timeout";
    if (o->progress)
        o->progress(states, o->progress_arg);
    return NULL;
}

/* The final state as people read it: per rank the variables and the
 * registers the program names (hidden and rank/nranks left out). */
static char *final_text(const pgas_machine *m, const void *s)
{
    const wmx_program *p = pgas_program(m);
    const ir_thread *th = &p->threads[0];
    wmx_strbuf b = { 0 };
    for (int r = 0; r < pgas_nranks(m); r++) {
        wmx_strbuf_printf(&b, "%sR%d:", r ? " | " : "", r);
        const wmx_val *mem = pgas_memory(m, s, r);
        for (int c = 0; c < p->ncells; c++) {
            char nb[128];
            wmx_strbuf_printf(&b, " %s=%lld", ir_cell_name(p, c, nb, sizeof nb), (long long)mem[c]);
        }
        const wmx_val *regs = pgas_regs(m, s, r);
        for (int i = 0; i < th->nregs; i++) {
            if (th->reg_names[i][0] == '$' || i == p->pgas_rank_reg || i == p->pgas_nranks_reg)
                continue;
            wmx_strbuf_printf(&b, " %s=%lld", th->reg_names[i], (long long)regs[i]);
        }
    }
    return b.s ? b.s : wmx_strdup("");
}

static int cmp_str(const void *a, const void *b, void *ctx)
{
    (void)ctx;
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void build_path(const pgas_store *st, long node, pgas_path *out)
{
    int len = 0;
    for (long i = node; st->parent[i] >= 0; i = st->parent[i])
        len++;
    out->len = len;
    out->steps = wmx_calloc((size_t)len + 1, sizeof *out->steps);
    for (long i = node; st->parent[i] >= 0; i = st->parent[i]) {
        pgas_xstep x = st->step[i];
        out->steps[--len] = (pgas_transition){ (pgas_tr_kind)x.kind, x.rank, x.queue };
    }
}

/* Counts a blocked end state under its places (breadth first: the first
 * one of a kind has a shortest witness). */
static void note_blocked(pgas_explore_result *res, const pgas_machine *m, const void *s,
                         const pgas_store *st, long node)
{
    pgas_blocked key;
    memset(&key, 0, sizeof key);
    for (int r = 0; r < pgas_nranks(m); r++) {
        key.status[r] = (int8_t)pgas_status(m, s, r);
        key.pc[r] = key.status[r] == TS_DONE ? -1 : pgas_pc(m, s, r);
    }
    for (int k = 0; k < res->nblocked_at; k++) {
        pgas_blocked *b = &res->blocked_at[k];
        if (memcmp(b->status, key.status, sizeof key.status) == 0 && memcmp(b->pc, key.pc, sizeof key.pc) == 0) {
            b->count++;
            return;
        }
    }
    if (res->nblocked_at == PGAS_MAX_BLOCKED_AT)
        return;
    res->blocked_at = wmx_realloc(res->blocked_at, (size_t)(res->nblocked_at + 1) * sizeof *res->blocked_at);
    key.count = 1;
    build_path(st, node, &key.witness);
    res->blocked_at[res->nblocked_at++] = key;
}

int pgas_explore(const wmx_program *p, const pgas_opts *o, pgas_explore_result *res, wmx_error *err)
{
    memset(res, 0, sizeof *res);
    res->complete = true;
    double t0 = pgas_now();
    pgas_machine *m = pgas_machine_new(p, o->nranks, o->qcap, err);
    if (!m)
        return -1;
    res->nranks = pgas_nranks(m);
    res->nqueues = pgas_nqueues(m);
    long max_states = o->max_states > 0 ? o->max_states : DEFAULT_MAX_STATES;
    size_t ssz = pgas_state_size(m);
    unsigned char *s = wmx_malloc(ssz), *t = wmx_malloc(ssz);
    unsigned char *key = wmx_malloc(pgas_key_max(m));
    pgas_transition *tr = wmx_malloc((size_t)pgas_max_enabled(m) * sizeof *tr);
    pgas_store st;
    pgas_store_init(&st);
    pgas_init(m, s);
    bool added;
    pgas_store_add(&st, key, pgas_key(m, s, key), -1, (pgas_xstep){ 0 }, &added);
    int cap_final = 0;
    int rc = 0;
    for (long i = 0; i < st.n; i++) {
        const char *stop = (i & 1023) == 0 ? pgas_poll(o, t0, st.n) : NULL;
        if (stop) {
            res->complete = false;
            res->stop_reason = stop;
            break;
        }
        pgas_unkey(m, pgas_store_key(&st, i), s);
        int fr = pgas_fault_rank(m, s);
        if (fr >= 0 && pgas_rank_fault(m, s, fr) == PF_QFULL) {
            res->complete = false;     /* a limit of ours, not the program's fault */
            res->stop_reason = "queue capacity";
            continue;
        }
        if (fr >= 0) {
            pgas_fault_error(m, s, fr, err);
            rc = -1;
            break;
        }
        for (int r = 0; r < res->nranks; r++) {
            if (pgas_rank_fault(m, s, r) != PF_ASSERT)
                continue;
            int instr = pgas_pc(m, s, r);
            bool seen = false;
            for (int f = 0; f < res->nfail; f++)
                if (res->fails[f].instr == instr)
                    seen = true;
            if (!seen) {
                res->fails = wmx_realloc(res->fails, (size_t)(res->nfail + 1) * sizeof *res->fails);
                pgas_failure *f = &res->fails[res->nfail++];
                f->rank = r;
                f->instr = instr;
                build_path(&st, i, &f->witness);
            }
        }
        int n = pgas_enabled(m, s, tr);
        if (n == 0) {
            if (pgas_is_terminated(m, s)) {
                char *txt = final_text(m, s);
                bool dup = false;
                for (int f = 0; f < res->nfinal && !dup; f++)
                    dup = strcmp(res->final_text[f], txt) == 0;
                if (dup) {
                    free(txt);
                } else {
                    if (res->nfinal == cap_final) {
                        cap_final = cap_final ? cap_final * 2 : 8;
                        res->final_text = wmx_realloc(res->final_text, (size_t)cap_final * sizeof(char *));
                    }
                    res->final_text[res->nfinal++] = txt;
                }
            } else if (!pgas_has_assert_failure(m, s)) {
                res->nblocked++;
                note_blocked(res, m, s, &st, i);
            }
            continue;
        }
        for (int k = 0; k < n; k++) {
            memcpy(t, s, ssz);
            pgas_apply(m, t, &tr[k], NULL);
            pgas_xstep x = { (int8_t)tr[k].kind, (int8_t)tr[k].rank, (int8_t)tr[k].queue, 0, 0 };
            pgas_store_add(&st, key, pgas_key(m, t, key), i, x, &added);
        }
        if (st.n > max_states) {
            res->complete = false;
            res->stop_reason = "state limit";
            break;
        }
    }
    if (res->nfinal > 1)
        wmx_sort(res->final_text, (size_t)res->nfinal, sizeof(char *), cmp_str, NULL);
    res->states = st.n;
    res->time_s = pgas_now() - t0;
    pgas_store_free(&st);
    free(s);
    free(t);
    free(key);
    free(tr);
    pgas_machine_free(m);
    return rc;
}

void pgas_explore_result_free(pgas_explore_result *r)
{
    for (int i = 0; i < r->nfinal; i++)
        free(r->final_text[i]);
    free(r->final_text);
    for (int i = 0; i < r->nfail; i++)
        free(r->fails[i].witness.steps);
    free(r->fails);
    for (int i = 0; i < r->nblocked_at; i++)
        free(r->blocked_at[i].witness.steps);
    free(r->blocked_at);
    memset(r, 0, sizeof *r);
}
