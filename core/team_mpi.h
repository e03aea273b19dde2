/* team_mpi.h - the processes of an MPI job as a team_net (team_net.h).
 * Built only when ./configure finds MPI (WMX_HAVE_MPI); nothing else in
 * core includes MPI's headers.  doc/distributed.md tells how to run it,
 * doc/architecture.md how it works. */
#ifndef WMX_TEAM_MPI_H
#define WMX_TEAM_MPI_H

#include "team_net.h"

#include <stddef.h>

/* Whether an MPI launcher (mpirun, srun) started this process: its
 * environment names a rank.  A plain `wmx` never starts MPI. */
bool team_mpi_launched(void);
/* Starts MPI (threads serialised: one thread at a time calls it) and
 * returns this process's place in the job; NULL with `why` set when MPI
 * cannot start. */
team_net *team_mpi_init(int *argc, char ***argv, char *why, size_t whylen);
/* The end of the job: rank 0's exit code goes to every rank, MPI stops.
 * Returns the code this process exits with. */
int team_mpi_finish(team_net *net, int rc);

#endif
