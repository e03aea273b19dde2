/* report.c - printing results: text for people, herd7's layout, JSON. */
#include "report.h"
#include "team.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        switch (*c) {
        case '"':  fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (*c < 0x20)
                fprintf(out, "\\u%04x", *c);
            else
                fputc(*c, out);
        }
    }
    fputc('"', out);
}

/* A value as herd prints it: a location name for a pointer into memory. */
static void format_value(const wmx_program *p, wmx_val v, char *buf, size_t n)
{
    if (strcmp(p->arch, "wmx") != 0)
        for (int c = 0; c < p->ncells; c++)
            if (v == ir_cell_address(p, c)) {
                ir_cell_name(p, c, buf, n);
                return;
            }
    snprintf(buf, n, "%lld", (long long)v);
}

static size_t int_text(char *buf, long long v);

/* The text of every state starts each cell with the same "key=": format
 * the keys once (per state, ir_lhs_format and snprintf were a third of
 * printing readers-16's 65536 states). */
typedef struct state_keys {
    char **key;
    size_t *len;
    bool plain;          /* .wmx: values are numbers, never cell names */
} state_keys;

static void state_keys_init(state_keys *k, const explore_result *res)
{
    k->key = wmx_calloc((size_t)res->nobserved + 1, sizeof *k->key);
    k->len = wmx_calloc((size_t)res->nobserved + 1, sizeof *k->len);
    k->plain = strcmp(res->prog->arch, "wmx") == 0;
    for (int i = 0; i < res->nobserved; i++) {
        char key[160];
        ir_lhs_format(res->prog, &res->observed[i], key, sizeof key);
        size_t l = strlen(key);
        k->key[i] = wmx_malloc(l + 3);
        size_t n = 0;
        if (i)
            k->key[i][n++] = ' ';
        memcpy(k->key[i] + n, key, l);
        n += l;
        k->key[i][n++] = '=';
        k->key[i][n] = '\0';
        k->len[i] = n;
    }
}

static void state_keys_free(state_keys *k, const explore_result *res)
{
    for (int i = 0; i < res->nobserved; i++)
        free(k->key[i]);
    free(k->key);
    free(k->len);
}

static void state_text(const explore_result *res, const state_keys *k, const final_state *s,
                       char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < res->nobserved; i++) {
        char val[64];
        size_t vl;
        int cell = res->observed[i].thread < 0 ? res->observed[i].cell : -1;
        if (res->prog->cell_float && cell >= 0 && res->prog->cell_float[cell]) {
            ir_value_text(res->prog, cell, s->vals[i], val, sizeof val);
            vl = strlen(val);
        } else if (k->plain) {
            vl = int_text(val, (long long)s->vals[i]);
        } else {
            format_value(res->prog, s->vals[i], val, sizeof val);
            vl = strlen(val);
        }
        if (used + k->len[i] + vl + 2 > n)
            break;
        memcpy(buf + used, k->key[i], k->len[i]);
        used += k->len[i];
        memcpy(buf + used, val, vl);
        used += vl;
        buf[used++] = ';';
        buf[used] = '\0';
    }
}

static const char *quant_word(quantifier q)
{
    return q == Q_EXISTS ? "exists" : q == Q_NOT_EXISTS ? "~exists" : q == Q_FORALL ? "forall" : "";
}

void report_condition(const wmx_program *p, char *buf, size_t n)
{
    if (p->quant == Q_NONE) {
        snprintf(buf, n, "none");
        return;
    }
    char prop[2048];
    ir_cond_format(p, p->cond_root, prop, sizeof prop);
    snprintf(buf, n, "%s (%s)", quant_word(p->quant), prop);
}

static const char *herd_kind(quantifier q)
{
    return q == Q_NOT_EXISTS ? "Forbidden" : q == Q_FORALL ? "Required" : "Allowed";
}

void report_herd(FILE *out, const explore_result *res)
{
    const wmx_program *p = res->prog;
    char line[4096];
    fprintf(out, "Test %s %s\n", p->name, herd_kind(p->quant));
    fprintf(out, "States %d\n", res->nstates);
    state_keys keys;
    state_keys_init(&keys, res);
    for (int i = 0; i < res->nstates; i++) {
        state_text(res, &keys, &res->states[i], line, sizeof line);
        fputs(line, out);
        fputc('\n', out);
    }
    state_keys_free(&keys, res);
    fprintf(out, "%s\n", explore_cond_ok(res) ? "Ok" : "No");
    fprintf(out, "Witnesses\n");
    fprintf(out, "Positive: %ld Negative: %ld\n", res->positive, res->negative);
    report_condition(p, line, sizeof line);
    fprintf(out, "Condition %s\n", line);
    fprintf(out, "Observation %s %s %ld %ld\n", p->name, explore_observation(res),
            res->positive, res->negative);
    fprintf(out, "Time %s %.2f\n", p->name, res->time_s);
    if (!res->complete)
        fprintf(out, "Partial %s %s\n", p->name, report_stop_text(res));
    fprintf(out, "\n");
}

const char *report_stop_text(const explore_result *res)
{
    if (res->stop_text[0])
        return res->stop_text;
    return res->stop_reason ? res->stop_reason : "a limit";
}

/* A long trace is shown by its ends: a 100 000-event violation would
 * otherwise print megabytes per report. */
#define TRACE_SHOW 200
void report_trace_short(FILE *out, const wmx_machine *m, const wmx_event *events, int n)
{
    if (n <= 2 * TRACE_SHOW) {
        report_trace(out, m, events, n);
        return;
    }
    char line[512];
    for (int i = 0; i < n; i++) {
        if (i == TRACE_SHOW) {
            fprintf(out, "  ...  (%d events not shown; --json lists them all)\n", n - 2 * TRACE_SHOW);
            i = n - TRACE_SHOW;
        }
        machine_describe(m, &events[i], line, sizeof line);
        fprintf(out, "  %3d  %s\n", i + 1, line);
    }
}

void report_trace(FILE *out, const wmx_machine *m, const wmx_event *events, int n)
{
    char line[512];
    for (int i = 0; i < n; i++) {
        machine_describe(m, &events[i], line, sizeof line);
        fprintf(out, "  %3d  %s\n", i + 1, line);
    }
}

static const char *wait_words(wait_reason why)
{
    switch (why) {
    case WAIT_ASSUME: return "stops: assumption false at";
    case WAIT_BOUND:  return "stops: loop bound reached at";
    case WAIT_SPIN:   return "stops: spin loop would go round again at";
    case WAIT_ABORT:  return "stops: abort() at";
    default:          return "waits forever at";
    }
}

void report_wait(const wmx_program *p, const explore_wait *w, char *buf, size_t n)
{
    const ir_thread *th = &p->threads[w->thread];
    if (w->instr >= 0 && w->instr < th->ninstrs) {
        const ir_instr *in = &th->instrs[w->instr];
        /* "(loop bound reached: --unroll)": the C front end's own words,
         * which the reason already says */
        bool own = in->text && in->text[0] && in->text[0] != '(';
        snprintf(buf, n, "%s %s %s:%d:%d%s%s", th->name, wait_words(w->why), ir_loc_file(p, in->loc),
                 in->loc.line, in->loc.col, own ? ": " : "", own ? in->text : "");
    } else {
        snprintf(buf, n, "%s %s its end", th->name, wait_words(w->why));
    }
}

/* Whether every stopped thread of b waits at an await or a lock: a
 * deadlock or a wait nobody ends, shown with its trace. */
static bool blocked_waits_only(const explore_blocked *b)
{
    for (int i = 0; i < b->nwaits; i++)
        if (b->waits[i].why != WAIT_FOREVER)
            return false;
    return b->nwaits > 0;
}

#define BLOCKED_SHOW 5
/* Where the blocked traces' threads stop: the first BLOCKED_SHOW sets,
 * each with its count, and the shortest trace into each deadlock. */
static void report_blocked(FILE *out, const explore_result *res)
{
    const wmx_program *p = res->prog;
    if (res->blocked == 0 || res->nblocked_at == 0)
        return;
    fprintf(out, "Blocked: %ld trace%s end%s with threads that cannot go on:\n", res->blocked,
            res->blocked == 1 ? "" : "s", res->blocked == 1 ? "s" : "");
    wmx_machine *m = NULL;
    explore_blocked *sets;
    int nsets = explore_blocked_by_place(res, &sets);    /* copies of a statement are one place */
    int shown = nsets < BLOCKED_SHOW ? nsets : BLOCKED_SHOW;
    /* the traces of the sets shown; 0 when not counted (stateful) */
    long listed = 0;
    for (int i = 0; i < shown; i++)
        listed += sets[i].count;
    for (int i = 0; i < shown; i++) {
        const explore_blocked *b = &sets[i];
        bool deadlock = blocked_waits_only(b);
        if (b->count > 0)
            fprintf(out, "  %ld trace%s%s:\n", b->count, b->count == 1 ? "" : "s",
                    deadlock ? (b->nwaits > 1 ? " (deadlock)" : " (a wait that never ends)") : "");
        else
            fprintf(out, "  some traces%s:\n",
                    deadlock ? (b->nwaits > 1 ? " (deadlock)" : " (a wait that never ends)") : "");
        for (int k = 0; k < b->nwaits; k++) {
            char line[1024];
            report_wait(p, &b->waits[k], line, sizeof line);
            fprintf(out, "    %s\n", line);
        }
        if (deadlock) {
            if (!m)
                m = machine_new(p, res->model, NULL);
            if (m) {
                fprintf(out, "    trace (a shortest one):\n");
                report_trace_short(out, m, b->events, b->len);
            }
        }
    }
    machine_free(m);
    if (listed > 0 && listed < res->blocked)
        fprintf(out, "  and %ld more trace%s that stop elsewhere (--json lists up to %d sets of places)\n",
                res->blocked - listed, res->blocked - listed == 1 ? "" : "s", EXPLORE_MAX_BLOCKED_AT);
    else if (listed == 0 && nsets > shown)
        fprintf(out, "  and more that stop elsewhere (--json lists up to %d sets of places)\n",
                EXPLORE_MAX_BLOCKED_AT);
    free(sets);
}

/* Where a mutex is no chain of RMWs (a trylock on it: core/rfsmc.c,
 * find_chain_cells), RF-SMC reaches the other orders of critical sections
 * only through graphs where a lock failed, which are no class: on programs
 * built of mutexes those can be most of the run.  rfstate finds the same
 * classes without them. */
static void report_lock_hint(FILE *out, const explore_result *res)
{
    if (res->algo != ALGO_RFSMC || res->runs_no_class < 1000 ||
        res->runs_no_class < res->traces + res->blocked)
        return;
    if (!ir_has_locks(res->prog))
        return;
    fprintf(out, "Note: rfsmc ran %ld traces that are no class to reach other orders of the critical\n"
                 "sections (%ld classes found); --algo rfstate finds the same classes by memoising\n"
                 "states, usually much faster on mutex-heavy programs (at the cost of memory).\n",
            res->runs_no_class, res->traces + res->blocked);
}

void report_text(FILE *out, const explore_result *res)
{
    const wmx_program *p = res->prog;
    char line[4096];
    fprintf(out, "Test %s under %s, algorithm %s%s\n", p->name, model_name(res->model),
            algo_name(res->algo), p->plp ? " (C loops: partial loop purity on, --no-plp turns it off)" : "");
    fprintf(out, "  %ld trace%s, %ld blocked, %ld events, %.3f s%s%s%s\n", res->traces,
            res->traces == 1 ? "" : "s", res->blocked, res->events, res->time_s,
            res->complete ? "" : "  (PARTIAL: stopped: ", res->complete ? "" : report_stop_text(res),
            res->complete ? "" : ")");
    fprintf(out, "States %d\n", res->nstates);
    state_keys keys;
    state_keys_init(&keys, res);
    /* "  %-40s %13s%s\n" of the state, its count ("%6ld traces") and the
     * mark, put together by hand: printf was most of printing a state */
    static const char mark[] = "   <- satisfies the condition";
    char row[4096 + 96];
    for (int i = 0; i < res->nstates; i++) {
        const final_state *st = &res->states[i];
        state_text(res, &keys, st, line, sizeof line);
        size_t n = 0, l = strlen(line);
        row[n++] = ' ';
        row[n++] = ' ';
        memcpy(row + n, line, l);
        n += l;
        while (l++ < 40)
            row[n++] = ' ';
        row[n++] = ' ';
        if (st->count > 0) {
            char num[24];
            size_t nl = int_text(num, st->count);
            for (size_t k = nl; k < 6; k++)
                row[n++] = ' ';
            memcpy(row + n, num, nl);
            n += nl;
            memcpy(row + n, st->count == 1 ? " trace " : " traces", 7);
            n += 7;
        } else {
            memset(row + n, ' ', 13);
            n += 13;
        }
        if (p->quant != Q_NONE && st->satisfies) {
            memcpy(row + n, mark, sizeof mark - 1);
            n += sizeof mark - 1;
        }
        row[n++] = '\n';
        fwrite(row, 1, n, out);
    }
    state_keys_free(&keys, res);
    if (p->quant != Q_NONE) {
        report_condition(p, line, sizeof line);
        fprintf(out, "Condition %s\n", line);
        fprintf(out, "Verdict: %s (proposition %s: observation %s, %ld positive, %ld negative)\n",
                explore_cond_ok(res) ? "Ok" : "No",
                res->positive ? "reachable" : "unreachable",
                explore_observation(res), res->positive, res->negative);
    }
    report_blocked(out, res);
    if (res->nerrors) {
        fprintf(out, "%ld trace%s an assertion:\n", res->error_traces,
                res->error_traces == 1 ? " violates" : "s violate");
        wmx_machine *m = machine_new(p, res->model, NULL);
        for (int e = 0; e < res->nerrors; e++) {
            fprintf(out, "%s\n  trace:\n", res->errors[e].message);
            if (m)
                report_trace_short(out, m, res->errors[e].events, res->errors[e].len);
        }
        machine_free(m);
    }
    if (!res->complete)
        fprintf(out, "PARTIAL: stopped: %s%s\n", report_stop_text(res),
                res->nerrors ? "; the violations above were found before the stop (exit 1)"
                             : "; the result covers only what was explored (exit 3)");
    report_lock_hint(out, res);
}

/* Integers without printf, and a state's text written with one fwrite:
 * the state table prints one number per cell, and vfprintf, then fputs and
 * fwrite per cell, were 5-7% of a fast exploration's whole run. */
static size_t int_text(char *buf, long long v)
{
    char tmp[24];
    char *e = tmp + sizeof tmp, *q = e;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do {
        *--q = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--q = '-';
    memcpy(buf, q, (size_t)(e - q));
    return (size_t)(e - q);
}

#define JSON_MAX_PARTS 64
#define JSON_PARALLEL_MIN 16384
#define JSON_CHUNK 1024
#define JSON_RING 8          /* chunks formatted ahead of the writer, at most */

/* What formats the "states" array: chunk c (states [c * JSON_CHUNK, ...))
 * goes into ring slot c % JSON_RING; the writer writes them in order.  A
 * slot keeps its buffer from chunk to chunk: fresh pages for every chunk
 * were thousands of page faults on readers-18. */
typedef struct json_pipe {
    const explore_result *res;
    char **keys;
    const size_t *klen;
    size_t need;               /* the longest state's text */
    FILE *out;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int nchunks;
    int claimed;               /* chunks [0, claimed) are someone's */
    int written;               /* chunks [0, written) are out */
    char *buf[JSON_RING];      /* the slot's buffer, owned by who claimed its chunk */
    size_t len[JSON_RING];
    bool ready[JSON_RING];     /* the slot's chunk is formatted, not yet written */
} json_pipe;

typedef struct json_role {
    json_pipe *jp;
    bool writer;
} json_role;

/* Formats chunk c into buf (no comma before its first state when c is 0);
 * returns its length. */
static size_t json_chunk(const json_pipe *jp, int c, char *buf)
{
    const explore_result *res = jp->res;
    int lo = c * JSON_CHUNK, hi = lo + JSON_CHUNK < res->nstates ? lo + JSON_CHUNK : res->nstates;
    size_t n = 0;
    for (int i = lo; i < hi; i++) {
        if (i)
            buf[n++] = ',', buf[n++] = ' ';
        buf[n++] = '{';
        for (int k = 0; k < res->nobserved; k++) {
            memcpy(buf + n, jp->keys[k] ? jp->keys[k] : "", jp->klen[k]);
            n += jp->klen[k];
            int cell = res->observed[k].thread < 0 ? res->observed[k].cell : -1;
            if (res->prog->cell_float && cell >= 0 && res->prog->cell_float[cell]) {
                char d[40];
                ir_value_text(res->prog, cell, res->states[i].vals[k], d, sizeof d);
                /* JSON has no NaN or infinity */
                if (strpbrk(d, "ni"))
                    snprintf(d, sizeof d, "null");
                size_t dl = strlen(d);
                memcpy(buf + n, d, dl);
                n += dl;
            } else {
                n += int_text(buf + n, (long long)res->states[i].vals[k]);
            }
        }
        buf[n++] = '}';
    }
    return n;
}

/* Claims the next chunk if the ring has room for it; -1 if not.  Called
 * with the lock held. */
static int json_claim(json_pipe *jp)
{
    if (jp->claimed >= jp->nchunks || jp->claimed >= jp->written + JSON_RING)
        return -1;
    return jp->claimed++;
}

/* Formats the chunk c outside the lock and marks its slot ready. */
static void json_fill(json_pipe *jp, int c)
{
    int slot = c % JSON_RING;
    pthread_mutex_unlock(&jp->mu);
    if (!jp->buf[slot])         /* need, plus ", {" and "}", for each state */
        jp->buf[slot] = wmx_malloc((jp->need + 4) * JSON_CHUNK + 1);
    size_t len = json_chunk(jp, c, jp->buf[slot]);
    pthread_mutex_lock(&jp->mu);
    jp->len[slot] = len;
    jp->ready[slot] = true;
    pthread_cond_broadcast(&jp->cv);
}

/* The writer writes the chunks in order and formats one itself whenever
 * the next to write is not ready; the others format until none is left. */
static void *json_pipe_main(void *arg)
{
    json_role *role = arg;
    json_pipe *jp = role->jp;
    pthread_mutex_lock(&jp->mu);
    if (role->writer) {
        while (jp->written < jp->nchunks) {
            int slot = jp->written % JSON_RING;
            if (!jp->ready[slot]) {
                int c = json_claim(jp);
                if (c >= 0)
                    json_fill(jp, c);
                else
                    pthread_cond_wait(&jp->cv, &jp->mu);
                continue;
            }
            pthread_mutex_unlock(&jp->mu);
            fwrite(jp->buf[slot], 1, jp->len[slot], jp->out);
            pthread_mutex_lock(&jp->mu);
            jp->ready[slot] = false;
            jp->written++;
            pthread_cond_broadcast(&jp->cv);       /* a slot is free */
        }
    } else {
        while (jp->claimed < jp->nchunks) {
            int c = json_claim(jp);
            if (c >= 0)
                json_fill(jp, c);
            else
                pthread_cond_wait(&jp->cv, &jp->mu);
        }
    }
    pthread_mutex_unlock(&jp->mu);
    return NULL;
}

/* A trace as a JSON array of its events' descriptions (empty without m). */
static void json_trace(FILE *out, const wmx_machine *m, const wmx_event *events, int len)
{
    char line[512];
    fprintf(out, "[");
    for (int i = 0; i < len && m; i++) {
        machine_describe(m, &events[i], line, sizeof line);
        fprintf(out, "%s", i ? ", " : "");
        json_string(out, line);
    }
    fprintf(out, "]");
}

void report_json(FILE *out, const explore_result *res)
{
    const wmx_program *p = res->prog;
    char line[4096];
    fprintf(out, "{\"test\": ");
    json_string(out, p->name);
    fprintf(out, ", \"file\": ");
    json_string(out, p->file);
    fprintf(out, ", \"model\": \"%s\", \"algo\": \"%s\", \"traces\": %ld, \"blocked\": %ld,",
            model_name(res->model), algo_name(res->algo), res->traces, res->blocked);
    if (p->unroll > 0)
        fprintf(out, " \"unroll\": %d,", p->unroll);
    if (p->unroll > 0)
        fprintf(out, " \"plp\": %s,", p->plp ? "true" : "false");
    if (p->has_nondet)
        fprintf(out, " \"nondet\": [%lld, %lld],", (long long)p->nondet_lo, (long long)p->nondet_hi);
    if (p->has_nondet && p->nondet_nextra) {
        /* values outside the range, next to constants the program compares with */
        fprintf(out, " \"nondet_boundary\": [");
        for (int i = 0; i < p->nondet_nextra; i++)
            fprintf(out, "%s%lld", i ? ", " : "", (long long)p->nondet_extra[i]);
        fprintf(out, "],");
    }
    fprintf(out, " \"events\": %ld, \"states\": [", res->events);
    /* the keys are the same in every state: format and quote them once
     * (formatting them per state was a third of `explore --json` on
     * readers-12's 4096 states) */
    char **keys = wmx_calloc((size_t)res->nobserved + 1, sizeof *keys);
    for (int k = 0; k < res->nobserved; k++) {
        char key[160];
        ir_lhs_format(p, &res->observed[k], key, sizeof key);
        /* herd writes memory as [x]; JSON keys use the bare name */
        const char *name = key;
        size_t len = strlen(key);
        if (key[0] == '[' && len > 2 && key[len - 1] == ']') {
            key[len - 1] = '\0';
            name = key + 1;
        }
        size_t klen = 0;
        FILE *f = open_memstream(&keys[k], &klen);
        if (f) {
            fputs(k ? ", " : "", f);
            json_string(f, name);
            fputs(": ", f);
            fclose(f);
        }
    }
    size_t *klen = wmx_calloc((size_t)res->nobserved + 1, sizeof *klen), need = 8;
    for (int k = 0; k < res->nobserved; k++) {
        klen[k] = keys[k] ? strlen(keys[k]) : 0;
        need += klen[k] + 32;      /* an integer's 20 characters, a double's 24 */
    }
    /* a run of --jobs N formats big tables on N threads, JSON_CHUNK states
     * at a time, while this thread writes the chunks in order (the output
     * is the same): printing was the serial end of such a run */
    int np = res->workers > 1 && res->nstates >= JSON_PARALLEL_MIN ? res->workers : 1;
    if (np > JSON_MAX_PARTS)
        np = JSON_MAX_PARTS;
    json_pipe jp = { .res = res, .keys = keys, .klen = klen, .need = need, .out = out,
                     .nchunks = (res->nstates + JSON_CHUNK - 1) / JSON_CHUNK };
    pthread_mutex_init(&jp.mu, NULL);
    pthread_cond_init(&jp.cv, NULL);
    team *tm = np > 1 ? team_new(np) : NULL;
    if (tm) {
        json_role roles[JSON_MAX_PARTS];
        void *args[JSON_MAX_PARTS];
        for (int k = 0; k < np; k++) {
            roles[k] = (json_role){ &jp, k == 0 };
            args[k] = &roles[k];
        }
        team_run(tm, json_pipe_main, args);
    } else {
        json_role writer = { &jp, true };
        json_pipe_main(&writer);
    }
    for (int k = 0; k < JSON_RING; k++)
        free(jp.buf[k]);
    pthread_mutex_destroy(&jp.mu);
    pthread_cond_destroy(&jp.cv);
    team_free(tm);
    free(klen);
    for (int k = 0; k < res->nobserved; k++)
        free(keys[k]);
    free(keys);
    /* per-state trace counts; null where the algorithm does not know them */
    fprintf(out, "], \"state_counts\": [");
    /* into a buffer, not two stdio calls a state: once a process has
     * threads, each call takes the stream's lock (readers-18 on --jobs 2
     * spent 20 ms here) */
    {
        char buf[8192];
        size_t n = 0;
        for (int i = 0; i < res->nstates; i++) {
            if (n > sizeof buf - 32) {
                fwrite(buf, 1, n, out);
                n = 0;
            }
            if (i)
                buf[n++] = ',', buf[n++] = ' ';
            if (res->states[i].count > 0) {
                n += int_text(buf + n, res->states[i].count);
            } else {
                memcpy(buf + n, "null", 4);
                n += 4;
            }
        }
        fwrite(buf, 1, n, out);
    }
    fprintf(out, "], \"positive\": %ld, \"negative\": %ld, \"observation\": \"%s\", \"ok\": %s, ",
            res->positive, res->negative, explore_observation(res),
            explore_cond_ok(res) ? "true" : "false");
    report_condition(p, line, sizeof line);
    fprintf(out, "\"condition\": ");
    json_string(out, line);
    fprintf(out, ", \"complete\": %s, \"stop_reason\": ", res->complete ? "true" : "false");
    if (res->stop_reason)
        json_string(out, res->stop_reason);
    else
        fprintf(out, "null");
    fprintf(out, ", \"stopped\": ");
    if (!res->complete)
        json_string(out, report_stop_text(res));
    else
        fprintf(out, "null");
    fprintf(out, ", \"errors\": [");
    wmx_machine *m = res->nerrors ? machine_new(p, res->model, NULL) : NULL;
    for (int e = 0; e < res->nerrors; e++) {
        const explore_error *er = &res->errors[e];
        fprintf(out, "%s{\"message\": ", e ? ", " : "");
        json_string(out, er->message);
        fprintf(out, ", \"thread\": ");
        json_string(out, p->threads[er->thread].name);
        fprintf(out, ", \"trace\": ");
        json_trace(out, m, er->events, er->len);
        fprintf(out, "}");
    }
    fprintf(out, "], \"error_traces\": %ld, \"blocked_at\": [", res->error_traces);
    if (!m && res->nblocked_at)
        m = machine_new(p, res->model, NULL);
    explore_blocked *sets;
    int nsets = explore_blocked_by_place(res, &sets);
    for (int i = 0; i < nsets; i++) {
        const explore_blocked *b = &sets[i];
        fprintf(out, "%s{\"count\": %ld, \"deadlock\": %s, \"threads\": [", i ? ", " : "", b->count,
                blocked_waits_only(b) ? "true" : "false");
        for (int k = 0; k < b->nwaits; k++) {
            const explore_wait *w = &b->waits[k];
            const ir_thread *th = &p->threads[w->thread];
            fprintf(out, "%s{\"thread\": ", k ? ", " : "");
            json_string(out, th->name);
            fprintf(out, ", \"reason\": \"%s\"", w->why == WAIT_ASSUME ? "assume"
                                               : w->why == WAIT_BOUND ? "bound"
                                               : w->why == WAIT_SPIN ? "spin"
                                               : w->why == WAIT_ABORT ? "abort" : "waits");
            if (w->instr >= 0 && w->instr < th->ninstrs) {
                const ir_instr *in = &th->instrs[w->instr];
                snprintf(line, sizeof line, "%s:%d:%d", ir_loc_file(p, in->loc), in->loc.line,
                         in->loc.col);
                fprintf(out, ", \"at\": ");
                json_string(out, line);
                fprintf(out, ", \"instr\": ");
                json_string(out, in->text ? in->text : "");
            } else {
                fprintf(out, ", \"at\": null, \"instr\": null");
            }
            fprintf(out, "}");
        }
        fprintf(out, "], \"trace\": ");
        json_trace(out, m, b->events, b->len);
        fprintf(out, "}");
    }
    free(sets);
    machine_free(m);
    fprintf(out, "], \"time_s\": %.6f}\n", res->time_s);
}
