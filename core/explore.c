/* explore.c - the dispatcher: runs the explorer opts->algo names. */
#include "explore.h"

int explore_run(const wmx_program *prog, const explore_opts *opts,
                explore_result *res, wmx_error *err)
{
    switch (opts->algo) {
    case ALGO_NAIVE:
        return explore_naive(prog, opts, res, err);
    case ALGO_ODPOR:
        return explore_odpor(prog, opts, res, err);
    case ALGO_STATEFUL:
        return explore_stateful(prog, opts, res, err);
    case ALGO_RFSTATE:
        return explore_rfstate(prog, opts, res, err);
    case ALGO_RFSMC:
        return explore_rfsmc(prog, opts, res, err);
    default:
        explore_result_init(res, prog, opts->model, opts->algo);
        wmx_error_set(err, prog->file, 0, 0, "algorithm '%s' is not available yet", algo_name(opts->algo));
        return -1;
    }
}
