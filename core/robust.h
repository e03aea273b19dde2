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

/* A fence candidate: a store's source position.  A fence after a source
 * line stands in every copy of its store (each thread that runs the code,
 * each unrolled round, each inlined call): one fix in the source is one
 * candidate, however many instructions it becomes. */
typedef struct fence_site {
    wmx_srcloc loc;            /* the store's position (line 0: no source) */
    int ncopies;
    fence_pos *copies;         /* the store instructions, each not followed by a fence */
} fence_site;

typedef struct robust_result {
    wmx_model model;
    long classes;              /* classes under the relaxed model */
    int nviol;                 /* violations kept (at most max_viol) */
    long nviol_total;
    robust_violation *viol;
    bool complete;             /* false when a limit stopped a run */
    char stop_text[256];       /* what stopped it ("timeout after 3 s") */
    /* The fence search (robust_check with find_fences, when not robust).
     * fences_found: fences (nfences sites) make the program robust,
     * verified by re-running; fences_smallest: no smaller set does (else
     * no set of at most ROBUST_MAX_FENCES sites works, and fences are all
     * the sites).  fence_search_complete is false when a limit cut the
     * search: then neither "found" nor "none" is a claim. */
    bool fences_found;
    bool fences_smallest;
    int nfences;
    fence_site *fences;
    int nsites;                /* candidates */
    long fence_sets_tried;     /* fence sets run */
    bool fence_search_complete;
    char fence_stop_text[256]; /* what cut the search */
} robust_result;

#define ROBUST_MAX_FENCES 4

/* Checks robustness of prog against model (TSO or PSO) and, when not
 * robust and find_fences, searches for a smallest set of fence sites (at
 * most ROBUST_MAX_FENCES) that makes it robust.  The search polls the
 * limits of base (cancel, --timeout, --max-memory) between runs.  Returns
 * 0, or -1 with err set. */
int robust_check(const wmx_program *prog, wmx_model model, const explore_opts *base,
                 int max_viol, bool find_fences, robust_result *out, wmx_error *err);
void robust_result_free(robust_result *r);

/* The fence candidates of prog: its stores not followed by a fence,
 * grouped by source position, in program order.  Returns the count; free
 * with robust_sites_free. */
int robust_fence_sites(const wmx_program *prog, fence_site **out);
void robust_sites_free(fence_site *s, int n);
/* A copy of prog with a fence after every copy of the n given sites. */
wmx_program *robust_fence_sites_insert(const wmx_program *prog, const fence_site *s, int n);

/* A copy of prog with a fence inserted after each given instruction. */
wmx_program *robust_insert_fences(const wmx_program *prog, const fence_pos *f, int n);

#endif
