/* pgas.h - exploring PGAS programs and deciding their robustness (seed 001).
 *
 * explore: every computation of X(P,N); reports the terminated states (all
 * ranks done, queues empty), computations that end blocked (an assume
 * failed, or a barrier can never be passed), and assertion failures with a
 * witness.  A runtime fault (remote rank, queue id or index out of range)
 * is an input error.
 *
 * robust: is there a computation whose happens-before relation
 * po ∪ cf ∪ ↔ (seed §3) has a cycle not inside ↔?  Two exact methods:
 *   PGAS_SEARCH  all computations, state = (machine state, hb summary);
 *   PGAS_NF      only normal-form computations τ1·τ2·τ3·τ4 (seed Def. 4,
 *                Theorem 5; the automaton Y(P,N) of §5.2) with the same
 *                summary, parts 2..4 appended at every end of τ1.
 * doc/pgas.md describes both precisely.
 */
#ifndef WMX_PGAS_H
#define WMX_PGAS_H

#include "pgas_machine.h"
#include <signal.h>

typedef enum pgas_method { PGAS_NF, PGAS_SEARCH } pgas_method;
const char *pgas_method_name(pgas_method m);

typedef struct pgas_opts {
    int nranks;                 /* 0 = the program's */
    int qcap;                   /* entries per queue level, 0 = default */
    long max_states;            /* 0 = default (4,000,000) */
    double timeout_s;           /* 0 = none */
    volatile sig_atomic_t *cancel;
    /* progress hook, called every few thousand states (may be NULL) */
    void (*progress)(long states, void *arg);
    void *progress_arg;
} pgas_opts;

void pgas_opts_init(pgas_opts *o);
/* Monotonic seconds, for time_s and the timeout. */
double pgas_now(void);
/* The limits both searches poll (every 1024 states): the reason to stop
 * ("interrupt", "timeout") or NULL; reports progress on the way. */
const char *pgas_poll(const pgas_opts *o, double t0, long states);

typedef struct pgas_path {
    int len;
    pgas_transition *steps;
} pgas_path;

typedef struct pgas_failure {
    int rank, instr;            /* the failed assert */
    pgas_path witness;
} pgas_failure;

/* Blocked end states with the same places: per rank its status and pc
 * (a rank at a barrier is TS_RUNNING there).  The first
 * PGAS_MAX_BLOCKED_AT kinds are kept, in the order found. */
#define PGAS_MAX_BLOCKED_AT 16
typedef struct pgas_blocked {
    long count;
    int8_t status[WMX_PGAS_MAX_RANKS];
    int pc[WMX_PGAS_MAX_RANKS];
    pgas_path witness;          /* a shortest computation into one */
} pgas_blocked;

typedef struct pgas_explore_result {
    int nranks, nqueues;
    long states;
    bool complete;
    const char *stop_reason;    /* when !complete */
    int nfinal;
    char **final_text;          /* distinct terminated states, printed, sorted */
    long nblocked;              /* maximal computations ending blocked */
    int nblocked_at;
    pgas_blocked *blocked_at;   /* where and why, see pgas_blocked */
    int nfail;
    pgas_failure *fails;        /* one per failing assert (rank, instr) */
    double time_s;
} pgas_explore_result;

/* Returns 0, or -1 with err set (not PGAS, or a runtime fault: err is
 * then `file:line:col: message`). */
int pgas_explore(const wmx_program *p, const pgas_opts *o, pgas_explore_result *res, wmx_error *err);
void pgas_explore_result_free(pgas_explore_result *r);

/* How a cycle element leads to the next one. */
typedef enum pgas_rel { PGAS_REL_PO, PGAS_REL_CF, PGAS_REL_ID } pgas_rel;

/* One element of a reported cycle, in cycle order. */
typedef struct pgas_cycle_elem {
    int event;                  /* index into the computation's events */
    int seg;                    /* which rank segment (0..k-1) */
    char role[16];              /* "a", "b=c", "a=b=c=d", ... (Lemma 17's names) */
    pgas_rel next;              /* to the next element: po+, cf, or <-> (same class) */
} pgas_cycle_elem;

typedef struct pgas_robust_result {
    pgas_method method;
    int nranks, nqueues;
    bool robust;
    bool complete;
    const char *stop_reason;
    long states;
    double time_s;
    /* when not robust: the violating computation (queues drained at the
     * end), its events, and a cycle of the form of seed Lemma 17 */
    pgas_path computation;
    int nevents;
    pgas_event *events;
    int ncycle;
    pgas_cycle_elem *cycle;
    bool lemma17;               /* false: cycle found but not put in (1) form */
} pgas_robust_result;

int pgas_robust(const wmx_program *p, pgas_method method, const pgas_opts *o,
                pgas_robust_result *res, wmx_error *err);
void pgas_robust_result_free(pgas_robust_result *r);

/* The step of res->computation that produced event ev (a barrier step
 * produces one event per rank). */
int pgas_event_step(const pgas_robust_result *res, int ev);

/* ---- independent checks (tests; no state shared with the deciders) ---- */

/* Replays steps from the initial state; fills events (caller frees) and
 * returns 0, or -1 when some step is not enabled. */
int pgas_replay(const pgas_machine *m, const pgas_path *path, pgas_event **events, int *nevents);
/* Whether hb(events) has a cycle not inside ↔ (built from scratch). */
bool pgas_hb_violating(const pgas_machine *m, const pgas_event *ev, int n);
/* Whether consecutive cycle elements (cyclically) are each related by ↔*,
 * po+ or cf, with at least one po or cf step.  On failure *why says so. */
bool pgas_check_cycle(const pgas_machine *m, const pgas_event *ev, int n,
                      const int *cycle, int ncycle, const char **why);

/* The edges of hb(events) for drawing: po successors, cf, and ↔ between
 * events of one class (each unordered pair once, lower index first). */
typedef enum pgas_edge_kind { PGAS_EDGE_PO, PGAS_EDGE_CF, PGAS_EDGE_ID } pgas_edge_kind;
typedef struct pgas_edge {
    pgas_edge_kind kind;
    int from, to;
} pgas_edge;
int pgas_hb_edges(const pgas_machine *m, const pgas_event *ev, int n, pgas_edge **edges);

#endif
