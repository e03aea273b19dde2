/* cfront.h - C programs in: pthreads and C11 atomics, through clang.
 *
 * A C file is compiled by clang to LLVM IR (a subprocess: `clang -c
 * -emit-llvm -O0 -g`), read back with libLLVM's C API, promoted to SSA
 * registers (mem2reg), and translated into the program IR of ir.h: one wmx
 * thread for main and one for every pthread_create that main (or a thread)
 * reaches.  Calls are inlined, loops unrolled up to `unroll` iterations, and
 * control that depends only on constants is decided while translating.
 * doc/c-input.md lists the subset and the memory-order mapping.
 */
#ifndef WMX_CFRONT_H
#define WMX_CFRONT_H

#include "ir.h"
#include "util.h"

#define CFRONT_MAX_FLAGS 64
#define CFRONT_DEFAULT_UNROLL 8
/* without --unroll, `explore` doubles the bound while executions stop at it,
 * up to this */
#define CFRONT_MAX_AUTO_UNROLL 128

typedef struct cfront_opts {
    int nflags;
    const char *flags[CFRONT_MAX_FLAGS];  /* -DNAME=V, -IDIR: passed to clang */
    int unroll;                           /* loop bound; 0 = the default */
    int unroll_given;                     /* the user set --unroll */
    int plp;                              /* --plp: block time rounds of loops that wrote nothing */
    int no_plp;                           /* --no-plp: C loops without partial loop purity (on by default) */
    int no_spin_assume;                   /* --no-spin-assume: no loop is made an assume */
    int nondet_given;                     /* --nondet LO..HI given */
    long long nondet_lo, nondet_hi;       /* the __VERIFIER_nondet_* domain */
    const wmx_stop *stop;                 /* polled while clang runs (--timeout, Ctrl-C); may be NULL */
} cfront_opts;

/* __VERIFIER_nondet_* values without --nondet: small, and both signs */
#define CFRONT_NONDET_LO (-1)
#define CFRONT_NONDET_HI 2

/* True when the file name says C (ends in .c). */
bool cfront_is_c_file(const char *path);
/* True when this wmx was built with the C front end. */
bool cfront_available(void);
/* Compiles and translates `path`.  NULL + err on failure: a clang
 * diagnostic (file:line:col: message) or `unsupported: WHAT`.  clang runs
 * at most WMX_CLANG_TIMEOUT seconds (default 60), and no longer than o->stop
 * allows (then err->limit is set); its process group is killed at the
 * limit. */
wmx_program *cfront_load(const char *path, const cfront_opts *o, wmx_error *err);
/* Takes -DNAME[=V], -D NAME, -IDIR, -I DIR, --unroll N / --unroll=N and
 * --no-spin-assume out of argv (in place; returns the new argc), and notes
 * --plp (left for explore).  -1 + message in err on a bad
 * value. */
int cfront_take_args(int argc, char **argv, cfront_opts *o, char *err, size_t errn);

#endif
