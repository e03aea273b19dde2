/* rfsmc.h - reads-from stateless model checking (RF-SMC) under SC, TSO and
 * PSO: one maximal trace per reads-from class, each class exactly once,
 * memory proportional to one trace (see rfsmc.c). */
#ifndef WMX_RFSMC_H
#define WMX_RFSMC_H

#include "result.h"

/* Explores every class; each goes to opts->on_trace and into res. */
int explore_rfsmc(const wmx_program *prog, const explore_opts *opts,
                  explore_result *res, wmx_error *err);

/* The same search one class at a time, for callers that browse classes as
 * they come (the REPL): rfsmc_iter_next runs the search until the next class
 * and describes it in *tr (valid until the next call), or returns false when
 * the search is over or a limit of opts stopped it.  Each class is also
 * recorded in res (opts->on_trace is not called).  Freeing an iterator
 * before the end marks res as partial. */
typedef struct rfsmc_iter rfsmc_iter;
rfsmc_iter *rfsmc_iter_new(const wmx_program *prog, const explore_opts *opts,
                           explore_result *res, wmx_error *err);
bool rfsmc_iter_next(rfsmc_iter *it, explore_trace *tr);
void rfsmc_iter_free(rfsmc_iter *it);

/* Tests (tests/unit/test_wire.c): a random unit (a path of shared
 * decisions and a batch of the deepest one's alternatives) written by rank
 * 0 and read by rank 1 of three, and back, gives replicas with the same
 * fixed parts, flags, names and batch; cut bytes are refused; a key
 * offered to rank 1's replica goes to rank 0, which keeps it and queues a
 * unit of its path when it is new there.  NULL, or what differed.  p
 * needs two threads or more. */
const char *rfsmc_wire_selftest(const wmx_program *p, unsigned seed);

#endif
