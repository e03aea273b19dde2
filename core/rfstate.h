/* rfstate.h - one trace per reads-from class over (state, rf history). */
#ifndef WMX_RFSTATE_H
#define WMX_RFSTATE_H

#include "result.h"

/* One trace per reads-from class (observers of final values included). */
int explore_rfstate(const wmx_program *prog, const explore_opts *opts,
                    explore_result *res, wmx_error *err);

#endif
