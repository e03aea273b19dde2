/* team_net.h - one exploration spread over processes (the ranks of an MPI
 * job, core/team_mpi.c), seen from below the explorers.
 *
 * Each process runs a team (team.h) of its own workers; a messenger thread
 * per process moves units between the teams as bytes (an explorer's codec
 * turns its units into bytes and back), answers other processes' requests
 * for work, detects the end of the run, and spreads a stop.  At the end
 * every process sends its result to process 0, which merges them as it
 * merges its workers' (explore_result_merge), so the report is the one a
 * single process gives.  The interface is plain C: a build without MPI
 * never sets explore_opts.net, and nothing here needs MPI's headers. */
#ifndef WMX_TEAM_NET_H
#define WMX_TEAM_NET_H

#include "result.h"
#include "team.h"
#include "wire.h"

/* What an explorer gives to move its units between processes. */
typedef struct explore_codec {
    /* appends the unit to w (the unit stays the caller's) */
    void (*encode)(const void *unit, void *ctx, wire *w);
    /* a unit read from r, or NULL when the bytes are bad */
    void *(*decode)(wire_reader *r, void *ctx);
    /* frees a unit that will not run (a stopped run's, or one sent away) */
    void (*drop)(void *unit, void *ctx);
    /* a message an explorer sent with team_net.post (may be NULL) */
    void (*on_message)(wire_reader *r, void *ctx, team *t);
} explore_codec;

typedef struct team_net team_net;
struct team_net {
    int rank, size;              /* this process, of how many */
    /* Starts this process's share of a run: its messenger moves units into
     * and out of t.  The process that starts the search is rank 0. */
    void (*begin)(team_net *n, team *t, const explore_codec *codec, void *ctx,
                  explore_shared *shared, const explore_opts *opts);
    /* An explorer's message to process `to` (any worker, any time during
     * the run): it counts as work in flight until `to` has read it. */
    void (*post)(team_net *n, int to, const wire *msg);
    /* Waits until the run is over everywhere (the workers have returned). */
    void (*end)(team_net *n);
    /* Rank 0: merges every other process's result into res (finished);
     * the others send theirs and then hold the merged run's summary (counts,
     * completeness, stop reason).  -1 and err set when a process failed. */
    int (*gather)(team_net *n, explore_result *res, int rc, wmx_error *err);
    void *impl;
};

/* Whether opts asks for a run over several processes. */
static inline bool explore_net_on(const explore_opts *o)
{
    return o->net && o->net->size > 1;
}

/* Whether algorithm a runs over processes (the others stay on rank 0). */
static inline bool team_net_algo(explore_algo a)
{
    return a == ALGO_NAIVE || a == ALGO_ODPOR || a == ALGO_RFSMC;
}

#endif
