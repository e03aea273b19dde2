/* genmc.h - what wmx offers C programs written for GenMC (its tests include
 * <genmc.h>).  clang finds this file after the user's own include paths
 * (-idirafter), so a real genmc.h given with -I wins.  Declarations only:
 * wmx's C front end gives the calls their meaning (doc/c-input.md). */
#ifndef WMX_GENMC_H
#define WMX_GENMC_H

/* blocks the execution unless cond holds (counted as blocked) */
void __VERIFIER_assume(int cond);

/* GenMC's spin-loop annotations: wmx finds spin loops itself, so these do
 * nothing */
void __VERIFIER_spin_start(void);
void __VERIFIER_spin_end(int cond);

#endif
