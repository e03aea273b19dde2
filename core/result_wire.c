/* result_wire.c - results to bytes and back (see result_wire.h). */
#include "result_wire.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* A result's stop reason is one of a few static tokens (compared by the
 * merge and the reports): sent by name, read back as the same literal. */
static const char *const reasons[] = {
    "max-traces", "timeout", "interrupted", "memory limit", "buffer limit", "team",
    "queue capacity", "state limit", "write",
};
enum { NREASONS = sizeof reasons / sizeof reasons[0] };

/* a sanity bound on counts read back: no honest message has more */
enum { WIRE_MAX = 1 << 30 };

static int reason_index(const char *r)
{
    if (!r)
        return -1;
    for (int i = 0; i < NREASONS; i++)
        if (strcmp(reasons[i], r) == 0)
            return i;
    return NREASONS;            /* unknown: read back as "team" */
}

static void put_trace(wire *w, int len, const wmx_transition *steps, const wmx_event *events)
{
    wire_i32(w, len);
    wire_put(w, steps, (size_t)len * sizeof *steps);
    wire_i32(w, events != NULL);
    if (events)
        wire_put(w, events, (size_t)len * sizeof *events);
}

static bool get_trace(wire_reader *r, int *len, wmx_transition **steps, wmx_event **events)
{
    *len = wire_get_count(r, WIRE_MAX / (int)sizeof(wmx_event));
    *steps = NULL;
    *events = NULL;
    if (*len < 0)
        return false;
    *steps = wmx_malloc((size_t)*len * sizeof **steps + 1);
    wire_get(r, *steps, (size_t)*len * sizeof **steps);
    if (wire_get_i32(r)) {
        *events = wmx_malloc((size_t)*len * sizeof **events + 1);
        wire_get(r, *events, (size_t)*len * sizeof **events);
    }
    return !r->bad;
}

void explore_result_write(wire *w, const explore_result *res)
{
    wire_i32(w, res->nobserved);
    wire_i64(w, res->traces);
    wire_i64(w, res->blocked);
    wire_i64(w, res->bound_cut);
    wire_i64(w, res->positive);
    wire_i64(w, res->negative);
    wire_i64(w, res->runs_no_class);
    wire_i64(w, res->events);
    wire_i64(w, res->error_traces);
    wire_i32(w, res->complete);
    wire_i32(w, res->complete ? -1 : reason_index(res->stop_reason));
    wire_str(w, res->complete ? NULL : res->stop_text);
    wire_i32(w, res->states_sorted);
    wire_i32(w, res->nstates);
    for (int i = 0; i < res->nstates; i++) {
        const final_state *s = &res->states[i];
        for (int k = 0; k < res->nobserved; k++)
            wire_varint(w, s->vals[k]);
        wire_varint(w, s->count);
        wire_varint(w, s->satisfies);
    }
    wire_i32(w, res->nerrors);
    for (int i = 0; i < res->nerrors; i++) {
        const explore_error *e = &res->errors[i];
        wire_i32(w, e->thread);
        wire_i32(w, e->instr);
        wire_str(w, e->message);
        put_trace(w, e->len, e->steps, e->events);
    }
    wire_i32(w, res->nblocked_at);
    for (int i = 0; i < res->nblocked_at; i++) {
        const explore_blocked *b = &res->blocked_at[i];
        wire_i32(w, b->nwaits);
        wire_put(w, b->waits, (size_t)b->nwaits * sizeof *b->waits);
        wire_i64(w, b->count);
        put_trace(w, b->len, b->steps, b->events);
    }
}

bool explore_result_read(wire_reader *r, explore_result *res)
{
    int nobs = wire_get_i32(r);
    if (r->bad || nobs != res->nobserved) {
        r->bad = true;
        return false;
    }
    res->traces = wire_get_i64(r);
    res->blocked = wire_get_i64(r);
    res->bound_cut = wire_get_i64(r);
    res->positive = wire_get_i64(r);
    res->negative = wire_get_i64(r);
    res->runs_no_class = wire_get_i64(r);
    res->events = wire_get_i64(r);
    res->error_traces = wire_get_i64(r);
    bool complete = wire_get_i32(r) != 0;
    int reason = wire_get_i32(r);
    char *text = wire_get_str(r);
    if (!complete) {
        const char *why = reason >= 0 && reason < NREASONS ? reasons[reason] : "team";
        explore_stop(res, why, "%s", text ? text : why);
    }
    free(text);
    bool sorted = wire_get_i32(r) != 0;
    size_t per = (size_t)(nobs ? nobs : 1);
    /* each state takes nobs + 2 bytes or more */
    int n = wire_get_count(r, WIRE_MAX / (int)(per + 2));
    if (n > 0 && (size_t)n > (r->len - r->at) / (per + 2))
        r->bad = true;          /* fewer bytes left than n states take */
    if (n < 0 || r->bad)
        return false;
    if (n > 0) {
        wmx_val *block = wmx_malloc((size_t)n * per * sizeof *block);
        explore_result_adopt_vals(res, block);
        free(res->states);
        res->states = wmx_malloc((size_t)n * sizeof *res->states);
        res->cap_states = n;
        for (int i = 0; i < n && !r->bad; i++) {
            final_state *s = &res->states[i];
            s->vals = block + (size_t)i * per;
            for (int k = 0; k < nobs; k++)
                s->vals[k] = wire_get_varint(r);
            s->count = wire_get_varint(r);
            s->satisfies = wire_get_varint(r) != 0;
            res->nstates = i + 1;
        }
    }
    res->states_sorted = sorted;
    int ne = wire_get_count(r, WIRE_MAX / 64);
    if (ne < 0)
        return false;
    res->errors = wmx_calloc((size_t)ne + 1, sizeof *res->errors);
    res->cap_errors = ne;
    for (int i = 0; i < ne && !r->bad; i++) {
        explore_error *e = &res->errors[i];
        res->nerrors = i + 1;
        e->thread = wire_get_i32(r);
        e->instr = wire_get_i32(r);
        e->message = wire_get_str(r);
        if (!e->message)
            e->message = wmx_strdup("");
        get_trace(r, &e->len, &e->steps, &e->events);
    }
    int nb = wire_get_count(r, WIRE_MAX / 64);
    if (nb < 0)
        return false;
    res->blocked_at = wmx_calloc((size_t)nb + 1, sizeof *res->blocked_at);
    res->cap_blocked_at = nb;
    for (int i = 0; i < nb && !r->bad; i++) {
        explore_blocked *b = &res->blocked_at[i];
        res->nblocked_at = i + 1;
        b->nwaits = wire_get_count(r, WIRE_MAX / (int)sizeof *b->waits);
        if (b->nwaits < 0) {
            b->nwaits = 0;
            return false;
        }
        b->waits = wmx_malloc((size_t)b->nwaits * sizeof *b->waits + 1);
        wire_get(r, b->waits, (size_t)b->nwaits * sizeof *b->waits);
        b->count = wire_get_i64(r);
        get_trace(r, &b->len, &b->steps, &b->events);
    }
    return !r->bad;
}
