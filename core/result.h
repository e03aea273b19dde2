/* result.h - what every explorer shares, below them all: the algorithm
 * names, the options (model, limits, callbacks), the trace handed to
 * callbacks, and the result (counts, distinct final states, assertion
 * violations).  Explorers feed each maximal trace to
 * explore_result_add_trace().  Nothing here is global: all state is in the
 * options and the result.  (Limits are in budget.h; the dispatcher over the
 * explorers is explore.h.)
 */
#ifndef WMX_RESULT_H
#define WMX_RESULT_H

#include "ir.h"
#include "machine.h"

#include <signal.h>

typedef enum explore_algo {
    ALGO_NAIVE,      /* every interleaving, enumerated */
    ALGO_STATEFUL,   /* the same counts, over the memoised state graph */
    ALGO_RFSTATE,    /* one trace per reads-from class, over (state, rf history) */
    ALGO_RFSMC,      /* one trace per reads-from class */
    ALGO_ODPOR       /* one trace per Mazurkiewicz class (SC) */
} explore_algo;
const char *algo_name(explore_algo a);
int algo_parse(const char *s, explore_algo *a);

/* One maximal trace, as handed to callbacks: the transitions taken (enough
 * to replay it on a fresh machine) and the events they produced. */
typedef struct explore_trace {
    int len;
    const wmx_transition *steps;
    const wmx_event *events;
    const void *final_state;     /* machine state at the end */
    bool blocked;
    bool error;
    /* another final state of the class reported just before (the same
     * events and reads, another final writer of a location that is only
     * shown, see explore_observed_shown_only): not a class of its own */
    bool ending;
} explore_trace;

typedef struct explore_progress {
    long traces, blocked;
    long events;                 /* events executed so far */
    int depth;                   /* current depth of the search */
    double elapsed_s;
} explore_progress;

/* What the workers of one parallel run (--jobs) share: the count of
 * maximal traces for --max-traces, and a flag that stops the others when
 * one stops at a limit.  Workers' options point to it; NULL otherwise. */
typedef struct explore_shared {
    _Atomic long traces;
    _Atomic int stop;
} explore_shared;

typedef struct explore_opts {
    wmx_model model;
    explore_algo algo;
    long max_traces;             /* 0 = no limit */
    double timeout_s;            /* 0 = no limit */
    size_t max_memory;           /* resident bytes, 0 = no limit (init: explore_default_max_memory) */
    bool max_memory_default;     /* max_memory is the default budget: a stop says so and how
                                    to raise it (init: true; --max-memory clears it) */
    double started;              /* explore_now() when the command began: --timeout
                                    counts from there (0 = from the run's start) */
    volatile sig_atomic_t *cancel; /* stop when *cancel becomes non-zero */
    volatile sig_atomic_t *cancel2; /* a second one (a caller's Ctrl-C under a local flag) */
    bool ifaa;                   /* odpor: independent fetch-and-adds */
    int jobs;                    /* workers: 1 (the default, also for 0 from
                                    explore_opts_init), N, or -1 for every core */
    explore_shared *shared;      /* set by a parallel run for its workers */
    struct team_net *net;        /* the processes of a distributed run (team_net.h), or NULL */
    /* called about every 1/10 s with the current counts (may be NULL) */
    void (*progress)(const explore_progress *pr, void *ud);
    /* called for every maximal trace (may be NULL) */
    void (*on_trace)(const explore_trace *tr, void *ud);
    void *ud;
} explore_opts;

void explore_opts_init(explore_opts *o);
/* The memory wmx may use: the physical memory (MemTotal), or the control
 * group's limit when that is lower (0 when unknown). */
size_t explore_memory_size(void);
/* The default memory budget: half of explore_memory_size(), never all of
 * it, so one run cannot take the whole machine (0 when unknown). */
size_t explore_default_max_memory(void);
/* The words a memory-limit stop ends with when the budget was the default:
 * what it is and how to raise it ("" otherwise). */
const char *explore_memory_hint(const explore_opts *o);

/* A distinct final state: the values of the observed locations (see
 * explore_result.observed), how many traces ended in it, and whether the
 * condition's proposition holds there. */
typedef struct final_state {
    wmx_val *vals;
    long count;
    bool satisfies;
} final_state;

/* An assertion violation (or runtime fault) with the trace that reaches it. */
typedef struct explore_error {
    int thread, instr;
    char *message;               /* "assertion failed: ..." with file:line:col */
    int len;
    wmx_transition *steps;
    wmx_event *events;
} explore_error;

/* Why a thread of a blocked trace stopped where it did. */
typedef enum {
    WAIT_FOREVER,    /* at an await or a lock that nothing enables any more */
    WAIT_ASSUME,     /* an assumption failed there */
    WAIT_BOUND,      /* a bounded loop (`bound N`, C's --unroll) would go round again */
    WAIT_SPIN,       /* a spin loop would go round again with nothing changed */
    WAIT_ABORT       /* C's abort() ended the run there (SV-COMP: silently) */
} wait_reason;

typedef struct explore_wait {
    int thread, instr;
    wait_reason why;
} explore_wait;

/* Where the threads of blocked traces stop: one entry per distinct set of
 * (thread, instruction, reason), with how many traces end so and the
 * shortest of them (ties broken by the schedule), so that a deadlock
 * is shown with the way into it. */
/* Where and why thread t of a final (blocked) state stopped; false when it
 * finished or failed. */
bool explore_wait_at(const wmx_program *p, const wmx_machine *m, const void *final_state, int t,
                     explore_wait *w);

#define EXPLORE_MAX_BLOCKED_AT 16
typedef struct explore_blocked {
    int nwaits;
    explore_wait *waits;         /* by thread */
    long count;
    int len;
    wmx_transition *steps;
    wmx_event *events;
} explore_blocked;

/* res->blocked_at merged by place: sets whose stopped threads stop at the
 * same source positions for the same reasons (copies of one statement: an
 * unrolled loop, an inlined call) are one set, with the counts added and
 * the shortest witness.  Returns how many (in res's order of first
 * appearance); the entries borrow waits and witnesses from res, so free
 * only the array.  A count of 0 (not counted) stays 0. */
struct explore_result;
int explore_blocked_by_place(const struct explore_result *res, explore_blocked **out);

typedef struct explore_result {
    const wmx_program *prog;
    wmx_model model;
    explore_algo algo;
    long traces;                 /* maximal traces (or classes) explored, complete ones */
    long blocked;                /* maximal traces where some thread is blocked */
    long bound_cut;              /* of those, traces where a thread stopped where
                                    the C front end's loop bound (--unroll) cut a loop */
    long positive, negative;     /* traces where the proposition holds / does not */
    long runs_no_class;          /* rfsmc: traces run that were no class (stepping
                                    stones: a failed lock, an await that could pass) */
    long events;                 /* events executed in total */
    int workers;                 /* threads that explored it (1, or --jobs N's N):
                                    the report may format with as many */
    int nobserved;
    cond_lhs *observed;          /* locations recorded in final states */
    int nstates, cap_states;
    final_state *states;         /* distinct final states, sorted by explore_finish */
    bool states_sorted;          /* internal: they are (explore_finish, merges of sorted lists) */
    int nerrors, cap_errors;
    explore_error *errors;
    long error_traces;           /* traces that hit an assertion violation */
    /* where blocked traces stop, sorted by explore_finish; the first
     * EXPLORE_MAX_BLOCKED_AT sets in (thread, instruction) order are kept, so the
     * counts may add up to less than `blocked` */
    int nblocked_at, cap_blocked_at;
    explore_blocked *blocked_at;
    bool complete;               /* false when a limit stopped the run */
    const char *stop_reason;     /* "max-traces", "timeout", "interrupted",
                                    "memory limit", "buffer limit" */
    char stop_text[256];         /* the same in words: "timeout after 5 s" */
    double time_s;
    /* internal: hash index over states (hash << 32 | state + 1, 0 = empty) */
    uint64_t *state_index;
    int state_index_cap;
    /* internal: the states' values, in blocks that never move */
    wmx_val **val_blocks;
    int nval_blocks, cap_val_blocks;
    size_t val_used, val_cap;    /* in the last block */
} explore_result;

/* Marks res partial with stop reason `reason` (a short token, as in JSON)
 * and a sentence for reports; keeps the first reason. */
void explore_stop(explore_result *res, const char *reason, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Whether the final values of memory that res records are only shown: a C
 * program's globals, or every cell of a program that names nothing (no
 * condition, no `locations`).  rfsmc and rfstate then count a reads-from
 * class once, however many final states it can end in, as Nidhugg's --rf
 * counts it; a location that a condition or `locations` names is read
 * after the end, and its final writer is part of the class. */
bool explore_observed_shown_only(const wmx_program *p);

/* Prepares `res` for a run of `prog`. */
void explore_result_init(explore_result *res, const wmx_program *prog,
                         wmx_model model, explore_algo algo);
void explore_result_free(explore_result *res);
/* Records one maximal trace ending in `final_state` of machine m; of an
 * ending (tr->ending), only its final state. */
void explore_result_add_trace(explore_result *res, const wmx_machine *m,
                              const explore_trace *tr);
/* Adds what src counted and found to dst (a parallel run's workers' results
 * into the run's); both must be finished (their states sorted), and src's
 * states move into dst.  A limit that stopped src stops dst; "team" (a
 * worker stopped because another one did) only when nothing else stopped
 * it. */
void explore_result_merge(explore_result *dst, explore_result *src);
/* Internal (core/result_wire.c): `block` (malloc'd) holds the values the
 * states res->states point to; res frees it. */
void explore_result_adopt_vals(explore_result *res, wmx_val *block);
/* Sorts the states; call once at the end. */
void explore_finish(explore_result *res);

/* The herd verdict: whether the condition holds ("Ok") and the observation. */
bool explore_cond_ok(const explore_result *res);
const char *explore_observation(const explore_result *res);   /* Never/Sometimes/Always */

#endif
