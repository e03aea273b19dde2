/* explore.h - the dispatcher over the explorers (naive, stateful, rfstate,
 * rfsmc, odpor): explore_run() picks one by opts->algo.  It sits on top:
 * explorers include only the lower headers (result.h, budget.h), never this
 * one.  Including it gives callers (src/, ui/, tests) the whole interface.
 */
#ifndef WMX_EXPLORE_H
#define WMX_EXPLORE_H

#include "result.h"
#include "budget.h"
#include "naive.h"
#include "stateful.h"
#include "rfstate.h"
#include "rfsmc.h"
#include "odpor.h"

/* Runs the explorer chosen by opts->algo.  Returns 0 on success (the result
 * may be partial: check res->complete), -1 with err set when the program
 * cannot be explored (e.g. the algorithm does not support the model). */
int explore_run(const wmx_program *prog, const explore_opts *opts,
                explore_result *res, wmx_error *err);

#endif
