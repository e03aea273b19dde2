/* naive.h - the exhaustive explorer. */
#ifndef WMX_NAIVE_H
#define WMX_NAIVE_H

#include "result.h"

/* The exhaustive explorer: every interleaving including flush choices. */
int explore_naive(const wmx_program *prog, const explore_opts *opts,
                  explore_result *res, wmx_error *err);
/* The same on explore_jobs(opts) workers (explore_naive calls it for
 * --jobs > 1): idle workers take schedule prefixes from busy ones. */
int explore_naive_parallel(const wmx_program *prog, const explore_opts *opts,
                           explore_result *res, wmx_error *err);

/* Tests (tests/unit/test_wire.c): a random unit of work for a program of
 * p's threads, written as bytes, read back and written again, gives the
 * same bytes and the same unit; NULL, or what differed. */
const char *naive_wire_selftest(const wmx_program *p, unsigned seed);

#endif
