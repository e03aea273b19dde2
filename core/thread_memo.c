/* thread_memo.c - a thread's runs, remembered by the values its reads
 * return (see thread_memo.h). */
#include "thread_memo.h"

#include <stdlib.h>
#include <string.h>

typedef struct memo_thread {
    thread_memo_node *nodes;
    unsigned char *saved;  /* size bytes per node: the thread's own state */
    size_t size;
    int n, cap;
} memo_thread;

struct thread_memo {
    const wmx_machine *sc;
    int nthreads;
    memo_thread *th;
    char *scratch;         /* a state of sc: misses run here */
    size_t used, max_bytes;
    unsigned generation;
};

/* what node n of thread t knows about its next instruction, from state */
static void describe(thread_memo *tm, int t, thread_memo_node *nd, const void *state)
{
    const wmx_program *p = machine_program(tm->sc);
    nd->status = (int8_t)machine_status(tm->sc, state, t);
    nd->reads = 0;
    nd->cell = -1;
    if (nd->status != TS_RUNNING)
        return;
    const ir_instr *in = &p->threads[t].instrs[machine_pc(tm->sc, state, t)];
    if (in->kind == I_LOAD || in->kind == I_AWAIT || in->kind == I_XCHG || in->kind == I_FAA ||
        in->kind == I_CAS) {
        nd->reads = 1;
        nd->cell = ir_address_cell(p, &in->addr, machine_regs(tm->sc, state, t));
    }
}

static int node_new(thread_memo *tm, int t)
{
    memo_thread *mt = &tm->th[t];
    if (mt->n == mt->cap) {
        mt->cap = mt->cap ? 2 * mt->cap : 64;
        size_t each = mt->size ? mt->size : 1;
        mt->nodes = wmx_table_grow(mt->nodes, (size_t)mt->n * sizeof *mt->nodes,
                                   (size_t)mt->cap * sizeof *mt->nodes);
        mt->saved = wmx_table_grow(mt->saved, (size_t)mt->n * each, (size_t)mt->cap * each);
    }
    tm->used += sizeof *mt->nodes + mt->size;
    thread_memo_node *nd = &mt->nodes[mt->n];
    memset(nd, 0, sizeof *nd);
    nd->child = nd->sibling = -1;
    nd->cell = -1;
    return mt->n++;
}

thread_memo *thread_memo_new(const wmx_machine *sc, size_t max_bytes)
{
    thread_memo *tm = wmx_calloc(1, sizeof *tm);
    tm->sc = sc;
    tm->max_bytes = max_bytes;
    tm->nthreads = machine_program(sc)->nthreads;
    tm->th = wmx_calloc((size_t)(tm->nthreads ? tm->nthreads : 1), sizeof *tm->th);
    tm->scratch = wmx_malloc(machine_state_size(sc));
    machine_init(sc, tm->scratch);
    for (int t = 0; t < tm->nthreads; t++) {
        tm->th[t].size = machine_thread_size(sc, t);
        int root = node_new(tm, t);
        thread_memo_node *nd = &tm->th[t].nodes[root];
        nd->enabled = 1;
        describe(tm, t, nd, tm->scratch);
        machine_thread_save(sc, tm->scratch, t, tm->th[t].saved);
    }
    return tm;
}

void thread_memo_free(thread_memo *tm)
{
    if (!tm)
        return;
    for (int t = 0; t < tm->nthreads; t++) {
        free(tm->th[t].nodes);
        free(tm->th[t].saved);
    }
    free(tm->th);
    free(tm->scratch);
    free(tm);
}

void thread_memo_trim(thread_memo *tm)
{
    if (tm->used <= tm->max_bytes)
        return;
    tm->used = 0;
    tm->generation++;
    for (int t = 0; t < tm->nthreads; t++) {
        memo_thread *mt = &tm->th[t];
        mt->n = 1;
        mt->nodes[0].child = -1;
        tm->used += sizeof *mt->nodes + mt->size;
    }
}

unsigned thread_memo_generation(const thread_memo *tm)
{
    return tm->generation;
}

int thread_memo_root(const thread_memo *tm, int t)
{
    (void)tm;
    (void)t;
    return 0;
}

const thread_memo_node *thread_memo_node_of(const thread_memo *tm, int t, int n)
{
    return &tm->th[t].nodes[n];
}

void thread_memo_load(const thread_memo *tm, int t, int n, void *state)
{
    const memo_thread *mt = &tm->th[t];
    machine_thread_load(tm->sc, state, t, mt->saved + (size_t)n * mt->size);
}

int thread_memo_step(thread_memo *tm, int t, int n, wmx_val v, wmx_eid src)
{
    memo_thread *mt = &tm->th[t];
    bool reads = mt->nodes[n].reads;
    for (int c = mt->nodes[n].child; c >= 0; c = mt->nodes[c].sibling)
        if (!reads || mt->nodes[c].key == v)
            return mt->nodes[c].enabled ? c : -1;
    /* a miss: run the interpreter from node n's state */
    const wmx_machine *sc = tm->sc;
    thread_memo_load(tm, t, n, tm->scratch);
    if (reads && mt->nodes[n].cell >= 0) {
        int cell = mt->nodes[n].cell;
        ((wmx_val *)machine_memory(sc, tm->scratch))[cell] = v;
        ((wmx_eid *)machine_memory_writer(sc, tm->scratch))[cell] = src;
    }
    wmx_transition step = { TR_STEP, t, -1 };
    bool enabled = machine_is_enabled(sc, tm->scratch, &step);
    int c = node_new(tm, t);          /* may move mt->nodes */
    thread_memo_node *nd = &mt->nodes[c];
    nd->key = reads ? v : 0;
    nd->enabled = enabled;
    nd->sibling = mt->nodes[n].child;
    mt->nodes[n].child = c;
    if (!enabled)
        return -1;
    machine_apply(sc, tm->scratch, &step, &nd->ev);
    describe(tm, t, nd, tm->scratch);
    machine_thread_save(sc, tm->scratch, t, mt->saved + (size_t)c * mt->size);
    return c;
}
