/* exec.c - executions as data (see exec.h) and the event-set + RF form of
 * trace files (doc/trace-format.md). */
#include "exec.h"
#include "load.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *xkind_name(xkind k)
{
    switch (k) {
    case X_READ: return "r";
    case X_WRITE: return "w";
    case X_FENCE: return "fnc";
    case X_RMW: return "rmw";
    case X_AWAIT: return "await";
    }
    return "?";
}


const char *rel_name(rel_kind k)
{
    switch (k) {
    case REL_PO: return "po";
    case REL_RF: return "rf";
    case REL_CO: return "co";
    case REL_FR: return "fr";
    case REL_PPO: return "ppo";
    case REL_FENCE: return "fence";
    }
    return "?";
}

/* ---- construction ---- */

wmx_exec *exec_new(const wmx_program *prog, wmx_model model)
{
    wmx_exec *x = wmx_calloc(1, sizeof *x);
    x->prog = prog;
    x->model = model;
    x->nthreads = prog->nthreads;
    x->ncells = prog->ncells;
    x->cell_init = wmx_calloc((size_t)(x->ncells ? x->ncells : 1), sizeof *x->cell_init);
    for (int c = 0; c < x->ncells; c++)
        x->cell_init[c] = prog->cell_init[c];
    x->tstart = wmx_calloc((size_t)x->nthreads + 1, sizeof *x->tstart);
    if (prog->file)
        x->program_path = wmx_strdup(prog->file);
    return x;
}

void exec_free(wmx_exec *x)
{
    if (!x)
        return;
    free(x->program_path);
    free(x->cell_init);
    free(x->ev);
    free(x->tcount);
    free(x->tstart);
    free(x->obs_cell);
    free(x->obs_writer);
    free(x);
}

wmx_exec *exec_copy(const wmx_exec *x)
{
    wmx_exec *y = wmx_calloc(1, sizeof *y);
    *y = *x;
    y->program_path = x->program_path ? wmx_strdup(x->program_path) : NULL;
    y->cell_init = wmx_malloc((size_t)(x->ncells ? x->ncells : 1) * sizeof *y->cell_init);
    memcpy(y->cell_init, x->cell_init, (size_t)x->ncells * sizeof *y->cell_init);
    y->ev = wmx_malloc((size_t)(x->nev ? x->nev : 1) * sizeof *y->ev);
    y->evcap = x->nev ? x->nev : 1;
    y->tcount = NULL;
    y->tcounted = 0;
    if (x->nev)
        memcpy(y->ev, x->ev, (size_t)x->nev * sizeof *y->ev);
    y->tstart = wmx_malloc(((size_t)x->nthreads + 1) * sizeof *y->tstart);
    memcpy(y->tstart, x->tstart, ((size_t)x->nthreads + 1) * sizeof *y->tstart);
    y->obs_cell = wmx_malloc((size_t)(x->nobs + 1) * sizeof(int));
    y->obs_writer = wmx_malloc((size_t)(x->nobs + 1) * sizeof(int));
    y->obs_cap = x->nobs + 1;
    memcpy(y->obs_cell, x->obs_cell ? x->obs_cell : y->obs_cell, (size_t)x->nobs * sizeof(int));
    memcpy(y->obs_writer, x->obs_writer ? x->obs_writer : y->obs_writer, (size_t)x->nobs * sizeof(int));
    return y;
}

/* Before sealing, events are appended in any thread order; index is the
 * count of earlier events of the same thread and rf holds an event id. */
int exec_add(wmx_exec *x, const xevent *e)
{
    /* room doubles and each thread's count is kept: a robustness check
     * built a 128000-event class event by event, a scan and a realloc
     * each, for 18 s without polling its budget */
    if (x->nev >= x->evcap) {
        x->evcap = x->nev >= 32 ? 2 * x->nev : 64;
        x->ev = wmx_realloc(x->ev, (size_t)x->evcap * sizeof *x->ev);
    }
    if (!x->tcount)
        x->tcount = wmx_calloc((size_t)(x->nthreads ? x->nthreads : 1), sizeof *x->tcount);
    if (x->tcounted != x->nev) {          /* events set by other means */
        memset(x->tcount, 0, (size_t)(x->nthreads ? x->nthreads : 1) * sizeof *x->tcount);
        for (int i = 0; i < x->nev; i++)
            if (x->ev[i].thread >= 0 && x->ev[i].thread < x->nthreads)
                x->tcount[x->ev[i].thread]++;
        x->tcounted = x->nev;
    }
    xevent ne = *e;
    int idx = 0;
    if (e->thread >= 0 && e->thread < x->nthreads) {
        idx = x->tcount[e->thread]++;
    } else {
        for (int i = 0; i < x->nev; i++)
            if (x->ev[i].thread == e->thread)
                idx++;
    }
    ne.index = idx;
    x->ev[x->nev] = ne;
    x->tcounted++;
    return x->nev++;
}

static int ev_cmp(const void *pa, const void *pb, void *ctx)
{
    (void)ctx;
    const xevent *a = pa, *b = pb;
    if (a->thread != b->thread)
        return a->thread - b->thread;
    return a->index - b->index;
}

int exec_find(const wmx_exec *x, int thread, int index)
{
    if (thread < 0 || thread >= x->nthreads || index < 0)
        return -1;
    int i = x->tstart[thread] + index;
    return i < x->tstart[thread + 1] ? i : -1;
}

void exec_seal(wmx_exec *x)
{
    /* explorers hand their events over thread by thread, already in order:
     * a check is linear, the sort is not (a fifth of RF-SMC's time on a
     * 512-event thread) */
    bool sorted = true;
    for (int i = 1; i < x->nev && sorted; i++)
        sorted = ev_cmp(&x->ev[i - 1], &x->ev[i], NULL) < 0;
    if (!sorted)
        wmx_sort(x->ev, (size_t)x->nev, sizeof *x->ev, ev_cmp, NULL);
    for (int t = 0; t <= x->nthreads; t++)
        x->tstart[t] = 0;
    for (int i = 0; i < x->nev; i++)
        x->tstart[x->ev[i].thread + 1]++;
    for (int t = 0; t < x->nthreads; t++)
        x->tstart[t + 1] += x->tstart[t];
    for (int i = 0; i < x->nev; i++) {
        xevent *e = &x->ev[i];
        if (xev_is_read(e))
            e->rf = e->rf == EID_INIT ? -1 : exec_find(x, EID_THREAD(e->rf), EID_INDEX(e->rf)) >= 0
                    ? exec_find(x, EID_THREAD(e->rf), EID_INDEX(e->rf)) : -2;
        else
            e->rf = -1;
    }
}

void exec_set_observer(wmx_exec *x, int cell, int writer)
{
    for (int i = 0; i < x->nobs; i++)
        if (x->obs_cell[i] == cell) {
            x->obs_writer[i] = writer;
            return;
        }
    if (x->nobs >= x->obs_cap) {
        /* room doubles: rfsmc sets observers one by one, thousands deep */
        x->obs_cap = x->nobs < 8 ? 8 : 2 * x->nobs;
        x->obs_cell = wmx_realloc(x->obs_cell, (size_t)x->obs_cap * sizeof(int));
        x->obs_writer = wmx_realloc(x->obs_writer, (size_t)x->obs_cap * sizeof(int));
    }
    x->obs_cell[x->nobs] = cell;
    x->obs_writer[x->nobs] = writer;
    x->nobs++;
}

void exec_put_observer(wmx_exec *x, int i, int cell, int writer)
{
    x->nobs = i;
    if (x->nobs >= x->obs_cap) {
        x->obs_cap = x->nobs < 8 ? 8 : 2 * x->nobs;
        x->obs_cell = wmx_realloc(x->obs_cell, (size_t)x->obs_cap * sizeof(int));
        x->obs_writer = wmx_realloc(x->obs_writer, (size_t)x->obs_cap * sizeof(int));
    }
    x->obs_cell[i] = cell;
    x->obs_writer[i] = writer;
    x->nobs = i + 1;
}

wmx_exec *exec_from_events(const wmx_program *prog, wmx_model model,
                           const wmx_event *events, int len, wmx_error *err)
{
    wmx_exec *x = exec_new(prog, model);
    int *count = wmx_calloc((size_t)x->nthreads + 1, sizeof *count);
    for (int i = 0; i < len; i++) {
        const wmx_event *ev = &events[i];
        if (ev->kind == EV_WRITE_MEM)
            continue;
        if (ev->thread < 0 || ev->thread >= x->nthreads || EID_INDEX(ev->id) != count[ev->thread]) {
            wmx_error_set(err, prog->file, 0, 0, "malformed trace: event %d is out of program order", i + 1);
            free(count);
            exec_free(x);
            return NULL;
        }
        count[ev->thread]++;
        xevent e = { .thread = ev->thread, .instr = ev->instr, .cell = ev->cell,
                     .value = ev->value, .read = ev->read, .wrote = ev->wrote,
                     .rf = ev->rf, .mem_order = -1 };
        switch (ev->kind) {
        case EV_READ: e.kind = X_READ; break;
        case EV_AWAIT: e.kind = X_AWAIT; break;
        case EV_FENCE: e.kind = X_FENCE; e.cell = -1; break;
        case EV_RMW:
            e.kind = X_RMW;
            if (ev->wrote) { e.flushed = true; e.mem_order = i; }
            break;
        case EV_WRITE: e.kind = X_WRITE; e.flushed = true; e.mem_order = i; break;
        case EV_WRITE_BUF: e.kind = X_WRITE; break;
        default: break;
        }
        exec_add(x, &e);
    }
    free(count);
    exec_seal(x);
    for (int i = 0; i < len; i++) {
        const wmx_event *ev = &events[i];
        if (ev->kind != EV_WRITE_MEM)
            continue;
        int w = exec_find(x, EID_THREAD(ev->id), EID_INDEX(ev->id));
        if (w < 0 || x->ev[w].kind != X_WRITE || x->ev[w].flushed) {
            wmx_error_set(err, prog->file, 0, 0, "malformed trace: memory-write %d has no buffer-write", i + 1);
            exec_free(x);
            return NULL;
        }
        x->ev[w].flushed = true;
        x->ev[w].mem_order = i;
    }
    return x;
}

/* ---- names ---- */

const char *exec_event_name(const wmx_exec *x, int e, char *buf, size_t n)
{
    if (e < 0) {
        snprintf(buf, n, "init");
        return buf;
    }
    const xevent *v = &x->ev[e];
    snprintf(buf, n, "%s.%d", x->prog->threads[v->thread].name, v->index);
    return buf;
}

int exec_event_line(const wmx_exec *x, int e)
{
    if (e < 0)
        return 0;
    const xevent *v = &x->ev[e];
    const ir_thread *th = &x->prog->threads[v->thread];
    if (v->instr < 0 || v->instr >= th->ninstrs)
        return 0;
    /* a line of the program's own file, for the source pane */
    return th->instrs[v->instr].loc.file ? 0 : th->instrs[v->instr].loc.line;
}

const char *exec_event_describe(const wmx_exec *x, int e, char *buf, size_t n)
{
    char name[64], cell[128] = "";
    exec_event_name(x, e, name, sizeof name);
    if (e < 0) {
        snprintf(buf, n, "the initial value");
        return buf;
    }
    const xevent *v = &x->ev[e];
    if (v->cell >= 0)
        ir_cell_name(x->prog, v->cell, cell, sizeof cell);
    char what[256];
    switch (v->kind) {
    case X_READ: case X_AWAIT:
        snprintf(what, sizeof what, "%s %s=%lld", xkind_name(v->kind), cell, (long long)v->value);
        break;
    case X_WRITE:
        snprintf(what, sizeof what, "w %s=%lld", cell, (long long)v->value);
        break;
    case X_RMW:
        if (v->wrote)
            snprintf(what, sizeof what, "rmw %s %lld->%lld", cell, (long long)v->read, (long long)v->value);
        else
            snprintf(what, sizeof what, "rmw %s=%lld (no write)", cell, (long long)v->read);
        break;
    default:
        snprintf(what, sizeof what, "fence");
        break;
    }
    const ir_thread *th = &x->prog->threads[v->thread];
    int line = exec_event_line(x, e);
    const char *text = v->instr >= 0 && v->instr < th->ninstrs ? th->instrs[v->instr].text : NULL;
    if (line > 0 && text)
        snprintf(buf, n, "%s %s (line %d: %s)", name, what, line, text);
    else if (line > 0)
        snprintf(buf, n, "%s %s (line %d)", name, what, line);
    else
        snprintf(buf, n, "%s %s", name, what);
    return buf;
}

/* ---- edges ---- */

static void push_edge(xedge **out, int *n, int *cap, rel_kind k, int from, int to, int cell)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 32;
        *out = wmx_realloc(*out, (size_t)*cap * sizeof **out);
    }
    (*out)[(*n)++] = (xedge){ k, from, to, cell };
}

static int mo_cmp(const void *pa, const void *pb, void *ctx)
{
    const wmx_exec *x = ctx;
    const int *a = pa, *b = pb;
    return x->ev[*a].mem_order - x->ev[*b].mem_order;
}

int exec_edges(const wmx_exec *x, xedge **out)
{
    int n = 0, cap = 0;
    *out = NULL;
    for (int t = 0; t < x->nthreads; t++)
        for (int i = x->tstart[t]; i + 1 < x->tstart[t + 1]; i++)
            push_edge(out, &n, &cap, REL_PO, i, i + 1, -1);
    for (int i = 0; i < x->nev; i++)
        if (xev_is_read(&x->ev[i]))
            push_edge(out, &n, &cap, REL_RF, x->ev[i].rf, i, x->ev[i].cell);
    /* co: per cell, the flushed writes in memory order (when known) */
    int *ws = wmx_malloc((size_t)(x->nev + 1) * sizeof *ws);
    int *next = wmx_malloc((size_t)(x->nev + 1) * sizeof *next);
    for (int c = 0; c < x->ncells; c++) {
        int k = 0;
        bool known = true;
        for (int i = 0; i < x->nev; i++)
            if (xev_is_write(&x->ev[i]) && x->ev[i].cell == c && x->ev[i].flushed) {
                if (x->ev[i].mem_order < 0)
                    known = false;
                ws[k++] = i;
            }
        if (!known || k == 0)
            continue;
        wmx_sort(ws, (size_t)k, sizeof *ws, mo_cmp, (void *)x);
        push_edge(out, &n, &cap, REL_CO, -1, ws[0], c);
        for (int j = 0; j + 1 < k; j++)
            push_edge(out, &n, &cap, REL_CO, ws[j], ws[j + 1], c);
        for (int j = 0; j < x->nev; j++)
            next[j] = -1;
        for (int j = 0; j + 1 < k; j++)
            next[ws[j]] = ws[j + 1];
        for (int i = 0; i < x->nev; i++) {
            const xevent *r = &x->ev[i];
            if (!xev_is_read(r) || r->cell != c)
                continue;
            int succ = r->rf < 0 ? ws[0] : next[r->rf];
            if (succ >= 0 && succ != i)
                push_edge(out, &n, &cap, REL_FR, i, succ, c);
        }
    }
    free(ws);
    free(next);
    return n;
}

/* ---- the event-set form: writing ---- */


char *exec_format(const wmx_exec *x)
{
    wmx_strbuf b = { 0 };
    const wmx_program *p = x->prog;
    wmx_strbuf_printf(&b, "# wmx execution (format 1: event set + reads-from, see doc/trace-format.md)\n");
    wmx_strbuf_printf(&b, "program %s\nmodel %s\nevents\n", x->program_path ? x->program_path : p->file,
              model_name(x->model));
    for (int i = 0; i < x->nev; i++) {
        const xevent *e = &x->ev[i];
        char line[512], cell[128] = "", src[64];
        if (e->cell >= 0)
            ir_cell_name(p, e->cell, cell, sizeof cell);
        int k = snprintf(line, sizeof line, "%s %s", p->threads[e->thread].name, xkind_name(e->kind));
        if (e->kind != X_FENCE)
            k += snprintf(line + k, sizeof line - (size_t)k, " %s %lld", cell, (long long)e->value);
        if (e->kind == X_RMW)
            k += snprintf(line + k, sizeof line - (size_t)k, " read %lld%s", (long long)e->read,
                          e->wrote ? "" : " nowrite");
        if (xev_is_read(e))
            k += snprintf(line + k, sizeof line - (size_t)k, " rf %s", exec_event_name(x, e->rf, src, sizeof src));
        if (e->kind == X_WRITE && !e->flushed)
            k += snprintf(line + k, sizeof line - (size_t)k, " unflushed");
        if (xev_is_write(e) && e->flushed && e->mem_order >= 0)
            k += snprintf(line + k, sizeof line - (size_t)k, " mo %d", e->mem_order);
        if (e->instr >= 0)
            snprintf(line + k, sizeof line - (size_t)k, " @%d", e->instr);
        char desc[512];
        exec_event_describe(x, i, desc, sizeof desc);
        wmx_strbuf_printf(&b, "%-40s # %s\n", line, desc);
    }
    for (int i = 0; i < x->nobs; i++) {
        char cell[128], src[64];
        wmx_strbuf_printf(&b, "final %s %s\n", ir_cell_name(p, x->obs_cell[i], cell, sizeof cell),
                  exec_event_name(x, x->obs_writer[i], src, sizeof src));
    }
    wmx_strbuf_printf(&b, "end\n");
    return b.s;
}

int exec_save(const char *path, const wmx_exec *x, wmx_error *err)
{
    char *text = exec_format(x);
    int rc = wmx_write_file_atomic(path, text, strlen(text), err);
    free(text);
    return rc;
}

/* ---- reading ---- */

#define MAXTOK 24

typedef struct line_toks {
    int n;
    char *tok[MAXTOK];
    int col[MAXTOK];
} line_toks;

/* Splits buf (modified) into whitespace-separated tokens, stopping at '#'. */
static int tokenize(char *buf, line_toks *lt, const char *file, int line, wmx_error *err)
{
    lt->n = 0;
    char *s = buf;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\r')
            s++;
        if (*s == '\0' || *s == '#')
            return 0;
        if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e) {
            wmx_error_set(err, file, line, (int)(s - buf) + 1, "unexpected byte 0x%02x", (unsigned char)*s);
            return -1;
        }
        if (lt->n == MAXTOK) {
            wmx_error_set(err, file, line, (int)(s - buf) + 1, "too many words on one line");
            return -1;
        }
        lt->tok[lt->n] = s;
        lt->col[lt->n] = (int)(s - buf) + 1;
        lt->n++;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '#') {
            if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e) {
                wmx_error_set(err, file, line, (int)(s - buf) + 1, "unexpected byte 0x%02x", (unsigned char)*s);
                return -1;
            }
            s++;
        }
        if (*s == '#') {
            *s = '\0';
            return 0;
        }
        if (*s)
            *s++ = '\0';
    }
}

/* Iterates over the lines of text; returns false at the end.  Lines longer
 * than the buffer are an error. */
typedef struct line_iter {
    const char *text;
    size_t len, pos;
    int line;
    char buf[1024];
} line_iter;

static int next_line(line_iter *it, const char *file, wmx_error *err)
{
    if (it->pos >= it->len)
        return 0;
    it->line++;
    size_t eol = it->pos;
    while (eol < it->len && it->text[eol] != '\n')
        eol++;
    size_t n = eol - it->pos;
    if (n >= sizeof it->buf) {
        wmx_error_set(err, file, it->line, 1, "line too long");
        return -1;
    }
    memcpy(it->buf, it->text + it->pos, n);
    it->buf[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (it->buf[i] == '\0') {
            wmx_error_set(err, file, it->line, (int)i + 1, "unexpected byte 0x00");
            return -1;
        }
    it->pos = eol + 1;
    return 1;
}

bool exec_text_is_eventset(const char *text, size_t len)
{
    line_iter it = { text, len, 0, 0, "" };
    wmx_error err;
    line_toks lt;
    int r;
    while ((r = next_line(&it, "", &err)) > 0) {
        if (tokenize(it.buf, &lt, "", it.line, &err) < 0)
            return false;
        if (lt.n >= 1 && strcmp(lt.tok[0], "events") == 0)
            return true;
        if (lt.n >= 1 && (strcmp(lt.tok[0], "step") == 0 || strcmp(lt.tok[0], "flush") == 0))
            return false;
    }
    return false;
}

int exec_header(const char *text, size_t len, const char *file, char **program,
                wmx_model *model, wmx_error *err)
{
    line_iter it = { text, len, 0, 0, "" };
    line_toks lt;
    int r;
    bool have_model = false;
    *program = NULL;
    while ((r = next_line(&it, file, err)) > 0) {
        if (tokenize(it.buf, &lt, file, it.line, err) < 0)
            goto fail;
        if (lt.n == 0)
            continue;
        if (strcmp(lt.tok[0], "program") == 0) {
            if (lt.n != 2) {
                wmx_error_set(err, file, it.line, lt.col[0], "expected 'program FILE'");
                goto fail;
            }
            free(*program);
            *program = wmx_strdup(lt.tok[1]);
        } else if (strcmp(lt.tok[0], "model") == 0) {
            if (lt.n != 2 || model_parse(lt.tok[1], model) < 0) {
                wmx_error_set(err, file, it.line, lt.n >= 2 ? lt.col[1] : lt.col[0],
                              "expected 'model sc|tso|pso'");
                goto fail;
            }
            have_model = true;
        }
        if (*program && have_model)
            return 0;
    }
    if (r < 0)
        goto fail;
    wmx_error_set(err, file, it.line ? it.line : 1, 1, !*program ? "missing 'program FILE' line"
                                                                 : "missing 'model sc|tso|pso' line");
fail:
    free(*program);
    *program = NULL;
    return -1;
}

static int find_thread(const wmx_program *p, const char *name)
{
    for (int t = 0; t < p->nthreads; t++)
        if (strcmp(p->threads[t].name, name) == 0)
            return t;
    /* also accept the thread number */
    char *end;
    errno = 0;
    long v = strtol(name, &end, 10);
    if (!errno && *name && *end == '\0' && v >= 0 && v < p->nthreads)
        return (int)v;
    return -1;
}

static int find_cell(const wmx_program *p, const char *name)
{
    char buf[160];
    for (int c = 0; c < p->ncells; c++)
        if (strcmp(ir_cell_name(p, c, buf, sizeof buf), name) == 0)
            return c;
    return -1;
}

static int parse_val(const char *s, wmx_val *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 0);
    if (errno || *s == '\0' || *end != '\0')
        return -1;
    *out = (wmx_val)v;
    return 0;
}

static int parse_int(const char *s, int *out)
{
    wmx_val v;
    if (parse_val(s, &v) < 0 || v < 0 || v > 1000000000)
        return -1;
    *out = (int)v;
    return 0;
}

/* "P0.3" or "init" into an event id; -2 on syntax error. */
static wmx_eid parse_ref(const wmx_program *p, const char *s)
{
    if (strcmp(s, "init") == 0)
        return EID_INIT;
    const char *dot = strrchr(s, '.');
    if (!dot || dot == s)
        return -2;
    char name[128];
    size_t n = (size_t)(dot - s);
    if (n >= sizeof name)
        return -2;
    memcpy(name, s, n);
    name[n] = '\0';
    int t = find_thread(p, name);
    int idx;
    if (t < 0 || parse_int(dot + 1, &idx) < 0 || idx > 0x7fffff)
        return -2;
    return EID_MAKE(t, idx);
}

wmx_exec *exec_parse(const char *text, size_t len, const char *file,
                     const wmx_program *p, wmx_error *err)
{
    wmx_exec *x = exec_new(p, MODEL_TSO);
    line_iter it = { text, len, 0, 0, "" };
    line_toks lt;
    int r;
    bool in_events = false, ended = false, have_prog = false, have_model = false;
    /* observers parsed as (cell, eid, line) until sealing */
    int nobs = 0;
    int *obs_c = NULL, *obs_line = NULL;
    wmx_eid *obs_e = NULL;
    while ((r = next_line(&it, file, err)) > 0) {
        if (tokenize(it.buf, &lt, file, it.line, err) < 0)
            goto fail;
        if (lt.n == 0)
            continue;
        const char *w = lt.tok[0];
        if (ended) {
            wmx_error_set(err, file, it.line, lt.col[0], "text after 'end'");
            goto fail;
        }
        if (strcmp(w, "program") == 0 && lt.n == 2 && !in_events) {
            free(x->program_path);
            x->program_path = wmx_strdup(lt.tok[1]);
            have_prog = true;
        } else if (strcmp(w, "model") == 0 && lt.n == 2 && !in_events) {
            if (model_parse(lt.tok[1], &x->model) < 0) {
                wmx_error_set(err, file, it.line, lt.col[1], "unknown model '%s' (sc, tso or pso)", lt.tok[1]);
                goto fail;
            }
            have_model = true;
        } else if (strcmp(w, "events") == 0 && lt.n == 1 && !in_events) {
            in_events = true;
        } else if (strcmp(w, "end") == 0 && lt.n == 1 && in_events) {
            ended = true;
        } else if (strcmp(w, "final") == 0 && in_events) {
            if (lt.n != 3) {
                wmx_error_set(err, file, it.line, lt.col[0], "expected 'final VAR WRITE' (WRITE is THREAD.N or init)");
                goto fail;
            }
            int c = find_cell(p, lt.tok[1]);
            if (c < 0) {
                wmx_error_set(err, file, it.line, lt.col[1], "no variable '%s' in %s", lt.tok[1], p->file);
                goto fail;
            }
            wmx_eid e = parse_ref(p, lt.tok[2]);
            if (e == -2) {
                wmx_error_set(err, file, it.line, lt.col[2], "expected an event THREAD.N or 'init', got '%s'", lt.tok[2]);
                goto fail;
            }
            obs_c = wmx_realloc(obs_c, (size_t)(nobs + 1) * sizeof *obs_c);
            obs_e = wmx_realloc(obs_e, (size_t)(nobs + 1) * sizeof *obs_e);
            obs_line = wmx_realloc(obs_line, (size_t)(nobs + 1) * sizeof *obs_line);
            obs_c[nobs] = c;
            obs_e[nobs] = e;
            obs_line[nobs] = it.line;
            nobs++;
        } else if (in_events) {
            /* THREAD KIND [VAR VALUE] [read V] [nowrite] [rf SRC] [unflushed] [mo N] [@I] */
            xevent e = { .instr = -1, .cell = -1, .rf = EID_INIT, .mem_order = -1, .line = it.line, .wrote = true };
            e.thread = find_thread(p, w);
            if (e.thread < 0) {
                wmx_error_set(err, file, it.line, lt.col[0], "no thread named '%s' in %s", w, p->file);
                goto fail;
            }
            if (lt.n < 2) {
                wmx_error_set(err, file, it.line, lt.col[0], "expected 'THREAD KIND ...' (KIND is r, w, fnc, rmw or await)");
                goto fail;
            }
            const char *k = lt.tok[1];
            if (strcmp(k, "r") == 0) e.kind = X_READ;
            else if (strcmp(k, "w") == 0 || strcmp(k, "wB") == 0) e.kind = X_WRITE;
            else if (strcmp(k, "fnc") == 0) e.kind = X_FENCE;
            else if (strcmp(k, "rmw") == 0) e.kind = X_RMW;
            else if (strcmp(k, "await") == 0) e.kind = X_AWAIT;
            else {
                wmx_error_set(err, file, it.line, lt.col[1], "unknown event kind '%s' (r, w, fnc, rmw or await)", k);
                goto fail;
            }
            int i = 2;
            if (e.kind != X_FENCE) {
                if (lt.n < 4) {
                    wmx_error_set(err, file, it.line, lt.col[1], "expected '%s %s VAR VALUE'", w, k);
                    goto fail;
                }
                e.cell = find_cell(p, lt.tok[2]);
                if (e.cell < 0) {
                    wmx_error_set(err, file, it.line, lt.col[2], "no variable '%s' in %s", lt.tok[2], p->file);
                    goto fail;
                }
                if (parse_val(lt.tok[3], &e.value) < 0) {
                    wmx_error_set(err, file, it.line, lt.col[3], "expected a number, got '%s'", lt.tok[3]);
                    goto fail;
                }
                i = 4;
            }
            bool have_rf = false, have_read = false;
            e.flushed = e.kind == X_WRITE || e.kind == X_RMW;
            for (; i < lt.n; i++) {
                const char *o = lt.tok[i];
                if (strcmp(o, "rf") == 0 && i + 1 < lt.n && xev_is_read(&e)) {
                    e.rf = parse_ref(p, lt.tok[i + 1]);
                    if (e.rf == -2) {
                        wmx_error_set(err, file, it.line, lt.col[i + 1], "expected an event THREAD.N or 'init', got '%s'", lt.tok[i + 1]);
                        goto fail;
                    }
                    have_rf = true;
                    i++;
                } else if (strcmp(o, "read") == 0 && i + 1 < lt.n && e.kind == X_RMW) {
                    if (parse_val(lt.tok[i + 1], &e.read) < 0) {
                        wmx_error_set(err, file, it.line, lt.col[i + 1], "expected a number, got '%s'", lt.tok[i + 1]);
                        goto fail;
                    }
                    have_read = true;
                    i++;
                } else if (strcmp(o, "nowrite") == 0 && e.kind == X_RMW) {
                    e.wrote = false;
                    e.flushed = false;
                } else if (strcmp(o, "unflushed") == 0 && e.kind == X_WRITE) {
                    e.flushed = false;
                } else if (strcmp(o, "mo") == 0 && i + 1 < lt.n && (e.kind == X_WRITE || e.kind == X_RMW)) {
                    if (parse_int(lt.tok[i + 1], &e.mem_order) < 0) {
                        wmx_error_set(err, file, it.line, lt.col[i + 1], "expected a non-negative number, got '%s'", lt.tok[i + 1]);
                        goto fail;
                    }
                    i++;
                } else if (o[0] == '@') {
                    if (parse_int(o + 1, &e.instr) < 0 || e.instr >= p->threads[e.thread].ninstrs) {
                        wmx_error_set(err, file, it.line, lt.col[i], "bad instruction index '%s' (thread %s has %d)",
                                      o, w, p->threads[e.thread].ninstrs);
                        goto fail;
                    }
                } else {
                    wmx_error_set(err, file, it.line, lt.col[i], "unexpected '%s' in a %s event", o, k);
                    goto fail;
                }
            }
            if (xev_is_read(&e) && !have_rf) {
                wmx_error_set(err, file, it.line, lt.col[0], "a %s event needs 'rf THREAD.N' or 'rf init'", k);
                goto fail;
            }
            if (e.kind == X_RMW && !have_read) {
                wmx_error_set(err, file, it.line, lt.col[0], "an rmw event needs 'read VALUE'");
                goto fail;
            }
            if (e.kind == X_RMW && !e.wrote)
                e.value = e.read;
            if (e.instr >= 0) {
                const ir_instr *in = &p->threads[e.thread].instrs[e.instr];
                bool ok = (e.kind == X_READ && in->kind == I_LOAD) || (e.kind == X_WRITE && in->kind == I_STORE) ||
                          (e.kind == X_FENCE && in->kind == I_FENCE) || (e.kind == X_AWAIT && in->kind == I_AWAIT) ||
                          (e.kind == X_RMW && (in->kind == I_XCHG || in->kind == I_FAA || in->kind == I_CAS));
                if (!ok) {
                    wmx_error_set(err, file, it.line, lt.col[0], "a %s event cannot come from instruction %d of %s (%s)",
                                  k, e.instr, w, in->text ? in->text : "?");
                    goto fail;
                }
            }
            exec_add(x, &e);
        } else {
            wmx_error_set(err, file, it.line, lt.col[0],
                          "expected 'program FILE', 'model M' or 'events' (event lines come after 'events')");
            goto fail;
        }
    }
    if (r < 0)
        goto fail;
    if (!have_prog || !have_model || !ended) {
        wmx_error_set(err, file, it.line ? it.line : 1, 1, "%s",
                      !have_prog ? "missing 'program FILE' line" : !have_model ? "missing 'model sc|tso|pso' line"
                                                                           : "truncated execution: missing 'end'");
        goto fail;
    }
    exec_seal(x);
    /* references must name writes of the same variable */
    for (int i = 0; i < x->nev; i++) {
        xevent *e = &x->ev[i];
        if (!xev_is_read(e) || e->rf == -1)
            continue;
        if (e->rf == -2 || !xev_is_write(&x->ev[e->rf]) || x->ev[e->rf].cell != e->cell) {
            wmx_error_set(err, file, e->line, 1, "%s",
                          e->rf == -2 ? "the rf of this event names no event of the execution"
                                      : "the rf of this event must name a write (w or rmw) of the same variable");
            goto fail;
        }
    }
    for (int o = 0; o < nobs; o++) {
        int wi = obs_e[o] == EID_INIT ? -1 : exec_find(x, EID_THREAD(obs_e[o]), EID_INDEX(obs_e[o]));
        if (obs_e[o] != EID_INIT && (wi < 0 || !xev_is_write(&x->ev[wi]) || x->ev[wi].cell != obs_c[o])) {
            wmx_error_set(err, file, obs_line[o], 1, "the final writer named here is not a write of that variable");
            goto fail;
        }
        exec_set_observer(x, obs_c[o], wi);
    }
    free(obs_c);
    free(obs_e);
    free(obs_line);
    return x;
fail:
    free(obs_c);
    free(obs_e);
    free(obs_line);
    exec_free(x);
    return NULL;
}

/* The line of the trace's `program` header, for errors about it. */
static int program_line(const char *text)
{
    int line = 1;
    for (const char *s = text; *s; line++) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (strncmp(s, "program", 7) == 0 && (s[7] == ' ' || s[7] == '\t'))
            return line;
        s = strchr(s, '\n');
        if (!s)
            break;
        s++;
    }
    return 1;
}

/* A relative program path is looked up beside the trace first (where
 * trace_save puts it), then from the current directory (older traces). */
static wmx_program *load_near(const char *prog_path, const char *trace_path, const char *text, wmx_error *err)
{
    const char *slash = strrchr(trace_path, '/');
    if (slash && prog_path[0] != '/') {
        char *alt = wmx_asprintf("%.*s/%s", (int)(slash - trace_path), trace_path, prog_path);
        wmx_error e2 = { 0 };
        wmx_program *p = NULL;
        if (access(alt, F_OK) == 0) {
            p = wmx_load_program(alt, &e2);
            if (!p) {
                free(alt);
                *err = e2;          /* the file exists but does not parse */
                return NULL;
            }
        }
        free(alt);
        if (p)
            return p;
    }
    if (access(prog_path, F_OK) != 0) {
        if (slash && prog_path[0] != '/')
            wmx_error_set(err, trace_path, program_line(text), 1,
                          "program '%s' not found (looked beside the trace, in %.*s/, and in the current directory)",
                          prog_path, (int)(slash - trace_path), trace_path);
        else
            wmx_error_set(err, trace_path, program_line(text), 1, "program '%s' not found", prog_path);
        return NULL;
    }
    return wmx_load_program(prog_path, err);
}

wmx_exec *exec_load(const char *path, wmx_program **prog_out, wmx_error *err)
{
    *prog_out = NULL;
    size_t len;
    char *text = wmx_read_file(path, &len, err);
    if (!text)
        return NULL;
    char *progpath = NULL;
    wmx_model model = MODEL_TSO;
    wmx_exec *x = NULL;
    if (exec_header(text, len, path, &progpath, &model, err) < 0)
        goto out;
    wmx_program *p = load_near(progpath, path, text, err);
    if (!p)
        goto out;
    if (exec_text_is_eventset(text, len)) {
        x = exec_parse(text, len, path, p, err);
    } else {
        trace_file *tf = trace_parse(text, len, path, err);
        if (tf) {
            wmx_machine *m = machine_new(p, tf->model, err);
            if (m) {
                void *st = wmx_malloc(machine_state_size(m));
                wmx_event *evs = wmx_malloc((size_t)(tf->len + 1) * sizeof *evs);
                if (trace_replay(m, tf, path, st, evs, err) == 0) {
                    x = exec_from_events(p, tf->model, evs, tf->len, err);
                    if (x) {
                        free(x->program_path);
                        x->program_path = wmx_strdup(progpath);
                    }
                }
                free(evs);
                free(st);
                machine_free(m);
            }
            trace_file_free(tf);
        }
    }
    if (x)
        *prog_out = p;
    else
        ir_program_free(p);
out:
    free(progpath);
    free(text);
    return x;
}

bool exec_is_trace_file(const char *path)
{
    wmx_error err;
    size_t len;
    char *text = wmx_read_file(path, &len, &err);
    if (!text)
        return false;
    char *prog = NULL;
    wmx_model m;
    bool yes = exec_header(text, len, path, &prog, &m, &err) == 0;
    free(prog);
    free(text);
    return yes;
}
