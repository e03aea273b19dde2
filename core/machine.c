/* machine.c - the SC, TSO and PSO machines.
 *
 * A state is one flat block laid out by machine_new():
 *   regs   [sum of nregs]            wmx_val
 *   mem    [ncells]                  wmx_val
 *   bufs   [nthreads * 2 * bufcap]   buf_entry, oldest first per thread from
 *                                    its bhead (flushing the oldest is O(1))
 *   tstate [nthreads]                struct tstate
 *   writer [ncells]                  wmx_eid  (last memory-write per cell)
 * so copying a state is one memcpy and states can live on explorer stacks.
 */
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Local instructions run per visible step; beyond this we assume a loop
 * without a bound and stop the thread with an error rather than hang. */
#define MAX_LOCAL_STEPS 100000
/* Store buffers are sized from the program (its stores, loop bounds
 * unrolled); these caps only keep one state (a memcpy on every explorer
 * step) from growing without bound.  Reaching one is a limit of wmx,
 * reported as such (machine_buffer_full), not a fault of the program. */
#define MAX_BUFCAP (1 << 20)
#define MAX_BUF_BYTES ((size_t)64 << 20)   /* all threads' buffers in one state */

struct tstate {
    int32_t pc;
    int32_t status;      /* thread_status */
    int32_t nbuf;
    int32_t nevents;
    int32_t err_instr;
    int32_t buffull;     /* stopped because the store buffer cap was reached */
    int32_t bhead;       /* first live buffer slot: the oldest entry */
};

struct wmx_machine {
    const wmx_program *prog;
    wmx_model model;
    int nthreads, ncells;
    int bufcap;              /* entries per thread buffer */
    int *reg_off;            /* first register of each thread in regs[] */
    int nregs_total;
    size_t off_mem, off_bufs, off_ts, off_writer, size;
    bool locks_fail;         /* machine_set_locks_fail */
};

const char *model_name(wmx_model m)
{
    return m == MODEL_SC ? "sc" : m == MODEL_TSO ? "tso" : "pso";
}

int model_parse(const char *s, wmx_model *m)
{
    if (strcmp(s, "sc") == 0 || strcmp(s, "SC") == 0) *m = MODEL_SC;
    else if (strcmp(s, "tso") == 0 || strcmp(s, "TSO") == 0) *m = MODEL_TSO;
    else if (strcmp(s, "pso") == 0 || strcmp(s, "PSO") == 0) *m = MODEL_PSO;
    else return -1;
    return 0;
}

const char *event_kind_name(event_kind k)
{
    switch (k) {
    case EV_READ: return "r";
    case EV_WRITE: return "w";
    case EV_WRITE_BUF: return "wB";
    case EV_WRITE_MEM: return "wM";
    case EV_FENCE: return "fnc";
    case EV_RMW: return "rmw";
    case EV_AWAIT: return "await";
    }
    return "?";
}

/* ---- layout accessors ---- */

static wmx_val *regs_of(const wmx_machine *m, void *s, int t)
{
    return (wmx_val *)s + m->reg_off[t];
}
static wmx_val *mem_of(const wmx_machine *m, void *s)
{
    return (wmx_val *)((char *)s + m->off_mem);
}
static struct tstate *ts_of(const wmx_machine *m, void *s, int t)
{
    return (struct tstate *)((char *)s + m->off_ts) + t;
}
/* A thread's buffer region has 2 * bufcap slots; the live entries are
 * contiguous from bhead.  Pushing when the region's end is reached moves
 * them back to the start: at most once per bufcap flushes. */
static buf_entry *buf_base(const wmx_machine *m, void *s, int t)
{
    return (buf_entry *)((char *)s + m->off_bufs) + (size_t)t * 2 * (size_t)m->bufcap;
}
static buf_entry *buf_of(const wmx_machine *m, void *s, int t)
{
    return buf_base(m, s, t) + ts_of(m, s, t)->bhead;
}
static wmx_eid *writer_of(const wmx_machine *m, void *s)
{
    return (wmx_eid *)((char *)s + m->off_writer);
}
#define CS(s) ((void *)(uintptr_t)(s))   /* read-only accessors share the layout code */

static size_t align8(size_t n) { return (n + 7) & ~(size_t)7; }

/* where the buffer part of a state key starts (see machine_key) */
static size_t off_key_bufs(const wmx_machine *m)
{
    return align8((size_t)(m->nregs_total + m->ncells) * sizeof(wmx_val) + (size_t)m->nthreads * 12);
}

/* Stores thread th may have buffered at once: each store counted as often
 * as its loops let it run.  .wmx loops say their bounds (loops[]); a C
 * program's loops are back jumps whose times round a register counts up
 * to --unroll (core/cfront.c), found here as the natural loops of the
 * thread's jumps. */
static long saturating_mul(long a, long b)
{
    return a > MAX_BUFCAP / (b > 0 ? b : 1) ? MAX_BUFCAP + 1L : a * b;
}

static int thread_bufcap(const wmx_program *p, const ir_thread *th)
{
    long stores = 0;
    for (int i = 0; i < th->ninstrs; i++)
        if (th->instrs[i].kind == I_STORE)
            stores++;
    long cap = stores;
    if (th->nloops > 0 || p->unroll <= 0 || stores == 0) {
        for (int l = 0; l < th->nloops && cap <= MAX_BUFCAP; l++)
            cap = saturating_mul(cap, (long)(th->loops[l].bound > 0 ? th->loops[l].bound : 1) + 1);
    } else {
        int n = th->ninstrs;
        long *weight = wmx_malloc((size_t)n * sizeof *weight);
        int *npred = wmx_calloc((size_t)n + 1, sizeof *npred), *pred_at = wmx_calloc((size_t)n + 1, sizeof *pred_at);
        int succ[2];
#define SUCCS(i, ns) do { \
            const ir_instr *in_ = &th->instrs[i]; \
            ns = 0; \
            if (in_->kind == I_JUMP && in_->target >= 0 && in_->target < n) \
                succ[ns++] = in_->target; \
            if (in_->kind != I_HALT && !(in_->kind == I_JUMP && in_->e1 < 0) && i + 1 < n) \
                succ[ns++] = i + 1; \
        } while (0)
        for (int i = 0; i < n; i++) {
            int ns;
            weight[i] = 1;
            SUCCS(i, ns);
            for (int k = 0; k < ns; k++)
                npred[succ[k]]++;
        }
        for (int i = 0; i < n; i++)
            pred_at[i + 1] = pred_at[i] + npred[i];
        int *pred = wmx_malloc((size_t)(pred_at[n] ? pred_at[n] : 1) * sizeof *pred);
        memset(npred, 0, (size_t)n * sizeof *npred);
        for (int i = 0; i < n; i++) {
            int ns;
            SUCCS(i, ns);
            for (int k = 0; k < ns; k++)
                pred[pred_at[succ[k]] + npred[succ[k]]++] = i;
        }
        /* back edges by depth-first search; each header's body by walking
         * predecessors back from its latches */
        unsigned char *state = wmx_calloc((size_t)n, 1);
        int *stack = wmx_malloc((size_t)n * sizeof *stack), *next = wmx_calloc((size_t)n, sizeof *next);
        int *stamp = wmx_malloc((size_t)n * sizeof *stamp), *work = wmx_malloc((size_t)n * sizeof *work);
        unsigned char *is_header = wmx_calloc((size_t)n, 1);
        for (int i = 0; i < n; i++)
            stamp[i] = -1;
        struct { int latch, head; } *back = NULL;
        int nback = 0, capback = 0, sp = 0;
        if (n > 0) {
            stack[sp++] = 0;
            state[0] = 1;
        }
        while (sp) {
            int u = stack[sp - 1], ns;
            SUCCS(u, ns);
            if (next[u] < ns) {
                int v = succ[next[u]++];
                if (state[v] == 1) {
                    is_header[v] = 1;
                    if (nback == capback) {
                        capback = capback ? 2 * capback : 16;
                        back = wmx_realloc(back, (size_t)capback * sizeof *back);
                    }
                    back[nback].latch = u;
                    back[nback++].head = v;
                }
                else if (state[v] == 0) {
                    state[v] = 1;
                    stack[sp++] = v;
                }
            } else {
                state[u] = 2;
                sp--;
            }
        }
        for (int h = 0; h < n; h++) {
            if (!is_header[h])
                continue;
            /* the body is what reaches a latch without passing h */
            int wp = 0;
            stamp[h] = h;
            for (int k = 0; k < nback; k++)
                if (back[k].head == h && stamp[back[k].latch] != h) {
                    stamp[back[k].latch] = h;
                    work[wp++] = back[k].latch;
                }
            while (wp) {
                int x = work[--wp];
                for (int k = pred_at[x]; k < pred_at[x + 1]; k++)
                    if (stamp[pred[k]] != h) {
                        stamp[pred[k]] = h;
                        work[wp++] = pred[k];
                    }
            }
            for (int i = 0; i < n; i++)
                if (stamp[i] == h)
                    weight[i] = saturating_mul(weight[i], (long)p->unroll + 1);
        }
#undef SUCCS
        cap = 0;
        for (int i = 0; i < n && cap <= MAX_BUFCAP; i++)
            if (th->instrs[i].kind == I_STORE)
                cap += weight[i];
        free(weight);
        free(npred);
        free(pred_at);
        free(pred);
        free(state);
        free(stack);
        free(next);
        free(stamp);
        free(work);
        free(is_header);
        free(back);
    }
    if (cap > MAX_BUFCAP)
        cap = MAX_BUFCAP;
    return cap < 1 ? 1 : (int)cap;
}

wmx_machine *machine_new(const wmx_program *prog, wmx_model model, wmx_error *err)
{
    if (prog->pgas_ranks > 0) {     /* PGAS programs run on core/pgas_machine.h */
        wmx_error_set(err, prog->file, 0, 0, "'%s' is a PGAS program: this command does not "
                      "take one (explore, robust and the interactive explorer do)", prog->name);
        return NULL;
    }
    if (prog->nthreads > WMX_MAX_THREADS) {
        wmx_error_set(err, prog->file, 0, 0, "too many threads (%d; at most %d)",
                      prog->nthreads, WMX_MAX_THREADS);
        return NULL;
    }
    wmx_machine *m = wmx_calloc(1, sizeof *m);
    m->prog = prog;
    m->model = model;
    m->nthreads = prog->nthreads;
    m->ncells = prog->ncells;
    m->reg_off = wmx_calloc((size_t)prog->nthreads + 1, sizeof *m->reg_off);
    m->bufcap = 1;
    for (int t = 0; t < prog->nthreads; t++) {
        m->reg_off[t] = m->nregs_total;
        m->nregs_total += prog->threads[t].nregs;
        if (model != MODEL_SC) {
            int c = thread_bufcap(prog, &prog->threads[t]);
            if (c > m->bufcap)
                m->bufcap = c;
        }
    }
    if (model == MODEL_SC)
        m->bufcap = 0;
    else if (m->nthreads > 0 &&
             2 * (size_t)m->bufcap * (size_t)m->nthreads * sizeof(buf_entry) > MAX_BUF_BYTES)
        m->bufcap = (int)(MAX_BUF_BYTES / (2 * (size_t)m->nthreads * sizeof(buf_entry)));
    size_t off = align8((size_t)m->nregs_total * sizeof(wmx_val));
    m->off_mem = off;
    off += align8((size_t)m->ncells * sizeof(wmx_val));
    m->off_bufs = off;
    off += align8((size_t)m->nthreads * 2 * (size_t)m->bufcap * sizeof(buf_entry));
    m->off_ts = off;
    off += align8((size_t)m->nthreads * sizeof(struct tstate));
    m->off_writer = off;
    off += align8((size_t)m->ncells * sizeof(wmx_eid));
    m->size = off ? off : 8;
    return m;
}

void machine_set_locks_fail(wmx_machine *m)
{
    m->locks_fail = true;
}

void machine_free(wmx_machine *m)
{
    if (!m)
        return;
    free(m->reg_off);
    free(m);
}

/* dst's state with src's threads (registers, program counters, status,
 * event counts), src's memory and empty buffers.  Both machines run the
 * same program; src is usually the SC machine. */
void machine_transplant(const wmx_machine *dst, void *ds, const wmx_machine *src, const void *ss)
{
    memset(ds, 0, dst->size);
    memcpy(ds, ss, (size_t)src->nregs_total * sizeof(wmx_val));
    memcpy(mem_of(dst, ds), mem_of(src, CS(ss)), (size_t)src->ncells * sizeof(wmx_val));
    memcpy(writer_of(dst, ds), writer_of(src, CS(ss)), (size_t)src->ncells * sizeof(wmx_eid));
    for (int t = 0; t < src->nthreads; t++) {
        struct tstate *d = ts_of(dst, ds, t);
        *d = *ts_of(src, CS(ss), t);
        d->nbuf = 0;
        d->bhead = 0;
    }
}

const wmx_program *machine_program(const wmx_machine *m) { return m->prog; }
wmx_model machine_model(const wmx_machine *m) { return m->model; }
size_t machine_state_size(const wmx_machine *m) { return m->size; }
int machine_max_enabled(const wmx_machine *m) { return m->nthreads * (1 + (m->ncells > 0 ? m->ncells : 1)); }

/* Newest own buffer entry for the cell, else memory. */
static wmx_val visible(const wmx_machine *m, void *s, int t, int cell, wmx_eid *writer, bool *from_buf)
{
    struct tstate *ts = ts_of(m, s, t);
    buf_entry *b = buf_of(m, s, t);
    for (int i = ts->nbuf - 1; i >= 0; i--)
        if (b[i].cell == cell) {
            if (writer) *writer = b[i].id;
            if (from_buf) *from_buf = true;
            return b[i].value;
        }
    if (writer) *writer = writer_of(m, s)[cell];
    if (from_buf) *from_buf = false;
    return mem_of(m, s)[cell];
}

wmx_val machine_visible_value(const wmx_machine *m, const void *state, int thread, int cell, wmx_eid *writer)
{
    return visible(m, CS(state), thread, cell, writer, NULL);
}

static void stop_thread(struct tstate *ts, thread_status st, int instr)
{
    ts->status = st;
    ts->err_instr = instr;
}

/* The common cases without a call into ir.c: an access to a scalar
 * variable, a constant or a register operand (a store's value, an await's
 * operand).  Every step of every explorer goes through these. */
static inline int addr_cell(const wmx_program *p, const ir_addr *a, const wmx_val *regs)
{
    if (a->ptr < 0 && a->index < 0 && a->var >= 0 && a->var < p->nvars && p->vars[a->var].length > 0)
        return p->vars[a->var].base;
    return ir_address_cell(p, a, regs);
}

static inline wmx_val eval(const wmx_program *p, int e, const wmx_val *regs)
{
    if (e >= 0) {
        const ir_expr *x = &p->exprs[e];
        if (x->op == OP_CONST)
            return x->value;
        if (x->op == OP_REG)
            return regs[x->reg];
    }
    return ir_eval(p, e, regs, NULL);
}

/* Runs thread t's local instructions until its next visible instruction,
 * the end, an assume that fails or an assertion that fails. */
static void run_locals(const wmx_machine *m, void *s, int t)
{
    const ir_thread *th = &m->prog->threads[t];
    struct tstate *ts = ts_of(m, s, t);
    wmx_val *regs = regs_of(m, s, t);
    for (long steps = 0; ts->status == TS_RUNNING; steps++) {
        if (ts->pc < 0 || ts->pc >= th->ninstrs) {
            ts->status = TS_DONE;
            return;
        }
        if (steps > MAX_LOCAL_STEPS) {
            stop_thread(ts, TS_ERROR, ts->pc);
            return;
        }
        const ir_instr *in = &th->instrs[ts->pc];
        switch (in->kind) {
        case I_NOP:
            ts->pc++;
            break;
        case I_LET: {
            wmx_val v = eval(m->prog, in->e1, regs);
            if (in->dst >= 0)
                regs[in->dst] = v;
            ts->pc++;
            break;
        }
        case I_JUMP:
            if (in->e1 < 0 || eval(m->prog, in->e1, regs) != 0)
                ts->pc = in->target;
            else
                ts->pc++;
            break;
        case I_ASSUME:
            if (eval(m->prog, in->e1, regs) == 0) {
                stop_thread(ts, TS_BLOCKED, ts->pc);
                return;
            }
            ts->pc++;
            break;
        case I_ASSERT:
            if (eval(m->prog, in->e1, regs) == 0) {
                stop_thread(ts, TS_ERROR, ts->pc);
                return;
            }
            ts->pc++;
            break;
        case I_HALT:
            ts->status = TS_DONE;
            return;
        default:
            /* visible: a bad address is a fault of this thread */
            if (in->kind != I_FENCE && addr_cell(m->prog, &in->addr, regs) < 0)
                stop_thread(ts, TS_ERROR, ts->pc);
            return;
        }
    }
}

void machine_init(const wmx_machine *m, void *state)
{
    memset(state, 0, m->size);
    const wmx_program *p = m->prog;
    for (int t = 0; t < m->nthreads; t++) {
        const ir_thread *th = &p->threads[t];
        wmx_val *regs = regs_of(m, state, t);
        for (int r = 0; r < th->nregs; r++)
            regs[r] = th->reg_init ? th->reg_init[r] : 0;
        struct tstate *ts = ts_of(m, state, t);
        ts->status = TS_RUNNING;
        ts->err_instr = -1;
    }
    wmx_val *mem = mem_of(m, state);
    wmx_eid *w = writer_of(m, state);
    for (int c = 0; c < m->ncells; c++) {
        mem[c] = p->cell_init[c];
        w[c] = EID_INIT;
    }
    for (int t = 0; t < m->nthreads; t++)
        run_locals(m, state, t);
}

static bool step_enabled(const wmx_machine *m, void *s, int t)
{
    struct tstate *ts = ts_of(m, s, t);
    if (ts->status != TS_RUNNING)
        return false;
    const ir_instr *in = &m->prog->threads[t].instrs[ts->pc];
    bool relaxed = m->model != MODEL_SC;
    switch (in->kind) {
    case I_LOAD:
        return true;
    case I_STORE:
        return true;        /* a full buffer is reported by do_step */
    case I_FENCE: case I_XCHG: case I_FAA:
        return !relaxed || ts->nbuf == 0;
    case I_CAS: {
        if (relaxed && ts->nbuf != 0)
            return false;
        if (!in->blocking || m->locks_fail)
            return true;
        /* a lock: only when it would succeed (the buffer is empty); its
         * comparison is == but for an exchange-await (ir.h) */
        wmx_val *regs = regs_of(m, s, t);
        int cell = addr_cell(m->prog, &in->addr, regs);
        return cell < 0 || ir_cmp_holds(in->cmp, mem_of(m, s)[cell], eval(m->prog, in->e1, regs));
    }
    case I_AWAIT: {
        wmx_val *regs = regs_of(m, s, t);
        int cell = addr_cell(m->prog, &in->addr, regs);
        wmx_val v = visible(m, s, t, cell, NULL, NULL);
        return ir_cmp_holds(in->cmp, v, eval(m->prog, in->e1, regs));
    }
    default:
        return false;
    }
}

/* Whether buffer entry i is the oldest of its cell (flushable under PSO). */
static bool oldest_of_cell(const buf_entry *b, int i)
{
    for (int j = 0; j < i; j++)
        if (b[j].cell == b[i].cell)
            return false;
    return true;
}

int machine_enabled(const wmx_machine *m, const void *state, wmx_transition *out)
{
    void *s = CS(state);
    int n = 0;
    for (int t = 0; t < m->nthreads; t++) {
        if (step_enabled(m, s, t))
            out[n++] = (wmx_transition){ TR_STEP, t, -1 };
        struct tstate *ts = ts_of(m, s, t);
        if (ts->nbuf == 0)
            continue;
        buf_entry *b = buf_of(m, s, t);
        if (m->model == MODEL_TSO) {
            out[n++] = (wmx_transition){ TR_FLUSH, t, -1 };
        } else {
            for (int i = 0; i < ts->nbuf; i++)
                if (oldest_of_cell(b, i))
                    out[n++] = (wmx_transition){ TR_FLUSH, t, b[i].cell };
        }
    }
    return n;
}

bool machine_first_enabled(const wmx_machine *m, const void *state,
                           const unsigned char *skip_step, wmx_transition *out)
{
    return machine_first_enabled_in(m, state, skip_step, NULL, out);
}

bool machine_first_enabled_in(const wmx_machine *m, const void *state, const unsigned char *skip_step,
                              const int *order, wmx_transition *out)
{
    void *s = CS(state);
    for (int k = 0; k < m->nthreads; k++) {
        int t = order ? order[k] : k;
        if (!(skip_step && skip_step[t]) && step_enabled(m, s, t)) {
            *out = (wmx_transition){ TR_STEP, t, -1 };
            return true;
        }
        struct tstate *ts = ts_of(m, s, t);
        if (ts->nbuf == 0)
            continue;
        if (m->model == MODEL_TSO) {
            *out = (wmx_transition){ TR_FLUSH, t, -1 };
            return true;
        }
        buf_entry *b = buf_of(m, s, t);
        for (int i = 0; i < ts->nbuf; i++)
            if (oldest_of_cell(b, i)) {
                *out = (wmx_transition){ TR_FLUSH, t, b[i].cell };
                return true;
            }
    }
    return false;
}

bool machine_is_enabled(const wmx_machine *m, const void *state, const wmx_transition *tr)
{
    void *s = CS(state);
    if (tr->thread < 0 || tr->thread >= m->nthreads)
        return false;
    if (tr->kind == TR_STEP)
        return step_enabled(m, s, tr->thread);
    struct tstate *ts = ts_of(m, s, tr->thread);
    if (ts->nbuf == 0)
        return false;
    if (m->model == MODEL_TSO)
        return true;
    const buf_entry *b = buf_of(m, s, tr->thread);
    for (int i = 0; i < ts->nbuf; i++)
        if (b[i].cell == tr->cell)
            return true;
    return false;
}

static void do_flush(const wmx_machine *m, void *s, const wmx_transition *tr, wmx_event *ev)
{
    int t = tr->thread;
    struct tstate *ts = ts_of(m, s, t);
    buf_entry *b = buf_of(m, s, t);
    int i = 0;
    if (m->model == MODEL_PSO)
        while (i < ts->nbuf && b[i].cell != tr->cell)
            i++;
    buf_entry e = b[i];
    /* close the gap from the old side (under TSO i == 0: nothing moves) */
    memmove(&b[1], &b[0], (size_t)i * sizeof *b);
    /* keep unused slots zero so equal states have equal bytes */
    memset(&b[0], 0, sizeof *b);
    ts->nbuf--;
    ts->bhead = ts->nbuf ? ts->bhead + 1 : 0;
    mem_of(m, s)[e.cell] = e.value;
    writer_of(m, s)[e.cell] = e.id;
    if (ev)
        *ev = (wmx_event){ .kind = EV_WRITE_MEM, .thread = t, .id = e.id, .instr = -1,
                           .cell = e.cell, .value = e.value, .rf = EID_INIT };
}

static void do_step(const wmx_machine *m, void *s, int t, wmx_event *evout)
{
    const wmx_program *p = m->prog;
    struct tstate *ts = ts_of(m, s, t);
    wmx_val *regs = regs_of(m, s, t);
    wmx_val *mem = mem_of(m, s);
    wmx_eid *writer = writer_of(m, s);
    const ir_instr *in = &p->threads[t].instrs[ts->pc];
    wmx_event ev = { .thread = t, .id = EID_MAKE(t, ts->nevents), .instr = ts->pc,
                     .cell = -1, .rf = EID_INIT };
    int cell = in->kind == I_FENCE ? -1 : addr_cell(p, &in->addr, regs);
    ev.cell = cell;
    switch (in->kind) {
    case I_LOAD:
    case I_AWAIT: {
        wmx_val v = visible(m, s, t, cell, &ev.rf, &ev.from_buffer);
        ev.kind = in->kind == I_LOAD ? EV_READ : EV_AWAIT;
        ev.value = v;
        if (in->dst >= 0)
            regs[in->dst] = v;
        break;
    }
    case I_STORE: {
        wmx_val v = eval(p, in->e1, regs);
        ev.value = v;
        if (m->model == MODEL_SC) {
            ev.kind = EV_WRITE;
            mem[cell] = v;
            writer[cell] = ev.id;
        } else if (ts->nbuf == m->bufcap) {
            /* the buffer was sized from the program's loop bounds; more
             * stores than that means a loop without a recorded bound:
             * stop the thread visibly instead of changing the semantics */
            stop_thread(ts, TS_ERROR, ts->pc);
            ts->buffull = 1;
            ev.kind = EV_WRITE_BUF;
            if (evout)
                *evout = ev;
            return;
        } else {
            ev.kind = EV_WRITE_BUF;
            if (ts->bhead + ts->nbuf == 2 * m->bufcap) {
                buf_entry *base = buf_base(m, s, t);
                memmove(base, base + ts->bhead, (size_t)ts->nbuf * sizeof *base);
                memset(base + ts->nbuf, 0, (size_t)ts->bhead * sizeof *base);
                ts->bhead = 0;
            }
            buf_entry *b = buf_of(m, s, t);
            b[ts->nbuf++] = (buf_entry){ cell, v, ev.id };
        }
        break;
    }
    case I_FENCE:
        ev.kind = EV_FENCE;
        break;
    case I_XCHG: case I_FAA: case I_CAS: {
        /* buffers are empty here under TSO/PSO, so memory is what we see */
        wmx_val old = mem[cell];
        wmx_val a = eval(p, in->e1, regs);
        wmx_val b = eval(p, in->e2, regs);
        ev.kind = EV_RMW;
        ev.read = old;
        ev.rf = writer[cell];
        ev.wrote = true;
        bool success = true;
        wmx_val nv = old;
        if (in->kind == I_XCHG)
            nv = a;
        else if (in->kind == I_FAA)
            nv = (wmx_val)((uint64_t)old + (uint64_t)a);
        else if (in->blocking ? ir_cmp_holds(in->cmp, old, a) : old == a)
            nv = b;
        else {
            success = false;
            ev.wrote = in->writes_back;     /* writing back: nv = old */
        }
        if (ev.wrote) {
            mem[cell] = nv;
            writer[cell] = ev.id;
        }
        ev.value = ev.wrote ? nv : old;
        if (in->dst >= 0)
            regs[in->dst] = old;
        if (in->kind == I_CAS && in->dst2 >= 0)
            regs[in->dst2] = success;
        if (in->kind == I_CAS && in->blocking && !ev.wrote) {
            /* machine_set_locks_fail: a lock of a held mutex */
            ts->nevents++;
            stop_thread(ts, TS_BLOCKED, ts->pc);
            if (evout)
                *evout = ev;
            return;
        }
        break;
    }
    default:
        break;
    }
    ts->nevents++;
    ts->pc++;
    run_locals(m, s, t);
    if (evout)
        *evout = ev;
}

void machine_apply(const wmx_machine *m, void *state, const wmx_transition *tr, wmx_event *ev)
{
    if (tr->kind == TR_FLUSH)
        do_flush(m, state, tr, ev);
    else
        do_step(m, state, tr->thread, ev);
}

void machine_peek(const wmx_machine *m, const void *state, const wmx_transition *tr, wmx_event *ev)
{
    void *tmp = wmx_malloc(m->size);
    memcpy(tmp, state, m->size);
    machine_apply(m, tmp, tr, ev);
    free(tmp);
}

bool machine_is_final(const wmx_machine *m, const void *state)
{
    void *s = CS(state);
    for (int t = 0; t < m->nthreads; t++)
        if (step_enabled(m, s, t) || ts_of(m, s, t)->nbuf > 0)
            return false;
    return true;
}

static bool cond_settled(const wmx_machine *m, const void *state, int c)
{
    const wmx_program *p = machine_program(m);
    if (c < 0)
        return true;
    const ir_cond *x = &p->conds[c];
    switch (x->kind) {
    case C_EQ:
        return x->lhs.thread >= 0 && machine_status(m, state, x->lhs.thread) == TS_DONE;
    case C_NOT:
        return cond_settled(m, state, x->a);
    case C_AND: case C_OR: case C_IMPLIES:
        return cond_settled(m, state, x->a) && cond_settled(m, state, x->b);
    default:
        return true;
    }
}

bool machine_cond_settled(const wmx_machine *m, const void *state)
{
    const wmx_program *p = machine_program(m);
    if (p->quant == Q_NONE)
        return false;
    return machine_is_final(m, state) || cond_settled(m, state, p->cond_root);
}

bool machine_is_blocked(const wmx_machine *m, const void *state)
{
    void *s = CS(state);
    for (int t = 0; t < m->nthreads; t++) {
        int st = ts_of(m, s, t)->status;
        if (st == TS_RUNNING && ir_is_creation_gate(m->prog, t, ts_of(m, s, t)->pc))
            continue;           /* never created (a run-time thread count) */
        if (st == TS_BLOCKED || st == TS_RUNNING)
            return true;
    }
    return false;
}

bool machine_has_error(const wmx_machine *m, const void *state)
{
    void *s = CS(state);
    for (int t = 0; t < m->nthreads; t++)
        if (ts_of(m, s, t)->status == TS_ERROR)
            return true;
    return false;
}

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *d = data;
    for (size_t i = 0; i < n; i++) {
        h ^= d[i];
        h *= 1099511628211ULL;
    }
    return h;
}

uint64_t machine_hash(const wmx_machine *m, const void *state)
{
    void *s = CS(state);
    uint64_t h = 14695981039346656037ULL;
    h = fnv(h, s, (size_t)m->nregs_total * sizeof(wmx_val));
    h = fnv(h, mem_of(m, s), (size_t)m->ncells * sizeof(wmx_val));
    for (int t = 0; t < m->nthreads; t++) {
        struct tstate *ts = ts_of(m, s, t);
        h = fnv(h, &ts->pc, sizeof ts->pc);
        h = fnv(h, &ts->status, sizeof ts->status);
        h = fnv(h, &ts->nbuf, sizeof ts->nbuf);
        buf_entry *b = buf_of(m, s, t);
        for (int i = 0; i < ts->nbuf; i++) {
            h = fnv(h, &b[i].cell, sizeof b[i].cell);
            h = fnv(h, &b[i].value, sizeof b[i].value);
        }
    }
    return h;
}

size_t machine_key_size(const wmx_machine *m)
{
    return off_key_bufs(m) + (size_t)m->nthreads * (size_t)m->bufcap * 2 * sizeof(wmx_val);
}

void machine_key(const wmx_machine *m, const void *state, void *key)
{
    void *s = CS(state);
    char *k = key;
    memset(k, 0, machine_key_size(m));
    memcpy(k, s, (size_t)m->nregs_total * sizeof(wmx_val));
    k += (size_t)m->nregs_total * sizeof(wmx_val);
    memcpy(k, mem_of(m, s), (size_t)m->ncells * sizeof(wmx_val));
    k += (size_t)m->ncells * sizeof(wmx_val);
    for (int t = 0; t < m->nthreads; t++) {
        struct tstate *ts = ts_of(m, s, t);
        int32_t head[3] = { ts->pc, ts->status, ts->nbuf };
        memcpy(k, head, sizeof head);
        k += sizeof head;
    }
    wmx_val *kb = (wmx_val *)((char *)key + off_key_bufs(m));
    for (int t = 0; t < m->nthreads; t++) {
        struct tstate *ts = ts_of(m, s, t);
        buf_entry *b = buf_of(m, s, t);
        wmx_val *dst = kb + (size_t)t * (size_t)m->bufcap * 2;
        for (int i = 0; i < ts->nbuf; i++) {
            dst[2 * i] = b[i].cell;
            dst[2 * i + 1] = b[i].value;
        }
    }
}

static size_t thread_regs_bytes(const wmx_machine *m, int t)
{
    return (size_t)m->prog->threads[t].nregs * sizeof(wmx_val);
}

size_t machine_thread_size(const wmx_machine *m, int t)
{
    return thread_regs_bytes(m, t) + sizeof(struct tstate);
}

void machine_thread_save(const wmx_machine *m, const void *state, int t, void *out)
{
    size_t nr = thread_regs_bytes(m, t);
    memcpy(out, regs_of(m, CS(state), t), nr);
    memcpy((char *)out + nr, ts_of(m, CS(state), t), sizeof(struct tstate));
}

void machine_thread_load(const wmx_machine *m, void *state, int t, const void *in)
{
    size_t nr = thread_regs_bytes(m, t);
    memcpy(regs_of(m, state, t), in, nr);
    memcpy(ts_of(m, state, t), (const char *)in + nr, sizeof(struct tstate));
}

const wmx_val *machine_memory(const wmx_machine *m, const void *state) { return mem_of(m, CS(state)); }
const wmx_eid *machine_memory_writer(const wmx_machine *m, const void *state) { return writer_of(m, CS(state)); }
const wmx_val *machine_regs(const wmx_machine *m, const void *state, int t) { return regs_of(m, CS(state), t); }
int machine_pc(const wmx_machine *m, const void *state, int t) { return ts_of(m, CS(state), t)->pc; }
thread_status machine_status(const wmx_machine *m, const void *state, int t) { return (thread_status)ts_of(m, CS(state), t)->status; }
int machine_error_instr(const wmx_machine *m, const void *state, int t)
{
    struct tstate *ts = ts_of(m, CS(state), t);
    return ts->status == TS_ERROR ? ts->err_instr : -1;
}
bool machine_buffer_full(const wmx_machine *m, const void *state, int t)
{
    struct tstate *ts = ts_of(m, CS(state), t);
    return ts->status == TS_ERROR && ts->buffull;
}
int machine_buffer_cap(const wmx_machine *m) { return m->bufcap; }
int machine_thread_events(const wmx_machine *m, const void *state, int t) { return ts_of(m, CS(state), t)->nevents; }

int machine_buffer(const wmx_machine *m, const void *state, int t, const buf_entry **entries)
{
    *entries = buf_of(m, CS(state), t);
    return ts_of(m, CS(state), t)->nbuf;
}

void machine_describe(const wmx_machine *m, const wmx_event *ev, char *buf, size_t n)
{
    const wmx_program *p = m->prog;
    const ir_thread *th = &p->threads[ev->thread];
    char cell[128] = "", v[40], r[40];
    if (ev->cell >= 0)
        ir_cell_name(p, ev->cell, cell, sizeof cell);
    ir_value_text(p, ev->cell, ev->value, v, sizeof v);
    ir_value_text(p, ev->cell, ev->read, r, sizeof r);
    const char *text = ev->instr >= 0 && th->instrs[ev->instr].text ? th->instrs[ev->instr].text : "";
    switch (ev->kind) {
    case EV_WRITE_MEM:
        snprintf(buf, n, "%s: flush %s=%s", th->name, cell, v);
        break;
    case EV_READ: case EV_AWAIT:
        snprintf(buf, n, "%s: %-24s %s %s=%s%s", th->name, text, event_kind_name(ev->kind),
                 cell, v, ev->from_buffer ? " (from own buffer)" : "");
        break;
    case EV_FENCE:
        snprintf(buf, n, "%s: %-24s fnc", th->name, text);
        break;
    case EV_RMW:
        snprintf(buf, n, "%s: %-24s rmw %s: read %s, %s", th->name, text, cell,
                 r, ev->wrote ? "wrote" : "no write");
        if (ev->wrote) {
            size_t len = strlen(buf);
            snprintf(buf + len, n > len ? n - len : 0, " %s", v);
        }
        break;
    default:
        snprintf(buf, n, "%s: %-24s %s %s=%s", th->name, text, event_kind_name(ev->kind),
                 cell, v);
        break;
    }
}
