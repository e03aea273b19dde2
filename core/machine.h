/* machine.h - operational SC, TSO and PSO machines over the program IR.
 *
 * One interface for every model: a machine (program + model + state layout)
 * and states that are flat byte blocks of machine_state_size() bytes, so an
 * explorer copies a state with memcpy and keeps a stack of them.  Thread-local
 * instructions (register arithmetic, jumps, assume, assert) run eagerly right
 * after each visible step, so every transition is one shared-memory event:
 * a read, a buffer-write, a memory-write (flush), a fence, an RMW or an await.
 *
 * Events are named by (thread, index): the index counts that thread's
 * thread-events in program order.  A memory-write (flush) carries the id of
 * its buffer-write, which is how two-phase writes are paired.
 */
#ifndef WMX_MACHINE_H
#define WMX_MACHINE_H

#include "ir.h"
#include "util.h"

typedef enum wmx_model { MODEL_SC, MODEL_TSO, MODEL_PSO } wmx_model;

const char *model_name(wmx_model m);          /* "sc", "tso", "pso" */
int model_parse(const char *s, wmx_model *m);  /* 0 ok, -1 unknown */

/* Event ids: (index << 8) | thread; EID_INIT names the initial value. */
typedef int32_t wmx_eid;
#define EID_INIT (-1)
#define EID_MAKE(thread, index) ((wmx_eid)(((index) << 8) | (thread)))
#define EID_THREAD(e) ((int)((e) & 0xff))
#define EID_INDEX(e)  ((int)((e) >> 8))

typedef enum event_kind {
    EV_READ,        /* r: load (value from buffer or memory) */
    EV_WRITE,       /* SC store: buffer-write and memory-write at once */
    EV_WRITE_BUF,   /* wB: store enters the store buffer (TSO/PSO) */
    EV_WRITE_MEM,   /* wM: oldest buffer entry reaches memory (flush) */
    EV_FENCE,       /* fnc */
    EV_RMW,         /* atomic read-modify-write (XCHG, FAA, CAS) */
    EV_AWAIT        /* await: a read that happened once its condition held */
} event_kind;

const char *event_kind_name(event_kind k);     /* "r", "w", "wB", "wM", ... */

typedef struct wmx_event {
    event_kind kind;
    int thread;
    wmx_eid id;        /* this event; for EV_WRITE_MEM, the id of its wB */
    int instr;         /* instruction index in the thread (-1 for wM) */
    int cell;          /* memory cell, -1 for fences */
    wmx_val value;     /* value written (writes, successful RMW) or read */
    wmx_val read;      /* RMW: value read */
    bool wrote;        /* RMW: whether it wrote (false for a failed CAS) */
    wmx_eid rf;        /* reads/RMW/await: the write read from (EID_INIT) */
    bool from_buffer;  /* reads: forwarded from the thread's own buffer */
} wmx_event;

typedef enum thread_status {
    TS_RUNNING,        /* next instruction is visible (maybe not enabled) */
    TS_DONE,           /* reached the end */
    TS_BLOCKED,        /* assume failed or a loop bound was exceeded */
    TS_ERROR           /* assertion failed or a runtime fault */
} thread_status;

typedef enum transition_kind { TR_STEP, TR_FLUSH } transition_kind;

typedef struct wmx_transition {
    transition_kind kind;
    int thread;
    int cell;          /* TR_FLUSH under PSO: which variable's buffer; else -1 */
} wmx_transition;

typedef struct buf_entry {
    int cell;
    wmx_val value;
    wmx_eid id;        /* the buffer-write */
} buf_entry;

typedef struct wmx_machine wmx_machine;

/* Builds a machine for `prog` (borrowed: it must outlive the machine).
 * Returns NULL with err set when the program is outside the machine's
 * limits (too many threads). */
wmx_machine *machine_new(const wmx_program *prog, wmx_model model, wmx_error *err);
void machine_free(wmx_machine *m);
/* Makes a lock (a blocking CAS, ir.h) step at once, like a CAS: when the
 * mutex is held it reads the owner and its thread stops, TS_BLOCKED, with
 * its pc at the lock.  For RF-SMC (core/rfsmc.c), whose search reaches the
 * classes where another thread took the mutex first only through such a
 * read: it explores those graphs but never counts them (a thread that
 * waits for ever at a lock comes from its "absent" branch instead).  Also
 * for `check`'s witness replay (verify_replay), which accepts them. */
void machine_set_locks_fail(wmx_machine *m);
const wmx_program *machine_program(const wmx_machine *m);
wmx_model machine_model(const wmx_machine *m);

size_t machine_state_size(const wmx_machine *m);
/* Writes the initial state into `state` (machine_state_size bytes): initial
 * memory and registers, each thread advanced to its first visible instruction. */
void machine_init(const wmx_machine *m, void *state);

/* Largest number of transitions machine_enabled() can return. */
int machine_max_enabled(const wmx_machine *m);
/* Fills `out` with the enabled transitions, threads in order, each thread's
 * step before its flushes; returns how many. */
int machine_enabled(const wmx_machine *m, const void *state, wmx_transition *out);
/* The first of machine_enabled()'s transitions that is not the step of a
 * thread with skip_step[t] set (skip_step may be NULL), found without
 * listing the rest; false when there is none. */
bool machine_first_enabled(const wmx_machine *m, const void *state,
                           const unsigned char *skip_step, wmx_transition *out);
/* The same with the threads taken in the order given (a permutation of
 * 0 .. nthreads-1; NULL: by number). */
bool machine_first_enabled_in(const wmx_machine *m, const void *state, const unsigned char *skip_step,
                              const int *order, wmx_transition *out);
/* Whether one transition is enabled. */
bool machine_is_enabled(const wmx_machine *m, const void *state, const wmx_transition *t);
/* Applies an enabled transition and describes it in *ev (may be NULL). */
void machine_apply(const wmx_machine *m, void *state, const wmx_transition *t, wmx_event *ev);
/* Describes what `t` would do without doing it (for the UI and explorers). */
void machine_peek(const wmx_machine *m, const void *state, const wmx_transition *t, wmx_event *ev);

/* True when nothing is enabled.  A final state is "blocked" when some
 * thread is blocked or waits forever (await, or buffer never drained). */
bool machine_is_final(const wmx_machine *m, const void *state);
bool machine_is_blocked(const wmx_machine *m, const void *state);
/* True when some thread stopped on a failed assertion or fault. */
bool machine_has_error(const wmx_machine *m, const void *state);
/* True when the program's condition can no longer change its value: the
 * state is final, or every atom reads a register of a thread that has
 * finished (a memory cell can still change while anything runs). */
bool machine_cond_settled(const wmx_machine *m, const void *state);

/* The observable state (registers, memory, pcs, statuses, buffer contents;
 * not event ids or counts) as machine_key_size() bytes: two states with equal
 * keys have the same futures. */
size_t machine_key_size(const wmx_machine *m);
void machine_key(const wmx_machine *m, const void *state, void *key);

/* Hash of the observable state (memory, registers, pcs, buffer contents). */
uint64_t machine_hash(const wmx_machine *m, const void *state);

/* ---- read access (the UI draws these) ---- */
/* dst's state with src's threads and memory and every buffer empty (the
 * same program under another model: a trace whose stores were all flushed
 * at once leaves exactly that) */
void machine_transplant(const wmx_machine *dst, void *dst_state, const wmx_machine *src,
                        const void *src_state);
const wmx_val *machine_memory(const wmx_machine *m, const void *state);
/* last memory-write to each cell (EID_INIT when none) */
const wmx_eid *machine_memory_writer(const wmx_machine *m, const void *state);
const wmx_val *machine_regs(const wmx_machine *m, const void *state, int thread);
int machine_pc(const wmx_machine *m, const void *state, int thread);
thread_status machine_status(const wmx_machine *m, const void *state, int thread);
/* The instruction where a failed assertion/fault stopped the thread, or -1. */
int machine_error_instr(const wmx_machine *m, const void *state, int thread);
/* Whether the thread's error is wmx's store-buffer cap (a limit, not a
 * fault of the program), and the cap (entries per thread). */
bool machine_buffer_full(const wmx_machine *m, const void *state, int thread);
int machine_buffer_cap(const wmx_machine *m);
/* Buffer entries of a thread, oldest first (TSO/PSO; empty under SC).
 * Under PSO the per-variable FIFOs are the sub-sequences by cell. */
int machine_buffer(const wmx_machine *m, const void *state, int thread, const buf_entry **entries);
/* Number of thread-events the thread has executed (next event's index). */
int machine_thread_events(const wmx_machine *m, const void *state, int thread);

/* One thread's own part of a state: its registers, pc, status and event
 * count, not memory or its buffer.  For explorers that remember a thread's
 * runs (core/thread_memo.h); a saved part is loaded into a state of the
 * same machine, meaningful when the thread's buffer is empty (always
 * under SC). */
size_t machine_thread_size(const wmx_machine *m, int thread);
void machine_thread_save(const wmx_machine *m, const void *state, int thread, void *out);
void machine_thread_load(const wmx_machine *m, void *state, int thread, const void *in);

/* Value a thread would read from `cell` now (own newest buffer entry, else
 * memory), and which write that is. */
wmx_val machine_visible_value(const wmx_machine *m, const void *state, int thread, int cell, wmx_eid *writer);

/* Formats a transition / an event for people: "P0: MOV [x],$1  (wB x=1)". */
void machine_describe(const wmx_machine *m, const wmx_event *ev, char *buf, size_t n);

#endif
