/* pgas_machine.h - the PGAS state-space machine X(P,N) of seed 001, Table 1.
 *
 * N ranks run the program's one spmd thread.  Per rank: control state (pc,
 * status), registers (with `rank`/`nranks` set), its own copy of every
 * variable.  Per (rank, queue) two FIFO levels: fa holds requests
 * (source rank/cell, destination rank/cell), fb values in flight
 * (destination rank/cell, value).  Transitions:
 *   PT_STEP    rank's next command: load, store, read or write (the latter
 *              two append a request to fa of the rank's queue q), or quiet
 *              (enabled only when all of the rank's queues are empty);
 *   PT_POPA    oldest request of fa(rank,q): read the source now, append
 *              (destination, value) to fb(rank,q);
 *   PT_POPB    oldest entry of fb(rank,q): write it to the destination;
 *   PT_BARRIER all ranks pass a barrier at once (every rank must be at one).
 * Thread-local instructions (assign, assume, assert, jumps) run eagerly after
 * each visible step, as in core/machine.h.  States are flat byte blocks of
 * pgas_state_size() bytes; pgas_key() gives a compact canonical key.
 */
#ifndef WMX_PGAS_MACHINE_H
#define WMX_PGAS_MACHINE_H

#include "ir.h"
#include "machine.h"
#include "util.h"

typedef enum pgas_tr_kind { PT_STEP, PT_POPA, PT_POPB, PT_BARRIER } pgas_tr_kind;

typedef struct pgas_transition {
    pgas_tr_kind kind;
    int rank;        /* -1 for PT_BARRIER */
    int queue;       /* PT_POPA/PT_POPB; else -1 */
} pgas_transition;

/* Event kinds of the seed (assign/assume run eagerly and are not events). */
typedef enum pgas_ev_kind { PE_LOAD, PE_STORE, PE_READ, PE_WRITE, PE_POPA, PE_POPB, PE_BAR, PE_QUIET } pgas_ev_kind;

const char *pgas_ev_name(pgas_ev_kind k);    /* "load", "store", "read", ... */

typedef struct pgas_event {
    pgas_ev_kind kind;
    int rank;            /* the rank that produced it (pops: the queue's owner) */
    int addr_rank;       /* accessed address (load/store/popa/popb), else -1 */
    int cell;            /*   cell of it, -1 for read/write/bar */
    wmx_val value;       /* value read or written */
    int instr;           /* instruction (pops: the read/write command's) */
    int queue;           /* read/write/popa/popb; else -1 */
} pgas_event;

/* A queue entry: in fa a request, in fb a value in flight. */
typedef struct pgas_entry {
    int16_t src_rank, src_cell;   /* fa only */
    int16_t dst_rank, dst_cell;
    int16_t instr;                /* the read/write command */
    int16_t pad[3];
    wmx_val value;                /* fb only */
} pgas_entry;

/* Why a rank stopped with TS_ERROR. */
typedef enum pgas_fault {
    PF_NONE, PF_ASSERT, PF_RANK, PF_QUEUE, PF_INDEX, PF_QFULL, PF_LOCAL
} pgas_fault;

typedef struct pgas_machine pgas_machine;

/* nranks 0 = the program's `ranks N;`; qcap = entries per FIFO level
 * (0 = default 16).  NULL with err set on a non-PGAS program. */
pgas_machine *pgas_machine_new(const wmx_program *prog, int nranks, int qcap, wmx_error *err);
void pgas_machine_free(pgas_machine *m);
const wmx_program *pgas_program(const pgas_machine *m);
int pgas_nranks(const pgas_machine *m);
int pgas_nqueues(const pgas_machine *m);

size_t pgas_state_size(const pgas_machine *m);
void pgas_init(const pgas_machine *m, void *state);

int pgas_max_enabled(const pgas_machine *m);
/* Enabled transitions: ranks in order, each rank's step then its popa/popb
 * per queue; the barrier last.  Returns how many. */
int pgas_enabled(const pgas_machine *m, const void *state, pgas_transition *out);
bool pgas_is_enabled(const pgas_machine *m, const void *state, const pgas_transition *t);
/* Applies an enabled transition.  For a barrier, ev (if not NULL) must hold
 * nranks events (one bar per rank); otherwise one.  Returns the number of
 * events written. */
int pgas_apply(const pgas_machine *m, void *state, const pgas_transition *t, pgas_event *ev);
int pgas_peek(const pgas_machine *m, const void *state, const pgas_transition *t, pgas_event *ev);

/* Nothing enabled.  Terminated: every rank done (queues are then empty). */
bool pgas_is_final(const pgas_machine *m, const void *state);
bool pgas_is_terminated(const pgas_machine *m, const void *state);
bool pgas_queues_empty(const pgas_machine *m, const void *state);
/* All of one rank's queues (both levels) are empty: its `quiet` can pass. */
bool pgas_rank_queues_empty(const pgas_machine *m, const void *state, int rank);
/* A rank stopped on a failed assertion / on a runtime fault (bad rank,
 * queue, index: an input error). */
bool pgas_has_assert_failure(const pgas_machine *m, const void *state);
int pgas_fault_rank(const pgas_machine *m, const void *state);   /* -1 none */
pgas_fault pgas_rank_fault(const pgas_machine *m, const void *state, int rank);
/* "file:line:col: message" for a rank's fault into err. */
void pgas_fault_error(const pgas_machine *m, const void *state, int rank, wmx_error *err);

/* Compact canonical key (equal keys = same futures): at most
 * pgas_key_max() bytes; returns its length. */
size_t pgas_key_max(const pgas_machine *m);
size_t pgas_key(const pgas_machine *m, const void *state, unsigned char *key);
size_t pgas_key_len(const pgas_machine *m, const void *state);
/* Rebuilds a state from a key. */
void pgas_unkey(const pgas_machine *m, const unsigned char *key, void *state);

/* ---- read access ---- */
const wmx_val *pgas_memory(const pgas_machine *m, const void *state, int rank);
const wmx_val *pgas_regs(const pgas_machine *m, const void *state, int rank);
int pgas_pc(const pgas_machine *m, const void *state, int rank);
thread_status pgas_status(const pgas_machine *m, const void *state, int rank);
/* level 0 = fa, 1 = fb; oldest first */
int pgas_queue(const pgas_machine *m, const void *state, int rank, int queue, int level,
               const pgas_entry **entries);

/* What a rank is doing or why it stopped, in words: "ready at line 9",
 * "waits at the barrier of line 8", "waits at quiet (line 7) until its
 * queues are empty: q0 holds 1 request", "blocked: the loop bound is
 * exceeded at line 12 (...)", "blocked: assume is false at line 9 (...)",
 * "assertion failed at line 14: assert(r == 1)", "finished". */
void pgas_rank_why(const pgas_machine *m, const void *state, int rank, char *buf, size_t n);
/* Why transition t is not enabled in state, in words (for the explorer):
 * which ranks have not arrived at the barrier, what a rank waits for, whose
 * queue holds what. */
void pgas_why_disabled(const pgas_machine *m, const void *state, const pgas_transition *t,
                       char *buf, size_t n);
/* The queue's two levels as text: "fa: R0:x->R1:y  fb: -". */
void pgas_queue_text(const pgas_machine *m, const void *state, int rank, int queue, char *buf, size_t n);

/* "R1 q0 popa: read R0:x = 1" and the like. */
void pgas_describe(const pgas_machine *m, const pgas_event *ev, char *buf, size_t n);
/* "R1: popa q0" - a transition as the explorer names it. */
void pgas_transition_name(const pgas_transition *t, char *buf, size_t n);

#endif
