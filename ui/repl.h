/* repl.h - the interactive explorer (curses panes + readline command line)
 * and its scripted mode. */
#ifndef WMX_REPL_H
#define WMX_REPL_H

#include "cli.h"

/* `wmx [--theme NAME] [--script FILE.wmxs] [PROGRAM]`: returns an exit code. */
int repl_main(int argc, char **argv, cmd_ctx *ctx);

#endif
