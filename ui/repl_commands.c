/* repl_commands.c - commands that exist only at the `wmx>` prompt
 * (they act on the session: load, step, undo, ...).  The shared batch
 * commands are in src/commands.c; cmd_find() searches both tables. */
#include "cli.h"

const command wmx_repl_commands[] = {
    { NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL },
};
const int wmx_nrepl_commands = 0;
