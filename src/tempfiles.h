/* tempfiles.h - removing wmx's temporary files (and clang) on a signal:
 * see src/tempfiles.c. */
#ifndef WMX_TEMPFILES_H
#define WMX_TEMPFILES_H

/* Kills the registered child process groups and unlinks the live temp
 * files; async-signal-safe (for a signal handler that then exits). */
void wmx_temp_cleanup_now(void);
/* Installs the handler for SIGTERM and SIGHUP: clean up, then die of the
 * signal as before.  Not for the interactive explorer (ncurses restores
 * the terminal on those). */
void wmx_temp_on_signals(void);

#endif
