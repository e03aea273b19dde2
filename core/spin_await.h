/* spin_await.h - spin loops that block become awaits (issue: locks in C).
 *
 * The C front end turns a loop that only reads and compares (a spin loop)
 * into its body followed by a branch to `assume(false)` (spin-assume): the
 * run that would go round again is blocked.  Every read that takes the
 * blocking branch is still explored, then thrown away.  When the branch is
 * decided by comparing one loaded value with an expression over registers
 * and constants, this pass makes the load an await of the exit test (or an
 * exchange into an exchange-await): the explorers then never let it read a
 * value that blocks.  Exact: the runs that leave the loop are the same, and
 * a run that would have blocked at the assume now waits at the await.
 * The same holds for any assume(false) that throws its run away (abort(),
 * assume(false)); those are rewritten only where an SV-COMP atomic section
 * begins (`if (!(m == 0)) abort(); m = 1;`), so that elsewhere an aborted
 * run stays one, with its reason.
 * A branch to PLP's assume(changed) (a time round that changed nothing
 * blocks) is rewritten too when the exchange or compare-exchange before it
 * decides both the branch and the flag: a test-and-test-and-set lock's
 * exchange then waits for a value other than the one it writes, and a
 * compare-exchange lock's try waits until it succeeds.
 */
#ifndef WMX_SPIN_AWAIT_H
#define WMX_SPIN_AWAIT_H

#include "ir.h"

/* Rewrites every spin branch of p that it can; spin assumes it cannot
 * rewrite get the reason in their text.  Returns the count of rewrites. */
int spin_to_await(wmx_program *p);

#endif
