/* verify.h - reads-from consistency: VSC-rf, VTSO-rf and VPSO-rf.
 *
 * Input: an execution (per-thread event sequences, the reads-from function
 * and optional observers of final values, see exec.h).  Output: consistent
 * with a witness (machine transitions that replay to exactly that RF), or
 * inconsistent with an explanation: a few po/rf/co/fr facts that cannot hold
 * together under the model, in words a student can follow.
 *
 * The algorithm follows VerifyTSO/VerifyPSO of Bui et al. (the reads-from
 * equivalence for TSO and PSO): it searches over lower sets of memory-writes,
 * keeping for each the trace that is maximal in thread events.  Thread events
 * are executed as soon as they are executable; memory-writes that no pending
 * read needs (spurious ones) are flushed eagerly; the other memory-writes are
 * the branching choices, and each set of executed memory-writes is visited
 * once.  Under SC the atomic writes play the role of memory-writes.
 */
#ifndef WMX_VERIFY_H
#define WMX_VERIFY_H

#include "exec.h"

typedef struct verify_fact {
    rel_kind kind;          /* po, rf, co, fr (ppo = po kept by the model) */
    int from, to;           /* event indices, -1 = the initial value */
    int cell;
    char *note;             /* why a derived co/fr fact holds (may be NULL) */
} verify_fact;

typedef struct verify_result {
    bool consistent;
    wmx_model model;
    int wlen;
    wmx_transition *witness;   /* consistent: replayable machine transitions */
    char *text;                /* inconsistent: the explanation */
    int nfacts;
    verify_fact *facts;
    long states;               /* search states visited */
    bool stopped;              /* the stop callback ended the search: no verdict */
} verify_result;

#define VERIFY_EXPLAIN 1u      /* build an explanation when inconsistent */

/* Decides consistency of x under model.  Always fills res (free with
 * verify_result_free). */
void verify_check(const wmx_exec *x, wmx_model model, unsigned flags, verify_result *res);
/* The same, polling stop(ud) during the search (an explorer's limits); when
 * it returns true the search ends with res->stopped set (and
 * res->consistent false). */
void verify_check_stop(const wmx_exec *x, wmx_model model, unsigned flags, verify_result *res,
                       bool (*stop)(void *ud), void *ud);
void vsc_rf(const wmx_exec *x, unsigned flags, verify_result *res);
void vtso_rf(const wmx_exec *x, unsigned flags, verify_result *res);
void vpso_rf(const wmx_exec *x, unsigned flags, verify_result *res);
void verify_result_free(verify_result *res);

/* The naive baseline: enumerates interleavings of thread events and
 * memory-writes, pruning a branch as soon as a read would see another write
 * than its RF.  Stops after max_states (0 = no limit); returns -1 then. */
int verify_naive(const wmx_exec *x, wmx_model model, long max_states, verify_result *res);

/* Replays a witness on the machine of x's program under model and compares
 * the events with x (kinds, variables, values, RF, observers).  0 when
 * they agree, -1 with a message in err. */
int verify_replay(const wmx_exec *x, wmx_model model, const wmx_transition *w, int len,
                  wmx_error *err);

/* ---- the notions of the paper, on one prefix (for tests and the UI) ----
 *
 * A prefix starts empty and grows by transitions (TR_STEP of a thread: its
 * next thread event; TR_FLUSH: the oldest memory-write of the thread's buffer,
 * or under PSO of its buffer for `cell`). */
typedef struct verify_prefix verify_prefix;

typedef enum verify_block {
    VB_OK = 0,
    VB_DONE,            /* nothing left to execute there */
    VB_PO,              /* program order: an earlier event is missing */
    VB_REMOTE_MISSING,  /* a read whose remote write has not reached memory */
    VB_HELD,            /* a memory-write to a variable held by another write */
    VB_LOCAL_UNFLUSHED, /* a memory-write that a later read of another thread
                           must see while that thread's earlier write to the
                           variable is still unflushed */
    VB_BUFFER,          /* fence/rmw: own buffer not empty */
    VB_RMW_OVERWRITE,   /* rmw would overwrite a write other reads still need */
    VB_NEVER            /* the write never reaches memory in this execution */
} verify_block;

const char *verify_block_name(verify_block b);

verify_prefix *verify_prefix_new(const wmx_exec *x, wmx_model model);
void verify_prefix_free(verify_prefix *p);
/* Whether the transition is executable (VB_OK) or why not. */
verify_block verify_prefix_executable(const verify_prefix *p, const wmx_transition *t);
/* Applies an executable transition; -1 when it is not executable. */
int verify_prefix_apply(verify_prefix *p, const wmx_transition *t);
/* The variable is held: a memory-write to it that is in the prefix still
 * has to be read by a read that is not. */
bool verify_prefix_held(const verify_prefix *p, int cell);
/* Write event w's memory-write is spurious: no remaining read needs it (and
 * if it is in the prefix, every read of it read it from the local buffer). */
bool verify_prefix_spurious(const verify_prefix *p, int w);
/* Write event w's memory-write is pending: its buffer-write is in the
 * prefix and the memory-write is not. */
bool verify_prefix_pending(const verify_prefix *p, int w);
/* Whether every event (and memory-write) of the execution is in the prefix. */
bool verify_prefix_complete(const verify_prefix *p);

#endif
