/* genmc.h - what wmx offers C programs written for GenMC (its tests include
 * <genmc.h>).  clang finds this file after the user's own include paths
 * (-idirafter), so a real genmc.h given with -I wins.  Declarations, whose
 * calls wmx's C front end gives their meaning (doc/c-input.md), and macros
 * for what is plain C underneath. */
#ifndef WMX_GENMC_H
#define WMX_GENMC_H

/* blocks the execution unless cond holds (counted as blocked) */
void __VERIFIER_assume(int cond);

/* GenMC's spin-loop annotations: wmx finds spin loops itself, so these do
 * nothing */
void __VERIFIER_loop_begin(void);
void __VERIFIER_spin_start(void);
void __VERIFIER_spin_end(int cond);

/* GenMC's hazard pointers (both spellings its tests use).  wmx never frees
 * memory (free does nothing), so protecting is only the load it stands for
 * and retiring does nothing. */
typedef struct { void *wmx_unused; } __VERIFIER_hp_t;
typedef __VERIFIER_hp_t __VERIFIER_hazptr_t;
#define __VERIFIER_hp_alloc() ((__VERIFIER_hp_t *)0)
#define __VERIFIER_hp_protect(hp, p) ((void)(hp), *(p))
#define __VERIFIER_hp_clear(hp) ((void)(hp))
#define __VERIFIER_hp_free(hp) ((void)(hp))
#define __VERIFIER_hp_retire(p) ((void)(p))
#define __VERIFIER_hazptr_alloc() ((__VERIFIER_hazptr_t *)0)
#define __VERIFIER_hazptr_protect(hp, p) ((void)(hp), *(p))
#define __VERIFIER_hazptr_clear(hp) ((void)(hp))
#define __VERIFIER_hazptr_free(hp) ((void)(hp))
#define __VERIFIER_hazptr_retire(p) ((void)(p))

/* GenMC's CAS annotations feed optimisations that are off by default
 * (-helper, -confirmation); the code they wrap runs as written */
#define __VERIFIER_final_CAS(...) (__VA_ARGS__)
#define __VERIFIER_helping_CAS(...) do { __VA_ARGS__ } while (0)
#define __VERIFIER_helped_CAS(...) do { __VA_ARGS__ } while (0)
#define __VERIFIER_final_write(...) (__VA_ARGS__)

/* A block GenMC may skip (sleep-waiting, a spin before a retry): whatever it
 * runs ends blocked there, so only executions that skip it complete.  wmx
 * skips it. */
#define __VERIFIER_optional(...) do { } while (0)

#endif
