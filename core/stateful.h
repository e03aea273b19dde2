/* stateful.h - exhaustive counts over the memoised state graph. */
#ifndef WMX_STATEFUL_H
#define WMX_STATEFUL_H

#include "result.h"

/* Exhaustive over the state graph, counting traces by dynamic programming. */
int explore_stateful(const wmx_program *prog, const explore_opts *opts,
                     explore_result *res, wmx_error *err);

#endif
