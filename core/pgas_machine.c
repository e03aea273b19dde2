/* pgas_machine.c - X(P,N) of seed 001 (see pgas_machine.h).
 *
 * State block layout (offsets computed in pgas_machine_new):
 *   rank headers  nranks x struct rhdr      (pc, status, fault)
 *   registers     nranks x nregs  wmx_val
 *   memory        nranks x ncells wmx_val
 *   counts        nranks x nqueues x 2 uint16  (fa, fb lengths)
 *   entries       nranks x nqueues x 2 x qcap pgas_entry
 * Unused entries are kept zeroed so that equal states are equal blocks.
 */
#include "pgas_machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LOCAL_STEPS 100000
#define DEFAULT_QCAP 16

struct rhdr {
    int32_t pc;
    int8_t status;     /* thread_status */
    int8_t fault;      /* pgas_fault */
    int16_t pad;
};

struct pgas_machine {
    const wmx_program *prog;
    const ir_thread *th;
    int nranks, nqueues, qcap, nregs, ncells;
    size_t off_regs, off_mem, off_cnt, off_ent, size;
};

const char *pgas_ev_name(pgas_ev_kind k)
{
    static const char *const n[] = { "load", "store", "read", "write", "popa", "popb", "bar", "quiet" };
    return (unsigned)k < sizeof n / sizeof n[0] ? n[k] : "?";
}

pgas_machine *pgas_machine_new(const wmx_program *prog, int nranks, int qcap, wmx_error *err)
{
    if (prog->pgas_ranks <= 0 || prog->nthreads != 1) {
        wmx_error_set(err, prog->file, 0, 0, "not a PGAS program (no 'ranks N;' and 'spmd' block)");
        return NULL;
    }
    if (nranks <= 0)
        nranks = prog->pgas_ranks;
    if (nranks > WMX_PGAS_MAX_RANKS) {
        wmx_error_set(err, prog->file, 0, 0, "too many ranks (%d; at most %d)", nranks, WMX_PGAS_MAX_RANKS);
        return NULL;
    }
    pgas_machine *m = wmx_calloc(1, sizeof *m);
    m->prog = prog;
    m->th = &prog->threads[0];
    m->nranks = nranks;
    m->nqueues = prog->pgas_queues > 0 ? prog->pgas_queues : 1;
    m->qcap = qcap > 0 ? qcap : DEFAULT_QCAP;
    if (m->qcap > 30000)
        m->qcap = 30000;
    m->nregs = m->th->nregs;
    m->ncells = prog->ncells;
    size_t o = (size_t)nranks * sizeof(struct rhdr);
    m->off_regs = o;
    o += (size_t)nranks * (size_t)m->nregs * sizeof(wmx_val);
    m->off_mem = o;
    o += (size_t)nranks * (size_t)m->ncells * sizeof(wmx_val);
    m->off_cnt = o;
    o += (size_t)nranks * (size_t)m->nqueues * 2 * sizeof(uint16_t);
    o = (o + 7) & ~(size_t)7;
    m->off_ent = o;
    o += (size_t)nranks * (size_t)m->nqueues * 2 * (size_t)m->qcap * sizeof(pgas_entry);
    m->size = o;
    return m;
}

void pgas_machine_free(pgas_machine *m) { free(m); }
const wmx_program *pgas_program(const pgas_machine *m) { return m->prog; }
int pgas_nranks(const pgas_machine *m) { return m->nranks; }
int pgas_nqueues(const pgas_machine *m) { return m->nqueues; }
size_t pgas_state_size(const pgas_machine *m) { return m->size; }

static struct rhdr *hdr(const pgas_machine *m, void *s, int r) { return (struct rhdr *)s + r; }
static const struct rhdr *chdr(const void *s, int r) { return (const struct rhdr *)s + r; }
static wmx_val *regs_of(const pgas_machine *m, void *s, int r)
{
    return (wmx_val *)((char *)s + m->off_regs) + (size_t)r * m->nregs;
}
static wmx_val *mem_of(const pgas_machine *m, void *s, int r)
{
    return (wmx_val *)((char *)s + m->off_mem) + (size_t)r * m->ncells;
}
static uint16_t *cnt_of(const pgas_machine *m, void *s, int r, int q, int level)
{
    return (uint16_t *)((char *)s + m->off_cnt) + ((size_t)r * m->nqueues + q) * 2 + level;
}
static pgas_entry *ent_of(const pgas_machine *m, void *s, int r, int q, int level)
{
    return (pgas_entry *)((char *)s + m->off_ent) + (((size_t)r * m->nqueues + q) * 2 + level) * m->qcap;
}

const wmx_val *pgas_memory(const pgas_machine *m, const void *s, int r) { return mem_of(m, (void *)s, r); }
const wmx_val *pgas_regs(const pgas_machine *m, const void *s, int r) { return regs_of(m, (void *)s, r); }
int pgas_pc(const pgas_machine *m, const void *s, int r) { return chdr(s, r)->pc; }
thread_status pgas_status(const pgas_machine *m, const void *s, int r) { return (thread_status)chdr(s, r)->status; }
pgas_fault pgas_rank_fault(const pgas_machine *m, const void *s, int r) { return (pgas_fault)chdr(s, r)->fault; }

int pgas_queue(const pgas_machine *m, const void *s, int r, int q, int level, const pgas_entry **e)
{
    *e = ent_of(m, (void *)s, r, q, level);
    return *cnt_of(m, (void *)s, r, q, level);
}

static void stop(struct rhdr *h, thread_status st, pgas_fault f)
{
    h->status = (int8_t)st;
    h->fault = (int8_t)f;
}

/* Evaluates the operands of the visible instruction at pc and checks them;
 * a bad one stops the rank with a fault. */
static bool check_visible(const pgas_machine *m, void *s, int r)
{
    struct rhdr *h = hdr(m, s, r);
    const ir_instr *in = &m->th->instrs[h->pc];
    const wmx_val *regs = regs_of(m, s, r);
    switch (in->kind) {
    case I_LOAD: case I_STORE:
        if (ir_address_cell(m->prog, &in->addr, regs) < 0) {
            stop(h, TS_ERROR, PF_INDEX);
            return false;
        }
        return true;
    case I_PREAD: case I_PWRITE: {
        wmx_val rr = ir_eval(m->prog, in->e1, regs, NULL);
        wmx_val q = ir_eval(m->prog, in->e2, regs, NULL);
        if (rr < 0 || rr >= m->nranks) {
            stop(h, TS_ERROR, PF_RANK);
            return false;
        }
        if (q < 0 || q >= m->nqueues) {
            stop(h, TS_ERROR, PF_QUEUE);
            return false;
        }
        if (ir_address_cell(m->prog, &in->addr, regs) < 0 ||
            ir_address_cell(m->prog, &in->addr2, regs) < 0) {
            stop(h, TS_ERROR, PF_INDEX);
            return false;
        }
        return true;
    }
    case I_BARRIER: case I_QUIET:
        return true;
    default:
        /* fences and RMWs are refused by the parser */
        stop(h, TS_ERROR, PF_LOCAL);
        return false;
    }
}

/* Runs thread-local instructions until a visible one or the end. */
static void run_local(const pgas_machine *m, void *s, int r)
{
    struct rhdr *h = hdr(m, s, r);
    wmx_val *regs = regs_of(m, s, r);
    for (int steps = 0; h->status == TS_RUNNING; steps++) {
        if (h->pc >= m->th->ninstrs) {
            h->status = TS_DONE;
            return;
        }
        if (steps > MAX_LOCAL_STEPS) {
            stop(h, TS_ERROR, PF_LOCAL);
            return;
        }
        const ir_instr *in = &m->th->instrs[h->pc];
        switch (in->kind) {
        case I_NOP:
            h->pc++;
            break;
        case I_LET: {
            wmx_val v = ir_eval(m->prog, in->e1, regs, NULL);
            if (in->dst >= 0)
                regs[in->dst] = v;
            h->pc++;
            break;
        }
        case I_JUMP:
            if (in->e1 < 0 || ir_eval(m->prog, in->e1, regs, NULL) != 0)
                h->pc = in->target;
            else
                h->pc++;
            break;
        case I_ASSUME:
            if (ir_eval(m->prog, in->e1, regs, NULL) == 0) {
                stop(h, TS_BLOCKED, PF_NONE);
                return;
            }
            h->pc++;
            break;
        case I_ASSERT:
            if (ir_eval(m->prog, in->e1, regs, NULL) == 0) {
                stop(h, TS_ERROR, PF_ASSERT);
                return;
            }
            h->pc++;
            break;
        case I_HALT:
            h->status = TS_DONE;
            return;
        default:
            check_visible(m, s, r);
            return;
        }
    }
}

void pgas_init(const pgas_machine *m, void *s)
{
    memset(s, 0, m->size);
    for (int r = 0; r < m->nranks; r++) {
        struct rhdr *h = hdr(m, s, r);
        h->pc = 0;
        h->status = TS_RUNNING;
        wmx_val *regs = regs_of(m, s, r);
        for (int i = 0; i < m->nregs; i++)
            regs[i] = m->th->reg_init[i];
        if (m->prog->pgas_rank_reg >= 0)
            regs[m->prog->pgas_rank_reg] = r;
        if (m->prog->pgas_nranks_reg >= 0)
            regs[m->prog->pgas_nranks_reg] = m->nranks;
        if (m->ncells > 0)      /* a program without variables has no cell_init */
            memcpy(mem_of(m, s, r), m->prog->cell_init, (size_t)m->ncells * sizeof(wmx_val));
    }
    for (int r = 0; r < m->nranks; r++)
        run_local(m, s, r);
}

int pgas_max_enabled(const pgas_machine *m) { return m->nranks * (1 + 2 * m->nqueues) + 1; }

static bool barrier_enabled(const pgas_machine *m, const void *s)
{
    for (int r = 0; r < m->nranks; r++) {
        const struct rhdr *h = chdr(s, r);
        if (h->status != TS_RUNNING || m->th->instrs[h->pc].kind != I_BARRIER)
            return false;
    }
    return true;
}

bool pgas_is_enabled(const pgas_machine *m, const void *s, const pgas_transition *t)
{
    switch (t->kind) {
    case PT_BARRIER:
        return barrier_enabled(m, s);
    case PT_STEP: {
        if (t->rank < 0 || t->rank >= m->nranks)
            return false;
        const struct rhdr *h = chdr(s, t->rank);
        if (h->status != TS_RUNNING)
            return false;
        ir_kind k = m->th->instrs[h->pc].kind;
        return k != I_BARRIER && (k != I_QUIET || pgas_rank_queues_empty(m, s, t->rank));
    }
    case PT_POPA: case PT_POPB:
        if (t->rank < 0 || t->rank >= m->nranks || t->queue < 0 || t->queue >= m->nqueues)
            return false;
        return *cnt_of(m, (void *)s, t->rank, t->queue, t->kind == PT_POPA ? 0 : 1) > 0;
    }
    return false;
}

int pgas_enabled(const pgas_machine *m, const void *s, pgas_transition *out)
{
    int n = 0;
    for (int r = 0; r < m->nranks; r++) {
        pgas_transition t = { PT_STEP, r, -1 };
        if (pgas_is_enabled(m, s, &t))
            out[n++] = t;
        for (int q = 0; q < m->nqueues; q++) {
            if (*cnt_of(m, (void *)s, r, q, 0))
                out[n++] = (pgas_transition){ PT_POPA, r, q };
            if (*cnt_of(m, (void *)s, r, q, 1))
                out[n++] = (pgas_transition){ PT_POPB, r, q };
        }
    }
    if (barrier_enabled(m, s))
        out[n++] = (pgas_transition){ PT_BARRIER, -1, -1 };
    return n;
}

static void fifo_pop(const pgas_machine *m, void *s, int r, int q, int level, pgas_entry *out)
{
    uint16_t *c = cnt_of(m, s, r, q, level);
    pgas_entry *e = ent_of(m, s, r, q, level);
    *out = e[0];
    memmove(e, e + 1, (size_t)(*c - 1) * sizeof *e);
    memset(&e[*c - 1], 0, sizeof *e);
    (*c)--;
}

static void fifo_push(const pgas_machine *m, void *s, int r, int q, int level, const pgas_entry *x)
{
    uint16_t *c = cnt_of(m, s, r, q, level);
    ent_of(m, s, r, q, level)[*c] = *x;
    (*c)++;
}

int pgas_apply(const pgas_machine *m, void *s, const pgas_transition *t, pgas_event *ev)
{
    pgas_event e = { .rank = t->rank, .addr_rank = -1, .cell = -1, .instr = -1, .queue = -1 };
    if (t->kind == PT_BARRIER) {
        for (int r = 0; r < m->nranks; r++) {
            struct rhdr *h = hdr(m, s, r);
            if (ev)
                ev[r] = (pgas_event){ PE_BAR, r, -1, -1, 0, h->pc, -1 };
            h->pc++;
        }
        for (int r = 0; r < m->nranks; r++)
            run_local(m, s, r);
        return m->nranks;
    }
    int r = t->rank;
    if (t->kind == PT_POPA || t->kind == PT_POPB) {
        pgas_entry x;
        fifo_pop(m, s, r, t->queue, t->kind == PT_POPA ? 0 : 1, &x);
        e.queue = t->queue;
        e.instr = x.instr;
        if (t->kind == PT_POPA) {
            e.kind = PE_POPA;
            e.addr_rank = x.src_rank;
            e.cell = x.src_cell;
            x.value = mem_of(m, s, x.src_rank)[x.src_cell];
            e.value = x.value;
            fifo_push(m, s, r, t->queue, 1, &x);
        } else {
            e.kind = PE_POPB;
            e.addr_rank = x.dst_rank;
            e.cell = x.dst_cell;
            e.value = x.value;
            mem_of(m, s, x.dst_rank)[x.dst_cell] = x.value;
        }
        if (ev)
            *ev = e;
        return 1;
    }
    struct rhdr *h = hdr(m, s, r);
    const ir_instr *in = &m->th->instrs[h->pc];
    wmx_val *regs = regs_of(m, s, r);
    wmx_val *mem = mem_of(m, s, r);
    e.instr = h->pc;
    switch (in->kind) {
    case I_LOAD: {
        int c = ir_address_cell(m->prog, &in->addr, regs);
        e.kind = PE_LOAD;
        e.addr_rank = r;
        e.cell = c;
        e.value = mem[c];
        if (in->dst >= 0)
            regs[in->dst] = mem[c];
        break;
    }
    case I_STORE: {
        int c = ir_address_cell(m->prog, &in->addr, regs);
        e.kind = PE_STORE;
        e.addr_rank = r;
        e.cell = c;
        e.value = ir_eval(m->prog, in->e1, regs, NULL);
        mem[c] = e.value;
        break;
    }
    case I_PREAD: case I_PWRITE: {
        int rr = (int)ir_eval(m->prog, in->e1, regs, NULL);
        int q = (int)ir_eval(m->prog, in->e2, regs, NULL);
        int lc = ir_address_cell(m->prog, &in->addr, regs);
        int rc = ir_address_cell(m->prog, &in->addr2, regs);
        e.kind = in->kind == I_PREAD ? PE_READ : PE_WRITE;
        e.queue = q;
        if (*cnt_of(m, s, r, q, 0) + *cnt_of(m, s, r, q, 1) >= m->qcap) {
            stop(h, TS_ERROR, PF_QFULL);
            if (ev)
                *ev = e;
            return 1;
        }
        pgas_entry x;
        memset(&x, 0, sizeof x);
        x.instr = (int16_t)h->pc;
        if (in->kind == I_PREAD) {     /* remote -> my local */
            x.src_rank = (int16_t)rr; x.src_cell = (int16_t)rc;
            x.dst_rank = (int16_t)r;  x.dst_cell = (int16_t)lc;
        } else {                       /* my local -> remote */
            x.src_rank = (int16_t)r;  x.src_cell = (int16_t)lc;
            x.dst_rank = (int16_t)rr; x.dst_cell = (int16_t)rc;
        }
        fifo_push(m, s, r, q, 0, &x);
        break;
    }
    case I_QUIET:       /* enabled only with the rank's queues empty */
        e.kind = PE_QUIET;
        break;
    default:
        break;
    }
    h->pc++;
    run_local(m, s, r);
    if (ev)
        *ev = e;
    return 1;
}

int pgas_peek(const pgas_machine *m, const void *s, const pgas_transition *t, pgas_event *ev)
{
    void *tmp = wmx_malloc(m->size);
    memcpy(tmp, s, m->size);
    int n = pgas_apply(m, tmp, t, ev);
    free(tmp);
    return n;
}

bool pgas_queues_empty(const pgas_machine *m, const void *s)
{
    const uint16_t *c = (const uint16_t *)((const char *)s + m->off_cnt);
    for (int i = 0; i < m->nranks * m->nqueues * 2; i++)
        if (c[i])
            return false;
    return true;
}

bool pgas_rank_queues_empty(const pgas_machine *m, const void *s, int r)
{
    for (int q = 0; q < m->nqueues; q++)
        if (*cnt_of(m, (void *)s, r, q, 0) || *cnt_of(m, (void *)s, r, q, 1))
            return false;
    return true;
}

bool pgas_is_final(const pgas_machine *m, const void *s)
{
    if (!pgas_queues_empty(m, s) || barrier_enabled(m, s))
        return false;
    for (int r = 0; r < m->nranks; r++) {
        const struct rhdr *h = chdr(s, r);
        if (h->status == TS_RUNNING && m->th->instrs[h->pc].kind != I_BARRIER)
            return false;
    }
    return true;
}

bool pgas_is_terminated(const pgas_machine *m, const void *s)
{
    for (int r = 0; r < m->nranks; r++)
        if (chdr(s, r)->status != TS_DONE)
            return false;
    return pgas_queues_empty(m, s);
}

bool pgas_has_assert_failure(const pgas_machine *m, const void *s)
{
    for (int r = 0; r < m->nranks; r++)
        if (chdr(s, r)->fault == PF_ASSERT)
            return true;
    return false;
}

int pgas_fault_rank(const pgas_machine *m, const void *s)
{
    for (int r = 0; r < m->nranks; r++) {
        int f = chdr(s, r)->fault;
        if (f != PF_NONE && f != PF_ASSERT)
            return r;
    }
    return -1;
}

void pgas_fault_error(const pgas_machine *m, const void *s, int r, wmx_error *err)
{
    const struct rhdr *h = chdr(s, r);
    int pc = h->pc < m->th->ninstrs ? h->pc : m->th->ninstrs - 1;
    const ir_instr *in = pc >= 0 ? &m->th->instrs[pc] : NULL;
    const wmx_val *regs = regs_of(m, (void *)s, r);
    int line = in ? in->loc.line : 0, col = in ? in->loc.col : 0;
    const char *text = in && in->text ? in->text : "";
    switch ((pgas_fault)h->fault) {
    case PF_RANK:
        wmx_error_set(err, m->prog->file, line, col, "rank %d: remote rank %lld out of range (0..%d) in '%s'",
                      r, (long long)ir_eval(m->prog, in->e1, regs, NULL), m->nranks - 1, text);
        break;
    case PF_QUEUE:
        wmx_error_set(err, m->prog->file, line, col, "rank %d: queue id %lld out of range (0..%d) in '%s'",
                      r, (long long)ir_eval(m->prog, in->e2, regs, NULL), m->nqueues - 1, text);
        break;
    case PF_INDEX:
        wmx_error_set(err, m->prog->file, line, col, "rank %d: array index out of bounds in '%s'", r, text);
        break;
    case PF_QFULL:
        wmx_error_set(err, m->prog->file, line, col,
                      "rank %d: more than %d requests in flight in one queue (a limit) at '%s'",
                      r, m->qcap, text);
        break;
    case PF_ASSERT:
        wmx_error_set(err, m->prog->file, line, col, "rank %d: assertion failed: %s", r, text);
        break;
    default:
        wmx_error_set(err, m->prog->file, line, col, "rank %d: runtime fault at '%s'", r, text);
        break;
    }
}

size_t pgas_key_max(const pgas_machine *m) { return m->size; }

size_t pgas_key(const pgas_machine *m, const void *s, unsigned char *key)
{
    size_t fixed = m->off_ent;
    memcpy(key, s, fixed);
    size_t o = fixed;
    for (int r = 0; r < m->nranks; r++)
        for (int q = 0; q < m->nqueues; q++)
            for (int l = 0; l < 2; l++) {
                uint16_t c = *cnt_of(m, (void *)s, r, q, l);
                if (c) {
                    memcpy(key + o, ent_of(m, (void *)s, r, q, l), (size_t)c * sizeof(pgas_entry));
                    o += (size_t)c * sizeof(pgas_entry);
                }
            }
    return o;
}

size_t pgas_key_len(const pgas_machine *m, const void *s)
{
    size_t o = m->off_ent;
    const uint16_t *c = (const uint16_t *)((const char *)s + m->off_cnt);
    for (int i = 0; i < m->nranks * m->nqueues * 2; i++)
        o += (size_t)c[i] * sizeof(pgas_entry);
    return o;
}

void pgas_unkey(const pgas_machine *m, const unsigned char *key, void *s)
{
    memset(s, 0, m->size);
    memcpy(s, key, m->off_ent);
    size_t o = m->off_ent;
    for (int r = 0; r < m->nranks; r++)
        for (int q = 0; q < m->nqueues; q++)
            for (int l = 0; l < 2; l++) {
                uint16_t c = *cnt_of(m, s, r, q, l);
                if (c) {
                    memcpy(ent_of(m, s, r, q, l), key + o, (size_t)c * sizeof(pgas_entry));
                    o += (size_t)c * sizeof(pgas_entry);
                }
            }
}

void pgas_describe(const pgas_machine *m, const pgas_event *ev, char *buf, size_t n)
{
    char c[128] = "";
    if (ev->cell >= 0)
        ir_cell_name(m->prog, ev->cell, c, sizeof c);
    const char *text = ev->instr >= 0 && ev->instr < m->th->ninstrs && m->th->instrs[ev->instr].text
                     ? m->th->instrs[ev->instr].text : "";
    int line = ev->instr >= 0 && ev->instr < m->th->ninstrs ? m->th->instrs[ev->instr].loc.line : 0;
    switch (ev->kind) {
    case PE_LOAD:
        snprintf(buf, n, "R%d: load R%d:%s = %lld   (line %d: %s)", ev->rank, ev->addr_rank, c,
                 (long long)ev->value, line, text);
        break;
    case PE_STORE:
        snprintf(buf, n, "R%d: store R%d:%s := %lld   (line %d: %s)", ev->rank, ev->addr_rank, c,
                 (long long)ev->value, line, text);
        break;
    case PE_READ: case PE_WRITE:
        snprintf(buf, n, "R%d: %s q%d   (line %d: %s)", ev->rank, pgas_ev_name(ev->kind), ev->queue,
                 line, text);
        break;
    case PE_POPA:
        snprintf(buf, n, "R%d: popa q%d reads R%d:%s = %lld   (line %d: %s)", ev->rank, ev->queue,
                 ev->addr_rank, c, (long long)ev->value, line, text);
        break;
    case PE_POPB:
        snprintf(buf, n, "R%d: popb q%d writes R%d:%s := %lld   (line %d: %s)", ev->rank, ev->queue,
                 ev->addr_rank, c, (long long)ev->value, line, text);
        break;
    case PE_BAR:
        snprintf(buf, n, "R%d: bar   (line %d: %s)", ev->rank, line, text);
        break;
    case PE_QUIET:
        snprintf(buf, n, "R%d: quiet (its queues are empty)   (line %d: %s)", ev->rank, line, text);
        break;
    }
}

static void entry_text(const pgas_machine *m, const pgas_entry *e, int level, char *buf, size_t n)
{
    char a[64], b[64];
    ir_cell_name(m->prog, e->src_cell, a, sizeof a);
    ir_cell_name(m->prog, e->dst_cell, b, sizeof b);
    if (level == 0)
        snprintf(buf, n, "R%d:%s->R%d:%s", e->src_rank, a, e->dst_rank, b);
    else
        snprintf(buf, n, "R%d:%s=%lld", e->dst_rank, b, (long long)e->value);
}

void pgas_queue_text(const pgas_machine *m, const void *s, int r, int q, char *buf, size_t n)
{
    wmx_strbuf b = { 0 };
    for (int l = 0; l < 2; l++) {
        int c = *cnt_of(m, (void *)s, r, q, l);
        const pgas_entry *e = ent_of(m, (void *)s, r, q, l);
        wmx_strbuf_printf(&b, "%s%s:", l ? "  " : "", l ? "fb" : "fa");
        for (int i = 0; i < c; i++) {
            char t[160];
            entry_text(m, &e[i], l, t, sizeof t);
            wmx_strbuf_printf(&b, " %s", t);
        }
        if (c == 0)
            wmx_strbuf_printf(&b, " -");
    }
    snprintf(buf, n, "%s", b.s ? b.s : "");
    free(b.s);
}

static const ir_instr *instr_at(const pgas_machine *m, int pc)
{
    return pc >= 0 && pc < m->th->ninstrs ? &m->th->instrs[pc] : NULL;
}

/* "q0 holds 1 request and 1 value in flight, q1 holds 2 requests" */
static void queues_held(const pgas_machine *m, const void *s, int r, wmx_strbuf *b)
{
    bool first = true;
    for (int q = 0; q < m->nqueues; q++) {
        int na = *cnt_of(m, (void *)s, r, q, 0), nb = *cnt_of(m, (void *)s, r, q, 1);
        if (!na && !nb)
            continue;
        wmx_strbuf_printf(b, "%sq%d holds", first ? "" : ", ", q);
        if (na)
            wmx_strbuf_printf(b, " %d request%s (fa)", na, na == 1 ? "" : "s");
        if (nb)
            wmx_strbuf_printf(b, "%s %d value%s in flight (fb)", na ? " and" : "", nb, nb == 1 ? "" : "s");
        first = false;
    }
}

void pgas_rank_why(const pgas_machine *m, const void *s, int r, char *buf, size_t n)
{
    const struct rhdr *h = chdr(s, r);
    const ir_instr *in = instr_at(m, h->pc);
    int line = in ? in->loc.line : 0;
    const char *text = in && in->text ? in->text : "";
    switch ((thread_status)h->status) {
    case TS_DONE:
        snprintf(buf, n, "finished");
        return;
    case TS_BLOCKED:
        if (ir_is_loop_bound(m->prog, 0, h->pc)) {
            int bound = -1;
            const ir_expr *x = in->e1 >= 0 ? &m->prog->exprs[in->e1] : NULL;
            for (int l = 0; x && x->a >= 0 && l < m->th->nloops; l++)
                if (m->th->loops[l].counter == m->prog->exprs[x->a].reg)
                    bound = m->th->loops[l].bound;
            if (bound >= 0)
                snprintf(buf, n, "blocked: the loop of line %d runs more than its bound (%d)", line, bound);
            else
                snprintf(buf, n, "blocked: the loop of line %d runs more than its bound", line);
        }
        else
            snprintf(buf, n, "blocked: assume is false at line %d (%s)", line, text);
        return;
    case TS_ERROR:
        if (h->fault == PF_ASSERT)
            snprintf(buf, n, "assertion failed at line %d: %s", line, text);
        else
            snprintf(buf, n, "stopped by a runtime fault at line %d: %s", line, text);
        return;
    case TS_RUNNING:
        break;
    }
    if (in && in->kind == I_BARRIER) {
        snprintf(buf, n, "waits at the barrier of line %d", line);
    } else if (in && in->kind == I_QUIET && !pgas_rank_queues_empty(m, s, r)) {
        wmx_strbuf b = { 0 };
        wmx_strbuf_printf(&b, "waits at quiet (line %d) until its queues are empty: ", line);
        queues_held(m, s, r, &b);
        snprintf(buf, n, "%s", b.s);
        free(b.s);
    } else {
        snprintf(buf, n, "ready at line %d: %s", line, text);
    }
}

void pgas_why_disabled(const pgas_machine *m, const void *s, const pgas_transition *t, char *buf, size_t n)
{
    wmx_strbuf b = { 0 };
    char why[600];
    if (t->kind == PT_BARRIER) {
        wmx_strbuf_printf(&b, "not every rank is at a barrier:");
        bool first = true;
        for (int r = 0; r < m->nranks; r++) {
            const struct rhdr *h = chdr(s, r);
            if (h->status == TS_RUNNING && m->th->instrs[h->pc].kind == I_BARRIER)
                continue;
            pgas_rank_why(m, s, r, why, sizeof why);
            wmx_strbuf_printf(&b, "%s R%d has not arrived (%s)", first ? "" : ";", r, why);
            first = false;
        }
    } else if (t->kind == PT_STEP) {
        const struct rhdr *h = chdr(s, t->rank);
        pgas_rank_why(m, s, t->rank, why, sizeof why);
        if (h->status == TS_RUNNING && m->th->instrs[h->pc].kind == I_BARRIER) {
            wmx_strbuf_printf(&b, "R%d %s; all ranks pass it together with `barrier`", t->rank, why);
            int missing = 0;
            for (int r = 0; r < m->nranks; r++) {
                const struct rhdr *o = chdr(s, r);
                if (o->status == TS_RUNNING && m->th->instrs[o->pc].kind == I_BARRIER)
                    continue;
                wmx_strbuf_printf(&b, "%sR%d", missing++ ? ", " : " once ", r);
            }
            if (missing)
                wmx_strbuf_printf(&b, " %s there too", missing == 1 ? "is" : "are");
        } else if (h->status == TS_RUNNING) {
            /* at quiet with queues not empty */
            wmx_strbuf_printf(&b, "R%d %s; pop them first (popa/popb R%d qN)", t->rank, why, t->rank);
        } else {
            wmx_strbuf_printf(&b, "R%d: %s", t->rank, why);
        }
    } else {
        int level = t->kind == PT_POPA ? 0 : 1;
        int other = *cnt_of(m, (void *)s, t->rank, t->queue, 1 - level);
        char qt[600];
        pgas_queue_text(m, s, t->rank, t->queue, qt, sizeof qt);
        if (other) {
            wmx_strbuf_printf(&b, "R%d's queue q%d has nothing in %s; it holds %s: `%s R%d q%d` %s",
                              t->rank, t->queue, level == 0 ? "fa (no request waits)" : "fb (no value is in flight)",
                              qt, level == 1 ? "popa" : "popb", t->rank, t->queue, level == 1 ? "first" : "instead");
        } else {
            wmx_strbuf_printf(&b, "R%d's queue q%d is empty", t->rank, t->queue);
            wmx_strbuf held = { 0 };
            queues_held(m, s, t->rank, &held);
            if (held.s)
                wmx_strbuf_printf(&b, "; R%d's other queues: %s", t->rank, held.s);
            else
                wmx_strbuf_printf(&b, "; all of R%d's queues are empty", t->rank);
            free(held.s);
        }
    }
    snprintf(buf, n, "%s", b.s ? b.s : "");
    free(b.s);
}

void pgas_transition_name(const pgas_transition *t, char *buf, size_t n)
{
    switch (t->kind) {
    case PT_STEP:    snprintf(buf, n, "step R%d", t->rank); break;
    case PT_POPA:    snprintf(buf, n, "popa R%d q%d", t->rank, t->queue); break;
    case PT_POPB:    snprintf(buf, n, "popb R%d q%d", t->rank, t->queue); break;
    case PT_BARRIER: snprintf(buf, n, "barrier"); break;
    }
}
