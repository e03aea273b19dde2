/* cmd_pgas.h - PGAS programs in `explore` and `robust` (src/cmd_pgas.c). */
#ifndef WMX_CMD_PGAS_H
#define WMX_CMD_PGAS_H

#include "cli.h"
#include "pgas.h"

/* If the program named by argv (or the REPL's current one) is a PGAS
 * program, runs `cmd` ("explore" or "robust") on it, sets *rc and returns
 * 1; otherwise returns 0 and the normal command runs. */
int pgas_dispatch(const char *cmd, int argc, char **argv, cmd_ctx *ctx, int *rc);

void pgas_print_robust(FILE *out, const wmx_program *p, const pgas_robust_result *res, bool json);

void pgas_write_dot(FILE *out, const wmx_program *p, const pgas_robust_result *res);

#endif
