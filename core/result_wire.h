/* result_wire.h - an explore_result as bytes: what each rank of a
 * distributed run (team_net.h) sends rank 0 at its end, to be merged with
 * explore_result_merge() as a worker's result is.  Between result.h and
 * wire.h; the program itself never travels (every rank loads it). */
#ifndef WMX_RESULT_WIRE_H
#define WMX_RESULT_WIRE_H

#include "result.h"
#include "wire.h"

/* Appends res (finished: its states sorted) to w. */
void explore_result_write(wire *w, const explore_result *res);
/* Reads a result written by explore_result_write into res, which the
 * caller initialised with explore_result_init for the same program, model
 * and algorithm.  False (res then holds what was read so far, still safe
 * to free) when the bytes are short, corrupt or for another program. */
bool explore_result_read(wire_reader *r, explore_result *res);

#endif
