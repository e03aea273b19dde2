/* tempfiles.c - the process's registry of live temporary files and child
 * process groups (core/util.h: wmx_temp_add, wmx_child_add), and its
 * async-signal-safe cleanup for SIGINT/SIGTERM (issue 47 §7): a killed wmx
 * leaves no NAME.tmp.PID, NAME.tmpXXXXXX, cache ENTRY.XXXXXX or
 * $TMPDIR/wmx-cfront-XXXXXX behind, and no clang running.
 *
 * Process-wide signal state lives here (src/), not in core.  A slot is
 * claimed by a compare-and-swap (0 free -> 1 being filled -> 2 live), so
 * threads may add and drop at once; the handler only reads live slots. */
#include "tempfiles.h"
#include "util.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#define NTEMP 64
#define TEMPLEN 4096
#define NCHILD 16

static char temp_path[NTEMP][TEMPLEN];
static atomic_int temp_state[NTEMP];
static atomic_int child_pgid[NCHILD];  /* 0: free */

void wmx_temp_add(const char *path)
{
    size_t l = strlen(path);
    if (l >= TEMPLEN)
        return;                 /* cannot be cleaned on a signal: the normal paths still remove it */
    for (int i = 0; i < NTEMP; i++) {
        int free_ = 0;
        if (atomic_compare_exchange_strong(&temp_state[i], &free_, 1)) {
            memcpy(temp_path[i], path, l + 1);
            atomic_store(&temp_state[i], 2);
            return;
        }
    }
}

void wmx_temp_drop(const char *path)
{
    for (int i = 0; i < NTEMP; i++) {
        int live = 2;
        /* hold the slot (1) while comparing, so no one refills it meanwhile */
        if (atomic_compare_exchange_strong(&temp_state[i], &live, 1)) {
            bool same = strcmp(temp_path[i], path) == 0;
            atomic_store(&temp_state[i], same ? 0 : 2);
            if (same)
                return;
        }
    }
}

void wmx_child_add(int pgid)
{
    for (int i = 0; i < NCHILD; i++) {
        int free_ = 0;
        if (atomic_compare_exchange_strong(&child_pgid[i], &free_, pgid))
            return;
    }
}

void wmx_child_drop(int pgid)
{
    for (int i = 0; i < NCHILD; i++) {
        int p = pgid;
        if (atomic_compare_exchange_strong(&child_pgid[i], &p, 0))
            return;
    }
}

void wmx_temp_cleanup_now(void)
{
    for (int i = 0; i < NCHILD; i++) {
        int p = atomic_load(&child_pgid[i]);
        if (p > 0)
            kill(-p, SIGTERM);  /* clang removes its own scratch files on SIGTERM */
    }
    for (int i = 0; i < NTEMP; i++)
        if (atomic_load(&temp_state[i]) == 2)
            unlink(temp_path[i]);
}

static void on_term(int sig)
{
    wmx_temp_cleanup_now();
    signal(sig, SIG_DFL);
    raise(sig);
}

void wmx_temp_on_signals(void)
{
    static const int sigs[] = { SIGTERM, SIGHUP };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa, old;
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;           /* nohup: stays ignored */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_term;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}
