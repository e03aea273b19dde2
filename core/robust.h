/* robust.h - robustness against TSO/PSO: the reads-from classes a relaxed
 * model allows and SC does not, and a set of fences that removes them. */
#ifndef WMX_ROBUST_H
#define WMX_ROBUST_H

#include "budget.h"
#include "exec.h"
#include "verify.h"
#include "rfsmc.h"


/* A class the relaxed model allows and SC does not. */
typedef struct robust_violation {
    int len;
    wmx_transition *steps;     /* witness trace under the relaxed model */
    wmx_event *events;
    char *why;                 /* VSC-rf's explanation: the happens-before cycle */
} robust_violation;

/* A fence position: insert I_FENCE after instruction `instr` of `thread`. */
typedef struct fence_pos {
    int thread, instr;
} fence_pos;

typedef struct robust_result {
    wmx_model model;
    long classes;              /* classes under the relaxed model */
    int nviol;                 /* violations kept (at most max_viol) */
    long nviol_total;
    robust_violation *viol;
    bool complete;             /* false when a limit stopped a run */
    /* fences: a smallest set found, verified by re-running */
    bool fences_found;
    int nfences;
    fence_pos *fences;
} robust_result;

/* Checks robustness of prog against model (TSO or PSO) and, when not
 * robust and find_fences, searches for a smallest set of fences after
 * stores that makes it robust.  Returns 0, or -1 with err set. */
int robust_check(const wmx_program *prog, wmx_model model, const explore_opts *base,
                 int max_viol, bool find_fences, robust_result *out, wmx_error *err);
void robust_result_free(robust_result *r);

/* A copy of prog with a fence inserted after each given instruction. */
wmx_program *robust_insert_fences(const wmx_program *prog, const fence_pos *f, int n);

#endif
