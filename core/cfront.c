/* cfront.c - C programs in, through clang and LLVM IR (see cfront.h).
 *
 * The translation runs each thread's code once, at translation time, the
 * way an interpreter would, with values that are known constants folded.
 * While every branch is decided by constants ("trace" mode) the code comes
 * out straight: loops over thread ids unroll, pthread_t arrays in main are
 * tracked at translation time, and pthread_create/join name their threads.
 * At the first branch on a value from shared memory the thread switches to
 * "fork" mode: both sides are translated, and each program point (the stack
 * of inlined frames, each at a block entry, with the values live there) is
 * translated once; later arrivals jump to it.  A loop that goes round on a
 * run-time test becomes a loop of the output (enter_edge): a hidden
 * register counts its times round, and one more than --unroll blocks the
 * run (assume, marked bound_cut), so the output does not grow with the
 * bound.
 */
#include "cfront.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* .c, and .i: C already preprocessed (SV-COMP's tasks are mostly .i) */
bool cfront_is_c_file(const char *path)
{
    size_t n = strlen(path);
    return n > 2 && (strcmp(path + n - 2, ".c") == 0 || strcmp(path + n - 2, ".i") == 0);
}

int cfront_take_args(int argc, char **argv, cfront_opts *o, char *err, size_t errn)
{
    int out = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (i > 0 && (strncmp(a, "-D", 2) == 0 || strncmp(a, "-I", 2) == 0)) {
            const char *flag = a;
            if (a[2] == '\0') {
                if (i + 1 >= argc) {
                    snprintf(err, errn, "%s needs a value", a);
                    return -1;
                }
                /* "-D NAME": keep both words as one flag */
                flag = NULL;
                if (o->nflags + 2 > CFRONT_MAX_FLAGS) {
                    snprintf(err, errn, "too many -D/-I options (at most %d)", CFRONT_MAX_FLAGS / 2);
                    return -1;
                }
                o->flags[o->nflags++] = a;
                o->flags[o->nflags++] = argv[++i];
                continue;
            }
            if (o->nflags + 1 > CFRONT_MAX_FLAGS) {
                snprintf(err, errn, "too many -D/-I options (at most %d)", CFRONT_MAX_FLAGS);
                return -1;
            }
            o->flags[o->nflags++] = flag;
            continue;
        }
        if (i > 0 && (strcmp(a, "--unroll") == 0 || strncmp(a, "--unroll=", 9) == 0)) {
            const char *v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            char *end = NULL;
            long n = v ? strtol(v, &end, 10) : -1;
            if (!v || *v == '\0' || *end || n < 1 || n > 100000) {
                snprintf(err, errn, "--unroll: expected a number of iterations 1..100000, got '%s'", v ? v : "");
                return -1;
            }
            o->unroll = (int)n;
            o->unroll_given = 1;
            continue;
        }
        if (i > 0 && (strcmp(a, "--nondet") == 0 || strncmp(a, "--nondet=", 9) == 0)) {
            const char *v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            long long lo = 0, hi = 0;
            int used = 0;
            if (!v || sscanf(v, "%lld..%lld%n", &lo, &hi, &used) != 2 || v[used] != '\0' || lo > hi ||
                hi - lo > 4096) {
                snprintf(err, errn, "--nondet: expected LO..HI with LO <= HI (at most 4097 values), got '%s'",
                         v ? v : "");
                return -1;
            }
            o->nondet_lo = lo;
            o->nondet_hi = hi;
            o->nondet_given = 1;
            continue;
        }
        if (i > 0 && strcmp(a, "--no-spin-assume") == 0) {
            o->no_spin_assume = 1;
            continue;
        }
        if (i > 0 && strcmp(a, "--no-plp") == 0) {
            o->no_plp = 1;
            continue;
        }
        /* --plp stays for explore (its note); the translation needs it too */
        if (i > 0 && (strcmp(a, "--plp") == 0 || strncmp(a, "--plp=", 6) == 0))
            o->plp = 1;
        argv[out++] = argv[i];
    }
    if (out < argc)
        argv[out] = NULL;
    return out;
}

#ifndef WMX_HAVE_LLVM

bool cfront_available(void) { return false; }

wmx_program *cfront_load(const char *path, const cfront_opts *o, wmx_error *err)
{
    (void)o;
    wmx_error_set(err, path, 0, 0,
                  "C input not built: this wmx was configured without LLVM (apt-get install -y clang-14 "
                  "llvm-14-dev, then ./configure && make)");
    return NULL;
}

#else

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dlfcn.h>

#include "cfront_cache.h"
#include "spin_await.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Transforms/PassBuilder.h>

/* configure passes the clang it found, unquoted (make would eat quotes) */
#define WMX_STR2(x) #x
#define WMX_STR(x) WMX_STR2(x)
#ifdef WMX_CLANG_PATH
#define WMX_CLANG WMX_STR(WMX_CLANG_PATH)
#else
#define WMX_CLANG "clang-14"
#endif

/* libLLVM is opened when the first C file is read, not linked: linked, it
 * costs every wmx run (a .wmx or a litmus test too) about 40 ms and 45 MB
 * of relocated pages at start-up.  The table below is filled once and never
 * changes after that. */
#define LLVM_FUNCTIONS(X) \
    X(LLVMABISizeOfType) \
    X(LLVMArrayType) \
    X(LLVMConstIntGetSExtValue) \
    X(LLVMConstIntGetZExtValue) \
    X(LLVMConstRealGetDouble) \
    X(LLVMIsAConstantFP) \
    X(LLVMGetFCmpPredicate) \
    X(LLVMContextCreate) \
    X(LLVMContextDispose) \
    X(LLVMCountBasicBlocks) \
    X(LLVMCountIncoming) \
    X(LLVMCountParams) \
    X(LLVMCountStructElementTypes) \
    X(LLVMCreateMemoryBufferWithContentsOfFile) \
    X(LLVMCreatePassBuilderOptions) \
    X(LLVMCreateTargetData) \
    X(LLVMDisposeErrorMessage) \
    X(LLVMDisposeMessage) \
    X(LLVMDisposeModule) \
    X(LLVMDisposePassBuilderOptions) \
    X(LLVMDisposeTargetData) \
    X(LLVMGetAllocatedType) \
    X(LLVMGetArrayLength) \
    X(LLVMGetAtomicRMWBinOp) \
    X(LLVMGetBasicBlockParent) \
    X(LLVMGetBasicBlockTerminator) \
    X(LLVMGetBasicBlocks) \
    X(LLVMGetCalledValue) \
    X(LLVMGetCondition) \
    X(LLVMGetConstOpcode) \
    X(LLVMGetDataLayoutStr) \
    X(LLVMGetDebugLocColumn) \
    X(LLVMGetDebugLocLine) \
    X(LLVMGetDebugLocDirectory) \
    X(LLVMGetDebugLocFilename) \
    X(LLVMGetElementAsConstant) \
    X(LLVMGetElementType) \
    X(LLVMGetErrorMessage) \
    X(LLVMGetFirstBasicBlock) \
    X(LLVMGetFirstGlobal) \
    X(LLVMGetFirstFunction) \
    X(LLVMGetNextFunction) \
    X(LLVMGetModuleContext) \
    X(LLVMGetNextBasicBlock) \
    X(LLVMInt64TypeInContext) \
    X(LLVMGetFirstInstruction) \
    X(LLVMGetFirstUse) \
    X(LLVMGetGEPSourceElementType) \
    X(LLVMGetICmpPredicate) \
    X(LLVMGetIncomingBlock) \
    X(LLVMGetIncomingValue) \
    X(LLVMGetIndices) \
    X(LLVMGetInitializer) \
    X(LLVMGetInstructionOpcode) \
    X(LLVMGetInstructionParent) \
    X(LLVMGetIntTypeWidth) \
    X(LLVMGetNamedFunction) \
    X(LLVMGetNextGlobal) \
    X(LLVMGetNextInstruction) \
    X(LLVMGetNextUse) \
    X(LLVMGetNumArgOperands) \
    X(LLVMGetNumIndices) \
    X(LLVMGetNumOperands) \
    X(LLVMGetNumSuccessors) \
    X(LLVMGetOperand) \
    X(LLVMGetOrdering) \
    X(LLVMGetParam) \
    X(LLVMGetStructName) \
    X(LLVMGetSuccessor) \
    X(LLVMGetTypeKind) \
    X(LLVMGetUser) \
    X(LLVMGetValueName2) \
    X(LLVMGlobalGetValueType) \
    X(LLVMIsAArgument) \
    X(LLVMIsACallInst) \
    X(LLVMIsAConstantAggregateZero) \
    X(LLVMIsAConstantDataSequential) \
    X(LLVMIsAConstantExpr) \
    X(LLVMIsAConstantInt) \
    X(LLVMIsAConstantPointerNull) \
    X(LLVMIsAFunction) \
    X(LLVMIsAGlobalVariable) \
    X(LLVMIsAInlineAsm) \
    X(LLVMIsAInstruction) \
    X(LLVMIsConditional) \
    X(LLVMIsDeclaration) \
    X(LLVMIsGlobalConstant) \
    X(LLVMIsNull) \
    X(LLVMIsThreadLocal) \
    X(LLVMIsUndef) \
    X(LLVMOffsetOfElement) \
    X(LLVMParseIRInContext) \
    X(LLVMPrintValueToString) \
    X(LLVMRunPasses) \
    X(LLVMStructGetTypeAtIndex) \
    X(LLVMTypeOf)

#define LLVM_DECLARE(f) static __typeof__(&f) p_##f;
LLVM_FUNCTIONS(LLVM_DECLARE)

#ifndef WMX_LLVM_LIB_PATH
#define WMX_LLVM_LIB "libLLVM-14.so.1"
#else
#define WMX_LLVM_LIB WMX_STR(WMX_LLVM_LIB_PATH)
#endif

static int llvm_loaded;

/* 0 when libLLVM is there; else -1 and why */
static int llvm_open(char *why, size_t n)
{
    if (llvm_loaded)
        return 0;
    const char *tries[] = { WMX_LLVM_LIB, "libLLVM-14.so.1", "libLLVM-14.so" };
    void *h = NULL;
    for (size_t i = 0; i < sizeof tries / sizeof *tries && !h; i++)
        h = dlopen(tries[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, n, "C input needs libLLVM 14 (%s); install it with: apt-get install -y llvm-14", dlerror());
        return -1;
    }
#define LLVM_LOAD(f) \
    if (!(*(void **)&p_##f = dlsym(h, #f))) { \
        snprintf(why, n, "libLLVM 14 lacks %s", #f); \
        return -1; \
    }
    LLVM_FUNCTIONS(LLVM_LOAD)
    llvm_loaded = 1;
    return 0;
}

bool cfront_available(void) { return true; }

/* ---- small containers ---------------------------------------------- */

/* One map, byte-string keys -> int, open addressing.  Program points are
 * keyed by their text, LLVM handles (stable pointers) by their bytes. */
typedef struct kmap {
    char **keys;          /* each: its length (size_t), then the bytes */
    int *vals;
    size_t n, cap;
} kmap;

typedef kmap pmap;
typedef kmap smap;

static size_t khash(const char *s, size_t n)
{
    size_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static size_t key_len(const char *key)
{
    size_t len;
    memcpy(&len, key, sizeof len);
    return len;
}

/* The value slot of key k (-1 when new), or NULL when absent and !create. */
static int *kmap_slot(kmap *m, const char *k, size_t kn, int create)
{
    if (create && (m->n + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 64;
        char **nk = wmx_calloc(ncap, sizeof *nk);
        int *nv = wmx_calloc(ncap, sizeof *nv);
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t j = khash(m->keys[i] + sizeof(size_t), key_len(m->keys[i])) & (ncap - 1);
                while (nk[j])
                    j = (j + 1) & (ncap - 1);
                nk[j] = m->keys[i];
                nv[j] = m->vals[i];
            }
        free(m->keys);
        free(m->vals);
        m->keys = nk;
        m->vals = nv;
        m->cap = ncap;
    }
    if (!m->cap)
        return NULL;
    size_t j = khash(k, kn) & (m->cap - 1);
    while (m->keys[j]) {
        if (key_len(m->keys[j]) == kn && memcmp(m->keys[j] + sizeof(size_t), k, kn) == 0)
            return &m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    if (!create)
        return NULL;
    m->keys[j] = wmx_malloc(sizeof kn + kn);
    memcpy(m->keys[j], &kn, sizeof kn);
    memcpy(m->keys[j] + sizeof kn, k, kn);
    m->vals[j] = -1;
    m->n++;
    return &m->vals[j];
}

static void kmap_free(kmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

static int *pmap_slot(pmap *m, const void *k, int create) { return kmap_slot(m, (const char *)&k, sizeof k, create); }
static int *smap_slot(smap *m, const char *k, size_t kn) { return kmap_slot(m, k, kn, 1); }

static int pmap_get(pmap *m, const void *k)
{
    int *s = pmap_slot(m, k, 0);
    return s ? *s : -1;
}

/* ---- values ---------------------------------------------------------- */

enum { CV_NONE, CV_CONST, CV_REG, CV_PTR, CV_FUNC, CV_PAIR };

/* What an SSA value is at translation time.  CV_REG holds integers and
 * byte addresses alike; CV_PTR is an address known while translating: cell
 * `off` (+ the expression `offx`, -1 = none) of memory object `obj`. */
typedef struct cval {
    int kind;
    wmx_val c;
    int reg, reg2;
    int obj, off, offx;
    LLVMValueRef fn;
} cval;

static cval cv_const(wmx_val c) { cval v = { .kind = CV_CONST, .c = c, .offx = -1 }; return v; }
static cval cv_reg(int r) { cval v = { .kind = CV_REG, .reg = r, .offx = -1 }; return v; }

/* A function pointer in memory or a register: above every cell address
 * (ir_cell_address), 8 bytes apart. */
#define FN_BASE ((wmx_val)0x7f000000)

/* A memory object: a global or an alloca of one frame instance.  Globals are
 * real ir variables from the start; an alloca lives at translation time
 * (cells[]) until its address escapes or the thread forks, and then becomes
 * a hidden variable whose initial contents are what it held. */
typedef struct cobj {
    char *name;
    LLVMTypeRef type;     /* its LLVM type: byte offsets map to cells by it */
    int ncells;
    int var;              /* -1 while translation-time only */
    cval *cells;          /* translation-time contents */
    int handle;           /* holds pthread_t values: never made real */
    int touched;          /* an emitted instruction has accessed it */
    int frozen;           /* a global nothing can write: loads fold */
    int written;          /* an emitted instruction writes it */
    int assumed;          /* a load was folded on the guess that none will */
    int thread_writes;    /* a function other than main may write it by name */
    LLVMValueRef tls;     /* a _Thread_local global: main's copy (see tls_copy) */
} cobj;

/* Per function: blocks, values, loops. */
typedef struct finfo {
    LLVMValueRef fn;
    char *name;
    int nblocks;
    LLVMBasicBlockRef *blocks;
    pmap bidx;            /* block -> index */
    pmap vidx;            /* instruction/argument -> value index */
    int nvals;
    int nheaders;
    int *header_of;       /* block -> header slot or -1 */
    unsigned char *inloop;/* [nheaders * nblocks]: block in header's loop */
    unsigned char *back;  /* [nblocks * nblocks]: edge is a back edge */
    unsigned char *spin;  /* [nheaders]: a loop without effects (spin-assume) */
    unsigned char *zne;   /* [nheaders]: a loop whose only writes are exchanges
                           * (see note_rmw_effect), or any loop under --plp */
    unsigned char *plp_phi; /* [nheaders]: --plp, and the header has (integer)
                             * phis: a time round that left them as they were
                             * and wrote nothing is blocked (enter_edge) */
    unsigned char *live;  /* [nblocks * nvals]: live at the block's entry
                             (its phis included: they are set on the edge) */
    unsigned char *ends;  /* [nheaders]: the loop ends by itself (a counter
                           * stepping toward a bound fixed in it: see
                           * ends_by_itself), so --unroll does not cut it */
    unsigned char *unrolled;/* [nheaders]: the loop does what only translation
                             * can do (creates threads, allocates, draws a
                             * nondet value): after a fork it is still copied
                             * per time round, as before loops were kept */
    int sink;             /* -1 unknown, 0 no, 1 the function always fails */
} finfo;

/* One inlined call: its environment (value -> cval) and register names. */
typedef struct finst {
    finfo *fi;
    cval *env;            /* [fi->nvals] */
    int *regs;            /* [fi->nvals] register per value, -1 none */
    int *allocas;         /* [fi->nvals] object per alloca, -1 none */
    int *eff;             /* [fi->nheaders] per zne loop: a register, "this
                           * iteration changed memory", -1 none yet */
    int *count;           /* [fi->nheaders] per kept loop: the register that
                           * counts its back edges at run time, -1 none yet */
} finst;

/* Slots of frame.counters per loop, and what a time round's exit tests were */
#define CTR_SLOTS 3
/* A loop decided by constants after a fork is copied per time round up to
 * this many times, then kept as a loop (and bounded by --unroll). */
#define FOLD_ROUNDS_MAX 1024
/* A loop copied per time round after a fork (see loop_needs_copies) that
 * ends by itself goes round up to this many times (or --unroll's count),
 * while the program has fewer than COPIED_ENDS_THREADS threads. */
#define COPIED_ENDS_ROUNDS 64
#define COPIED_ENDS_THREADS 128
/* Elements of a malloc whose size is known only at run time (at least;
 * --unroll's count if larger): a run that asks for more is cut there. */
#define MALLOC_RUN_TIME_CAP 16
/* Times round a loop that ends by itself (ends_by_itself) may go before it
 * is cut all the same. */
#define ENDS_ROUNDS_MAX 65536
/* values at the constants a nondet value is compared with, per call */
#define NONDET_EXTRA_MAX 12
/* How a loop's time round went (frame.counters' third slot): its exit tests
 * decided by constants or at run time, and whether it read a global that
 * nothing writes (a frozen fold: such a loop ends by itself or never). */
enum { EXIT_FOLDED = 1, EXIT_RUNTIME = 2, ROUND_FROZEN_READ = 4 };

typedef struct frame {
    int inst;             /* finst index */
    int bb;               /* current block */
    int pos;              /* instruction position within bb */
    LLVMValueRef at;      /* next instruction */
    int *counters;        /* [nheaders] back edges taken in each loop, then
                           * [nheaders] c->shared_folds at the loop's last turn,
                           * then [nheaders] how this time round's tests that
                           * leave the loop were decided (EXIT_*) */
    LLVMValueRef call;    /* the call in the caller that this frame answers */
    int atomic_open;      /* __VERIFIER_atomic_begin()s not yet ended here */
    int atomic_fn;        /* an inlined __VERIFIER_atomic_* function */
    int dtor_next;        /* a TLS destructor's frame: 1 + the next key to
                           * look at when it returns (0: not one) */
} frame;

typedef struct pending {
    frame *stack;
    cval **envs;          /* each frame's environment, as it was */
    cval *handles;        /* the pthread_t objects' cells, as they were (each
                           * way of a fork creates its own threads) */
    int *handle_objs;     /* which objects, in that order */
    int nhandle_objs;
    int depth;
    int from, to;         /* the edge's blocks in the top frame */
    int jump;             /* the JUMP instruction to point here */
    int dtor_key;         /* > 0: not an edge but thread_exit's keys from
                           * this one on (a destructor skipped) */
    LLVMValueRef call, fn; /* fn: not an edge but this call through a
                            * pointer, to fn */
} pending;

typedef struct cthread {
    LLVMValueRef fn;
    cval arg;
    int t;                /* ir thread index */
    int gated;            /* waits for $start */
    int start_var, done_var;
    int creator;
    int arg_var;          /* its argument when computed at run time: a cell
                           * the creator writes before starting it, -1 none */
    int ret_var1;         /* var + 1 where its result goes (pthread_join's
                           * result pointer), 0 none */
} cthread;

/* a struct type's cells (see struct_layout) */
typedef struct struct_cells {
    int cells;            /* -1: a type wmx cannot hold */
    unsigned nfields;     /* fields laid out (all of them when cells >= 0) */
    int *first;           /* [nfields + 1]: each field's first cell, then the total */
} struct_cells;

typedef struct cfront {
    wmx_program *p;
    const char *path;
    wmx_error *err;
    int failed;
    LLVMModuleRef mod;
    LLVMContextRef ctx;
    LLVMTargetDataRef td; /* the module's data layout, for byte offsets */
    pmap fidx;            /* function -> finfo index */
    finfo **funcs;        /* each its own allocation: frames point at them */
    int nfuncs;
    cobj *objs;
    int nobjs, capobjs;
    pmap gobj;            /* global -> object */
    cthread *threads;
    int nthreads;
    finst *insts;
    int ninsts;
    int unroll, unroll_given;
    int plp;              /* --plp: a loop's time round that wrote nothing is blocked */
    int no_spin_assume;   /* --no-spin-assume: spin and exchange loops are unrolled */
    char **lines;         /* source lines, for instruction text */
    struct srcfile { char *name; char **lines; int nlines, same; } *incs;
    int nincs;            /* files the program #includes, read when shown */
    int nlines;
    long budget;          /* translation steps left */
    const wmx_stop *stop; /* --timeout, Ctrl-C: polled every 1024 steps */
    /* the thread being translated */
    int cur;              /* cthread index */
    int t;
    int forked;
    int visible;          /* a visible instruction has been emitted */
    frame *stack;
    int depth, cap;
    smap memo;
    pending *work;
    int nwork, capwork;
    int path_done;
    LLVMValueRef here;    /* instruction being translated, for errors */
    /* joins not yet emitted: a join is only needed before the joiner's next
     * visible step, and a thread that ends after its joins needs none */
    int *joins;
    LLVMValueRef *join_at;  /* each pending join's own call (its line) */
    int njoins, capjoins, flushing;
    int prelude_over;     /* main reached memory through an unknown pointer */
    /* folding loads of memory nothing writes after main's prelude (see
     * fold_unwritten); a wrong guess translates the program again */
    int prelude_objs;     /* objects that exist when main creates a thread */
    unsigned char *nofold;/* [prelude_objs] guessed wrong in an earlier pass */
    int nofold_n, nofold_all;
    int wild_write;       /* a store through an address not known here */
    int restart;
    int shared_folds;     /* loads of shared memory folded outside the prelude */
    struct { int obj, off; wmx_val count; } *barriers;  /* pthread_barrier_init's N */
    int nbarriers, capbarriers;
    struct { int obj, thread, copy; } *tls_copies;
    int ntls_copies;
    /* __VERIFIER_nondet_* reads: each call site read is a load of a cell of
     * its own that a hidden thread writes every other value of the domain
     * to (see add_nondet_thread), so every explorer tries each value as a
     * reads-from choice (a loop that reads one is mostly copied per time
     * round, so each load runs at most once) */
    struct { int var; wmx_val lo, hi; int nextra; wmx_val extra[NONDET_EXTRA_MAX]; } *nondets;
    int nnondets;
    long long nondet_lo, nondet_hi;
    int nondet_given;     /* --nondet: exactly that range, no values added */
    int next_key;         /* pthread_key_create's next key */
    LLVMValueRef *key_dtor; /* [next_key + 1]: each key's destructor, or NULL */
    kmap create_sites;    /* a pthread_create's dynamic instance (see
                           * thread_create) -> the thread it started */
    LLVMValueRef *fns;    /* functions with a body whose address is taken: a
                           * pointer to fns[i] is the value FN_BASE + 8 i */
    int nfns;
    int atomic_var;       /* the lock of SV-COMP's atomic sections, -1 none yet */
    int hit_guard;        /* see memo_here: a loop count register, -1 none */
    int hit_guard_bound;  /* and the times round it allows */
    pmap layout_idx;      /* struct type -> layouts index */
    struct_cells *layouts;
    int nlayouts, caplayouts;
} cfront;

/* Main before its first pthread_create runs alone, so memory holds exactly
 * what main put there.  A global that no emitted instruction has touched
 * is then read and written at translation time, and main's stores become
 * its initial value: no events, and the threads main creates need not wait
 * for them (SV-COMP and GenMC tests set up their globals this way). */
static int in_prelude(const cfront *c)
{
    return c->cur == 0 && c->nthreads == 1 && !c->forked && !c->prelude_over;
}

/* Memory that exists when main creates its first thread and that no
 * emitted instruction writes keeps its contents for ever, so its loads
 * fold.  "No emitted instruction writes it" is a guess while the threads
 * are still being translated: a later write marks the object and the whole
 * program is translated again without the guess (note_write). */
static int fold_unwritten(cfront *c, int o)
{
    cobj *ob = &c->objs[o];
    if (ob->frozen)
        return 1;
    if (c->prelude_objs == 0 || o >= c->prelude_objs || ob->var < 0 || ob->written || ob->thread_writes || c->nofold_all ||
        c->wild_write || (c->nofold && c->nofold[o]))
        return 0;
    ob->assumed = 1;
    return 1;
}

static void note_write(cfront *c, int o)
{
    if (o < 0) {
        c->wild_write = 1;
        for (int k = 0; k < c->nobjs; k++)
            if (c->objs[k].assumed) {
                c->nofold_all = 1;
                c->restart = 1;
            }
        return;
    }
    c->objs[o].written = 1;
    if (c->objs[o].assumed) {
        if (!c->nofold) {
            c->nofold_n = c->prelude_objs;
            c->nofold = wmx_calloc((size_t)c->nofold_n, 1);
        }
        if (o < c->nofold_n)
            c->nofold[o] = 1;
        else
            c->nofold_all = 1;
        c->restart = 1;
    }
}

/* Whether object o's cells[] are its contents now (not only its start). */
static int cells_current(const cfront *c, int o)
{
    const cobj *ob = &c->objs[o];
    if (ob->var < 0)
        return !c->forked || ob->handle;
    return in_prelude(c) && !ob->touched;
}

struct srcfile;
static struct srcfile *included_file(cfront *c, LLVMValueRef at);

static void fail(cfront *c, LLVMValueRef at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void fail(cfront *c, LLVMValueRef at, const char *fmt, ...)
{
    if (c->failed)
        return;
    c->failed = 1;
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int line = 0, col = 0;
    if (!at)
        at = c->here;
    const char *file = c->path;
    if (at && p_LLVMIsAInstruction(at)) {
        line = (int)p_LLVMGetDebugLocLine(at);
        col = (int)p_LLVMGetDebugLocColumn(at);
        struct srcfile *inc = included_file(c, at);
        if (inc)
            file = inc->name;
        /* an alloca has no place of its own: the next instruction of its
         * block that has one (the local's first use), else its function's
         * line */
        for (LLVMValueRef x = p_LLVMGetNextInstruction(at); !line && x; x = p_LLVMGetNextInstruction(x))
            if (p_LLVMGetDebugLocLine(x) > 0 && !included_file(c, x)) {
                line = (int)p_LLVMGetDebugLocLine(x);
                col = (int)p_LLVMGetDebugLocColumn(x);
            }
        if (!line) {
            LLVMValueRef fn = p_LLVMGetBasicBlockParent(p_LLVMGetInstructionParent(at));
            line = fn ? (int)p_LLVMGetDebugLocLine(fn) : 0;
            col = line ? 1 : 0;
        }
    }
    wmx_error_set(c->err, file, line, col, "%s", msg);
    c->path_done = 1;
}

static const char *vname(LLVMValueRef v)
{
    size_t n = 0;
    const char *s = p_LLVMGetValueName2(v, &n);
    return s && n ? s : "?";
}

/* ---- types and layout ---------------------------------------------- */

static int is_mutex_type(LLVMTypeRef t)
{
    if (p_LLVMGetTypeKind(t) != LLVMStructTypeKind)
        return 0;
    const char *n = p_LLVMGetStructName(t);
    /* one cell each: a mutex's lock word, a barrier's arrival count */
    return n && (strcmp(n, "union.pthread_mutex_t") == 0 || strcmp(n, "union.mtx_t") == 0 ||
                 strcmp(n, "union.pthread_barrier_t") == 0);
}

/* A struct's layout in cells, computed once per type: type_cells, a
 * field's first cell and the field holding a cell then cost O(1) and
 * O(log fields), not a walk of every field (a struct of 4000 ints was
 * cubic to translate, issue 47). */
static const struct_cells *struct_layout(cfront *c, LLVMTypeRef t);

/* cells a value of type t takes: one per scalar leaf; -1 unsupported */
static int type_cells(cfront *c, LLVMTypeRef t)
{
    switch (p_LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
    case LLVMPointerTypeKind:
    case LLVMDoubleTypeKind:
    case LLVMFloatTypeKind:
        return 1;
    case LLVMArrayTypeKind: {
        int e = type_cells(c, p_LLVMGetElementType(t));
        long n = (long)p_LLVMGetArrayLength(t) * e;
        return e < 0 || n > 65536 ? -1 : (int)n;
    }
    case LLVMStructTypeKind:
        return struct_layout(c, t)->cells;
    default:
        return -1;
    }
}

static const struct_cells *struct_layout(cfront *c, LLVMTypeRef t)
{
    int *slot = pmap_slot(&c->layout_idx, t, 0);
    if (slot)
        return &c->layouts[*slot];
    struct_cells l = { .cells = -1 };
    const char *n = p_LLVMGetStructName(t);
    unsigned k = p_LLVMCountStructElementTypes(t);
    /* a union LLVM lays out as one member and padding bytes (glibc's
     * pthread_attr_t: { i64, [48 x i8] }): its cells are that member's
     * and the padding's, as a struct's (the other members alias them byte
     * for byte) */
    bool padded_union = n && strncmp(n, "union.", 6) == 0 && k > 1;
    for (unsigned i = 1; i < k && padded_union; i++) {
        LLVMTypeRef ft = p_LLVMStructGetTypeAtIndex(t, i);
        padded_union = p_LLVMGetTypeKind(ft) == LLVMArrayTypeKind &&
                       p_LLVMGetTypeKind(p_LLVMGetElementType(ft)) == LLVMIntegerTypeKind &&
                       p_LLVMGetIntTypeWidth(p_LLVMGetElementType(ft)) == 8;
    }
    if (is_mutex_type(t)) {
        l.cells = 1;
    } else if (!(n && strncmp(n, "union.", 6) == 0 && k != 1) || padded_union) {
        l.first = wmx_malloc(((size_t)k + 1) * sizeof *l.first);
        long s = 0;
        unsigned i = 0;
        for (; i < k; i++) {
            int e = type_cells(c, p_LLVMStructGetTypeAtIndex(t, i));
            if (e < 0 || s + e > INT_MAX / 2)
                break;
            l.first[i] = (int)s;
            s += e;
        }
        l.first[i] = (int)s;
        if (i == k)
            l.cells = (int)s;
        l.nfields = i;
    }
    /* the fields' layouts went in first: slots only now */
    if (c->nlayouts == c->caplayouts) {
        c->caplayouts = c->caplayouts ? 2 * c->caplayouts : 16;
        c->layouts = wmx_realloc(c->layouts, (size_t)c->caplayouts * sizeof *c->layouts);
    }
    c->layouts[c->nlayouts] = l;
    *pmap_slot(&c->layout_idx, t, 1) = c->nlayouts;
    return &c->layouts[c->nlayouts++];
}

/* the first cell of field k of struct st */
static int field_offset(cfront *c, LLVMTypeRef st, unsigned k)
{
    const struct_cells *l = struct_layout(c, st);
    return l->first && k <= l->nfields ? l->first[k] : 0;
}

/* the field of struct st that holds cell `cell`, -1 none */
static int field_of_cell(cfront *c, LLVMTypeRef st, int cell)
{
    const struct_cells *l = struct_layout(c, st);
    if (!l->first || cell < 0 || cell >= l->first[l->nfields])
        return -1;
    unsigned lo = 0, hi = l->nfields;     /* first[lo] <= cell < first[hi] */
    while (hi - lo > 1) {
        unsigned mid = lo + (hi - lo) / 2;
        if (l->first[mid] <= cell)
            lo = mid;
        else
            hi = mid;
    }
    /* the last field starting at or before the cell: one of no cells (an
     * empty struct) shares its first cell with the next */
    return (int)lo;
}

/* the field of struct t whose bytes hold byte `byte`, -1 none (padding) */
static int field_of_byte(cfront *c, LLVMTypeRef t, long byte)
{
    unsigned k = p_LLVMCountStructElementTypes(t);
    if (k == 0 || byte < 0 || (long)p_LLVMOffsetOfElement(c->td, t, 0) > byte)
        return -1;
    /* the last field starting at or before the byte: offsets only grow, and
     * a zero-sized field shares its offset with the next one */
    unsigned lo = 0, hi = k;    /* offset(lo) <= byte < offset(hi) */
    while (hi - lo > 1) {
        unsigned mid = lo + (hi - lo) / 2;
        if ((long)p_LLVMOffsetOfElement(c->td, t, mid) <= byte)
            lo = mid;
        else
            hi = mid;
    }
    long off = (long)p_LLVMOffsetOfElement(c->td, t, lo);
    long sz = (long)p_LLVMABISizeOfType(c->td, p_LLVMStructGetTypeAtIndex(t, lo));
    return byte < off + sz ? (int)lo : -1;
}

/* The cell holding byte `byte` of a value of type t, -1 when the byte is
 * not the start of a scalar (clang writes some constant addresses as
 * i8 offsets: `getelementptr (i8, ..., i64 4)`). */
static int byte_to_cell(cfront *c, LLVMTypeRef t, long byte)
{
    switch (p_LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
    case LLVMPointerTypeKind:
    case LLVMDoubleTypeKind:
    case LLVMFloatTypeKind:
        return byte == 0 ? 0 : -1;
    case LLVMArrayTypeKind: {
        LLVMTypeRef e = p_LLVMGetElementType(t);
        long esz = (long)p_LLVMABISizeOfType(c->td, e);
        if (esz <= 0 || byte < 0 || byte / esz >= (long)p_LLVMGetArrayLength(t))
            return byte == esz * (long)p_LLVMGetArrayLength(t) ? type_cells(c, t) : -1;
        int in = byte_to_cell(c, e, byte % esz);
        return in < 0 ? -1 : (int)(byte / esz) * type_cells(c, e) + in;
    }
    case LLVMStructTypeKind: {
        if (is_mutex_type(t))
            return byte == 0 ? 0 : -1;
        int i = field_of_byte(c, t, byte);
        if (i < 0)
            return -1;
        long off = (long)p_LLVMOffsetOfElement(c->td, t, (unsigned)i);
        int in = byte_to_cell(c, p_LLVMStructGetTypeAtIndex(t, (unsigned)i), byte - off);
        return in < 0 ? -1 : field_offset(c, t, (unsigned)i) + in;
    }
    default:
        return -1;
    }
}

static long cell_to_byte(cfront *c, LLVMTypeRef t, int cell)
{
    switch (p_LLVMGetTypeKind(t)) {
    case LLVMArrayTypeKind: {
        LLVMTypeRef e = p_LLVMGetElementType(t);
        int ec = type_cells(c, e);
        if (ec <= 0)
            return -1;
        long in = cell_to_byte(c, e, cell % ec);
        return in < 0 ? -1 : (long)(cell / ec) * (long)p_LLVMABISizeOfType(c->td, e) + in;
    }
    case LLVMStructTypeKind: {
        if (is_mutex_type(t))
            return 0;
        int i = field_of_cell(c, t, cell);
        if (i < 0)
            return -1;
        long in = cell_to_byte(c, p_LLVMStructGetTypeAtIndex(t, (unsigned)i), cell - field_offset(c, t, (unsigned)i));
        return in < 0 ? -1 : (long)p_LLVMOffsetOfElement(c->td, t, (unsigned)i) + in;
    }
    default:
        return cell == 0 ? 0 : -1;
    }
}

/* C's double and float: values held as a double's 64 bits (ir.h) */
static int is_float_type(LLVMTypeRef t)
{
    LLVMTypeKind k = p_LLVMGetTypeKind(t);
    return k == LLVMDoubleTypeKind || k == LLVMFloatTypeKind;
}

static int int_width(LLVMTypeRef t)
{
    if (p_LLVMGetTypeKind(t) == LLVMIntegerTypeKind)
        return (int)p_LLVMGetIntTypeWidth(t);
    return 64;          /* pointers */
}

/* ---- expressions ----------------------------------------------------- */

static wmx_val sext_w(wmx_val v, int w)
{
    if (w >= 64)
        return v;
    if (w == 1)
        return v & 1;
    uint64_t m = (1ull << w) - 1, s = 1ull << (w - 1);
    uint64_t u = ((uint64_t)v & m) ^ s;
    return (wmx_val)(u - s);
}

static wmx_val zext_w(wmx_val v, int w)
{
    if (w >= 64)
        return v;
    return (wmx_val)((uint64_t)v & ((1ull << w) - 1));
}

static int e_const(cfront *c, wmx_val v) { return ir_const(c->p, v); }
static int e_bin(cfront *c, ir_op op, int a, int b) { return ir_binop(c->p, op, a, b); }

/* sign-extended canonical form of a w-bit value held in 64 bits */
static int e_norm(cfront *c, int e, int w)
{
    if (w >= 64)
        return e;
    if (w == 1)
        return e_bin(c, OP_AND, e, e_const(c, 1));
    wmx_val m = (wmx_val)((1ull << w) - 1), s = (wmx_val)(1ull << (w - 1));
    return e_bin(c, OP_SUB, e_bin(c, OP_XOR, e_bin(c, OP_AND, e, e_const(c, m)), e_const(c, s)), e_const(c, s));
}

static int e_zext(cfront *c, int e, int w)
{
    if (w >= 64)
        return e;
    return e_bin(c, OP_AND, e, e_const(c, (wmx_val)((1ull << w) - 1)));
}

static void obj_make_real(cfront *c, int o);

/* The value of a pointer to function f (see FN_BASE). */
static wmx_val fn_code(cfront *c, LLVMValueRef f)
{
    for (int i = 0; i < c->nfns; i++)
        if (c->fns[i] == f)
            return FN_BASE + 8 * (wmx_val)i;
    fail(c, NULL, "unsupported: a pointer to '%s', which has no body", vname(f));
    return 0;
}

static int e_addr_of_cell(cfront *c, int obj, int off)
{
    obj_make_real(c, obj);
    int e = ir_const(c->p, c->p->vars[c->objs[obj].var].base + off);
    c->p->exprs[e].op = OP_ADDR;
    return e;
}

/* the value as an expression; pointers become byte addresses */
static int e_of(cfront *c, cval v)
{
    switch (v.kind) {
    case CV_CONST: return e_const(c, v.c);
    case CV_REG: return ir_reg(c->p, v.reg);
    case CV_PTR: {
        int e = e_addr_of_cell(c, v.obj, v.off);
        if (v.offx >= 0)
            e = e_bin(c, OP_ADD, e, e_bin(c, OP_MUL, v.offx, e_const(c, 8)));
        return e;
    }
    case CV_FUNC:
        return e_const(c, fn_code(c, v.fn));
    default:
        fail(c, NULL, "unsupported: a value of this type");
        return e_const(c, 0);
    }
}

/* ---- objects ----------------------------------------------------------- */

static int obj_new(cfront *c, const char *name, int ncells)
{
    if (c->nobjs == c->capobjs) {
        /* doubling: one more each time copied every object per global */
        c->capobjs = c->capobjs ? 2 * c->capobjs : 16;
        c->objs = wmx_realloc(c->objs, (size_t)c->capobjs * sizeof *c->objs);
    }
    cobj *o = &c->objs[c->nobjs];
    memset(o, 0, sizeof *o);
    o->name = wmx_strdup(name);
    o->ncells = ncells;
    o->var = -1;
    o->cells = wmx_calloc((size_t)(ncells ? ncells : 1), sizeof *o->cells);
    for (int i = 0; i < ncells; i++)
        o->cells[i] = cv_const(0);
    return c->nobjs++;
}

static wmx_val cval_init_value(cfront *c, cval v)
{
    if (v.kind == CV_CONST)
        return v.c;
    if (v.kind == CV_PTR && v.offx < 0) {
        obj_make_real(c, v.obj);
        return ir_cell_address(c->p, c->p->vars[c->objs[v.obj].var].base + v.off);
    }
    if (v.kind == CV_FUNC)
        return fn_code(c, v.fn);
    fail(c, NULL, "unsupported: this initial value");
    return 0;
}

static void obj_make_real(cfront *c, int o)
{
    cobj *ob = &c->objs[o];
    if (ob->var >= 0)
        return;
    char name[160];
    snprintf(name, sizeof name, "%s", ob->name);
    int v = ir_add_var(c->p, name, ob->ncells ? ob->ncells : 1);
    for (int k = 2; v < 0 && k < 1000; k++) {
        snprintf(name, sizeof name, "%s.%d", ob->name, k);
        v = ir_add_var(c->p, name, ob->ncells ? ob->ncells : 1);
    }
    ob = &c->objs[o];
    ob->var = v;
    c->p->vars[v].elem_size = 8;
    for (int i = 0; i < ob->ncells; i++) {
        cval cv = ob->cells[i];
        wmx_val init = cval_init_value(c, cv);
        c->p->cell_init[c->p->vars[c->objs[o].var].base + i] = init;
    }
}

/* A translation-time write; a real object's initial value follows it
 * (main's prelude, see in_prelude). */
static void obj_set_cell(cfront *c, int o, int off, cval v)
{
    c->objs[o].cells[off] = v;
    if (c->objs[o].var >= 0) {
        wmx_val init = cval_init_value(c, v);
        c->p->cell_init[c->p->vars[c->objs[o].var].base + off] = init;
    }
}

/* Fills cells [off, ...) of a translation-time object from a constant. */
static void const_fill(cfront *c, LLVMValueRef k, LLVMTypeRef t, cval *cells, int *off);

static cval const_val(cfront *c, LLVMValueRef v);

static void const_fill(cfront *c, LLVMValueRef k, LLVMTypeRef t, cval *cells, int *off)
{
    int n = type_cells(c, t);
    if (!k || p_LLVMIsAConstantAggregateZero(k) || p_LLVMIsNull(k) || p_LLVMIsUndef(k)) {
        for (int i = 0; i < n; i++)
            cells[(*off)++] = cv_const(0);
        return;
    }
    LLVMTypeKind kind = p_LLVMGetTypeKind(t);
    if (kind == LLVMIntegerTypeKind || kind == LLVMPointerTypeKind || is_float_type(t)) {
        cells[(*off)++] = const_val(c, k);
        return;
    }
    if (kind == LLVMStructTypeKind && is_mutex_type(t)) {
        cells[(*off)++] = cv_const(0);
        return;
    }
    if (kind == LLVMArrayTypeKind) {
        unsigned len = p_LLVMGetArrayLength(t);
        LLVMTypeRef et = p_LLVMGetElementType(t);
        if (p_LLVMIsAConstantDataSequential(k)) {
            for (unsigned i = 0; i < len; i++)
                const_fill(c, p_LLVMGetElementAsConstant(k, i), et, cells, off);
        } else {
            for (unsigned i = 0; i < len; i++)
                const_fill(c, p_LLVMGetOperand(k, i), et, cells, off);
        }
        return;
    }
    if (kind == LLVMStructTypeKind) {
        unsigned nf = p_LLVMCountStructElementTypes(t);
        for (unsigned i = 0; i < nf; i++)
            const_fill(c, p_LLVMGetOperand(k, i), p_LLVMStructGetTypeAtIndex(t, i), cells, off);
        return;
    }
    fail(c, NULL, "unsupported: an initializer of this type");
    for (int i = 0; i < n; i++)
        cells[(*off)++] = cv_const(0);
}

/* ---- functions: blocks, values, loops ---------------------------------- */

/* The value of v if cmpxchg `cas` succeeded, through the bit tests clang
 * puts between a cmpxchg and its branch: 1 known (*out set), 0 unknown. */
static int value_if_success(LLVMValueRef v, LLVMValueRef cas, long *out, int depth, LLVMBasicBlockRef at,
                            LLVMBasicBlockRef from)
{
    if (depth > 8)
        return 0;
    if (p_LLVMIsAConstantInt(v)) {
        *out = (long)p_LLVMConstIntGetZExtValue(v);
        return 1;
    }
    if (!p_LLVMIsAInstruction(v))
        return 0;
    long a, b;
    switch (p_LLVMGetInstructionOpcode(v)) {
    case LLVMPHI:
        /* `a && b` leaves a phi: its value on the edge the search took */
        if (!from || p_LLVMGetInstructionParent(v) != at)
            return 0;
        for (unsigned j = 0; j < p_LLVMCountIncoming(v); j++)
            if (p_LLVMGetIncomingBlock(v, j) == from)
                return value_if_success(p_LLVMGetIncomingValue(v, j), cas, out, depth + 1, NULL, NULL);
        return 0;
    case LLVMExtractValue:
        if (p_LLVMGetOperand(v, 0) == cas && p_LLVMGetNumIndices(v) == 1 && p_LLVMGetIndices(v)[0] == 1) {
            *out = 1;
            return 1;
        }
        return 0;
    case LLVMZExt:
        return value_if_success(p_LLVMGetOperand(v, 0), cas, out, depth + 1, at, from);
    case LLVMTrunc:
        if (!value_if_success(p_LLVMGetOperand(v, 0), cas, &a, depth + 1, at, from))
            return 0;
        *out = int_width(p_LLVMTypeOf(v)) == 1 ? (a & 1) : a;
        return 1;
    case LLVMXor:
    case LLVMAnd:
    case LLVMOr:
        if (!value_if_success(p_LLVMGetOperand(v, 0), cas, &a, depth + 1, at, from) ||
            !value_if_success(p_LLVMGetOperand(v, 1), cas, &b, depth + 1, at, from))
            return 0;
        *out = p_LLVMGetInstructionOpcode(v) == LLVMXor ? (a ^ b) : p_LLVMGetInstructionOpcode(v) == LLVMAnd ? (a & b) : (a | b);
        return 1;
    case LLVMICmp: {
        LLVMIntPredicate pr = p_LLVMGetICmpPredicate(v);
        if ((pr != LLVMIntEQ && pr != LLVMIntNE) || !value_if_success(p_LLVMGetOperand(v, 0), cas, &a, depth + 1, at, from) ||
            !value_if_success(p_LLVMGetOperand(v, 1), cas, &b, depth + 1, at, from))
            return 0;
        *out = (pr == LLVMIntEQ) == (a == b);
        return 1;
    }
    default:
        return 0;
    }
}

/* Whether loop k goes round again only when cmpxchg `cas` failed: no path
 * from the cmpxchg back to the header exists once the branches that test
 * its success bit are taken the success way.  A failed cmpxchg only reads,
 * so such a loop still waits like a loop of loads (GenMC treats CAS loops
 * the same way). */
/* Inline assembly that only orders memory: the x86 the models stand for.
 * mfence and a lock-prefixed instruction on the stack (the
 * "lock; addl $0,0(%rsp)" idiom) are a full fence; an empty asm (a
 * compiler barrier), nop, pause, lfence and sfence order nothing that
 * x86-TSO does not already order.  Anything else would need an x86
 * interpreter: refused by name. */
enum { ASM_UNSUPPORTED = -1, ASM_NOTHING = 0, ASM_FENCE = 1 };

static int asm_kind(LLVMValueRef in)
{
    char *txt = p_LLVMPrintValueToString(in);
    const char *q = strstr(txt, " asm ");
    q = q ? strchr(q, '"') : NULL;
    char code[200];
    size_t n = 0;
    int whole = 1;
    for (q = q ? q + 1 : NULL; q && *q && *q != '"'; q++) {
        if (n + 1 >= sizeof code) {
            whole = 0;          /* longer than any fence idiom */
            break;
        }
        if (q[0] == '\\' && q[1] && q[2]) {      /* \XX: a byte in hex */
            char hex[3] = { q[1], q[2], 0 };
            code[n++] = (char)strtol(hex, NULL, 16);
            q += 2;
        } else {
            code[n++] = *q >= 'A' && *q <= 'Z' ? (char)(*q - 'A' + 'a') : *q;
        }
    }
    code[n] = '\0';
    int returns = p_LLVMGetTypeKind(p_LLVMTypeOf(in)) != LLVMVoidTypeKind;
    p_LLVMDisposeMessage(txt);
    int fence = 0, ok = !returns && whole, locked = 0;
    for (char *save = NULL, *ins = strtok_r(code, ";\n", &save); ins && ok; ins = strtok_r(NULL, ";\n", &save)) {
        while (*ins == ' ' || *ins == '\t')
            ins++;
        size_t k = strlen(ins);
        while (k > 0 && (ins[k - 1] == ' ' || ins[k - 1] == '\t'))
            ins[--k] = '\0';
        if (strcmp(ins, "lock") == 0) {           /* "lock; addl ...": the prefix alone */
            locked = 1;
            continue;
        }
        if (strncmp(ins, "lock ", 5) == 0) {
            locked = 1;
            ins += 5;
        }
        if (locked) {
            /* a locked instruction on the stack only: a full fence */
            ok = strstr(ins, "sp)") != NULL;
            fence = 1;
            locked = 0;
        } else if (strcmp(ins, "mfence") == 0)
            fence = 1;
        else if (!(k == 0 || strcmp(ins, "nop") == 0 || strcmp(ins, "pause") == 0 || strcmp(ins, "rep") == 0 ||
                   strcmp(ins, "lfence") == 0 || strcmp(ins, "sfence") == 0))
            ok = 0;
    }
    return !ok ? ASM_UNSUPPORTED : fence ? ASM_FENCE : ASM_NOTHING;
}

/* What a call may do to memory, for the spin-loop rules: EFFECT_NONE (it
 * only reads and computes, like GenMC's "clean" functions), EFFECT_RMW (its
 * only writes are exchanges and compare-exchanges, which may leave memory
 * as it was), EFFECT_ANY otherwise. */
enum { EFFECT_NONE, EFFECT_RMW, EFFECT_ANY };

/* v without the constant bitcasts around it (a function cast to another
 * pointer type: old-style declarations, `(void *(*)(void *))f`). */
static LLVMValueRef strip_bitcasts(LLVMValueRef v)
{
    while (v && p_LLVMIsAConstantExpr(v) && p_LLVMGetConstOpcode(v) == LLVMBitCast)
        v = p_LLVMGetOperand(v, 0);
    return v;
}

static LLVMValueRef called_fn(LLVMValueRef call)
{
    LLVMValueRef f = strip_bitcasts(p_LLVMGetCalledValue(call));
    return f && p_LLVMIsAFunction(f) ? f : NULL;
}

static int fn_effects(LLVMValueRef fn, int depth);

/* Debug and lifetime intrinsics, GenMC's loop markers and empty inline
 * assembly: calls that touch no memory at all. */
static int call_is_marker(LLVMValueRef call)
{
    if (p_LLVMIsAInlineAsm(p_LLVMGetCalledValue(call)))
        return asm_kind(call) == ASM_NOTHING;
    LLVMValueRef g = called_fn(call);
    if (!g)
        return 0;
    const char *gn = vname(g);
    return strncmp(gn, "llvm.dbg.", 9) == 0 || strncmp(gn, "llvm.lifetime.", 14) == 0 ||
           strcmp(gn, "__VERIFIER_spin_start") == 0 || strcmp(gn, "__VERIFIER_spin_end") == 0 ||
           strcmp(gn, "__VERIFIER_loop_begin") == 0;
}

static int call_effects(LLVMValueRef call, int depth)
{
    if (call_is_marker(call))
        return EFFECT_NONE;
    if (p_LLVMIsAInlineAsm(p_LLVMGetCalledValue(call)))   /* a fence only waits */
        return asm_kind(call) == ASM_FENCE ? EFFECT_NONE : EFFECT_ANY;
    LLVMValueRef g = called_fn(call);
    if (!g || p_LLVMIsDeclaration(g) || depth > 8)
        return EFFECT_ANY;
    return fn_effects(g, depth + 1);
}

static int fn_effects(LLVMValueRef fn, int depth)
{
    int e = EFFECT_NONE;
    for (LLVMBasicBlockRef bb = p_LLVMGetFirstBasicBlock(fn); bb && e != EFFECT_ANY; bb = p_LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef x = p_LLVMGetFirstInstruction(bb); x && e != EFFECT_ANY; x = p_LLVMGetNextInstruction(x)) {
            int xe = EFFECT_NONE;
            switch (p_LLVMGetInstructionOpcode(x)) {
            case LLVMStore: case LLVMAlloca:   /* a fence only waits: none */
                xe = EFFECT_ANY;
                break;
            case LLVMAtomicRMW:
                xe = p_LLVMGetAtomicRMWBinOp(x) == LLVMAtomicRMWBinOpXchg ? EFFECT_RMW : EFFECT_ANY;
                break;
            case LLVMAtomicCmpXchg:
                xe = EFFECT_RMW;
                break;
            case LLVMCall:
                xe = call_effects(x, depth);
                break;
            default:
                break;
            }
            if (xe > e)
                e = xe;
        }
    return e;
}

/* Two pointers to the same location: the same value, or address
 * computations that repeat each other (C recomputes &sp->x at each use). */
static int same_location(LLVMValueRef a, LLVMValueRef b, int depth)
{
    if (a == b)
        return 1;
    if (depth > 4 || !p_LLVMIsAInstruction(a) || !p_LLVMIsAInstruction(b))
        return 0;
    LLVMOpcode op = p_LLVMGetInstructionOpcode(a);
    if (op != p_LLVMGetInstructionOpcode(b) || (op != LLVMGetElementPtr && op != LLVMBitCast))
        return 0;
    int n = p_LLVMGetNumOperands(a);
    if (n != p_LLVMGetNumOperands(b) || !same_location(p_LLVMGetOperand(a, 0), p_LLVMGetOperand(b, 0), depth + 1))
        return 0;
    for (int i = 1; i < n; i++)
        if (p_LLVMGetOperand(a, i) != p_LLVMGetOperand(b, i))
            return 0;
    return 1;
}

/* A header phi that only carries what loop k last read of one location
 * `loc`: from inside the loop, the old value of a compare-exchange on loc or
 * a load of loc (the "expected" of a CAS retry loop, GenMC's
 * isPHIRelatedToCASCmp and isPHIRelatedToLoad).  A time round that only
 * read may then be blocked as waiting: another execution reads the newer
 * value the first time (see phi_follows_read). */
static int carried_from_read(finfo *f, int k, LLVMValueRef phi, LLVMValueRef v, LLVMValueRef loc, int depth)
{
    int n = f->nblocks;
    const unsigned char *in = f->inloop + (size_t)k * (size_t)n;
    if (v == phi)
        return 1;                           /* unchanged this time round */
    if (!p_LLVMIsAInstruction(v) || depth > 8)
        return 0;
    int vb = pmap_get(&f->bidx, p_LLVMGetInstructionParent(v));
    if (vb < 0 || !in[vb])
        return 0;
    switch (p_LLVMGetInstructionOpcode(v)) {
    case LLVMPHI: {                         /* the ways of C's CAS lowering merge */
        unsigned ni = p_LLVMCountIncoming(v);
        for (unsigned j = 0; j < ni; j++)
            if (!carried_from_read(f, k, phi, p_LLVMGetIncomingValue(v, j), loc, depth + 1))
                return 0;
        return 1;
    }
    case LLVMExtractValue: {
        LLVMValueRef agg = p_LLVMGetOperand(v, 0);
        return p_LLVMIsAInstruction(agg) && p_LLVMGetInstructionOpcode(agg) == LLVMAtomicCmpXchg &&
               p_LLVMGetNumIndices(v) == 1 && p_LLVMGetIndices(v)[0] == 0 &&
               same_location(p_LLVMGetOperand(agg, 0), loc, 0);
    }
    case LLVMLoad:
        return same_location(p_LLVMGetOperand(v, 0), loc, 0);
    default:
        return 0;
    }
}

/* The value the loop starts with must be a load of the same location, with
 * nothing that touches memory between that load and the loop.  A blocked
 * time round is then covered by the execution whose first load comes later
 * and reads what the loop's last read saw (every event moved or dropped is
 * a read).  A constant start, or a store between the load and the loop
 * (`e = x; flag = 1; while (!CAS(&x, &e, e + 1)) ;`), has no such
 * execution: the loop is unrolled instead. */
static int phi_follows_read(finfo *f, int k, LLVMValueRef phi)
{
    int n = f->nblocks;
    const unsigned char *in = f->inloop + (size_t)k * (size_t)n;
    unsigned ni = p_LLVMCountIncoming(phi);
    LLVMValueRef loc = NULL;
    for (unsigned j = 0; j < ni; j++) {
        LLVMBasicBlockRef bb = p_LLVMGetIncomingBlock(phi, j);
        int from = pmap_get(&f->bidx, bb);
        if (from >= 0 && in[from])
            continue;
        LLVMValueRef v = p_LLVMGetIncomingValue(phi, j);
        if (!p_LLVMIsAInstruction(v) || p_LLVMGetInstructionOpcode(v) != LLVMLoad ||
            p_LLVMGetInstructionParent(v) != bb || (loc && !same_location(p_LLVMGetOperand(v, 0), loc, 0)))
            return 0;
        loc = p_LLVMGetOperand(v, 0);
        for (LLVMValueRef x = p_LLVMGetNextInstruction(v); x; x = p_LLVMGetNextInstruction(x))
            switch (p_LLVMGetInstructionOpcode(x)) {
            case LLVMStore: case LLVMLoad: case LLVMFence: case LLVMAtomicRMW: case LLVMAtomicCmpXchg:
                return 0;
            case LLVMCall:
                if (!call_is_marker(x))
                    return 0;
                break;
            default:
                break;
            }
    }
    if (!loc)
        return 0;
    for (unsigned j = 0; j < ni; j++) {
        int from = pmap_get(&f->bidx, p_LLVMGetIncomingBlock(phi, j));
        if (from >= 0 && in[from] && !carried_from_read(f, k, phi, p_LLVMGetIncomingValue(phi, j), loc, 0))
            return 0;
    }
    return 1;
}

/* --plp (seed 003's partial loop purity) for C: a time round of a loop
 * that allocates nothing, wrote nothing (no store, no read-modify-write
 * that changed memory) and left the values it carries to the next time
 * round (its header's phis, integers) as they were starts the next one in
 * the same state: it was only waiting, and going round again after it is
 * blocked, through the same flag as the exchange loops above.  Calls: only to
 * functions defined in the program that satisfy the same, to assert and
 * assume, and markers; a library call (a mutex, malloc) keeps the loop as
 * it is. */
static int plp_calls_ok(LLVMValueRef call, int depth);

static int plp_fn_ok(LLVMValueRef fn, int depth)
{
    for (LLVMBasicBlockRef bb = p_LLVMGetFirstBasicBlock(fn); bb; bb = p_LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef x = p_LLVMGetFirstInstruction(bb); x; x = p_LLVMGetNextInstruction(x)) {
            LLVMOpcode op = p_LLVMGetInstructionOpcode(x);
            if (op == LLVMAlloca || (op == LLVMCall && !plp_calls_ok(x, depth)))
                return 0;
        }
    return 1;
}

static int plp_calls_ok(LLVMValueRef call, int depth)
{
    if (call_is_marker(call))
        return 1;
    if (p_LLVMIsAInlineAsm(p_LLVMGetCalledValue(call)))
        return asm_kind(call) == ASM_FENCE;
    LLVMValueRef g = called_fn(call);
    if (!g)
        return 0;
    const char *gn = vname(g);
    if (strcmp(gn, "__assert_fail") == 0 || strcmp(gn, "__VERIFIER_assume") == 0 ||
        strcmp(gn, "__VERIFIER_assert") == 0)
        return 1;
    return !p_LLVMIsDeclaration(g) && depth < 8 && plp_fn_ok(g, depth + 1);
}

static int plp_loop(finfo *f, int k, int h)
{
    int n = f->nblocks;
    const unsigned char *in = f->inloop + (size_t)k * (size_t)n;
    for (LLVMValueRef x = p_LLVMGetFirstInstruction(f->blocks[h]); x && p_LLVMGetInstructionOpcode(x) == LLVMPHI;
         x = p_LLVMGetNextInstruction(x))
        if (p_LLVMGetTypeKind(p_LLVMTypeOf(x)) != LLVMIntegerTypeKind)
            return 0;
    for (int b = 0; b < n; b++) {
        if (!in[b])
            continue;
        for (LLVMValueRef x = p_LLVMGetFirstInstruction(f->blocks[b]); x; x = p_LLVMGetNextInstruction(x)) {
            LLVMOpcode op = p_LLVMGetInstructionOpcode(x);
            if (op == LLVMAlloca || (op == LLVMCall && !plp_calls_ok(x, 0)))
                return 0;
        }
    }
    return 1;
}

static int cas_leaves_on_success(finfo *f, int k, int header, LLVMValueRef cas)
{
    int n = f->nblocks;
    const unsigned char *in = f->inloop + (size_t)k * (size_t)n;
    int start = pmap_get(&f->bidx, p_LLVMGetInstructionParent(cas));
    if (start < 0)
        return 0;
    /* edges, not blocks, are visited: a phi's value depends on the way in */
    unsigned char *seen = wmx_calloc((size_t)n * (size_t)(n + 1), 1);
    int *stk = wmx_malloc(2 * ((size_t)n * (size_t)(n + 1) + 1) * sizeof *stk), sp = 0, round = 0;
    stk[sp++] = start;
    stk[sp++] = -1;
    while (sp && !round) {
        int pb = stk[--sp], b = stk[--sp];
        LLVMValueRef term = p_LLVMGetBasicBlockTerminator(f->blocks[b]);
        unsigned ns = term ? p_LLVMGetNumSuccessors(term) : 0;
        long cv;
        int only = -1;
        if (ns == 2 && p_LLVMGetInstructionOpcode(term) == LLVMBr && p_LLVMIsConditional(term) &&
            value_if_success(p_LLVMGetCondition(term), cas, &cv, 0, f->blocks[b], pb >= 0 ? f->blocks[pb] : NULL))
            only = cv ? 0 : 1;
        for (unsigned j = 0; j < ns && !round; j++) {
            if (only >= 0 && (int)j != only)
                continue;
            int sb = pmap_get(&f->bidx, p_LLVMGetSuccessor(term, j));
            if (sb < 0 || !in[sb])
                continue;
            if (sb == header)
                round = 1;
            else if (!seen[(size_t)sb * (size_t)(n + 1) + (size_t)(b + 1)]) {
                seen[(size_t)sb * (size_t)(n + 1) + (size_t)(b + 1)] = 1;
                stk[sp++] = sb;
                stk[sp++] = b;
            }
        }
    }
    free(seen);
    free(stk);
    return !round;
}

/* ---- loops kept as loops ------------------------------------------------ */

/* After a fork, a loop is kept: its back edge jumps to code already made
 * for its head, a hidden register counts the times round, and the IR does
 * not grow with --unroll (see enter_edge). */

static int is_error_fn(const char *n);

/* Calls a kept loop may make: each does the same thing every time round
 * without translation-time state (no thread, object or nondet cell is made
 * per call). */
static int call_keeps_loop(LLVMValueRef call, int depth)
{
    if (call_is_marker(call))
        return 1;
    if (p_LLVMIsAInlineAsm(p_LLVMGetCalledValue(call)))
        return asm_kind(call) == ASM_FENCE;
    LLVMValueRef g = called_fn(call);
    if (!g)
        return 0;
    const char *n = vname(g);
    static const char *const same_each_time[] = {
        "pthread_mutex_lock", "pthread_mutex_unlock", "pthread_mutex_trylock", "mtx_lock", "mtx_unlock",
        "mtx_trylock", "pthread_spin_lock", "pthread_spin_unlock", "pthread_spin_trylock", "sched_yield",
        "pthread_yield", "thrd_yield", "pthread_self", "thrd_current", "pthread_equal", "thrd_equal",
        "__VERIFIER_assume", "__VERIFIER_assert", "__VERIFIER_atomic_begin", "__VERIFIER_atomic_end",
        "__VERIFIER_load_await_aint", "__VERIFIER_xchg_await_aint", "abort", "exit", "_exit", "_Exit",
        "pthread_exit", "thrd_exit", "printf", "puts", "putchar", "putc", "fputc", "fputs", "fprintf", "fwrite",
        "fflush", "perror", "dprintf", "vprintf", "vfprintf", "usleep", "sleep", "nanosleep",
    };
    for (size_t i = 0; i < sizeof same_each_time / sizeof *same_each_time; i++)
        if (strcmp(n, same_each_time[i]) == 0)
            return 1;
    if (is_error_fn(n) || strncmp(n, "llvm.dbg.", 9) == 0 || strncmp(n, "llvm.lifetime.", 14) == 0)
        return 1;
    if (p_LLVMIsDeclaration(g) || depth >= 6)
        return 0;
    for (LLVMBasicBlockRef bb = p_LLVMGetFirstBasicBlock(g); bb; bb = p_LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef x = p_LLVMGetFirstInstruction(bb); x; x = p_LLVMGetNextInstruction(x)) {
            LLVMOpcode op = p_LLVMGetInstructionOpcode(x);
            if (op == LLVMAlloca || (op == LLVMCall && !call_keeps_loop(x, depth + 1)))
                return 0;
        }
    return 1;
}

/* The step of a counter of loop k (header block h): v is a phi of the
 * header whose every value from inside the loop is itself plus or minus the
 * same constant, or such a phi plus or minus a constant (the rotated test
 * of `i + 1`).  0 when v is not one. */
static long counter_step(finfo *f, int k, int h, LLVMValueRef v)
{
    if (p_LLVMIsAInstruction(v) && (p_LLVMGetInstructionOpcode(v) == LLVMAdd ||
                                    p_LLVMGetInstructionOpcode(v) == LLVMSub) &&
        p_LLVMIsAConstantInt(p_LLVMGetOperand(v, 1)))
        v = p_LLVMGetOperand(v, 0);
    if (!p_LLVMIsAInstruction(v) || p_LLVMGetInstructionOpcode(v) != LLVMPHI ||
        p_LLVMGetInstructionParent(v) != f->blocks[h] || p_LLVMGetTypeKind(p_LLVMTypeOf(v)) != LLVMIntegerTypeKind)
        return 0;
    const unsigned char *in = f->inloop + (size_t)k * (size_t)f->nblocks;
    long step = 0;
    unsigned ni = p_LLVMCountIncoming(v);
    for (unsigned j = 0; j < ni; j++) {
        int b = pmap_get(&f->bidx, p_LLVMGetIncomingBlock(v, j));
        if (b < 0 || !in[b])
            continue;                       /* the start value */
        LLVMValueRef x = p_LLVMGetIncomingValue(v, j);
        if (!p_LLVMIsAInstruction(x) || p_LLVMGetOperand(x, 0) != v ||
            (p_LLVMGetInstructionOpcode(x) != LLVMAdd && p_LLVMGetInstructionOpcode(x) != LLVMSub) ||
            !p_LLVMIsAConstantInt(p_LLVMGetOperand(x, 1)))
            return 0;
        long st = (long)p_LLVMConstIntGetSExtValue(p_LLVMGetOperand(x, 1));
        if (p_LLVMGetInstructionOpcode(x) == LLVMSub)
            st = -st;
        if (st == 0 || (step != 0 && (st > 0) != (step > 0)))
            return 0;
        step = st;
    }
    return step;
}

/* !(a pr b) and the pr' with b pr' a == a pr b, for the orders (EQ and NE
 * swap to themselves) */
static LLVMIntPredicate icmp_negate(LLVMIntPredicate pr)
{
    switch (pr) {
    case LLVMIntEQ: return LLVMIntNE;
    case LLVMIntNE: return LLVMIntEQ;
    case LLVMIntSLT: return LLVMIntSGE;
    case LLVMIntSLE: return LLVMIntSGT;
    case LLVMIntSGT: return LLVMIntSLE;
    case LLVMIntSGE: return LLVMIntSLT;
    case LLVMIntULT: return LLVMIntUGE;
    case LLVMIntULE: return LLVMIntUGT;
    case LLVMIntUGT: return LLVMIntULE;
    default: return LLVMIntULT;        /* UGE */
    }
}

static LLVMIntPredicate icmp_swap(LLVMIntPredicate pr)
{
    switch (pr) {
    case LLVMIntSLT: return LLVMIntSGT;
    case LLVMIntSLE: return LLVMIntSGE;
    case LLVMIntSGT: return LLVMIntSLT;
    case LLVMIntSGE: return LLVMIntSLE;
    case LLVMIntULT: return LLVMIntUGT;
    case LLVMIntULE: return LLVMIntUGE;
    case LLVMIntUGT: return LLVMIntULT;
    case LLVMIntUGE: return LLVMIntULE;
    default: return pr;
    }
}

/* Whether v has one value the whole time loop k runs: a constant, an
 * argument, or a value computed before the loop. */
static int loop_invariant(finfo *f, int k, LLVMValueRef v)
{
    if (p_LLVMIsAConstantInt(v) || p_LLVMIsAArgument(v))
        return 1;
    if (!p_LLVMIsAInstruction(v))
        return 0;
    int b = pmap_get(&f->bidx, p_LLVMGetInstructionParent(v));
    return b >= 0 && !f->inloop[(size_t)k * (size_t)f->nblocks + (size_t)b];
}

/* Whether v, in loop k, loads a global that only this function stores to,
 * outside the loop, and whose address goes nowhere else (`i < n` for a
 * `volatile int n` main set before creating threads): read afresh every
 * time round, but the same each time.  A guess at most: a copied loop it
 * admits goes round up to COPIED_ENDS_ROUNDS instead of --unroll. */
static int loop_fixed_load(finfo *f, int k, LLVMValueRef v)
{
    if (!p_LLVMIsAInstruction(v) || p_LLVMGetInstructionOpcode(v) != LLVMLoad)
        return 0;
    LLVMValueRef g = p_LLVMGetOperand(v, 0);
    if (!p_LLVMIsAGlobalVariable(g))
        return 0;
    const unsigned char *in = f->inloop + (size_t)k * (size_t)f->nblocks;
    for (LLVMUseRef u = p_LLVMGetFirstUse(g); u; u = p_LLVMGetNextUse(u)) {
        LLVMValueRef user = p_LLVMGetUser(u);
        if (!p_LLVMIsAInstruction(user))
            return 0;
        LLVMOpcode op = p_LLVMGetInstructionOpcode(user);
        if (op == LLVMLoad)
            continue;
        if (op != LLVMStore || p_LLVMGetOperand(user, 1) != g || p_LLVMGetOperand(user, 0) == g)
            return 0;
        LLVMBasicBlockRef bb = p_LLVMGetInstructionParent(user);
        int b = pmap_get(&f->bidx, bb);
        if (p_LLVMGetBasicBlockParent(bb) != f->fn || b < 0 || in[b])
            return 0;
    }
    return 1;
}

/* Whether loop k (header block h) ends by itself: on every time round a
 * test leaves it unless a counter is still short of a bound fixed while it
 * runs, and the counter steps toward that bound (`for (i = s; i < e; i++)`,
 * `while (n-- > 0)`): it goes round at most |e - s| / step times whatever
 * other threads do, so it runs to its end, as GenMC and Nidhugg run it.
 * The test must be in the header or in the loop's one latch (both run
 * every time round). */
static int ends_by_itself(finfo *f, int k, int h, int loaded)
{
    int n = f->nblocks, latch = -1, nlatch = 0;
    const unsigned char *in = f->inloop + (size_t)k * (size_t)n;
    for (int b = 0; b < n; b++)
        if (in[b] && f->back[(size_t)b * (size_t)n + (size_t)h]) {
            latch = b;
            nlatch++;
        }
    int cand[2] = { h, nlatch == 1 && latch != h ? latch : -1 };
    for (int ci = 0; ci < 2; ci++) {
        if (cand[ci] < 0)
            continue;
        LLVMValueRef br = p_LLVMGetBasicBlockTerminator(f->blocks[cand[ci]]);
        if (!br || p_LLVMGetInstructionOpcode(br) != LLVMBr || !p_LLVMIsConditional(br))
            continue;
        int s0 = pmap_get(&f->bidx, p_LLVMGetSuccessor(br, 0)), s1 = pmap_get(&f->bidx, p_LLVMGetSuccessor(br, 1));
        if (s0 < 0 || s1 < 0 || in[s0] == in[s1])
            continue;
        LLVMValueRef cmp = p_LLVMGetCondition(br);
        if (!p_LLVMIsAInstruction(cmp) || p_LLVMGetInstructionOpcode(cmp) != LLVMICmp)
            continue;
        LLVMIntPredicate pr = p_LLVMGetICmpPredicate(cmp);
        if (!in[s0])        /* the true way leaves: it stays while the test fails */
            pr = icmp_negate(pr);
        LLVMValueRef a = p_LLVMGetOperand(cmp, 0), b = p_LLVMGetOperand(cmp, 1);
        long step = counter_step(f, k, h, a);
        if (!step || !(loop_invariant(f, k, b) || (loaded && loop_fixed_load(f, k, b)))) {
            step = counter_step(f, k, h, b);
            if (!step || !(loop_invariant(f, k, a) || (loaded && loop_fixed_load(f, k, a))))
                continue;
            pr = icmp_swap(pr);   /* b is the counter: `e > i` stays as `i < e` */
        }
        /* it stays while counter < bound and climbs, or > and falls (not
         * <= UINT_MAX: unsigned counters wrap, and the test can always hold) */
        if ((step > 0 && (pr == LLVMIntSLT || pr == LLVMIntSLE || pr == LLVMIntULT)) ||
            (step < 0 && (pr == LLVMIntSGT || pr == LLVMIntSGE || pr == LLVMIntUGT)))
            return 1;
    }
    return 0;
}

/* Whether loop k must still be copied per time round after a fork. */
static int loop_needs_copies(finfo *f, int k)
{
    const unsigned char *in = f->inloop + (size_t)k * (size_t)f->nblocks;
    for (int b = 0; b < f->nblocks; b++) {
        if (!in[b])
            continue;
        for (LLVMValueRef x = p_LLVMGetFirstInstruction(f->blocks[b]); x; x = p_LLVMGetNextInstruction(x)) {
            LLVMOpcode op = p_LLVMGetInstructionOpcode(x);
            if (op == LLVMAlloca || (op == LLVMCall && !call_keeps_loop(x, 0)))
                return 1;
        }
    }
    return 0;
}

static finfo *func_info(cfront *c, LLVMValueRef fn)
{
    int i = pmap_get(&c->fidx, fn);
    if (i >= 0)
        return c->funcs[i];
    c->funcs = wmx_realloc(c->funcs, (size_t)(c->nfuncs + 1) * sizeof *c->funcs);
    finfo *f = c->funcs[c->nfuncs] = wmx_malloc(sizeof *f);
    *pmap_slot(&c->fidx, fn, 1) = c->nfuncs++;
    memset(f, 0, sizeof *f);
    f->fn = fn;
    f->name = wmx_strdup(vname(fn));
    f->sink = -1;
    f->nblocks = (int)p_LLVMCountBasicBlocks(fn);
    f->blocks = wmx_calloc((size_t)(f->nblocks ? f->nblocks : 1), sizeof *f->blocks);
    p_LLVMGetBasicBlocks(fn, f->blocks);
    for (int b = 0; b < f->nblocks; b++)
        *pmap_slot(&f->bidx, f->blocks[b], 1) = b;
    unsigned np = p_LLVMCountParams(fn);
    for (unsigned k = 0; k < np; k++)
        *pmap_slot(&f->vidx, p_LLVMGetParam(fn, k), 1) = f->nvals++;
    for (int b = 0; b < f->nblocks; b++)
        for (LLVMValueRef in = p_LLVMGetFirstInstruction(f->blocks[b]); in; in = p_LLVMGetNextInstruction(in))
            *pmap_slot(&f->vidx, in, 1) = f->nvals++;
    /* back edges by DFS; loop bodies by walking predecessors back from the
     * latch to the header (reducible CFGs: what C without goto gives) */
    int n = f->nblocks;
    f->back = wmx_calloc((size_t)n * (size_t)(n ? n : 1), 1);
    f->header_of = wmx_malloc((size_t)(n ? n : 1) * sizeof *f->header_of);
    for (int b = 0; b < n; b++)
        f->header_of[b] = -1;
    if (n == 0)
        return f;
    int *state = wmx_calloc((size_t)n, sizeof *state);       /* 0 new, 1 on stack, 2 done */
    int *stk = wmx_malloc((size_t)n * sizeof *stk), *next = wmx_calloc((size_t)n, sizeof *next);
    int sp = 0;
    stk[sp++] = 0;
    state[0] = 1;
    while (sp) {
        int b = stk[sp - 1];
        LLVMValueRef term = p_LLVMGetBasicBlockTerminator(f->blocks[b]);
        unsigned ns = term ? p_LLVMGetNumSuccessors(term) : 0;
        if ((unsigned)next[b] < ns) {
            int s = pmap_get(&f->bidx, p_LLVMGetSuccessor(term, (unsigned)next[b]++));
            if (s < 0)
                continue;
            if (state[s] == 1) {
                f->back[(size_t)b * (size_t)n + (size_t)s] = 1;
                if (f->header_of[s] < 0)
                    f->header_of[s] = f->nheaders++;
            } else if (state[s] == 0) {
                state[s] = 1;
                stk[sp++] = s;
            }
        } else {
            state[b] = 2;
            sp--;
        }
    }
    f->inloop = wmx_calloc((size_t)(f->nheaders ? f->nheaders : 1) * (size_t)n, 1);
    /* predecessors */
    int *npred = wmx_calloc((size_t)n, sizeof *npred);
    int **pred = wmx_calloc((size_t)n, sizeof *pred);
    for (int b = 0; b < n; b++) {
        LLVMValueRef term = p_LLVMGetBasicBlockTerminator(f->blocks[b]);
        unsigned ns = term ? p_LLVMGetNumSuccessors(term) : 0;
        for (unsigned k = 0; k < ns; k++) {
            int s = pmap_get(&f->bidx, p_LLVMGetSuccessor(term, k));
            if (s < 0)
                continue;
            pred[s] = wmx_realloc(pred[s], (size_t)(npred[s] + 1) * sizeof **pred);
            pred[s][npred[s]++] = b;
        }
    }
    for (int b = 0; b < n; b++)
        for (int h = 0; h < n; h++) {
            if (!f->back[(size_t)b * (size_t)n + (size_t)h])
                continue;
            unsigned char *in = f->inloop + (size_t)f->header_of[h] * (size_t)n;
            in[h] = 1;
            sp = 0;
            if (!in[b]) {
                in[b] = 1;
                stk[sp++] = b;
            }
            while (sp) {
                int x = stk[--sp];
                for (int k = 0; k < npred[x]; k++)
                    if (!in[pred[x][k]]) {
                        in[pred[x][k]] = 1;
                        stk[sp++] = pred[x][k];
                    }
            }
        }
    /* Liveness, so that a program point's memo key names the values the code
     * from there reads: two arrivals merge only when those are the same. */
    {
        size_t nv = (size_t)f->nvals;
        f->live = wmx_calloc((size_t)n * nv + 1, 1);
        unsigned char *use = wmx_calloc((size_t)n * nv + 1, 1), *def = wmx_calloc((size_t)n * nv + 1, 1);
        for (int b = 0; b < n; b++) {
            for (LLVMValueRef x = p_LLVMGetFirstInstruction(f->blocks[b]); x; x = p_LLVMGetNextInstruction(x)) {
                int xi = pmap_get(&f->vidx, x);
                if (p_LLVMGetInstructionOpcode(x) != LLVMPHI) {
                    int no = p_LLVMGetNumOperands(x);
                    for (int k = 0; k < no; k++) {
                        int oi = pmap_get(&f->vidx, p_LLVMGetOperand(x, (unsigned)k));
                        if (oi >= 0 && !def[(size_t)b * nv + (size_t)oi])
                            use[(size_t)b * nv + (size_t)oi] = 1;
                    }
                } else {
                    use[(size_t)b * nv + (size_t)xi] = 1;    /* keyed at entry */
                }
                if (xi >= 0)
                    def[(size_t)b * nv + (size_t)xi] = 1;
            }
        }
        int changed = 1;
        while (changed) {
            changed = 0;
            for (int b = n - 1; b >= 0; b--) {
                unsigned char *in = f->live + (size_t)b * nv;
                LLVMValueRef term = p_LLVMGetBasicBlockTerminator(f->blocks[b]);
                unsigned ns = term ? p_LLVMGetNumSuccessors(term) : 0;
                for (size_t v = 0; v < nv; v++) {
                    if (in[v])
                        continue;
                    int on = use[(size_t)b * nv + v];
                    for (unsigned k = 0; k < ns && !on; k++) {
                        int sb = pmap_get(&f->bidx, p_LLVMGetSuccessor(term, k));
                        if (sb >= 0 && f->live[(size_t)sb * nv + v] && !def[(size_t)b * nv + v])
                            on = 1;
                    }
                    if (on) {
                        in[v] = 1;
                        changed = 1;
                    }
                }
                /* a phi's incoming value from b is live at b's end */
                for (unsigned k = 0; k < ns; k++) {
                    LLVMBasicBlockRef sbb = p_LLVMGetSuccessor(term, k);
                    for (LLVMValueRef x = p_LLVMGetFirstInstruction(sbb); x && p_LLVMGetInstructionOpcode(x) == LLVMPHI;
                         x = p_LLVMGetNextInstruction(x)) {
                        unsigned ni = p_LLVMCountIncoming(x);
                        for (unsigned j = 0; j < ni; j++) {
                            if (p_LLVMGetIncomingBlock(x, j) != f->blocks[b])
                                continue;
                            int oi = pmap_get(&f->vidx, p_LLVMGetIncomingValue(x, j));
                            if (oi >= 0 && !def[(size_t)b * nv + (size_t)oi] && !in[oi]) {
                                in[oi] = 1;
                                changed = 1;
                            }
                        }
                    }
                }
            }
        }
        free(use);
        free(def);
    }
    /* A loop whose blocks only read and compute, and carry no value from one
     * iteration to the next (no phi at the header), does the same thing each
     * time round: going round again is only waiting.  Like GenMC's
     * spin-assume, its back edge becomes assume(false): the execution that
     * waits is blocked, the one that leaves is explored. */
    f->spin = wmx_calloc((size_t)(f->nheaders ? f->nheaders : 1), 1);
    f->zne = wmx_calloc((size_t)(f->nheaders ? f->nheaders : 1), 1);
    f->plp_phi = wmx_calloc((size_t)(f->nheaders ? f->nheaders : 1), 1);
    for (int h = 0; h < n; h++) {
        if (f->header_of[h] < 0)
            continue;
        int k = f->header_of[h], pure = 1, zne = 1;
        unsigned char *in = f->inloop + (size_t)k * (size_t)n;
        for (int b = 0; b < n && (pure || zne); b++) {
            if (!in[b])
                continue;
            for (LLVMValueRef x = p_LLVMGetFirstInstruction(f->blocks[b]); x && (pure || zne); x = p_LLVMGetNextInstruction(x)) {
                switch (p_LLVMGetInstructionOpcode(x)) {
                case LLVMStore: case LLVMAlloca:
                    pure = zne = 0;
                    break;
                case LLVMAtomicRMW:
                    pure = 0;
                    zne = zne && p_LLVMGetAtomicRMWBinOp(x) == LLVMAtomicRMWBinOpXchg;
                    break;
                case LLVMAtomicCmpXchg:
                    if (!cas_leaves_on_success(f, k, h, x))
                        pure = 0;
                    break;
                case LLVMPHI:
                    if (b == h) {
                        zne = 0;
                        if (!phi_follows_read(f, k, x))
                            pure = 0;
                    }
                    break;
                case LLVMCall: {
                    int e = call_effects(x, 0);
                    if (e != EFFECT_NONE)
                        pure = 0;
                    if (e == EFFECT_ANY)
                        zne = 0;
                    break;
                }
                default:
                    break;
                }
            }
        }
        if (c->no_spin_assume)
            pure = zne = 0;
        f->spin[k] = (unsigned char)pure;
        f->zne[k] = (unsigned char)(zne && !pure);
        /* a loop that ends by itself changes its counter every time round,
         * so PLP's assume(changed) always holds there: leave it out (its
         * flags, a register per time round of a copied loop, made every
         * state longer: longwriter-2048 in C ran 10x slower) */
        if (c->plp && !pure && !zne && !ends_by_itself(f, k, h, 0) && plp_loop(f, k, h)) {
            f->zne[k] = 1;
            f->plp_phi[k] = p_LLVMGetInstructionOpcode(p_LLVMGetFirstInstruction(f->blocks[h])) == LLVMPHI;
        }
    }
    f->unrolled = wmx_calloc((size_t)(f->nheaders ? f->nheaders : 1), 1);
    f->ends = wmx_calloc((size_t)(f->nheaders ? f->nheaders : 1), 1);
    for (int h = 0; h < n; h++) {
        int k = f->header_of[h];
        if (k < 0)
            continue;
        f->unrolled[k] = (unsigned char)loop_needs_copies(f, k);
        /* a copied loop may take its bound from a global read afresh (see
         * loop_fixed_load): a wrong guess only copies it further */
        f->ends[k] = (unsigned char)ends_by_itself(f, k, h, f->unrolled[k]);
    }
    for (int b = 0; b < n; b++)
        free(pred[b]);
    free(pred);
    free(npred);
    free(state);
    free(stk);
    free(next);
    return f;
}

static void finfo_free(finfo *f)
{
    free(f->name);
    free(f->blocks);
    kmap_free(&f->bidx);
    kmap_free(&f->vidx);
    free(f->header_of);
    free(f->inloop);
    free(f->back);
    free(f->spin);
    free(f->zne);
    free(f->plp_phi);
    free(f->live);
    free(f->unrolled);
    free(f->ends);
}

static int inst_new(cfront *c, finfo *fi)
{
    c->insts = wmx_realloc(c->insts, (size_t)(c->ninsts + 1) * sizeof *c->insts);
    finst *x = &c->insts[c->ninsts];
    x->fi = fi;
    size_t n = (size_t)(fi->nvals ? fi->nvals : 1);
    x->env = wmx_calloc(n, sizeof *x->env);
    x->regs = wmx_malloc(n * sizeof *x->regs);
    x->allocas = wmx_malloc(n * sizeof *x->allocas);
    for (size_t i = 0; i < n; i++)
        x->regs[i] = x->allocas[i] = -1;
    x->eff = wmx_malloc((size_t)(fi->nheaders ? fi->nheaders : 1) * sizeof *x->eff);
    x->count = wmx_malloc((size_t)(fi->nheaders ? fi->nheaders : 1) * sizeof *x->count);
    for (int k = 0; k < fi->nheaders; k++)
        x->eff[k] = x->count[k] = -1;
    return c->ninsts++;
}

/* ---- the current thread's code ---------------------------------------- */

static frame *top(cfront *c) { return &c->stack[c->depth - 1]; }
static finst *top_inst(cfront *c) { return &c->insts[top(c)->inst]; }

static int value_index(cfront *c, LLVMValueRef v)
{
    return pmap_get(&top_inst(c)->fi->vidx, v);
}

static int reg_for(cfront *c, LLVMValueRef v)
{
    finst *x = top_inst(c);
    int i = pmap_get(&x->fi->vidx, v);
    if (i < 0)
        return -1;
    if (x->regs[i] < 0) {
        char name[48];
        snprintf(name, sizeof name, "$%d", c->p->threads[c->t].nregs);
        x->regs[i] = ir_add_reg(c->p, c->t, name);
    }
    return x->regs[i];
}

static int temp_reg(cfront *c)
{
    char name[48];
    snprintf(name, sizeof name, "$%d", c->p->threads[c->t].nregs);
    return ir_add_reg(c->p, c->t, name);   /* "$N" for the N-th is new */
}

static void read_lines_into(const char *path, char ***lines, int *nlines);

/* The file instruction `at` comes from when it is not the program's own
 * file (a #included .c or header: its lines are that file's), else NULL. */
static struct srcfile *included_file(cfront *c, LLVMValueRef at)
{
    unsigned len = 0, dlen = 0;
    const char *name = at && p_LLVMIsAInstruction(at) ? p_LLVMGetDebugLocFilename(at, &len) : NULL;
    if (!name || !len || strcmp(name, c->path) == 0)
        return NULL;
    /* clang splits a path into a directory and a name relative to it
     * (/tmp/lp/x.c from /tmp/cc: "/tmp" and "lp/x.c"): join them */
    const char *dir = name[0] != '/' ? p_LLVMGetDebugLocDirectory(at, &dlen) : NULL;
    char *joined = NULL, cwd[4096];
    if (dir && dlen > 0 && !(getcwd(cwd, sizeof cwd) && strlen(cwd) == dlen && strncmp(cwd, dir, dlen) == 0)) {
        joined = wmx_asprintf("%.*s/%.*s", (int)dlen, dir, (int)len, name);
        name = joined;
        len = (unsigned)strlen(joined);
        if (strcmp(name, c->path) == 0) {
            free(joined);
            return NULL;
        }
    }
    /* kept without a leading "./", and looked up so: clang names a header
     * included from the working directory "./ring.h" (a miss here read
     * the file again for every instruction: 2 minutes for SV-COMP's
     * ring_2w1r) */
    if (len > 2 && strncmp(name, "./", 2) == 0) {
        name += 2;
        len -= 2;
    }
    for (int i = 0; i < c->nincs; i++)
        if (strlen(c->incs[i].name) == len && strncmp(c->incs[i].name, name, len) == 0) {
            free(joined);
            return c->incs[i].same ? NULL : &c->incs[i];
        }
    c->incs = wmx_realloc(c->incs, (size_t)(c->nincs + 1) * sizeof *c->incs);
    struct srcfile *f = &c->incs[c->nincs++];
    f->name = wmx_strndup(name, len);
    free(joined);
    f->lines = NULL;
    f->nlines = 0;
    struct stat a, b;
    f->same = stat(f->name, &a) == 0 && stat(c->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
    if (f->same)                      /* the program's own file, named otherwise */
        return NULL;
    read_lines_into(f->name, &f->lines, &f->nlines);
    return f;
}

/* The statement of line s that holds column col (1-based; 0: unknown):
 * a line with several statements, `void *t(void *p) { lock(&a); lock(&b); }`,
 * shows each instruction by its own, `lock(&b)`.  Statements end at `;`,
 * `{` and `}` outside parentheses and quotes, so a `for (...;...;...)`
 * header stays whole.  *len gets its length. */
static const char *statement_at(const char *s, int col, size_t *len)
{
    size_t n = strlen(s), at = col > 0 ? (size_t)col - 1 : n;
    size_t start = 0;
    int depth = 0;
    char quote = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (quote) {
            if (ch == '\\' && i + 1 < n)
                i++;
            else if (ch == quote)
                quote = 0;
            continue;
        }
        if (ch == '"' || ch == '\'')
            quote = ch;
        else if (ch == '/' && i + 1 < n && s[i + 1] == '/')
            break;
        else if (ch == '(' || ch == '[')
            depth++;
        else if ((ch == ')' || ch == ']') && depth > 0)
            depth--;
        else if (depth == 0 && (ch == ';' || ch == '{' || ch == '}')) {
            if (at < i) {
                *len = i - start;
                return s + start;
            }
            start = i + 1;
        }
    }
    if (at >= n || start >= n) {
        *len = n;
        return s;
    }
    *len = n - start;
    return s + start;
}

static char *line_text(cfront *c, LLVMValueRef at)
{
    int line = at && p_LLVMIsAInstruction(at) ? (int)p_LLVMGetDebugLocLine(at) : 0;
    int col = at && p_LLVMIsAInstruction(at) ? (int)p_LLVMGetDebugLocColumn(at) : 0;
    struct srcfile *inc = included_file(c, at);
    char **lines = inc ? inc->lines : c->lines;
    if (line <= 0 || line > (inc ? inc->nlines : c->nlines))
        return NULL;
    size_t n;
    const char *s = statement_at(lines[line - 1], col, &n);
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    if (n == 0) {
        /* the column fell on a separator: the whole line */
        s = lines[line - 1];
        while (*s == ' ' || *s == '\t')
            s++;
        n = strlen(s);
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
            n--;
    }
    if (n > 60)
        n = 60;
    return wmx_strndup(s, n);
}

static void flush_joins(cfront *c);
static void end_path(cfront *c);

static int emit(cfront *c, ir_instr *in, const char *text)
{
    if (c->njoins && !c->flushing && ir_is_visible(in))
        flush_joins(c);
    LLVMValueRef at = c->here;
    if (at && p_LLVMIsAInstruction(at)) {
        in->loc.line = (int)p_LLVMGetDebugLocLine(at);
        in->loc.col = (int)p_LLVMGetDebugLocColumn(at);
        struct srcfile *inc = included_file(c, at);
        if (inc)
            in->loc.file = ir_add_srcfile(c->p, inc->name);
    }
    char *own = NULL;
    if (!text)
        text = own = line_text(c, at);
    in->text = (char *)(text ? text : "");
    if (ir_is_visible(in))
        c->visible = 1;
    int i = ir_add_instr(c->p, c->t, in);
    free(own);
    const ir_addr *a = &in->addr;
    if (ir_is_visible(in) && in->kind != I_FENCE && a->var >= 0 && a->ptr < 0 && a->index >= 0 &&
        c->p->exprs[a->index].op == OP_CONST &&
        (c->p->exprs[a->index].value < 0 || c->p->exprs[a->index].value >= c->p->vars[a->var].length)) {
        /* an access past its variable's end (gep_apply's known index past
         * an object after a fork) stops its thread: nothing after it runs.
         * `for (k = 0; k < n; k++) a[k]` copied per time round with n
         * read at run time stops at a's end, not FOLD_ROUNDS_MAX times
         * round (SV-COMP's ring_2w1r: 550 000 instructions) */
        end_path(c);
    }
    return i;
}

static void emit_let(cfront *c, int reg, int e)
{
    ir_instr in = ir_instr_init(I_LET, (wmx_srcloc){ 0, 0, 0 });
    in.dst = reg;
    in.e1 = e;
    emit(c, &in, "");
}

static void end_path(cfront *c) { c->path_done = 1; }

static void emit_block_forever(cfront *c, const char *why, bool bound_cut)
{
    ir_instr in = ir_instr_init(I_ASSUME, (wmx_srcloc){ 0, 0, 0 });
    in.e1 = e_const(c, 0);
    in.bound_cut = bound_cut;
    in.spin = !bound_cut;
    emit(c, &in, why);
    end_path(c);
}

/* ---- operand values ------------------------------------------------------ */

static cval gep_apply(cfront *c, cval base, LLVMTypeRef srcty, LLVMValueRef g, unsigned first, unsigned nidx);
static int null_gep_bytes(cfront *c, LLVMValueRef g, long *out);

/* The current thread's copy of thread-local global o (main uses o itself).
 * A copy starts from the initializer, not from what main's prelude stored,
 * and lives at translation time until its address escapes or the thread
 * forks, like a local. */
static int tls_copy(cfront *c, int o)
{
    for (int i = 0; i < c->ntls_copies; i++)
        if (c->tls_copies[i].obj == o && c->tls_copies[i].thread == c->cur)
            return c->tls_copies[i].copy;
    LLVMValueRef g = c->objs[o].tls;
    char name[160];
    snprintf(name, sizeof name, "%s.%s", c->p->threads[c->t].name, c->objs[o].name);
    int k = obj_new(c, name, c->objs[o].ncells);
    cobj *ob = &c->objs[k];
    ob->type = c->objs[o].type;
    ob->frozen = c->objs[o].frozen;
    int off = 0;
    const_fill(c, p_LLVMIsDeclaration(g) ? NULL : p_LLVMGetInitializer(g), ob->type, c->objs[k].cells, &off);
    c->tls_copies = wmx_realloc(c->tls_copies, (size_t)(c->ntls_copies + 1) * sizeof *c->tls_copies);
    c->tls_copies[c->ntls_copies].obj = o;
    c->tls_copies[c->ntls_copies].thread = c->cur;
    c->tls_copies[c->ntls_copies++].copy = k;
    return k;
}

static cval const_val(cfront *c, LLVMValueRef v)
{
    if (is_float_type(p_LLVMTypeOf(v)) && p_LLVMIsAConstantFP(v)) {
        /* a double's bits (a float's value as a double: exact) */
        LLVMBool loses = 0;
        double d = p_LLVMConstRealGetDouble(v, &loses);
        wmx_val bits;
        memcpy(&bits, &d, sizeof bits);
        return cv_const(bits);
    }
    if (p_LLVMIsAConstantInt(v)) {
        int w = int_width(p_LLVMTypeOf(v));
        return cv_const(w == 1 ? (wmx_val)p_LLVMConstIntGetZExtValue(v) : sext_w(p_LLVMConstIntGetSExtValue(v), w));
    }
    if (p_LLVMIsAConstantPointerNull(v) || p_LLVMIsUndef(v) || p_LLVMIsAConstantAggregateZero(v))
        return cv_const(0);
    if (p_LLVMIsAFunction(v)) {
        cval r = { .kind = CV_FUNC, .fn = v, .offx = -1 };
        return r;
    }
    if (p_LLVMIsAGlobalVariable(v)) {
        int o = pmap_get(&c->gobj, v);
        if (o < 0) {
            fail(c, NULL, "unsupported: the global '%s'", vname(v));
            return cv_const(0);
        }
        if (c->objs[o].tls && c->cur != 0)
            o = tls_copy(c, o);
        cval r = { .kind = CV_PTR, .obj = o, .off = 0, .offx = -1 };
        return r;
    }
    if (p_LLVMIsAConstantExpr(v)) {
        LLVMOpcode op = p_LLVMGetConstOpcode(v);
        switch (op) {
        case LLVMPtrToInt: {
            /* &((T *)0)->m, the old offsetof: C's byte offset */
            long bytes;
            if (null_gep_bytes(c, p_LLVMGetOperand(v, 0), &bytes))
                return cv_const((wmx_val)bytes);
            return const_val(c, p_LLVMGetOperand(v, 0));
        }
        case LLVMBitCast:
        case LLVMIntToPtr:
        case LLVMAddrSpaceCast:
            return const_val(c, p_LLVMGetOperand(v, 0));
        case LLVMGetElementPtr:
            return gep_apply(c, const_val(c, p_LLVMGetOperand(v, 0)), p_LLVMGetGEPSourceElementType(v), v, 1,
                             (unsigned)p_LLVMGetNumOperands(v) - 1);
        case LLVMAdd:
        case LLVMSub:
        case LLVMMul: {
            cval a = const_val(c, p_LLVMGetOperand(v, 0)), b = const_val(c, p_LLVMGetOperand(v, 1));
            if (a.kind == CV_CONST && b.kind == CV_CONST)
                return cv_const(op == LLVMAdd ? a.c + b.c : op == LLVMSub ? a.c - b.c : a.c * b.c);
            break;
        }
        default:
            break;
        }
    }
    fail(c, NULL, "unsupported: a constant of this kind");
    return cv_const(0);
}

static cval val(cfront *c, LLVMValueRef v)
{
    if (p_LLVMIsAInstruction(v) || p_LLVMIsAArgument(v)) {
        int i = value_index(c, v);
        if (i < 0) {
            fail(c, NULL, "internal: a value from another function");
            return cv_const(0);
        }
        cval r = top_inst(c)->env[i];
        if (r.kind == CV_NONE) {
            fail(c, NULL, "internal: a value used before it is defined");
            return cv_const(0);
        }
        return r;
    }
    return const_val(c, v);
}

static void set_val(cfront *c, LLVMValueRef v, cval r)
{
    int i = value_index(c, v);
    if (i >= 0)
        top_inst(c)->env[i] = r;
}

/* A computed value: a constant stays one; otherwise it goes to v's register. */
static cval define(cfront *c, LLVMValueRef v, int e)
{
    if (c->p->exprs[e].op == OP_CONST) {
        cval r = cv_const(c->p->exprs[e].value);
        set_val(c, v, r);
        return r;
    }
    int reg = reg_for(c, v);
    emit_let(c, reg, e);
    cval r = cv_reg(reg);
    set_val(c, v, r);
    return r;
}

static int is_bitcast(LLVMValueRef v)
{
    return p_LLVMIsAInstruction(v) ? p_LLVMGetInstructionOpcode(v) == LLVMBitCast
                                   : p_LLVMIsAConstantExpr(v) && p_LLVMGetConstOpcode(v) == LLVMBitCast;
}

/* The pointee of a pointer-typed value, NULL if it is not one. */
static LLVMTypeRef pointee(LLVMValueRef v)
{
    LLVMTypeRef t = p_LLVMTypeOf(v);
    return p_LLVMGetTypeKind(t) == LLVMPointerTypeKind ? p_LLVMGetElementType(t) : NULL;
}

/* Cells to move for C's byte offset `bytes` through an i8 GEP g whose base
 * wmx cannot map byte by byte (a pointer read at run time, or a place
 * outside the known object), INT_MIN when nothing tells.  Memory has one
 * cell per scalar, so the layout comes from the types around g:
 * container_of casts the result to the struct it steps back into; a pointer
 * cast to char * from T * steps through T (a struct or array from its
 * start, or elements of T's size).  BYTE_STEP_UNKNOWN when they do not
 * explain the offset. */
#define BYTE_STEP_UNKNOWN (INT_MIN + 1)

static int byte_step_cells(cfront *c, LLVMValueRef g, long bytes)
{
    if (bytes == 0)
        return 0;
    if (bytes < 0)
        for (LLVMUseRef u = p_LLVMGetFirstUse(g); u; u = p_LLVMGetNextUse(u)) {
            LLVMValueRef user = p_LLVMGetUser(u);
            LLVMTypeRef t = is_bitcast(user) ? pointee(user) : NULL;
            if (t && (p_LLVMGetTypeKind(t) == LLVMStructTypeKind || p_LLVMGetTypeKind(t) == LLVMArrayTypeKind)) {
                int cell = byte_to_cell(c, t, -bytes);
                if (cell > 0)
                    return -cell;
            }
        }
    LLVMValueRef b = p_LLVMGetOperand(g, 0);
    LLVMTypeRef t = is_bitcast(b) ? pointee(p_LLVMGetOperand(b, 0)) : NULL;
    if (!t)
        return INT_MIN;
    LLVMTypeKind k = p_LLVMGetTypeKind(t);
    if ((k == LLVMStructTypeKind || k == LLVMArrayTypeKind) && bytes > 0) {
        int cell = byte_to_cell(c, t, bytes);
        if (cell >= 0)
            return cell;
    }
    long sz = (long)p_LLVMABISizeOfType(c->td, t);
    int n = type_cells(c, t);
    if (sz > 0 && n > 0 && bytes % sz == 0)
        return (int)(bytes / sz) * n;
    return k == LLVMIntegerTypeKind && p_LLVMGetIntTypeWidth(t) == 8 ? INT_MIN : BYTE_STEP_UNKNOWN;
}

/* &((T *)0)->m and the like: the byte offset C gives it, in *out. */
static int null_gep_bytes(cfront *c, LLVMValueRef g, long *out)
{
    if (!p_LLVMIsAConstantExpr(g) || p_LLVMGetConstOpcode(g) != LLVMGetElementPtr ||
        !p_LLVMIsAConstantPointerNull(p_LLVMGetOperand(g, 0)))
        return 0;
    LLVMTypeRef ty = p_LLVMGetGEPSourceElementType(g);
    long off = 0;
    unsigned n = (unsigned)p_LLVMGetNumOperands(g);
    for (unsigned k = 1; k < n; k++) {
        LLVMValueRef ix = p_LLVMGetOperand(g, k);
        if (!p_LLVMIsAConstantInt(ix))
            return 0;
        long i = (long)p_LLVMConstIntGetSExtValue(ix);
        if (k == 1) {
            off += i * (long)p_LLVMABISizeOfType(c->td, ty);
        } else if (p_LLVMGetTypeKind(ty) == LLVMStructTypeKind) {
            off += (long)p_LLVMOffsetOfElement(c->td, ty, (unsigned)i);
            ty = p_LLVMStructGetTypeAtIndex(ty, (unsigned)i);
        } else if (p_LLVMGetTypeKind(ty) == LLVMArrayTypeKind) {
            ty = p_LLVMGetElementType(ty);
            off += i * (long)p_LLVMABISizeOfType(c->td, ty);
        } else {
            return 0;
        }
    }
    *out = off;
    return 1;
}

static cval gep_apply(cfront *c, cval base, LLVMTypeRef srcty, LLVMValueRef g, unsigned first, unsigned nidx)
{
    if (p_LLVMGetTypeKind(srcty) == LLVMIntegerTypeKind && p_LLVMGetIntTypeWidth(srcty) == 8 && nidx == 1) {
        cval idx = val(c, p_LLVMGetOperand(g, first));
        if (base.kind == CV_PTR && base.offx < 0 && c->objs[base.obj].type) {
            /* a byte offset into a known object */
            LLVMTypeRef ot = c->objs[base.obj].type;
            long b = idx.kind == CV_CONST ? cell_to_byte(c, ot, base.off) : -1;
            int cell = b < 0 ? -1 : byte_to_cell(c, ot, b + (long)idx.c);
            int step = cell >= 0 || idx.kind != CV_CONST ? INT_MIN : byte_step_cells(c, g, (long)idx.c);
            if (cell < 0 && (step == INT_MIN || step == BYTE_STEP_UNKNOWN)) {
                fail(c, NULL, "unsupported: a byte offset into '%s' that is not a whole field", c->objs[base.obj].name);
                return base;
            }
            /* outside the object (container_of of a list head): a place
             * to compute with, which an access would check */
            base.off = cell >= 0 ? cell : base.off + step;
            return base;
        }
        int step = idx.kind == CV_CONST && base.kind != CV_PTR ? byte_step_cells(c, g, (long)idx.c) : INT_MIN;
        if (step == BYTE_STEP_UNKNOWN) {
            fail(c, NULL, "unsupported: a byte offset (%ld) that is not a whole number of fields of what the pointer points to",
                 (long)idx.c);
            return base;
        }
        if (step != INT_MIN) {
            if (base.kind == CV_CONST)
                return cv_const(base.c + (wmx_val)step * 8);
            cval r = { .kind = CV_REG, .offx = -1 };
            r.reg = temp_reg(c);
            emit_let(c, r.reg, e_bin(c, OP_ADD, e_of(c, base), e_const(c, (wmx_val)step * 8)));
            return r;
        }
    }
    long off = 0;
    int offx = -1;
    LLVMTypeRef ty = srcty;
    for (unsigned k = 0; k < nidx && !c->failed; k++) {
        cval idx = val(c, p_LLVMGetOperand(g, first + k));
        int scale;
        if (k == 0) {
            scale = type_cells(c, ty);
        } else if (p_LLVMGetTypeKind(ty) == LLVMStructTypeKind) {
            if (idx.kind != CV_CONST) {
                fail(c, NULL, "unsupported: a computed struct field");
                break;
            }
            off += field_offset(c, ty, (unsigned)idx.c);
            ty = p_LLVMStructGetTypeAtIndex(ty, (unsigned)idx.c);
            continue;
        } else if (p_LLVMGetTypeKind(ty) == LLVMArrayTypeKind) {
            ty = p_LLVMGetElementType(ty);
            scale = type_cells(c, ty);
        } else {
            fail(c, NULL, "unsupported: pointer arithmetic on this type");
            break;
        }
        if (scale < 0) {
            fail(c, NULL, "unsupported: a type that is not made of integers and pointers");
            break;
        }
        if (idx.kind == CV_CONST) {
            off += (long)idx.c * scale;
        } else {
            int e = e_bin(c, OP_MUL, e_of(c, idx), e_const(c, scale));
            offx = offx < 0 ? e : e_bin(c, OP_ADD, offx, e);
        }
    }
    if (base.kind == CV_PTR) {
        base.off += (int)off;
        if (offx >= 0)
            base.offx = base.offx < 0 ? offx : e_bin(c, OP_ADD, base.offx, offx);
        if (base.offx < 0 && (base.off < 0 || base.off >= c->objs[base.obj].ncells) &&
            !(base.off == c->objs[base.obj].ncells) && c->forked) {
            /* after a fork this path may never run: the access checks
             * its cell when it does */
            base.offx = e_const(c, base.off);
            base.off = 0;
        } else if (base.offx < 0 && (base.off < 0 || base.off >= c->objs[base.obj].ncells) &&
            !(base.off == c->objs[base.obj].ncells))
            fail(c, NULL, "out of bounds: cell %d of '%s' (%d cells)", base.off, c->objs[base.obj].name,
                 c->objs[base.obj].ncells);
        return base;
    }
    if (base.kind == CV_CONST && offx < 0)
        return cv_const(base.c + off * 8);
    int e = e_bin(c, OP_ADD, e_of(c, base), e_const(c, off * 8));
    if (offx >= 0)
        e = e_bin(c, OP_ADD, e, e_bin(c, OP_MUL, offx, e_const(c, 8)));
    cval r = { .kind = CV_REG, .offx = -1 };
    r.reg = temp_reg(c);
    emit_let(c, r.reg, e);
    return r;
}

/* The memory operand for an access through pointer value v. */
static ir_addr addr_of(cfront *c, cval v)
{
    ir_addr a = { .var = -1, .index = -1, .ptr = -1 };
    if (v.kind == CV_PTR) {
        obj_make_real(c, v.obj);
        if (c->failed)
            return a;
        c->objs[v.obj].touched = 1;
        a.var = c->objs[v.obj].var;
        if (v.offx >= 0)
            a.index = v.off ? e_bin(c, OP_ADD, e_const(c, v.off), v.offx) : v.offx;
        else
            a.index = e_const(c, v.off);
        return a;
    }
    a.ptr = e_of(c, v);
    c->prelude_over = 1;
    return a;
}

/* ---- threads ------------------------------------------------------------- */


static int new_flag_var(cfront *c, const char *what, int t)
{
    char name[96];
    snprintf(name, sizeof name, "$%s.%d", what, t);
    int v = ir_add_var(c->p, name, 1);
    c->p->vars[v].elem_size = 8;
    return v;
}

static void emit_flag(cfront *c, ir_kind kind, int var, const char *text)
{
    ir_instr in = ir_instr_init(kind, (wmx_srcloc){ 0, 0, 0 });
    in.addr.var = var;
    in.addr.index = e_const(c, 0);
    in.e1 = e_const(c, 1);
    in.cmp = OP_EQ;
    emit(c, &in, text);
}

static void rename_thread(cfront *c, int t, char *name)
{
    char *old = c->p->threads[t].name;
    char a[200], b[200];
    for (int i = 0; i < c->p->nthreads; i++)
        for (int k = 0; k < c->p->threads[i].ninstrs; k++) {
            ir_instr *in = &c->p->threads[i].instrs[k];
            for (int w = 0; w < 2; w++) {
                snprintf(a, sizeof a, "%s(%s)", w ? "pthread_join" : "pthread_create", old);
                if (in->text && strcmp(in->text, a) == 0) {
                    snprintf(b, sizeof b, "%s(%s)", w ? "pthread_join" : "pthread_create", name);
                    free(in->text);
                    in->text = wmx_strdup(b);
                }
            }
        }
    free(old);
    c->p->threads[t].name = name;
}

/* The creator stores a thread argument computed at run time where the
 * thread reads it after its start (both sides of the $start flag). */
static void store_thread_arg(cfront *c, int id, int arg_expr)
{
    cthread *th = &c->threads[id];
    if (th->arg_var < 0) {
        char name[300];
        snprintf(name, sizeof name, "$arg.%s", c->p->threads[th->t].name);
        th->arg_var = ir_add_var(c->p, name, 1);
    }
    ir_instr st = ir_instr_init(I_STORE, (wmx_srcloc){ 0, 0, 0 });
    st.addr.var = th->arg_var;
    st.e1 = arg_expr;
    emit(c, &st, "(the thread's argument)");
}

/* Appends n raw bytes to a key (kmap keys are bytes, not text). */
static void key_bytes(wmx_strbuf *b, const void *p, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = wmx_realloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, p, n);
    b->len += n;
    b->s[b->len] = '\0';
}

/* Appends what names this run of the current instruction among the ways
 * the translation forks into: the thread, the instruction, and each
 * frame's call and times round its loops.  Two ways with the same key are
 * never both run, and one way never meets its key twice (a time round
 * changes it), so what the key names may be shared by all of them. */
static void instance_key(cfront *c, wmx_strbuf *b)
{
    key_bytes(b, &c->cur, sizeof c->cur);
    key_bytes(b, &c->here, sizeof c->here);
    for (int d = 0; d < c->depth; d++) {
        frame *F = &c->stack[d];
        finfo *fi = c->insts[F->inst].fi;
        key_bytes(b, &F->call, sizeof F->call);
        key_bytes(b, &fi, sizeof fi);
        key_bytes(b, F->counters, (size_t)fi->nheaders * sizeof *F->counters);
    }
}

static int thread_create(cfront *c, LLVMValueRef fn, cval arg, int arg_expr)
{
    if (c->nthreads + 1 >= WMX_MAX_THREADS) {
        fail(c, NULL, "unsupported: more than %d threads", WMX_MAX_THREADS - 1);
        return -1;
    }
    if (p_LLVMIsDeclaration(fn)) {
        fail(c, NULL, "unsupported: a thread function without a body ('%s')", vname(fn));
        return -1;
    }
    flush_joins(c);           /* the new thread starts after them */
    /* The same pthread_create at the same times round every loop around it
     * (in the same frames) starts the same thread on every way the
     * translation forks into: only one of those ways runs.  So a create in
     * a loop costs a thread per time round, not one per way (LDV's drivers
     * create and join in a `while (1) switch (nondet)`). */
    wmx_strbuf key = { 0 };
    key_bytes(&key, &fn, sizeof fn);
    key_bytes(&key, &arg.kind, sizeof arg.kind);
    key_bytes(&key, &arg.c, sizeof arg.c);
    key_bytes(&key, &arg.obj, sizeof arg.obj);
    key_bytes(&key, &arg.off, sizeof arg.off);
    key_bytes(&key, &arg.offx, sizeof arg.offx);
    instance_key(c, &key);
    int gated_now = c->forked || c->visible || c->threads[c->cur].gated;
    int *site = kmap_slot(&c->create_sites, key.s, key.len, 1);
    free(key.s);
    if (*site > 0 && gated_now && c->threads[*site].start_var >= 0) {
        if (arg_expr >= 0)
            store_thread_arg(c, *site, arg_expr);
        char text[96];
        snprintf(text, sizeof text, "pthread_create(%s)", c->p->threads[c->threads[*site].t].name);
        emit_flag(c, I_XCHG, c->threads[*site].start_var, text);
        return *site;
    }
    if (c->nthreads == 1)
        c->prelude_objs = c->nobjs;
    c->threads = wmx_realloc(c->threads, (size_t)(c->nthreads + 1) * sizeof *c->threads);
    cthread *th = &c->threads[c->nthreads];
    memset(th, 0, sizeof *th);
    th->fn = fn;
    th->arg = arg;
    th->creator = c->cur;
    /* a function run by several threads: fn.1, fn.2, ... (the first one
     * is renamed when the second appears, and so are the texts naming it) */
    int same = 0;
    for (int j = 1; j < c->nthreads; j++)
        if (c->threads[j].fn == fn)
            same++;
    if (same == 1) {
        for (int j = 1; j < c->nthreads; j++)
            if (c->threads[j].fn == fn)
                rename_thread(c, c->threads[j].t, wmx_asprintf("%s.1", vname(fn)));
    }
    char *tname = same ? wmx_asprintf("%s.%d", vname(fn), same + 1) : wmx_strdup(vname(fn));
    th->t = ir_add_thread(c->p, tname);
    free(tname);
    th->done_var = -1;
    th->start_var = -1;
    th->arg_var = -1;
    th->gated = gated_now;
    int id = c->nthreads++;
    *site = id;
    if (arg_expr >= 0)
        store_thread_arg(c, id, arg_expr);
    if (th->gated) {
        int v = new_flag_var(c, "start", th->t);
        c->threads[id].start_var = v;
        char text[96];
        snprintf(text, sizeof text, "pthread_create(%s)", c->p->threads[th->t].name);
        emit_flag(c, I_XCHG, v, text);
    }
    return id;
}

static void thread_join(cfront *c, cval h)
{
    if (h.kind == CV_CONST && h.c == 0 && c->forked) {
        /* no thread was created into this pthread_t on the way here: a
         * way the run never takes (the branch that led here decided on a
         * value only this translation did not know), or a join that
         * waits for ever */
        emit_block_forever(c, "(pthread_join of a thread this run did not create)", false);
        return;
    }
    if (h.kind != CV_CONST || h.c < 1 || h.c >= c->nthreads) {
        fail(c, NULL, "unsupported: pthread_join of a thread not known while translating "
                      "(keep pthread_t values in variables that only pthread_create writes)");
        return;
    }
    for (int i = 0; i < c->njoins; i++)
        if (c->joins[i] == (int)h.c)
            return;
    if (c->njoins == c->capjoins) {
        c->capjoins = c->capjoins ? 2 * c->capjoins : 16;
        c->joins = wmx_realloc(c->joins, (size_t)c->capjoins * sizeof *c->joins);
        c->join_at = wmx_realloc(c->join_at, (size_t)c->capjoins * sizeof *c->join_at);
    }
    c->join_at[c->njoins] = c->here;
    c->joins[c->njoins++] = (int)h.c;
}

static int store_cell(cfront *c, cval p, cval v, LLVMValueRef in);

/* An emitted store of the constant v at the address p (an object's cell):
 * for instance a pthread_t in memory (a field of a struct a thread reads,
 * an array indexed at run time), where pthread_create stores the thread's
 * number, and a join that loads it dispatches on it (thread_join_loaded). */
static void store_const(cfront *c, cval p, wmx_val v)
{
    ir_addr a = addr_of(c, p);
    if (c->failed)
        return;
    note_write(c, p.obj);
    ir_instr st = ir_instr_init(I_STORE, (wmx_srcloc){ 0, 0, 0 });
    st.addr = a;
    st.e1 = e_const(c, v);
    emit(c, &st, NULL);
}

/* The result cell of thread id (see pthread_join with a result pointer). */
static int thread_result_var(cfront *c, int id)
{
    cthread *jt = &c->threads[id];
    if (!jt->ret_var1) {
        char name[300];
        snprintf(name, sizeof name, "$result.%s", c->p->threads[jt->t].name);
        int v = ir_find_var(c->p, name);
        jt->ret_var1 = 1 + (v >= 0 ? v : ir_add_var(c->p, name, 1));
    }
    return jt->ret_var1 - 1;
}

/* pthread_join(h, ret) of a pthread_t loaded from memory at run time: a
 * jump per thread this thread created (the number pthread_create stored)
 * to a wait for its end (and a load of its result); a value that names
 * none of them blocks (joining no thread is undefined). */
static void thread_join_loaded(cfront *c, cval h, cval ret, LLVMValueRef in)
{
    flush_joins(c);
    int want_result = !(ret.kind == CV_CONST && ret.c == 0);
    int r = want_result ? temp_reg(c) : -1;
    int e = e_of(c, h);
    int n = 0;
    int *jumps = wmx_malloc((size_t)(c->nthreads ? c->nthreads : 1) * sizeof *jumps);
    int *ids = wmx_malloc((size_t)(c->nthreads ? c->nthreads : 1) * sizeof *ids);
    for (int j = 1; j < c->nthreads; j++) {
        if (c->threads[j].creator != c->cur)
            continue;
        ir_instr jp = ir_instr_init(I_JUMP, (wmx_srcloc){ 0, 0, 0 });
        jp.e1 = e_bin(c, OP_EQ, e, e_const(c, j));
        ids[n] = j;
        jumps[n++] = emit(c, &jp, "");
    }
    ir_instr no = ir_instr_init(I_ASSUME, (wmx_srcloc){ 0, 0, 0 });
    no.e1 = e_const(c, 0);
    no.spin = true;
    emit(c, &no, "(pthread_join of a thread this run did not create)");
    int *ends = wmx_malloc((size_t)(n ? n : 1) * sizeof *ends);
    for (int k = 0; k < n && !c->failed; k++) {
        wmx_program *p = c->p;
        p->threads[c->t].instrs[jumps[k]].target = p->threads[c->t].ninstrs;
        cthread *th = &c->threads[ids[k]];
        if (th->done_var < 0)
            th->done_var = new_flag_var(c, "done", th->t);
        char text[96];
        snprintf(text, sizeof text, "pthread_join(%s)", c->p->threads[th->t].name);
        emit_flag(c, I_AWAIT, th->done_var, text);
        if (want_result) {
            ir_instr ld = ir_instr_init(I_LOAD, (wmx_srcloc){ 0, 0, 0 });
            ld.addr.var = thread_result_var(c, ids[k]);
            ld.dst = r;
            emit(c, &ld, NULL);
        }
        ir_instr jp = ir_instr_init(I_JUMP, (wmx_srcloc){ 0, 0, 0 });
        ends[k] = emit(c, &jp, "");
    }
    for (int k = 0; k < n && !c->failed; k++)
        c->p->threads[c->t].instrs[ends[k]].target = c->p->threads[c->t].ninstrs;
    free(jumps);
    free(ids);
    free(ends);
    if (want_result && !c->failed)
        store_cell(c, ret, cv_reg(r), in);
}

static void flush_joins(cfront *c)
{
    c->flushing = 1;
    for (int i = 0; i < c->njoins; i++) {
        cthread *th = &c->threads[c->joins[i]];
        if (th->done_var < 0)
            th->done_var = new_flag_var(c, "done", th->t);
        char text[96];
        snprintf(text, sizeof text, "pthread_join(%s)", c->p->threads[th->t].name);
        /* at the join's own line, not the statement that needed it */
        LLVMValueRef here = c->here;
        c->here = c->join_at[i];
        emit_flag(c, I_AWAIT, c->threads[c->joins[i]].done_var, text);
        c->here = here;
    }
    c->njoins = 0;
    c->flushing = 0;
}

/* ---- calls ---------------------------------------------------------------- */

static int is_error_fn(const char *n)
{
    return strcmp(n, "__assert_fail") == 0 || strcmp(n, "__VERIFIER_error") == 0 ||
           strcmp(n, "__assert_rtn") == 0 || strcmp(n, "reach_error") == 0 || strcmp(n, "__assert") == 0;
}

static int fn_is_sink(cfront *c, LLVMValueRef fn, int depth);

/* A block that fails an assertion before anything else happens. */
static int block_is_sink(cfront *c, LLVMBasicBlockRef b, int depth)
{
    for (LLVMValueRef in = p_LLVMGetFirstInstruction(b); in; in = p_LLVMGetNextInstruction(in)) {
        if (p_LLVMGetInstructionOpcode(in) != LLVMCall)
            return 0;
        LLVMValueRef f = called_fn(in);
        if (!f)
            return 0;
        const char *n = vname(f);
        if (strncmp(n, "llvm.dbg.", 9) == 0 || strncmp(n, "llvm.lifetime.", 14) == 0)
            continue;
        return fn_is_sink(c, f, depth + 1);
    }
    return 0;
}

static int fn_is_sink(cfront *c, LLVMValueRef fn, int depth)
{
    const char *n = vname(fn);
    if (is_error_fn(n) && (p_LLVMIsDeclaration(fn) || strcmp(n, "reach_error") == 0))
        return 1;
    if (p_LLVMIsDeclaration(fn) || depth > 4)
        return 0;
    finfo *fi = func_info(c, fn);
    if (fi->sink < 0)
        fi->sink = fi->nblocks > 0 && block_is_sink(c, fi->blocks[0], depth);
    return fi->sink;
}

static void emit_assert(cfront *c, int e, const char *text)
{
    ir_instr in = ir_instr_init(I_ASSERT, (wmx_srcloc){ 0, 0, 0 });
    in.e1 = e;
    emit(c, &in, text);
}

/* `busy`: what trylock returns when the mutex is taken (EBUSY, thrd_busy) */
static void emit_mutex(cfront *c, cval m, const char *what, LLVMValueRef call, int busy)
{
    ir_addr a = addr_of(c, m);
    if (c->failed)
        return;
    note_write(c, m.kind == CV_PTR ? m.obj : -1);
    /* a held mutex holds its owner's thread number + 1: unlocking one this
     * thread does not hold (another's, or a free one) is an error, as in
     * GenMC and Nidhugg */
    wmx_val owner = (wmx_val)c->t + 1;
    if (strcmp(what, "unlock") == 0) {
        int r = temp_reg(c);
        ir_instr in = ir_instr_init(I_XCHG, (wmx_srcloc){ 0, 0, 0 });
        in.addr = a;
        in.dst = r;
        in.e1 = e_const(c, 0);
        emit(c, &in, NULL);
        char text[160];
        const char *fn = call && p_LLVMIsACallInst(call) && called_fn(call) ? vname(called_fn(call)) : "unlock";
        snprintf(text, sizeof text, "(%s of a mutex this thread does not hold)", fn);
        emit_assert(c, e_bin(c, OP_EQ, ir_reg(c->p, r), e_const(c, owner)), text);
        set_val(c, call, cv_const(0));
        return;
    }
    int r = temp_reg(c);
    ir_instr in = ir_instr_init(I_CAS, (wmx_srcloc){ 0, 0, 0 });
    in.addr = a;
    in.dst = r;
    in.e1 = e_const(c, 0);
    in.e2 = e_const(c, owner);
    /* lock: the thread waits while another holds the mutex, as in Nidhugg
     * and GenMC; a CAS that could fail and then block would add an
     * execution per attempt on a held mutex */
    in.blocking = strcmp(what, "lock") == 0;
    /* a trylock of a held mutex writes back what it read, as x86's LOCK
     * CMPXCHG does: later accesses of the mutex read it, so failed
     * trylocks are ordered (Nidhugg's counts), and the mutex stays a chain
     * of RMWs for RF-SMC (core/rfsmc.c, find_chain_cells) */
    in.writes_back = !in.blocking;
    emit(c, &in, NULL);
    if (in.blocking) {
        set_val(c, call, cv_const(0));
    } else {
        /* trylock: 0 on success, `busy` otherwise */
        define(c, call, e_bin(c, OP_MUL, e_bin(c, OP_NE, ir_reg(c->p, r), e_const(c, 0)), e_const(c, busy)));
    }
}

static wmx_val *barrier_count(cfront *c, cval b, int make)
{
    for (int i = 0; i < c->nbarriers; i++)
        if (c->barriers[i].obj == b.obj && c->barriers[i].off == b.off)
            return &c->barriers[i].count;
    if (!make)
        return NULL;
    if (c->nbarriers == c->capbarriers) {
        c->capbarriers = c->capbarriers ? 2 * c->capbarriers : 4;
        c->barriers = wmx_realloc(c->barriers, (size_t)c->capbarriers * sizeof *c->barriers);
    }
    c->barriers[c->nbarriers].obj = b.obj;
    c->barriers[c->nbarriers].off = b.off;
    return &c->barriers[c->nbarriers++].count;
}

/* pthread_barrier_init(&b, attr, N): the barrier's cell counts arrivals
 * from 0; N is known while translating and kept beside it. */
static void barrier_init(cfront *c, LLVMValueRef call)
{
    cval b = val(c, p_LLVMGetOperand(call, 0));
    cval n = val(c, p_LLVMGetOperand(call, 2));
    if (b.kind != CV_PTR || b.offx >= 0 || n.kind != CV_CONST || n.c <= 0) {
        fail(c, call, "unsupported: pthread_barrier_init of a barrier or a count not known while translating");
        return;
    }
    *barrier_count(c, b, 1) = n.c;
    if (cells_current(c, b.obj)) {
        obj_set_cell(c, b.obj, b.off, cv_const(0));
    } else {
        store_const(c, b, 0);
    }
    set_val(c, call, cv_const(0));
}

/* Whether fn, or a function it calls, may wait at barrier global g. */
static int fn_waits_on(LLVMValueRef fn, LLVMValueRef g, int depth)
{
    if (!fn || p_LLVMIsDeclaration(fn) || depth > 8)
        return 0;
    for (LLVMBasicBlockRef bb = p_LLVMGetFirstBasicBlock(fn); bb; bb = p_LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef x = p_LLVMGetFirstInstruction(bb); x; x = p_LLVMGetNextInstruction(x)) {
            if (!p_LLVMIsACallInst(x))
                continue;
            LLVMValueRef f = called_fn(x);
            if (!f)
                continue;
            if (strcmp(vname(f), "pthread_barrier_wait") == 0) {
                LLVMValueRef a = p_LLVMGetOperand(x, 0);
                while (p_LLVMIsAConstantExpr(a))
                    a = p_LLVMGetOperand(a, 0);
                if (a == g || !p_LLVMIsAGlobalVariable(a))
                    return 1;   /* through a pointer: maybe g */
            } else if (f != fn && fn_waits_on(f, g, depth + 1)) {
                return 1;
            }
        }
    return 0;
}

/* The threads that may wait at barrier object o when each is one arrival
 * of exactly `count`: then participant k has cells of its own in *slot_var
 * (made here, 3 * count cells: see barrier_wait), and the k-th
 * participant's index is returned.
 * -1 otherwise (main takes part, the barrier is not a global of its own,
 * or the numbers differ). */
static int barrier_participant(cfront *c, cval b, wmx_val count, int *slot_var, int *nslots)
{
    if (c->cur == 0 || c->objs[b.obj].ncells != 1)
        return -1;
    LLVMValueRef g = NULL;
    for (LLVMValueRef x = p_LLVMGetFirstGlobal(c->mod); x && !g; x = p_LLVMGetNextGlobal(x))
        if (pmap_get(&c->gobj, x) == b.obj)
            g = x;
    if (!g || fn_waits_on(c->threads[0].fn, g, 0))
        return -1;
    int k = -1, n = 0;
    for (int u = 1; u < c->nthreads; u++)
        if (fn_waits_on(c->threads[u].fn, g, 0)) {
            if (u == c->cur)
                k = n;
            n++;
        }
    if (k < 0 || n != count)
        return -1;
    char name[200];
    snprintf(name, sizeof name, "$arrivals.%s", c->objs[b.obj].name);
    int o = -1;
    for (int i = 0; i < c->nobjs && o < 0; i++)
        if (strcmp(c->objs[i].name, name) == 0)
            o = i;
    if (o < 0) {
        o = obj_new(c, name, 3 * n);
        c->objs[o].type = p_LLVMArrayType(p_LLVMInt64TypeInContext(p_LLVMGetModuleContext(c->mod)), (unsigned)(3 * n));
        obj_make_real(c, o);
        c->objs[o].thread_writes = 1;
    }
    *slot_var = c->objs[o].var;
    *nslots = n;
    return k;
}

/* pthread_barrier_wait: arrive (an atomic increment), then wait until the
 * whole round has arrived: arrival r of a barrier of N waits for the count
 * to reach (r / N + 1) * N, so a barrier can be used round after round.
 * The last to arrive gets PTHREAD_BARRIER_SERIAL_THREAD (-1), the others 0.
 * N! orders of arrival: GenMC's count for N threads at one barrier. */
static void barrier_wait(cfront *c, LLVMValueRef call)
{
    cval b = val(c, p_LLVMGetOperand(call, 0));
    wmx_val *np = b.kind == CV_PTR && b.offx < 0 ? barrier_count(c, b, 0) : NULL;
    if (!np) {
        fail(c, call, "unsupported: pthread_barrier_wait on a barrier not initialised by pthread_barrier_init "
                      "with a count known while translating");
        return;
    }
    wmx_val n = *np;
    int slots = -1, nslots = 0;
    int k = barrier_participant(c, b, n, &slots, &nslots);
    if (c->failed)
        return;
    if (k >= 0) {
        /* Cells written only by participant k: its count of rounds (cell
         * k, no other thread reads it), and its arrival at round r, r + 1
         * written to cell nslots + 2k + r % 2.  The others wait for that
         * value: a participant is at most one round ahead of one still
         * waiting, so the cell of round r's parity holds its arrival at r
         * and no later one, and every wait has one write to read.  Arrivals
         * do not race, so their order makes no new executions, round after
         * round (GenMC counts one execution for threads meeting at a
         * barrier). */
        int r = temp_reg(c);
        ir_instr inc = ir_instr_init(I_FAA, (wmx_srcloc){ 0, 0, 0 });
        inc.addr.var = slots;
        inc.addr.index = e_const(c, k);
        inc.dst = r;
        inc.e1 = e_const(c, 1);
        emit(c, &inc, "pthread_barrier_wait: count the round");
        int parity = e_bin(c, OP_MOD, ir_reg(c->p, r), e_const(c, 2));
        ir_instr arrive = ir_instr_init(I_XCHG, (wmx_srcloc){ 0, 0, 0 });
        arrive.addr.var = slots;
        arrive.addr.index = e_bin(c, OP_ADD, e_const(c, nslots + 2 * k), parity);
        arrive.dst = temp_reg(c);
        arrive.e1 = e_bin(c, OP_ADD, ir_reg(c->p, r), e_const(c, 1));
        emit(c, &arrive, "pthread_barrier_wait: arrive");
        for (int u = 0; u < nslots; u++) {
            if (u == k)
                continue;
            ir_instr aw = ir_instr_init(I_AWAIT, (wmx_srcloc){ 0, 0, 0 });
            aw.addr.var = slots;
            aw.addr.index = e_bin(c, OP_ADD, e_const(c, nslots + 2 * u), parity);
            aw.cmp = OP_GE;
            aw.e1 = e_bin(c, OP_ADD, ir_reg(c->p, r), e_const(c, 1));
            emit(c, &aw, "pthread_barrier_wait: the others arrive");
        }
        /* one participant is the serial thread of every round */
        set_val(c, call, cv_const(k == 0 ? -1 : 0));
        return;
    }
    ir_addr a = addr_of(c, b);
    if (c->failed)
        return;
    note_write(c, b.obj);
    int r = temp_reg(c);
    ir_instr inc = ir_instr_init(I_FAA, (wmx_srcloc){ 0, 0, 0 });
    inc.addr = a;
    inc.dst = r;
    inc.e1 = e_const(c, 1);
    emit(c, &inc, "pthread_barrier_wait: arrive");
    ir_instr aw = ir_instr_init(I_AWAIT, (wmx_srcloc){ 0, 0, 0 });
    aw.addr = a;
    aw.cmp = OP_GE;
    aw.e1 = e_bin(c, OP_MUL, e_bin(c, OP_ADD, e_bin(c, OP_DIV, ir_reg(c->p, r), e_const(c, n)), e_const(c, 1)),
                  e_const(c, n));
    emit(c, &aw, "pthread_barrier_wait: the others arrive");
    define(c, call, e_bin(c, OP_SUB, e_const(c, 0),
                          e_bin(c, OP_EQ, e_bin(c, OP_MOD, ir_reg(c->p, r), e_const(c, n)), e_const(c, n - 1))));
}

static void thread_end(cfront *c);
static void thread_exit(cfront *c, int key);
static void free_stack(frame *s, int depth);
static void go_fork_mode(cfront *c);
static void push_pending(cfront *c, int from, int to, int jump);
static void thread_result(cfront *c, cval r);
static void enter_edge(cfront *c, int from, int to);

/* malloc(n) / calloc(k, n) of a size known while translating: a fresh
 * object each time the call runs (the translated code has no loops, so each
 * call in it is one allocation), typed by the pointer the result is cast
 * to.  free() does nothing: objects are never reused. */
static int handle_global(LLVMModuleRef m, LLVMValueRef g);

/* Room for a count known only at run time (expression e: a malloc's bytes
 * over its element's `esz`, a variable-length array's length): the count
 * made here, MALLOC_RUN_TIME_CAP or --unroll's if more, and a run that
 * asks for more is cut there, as a loop is at its bound. */
static long run_time_cap(cfront *c, int e, long esz, const char *what)
{
    long cap = c->unroll > MALLOC_RUN_TIME_CAP ? c->unroll : MALLOC_RUN_TIME_CAP;
    ir_instr as = ir_instr_init(I_ASSUME, (wmx_srcloc){ 0, 0, 0 });
    as.e1 = e_bin(c, OP_LE, e, e_const(c, cap * esz));
    as.bound_cut = true;
    char why[160];
    snprintf(why, sizeof why, "(%s bound reached: a size known at run time over %ld elements)", what, cap);
    emit(c, &as, why);
    return cap;
}

static void do_malloc(cfront *c, LLVMValueRef in, int zeroed)
{
    cval a = val(c, p_LLVMGetOperand(in, 0));
    cval b = zeroed ? val(c, p_LLVMGetOperand(in, 1)) : cv_const(1);
    /* a size known only at run time (`malloc(sizeof(pthread_t) * n)` with
     * n a nondet input): see run_time_cap */
    int run_time = (a.kind == CV_REG || b.kind == CV_REG) && (a.kind == CV_REG || a.kind == CV_CONST) &&
                   (b.kind == CV_REG || b.kind == CV_CONST);
    if (!run_time && (a.kind != CV_CONST || b.kind != CV_CONST || a.c * b.c <= 0 || a.c * b.c > (1 << 20))) {
        fail(c, in, "unsupported: %s of a size not known while translating", zeroed ? "calloc" : "malloc");
        return;
    }
    long bytes = run_time ? 0 : (long)(a.c * b.c);
    LLVMTypeRef elem = NULL;
    for (LLVMUseRef u = p_LLVMGetFirstUse(in); u && !elem; u = p_LLVMGetNextUse(u)) {
        LLVMValueRef user = p_LLVMGetUser(u);
        if (p_LLVMIsAInstruction(user) && p_LLVMGetInstructionOpcode(user) == LLVMBitCast &&
            p_LLVMGetTypeKind(p_LLVMTypeOf(user)) == LLVMPointerTypeKind)
            elem = p_LLVMGetElementType(p_LLVMTypeOf(user));
    }
    if (!elem && p_LLVMGetTypeKind(p_LLVMTypeOf(in)) == LLVMPointerTypeKind)
        elem = p_LLVMGetElementType(p_LLVMTypeOf(in));   /* used as it comes: char * */
    long esz = elem ? (long)p_LLVMABISizeOfType(c->td, elem) : 0;
    if (!elem || esz <= 0 || bytes % esz != 0 || type_cells(c, elem) <= 0) {
        fail(c, in, "unsupported: %s whose result is not cast to a pointer to integers, pointers or structs of them",
             zeroed ? "calloc" : "malloc");
        return;
    }
    if (run_time)
        bytes = esz * run_time_cap(c, e_bin(c, OP_MUL, e_of(c, a), e_of(c, b)), esz, zeroed ? "calloc" : "malloc");
    LLVMTypeRef t = p_LLVMArrayType(elem, (unsigned)(bytes / esz));
    char name[64];
    snprintf(name, sizeof name, "$heap.%d", c->nobjs);
    int o = obj_new(c, name, type_cells(c, t));
    c->objs[o].type = t;
    /* pthread_t *t = malloc(...): its cells are thread handles, as an
     * array's that pthread_create writes */
    if (handle_global(c->mod, in))
        c->objs[o].handle = 1;
    cval r = { .kind = CV_PTR, .obj = o, .off = 0, .offx = -1 };
    set_val(c, in, r);
}

static cval load_cell(cfront *c, cval p, LLVMValueRef in, int dst);
static void out_of_bounds(cfront *c, LLVMValueRef in, cval p);
static int store_cell(cfront *c, cval p, cval v, LLVMValueRef in);

/* Cells in the first `len` bytes of object o, -1 unless they end on a
 * cell boundary. */
static int prefix_cells(cfront *c, int o, long len)
{
    LLVMTypeRef t = c->objs[o].type;
    if (!t || len < 0)
        return -1;
    if (len == (long)p_LLVMABISizeOfType(c->td, t))
        return c->objs[o].ncells;
    return len == 0 ? 0 : byte_to_cell(c, t, len);
}

/* strcpy(d, s) and strncpy(d, s, n) from a string constant: its characters
 * (and strncpy's padding 0s) stored one by one, one cell each, as the
 * library's loop stores them (not atomic). */
static void do_strcpy(cfront *c, LLVMValueRef in, int bounded)
{
    const char *what = bounded ? "strncpy" : "strcpy";
    cval dst = val(c, p_LLVMGetOperand(in, 0));
    LLVMValueRef sg = p_LLVMGetOperand(in, 1);
    while (p_LLVMIsAConstantExpr(sg)) {
        /* a GEP to the start of the string: every index 0 */
        for (int k = 1; k < p_LLVMGetNumOperands(sg); k++) {
            LLVMValueRef ix = p_LLVMGetOperand(sg, (unsigned)k);
            if (!p_LLVMIsAConstantInt(ix) || p_LLVMConstIntGetSExtValue(ix) != 0) {
                fail(c, in, "unsupported: %s from inside a string", what);
                return;
            }
        }
        sg = p_LLVMGetOperand(sg, 0);
    }
    if (!p_LLVMIsAGlobalVariable(sg) || !p_LLVMIsGlobalConstant(sg) || p_LLVMIsDeclaration(sg)) {
        fail(c, in, "unsupported: %s from a string not known while translating (only string constants)", what);
        return;
    }
    LLVMTypeRef st = p_LLVMGlobalGetValueType(sg);
    int n = type_cells(c, st);
    if (n <= 0) {
        fail(c, in, "unsupported: %s from this constant", what);
        return;
    }
    cval *chars = wmx_calloc((size_t)n + 1, sizeof *chars);
    int nk = 0;
    const_fill(c, p_LLVMGetInitializer(sg), st, chars, &nk);
    int len = 0;
    while (len < nk && chars[len].kind == CV_CONST && chars[len].c != 0)
        len++;
    long count = len + 1;
    if (bounded) {
        cval lim = val(c, p_LLVMGetOperand(in, 2));
        if (lim.kind != CV_CONST || lim.c < 0 || lim.c > 1 << 20) {
            free(chars);
            fail(c, in, "unsupported: strncpy of a length not known while translating");
            return;
        }
        count = (long)lim.c;
    }
    for (long i = 0; i < count && !c->failed; i++) {
        cval ch = cv_const(i < len ? chars[i].c : 0);
        cval at = dst;
        if (dst.kind == CV_PTR && dst.offx < 0) {
            at.off = dst.off + (int)i;
        } else if (dst.kind == CV_PTR) {
            at.offx = e_bin(c, OP_ADD, dst.offx, e_const(c, (wmx_val)i));
        } else if (dst.kind == CV_CONST) {
            at = cv_const(dst.c + (wmx_val)i * 8);
        } else {
            at = cv_reg(temp_reg(c));
            emit_let(c, at.reg, e_bin(c, OP_ADD, e_of(c, dst), e_const(c, (wmx_val)i * 8)));
        }
        store_cell(c, at, ch, in);
    }
    free(chars);
    set_val(c, in, dst);
}

/* memset(p, 0, n) and memcpy/memmove(d, s, n) of whole cells from the start
 * of an object (struct copies and `= {0}` initialisers): cell by cell, at
 * translation time where the memory is, as loads and stores where not.
 * A copy of shared memory is then not atomic, as in C. */
static void do_memory_call(cfront *c, LLVMValueRef in, int is_set)
{
    const char *what = is_set ? "memset" : "memcpy";
    cval dst = val(c, p_LLVMGetOperand(in, 0));
    cval len = val(c, p_LLVMGetOperand(in, 2));
    if (dst.kind != CV_PTR || dst.offx >= 0 || len.kind != CV_CONST) {
        fail(c, in, "unsupported: %s to an address or of a length not known while translating", what);
        return;
    }
    int k = dst.off == 0 ? prefix_cells(c, dst.obj, (long)len.c) : -1;
    if (k < 0 || k > c->objs[dst.obj].ncells) {
        fail(c, in, "unsupported: %s of part of a cell or from inside an object", what);
        return;
    }
    if (is_set) {
        cval b = val(c, p_LLVMGetOperand(in, 1));
        if (b.kind != CV_CONST || (b.c & 0xff) != 0) {
            fail(c, in, "unsupported: memset to a value other than 0");
            return;
        }
        for (int i = 0; i < k && !c->failed; i++) {
            cval at = dst;
            at.off = i;
            store_cell(c, at, cv_const(0), in);
        }
        return;
    }
    LLVMValueRef sv = p_LLVMGetOperand(in, 1);
    LLVMValueRef sg = sv;
    while (p_LLVMIsAConstantExpr(sg))
        sg = p_LLVMGetOperand(sg, 0);
    if (p_LLVMIsAGlobalVariable(sg) && p_LLVMIsGlobalConstant(sg)) {
        /* a constant initialiser (clang's __const.f.x copies) */
        cval *tmp = wmx_calloc((size_t)c->objs[dst.obj].ncells + 1, sizeof *tmp);
        int nk = 0;
        LLVMTypeRef st = p_LLVMGlobalGetValueType(sg);
        if (type_cells(c, st) >= 0 && type_cells(c, st) <= c->objs[dst.obj].ncells)
            const_fill(c, p_LLVMGetInitializer(sg), st, tmp, &nk);
        for (int i = 0; i < k && i < nk && !c->failed; i++) {
            cval at = dst;
            at.off = i;
            store_cell(c, at, tmp[i], in);
        }
        free(tmp);
        if (nk < k)
            fail(c, in, "unsupported: memcpy from this constant");
        return;
    }
    cval src = val(c, sv);
    if (src.kind != CV_PTR || src.offx >= 0 || src.off != 0 || prefix_cells(c, src.obj, (long)len.c) != k) {
        fail(c, in, "unsupported: memcpy between objects whose cells do not match");
        return;
    }
    cval *vals = wmx_calloc((size_t)(k ? k : 1), sizeof *vals);
    for (int i = 0; i < k && !c->failed; i++) {   /* all loads first: memmove */
        cval at = src;
        at.off = i;
        vals[i] = load_cell(c, at, in, temp_reg(c));
    }
    for (int i = 0; i < k && !c->failed; i++) {
        cval at = dst;
        at.off = i;
        store_cell(c, at, vals[i], in);
    }
    free(vals);
}

static void do_inline_asm(cfront *c, LLVMValueRef in)
{
    int kind = asm_kind(in);
    if (kind == ASM_UNSUPPORTED) {
        fail(c, in, "unsupported: inline assembly other than a fence (mfence, a lock-prefixed instruction on the stack) "
                    "or a compiler barrier (asm volatile(\"\" ::: \"memory\"))");
        return;
    }
    if (kind == ASM_FENCE) {
        ir_instr fi = ir_instr_init(I_FENCE, (wmx_srcloc){ 0, 0, 0 });
        emit(c, &fi, NULL);
    }
}

static void do_await_call(cfront *c, LLVMValueRef in, int xchg);

/* Whether some loop around the current point has no way out and has gone
 * round --unroll times: threads created there would never end in number. */
static int in_endless_loop_past_bound(cfront *c)
{
    for (int d = 0; d < c->depth; d++) {
        frame *F = &c->stack[d];
        finfo *fi = c->insts[F->inst].fi;
        int n = fi->nblocks;
        for (int h = 0; h < fi->nheaders; h++) {
            const unsigned char *in = fi->inloop + (size_t)h * (size_t)n;
            if (!in[F->bb] || F->counters[h] < c->unroll)
                continue;
            int exits = 0;
            for (int b = 0; b < n && !exits; b++) {
                if (!in[b])
                    continue;
                LLVMValueRef term = p_LLVMGetBasicBlockTerminator(fi->blocks[b]);
                unsigned ns = term ? p_LLVMGetNumSuccessors(term) : 0;
                if (term && p_LLVMGetInstructionOpcode(term) == LLVMRet)
                    exits = 1;
                for (unsigned k = 0; k < ns && !exits; k++) {
                    int sb = pmap_get(&fi->bidx, p_LLVMGetSuccessor(term, k));
                    exits = sb < 0 || !in[sb];
                }
            }
            if (!exits)
                return 1;
        }
    }
    return 0;
}

/* Inside an SV-COMP atomic section: an inlined __VERIFIER_atomic_*
 * function, or after a __VERIFIER_atomic_begin() not yet ended. */
static int in_section(cfront *c)
{
    for (int d = 0; d < c->depth; d++)
        if (c->stack[d].atomic_open > 0 || c->stack[d].atomic_fn)
            return 1;
    return 0;
}

/* A section's first (begin = 1) or last edge: it takes or gives back one
 * lock, $atomic, that every section holds (an RMW: under TSO the buffer is
 * drained before and after, as for a locked instruction sequence).
 * drop_trivial_sections then makes the sections of at most one access
 * plain fences. */
/* Taking (begin) or giving back a section lock: a waiting cas 0 -> 1, an
 * xchg of 0. */
static ir_instr section_lock_instr(cfront *c, int var, int begin, wmx_srcloc loc)
{
    ir_instr in = ir_instr_init(begin ? I_CAS : I_XCHG, loc);
    in.addr.var = var;
    in.e1 = e_const(c, 0);
    if (begin) {
        in.blocking = true;
        in.cmp = OP_EQ;
        in.e2 = e_const(c, 1);
    }
    return in;
}

static void section_edge(cfront *c, int begin)
{
    if (c->atomic_var < 0) {
        c->atomic_var = ir_add_var(c->p, "$atomic", 1);
        if (c->atomic_var < 0) {
            fail(c, NULL, "unsupported: a variable named '$atomic'");
            return;
        }
    }
    ir_instr in = section_lock_instr(c, c->atomic_var, begin, (wmx_srcloc){ 0, 0, 0 });
    emit(c, &in, begin ? "(atomic section begins)" : "(atomic section ends)");
}

static int section_lock(const ir_instr *in, int var)
{
    return in->kind == I_CAS && in->blocking && in->addr.var == var && in->addr.ptr < 0;
}

static int section_unlock(const ir_instr *in, int var)
{
    return in->kind == I_XCHG && in->addr.var == var && in->addr.ptr < 0;
}

/* assume(false): nothing follows it on its path */
static int ends_path(const ir_instr *in)
{
    return in->kind == I_ASSUME && in->ends != IR_ENDS_NONE;
}

/* Most events on a path from instruction i to a section's end (memo[i]:
 * -1 unknown); a large count when the paths are too deep to follow. */
static int section_events(const ir_thread *th, int var, int i, int *memo, int depth, const int *owner, int t)
{
    if (i < 0 || i >= th->ninstrs)
        return 0;
    if (memo[i] >= 0)
        return memo[i];
    if (depth > 20000)
        return 1000;
    const ir_instr *in = &th->instrs[i];
    int r;
    if (section_unlock(in, var) || in->kind == I_HALT || ends_path(in))
        r = 0;
    else if (in->kind == I_JUMP) {
        int a = section_events(th, var, in->target, memo, depth + 1, owner, t);
        int b = in->e1 >= 0 ? section_events(th, var, i + 1, memo, depth + 1, owner, t) : 0;
        r = a > b ? a : b;
    } else {
        /* an access to a variable no other thread touches cannot be seen
         * half done */
        int mine = in->addr.var >= 0 && in->addr.ptr < 0 && owner[in->addr.var] == t;
        r = (ir_is_visible(in) && !mine ? 1 : 0) + section_events(th, var, i + 1, memo, depth + 1, owner, t);
    }
    memo[i] = r > 1000 ? 1000 : r;
    return memo[i];
}

/* Marks the unlocks reachable from i before the section ends. */
static void section_reach(const ir_thread *th, int var, int i, unsigned char *seen, unsigned char *mark,
                          unsigned char bit, int depth)
{
    while (i >= 0 && i < th->ninstrs && !(seen[i] & bit) && depth < 20000) {
        seen[i] |= bit;
        const ir_instr *in = &th->instrs[i];
        if (section_unlock(in, var)) {
            mark[i] |= bit;
            return;
        }
        if (in->kind == I_HALT || ends_path(in))
            return;
        if (in->kind == I_JUMP) {
            if (in->e1 >= 0)
                section_reach(th, var, i + 1, seen, mark, bit, depth + 1);
            i = in->target;
        } else {
            i++;
        }
    }
}

/* Whether instruction i leads to an assume(false) that throws the run away
 * (through unconditional jumps). */
static int leads_to_discard(const wmx_program *p, const ir_thread *th, int i)
{
    for (int hops = 0; i >= 0 && i < th->ninstrs && hops < 16; hops++) {
        const ir_instr *in = &th->instrs[i];
        if (in->kind == I_ASSUME && !in->bound_cut && in->ends != IR_ENDS_EXIT && in->e1 >= 0 &&
            p->exprs[in->e1].op == OP_CONST && p->exprs[in->e1].value == 0)
            return 1;
        if (in->kind == I_JUMP && in->e1 < 0)
            i = in->target;
        else
            return 0;
    }
    return 0;
}

/* The cell a variable operand with a constant index names, or -1. */
static long fixed_cell(const wmx_program *p, const ir_addr *a)
{
    if (a->var < 0 || a->ptr >= 0)
        return -1;
    if (a->index < 0)
        return p->vars[a->var].base;
    if (p->exprs[a->index].op != OP_CONST)
        return -1;
    wmx_val k = p->exprs[a->index].value;
    return k >= 0 && k < p->vars[a->var].length ? p->vars[a->var].base + (long)k : -1;
}

/* A section that waits for a scalar to pass a test and then stores to it
 * (`if (!(m == 0)) abort(); m = 1;` once spin_to_await made the load an
 * await) is one read-modify-write: a lock-like cas that waits for the test
 * and writes the store's value.  It then has one access, so no lock. */
static void fuse_section_rmw(cfront *c, ir_thread *th, int var, int lock)
{
    int j = lock + 1;
    while (j < th->ninstrs && (th->instrs[j].kind == I_LET || th->instrs[j].kind == I_NOP))
        j++;
    if (j >= th->ninstrs)
        return;
    ir_instr *aw = &th->instrs[j];
    long cell = fixed_cell(c->p, &aw->addr);
    if (aw->kind != I_AWAIT || cell < 0 || aw->addr.var == var)
        return;
    /* the path on: lets, and branches whose other side throws the run away */
    int k = j + 1, lets[64], nlets = 0;
    for (int hops = 0; k > j && k < th->ninstrs && hops < 64; hops++) {
        const ir_instr *in = &th->instrs[k];
        if (in->kind == I_NOP) {
            k++;
        } else if (in->kind == I_LET) {
            if (in->dst == aw->dst || nlets == 64)
                return;
            lets[nlets++] = in->dst;
            k++;
        } else if (in->kind == I_JUMP && in->e1 >= 0 && leads_to_discard(c->p, th, in->target)) {
            k++;
        } else if (in->kind == I_JUMP && in->e1 >= 0 && leads_to_discard(c->p, th, k + 1)) {
            k = in->target;
        } else {
            break;
        }
    }
    if (k <= j || k >= th->ninstrs)
        return;
    ir_instr *st = &th->instrs[k];
    if (st->kind != I_STORE || fixed_cell(c->p, &st->addr) != cell || ir_expr_uses(c->p, st->e1, aw->dst))
        return;
    for (int i = 0; i < nlets; i++)
        if (ir_expr_uses(c->p, st->e1, lets[i]))
            return;
    int u = k + 1;
    while (u < th->ninstrs && (th->instrs[u].kind == I_LET || th->instrs[u].kind == I_NOP))
        u++;
    if (u >= th->ninstrs || !section_unlock(&th->instrs[u], var))
        return;
    aw->kind = I_CAS;
    aw->blocking = true;
    aw->e2 = st->e1;
    aw->dst2 = -1;
    st->kind = I_NOP;
}

/* A section with at most one access on every path cannot be interleaved
 * with anything: its lock and unlock become fences (the TSO drain). */
static void drop_trivial_sections(cfront *c)
{
    int var = c->atomic_var;
    if (var < 0 || c->failed)
        return;
    int *owner = wmx_malloc((size_t)c->p->nvars * sizeof *owner);
    ir_var_owners(c->p, owner);
    for (int t = 0; t < c->p->nthreads; t++) {
        ir_thread *th = &c->p->threads[t];
        int n = th->ninstrs;
        int *memo = wmx_malloc((size_t)(n + 1) * sizeof *memo);
        unsigned char *trivial = wmx_calloc((size_t)n + 1, 1);
        unsigned char *seen = wmx_calloc((size_t)n + 1, 1), *mark = wmx_calloc((size_t)n + 1, 1);
        for (int i = 0; i <= n; i++)
            memo[i] = -1;
        for (int i = 0; i < n; i++)
            if (section_lock(&th->instrs[i], var))
                fuse_section_rmw(c, th, var, i);
        for (int i = 0; i < n; i++) {
            if (!section_lock(&th->instrs[i], var))
                continue;
            trivial[i] = section_events(th, var, i + 1, memo, 0, owner, t) <= 1;
            section_reach(th, var, i + 1, seen, mark, trivial[i] ? 1 : 2, 0);
        }
        for (int i = 0; i < n; i++) {
            ir_instr *in = &th->instrs[i];
            if ((section_lock(in, var) && trivial[i]) || (section_unlock(in, var) && mark[i] == 1)) {
                ir_instr f = ir_instr_init(I_FENCE, in->loc);
                f.text = in->text;
                free(f.text);
                f.text = wmx_strdup(section_lock(in, var) ? "(atomic section of one access begins)"
                                                           : "(atomic section of one access ends)");
                *in = f;
            }
        }
        free(memo);
        free(trivial);
        free(seen);
        free(mark);
    }
    free(owner);
}

/* Library calls that only print: they do nothing here. */
static int is_output_only(const char *n)
{
    static const char *const names[] = {
        "printf", "fprintf", "vprintf", "vfprintf", "dprintf", "puts", "fputs", "putchar", "fputc",
        "putc", "perror", "fwrite", "fflush", "setbuf", "setvbuf", NULL
    };
    for (int i = 0; names[i]; i++)
        if (strcmp(n, names[i]) == 0)
            return 1;
    return 0;
}

/* __VERIFIER_nondet_TYPE(): a load of a cell of its own, which the hidden
 * thread `nondet` writes each other value of the domain to (see cfront's
 * nondets); the domain is --nondet clipped to the type. */
/* The constants a __VERIFIER_nondet value is compared with: directly,
 * through casts, or through the variable it is stored into and loaded from
 * again (at -O0 every variable lives in memory). */
static void nondet_compared(LLVMValueRef v, int depth, wmx_val *out, int *n, int cap)
{
    for (LLVMUseRef u = p_LLVMGetFirstUse(v); u && *n < cap; u = p_LLVMGetNextUse(u)) {
        LLVMValueRef user = p_LLVMGetUser(u);
        if (!p_LLVMIsAInstruction(user))
            continue;
        LLVMOpcode op = p_LLVMGetInstructionOpcode(user);
        if (op == LLVMICmp) {
            /* the value on the comparison's true side next to the constant:
             * n >= c gives c, n > c gives c + 1, n < c gives c - 1 */
            LLVMIntPredicate pr = p_LLVMGetICmpPredicate(user);
            for (unsigned k = 0; k < 2 && *n < cap; k++) {
                LLVMValueRef o = p_LLVMGetOperand(user, k);
                if (o == v || !p_LLVMIsAConstantInt(o))
                    continue;
                wmx_val cst = (wmx_val)p_LLVMConstIntGetSExtValue(o);
                int d = 0;
                switch (pr) {
                case LLVMIntSGT: case LLVMIntUGT: d = 1; break;
                case LLVMIntSLT: case LLVMIntULT: d = -1; break;
                default: break;
                }
                if (k == 0)         /* c < n: the constant on the left */
                    d = -d;
                if ((d < 0 && cst == INT64_MIN) || (d > 0 && cst == INT64_MAX))
                    continue;
                out[(*n)++] = cst + d;
            }
        } else if ((op == LLVMSExt || op == LLVMZExt || op == LLVMTrunc) && depth < 4) {
            nondet_compared(user, depth + 1, out, n, cap);
        } else if (op == LLVMStore && p_LLVMGetOperand(user, 0) == v && depth < 4) {
            LLVMValueRef ptr = p_LLVMGetOperand(user, 1);
            int var = p_LLVMIsAGlobalVariable(ptr) != NULL ||
                      (p_LLVMIsAInstruction(ptr) && p_LLVMGetInstructionOpcode(ptr) == LLVMAlloca);
            for (LLVMUseRef pu = var ? p_LLVMGetFirstUse(ptr) : NULL; pu && *n < cap; pu = p_LLVMGetNextUse(pu)) {
                LLVMValueRef ld = p_LLVMGetUser(pu);
                if (p_LLVMIsAInstruction(ld) && p_LLVMGetInstructionOpcode(ld) == LLVMLoad)
                    nondet_compared(ld, depth + 1, out, n, cap);
            }
        }
    }
}

static void do_nondet(cfront *c, LLVMValueRef in, const char *type)
{
    LLVMTypeRef rt = p_LLVMTypeOf(in);
    LLVMTypeKind tk = p_LLVMGetTypeKind(rt);
    if (tk != LLVMIntegerTypeKind && tk != LLVMPointerTypeKind) {
        fail(c, in, "unsupported: __VERIFIER_nondet_%s (only integer values)", type);
        return;
    }
    int w = tk == LLVMPointerTypeKind ? 64 : int_width(rt);
    int uns = type[0] == 'u' || strcmp(type, "size_t") == 0 || strncmp(type, "unsigned", 8) == 0 ||
              strcmp(type, "bool") == 0 || strcmp(type, "_Bool") == 0 || w == 1;
    wmx_val lo = c->nondet_lo, hi = c->nondet_hi;
    if (tk == LLVMPointerTypeKind) {
        lo = hi = 0;            /* a pointer from nowhere: NULL */
    } else if (w == 1 || strcmp(type, "bool") == 0 || strcmp(type, "_Bool") == 0) {
        lo = lo < 0 ? 0 : lo;
        hi = hi > 1 ? 1 : hi;
    } else if (w < 64) {
        wmx_val tmin = uns ? 0 : -((wmx_val)1 << (w - 1));
        wmx_val tmax = uns ? (wmx_val)((1ull << w) - 1) : ((wmx_val)1 << (w - 1)) - 1;
        lo = lo < tmin ? tmin : lo;
        hi = hi > tmax ? tmax : hi;
    } else if (uns && lo < 0) {
        lo = 0;
    }
    if (lo > hi)
        lo = hi = uns ? 0 : c->nondet_lo;
    /* Without --nondet, for each constant the value is compared with, the
     * value next to it on the comparison's true side is tried too, so that
     * `assume_abort_if_not(n >= 20 && n < 40)` is entered (20 and 39) and
     * `if (n == 7) reach_error();` is reached. */
    wmx_val extra[NONDET_EXTRA_MAX];
    int nextra = 0;
    if (!c->nondet_given && tk == LLVMIntegerTypeKind && w > 1) {
        wmx_val consts[64];
        int nc = 0;
        nondet_compared(in, 0, consts, &nc, 64);
        wmx_val tmin = w >= 64 ? (uns ? 0 : INT64_MIN) : uns ? 0 : -((wmx_val)1 << (w - 1));
        wmx_val tmax = w >= 64 ? INT64_MAX : uns ? (wmx_val)((1ull << w) - 1) : ((wmx_val)1 << (w - 1)) - 1;
        for (int i = 0; i < nc; i++) {
            wmx_val x = consts[i];
            if (uns && w < 64 && x < 0)
                x = (wmx_val)((uint64_t)x & ((1ull << w) - 1));   /* -1 compared as unsigned */
            if (x < tmin || x > tmax || (x >= lo && x <= hi))
                continue;
            int seen = 0;
            for (int k = 0; k < nextra; k++)
                seen |= extra[k] == x;
            if (!seen && nextra < NONDET_EXTRA_MAX)
                extra[nextra++] = x;
        }
    }
    char name[48];
    snprintf(name, sizeof name, "$nondet.%d", c->nnondets);
    int var = ir_add_var(c->p, name, 1);
    if (var < 0) {
        fail(c, in, "unsupported: too many __VERIFIER_nondet calls");
        return;
    }
    c->p->cell_init[c->p->vars[var].base] = lo;
    c->nondets = wmx_realloc(c->nondets, (size_t)(c->nnondets + 1) * sizeof *c->nondets);
    c->nondets[c->nnondets].var = var;
    c->nondets[c->nnondets].lo = lo;
    c->nondets[c->nnondets].hi = hi;
    c->nondets[c->nnondets].nextra = nextra;
    memcpy(c->nondets[c->nnondets].extra, extra, (size_t)nextra * sizeof *extra);
    c->nnondets++;
    c->p->has_nondet = true;
    ir_instr ld = ir_instr_init(I_LOAD, (wmx_srcloc){ 0, 0, 0 });
    ld.addr.var = var;
    ld.dst = reg_for(c, in);
    emit(c, &ld, NULL);
    set_val(c, in, cv_reg(ld.dst));
}

/* The instructions that may follow instruction i of th (at most two). */
static int ir_successors(const ir_thread *th, const wmx_program *p, int i, int out[2])
{
    const ir_instr *in = &th->instrs[i];
    int n = 0;
    if (in->kind == I_HALT)
        return 0;
    if (in->kind == I_ASSUME && in->e1 >= 0 && p->exprs[in->e1].op == OP_CONST && p->exprs[in->e1].value == 0)
        return 0;
    if (in->kind == I_JUMP) {
        if (in->target >= 0 && in->target < th->ninstrs)
            out[n++] = in->target;
        if (in->e1 < 0)
            return n;
    }
    if (i + 1 < th->ninstrs)
        out[n++] = i + 1;
    return n;
}

/* Tarjan's strongly connected components of a thread's control flow, without
 * recursion (a translation has hundreds of thousands of instructions):
 * order[i] is i's component's place in a topological order of the
 * components, cyclic[i] whether i is on a cycle.  Both arrays of ninstrs. */
static void ir_thread_order(const wmx_program *p, const ir_thread *th, int *order, unsigned char *cyclic)
{
    int n = th->ninstrs;
    int *index = wmx_malloc((size_t)n * sizeof *index), *low = wmx_malloc((size_t)n * sizeof *low);
    int *stack = wmx_malloc((size_t)n * sizeof *stack), *comp = wmx_malloc((size_t)n * sizeof *comp);
    int *call = wmx_malloc((size_t)n * sizeof *call), *next = wmx_malloc((size_t)n * sizeof *next);
    unsigned char *on = wmx_calloc((size_t)n, 1);
    for (int i = 0; i < n; i++)
        index[i] = -1;
    int counter = 0, sp = 0, ncomp = 0;
    for (int root = 0; root < n; root++) {
        if (index[root] >= 0)
            continue;
        int depth = 0;
        call[depth++] = root;
        next[root] = 0;
        index[root] = low[root] = counter++;
        stack[sp++] = root;
        on[root] = 1;
        while (depth > 0) {
            int v = call[depth - 1], succ[2];
            int ns = ir_successors(th, p, v, succ);
            if (next[v] < ns) {
                int w = succ[next[v]++];
                if (index[w] < 0) {
                    index[w] = low[w] = counter++;
                    next[w] = 0;
                    stack[sp++] = w;
                    on[w] = 1;
                    call[depth++] = w;
                } else if (on[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            depth--;
            if (depth > 0 && low[v] < low[call[depth - 1]])
                low[call[depth - 1]] = low[v];
            if (low[v] == index[v]) {
                int size = 0, w;
                do {
                    w = stack[--sp];
                    on[w] = 0;
                    comp[w] = ncomp;
                    size++;
                } while (w != v);
                int self = 0;
                int s2[2], k2 = ir_successors(th, p, v, s2);
                for (int k = 0; k < k2; k++)
                    self |= s2[k] == v;
                for (int x = sp; x < sp + size; x++)
                    cyclic[stack[x]] = (unsigned char)(size > 1 || self);
                ncomp++;
            }
        }
    }
    /* Tarjan finishes a component after every component it reaches */
    for (int i = 0; i < n; i++)
        order[i] = ncomp - 1 - comp[i];
    free(index);
    free(low);
    free(stack);
    free(comp);
    free(call);
    free(next);
    free(on);
}

struct rank_pair { int rank, k; };

static int cmp_rank(const void *a, const void *b)
{
    const struct rank_pair *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/* One hidden thread that stores the other values of nondet cells `ks` (in
 * that order). */
static void add_nondet_writer(cfront *c, const char *name, const int *ks, int nks)
{
    c->t = ir_add_thread(c->p, name);
    c->here = NULL;
    for (int i = 0; i < nks; i++) {
        int k = ks[i];
        for (wmx_val v = c->nondets[k].lo + 1; v <= c->nondets[k].hi + c->nondets[k].nextra; v++) {
            wmx_val x = v <= c->nondets[k].hi ? v : c->nondets[k].extra[v - c->nondets[k].hi - 1];
            ir_instr st = ir_instr_init(I_STORE, (wmx_srcloc){ 0, 0, 0 });
            st.addr.var = c->nondets[k].var;
            st.e1 = e_const(c, x);
            emit(c, &st, "(a __VERIFIER_nondet value)");
        }
    }
    ir_instr h = ir_instr_init(I_HALT, (wmx_srcloc){ 0, 0, 0 });
    emit(c, &h, "");
}

/* The hidden threads that write the nondet cells' other values.  A load of
 * a cell may read any of them; but a writer's stores are in program order,
 * so a read that saw cell B's store after all of cell A's forces a later
 * read of A to see A's last value.  One writer per reader thread, storing
 * its cells in a topological order of the reader's code, lets every path
 * read any combination (no path reads them out of that order, and no other
 * thread reads them); a cell read on a cycle of the reader's code (or by
 * two loads) gets a writer of its own. */
static void add_nondet_thread(cfront *c)
{
    if (!c->nnondets || c->failed)
        return;
    wmx_program *p = c->p;
    /* the program's report: every value added at a constant, once, ascending */
    for (int k = 0; k < c->nnondets; k++)
        for (int e = 0; e < c->nondets[k].nextra; e++) {
            wmx_val x = c->nondets[k].extra[e];
            int at = 0;
            while (at < p->nondet_nextra && p->nondet_extra[at] < x)
                at++;
            if (at < p->nondet_nextra && p->nondet_extra[at] == x)
                continue;
            p->nondet_extra = wmx_realloc(p->nondet_extra, (size_t)(p->nondet_nextra + 1) * sizeof *p->nondet_extra);
            memmove(p->nondet_extra + at + 1, p->nondet_extra + at,
                    (size_t)(p->nondet_nextra - at) * sizeof *p->nondet_extra);
            p->nondet_extra[at] = x;
            p->nondet_nextra++;
        }
    int *site = wmx_malloc((size_t)p->nvars * sizeof *site);
    for (int v = 0; v < p->nvars; v++)
        site[v] = -1;
    for (int k = 0; k < c->nnondets; k++)
        site[c->nondets[k].var] = k;
    /* per cell: its reader thread, where it stands in that thread's order,
     * and whether it needs a writer of its own */
    int *reader = wmx_malloc((size_t)c->nnondets * sizeof *reader);
    int *rank = wmx_malloc((size_t)c->nnondets * sizeof *rank);
    unsigned char *alone = wmx_calloc((size_t)c->nnondets, 1);
    for (int k = 0; k < c->nnondets; k++)
        reader[k] = -1;
    int nreaders = p->nthreads;
    for (int t = 0; t < nreaders; t++) {
        const ir_thread *th = &p->threads[t];
        int *order = NULL;
        unsigned char *cyclic = NULL;
        for (int i = 0; i < th->ninstrs; i++) {
            const ir_instr *in = &th->instrs[i];
            if (in->kind != I_LOAD || in->addr.var < 0 || site[in->addr.var] < 0)
                continue;
            int k = site[in->addr.var];
            if (!order) {
                order = wmx_malloc((size_t)th->ninstrs * sizeof *order);
                cyclic = wmx_calloc((size_t)th->ninstrs, 1);
                ir_thread_order(p, th, order, cyclic);
            }
            if (reader[k] >= 0)
                alone[k] = 1;
            reader[k] = t;
            rank[k] = order[i];
            if (cyclic[i] || in->addr.index >= 0)
                alone[k] = 1;
        }
        free(order);
        free(cyclic);
    }
    int nwriters = 0;
    for (int t = 0; t < nreaders; t++) {
        int any = 0;
        for (int k = 0; k < c->nnondets; k++) {
            if (reader[k] != t)
                continue;
            if (alone[k])
                nwriters++;
            else
                any = 1;
        }
        nwriters += any;
    }
    if (p->nthreads + nwriters > WMX_MAX_THREADS) {
        fail(c, NULL, "unsupported: more than %d threads (with %d that write __VERIFIER_nondet values)",
             WMX_MAX_THREADS, nwriters);
    } else {
        int *ks = wmx_malloc((size_t)c->nnondets * sizeof *ks);
        struct rank_pair *pairs = wmx_malloc((size_t)c->nnondets * sizeof *pairs);
        for (int t = 0; t < nreaders; t++) {
            int nks = 0;
            for (int k = 0; k < c->nnondets; k++)
                if (reader[k] == t && !alone[k])
                    ks[nks++] = k;
            /* in a topological order (ties: in the order they were made) */
            for (int i = 0; i < nks; i++) {
                pairs[i].rank = rank[ks[i]];
                pairs[i].k = ks[i];
            }
            qsort(pairs, (size_t)nks, sizeof *pairs, cmp_rank);
            for (int i = 0; i < nks; i++)
                ks[i] = pairs[i].k;
            char name[96];
            if (nks) {
                if (nwriters == 1)
                    snprintf(name, sizeof name, "nondet");
                else
                    snprintf(name, sizeof name, "nondet.%s", p->threads[t].name);
                add_nondet_writer(c, name, ks, nks);
            }
            for (int k = 0; k < c->nnondets; k++)
                if (reader[k] == t && alone[k]) {
                    snprintf(name, sizeof name, "nondet.%s.%d", p->threads[t].name, k);
                    add_nondet_writer(c, name, &k, 1);
                }
        }
        free(ks);
        free(pairs);
    }
    free(site);
    free(reader);
    free(rank);
    free(alone);
}

/* ---- atomic sections: one lock per class of variables ------------------- */

static int uf_find(int *up, int x)
{
    while (up[x] != x) {
        up[x] = up[up[x]];
        x = up[x];
    }
    return x;
}

static void uf_union(int *up, int a, int b)
{
    a = uf_find(up, a);
    b = uf_find(up, b);
    if (a != b)
        up[a > b ? a : b] = a < b ? a : b;
}

typedef struct section {
    int thread, pc;
    bool all;            /* an access through a pointer: any variable */
    int nptr;            /* how many such accesses */
    int *vars, nvars, capvars;
} section;

/* The variable a plain access (outside the sections) names, when a lock
 * could be taken around it; -1 otherwise.  Awaits and blocking locks wait,
 * and are left alone. */
static int plain_var(const wmx_program *p, const ir_instr *in, int lockvar)
{
    switch (in->kind) {
    case I_LOAD: case I_STORE: case I_XCHG: case I_FAA:
        break;
    case I_CAS:
        if (in->blocking)
            return -1;
        break;
    default:
        return -1;
    }
    if (in->addr.var < 0 || in->addr.ptr >= 0 || in->addr.var == lockvar)
        return -1;
    if (strncmp(p->vars[in->addr.var].name, "$atomic", 7) == 0)
        return -1;
    return in->addr.var;
}

/* The class whose lock a plain access takes, or -1. */
static int plain_class(const wmx_program *p, const ir_instr *in, int lockvar, int *vclass, const int *cls,
                       const unsigned char *wrap, int nvars0)
{
    int v = plain_var(p, in, lockvar);
    if (v < 0 || v >= nvars0 || !wrap[v])
        return -1;
    return cls[uf_find(vclass, v)];
}

/* Under one lock every section is ordered with every other, and an explorer
 * tries each order: pthread-wmm's tasks (a dozen sections in four threads)
 * have tens of millions.  Sections whose variables are apart commute, so a
 * section takes the locks of the classes of the variables it touches
 * (variables that share a section share a class), in one order, at its
 * start, and gives them back at its end; an access outside the sections to
 * a variable another thread's section touches is a section of its own (it
 * takes that variable's class lock).  Two-
 * phase locking: every run is some serial order of its sections, and no
 * access sees a section half done.  A section through a pointer takes every
 * lock; sections whose code merges take the union.  Not locked: awaits and
 * blocking locks outside sections (they wait, and must not wait holding a
 * lock), and accesses through pointers outside sections. */
static void split_section_locks(cfront *c)
{
    int lockvar = c->atomic_var;
    wmx_program *p = c->p;
    if (lockvar < 0 || c->failed)
        return;
    section *secs = NULL;
    int nsecs = 0, capsecs = 0, nested = 0;
    int *group = NULL;                          /* union-find over sections */
    int **owner = wmx_calloc((size_t)p->nthreads, sizeof *owner);   /* per thread: section of each instruction */
    int *vowner = wmx_malloc((size_t)p->nvars * sizeof *vowner);
    ir_var_owners(p, vowner);
    for (int t = 0; t < p->nthreads && !nested; t++) {
        ir_thread *th = &p->threads[t];
        int n = th->ninstrs;
        owner[t] = wmx_malloc((size_t)(n ? n : 1) * sizeof **owner);
        int *own = owner[t];
        int *stack = wmx_malloc((size_t)(n ? n : 1) * sizeof *stack);
        for (int i = 0; i < n; i++)
            own[i] = -1;
        for (int i = 0; i < n && !nested; i++) {
            if (!section_lock(&th->instrs[i], lockvar))
                continue;
            if (nsecs == capsecs) {
                capsecs = capsecs ? 2 * capsecs : 16;
                secs = wmx_realloc(secs, (size_t)capsecs * sizeof *secs);
                group = wmx_realloc(group, (size_t)capsecs * sizeof *group);
            }
            int s = nsecs++;
            section *S = &secs[s];
            memset(S, 0, sizeof *S);
            S->thread = t;
            S->pc = i;
            group[s] = s;
            own[i] = s;
            int sp = 0;
            if (i + 1 < n)
                stack[sp++] = i + 1;
            while (sp > 0) {
                int j = stack[--sp];
                if (own[j] >= 0) {
                    if (own[j] != s)
                        uf_union(group, own[j], s);
                    continue;
                }
                own[j] = s;
                const ir_instr *in = &th->instrs[j];
                if (section_unlock(in, lockvar))
                    continue;
                if (section_lock(in, lockvar)) {
                    nested = 1;
                    break;
                }
                switch (in->kind) {
                case I_LOAD: case I_STORE: case I_XCHG: case I_FAA: case I_CAS: case I_AWAIT:
                    if (in->addr.var < 0) {
                        S->all = true;
                        S->nptr++;
                    } else if (vowner[in->addr.var] == -2) {     /* (not one only this thread touches) */
                        if (S->nvars == S->capvars) {
                            S->capvars = S->capvars ? 2 * S->capvars : 8;
                            S->vars = wmx_realloc(S->vars, (size_t)S->capvars * sizeof *S->vars);
                        }
                        S->vars[S->nvars++] = in->addr.var;
                    }
                    break;
                default:
                    break;
                }
                int succ[2], ns = ir_successors(th, p, j, succ);
                for (int k = 0; k < ns; k++)
                    stack[sp++] = succ[k];
            }
        }
        free(stack);
    }
    int *vclass = NULL, *cls = NULL, *rep = NULL, *lockof = NULL, *plain_thr = NULL, ncls = 0, nvars0 = 0;
    unsigned char *wrap = NULL;
    bool *used = NULL, *gall = NULL;
    unsigned char *take = NULL;
    if (nested || nsecs == 0)
        goto out;
    /* classes of variables: those a section touches share one */
    nvars0 = p->nvars;      /* (the locks are variables made below) */
    vclass = wmx_malloc((size_t)p->nvars * sizeof *vclass);
    for (int v = 0; v < p->nvars; v++)
        vclass[v] = v;
    used = wmx_calloc((size_t)p->nvars, sizeof *used);
    rep = wmx_malloc((size_t)nsecs * sizeof *rep);
    gall = wmx_calloc((size_t)nsecs, sizeof *gall);
    for (int s = 0; s < nsecs; s++) {
        rep[s] = -1;
        gall[uf_find(group, s)] |= secs[s].all;
    }
    for (int s = 0; s < nsecs; s++) {
        int g = uf_find(group, s);
        if (gall[g])
            continue;       /* it takes every lock: its variables join nothing */
        for (int k = 0; k < secs[s].nvars; k++) {
            int v = secs[s].vars[k];
            used[v] = true;
            if (rep[g] < 0)
                rep[g] = v;
            else
                uf_union(vclass, v, rep[g]);
        }
    }
    /* (tests: one class, so one lock, as SV-COMP's rules read literally) */
    if (getenv("WMX_TEST_ONE_SECTION_LOCK")) {
        int first = -1;
        for (int v = 0; v < p->nvars; v++)
            if (used[v]) {
                if (first < 0)
                    first = v;
                uf_union(vclass, v, first);
            }
    }
    /* class numbers, by their smallest variable */
    cls = wmx_malloc((size_t)p->nvars * sizeof *cls);
    for (int v = 0; v < p->nvars; v++)
        cls[v] = -1;
    for (int v = 0; v < p->nvars; v++)
        if (used[v] && cls[uf_find(vclass, v)] < 0)
            cls[uf_find(vclass, v)] = ncls++;
    if (ncls == 0)
        goto out;
    lockof = wmx_malloc((size_t)ncls * sizeof *lockof);
    lockof[0] = lockvar;
    for (int k = 1; k < ncls && !c->failed; k++) {
        char name[32];
        snprintf(name, sizeof name, "$atomic.%d", k);
        lockof[k] = ir_add_var(p, name, 1);
        if (lockof[k] < 0)
            fail(c, NULL, "unsupported: a variable named '%s'", name);
    }
    /* Which plain accesses take a lock.  A section that accesses at most one
     * cell other threads access plainly can have those accesses moved
     * before or after it (only that one access conflicts with them); one
     * that accesses two or more can be seen half done (`r1 = x; r2 = y;`
     * against another thread's `y = 1; x = 1;`), so their plain accesses
     * take the lock, and so on until no section has two. */
    plain_thr = wmx_malloc((size_t)nvars0 * sizeof *plain_thr);
    wrap = wmx_calloc((size_t)nvars0, 1);
    for (int v = 0; v < nvars0; v++)
        plain_thr[v] = -1;
    for (int t = 0; t < p->nthreads; t++)
        for (int i = 0; i < p->threads[t].ninstrs; i++) {
            int v = plain_var(p, &p->threads[t].instrs[i], lockvar);
            if (owner[t][i] < 0 && v >= 0 && v < nvars0)
                plain_thr[v] = plain_thr[v] == -1 || plain_thr[v] == t ? t : -2;
        }
    /* (tests: every plain access to a section's variable takes the lock) */
    if (getenv("WMX_TEST_ONE_SECTION_LOCK"))
        for (int v = 0; v < nvars0; v++)
            wrap[v] = plain_thr[v] != -1 && cls[uf_find(vclass, v)] >= 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int s = 0; s < nsecs; s++) {
            int t = secs[s].thread, count = secs[s].nptr;
            for (int k = 0; k < secs[s].nvars; k++) {
                int v = secs[s].vars[k];
                count += !wrap[v] && plain_thr[v] != -1 && plain_thr[v] != t;
            }
            if (count < 2)
                continue;
            for (int v = 0; v < nvars0; v++) {
                if (wrap[v] || cls[uf_find(vclass, v)] < 0 || plain_thr[v] == -1 || plain_thr[v] == t)
                    continue;
                int in_s = secs[s].nptr > 0;
                for (int k = 0; k < secs[s].nvars && !in_s; k++)
                    in_s = secs[s].vars[k] == v;
                if (in_s) {
                    wrap[v] = 1;
                    changed = 1;
                }
            }
        }
    }
    /* each group's classes; a group that takes every lock takes them all */
    take = wmx_calloc((size_t)nsecs * (size_t)ncls, 1);
    for (int s = 0; s < nsecs; s++) {
        int g = uf_find(group, s);
        for (int x = 0; x < ncls; x++)
            take[(size_t)g * (size_t)ncls + (size_t)x] |= gall[g];
        for (int k = 0; k < secs[s].nvars; k++) {
            int x = cls[uf_find(vclass, secs[s].vars[k])];
            if (x >= 0)
                take[(size_t)g * (size_t)ncls + (size_t)x] = 1;
        }
    }
    for (int t = 0; t < p->nthreads && !c->failed; t++) {
        ir_thread *th = &p->threads[t];
        int n = th->ninstrs, *own = owner[t];
        /* how many instructions each one becomes */
        int *newpc = wmx_malloc((size_t)(n + 1) * sizeof *newpc), m = 0;
        for (int i = 0; i < n; i++) {
            newpc[i] = m;
            const ir_instr *in = &th->instrs[i];
            int k = 1;
            if (own[i] >= 0 && (section_lock(in, lockvar) || section_unlock(in, lockvar))) {
                int g = uf_find(group, own[i]);
                k = 0;
                for (int x = 0; x < ncls; x++)
                    k += take[(size_t)g * (size_t)ncls + (size_t)x];
                k = k ? k : 1;
            } else if (own[i] < 0 && plain_class(p, in, lockvar, vclass, cls, wrap, nvars0) >= 0) {
                k = 3;
            }
            m += k;
        }
        newpc[n] = m;
        size_t cap = 4;
        while (cap < (size_t)m)
            cap *= 2;
        ir_instr *out = wmx_malloc(cap * sizeof *out);
        for (int i = 0; i < n; i++) {
            ir_instr in = th->instrs[i];
            if (in.kind == I_JUMP && in.target >= 0 && in.target <= n)
                in.target = newpc[in.target];
            int at = newpc[i];
            int is_lock = section_lock(&in, lockvar), is_unlock = section_unlock(&in, lockvar);
            int x0 = own[i] < 0 ? plain_class(p, &in, lockvar, vclass, cls, wrap, nvars0) : -1;
            if (own[i] >= 0 && (is_lock || is_unlock)) {
                int g = uf_find(group, own[i]), any = 0;
                for (int x = 0; x < ncls; x++) {
                    if (!take[(size_t)g * (size_t)ncls + (size_t)x])
                        continue;
                    ir_instr cp = in;
                    cp.addr.var = lockof[x];
                    if (any)
                        cp.text = in.text ? wmx_strdup(in.text) : NULL;
                    out[at++] = cp;
                    any = 1;
                }
                if (!any)
                    out[at] = in;
            } else if (x0 >= 0) {
                ir_instr lk = section_lock_instr(c, lockof[x0], 1, in.loc);
                lk.text = in.text ? wmx_strdup(in.text) : NULL;
                ir_instr ul = section_lock_instr(c, lockof[x0], 0, in.loc);
                ul.text = in.text ? wmx_strdup(in.text) : NULL;
                out[at] = lk;
                out[at + 1] = in;
                out[at + 2] = ul;
            } else {
                out[at] = in;
            }
        }
        for (int l = 0; l < th->nloops; l++) {
            if (th->loops[l].head >= 0 && th->loops[l].head <= n)
                th->loops[l].head = newpc[th->loops[l].head];
            if (th->loops[l].end >= 0 && th->loops[l].end <= n)
                th->loops[l].end = newpc[th->loops[l].end];
        }
        free(th->instrs);
        th->instrs = out;
        th->ninstrs = m;
        free(newpc);
    }
out:
    free(take);
    free(lockof);
    free(plain_thr);
    free(wrap);
    free(cls);
    free(rep);
    free(gall);
    free(used);
    free(vclass);
    for (int t = 0; t < p->nthreads; t++)
        free(owner[t]);
    free(owner);
    free(vowner);
    for (int s = 0; s < nsecs; s++)
        free(secs[s].vars);
    free(secs);
    free(group);
}

/* Whether the current point of the top frame is inside a loop. */
static int in_a_loop(cfront *c)
{
    frame *F = top(c);
    finfo *fi = top_inst(c)->fi;
    for (int h = 0; h < fi->nheaders; h++)
        if (fi->inloop[(size_t)h * (size_t)fi->nblocks + (size_t)F->bb])
            return 1;
    return 0;
}

/* pthread_cond_*: the condition variable's first cell counts signals.  A
 * wait reads the count, unlocks, waits for a later signal (signal wakes
 * every waiter, which POSIX allows), and locks again; timedwait may also
 * time out, so it waits for nothing.  POSIX lets any wait wake up
 * spuriously: a wait outside a loop waits for nothing either (DIVINE's
 * condvar_spurious_wakeup); in a loop (`while (!ready) wait`) the loop tests
 * its condition again, so the wait waits for a signal there, and a spurious
 * wake-up is only a time round more (not explored). */
static int do_cond(cfront *c, LLVMValueRef in, const char *what)
{
    int timed = strcmp(what, "timedwait") == 0 || (strcmp(what, "wait") == 0 && !in_a_loop(c));
    if (strcmp(what, "signal") == 0 || strcmp(what, "broadcast") == 0) {
        cval cv = val(c, p_LLVMGetOperand(in, 0));
        ir_addr a = addr_of(c, cv);
        if (c->failed)
            return 1;
        note_write(c, cv.kind == CV_PTR ? cv.obj : -1);
        ir_instr f = ir_instr_init(I_FAA, (wmx_srcloc){ 0, 0, 0 });
        f.addr = a;
        f.e1 = e_const(c, 1);
        emit(c, &f, NULL);
        set_val(c, in, cv_const(0));
        return 1;
    }
    if (strcmp(what, "wait") != 0 && !timed)
        return 0;
    cval cv = val(c, p_LLVMGetOperand(in, 0));
    cval m = val(c, p_LLVMGetOperand(in, 1));
    ir_addr a = addr_of(c, cv);
    if (c->failed)
        return 1;
    int seen = temp_reg(c);
    if (!timed) {
        ir_instr ld = ir_instr_init(I_LOAD, (wmx_srcloc){ 0, 0, 0 });
        ld.addr = a;
        ld.dst = seen;
        emit(c, &ld, NULL);
    }
    emit_mutex(c, m, "unlock", in, 16);
    if (!timed) {
        ir_instr aw = ir_instr_init(I_AWAIT, (wmx_srcloc){ 0, 0, 0 });
        aw.addr = a;
        aw.cmp = OP_NE;
        aw.e1 = ir_reg(c->p, seen);
        emit(c, &aw, NULL);
    }
    emit_mutex(c, m, "lock", in, 16);
    set_val(c, in, cv_const(0));
    return 1;
}

/* The current thread's cell of key k. */
static int key_var(cfront *c, long long k)
{
    char name[64];
    snprintf(name, sizeof name, "$key%lld.%s", k, c->p->threads[c->t].name);
    int var = ir_find_var(c->p, name);
    if (var < 0)
        var = ir_add_var(c->p, name, 1);
    return var;
}

/* pthread_key_*: a key is a number fixed while translating; each thread's
 * value for it is a cell of its own. */
static void do_key(cfront *c, LLVMValueRef in, const char *n)
{
    if (strcmp(n, "pthread_key_create") == 0) {
        /* a destructor runs as each thread that set the key ends
         * (thread_exit): known here, so main must create the key, before
         * the threads are translated */
        LLVMValueRef dtor = strip_bitcasts(p_LLVMGetOperand(in, 1));
        if (p_LLVMIsAConstantPointerNull(dtor) || p_LLVMIsNull(dtor))
            dtor = NULL;
        else if (!p_LLVMIsAFunction(dtor) || p_LLVMIsDeclaration(dtor)) {
            fail(c, in, "unsupported: a pthread key destructor not known while translating");
            return;
        } else if (c->cur != 0) {
            fail(c, in, "unsupported: a pthread key with a destructor created outside main");
            return;
        }
        cval k = val(c, p_LLVMGetOperand(in, 0));
        if (!store_cell(c, k, cv_const(++c->next_key), in) && c->failed)
            return;
        c->key_dtor = wmx_realloc(c->key_dtor, (size_t)(c->next_key + 1) * sizeof *c->key_dtor);
        c->key_dtor[c->next_key] = dtor;
        set_val(c, in, cv_const(0));
        return;
    }
    cval k = val(c, p_LLVMGetOperand(in, 0));
    if (k.kind != CV_CONST) {
        fail(c, in, "unsupported: a pthread key not known while translating");
        return;
    }
    int var = key_var(c, k.c);
    if (strcmp(n, "pthread_setspecific") == 0) {
        ir_instr st = ir_instr_init(I_STORE, (wmx_srcloc){ 0, 0, 0 });
        st.addr.var = var;
        st.e1 = e_of(c, val(c, p_LLVMGetOperand(in, 1)));
        emit(c, &st, NULL);
        set_val(c, in, cv_const(0));
        return;
    }
    ir_instr ld = ir_instr_init(I_LOAD, (wmx_srcloc){ 0, 0, 0 });
    ld.addr.var = var;
    ld.dst = reg_for(c, in);
    emit(c, &ld, NULL);
    set_val(c, in, cv_reg(ld.dst));
}

/* A call through a pointer known only at run time: a jump per function of
 * the program that it may be (a body, the address taken, as many
 * parameters as the call has arguments), each a pending way of its own;
 * any other value blocks (undefined behaviour). */
static void call_through_pointer(cfront *c, LLVMValueRef in, cval p)
{
    unsigned na = (unsigned)p_LLVMGetNumArgOperands(in);
    go_fork_mode(c);
    int e = e_of(c, p);
    for (int i = 0; i < c->nfns && !c->failed; i++) {
        if (p_LLVMCountParams(c->fns[i]) != na)
            continue;
        ir_instr j = ir_instr_init(I_JUMP, (wmx_srcloc){ 0, 0, 0 });
        j.e1 = e_bin(c, OP_EQ, e, e_const(c, FN_BASE + 8 * (wmx_val)i));
        int ji = emit(c, &j, "");
        push_pending(c, 0, 0, ji);
        c->work[c->nwork - 1].call = in;
        c->work[c->nwork - 1].fn = c->fns[i];
    }
    emit_block_forever(c, "(a call through a pointer that is no function)", false);
}

static void do_call_fn(cfront *c, LLVMValueRef in, LLVMValueRef f);

static void do_call(cfront *c, LLVMValueRef in)
{
    LLVMValueRef f = called_fn(in);
    if (!f && p_LLVMIsAInlineAsm(p_LLVMGetCalledValue(in))) {
        do_inline_asm(c, in);
        return;
    }
    if (!f) {
        cval p = val(c, p_LLVMGetCalledValue(in));
        if (c->failed)
            return;
        if (p.kind == CV_FUNC)
            f = p.fn;
        else if (p.kind == CV_CONST && p.c >= FN_BASE && (p.c - FN_BASE) % 8 == 0 &&
                 (p.c - FN_BASE) / 8 < c->nfns)
            f = c->fns[(p.c - FN_BASE) / 8];
        else if (p.kind == CV_REG) {
            call_through_pointer(c, in, p);
            return;
        } else {
            emit_block_forever(c, "(a call through a pointer that is no function)", false);
            return;
        }
    }
    do_call_fn(c, in, f);
}

static void do_call_fn(cfront *c, LLVMValueRef in, LLVMValueRef f)
{
    const char *n = vname(f);
    frame *F = top(c);
    if (strncmp(n, "llvm.dbg.", 9) == 0 || strncmp(n, "llvm.lifetime.", 14) == 0 ||
        strcmp(n, "pthread_mutex_init") == 0 || strcmp(n, "pthread_mutex_destroy") == 0 ||
        strcmp(n, "pthread_attr_init") == 0 || strcmp(n, "pthread_attr_destroy") == 0 ||
        strcmp(n, "printf") == 0 || strcmp(n, "puts") == 0 || strcmp(n, "putchar") == 0 ||
        strcmp(n, "fflush") == 0 || strcmp(n, "pthread_yield") == 0 || strcmp(n, "sched_yield") == 0 ||
        strcmp(n, "mtx_init") == 0 || strcmp(n, "mtx_destroy") == 0 || strcmp(n, "thrd_yield") == 0 ||
        strcmp(n, "pthread_barrier_destroy") == 0 || strcmp(n, "__VERIFIER_spin_start") == 0 ||
        strcmp(n, "__VERIFIER_spin_end") == 0 || strcmp(n, "__VERIFIER_loop_begin") == 0 ||
        is_output_only(n) || strcmp(n, "pthread_cond_init") == 0 || strcmp(n, "pthread_cond_destroy") == 0 ||
        strcmp(n, "pthread_key_delete") == 0 || strcmp(n, "pthread_attr_setdetachstate") == 0 ||
        strcmp(n, "pthread_mutexattr_init") == 0 || strcmp(n, "pthread_mutexattr_destroy") == 0 ||
        strcmp(n, "pthread_mutexattr_settype") == 0 || strcmp(n, "pthread_condattr_init") == 0 ||
        strcmp(n, "pthread_condattr_destroy") == 0 || strcmp(n, "pthread_detach") == 0 ||
        strcmp(n, "llvm.stacksave") == 0 || strcmp(n, "llvm.stackrestore") == 0) {
        set_val(c, in, cv_const(0));
        return;
    }
    if (strncmp(n, "llvm.fmuladd.", 13) == 0 || strncmp(n, "llvm.fabs.", 10) == 0 ||
        strcmp(n, "fabs") == 0 || strcmp(n, "fabsf") == 0) {
        /* a * b + c, rounded twice (LLVM lets fmuladd be either), and |a|:
         * the sign bit cleared */
        cval a = val(c, p_LLVMGetOperand(in, 0));
        int e, to_float = p_LLVMGetTypeKind(p_LLVMTypeOf(in)) == LLVMFloatTypeKind;
        if (n[0] == 'f' || strncmp(n, "llvm.fabs.", 10) == 0) {
            e = e_bin(c, OP_AND, e_of(c, a), e_const(c, INT64_MAX));
        } else {
            cval b = val(c, p_LLVMGetOperand(in, 1)), d = val(c, p_LLVMGetOperand(in, 2));
            int m = e_bin(c, OP_FMUL, e_of(c, a), e_of(c, b));
            if (to_float)
                m = ir_unop(c->p, OP_F32, m);
            e = e_bin(c, OP_FADD, m, e_of(c, d));
        }
        if (to_float)
            e = ir_unop(c->p, OP_F32, e);
        define(c, in, e);
        return;
    }
    if (strcmp(n, "abort") == 0 || strcmp(n, "exit") == 0 || strcmp(n, "_exit") == 0 || strcmp(n, "_Exit") == 0) {
        /* SV-COMP: abort() ends the run silently (a blocked run, reason
         * abort); exit() ends the whole program there (a complete run) */
        ir_instr as = ir_instr_init(I_ASSUME, (wmx_srcloc){ 0, 0, 0 });
        as.e1 = e_const(c, 0);
        as.ends = n[0] == 'a' ? IR_ENDS_ABORT : IR_ENDS_EXIT;
        emit(c, &as, NULL);
        end_path(c);
        return;
    }
    if (strncmp(n, "__VERIFIER_nondet_", 18) == 0) {
        do_nondet(c, in, n + 18);
        return;
    }
    if (strncmp(n, "pthread_cond_", 13) == 0 && do_cond(c, in, n + 13))
        return;
    if (strncmp(n, "pthread_key_create", 18) == 0 || strcmp(n, "pthread_getspecific") == 0 ||
        strcmp(n, "pthread_setspecific") == 0) {
        do_key(c, in, n);
        return;
    }
    if (fn_is_sink(c, f, 0)) {
        emit_assert(c, e_const(c, 0), NULL);
        end_path(c);
        return;
    }
    if (strcmp(n, "__VERIFIER_assume") == 0) {
        cval v = val(c, p_LLVMGetOperand(in, 0));
        if (v.kind == CV_CONST && v.c != 0)
            return;
        ir_instr as = ir_instr_init(I_ASSUME, (wmx_srcloc){ 0, 0, 0 });
        as.e1 = e_of(c, v);
        emit(c, &as, NULL);
        if (v.kind == CV_CONST)
            end_path(c);
        return;
    }
    if (strcmp(n, "__VERIFIER_xchg_await_aint") == 0 || strcmp(n, "__VERIFIER_load_await_aint") == 0) {
        do_await_call(c, in, n[11] == 'x');
        return;
    }
    int c11 = strcmp(n, "thrd_create") == 0;   /* thrd_create(&t, fn, arg) */
    if (strcmp(n, "pthread_create") == 0 || c11) {
        cval h = val(c, p_LLVMGetOperand(in, 0));
        LLVMValueRef fnv = strip_bitcasts(p_LLVMGetOperand(in, c11 ? 1 : 2));
        if (!p_LLVMIsAFunction(fnv)) {
            fail(c, in, "unsupported: pthread_create of a function not known while translating");
            return;
        }
        cval arg = val(c, p_LLVMGetOperand(in, c11 ? 2 : 3));
        int arg_expr = -1;
        if (arg.kind == CV_PTR && arg.offx < 0)
            obj_make_real(c, arg.obj);     /* the thread reads it */
        else if (arg.kind == CV_REG || arg.kind == CV_PTR || arg.kind == CV_FUNC) {
            /* known only at run time: through a cell (store_thread_arg),
             * so the thread must wait for its start */
            go_fork_mode(c);
            arg_expr = e_of(c, arg);
            arg = cv_const(0);
        } else if (arg.kind != CV_CONST) {
            fail(c, in, "unsupported: a thread argument of this kind");
            return;
        }
        if (in_endless_loop_past_bound(c)) {
            /* while (1) pthread_create(...): cut like any loop */
            emit_block_forever(c, "(loop bound reached: --unroll)", true);
            return;
        }
        if (h.kind != CV_PTR) {
            fail(c, in, "unsupported: a pthread_t not in a variable");
            return;
        }
        if (h.offx >= 0) {
            /* &t[i] with i known at run time: the thread's number goes to
             * memory, and joins dispatch on what they load */
            obj_make_real(c, h.obj);
            int id = thread_create(c, fnv, arg, arg_expr);
            if (id < 0 || c->failed)
                return;
            c->objs[h.obj].handle = 1;
            store_const(c, h, id);
            set_val(c, in, cv_const(0));
            return;
        }
        if (h.off < 0 || h.off >= c->objs[h.obj].ncells) {
            /* pthread_create(&t[i]) copied past t's end: see out_of_bounds */
            out_of_bounds(c, in, h);
            if (!c->failed)
                emit_block_forever(c, "(out of bounds)", false);
            return;
        }
        int id = thread_create(c, fnv, arg, arg_expr);
        if (id < 0)
            return;
        cobj *o = &c->objs[h.obj];
        o->handle = 1;
        o->cells[h.off] = cv_const(id);
        if (o->var >= 0)
            store_const(c, h, id);
        set_val(c, in, cv_const(0));
        return;
    }
    if (strcmp(n, "pthread_join") == 0 || strcmp(n, "thrd_join") == 0) {
        cval h = val(c, p_LLVMGetOperand(in, 0));
        cval ret = val(c, p_LLVMGetOperand(in, 1));
        if (h.kind == CV_REG) {
            thread_join_loaded(c, h, ret, in);
            set_val(c, in, cv_const(0));
            return;
        }
        thread_join(c, h);
        if (c->path_done)
            return;
        if (!c->failed && !(ret.kind == CV_CONST && ret.c == 0)) {
            /* the thread's result: a cell it writes as it ends */
            int rv = thread_result_var(c, (int)h.c);
            flush_joins(c);
            int r = temp_reg(c);
            ir_instr ld = ir_instr_init(I_LOAD, (wmx_srcloc){ 0, 0, 0 });
            ld.addr.var = rv;
            ld.dst = r;
            emit(c, &ld, NULL);
            store_cell(c, ret, cv_reg(r), in);
        }
        set_val(c, in, cv_const(0));
        return;
    }
    if (strcmp(n, "pthread_exit") == 0 || strcmp(n, "thrd_exit") == 0) {
        if (!c->stack[0].dtor_next)    /* not from within a destructor */
            thread_result(c, val(c, p_LLVMGetOperand(in, 0)));
        thread_exit(c, 1);
        return;
    }
    if (strncmp(n, "pthread_mutex_", 14) == 0) {
        const char *what = n + 14;
        if (strcmp(what, "lock") == 0 || strcmp(what, "unlock") == 0 || strcmp(what, "trylock") == 0) {
            emit_mutex(c, val(c, p_LLVMGetOperand(in, 0)), what, in, 16);  /* EBUSY */
            return;
        }
    }
    if (strncmp(n, "mtx_", 4) == 0) {
        const char *what = n + 4;
        if (strcmp(what, "lock") == 0 || strcmp(what, "unlock") == 0 || strcmp(what, "trylock") == 0) {
            emit_mutex(c, val(c, p_LLVMGetOperand(in, 0)), what, in, 1);   /* thrd_busy */
            return;
        }
    }
    if (strcmp(n, "pthread_barrier_init") == 0) {
        barrier_init(c, in);
        return;
    }
    if (strcmp(n, "pthread_barrier_wait") == 0) {
        barrier_wait(c, in);
        return;
    }
    if (strcmp(n, "pthread_self") == 0 || strcmp(n, "thrd_current") == 0) {
        /* the same ids pthread_create stores into a pthread_t */
        set_val(c, in, cv_const(c->cur));
        return;
    }
    if (strcmp(n, "pthread_equal") == 0 || strcmp(n, "thrd_equal") == 0) {
        cval a = val(c, p_LLVMGetOperand(in, 0)), b = val(c, p_LLVMGetOperand(in, 1));
        if (a.kind == CV_CONST && b.kind == CV_CONST)
            set_val(c, in, cv_const(a.c == b.c));
        else
            define(c, in, e_bin(c, OP_EQ, e_of(c, a), e_of(c, b)));
        return;
    }
    if (strcmp(n, "free") == 0) {
        set_val(c, in, cv_const(0));
        return;
    }
    if (strcmp(n, "malloc") == 0 || strcmp(n, "calloc") == 0) {
        do_malloc(c, in, n[0] == 'c');
        return;
    }
    if (strcmp(n, "strcpy") == 0 || strcmp(n, "strncpy") == 0) {
        do_strcpy(c, in, n[3] == 'n');
        return;
    }
    if (strncmp(n, "llvm.memset.", 12) == 0 || strncmp(n, "llvm.memcpy.", 12) == 0 ||
        strncmp(n, "llvm.memmove.", 13) == 0) {
        do_memory_call(c, in, n[8] == 's');
        return;
    }
    /* SV-COMP's atomic sections: no other thread steps inside one */
    if (strcmp(n, "__VERIFIER_atomic_begin") == 0) {
        if (!in_section(c))
            section_edge(c, 1);
        top(c)->atomic_open++;
        set_val(c, in, cv_const(0));
        return;
    }
    if (strcmp(n, "__VERIFIER_atomic_end") == 0) {
        for (int d = c->depth - 1; d >= 0; d--)
            if (c->stack[d].atomic_open > 0) {
                c->stack[d].atomic_open--;
                break;
            }
        if (!in_section(c))
            section_edge(c, 0);
        set_val(c, in, cv_const(0));
        return;
    }
    int atomic_fn = strncmp(n, "__VERIFIER_atomic_", 18) == 0;
    if (atomic_fn && p_LLVMIsDeclaration(f)) {
        fail(c, in, "unsupported: a call to '%s' (an atomic function without a body)", n);
        return;
    }
    if (atomic_fn && !in_section(c))
        section_edge(c, 1);
    if (p_LLVMIsDeclaration(f)) {
        fail(c, in, "unsupported: a call to '%s'", n);
        return;
    }
    if (c->depth >= 64) {
        fail(c, in, "unsupported: calls nested more than 64 deep (recursion?)");
        return;
    }
    for (int d = 0; d < c->depth; d++)
        if (c->insts[c->stack[d].inst].fi->fn == f) {
            fail(c, in, "unsupported: recursion ('%s')", n);
            return;
        }
    /* inline: a new frame whose parameters are the arguments */
    finfo *fi = func_info(c, f);
    int xi = inst_new(c, fi);
    unsigned na = (unsigned)p_LLVMGetNumArgOperands(in);
    for (unsigned k = 0; k < na && k < p_LLVMCountParams(f); k++) {
        cval a = val(c, p_LLVMGetOperand(in, k));
        int pi = pmap_get(&fi->vidx, p_LLVMGetParam(f, k));
        c->insts[xi].env[pi] = a;
    }
    (void)F;
    if (c->depth == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 8;
        c->stack = wmx_realloc(c->stack, (size_t)c->cap * sizeof *c->stack);
    }
    frame *G = &c->stack[c->depth++];
    memset(G, 0, sizeof *G);
    G->inst = xi;
    G->counters = wmx_calloc(CTR_SLOTS * (size_t)(fi->nheaders ? fi->nheaders : 1), sizeof *G->counters);
    G->call = in;
    G->atomic_fn = atomic_fn;
    G->bb = 0;
    G->pos = 0;
    G->at = p_LLVMGetFirstInstruction(fi->blocks[0]);
}

/* ---- program points (fork mode) ------------------------------------------- */

/* The register counting loop k's times round in frame instance `inst`. */
static int loop_count_reg(cfront *c, int inst, int k)
{
    int *r = &c->insts[inst].count[k];
    if (*r < 0)
        *r = temp_reg(c);
    return *r;
}

/* A kept loop that went round more than `bound` times (--unroll) blocks
 * there. */
static void emit_bound_check(cfront *c, int count_reg, int bound)
{
    ir_instr a = ir_instr_init(I_ASSUME, (wmx_srcloc){ 0, 0, 0 });
    a.e1 = e_bin(c, OP_LE, ir_reg(c->p, count_reg), e_const(c, bound));
    a.bound_cut = true;
    emit(c, &a, "(loop bound reached: --unroll)");
}

/* A test in block `from` of the top frame that may leave loops around it:
 * note how it was decided in each loop it can leave (EXIT_*). */
static void note_exit_test(cfront *c, int from, const int *succ, int nsucc, int how)
{
    frame *F = top(c);
    finfo *fi = top_inst(c)->fi;
    int n = fi->nblocks;
    for (int k = 0; k < fi->nheaders; k++) {
        const unsigned char *in = fi->inloop + (size_t)k * (size_t)n;
        if (!in[from])
            continue;
        for (int j = 0; j < nsucc; j++)
            if (succ[j] < 0 || !in[succ[j]]) {
                F->counters[2 * fi->nheaders + k] |= how;
                break;
            }
    }
}

/* An expression by its structure: the same computation made twice has two
 * pool indices. */
static void key_expr(cfront *c, wmx_strbuf *b, int e)
{
    if (e < 0) {
        wmx_strbuf_printf(b, "_");
        return;
    }
    const ir_expr *x = &c->p->exprs[e];
    wmx_strbuf_printf(b, "(%d %d %lld ", (int)x->op, x->reg, (long long)x->value);
    key_expr(c, b, x->a);
    key_expr(c, b, x->b);
    wmx_strbuf_printf(b, ")");
}

/* The program point: each frame's block, position and loop counters, and
 * what the values live there are.  Code translated for one arrival is right
 * for another exactly when these agree. */
static void key_of(cfront *c, wmx_strbuf *b)
{
    b->len = 0;
    for (int d = 0; d < c->depth; d++) {
        frame *F = &c->stack[d];
        finst *x = &c->insts[F->inst];
        finfo *fi = x->fi;
        wmx_strbuf_printf(b, "%d:%d:%d", F->inst, F->bb, F->pos);
        for (int h = 0; h < fi->nheaders; h++)
            if (fi->unrolled[h])
                wmx_strbuf_printf(b, ",%d", F->counters[h]);
        const unsigned char *live = fi->live + (size_t)F->bb * (size_t)fi->nvals;
        for (int v = 0; v < fi->nvals; v++) {
            if (!live[v])
                continue;
            const cval *cv = &x->env[v];
            wmx_strbuf_printf(b, "|%d=%d,%lld,%d,%d,%d,%d,%p", v, cv->kind, (long long)cv->c, cv->reg, cv->reg2, cv->obj,
                              cv->off, (void *)cv->fn);
            if (cv->kind == CV_PTR && cv->offx >= 0)
                key_expr(c, b, cv->offx);
        }
        /* and what this block computed so far: at a call's return point that
         * includes the call's result, which depends on the callee's path */
        int k = 0;
        for (LLVMValueRef in = p_LLVMGetFirstInstruction(fi->blocks[F->bb]); in && k < F->pos;
             in = p_LLVMGetNextInstruction(in), k++) {
            int v = pmap_get(&fi->vidx, in);
            const cval *cv = &x->env[v];
            wmx_strbuf_printf(b, "|%d=%d,%lld,%d,%d,%d,%d", v, cv->kind, (long long)cv->c, cv->reg, cv->reg2, cv->obj,
                              cv->off);
            if (cv->kind == CV_PTR && cv->offx >= 0)
                key_expr(c, b, cv->offx);
        }
        wmx_strbuf_printf(b, ";");
    }
    /* which threads the pthread_t variables name: a join after this point
     * depends on it */
    for (int o = 0; o < c->nobjs; o++)
        if (c->objs[o].handle && c->objs[o].var < 0)
            for (int k = 0; k < c->objs[o].ncells; k++)
                if (c->objs[o].cells[k].kind == CV_CONST && c->objs[o].cells[k].c != 0)
                    wmx_strbuf_printf(b, "h%d.%d=%lld", o, k, (long long)c->objs[o].cells[k].c);
}

/* At a program point in fork mode: jump to its code if it has been
 * translated, else remember where its code starts.  1 = jumped. */
static int memo_here(cfront *c)
{
    /* a loop unrolled by constants that comes back to a translated point
     * goes round at run time after all: bounded there */
    int guard = c->hit_guard;
    c->hit_guard = -1;
    if (!c->forked)
        return 0;
    flush_joins(c);
    wmx_strbuf b = { 0 };
    key_of(c, &b);
    int *slot = smap_slot(&c->memo, b.s ? b.s : "", b.len);
    free(b.s);
    if (*slot >= 0) {
        if (guard >= 0)
            emit_bound_check(c, guard, c->hit_guard_bound);
        ir_instr j = ir_instr_init(I_JUMP, (wmx_srcloc){ 0, 0, 0 });
        j.e1 = -1;
        j.target = *slot;
        emit(c, &j, "");
        end_path(c);
        return 1;
    }
    *slot = c->p->threads[c->t].ninstrs;
    return 0;
}

/* A thread's result, where a pthread_join with a result pointer reads it. */
static void thread_result(cfront *c, cval r)
{
    cthread *th = &c->threads[c->cur];
    if (!th->ret_var1 || c->failed)
        return;
    ir_instr st = ir_instr_init(I_STORE, (wmx_srcloc){ 0, 0, 0 });
    st.addr.var = th->ret_var1 - 1;
    st.e1 = e_of(c, r);
    emit(c, &st, "(thread result)");
}

static void thread_end(cfront *c)
{
    cthread *th = &c->threads[c->cur];
    c->njoins = 0;            /* nothing after them needed them */
    if (th->done_var >= 0)
        emit_flag(c, I_XCHG, th->done_var, "(thread ends)");
    ir_instr h = ir_instr_init(I_HALT, (wmx_srcloc){ 0, 0, 0 });
    emit(c, &h, "");
    end_path(c);
}

/* A thread exits (pthread_exit, or its function returns): the destructor
 * of each key from `key` on whose value in this thread is not NULL runs
 * with that value, the value set to NULL first (POSIX; one pass, as
 * PTHREAD_DESTRUCTOR_ITERATIONS allows when a destructor sets no key).
 * The NULL side of each test is a pending way of its own; the other one
 * goes on here into the destructor's frame, whose return comes back. */
static void thread_exit(cfront *c, int key)
{
    while (key <= c->next_key && !(c->key_dtor && c->key_dtor[key]))
        key++;
    if (key > c->next_key) {
        thread_end(c);
        return;
    }
    LLVMValueRef dtor = c->key_dtor[key];
    /* the frames under this exit are done with: the destructor's frame
     * replaces them */
    free_stack(c->stack + 1, c->depth - 1);
    c->depth = 1;
    go_fork_mode(c);
    int var = key_var(c, key);
    int r = temp_reg(c);
    ir_instr ld = ir_instr_init(I_LOAD, (wmx_srcloc){ 0, 0, 0 });
    ld.addr.var = var;
    ld.dst = r;
    emit(c, &ld, "(thread exit: pthread_getspecific)");
    ir_instr j = ir_instr_init(I_JUMP, (wmx_srcloc){ 0, 0, 0 });
    j.e1 = e_bin(c, OP_EQ, ir_reg(c->p, r), e_const(c, 0));
    int ji = emit(c, &j, "");
    push_pending(c, 0, 0, ji);
    c->work[c->nwork - 1].dtor_key = key + 1;
    ir_instr st = ir_instr_init(I_STORE, (wmx_srcloc){ 0, 0, 0 });
    st.addr.var = var;
    st.e1 = e_const(c, 0);
    emit(c, &st, "(thread exit: pthread_setspecific NULL)");
    finfo *fi = func_info(c, dtor);
    int xi = inst_new(c, fi);
    if (p_LLVMCountParams(dtor) > 0)
        c->insts[xi].env[pmap_get(&fi->vidx, p_LLVMGetParam(dtor, 0))] = cv_reg(r);
    for (unsigned k = 1; k < p_LLVMCountParams(dtor); k++)
        c->insts[xi].env[pmap_get(&fi->vidx, p_LLVMGetParam(dtor, k))] = cv_const(0);
    frame *F = &c->stack[0];
    free(F->counters);
    memset(F, 0, sizeof *F);
    F->inst = xi;
    F->counters = wmx_calloc(CTR_SLOTS * (size_t)(fi->nheaders ? fi->nheaders : 1), sizeof *F->counters);
    F->at = p_LLVMGetFirstInstruction(fi->blocks[0]);
    F->dtor_next = key + 1;
}

/* Takes the edge from block `from` to `to` in the top frame: phi copies,
 * loop counters, and (fork mode) the program point's memo. */
/* A loop counter: a phi whose value round the loop is itself plus or minus
 * a constant.  After a fork it stays a constant while the loop's tests are
 * decided by constants, so `for (i = 0; i < n; i++) a[i]` with a constant n
 * is copied per time round and indexes known cells; a loop kept as a loop
 * (see enter_edge) makes it a register. */
/* Whether v indexes memory (an array index, through integer casts). */
static int indexes_memory(LLVMValueRef v, int depth)
{
    for (LLVMUseRef u = p_LLVMGetFirstUse(v); u; u = p_LLVMGetNextUse(u)) {
        LLVMValueRef user = p_LLVMGetUser(u);
        if (!p_LLVMIsAInstruction(user))
            continue;
        LLVMOpcode op = p_LLVMGetInstructionOpcode(user);
        if (op == LLVMGetElementPtr && p_LLVMGetOperand(user, 0) != v)
            return 1;
        if ((op == LLVMSExt || op == LLVMZExt || op == LLVMTrunc) && depth < 2 && indexes_memory(user, depth + 1))
            return 1;
    }
    return 0;
}

static int is_induction(LLVMValueRef phi)
{
    if (p_LLVMGetTypeKind(p_LLVMTypeOf(phi)) != LLVMIntegerTypeKind)
        return 0;
    unsigned ni = p_LLVMCountIncoming(phi);
    for (unsigned j = 0; j < ni; j++) {
        LLVMValueRef v = p_LLVMGetIncomingValue(phi, j);
        if (!p_LLVMIsAInstruction(v))
            continue;
        LLVMOpcode op = p_LLVMGetInstructionOpcode(v);
        if ((op == LLVMAdd || op == LLVMSub) && p_LLVMGetOperand(v, 0) == phi && p_LLVMIsAConstantInt(p_LLVMGetOperand(v, 1)))
            return 1;
    }
    return 0;
}

static void enter_edge(cfront *c, int from, int to)
{
    frame *F = top(c);
    finst *x = top_inst(c);
    finfo *fi = x->fi;
    LLVMBasicBlockRef tb = fi->blocks[to];
    LLVMBasicBlockRef fb = fi->blocks[from];
    int n = fi->nblocks, nh = fi->nheaders, hk = fi->header_of[to];
    int back = fi->back[(size_t)from * (size_t)n + (size_t)to];
    /* After a fork a loop goes round at run time when this time round left
     * it on a test decided at run time, or on none at all: its induction
     * variables become registers, so the next arrival is at a point already
     * translated and jumps there.  One whose tests were decided by constants
     * is copied per time round (it ends by itself, or comes back to a point
     * already translated: see memo_here). */
    int kept = 0;
    if (back && c->forked && !fi->unrolled[hk]) {
        int how = F->counters[2 * nh + hk];
        kept = (how & EXIT_RUNTIME) || !(how & EXIT_FOLDED);
        /* Without --unroll, a loop that walks an array with a known index
         * (`while (a[i] != 0) i--;`) is copied per time round too: the
         * array's end ends it, as GenMC and Nidhugg run it, with no cut to
         * explore again at a larger bound. */
        if (kept && !c->unroll_given)
            for (LLVMValueRef in = p_LLVMGetFirstInstruction(tb); in && p_LLVMGetInstructionOpcode(in) == LLVMPHI;
                 in = p_LLVMGetNextInstruction(in))
                if (val(c, in).kind == CV_CONST && is_induction(in) && indexes_memory(in, 0)) {
                    kept = 0;
                    break;
                }
        if (F->counters[hk] + 1 >= FOLD_ROUNDS_MAX)
            kept = 1;
    }
    /* phis: all incoming values first, then the assignments */
    int nphi = 0, phi_changed = -1;
    LLVMValueRef first = p_LLVMGetFirstInstruction(tb);
    for (LLVMValueRef in = first; in && p_LLVMGetInstructionOpcode(in) == LLVMPHI; in = p_LLVMGetNextInstruction(in))
        nphi++;
    if (nphi) {
        cval *inc = wmx_calloc((size_t)nphi, sizeof *inc);
        int k = 0;
        for (LLVMValueRef in = first; k < nphi; in = p_LLVMGetNextInstruction(in), k++) {
            unsigned ni = p_LLVMCountIncoming(in);
            inc[k] = cv_const(0);
            for (unsigned j = 0; j < ni; j++)
                if (p_LLVMGetIncomingBlock(in, j) == fb) {
                    inc[k] = val(c, p_LLVMGetIncomingValue(in, j));
                    break;
                }
            if (c->forked) {
                /* copy through a temporary: another phi may read this one */
                if (inc[k].kind != CV_CONST) {
                    int tr = temp_reg(c);
                    emit_let(c, tr, e_of(c, inc[k]));
                    inc[k] = cv_reg(tr);
                }
            }
        }
        if (fi->back[(size_t)from * (size_t)fi->nblocks + (size_t)to] && fi->plp_phi[fi->header_of[to]]) {
            /* --plp: did this time round change a carried value? */
            int changed = -1;
            k = 0;
            for (LLVMValueRef in = first; k < nphi; in = p_LLVMGetNextInstruction(in), k++) {
                int ne = e_bin(c, OP_NE, e_of(c, inc[k]), e_of(c, val(c, in)));
                changed = changed < 0 ? ne : e_bin(c, OP_LOR, changed, ne);
            }
            phi_changed = temp_reg(c);
            emit_let(c, phi_changed, changed);
        }
        k = 0;
        for (LLVMValueRef in = first; k < nphi; in = p_LLVMGetNextInstruction(in), k++) {
            if (c->forked && !(inc[k].kind == CV_CONST && hk >= 0 && !kept && is_induction(in))) {
                int r = reg_for(c, in);
                emit_let(c, r, e_of(c, inc[k]));
                set_val(c, in, cv_reg(r));
            } else {
                set_val(c, in, inc[k]);
            }
        }
        free(inc);
    }
    if (back) {
        int h = hk;
        if (fi->spin[h]) {
            emit_block_forever(c, "(spin loop: waits; assume it exits)", false);
            return;
        }
        int effr = c->insts[F->inst].eff[h];
        if (fi->zne[h] && (effr >= 0 || phi_changed >= 0)) {
            ir_instr a = ir_instr_init(I_ASSUME, (wmx_srcloc){ 0, 0, 0 });
            a.e1 = effr < 0 ? ir_reg(c->p, phi_changed)
                 : phi_changed < 0 ? ir_reg(c->p, effr)
                 : e_bin(c, OP_LOR, ir_reg(c->p, effr), ir_reg(c->p, phi_changed));
            a.spin = true;
            emit(c, &a, "(spin loop: this time round changed nothing; assume it exits)");
        }
        if (c->forked && !fi->unrolled[h]) {
            /* its times round are counted at run time; a round decided by
             * constants is not cut there (it ends by itself: `for (i = 0;
             * i < 3; i++) sum += a[i]` runs three times under --unroll 2) */
            F->counters[nh + h] = c->shared_folds;
            F->counters[h]++;
            int r = loop_count_reg(c, F->inst, h);
            emit_let(c, r, e_bin(c, OP_ADD, ir_reg(c->p, r), e_const(c, 1)));
            /* one that ends by itself runs to its end; ENDS_ROUNDS_MAX only
             * stops a bound read at run time that is absurd (an unsigned -1) */
            int bound = fi->ends[h] && c->unroll < ENDS_ROUNDS_MAX ? ENDS_ROUNDS_MAX : c->unroll;
            if (kept) {
                emit_bound_check(c, r, bound);
            } else {
                c->hit_guard = r;
                c->hit_guard_bound = bound;
            }
            goto counted;
        }
        /* loops decided while translating end by themselves (the budget
         * catches those that do not); the bound is for loops on shared data,
         * folded loads of it too (a loop on a global nothing writes would
         * otherwise spin here for ever where the peers cut it off) */
        /* Before a fork every test is decided while translating, so a loop
         * that read shared memory (folded: a global nothing writes, or
         * nothing writes after main's prelude) ends by itself (`i < N` for a
         * `const int N`; `sum += a[i]` over a pointer main set) or never: it
         * is copied up to FOLD_ROUNDS_MAX times round (or --unroll, if
         * larger), not cut at --unroll.  After a fork (loops copied per time
         * round: see loop_needs_copies) the bound is --unroll. */
        int on_folds = F->counters[nh + h] != c->shared_folds ||
                       (F->counters[2 * nh + h] & ROUND_FROZEN_READ) != 0;
        F->counters[nh + h] = c->shared_folds;
        int bound = c->forked ? c->unroll
                  : on_folds ? (c->unroll > FOLD_ROUNDS_MAX ? c->unroll : FOLD_ROUNDS_MAX) : 1000000;
        /* a copied loop that ends by itself (`for (i = 0; i < n; i++)
         * pthread_create(...)` with n read at run time) runs to its end as
         * far as COPIED_ENDS_ROUNDS and COPIED_ENDS_THREADS allow, which
         * leave room for the threads that write nondet values */
        if (c->forked && fi->ends[h] && c->nthreads < COPIED_ENDS_THREADS && bound < COPIED_ENDS_ROUNDS)
            bound = COPIED_ENDS_ROUNDS;
        if (++F->counters[h] > bound) {
            if (c->forked || on_folds)
                emit_block_forever(c, "(loop bound reached: --unroll)", true);
            else
                fail(c, NULL, "unsupported: a loop that runs over 1000000 times while translating");
            return;
        }
    } else if (hk >= 0) {
        F->counters[hk] = 0;
        F->counters[nh + hk] = c->shared_folds;
        if (c->forked && !fi->unrolled[hk])
            emit_let(c, loop_count_reg(c, F->inst, hk), e_const(c, 0));
    }
counted:
    if (hk >= 0)
        F->counters[2 * nh + hk] = 0;   /* a new time round: no exit test yet */
    for (int h = 0; h < fi->nheaders; h++)
        if (!fi->inloop[(size_t)h * (size_t)n + (size_t)to])
            F->counters[h] = 0;
    if (fi->header_of[to] >= 0 && fi->zne[fi->header_of[to]]) {
        int *effr = &c->insts[F->inst].eff[fi->header_of[to]];
        if (*effr < 0)
            *effr = temp_reg(c);
        emit_let(c, *effr, e_const(c, 0));
    }
    F->bb = to;
    F->pos = nphi;
    F->at = first;
    for (int k = 0; k < nphi; k++)
        F->at = p_LLVMGetNextInstruction(F->at);
    memo_here(c);
}

static void push_pending(cfront *c, int from, int to, int jump)
{
    if (c->nwork == c->capwork) {
        c->capwork = c->capwork ? c->capwork * 2 : 16;
        c->work = wmx_realloc(c->work, (size_t)c->capwork * sizeof *c->work);
    }
    pending *w = &c->work[c->nwork++];
    w->depth = c->depth;
    w->stack = wmx_malloc((size_t)c->depth * sizeof *w->stack);
    w->envs = wmx_malloc((size_t)c->depth * sizeof *w->envs);
    for (int d = 0; d < c->depth; d++) {
        w->stack[d] = c->stack[d];
        finfo *fi = c->insts[c->stack[d].inst].fi;
        size_t nv = (size_t)(fi->nvals ? fi->nvals : 1);
        w->envs[d] = wmx_malloc(nv * sizeof(cval));
        memcpy(w->envs[d], c->insts[c->stack[d].inst].env, nv * sizeof(cval));
        size_t nh = CTR_SLOTS * (size_t)(fi->nheaders ? fi->nheaders : 1);
        w->stack[d].counters = wmx_malloc(nh * sizeof(int));
        memcpy(w->stack[d].counters, c->stack[d].counters, nh * sizeof(int));
    }
    size_t nh = 0;
    for (int o = 0; o < c->nobjs; o++)
        if (c->objs[o].handle)
            nh += (size_t)c->objs[o].ncells;
    w->handles = wmx_malloc((nh ? nh : 1) * sizeof *w->handles);
    w->handle_objs = wmx_malloc((size_t)(c->nobjs ? c->nobjs : 1) * sizeof *w->handle_objs);
    w->nhandle_objs = 0;
    nh = 0;
    for (int o = 0; o < c->nobjs; o++)
        if (c->objs[o].handle) {
            memcpy(w->handles + nh, c->objs[o].cells, (size_t)c->objs[o].ncells * sizeof *w->handles);
            nh += (size_t)c->objs[o].ncells;
            w->handle_objs[w->nhandle_objs++] = o;
        }
    w->from = from;
    w->to = to;
    w->jump = jump;
    w->dtor_key = 0;
    w->call = w->fn = NULL;
}

/* Puts the pthread_t objects back as they were when w was pushed (objects
 * made a handle since then are left alone). */
static void restore_handles(cfront *c, const pending *w)
{
    size_t nh = 0;
    for (int i = 0; i < w->nhandle_objs; i++) {
        cobj *o = &c->objs[w->handle_objs[i]];
        memcpy(o->cells, w->handles + nh, (size_t)o->ncells * sizeof *w->handles);
        nh += (size_t)o->ncells;
    }
}

static void free_stack(frame *s, int depth)
{
    for (int d = 0; d < depth; d++)
        free(s[d].counters);
}

static void go_fork_mode(cfront *c)
{
    flush_joins(c);
    if (!c->forked) {
        /* the loops around this point may go round at run time from here:
         * their counts so far become their registers' values */
        for (int d = 0; d < c->depth; d++) {
            frame *F = &c->stack[d];
            finfo *fi = c->insts[F->inst].fi;
            for (int k = 0; k < fi->nheaders; k++)
                if (!fi->unrolled[k] && fi->inloop[(size_t)k * (size_t)fi->nblocks + (size_t)F->bb])
                    emit_let(c, loop_count_reg(c, F->inst, k), e_const(c, F->counters[k]));
        }
    }
    /* translation-time locals become real lazily, at their first access
     * after the fork (their contents so far are their initial values) */
    c->forked = 1;
}

/* A two-way branch on a value known only at run time. */
static void fork_branch(cfront *c, int e_true, int from, int to_true, int to_false)
{
    go_fork_mode(c);
    ir_instr j = ir_instr_init(I_JUMP, (wmx_srcloc){ 0, 0, 0 });
    j.e1 = e_true;
    j.target = -1;
    int ji = emit(c, &j, "");
    push_pending(c, from, to_true, ji);
    enter_edge(c, from, to_false);
}

/* ---- instructions ----------------------------------------------------------- */

static wmx_val fold_bin(LLVMOpcode op, wmx_val a, wmx_val b, int w, int *ok)
{
    uint64_t ua = (uint64_t)zext_w(a, w), ub = (uint64_t)zext_w(b, w);
    *ok = 1;
    switch (op) {
    case LLVMAdd: return sext_w((wmx_val)((uint64_t)a + (uint64_t)b), w);
    case LLVMSub: return sext_w((wmx_val)((uint64_t)a - (uint64_t)b), w);
    case LLVMMul: return sext_w((wmx_val)((uint64_t)a * (uint64_t)b), w);
    case LLVMAnd: return a & b;
    case LLVMOr: return a | b;
    case LLVMXor: return sext_w(a ^ b, w);
    case LLVMShl: return b < 0 || b >= 64 ? 0 : sext_w((wmx_val)((uint64_t)a << b), w);
    case LLVMLShr: return b < 0 || b >= 64 ? 0 : sext_w((wmx_val)(ua >> b), w);
    case LLVMAShr: return b < 0 || b >= 64 ? (a < 0 ? -1 : 0) : a < 0 ? ~(~a >> b) : a >> b;
    case LLVMSDiv: if (b == 0 || (a == INT64_MIN && b == -1)) break; return sext_w(a / b, w);
    case LLVMSRem: if (b == 0 || (a == INT64_MIN && b == -1)) break; return sext_w(a % b, w);
    case LLVMUDiv: if (ub == 0) break; return sext_w((wmx_val)(ua / ub), w);
    case LLVMURem: if (ub == 0) break; return sext_w((wmx_val)(ua % ub), w);
    default: break;
    }
    *ok = 0;
    return 0;
}

static void do_binop(cfront *c, LLVMValueRef in, LLVMOpcode op)
{
    int w = int_width(p_LLVMTypeOf(in));
    cval a = val(c, p_LLVMGetOperand(in, 0)), b = val(c, p_LLVMGetOperand(in, 1));
    if (a.kind == CV_CONST && b.kind == CV_CONST) {
        int ok;
        wmx_val r = fold_bin(op, a.c, b.c, w, &ok);
        if (ok) {
            set_val(c, in, cv_const(r));
            return;
        }
    }
    int ea = e_of(c, a), eb = e_of(c, b), e;
    switch (op) {
    case LLVMAdd: e = e_norm(c, e_bin(c, OP_ADD, ea, eb), w); break;
    case LLVMSub: e = e_norm(c, e_bin(c, OP_SUB, ea, eb), w); break;
    case LLVMMul: e = e_norm(c, e_bin(c, OP_MUL, ea, eb), w); break;
    case LLVMAnd: e = e_bin(c, OP_AND, ea, eb); break;
    case LLVMOr: e = e_bin(c, OP_OR, ea, eb); break;
    case LLVMXor: e = e_norm(c, e_bin(c, OP_XOR, ea, eb), w); break;
    case LLVMShl: e = e_norm(c, e_bin(c, OP_SHL, ea, eb), w); break;
    case LLVMLShr: e = e_norm(c, e_bin(c, OP_SHR, e_zext(c, ea, w), eb), w); break;
    case LLVMAShr: {
        /* s = a < 0 ? -1 : 0; ((a ^ s) >> b) ^ s */
        int s = e_bin(c, OP_SUB, e_const(c, 0), e_bin(c, OP_LT, ea, e_const(c, 0)));
        e = e_bin(c, OP_XOR, e_bin(c, OP_SHR, e_bin(c, OP_XOR, ea, s), eb), s);
        break;
    }
    case LLVMSDiv: e = e_norm(c, e_bin(c, OP_DIV, ea, eb), w); break;
    case LLVMSRem: e = e_norm(c, e_bin(c, OP_MOD, ea, eb), w); break;
    case LLVMUDiv:
    case LLVMURem:
        if (w >= 64) {
            e = e_bin(c, op == LLVMUDiv ? OP_UDIV : OP_UREM, ea, eb);
            break;
        }
        e = e_norm(c, e_bin(c, op == LLVMUDiv ? OP_DIV : OP_MOD, e_zext(c, ea, w), e_zext(c, eb, w)), w);
        break;
    default:
        fail(c, in, "unsupported: this arithmetic operation");
        return;
    }
    define(c, in, e);
}

/* C's double and float arithmetic, comparisons and conversions (values
 * held as a double's bits; a float result is rounded to float, which for
 * + - * / gives the float operation's own result) */
static void do_float(cfront *c, LLVMValueRef in, LLVMOpcode op)
{
    LLVMTypeRef rt = p_LLVMTypeOf(in);
    int to_float = p_LLVMGetTypeKind(rt) == LLVMFloatTypeKind;
    cval a = val(c, p_LLVMGetOperand(in, 0));
    int unary = op != LLVMFAdd && op != LLVMFSub && op != LLVMFMul && op != LLVMFDiv && op != LLVMFCmp;
    cval b = unary ? cv_const(0) : val(c, p_LLVMGetOperand(in, 1));
    if ((a.kind != CV_CONST && a.kind != CV_REG) || (b.kind != CV_CONST && b.kind != CV_REG)) {
        fail(c, in, "unsupported: floating-point arithmetic on an address");
        return;
    }
    int ea = e_of(c, a), eb = e_of(c, b), e = -1;
    LLVMTypeRef st = p_LLVMTypeOf(p_LLVMGetOperand(in, 0));
    int ws = p_LLVMGetTypeKind(st) == LLVMIntegerTypeKind ? (int)p_LLVMGetIntTypeWidth(st) : 64;
    switch (op) {
    case LLVMFAdd: e = e_bin(c, OP_FADD, ea, eb); break;
    case LLVMFSub: e = e_bin(c, OP_FSUB, ea, eb); break;
    case LLVMFMul: e = e_bin(c, OP_FMUL, ea, eb); break;
    case LLVMFDiv: e = e_bin(c, OP_FDIV, ea, eb); break;
    case LLVMFNeg: e = ir_unop(c->p, OP_FNEG, ea); break;
    case LLVMSIToFP: e = ir_unop(c->p, OP_ITOF, ws == 1 ? e_bin(c, OP_AND, ea, e_const(c, 1)) : ea); break;
    case LLVMUIToFP: e = ir_unop(c->p, ws >= 64 ? OP_UTOF : OP_ITOF, e_zext(c, ea, ws)); break;
    case LLVMFPExt: e = ea; break;
    case LLVMFPTrunc: e = ir_unop(c->p, OP_F32, ea); to_float = 0; break;
    case LLVMFPToSI:
    case LLVMFPToUI: {
        int wd = int_width(rt);
        e = ir_unop(c->p, op == LLVMFPToUI && wd >= 64 ? OP_FTOU : OP_FTOI, ea);
        e = e_norm(c, e, wd);
        to_float = 0;
        break;
    }
    case LLVMFCmp: {
        /* the unordered predicates are the ordered ones' negations */
        ir_op cmp = OP_FEQ;
        int negate = 0, always = -1;
        LLVMRealPredicate pr = p_LLVMGetFCmpPredicate(in);
        switch (pr) {
        case LLVMRealOEQ: cmp = OP_FEQ; break;
        case LLVMRealOGT: cmp = OP_FGT; break;
        case LLVMRealOGE: cmp = OP_FGE; break;
        case LLVMRealOLT: cmp = OP_FLT; break;
        case LLVMRealOLE: cmp = OP_FLE; break;
        case LLVMRealONE: cmp = OP_FNE; break;
        case LLVMRealUEQ: cmp = OP_FNE; negate = 1; break;
        case LLVMRealUGT: cmp = OP_FLE; negate = 1; break;
        case LLVMRealUGE: cmp = OP_FLT; negate = 1; break;
        case LLVMRealULT: cmp = OP_FGE; negate = 1; break;
        case LLVMRealULE: cmp = OP_FGT; negate = 1; break;
        case LLVMRealUNE: cmp = OP_FEQ; negate = 1; break;
        case LLVMRealPredicateFalse: always = 0; break;
        case LLVMRealPredicateTrue: always = 1; break;
        case LLVMRealORD: case LLVMRealUNO:
            /* ordered: neither is a NaN (x == x) */
            e = e_bin(c, OP_LAND, e_bin(c, OP_FEQ, ea, ea), e_bin(c, OP_FEQ, eb, eb));
            if (pr == LLVMRealUNO)
                e = ir_unop(c->p, OP_NOT, e);
            break;
        }
        if (always >= 0)
            e = e_const(c, always);
        else if (e < 0)
            e = negate ? ir_unop(c->p, OP_NOT, e_bin(c, cmp, ea, eb)) : e_bin(c, cmp, ea, eb);
        to_float = 0;
        break;
    }
    default:
        fail(c, in, "unsupported: this floating-point operation");
        return;
    }
    if (to_float)
        e = ir_unop(c->p, OP_F32, e);
    if (a.kind == CV_CONST && b.kind == CV_CONST) {
        bool fault = false;
        wmx_val v = ir_eval(c->p, e, NULL, &fault);
        if (!fault) {
            set_val(c, in, cv_const(v));
            return;
        }
    }
    define(c, in, e);
}

static void do_icmp(cfront *c, LLVMValueRef in)
{
    LLVMIntPredicate pr = p_LLVMGetICmpPredicate(in);
    LLVMValueRef l = p_LLVMGetOperand(in, 0);
    int w = int_width(p_LLVMTypeOf(l));
    cval a = val(c, l), b = val(c, p_LLVMGetOperand(in, 1));
    int unsig = pr == LLVMIntUGT || pr == LLVMIntUGE || pr == LLVMIntULT || pr == LLVMIntULE;
    /* two addresses within one known object compare by cell */
    if (a.kind == CV_PTR && b.kind == CV_PTR && a.obj == b.obj && a.offx < 0 && b.offx < 0) {
        a = cv_const(a.off);
        b = cv_const(b.off);
        unsig = 0;
    }
    /* an object's address is never NULL (malloc here does not fail) */
    if ((pr == LLVMIntEQ || pr == LLVMIntNE) &&
        ((a.kind == CV_PTR && b.kind == CV_CONST && b.c == 0) || (b.kind == CV_PTR && a.kind == CV_CONST && a.c == 0))) {
        set_val(c, in, cv_const(pr == LLVMIntNE));
        return;
    }
    if (a.kind == CV_CONST && b.kind == CV_CONST) {
        wmx_val x = a.c, y = b.c;
        uint64_t ux = (uint64_t)zext_w(x, w), uy = (uint64_t)zext_w(y, w);
        int r;
        switch (pr) {
        case LLVMIntEQ: r = x == y; break;
        case LLVMIntNE: r = x != y; break;
        case LLVMIntSGT: r = x > y; break;
        case LLVMIntSGE: r = x >= y; break;
        case LLVMIntSLT: r = x < y; break;
        case LLVMIntSLE: r = x <= y; break;
        case LLVMIntUGT: r = ux > uy; break;
        case LLVMIntUGE: r = ux >= uy; break;
        case LLVMIntULT: r = ux < uy; break;
        default: r = ux <= uy; break;
        }
        set_val(c, in, cv_const(r));
        return;
    }
    int ea = e_of(c, a), eb = e_of(c, b);
    if (unsig) {
        if (w >= 64) {
            wmx_val mn = INT64_MIN;
            ea = e_bin(c, OP_XOR, ea, e_const(c, mn));
            eb = e_bin(c, OP_XOR, eb, e_const(c, mn));
        } else {
            ea = e_zext(c, ea, w);
            eb = e_zext(c, eb, w);
        }
    }
    ir_op op;
    switch (pr) {
    case LLVMIntEQ: op = OP_EQ; break;
    case LLVMIntNE: op = OP_NE; break;
    case LLVMIntSGT: case LLVMIntUGT: op = OP_GT; break;
    case LLVMIntSGE: case LLVMIntUGE: op = OP_GE; break;
    case LLVMIntSLT: case LLVMIntULT: op = OP_LT; break;
    default: op = OP_LE; break;
    }
    define(c, in, e_bin(c, op, ea, eb));
}

static void do_cast(cfront *c, LLVMValueRef in, LLVMOpcode op)
{
    LLVMValueRef s = p_LLVMGetOperand(in, 0);
    cval a = val(c, s);
    int ws = int_width(p_LLVMTypeOf(s)), wd = int_width(p_LLVMTypeOf(in));
    switch (op) {
    case LLVMBitCast:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMAddrSpaceCast:
    case LLVMFreeze:
        set_val(c, in, a);
        return;
    case LLVMTrunc:
        if (a.kind == CV_CONST) {
            set_val(c, in, cv_const(sext_w(a.c, wd)));
            return;
        }
        define(c, in, e_norm(c, e_of(c, a), wd));
        return;
    case LLVMZExt:
        if (a.kind == CV_CONST) {
            set_val(c, in, cv_const(zext_w(a.c, ws)));
            return;
        }
        define(c, in, ws == 1 ? e_of(c, a) : e_zext(c, e_of(c, a), ws));
        return;
    case LLVMSExt:
        if (a.kind == CV_CONST) {
            set_val(c, in, cv_const(ws == 1 ? -(a.c & 1) : a.c));
            return;
        }
        if (ws == 1)
            define(c, in, e_bin(c, OP_SUB, e_const(c, 0), e_of(c, a)));
        else
            set_val(c, in, a);
        return;
    default:
        fail(c, in, "unsupported: this conversion (floating point?)");
    }
}

/* The value at address p: translation-time memory (before any fork, and
 * pthread_t variables: after a fork paths differ, so the memory must be
 * real) or a load into register dst (-1: the register of `in`). */
/* A load folded from a global nothing writes (`const int N = 16;`): every
 * loop around the current point, in every frame, read it this time round. */
static void note_frozen_read(cfront *c)
{
    for (int d = 0; d < c->depth; d++) {
        frame *F = &c->stack[d];
        finfo *fi = c->insts[F->inst].fi;
        for (int h = 0; h < fi->nheaders; h++)
            if (fi->inloop[(size_t)h * (size_t)fi->nblocks + (size_t)F->bb])
                F->counters[2 * fi->nheaders + h] |= ROUND_FROZEN_READ;
    }
}

/* An access past an object's cells, found while translating.  Before a
 * fork the run makes it: an error.  After one, the way here may be one no
 * run takes (`for (i = 0; i < n; i++) pthread_join(t[i])` copied up to the
 * bound, past t's end, with n at most its length): a failing assertion
 * there, which only a run that does reach it reports, and the end of the
 * way. */
static void out_of_bounds(cfront *c, LLVMValueRef in, cval p)
{
    char text[200];
    snprintf(text, sizeof text, "out of bounds: cell %d of '%s'", p.off, c->objs[p.obj].name);
    if (!c->forked) {
        fail(c, in, "%s", text);
        return;
    }
    emit_assert(c, e_const(c, 0), text);
    end_path(c);      /* the failed assertion stops the thread */
}

static cval load_cell(cfront *c, cval p, LLVMValueRef in, int dst)
{
    if (p.kind == CV_PTR && p.offx < 0 && (cells_current(c, p.obj) || fold_unwritten(c, p.obj))) {
        if (p.off < 0 || p.off >= c->objs[p.obj].ncells) {
            out_of_bounds(c, in, p);
            return cv_const(0);
        }
        if (!cells_current(c, p.obj)) {
            if (c->objs[p.obj].frozen)
                note_frozen_read(c);
            else
                c->shared_folds++;
        }
        return c->objs[p.obj].cells[p.off];
    }
    ir_addr a = addr_of(c, p);
    if (c->failed)
        return cv_const(0);
    ir_instr ld = ir_instr_init(I_LOAD, (wmx_srcloc){ 0, 0, 0 });
    ld.addr = a;
    ld.dst = dst >= 0 ? dst : reg_for(c, in);
    emit(c, &ld, NULL);
    return cv_reg(ld.dst);
}

static void do_load(cfront *c, LLVMValueRef in)
{
    cval p = val(c, p_LLVMGetOperand(in, 0));
    LLVMTypeKind tk = p_LLVMGetTypeKind(p_LLVMTypeOf(in));
    if (tk != LLVMIntegerTypeKind && tk != LLVMPointerTypeKind && !is_float_type(p_LLVMTypeOf(in))) {
        fail(c, in, "unsupported: a load of this type (only integers, pointers, double and float)");
        return;
    }
    set_val(c, in, load_cell(c, p, in, -1));
}

/* Stores v at address p: into translation-time memory when it can be
 * there, else an emitted store.  0 when translation failed or the value
 * stayed at translation time (nothing emitted), 1 when a store was emitted. */
static int store_cell(cfront *c, cval p, cval v, LLVMValueRef in)
{
    if (p.kind == CV_PTR && p.offx < 0 && c->objs[p.obj].var >= 0 && cells_current(c, p.obj) &&
        (v.kind == CV_CONST || (v.kind == CV_PTR && v.offx < 0))) {
        if (p.off < 0 || p.off >= c->objs[p.obj].ncells) {
            out_of_bounds(c, in, p);
            return 0;
        }
        obj_set_cell(c, p.obj, p.off, v);
        return 0;
    }
    if (p.kind == CV_PTR && p.offx < 0 && c->objs[p.obj].var < 0) {
        cobj *o = &c->objs[p.obj];
        if (p.off < 0 || p.off >= o->ncells) {
            out_of_bounds(c, in, p);
            return 0;
        }
        if (!c->forked && (o->handle || v.kind == CV_CONST || (v.kind == CV_PTR && v.offx < 0))) {
            o->cells[p.off] = v;
            return 0;
        }
        /* (an object holding pthread_t values too: they go to memory, and
         * joins dispatch on what they load) */
        obj_make_real(c, p.obj);
    }
    ir_addr a = addr_of(c, p);
    if (c->failed)
        return 0;
    note_write(c, p.kind == CV_PTR ? p.obj : -1);
    ir_instr st = ir_instr_init(I_STORE, (wmx_srcloc){ 0, 0, 0 });
    st.addr = a;
    st.e1 = e_of(c, v);
    emit(c, &st, NULL);
    return 1;
}

static void do_store(cfront *c, LLVMValueRef in)
{
    cval v = val(c, p_LLVMGetOperand(in, 0));
    cval p = val(c, p_LLVMGetOperand(in, 1));
    LLVMTypeKind tk = p_LLVMGetTypeKind(p_LLVMTypeOf(p_LLVMGetOperand(in, 0)));
    if (tk != LLVMIntegerTypeKind && tk != LLVMPointerTypeKind && !is_float_type(p_LLVMTypeOf(p_LLVMGetOperand(in, 0)))) {
        fail(c, in, "unsupported: a store of this type (only integers, pointers, double and float)");
        return;
    }
    if (!store_cell(c, p, v, in))
        return;
    if (p_LLVMGetOrdering(in) == LLVMAtomicOrderingSequentiallyConsistent) {
        /* x86 mapping: a seq_cst store is a store and an MFENCE */
        ir_instr f = ir_instr_init(I_FENCE, (wmx_srcloc){ 0, 0, 0 });
        emit(c, &f, "(fence after the seq_cst store)");
    }
}

/* GenMC's spin-assume extended to loops whose only writes are exchanges
 * (SAVer): an iteration whose exchanges all left memory as it was (an xchg
 * that wrote the value it read, a failed compare-exchange) changed nothing,
 * so going round again is only waiting, and its back edge assumes that it
 * did change something.  changed: this RMW's "memory changed" expression,
 * or-ed into the flag of every zne loop it runs in, callers' loops too. */
static void note_rmw_effect(cfront *c, int changed)
{
    for (int d = 0; d < c->depth; d++) {
        finst *x = &c->insts[c->stack[d].inst];
        finfo *fi = x->fi;
        for (int k = 0; k < fi->nheaders; k++)
            if (fi->zne[k] && x->eff[k] >= 0 && fi->inloop[(size_t)k * (size_t)fi->nblocks + (size_t)c->stack[d].bb])
                emit_let(c, x->eff[k], e_bin(c, OP_LOR, ir_reg(c->p, x->eff[k]), changed));
    }
}

static void do_rmw(cfront *c, LLVMValueRef in, int cmpxchg)
{
    cval p = val(c, p_LLVMGetOperand(in, 0));
    ir_addr a = addr_of(c, p);
    if (c->failed)
        return;
    note_write(c, p.kind == CV_PTR ? p.obj : -1);
    if (cmpxchg) {
        ir_instr x = ir_instr_init(I_CAS, (wmx_srcloc){ 0, 0, 0 });
        x.addr = a;
        x.e1 = e_of(c, val(c, p_LLVMGetOperand(in, 1)));
        x.e2 = e_of(c, val(c, p_LLVMGetOperand(in, 2)));
        x.dst = reg_for(c, in);
        x.dst2 = temp_reg(c);
        emit(c, &x, NULL);
        note_rmw_effect(c, e_bin(c, OP_LAND, ir_reg(c->p, x.dst2), e_bin(c, OP_NE, x.e1, x.e2)));
        cval r = { .kind = CV_PAIR, .reg = x.dst, .reg2 = x.dst2, .offx = -1 };
        set_val(c, in, r);
        return;
    }
    LLVMAtomicRMWBinOp op = p_LLVMGetAtomicRMWBinOp(in);
    ir_instr x = ir_instr_init(op == LLVMAtomicRMWBinOpXchg ? I_XCHG : I_FAA, (wmx_srcloc){ 0, 0, 0 });
    x.addr = a;
    int w = int_width(p_LLVMTypeOf(in));
    cval v = val(c, p_LLVMGetOperand(in, 1));
    if (op == LLVMAtomicRMWBinOpXchg || op == LLVMAtomicRMWBinOpAdd)
        x.e1 = e_of(c, v);
    else if (op == LLVMAtomicRMWBinOpSub)
        x.e1 = v.kind == CV_CONST ? e_const(c, -v.c) : e_bin(c, OP_SUB, e_const(c, 0), e_of(c, v));
    else {
        fail(c, in, "unsupported: this atomic read-modify-write (only exchange, fetch_add and fetch_sub)");
        return;
    }
    x.dst = reg_for(c, in);
    emit(c, &x, NULL);
    if (op == LLVMAtomicRMWBinOpXchg)
        note_rmw_effect(c, e_bin(c, OP_NE, ir_reg(c->p, x.dst), x.e1));
    else if (c->plp)
        note_rmw_effect(c, e_bin(c, OP_NE, x.e1, e_const(c, 0)));
    if (w < 64 && op != LLVMAtomicRMWBinOpXchg && p_LLVMGetFirstUse(in)) {
        /* memory keeps the 64-bit sum; the C value wraps at w bits (an
         * unused result gets no let: --ifaa looks for faa nothing reads) */
        define(c, in, e_norm(c, ir_reg(c->p, x.dst), w));
    } else {
        set_val(c, in, cv_reg(x.dst));
    }
}

/* Nidhugg's await intrinsics: __VERIFIER_load_await_aint(p, cond, k)
 * waits until (*p cond k) and returns *p; __VERIFIER_xchg_await_aint(p, v,
 * cond, k) waits the same way and then exchanges v in, atomically (a
 * blocking CAS with that comparison, ir.h).  cond is Nidhugg's bit field:
 * 8 signed, 4 less, 2 equal, 1 greater; the unsigned orders are refused
 * (values here compare as signed). */
static void do_await_call(cfront *c, LLVMValueRef in, int xchg)
{
    cval p = val(c, p_LLVMGetOperand(in, 0));
    cval cond = val(c, p_LLVMGetOperand(in, xchg ? 2 : 1));
    cval k = val(c, p_LLVMGetOperand(in, xchg ? 3 : 2));
    const char *fn = xchg ? "__VERIFIER_xchg_await_aint" : "__VERIFIER_load_await_aint";
    if (cond.kind != CV_CONST) {
        fail(c, in, "unsupported: %s with a condition not known while translating", fn);
        return;
    }
    ir_op op;
    switch (cond.c) {
    case 0x2: op = OP_EQ; break;
    case 0x5: op = OP_NE; break;
    case 0x9: op = OP_GT; break;
    case 0xb: op = OP_GE; break;
    case 0xc: op = OP_LT; break;
    case 0xe: op = OP_LE; break;
    default:
        fail(c, in, "unsupported: %s condition %lld (only EQ 0b010, NE 0b101 and the signed "
                    "orders SGT 0b1001, SGE 0b1011, SLT 0b1100, SLE 0b1110)", fn, (long long)cond.c);
        return;
    }
    ir_addr a = addr_of(c, p);
    if (c->failed)
        return;
    ir_instr x = ir_instr_init(xchg ? I_CAS : I_AWAIT, (wmx_srcloc){ 0, 0, 0 });
    x.addr = a;
    x.cmp = op;
    x.e1 = e_of(c, k);
    x.dst = reg_for(c, in);
    if (xchg) {
        note_write(c, p.kind == CV_PTR ? p.obj : -1);
        x.e2 = e_of(c, val(c, p_LLVMGetOperand(in, 1)));
        x.blocking = true;
    }
    emit(c, &x, NULL);
    if (xchg)
        note_rmw_effect(c, e_bin(c, OP_NE, ir_reg(c->p, x.dst), x.e2));
    set_val(c, in, cv_reg(x.dst));
}

static int handle_global(LLVMModuleRef m, LLVMValueRef g);

static void do_alloca(cfront *c, LLVMValueRef in)
{
    finst *x = top_inst(c);
    int i = value_index(c, in);
    if (x->allocas[i] < 0) {
        LLVMTypeRef t = p_LLVMGetAllocatedType(in);
        int n = type_cells(c, t);
        if (n < 0) {
            fail(c, in, "unsupported: a local of this type (only integers, doubles, floats, pointers, arrays and structs of them)");
            return;
        }
        cval cnt = val(c, p_LLVMGetOperand(in, 0));
        if (cnt.kind == CV_REG)   /* `pthread_t t[n]`, n a nondet input */
            cnt = cv_const(run_time_cap(c, e_of(c, cnt), 1, "array"));
        if (cnt.kind != CV_CONST || cnt.c < 1 || cnt.c > 65536 || (long)n * cnt.c > (1L << 20)) {
            fail(c, in, "unsupported: a variable-length array whose length is not known while translating");
            return;
        }
        if (cnt.c > 1) {
            /* a variable-length array of a length known here (pthread_t
             * t[n] with n fixed by main): an array of that many */
            t = p_LLVMArrayType(t, (unsigned)cnt.c);
            n = type_cells(c, t);
        }
        char name[128];
        snprintf(name, sizeof name, "%s.%s", c->p->threads[c->t].name, vname(in));
        x->allocas[i] = obj_new(c, name, n);
        c->objs[x->allocas[i]].type = t;
        /* pthread_t t[N] that pthread_create writes: a handle from the
         * start, so a way that joins before (or without) creating reads
         * "no thread" rather than memory */
        if (handle_global(c->mod, in))
            c->objs[x->allocas[i]].handle = 1;
    }
    cval r = { .kind = CV_PTR, .obj = top_inst(c)->allocas[i], .off = 0, .offx = -1 };
    set_val(c, in, r);
}

static void do_branch(cfront *c, LLVMValueRef in)
{
    frame *F = top(c);
    finfo *fi = top_inst(c)->fi;
    int from = F->bb;
    if (!p_LLVMIsConditional(in)) {
        enter_edge(c, from, pmap_get(&fi->bidx, p_LLVMGetSuccessor(in, 0)));
        return;
    }
    cval cond = val(c, p_LLVMGetCondition(in));
    int t = pmap_get(&fi->bidx, p_LLVMGetSuccessor(in, 0));
    int f = pmap_get(&fi->bidx, p_LLVMGetSuccessor(in, 1));
    int succ[2] = { t, f };
    if (cond.kind == CV_CONST) {
        note_exit_test(c, from, succ, 2, EXIT_FOLDED);
        enter_edge(c, from, cond.c ? t : f);
        return;
    }
    /* assert(e): one side only fails the assertion */
    if (block_is_sink(c, fi->blocks[f], 0)) {
        emit_assert(c, e_of(c, cond), NULL);
        enter_edge(c, from, t);
        return;
    }
    if (block_is_sink(c, fi->blocks[t], 0)) {
        emit_assert(c, e_bin(c, OP_EQ, e_of(c, cond), e_const(c, 0)), NULL);
        enter_edge(c, from, f);
        return;
    }
    note_exit_test(c, from, succ, 2, EXIT_RUNTIME);
    fork_branch(c, e_of(c, cond), from, t, f);
}

static void do_switch(cfront *c, LLVMValueRef in)
{
    frame *F = top(c);
    finfo *fi = top_inst(c)->fi;
    int from = F->bb;
    cval cond = val(c, p_LLVMGetOperand(in, 0));
    unsigned ns = p_LLVMGetNumSuccessors(in);
    int def = pmap_get(&fi->bidx, p_LLVMGetSuccessor(in, 0));
    int *succ = wmx_malloc((size_t)ns * sizeof *succ);
    for (unsigned k = 0; k < ns; k++)
        succ[k] = pmap_get(&fi->bidx, p_LLVMGetSuccessor(in, k));
    note_exit_test(c, from, succ, (int)ns, cond.kind == CV_CONST ? EXIT_FOLDED : EXIT_RUNTIME);
    free(succ);
    if (cond.kind == CV_CONST) {
        for (unsigned k = 1; k < ns; k++) {
            cval cv = const_val(c, p_LLVMGetOperand(in, 2 * k));
            if (cv.c == cond.c) {
                enter_edge(c, from, pmap_get(&fi->bidx, p_LLVMGetSuccessor(in, k)));
                return;
            }
        }
        enter_edge(c, from, def);
        return;
    }
    go_fork_mode(c);
    int ec = e_of(c, cond);
    for (unsigned k = 1; k < ns; k++) {
        cval cv = const_val(c, p_LLVMGetOperand(in, 2 * k));
        ir_instr j = ir_instr_init(I_JUMP, (wmx_srcloc){ 0, 0, 0 });
        j.e1 = e_bin(c, OP_EQ, ec, e_const(c, cv.c));
        int ji = emit(c, &j, "");
        push_pending(c, from, pmap_get(&fi->bidx, p_LLVMGetSuccessor(in, k)), ji);
    }
    enter_edge(c, from, def);
}

static void do_ret(cfront *c, LLVMValueRef in)
{
    if (c->depth == 1) {
        int next = top(c)->dtor_next;
        if (!next && p_LLVMGetNumOperands(in) > 0)
            thread_result(c, val(c, p_LLVMGetOperand(in, 0)));
        /* main's return is exit(): no destructors */
        if (c->cur == 0 && !next)
            thread_end(c);
        else
            thread_exit(c, next ? next : 1);
        return;
    }
    cval r = cv_const(0);
    if (p_LLVMGetNumOperands(in) > 0)
        r = val(c, p_LLVMGetOperand(in, 0));
    frame *F = top(c);
    LLVMValueRef call = F->call;
    int was_atomic = F->atomic_fn;
    free(F->counters);
    c->depth--;
    if (was_atomic && !in_section(c))
        section_edge(c, 0);
    if (c->forked && r.kind != CV_CONST) {
        int reg = reg_for(c, call);
        emit_let(c, reg, e_of(c, r));
        r = cv_reg(reg);
    }
    set_val(c, call, r);
    memo_here(c);
}

static void step(cfront *c)
{
    frame *F = top(c);
    LLVMValueRef in = F->at;
    if (!in) {
        fail(c, NULL, "internal: ran off the end of a block");
        return;
    }
    c->here = in;
    if (--c->budget < 0) {
        fail(c, in, "unsupported: the program is too big to translate (over 2000000 steps)");
        return;
    }
    if ((c->budget & 1023) == 0 && c->stop && c->stop->fn(c->stop->ud)) {
        fail(c, in, "translation stopped (Ctrl-C or a limit)");
        c->err->limit = true;
        return;
    }
    LLVMOpcode op = p_LLVMGetInstructionOpcode(in);
    /* most instructions fall through to the next one */
    F->at = p_LLVMGetNextInstruction(in);
    F->pos++;
    switch (op) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMAnd: case LLVMOr: case LLVMXor:
    case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMSDiv: case LLVMSRem: case LLVMUDiv: case LLVMURem:
        do_binop(c, in, op);
        break;
    case LLVMICmp: do_icmp(c, in); break;
    case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFNeg: case LLVMFCmp:
    case LLVMSIToFP: case LLVMUIToFP: case LLVMFPToSI: case LLVMFPToUI: case LLVMFPExt: case LLVMFPTrunc:
        do_float(c, in, op);
        break;
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMBitCast: case LLVMPtrToInt: case LLVMIntToPtr:
    case LLVMAddrSpaceCast: case LLVMFreeze:
        do_cast(c, in, op);
        break;
    case LLVMSelect: {
        cval k = val(c, p_LLVMGetOperand(in, 0));
        cval a = val(c, p_LLVMGetOperand(in, 1)), b = val(c, p_LLVMGetOperand(in, 2));
        if (k.kind == CV_CONST) {
            set_val(c, in, k.c ? a : b);
            break;
        }
        int eb = e_of(c, b);
        define(c, in, e_bin(c, OP_ADD, eb, e_bin(c, OP_MUL, e_of(c, k), e_bin(c, OP_SUB, e_of(c, a), eb))));
        break;
    }
    case LLVMGetElementPtr: {
        cval base = val(c, p_LLVMGetOperand(in, 0));
        cval r = gep_apply(c, base, p_LLVMGetGEPSourceElementType(in), in, 1, (unsigned)p_LLVMGetNumOperands(in) - 1);
        set_val(c, in, r);
        break;
    }
    case LLVMExtractValue: {
        cval a = val(c, p_LLVMGetOperand(in, 0));
        const unsigned *idx = p_LLVMGetIndices(in);
        if (a.kind != CV_PAIR || p_LLVMGetNumIndices(in) != 1) {
            fail(c, in, "unsupported: extractvalue on this value");
            break;
        }
        set_val(c, in, cv_reg(idx[0] == 0 ? a.reg : a.reg2));
        break;
    }
    case LLVMPHI:
        break;      /* assigned on the edge */
    case LLVMAlloca: do_alloca(c, in); break;
    case LLVMLoad: do_load(c, in); break;
    case LLVMStore:
        if (c->plp)
            note_rmw_effect(c, e_const(c, 1));
        do_store(c, in);
        break;
    case LLVMAtomicCmpXchg: do_rmw(c, in, 1); break;
    case LLVMAtomicRMW: do_rmw(c, in, 0); break;
    case LLVMFence: {
        /* LLVM 14's LLVMGetOrdering does not read fences: ask the text */
        char *txt = p_LLVMPrintValueToString(in);
        int sc = strstr(txt, "seq_cst") != NULL;
        p_LLVMDisposeMessage(txt);
        if (sc) {
            ir_instr f = ir_instr_init(I_FENCE, (wmx_srcloc){ 0, 0, 0 });
            emit(c, &f, NULL);
        }
        break;
    }
    case LLVMCall: do_call(c, in); break;
    case LLVMBr: do_branch(c, in); break;
    case LLVMSwitch: do_switch(c, in); break;
    case LLVMRet: do_ret(c, in); break;
    case LLVMUnreachable: emit_block_forever(c, "(unreachable)", false); break;
    default:
        fail(c, in, "unsupported: this instruction (opcode %d)", (int)op);
    }
}

static void run_path(cfront *c)
{
    while (!c->path_done && !c->failed)
        step(c);
}

static void translate_thread(cfront *c, int id)
{
    cthread *th = &c->threads[id];
    c->cur = id;
    c->t = th->t;
    c->forked = 0;
    c->visible = 0;
    c->njoins = 0;
    kmap_free(&c->memo);
    finfo *fi = func_info(c, th->fn);
    if (fi->nblocks == 0) {
        fail(c, NULL, "unsupported: a thread function without a body");
        return;
    }
    int xi = inst_new(c, fi);
    unsigned np = p_LLVMCountParams(th->fn);
    if (np > 0)
        c->insts[xi].env[pmap_get(&fi->vidx, p_LLVMGetParam(th->fn, 0))] = th->arg;
    for (unsigned k = 1; k < np; k++)
        c->insts[xi].env[pmap_get(&fi->vidx, p_LLVMGetParam(th->fn, k))] = cv_const(0);
    if (th->start_var >= 0) {
        c->here = NULL;
        emit_flag(c, I_AWAIT, th->start_var, "(waits for pthread_create)");
    }
    if (th->arg_var >= 0 && np > 0) {
        int r = temp_reg(c);
        ir_instr ld = ir_instr_init(I_LOAD, (wmx_srcloc){ 0, 0, 0 });
        ld.addr.var = th->arg_var;
        ld.dst = r;
        emit(c, &ld, "(the thread's argument)");
        c->insts[xi].env[pmap_get(&fi->vidx, p_LLVMGetParam(th->fn, 0))] = cv_reg(r);
    }
    if (c->cap < 1) {
        c->cap = 8;
        c->stack = wmx_realloc(c->stack, (size_t)c->cap * sizeof *c->stack);
    }
    c->depth = 1;
    frame *F = &c->stack[0];
    memset(F, 0, sizeof *F);
    F->inst = xi;
    F->counters = wmx_calloc(CTR_SLOTS * (size_t)(fi->nheaders ? fi->nheaders : 1), sizeof *F->counters);
    F->at = p_LLVMGetFirstInstruction(fi->blocks[0]);
    c->path_done = 0;
    run_path(c);
    free_stack(c->stack, c->depth);
    while (c->nwork > 0 && !c->failed) {
        pending w = c->work[--c->nwork];
        if (c->cap < w.depth) {
            c->cap = w.depth;
            c->stack = wmx_realloc(c->stack, (size_t)c->cap * sizeof *c->stack);
        }
        memcpy(c->stack, w.stack, (size_t)w.depth * sizeof *w.stack);
        c->depth = w.depth;
        for (int d = 0; d < w.depth; d++) {
            finst *x = &c->insts[w.stack[d].inst];
            memcpy(x->env, w.envs[d], (size_t)(x->fi->nvals ? x->fi->nvals : 1) * sizeof(cval));
            free(w.envs[d]);
        }
        free(w.envs);
        free(w.stack);
        restore_handles(c, &w);
        free(w.handles);
        free(w.handle_objs);
        c->p->threads[c->t].instrs[w.jump].target = c->p->threads[c->t].ninstrs;
        c->path_done = 0;
        if (w.dtor_key > 0)
            thread_exit(c, w.dtor_key);
        else if (w.fn)
            do_call_fn(c, w.call, w.fn);
        else
            enter_edge(c, w.from, w.to);
        run_path(c);
        free_stack(c->stack, c->depth);
    }
    while (c->nwork > 0) {
        pending w = c->work[--c->nwork];
        free_stack(w.stack, w.depth);
        for (int d = 0; d < w.depth; d++)
            free(w.envs[d]);
        free(w.envs);
        free(w.stack);
        free(w.handles);
        free(w.handle_objs);
    }
    c->depth = 0;
}

/* ---- clang ------------------------------------------------------------------ */

/* here, not at the top, so that this section stays one piece */
#include <poll.h>
#include <signal.h>
#include <time.h>

/* How long clang may run (an #include of /dev/zero, a FIFO or a huge file
 * never ends): WMX_CLANG_TIMEOUT seconds, else this; the command's limits
 * (--timeout, Ctrl-C) stop it too. */
#define CLANG_TIMEOUT_S 60.0

static const char *clang_command(void)
{
    const char *clang = getenv("WMX_CLANG");
    return clang && *clang ? clang : WMX_CLANG;
}

static double clang_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A clang run: started by clang_start, waited for (and its stderr read) by
 * clang_finish. */
typedef struct clang_run {
    pid_t pid;           /* clang, leader of its own process group */
    int fd;              /* clang's stderr */
    double started, limit_s;
    const wmx_stop *stop;
} clang_run;

/* Starts clang on path, writing bitcode to out.  It runs while libLLVM is
 * opened (about 20 ms each): clang_finish waits for it. */
static int clang_start(const char *path, const cfront_opts *o, const char *out, const char *depfile,
                       clang_run *run, wmx_error *err)
{
    const char *clang = clang_command();
    double limit_s = CLANG_TIMEOUT_S;
    const char *env = getenv("WMX_CLANG_TIMEOUT");
    if (env && *env) {
        char *end;
        errno = 0;
        limit_s = strtod(env, &end);
        if (*end || errno || !(limit_s > 0 && limit_s <= 1e9)) {
            wmx_error_set(err, path, 1, 1, "WMX_CLANG_TIMEOUT='%s' is not a number of seconds "
                                           "(above 0)", env);
            return -1;
        }
    }
    const char *argv[CFRONT_MAX_FLAGS + 24];
    int n = 0;
    argv[n++] = clang;
    argv[n++] = "-c";           /* bitcode: cheaper to write and to read back */
    argv[n++] = "-emit-llvm";
    argv[n++] = "-O0";
    argv[n++] = "-g";
    argv[n++] = "-Xclang";
    argv[n++] = "-disable-O0-optnone";
    argv[n++] = "-fno-discard-value-names";
    argv[n++] = "-std=gnu11";
    argv[n++] = "-fgnu89-inline";  /* SV-COMP's `inline` functions without static have bodies */
    argv[n++] = "-fno-stack-protector";
    argv[n++] = "-Wno-everything";
    argv[n++] = "-ferror-limit=1";
    argv[n++] = "-fno-color-diagnostics";
    for (int i = 0; o && i < o->nflags; i++)
        argv[n++] = o->flags[i];
#ifdef WMX_C_INCLUDE_PATH
    argv[n++] = "-idirafter";       /* wmx's genmc.h, after the user's -I */
    argv[n++] = WMX_STR(WMX_C_INCLUDE_PATH);
#endif
    if (depfile) {
        argv[n++] = "-MD";          /* the files it reads: the cache's dependencies */
        argv[n++] = "-MF";
        argv[n++] = depfile;
    }
    argv[n++] = "-o";
    argv[n++] = out;
    argv[n++] = "--";
    argv[n++] = path;
    argv[n] = NULL;
    int pipefd[2];
    if (pipe(pipefd) != 0) {
        wmx_error_set(err, path, 1, 1, "cannot run clang: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        close(pipefd[0]);
        close(pipefd[1]);
        wmx_error_set(err, path, 1, 1, "cannot run clang: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        /* its own process group: the driver and its cc1 are killed together,
         * and a terminal's Ctrl-C reaches wmx, which decides */
        setpgid(0, 0);
        dup2(pipefd[1], 2);
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            dup2(devnull, 1);
        }
        close(pipefd[0]);
        close(pipefd[1]);
        execvp(clang, (char *const *)argv);
        fprintf(stderr, "wmx-clang-missing: %s\n", strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);              /* as the child does: whichever runs first */
    wmx_child_add(pid);             /* killed if wmx is (SIGTERM) */
    close(pipefd[1]);
    fcntl(pipefd[0], F_SETFD, FD_CLOEXEC);
    run->pid = pid;
    run->fd = pipefd[0];
    run->started = clang_now();
    run->limit_s = limit_s;
    run->stop = o ? o->stop : NULL;
    return 0;
}

/* Reads clang's stderr (the first 64 KiB) and waits for it, polling its
 * time limit and the command's stop every 20 ms; on either, kills its
 * process group.  *stopped: 1 by the stop, 2 by the time limit. */
static char *clang_wait(clang_run *run, int *status, int *stopped)
{
    size_t n = 0, cap = 4096;
    char *s = wmx_malloc(cap);
    int fd = run->fd;
    bool exited = false;
    *stopped = 0;
    while (fd >= 0 || !exited) {
        if (fd >= 0) {
            struct pollfd pf = { fd, POLLIN, 0 };
            if (poll(&pf, 1, 20) > 0) {
                char chunk[4096];
                ssize_t k = read(fd, chunk, sizeof chunk);
                if (k < 0 && (errno == EINTR || errno == EAGAIN))
                    continue;
                if (k <= 0) {
                    close(fd);
                    fd = -1;
                } else if (n < 65536) {
                    size_t take = (size_t)k;
                    if (n + take + 1 > cap) {
                        cap = n + take + 1 > 2 * cap ? n + take + 1 : 2 * cap;
                        s = wmx_realloc(s, cap);
                    }
                    memcpy(s + n, chunk, take);
                    n += take;
                }
            }
        } else {
            struct timespec ts = { 0, 2 * 1000 * 1000 };   /* its stderr closed: it is ending */
            nanosleep(&ts, NULL);
        }
        if (!exited) {
            pid_t r = waitpid(run->pid, status, WNOHANG);
            if (r == run->pid || (r < 0 && errno == ECHILD))
                exited = true;
        }
        if (fd < 0 && exited)
            break;
        if (run->stop && run->stop->fn(run->stop->ud))
            *stopped = 1;
        else if (clang_now() - run->started >= run->limit_s)
            *stopped = 2;
        if (*stopped) {
            /* SIGTERM first: clang's handler removes its NAME-XXXXXXXX.tmp
             * outputs, which SIGKILL would leave in $TMPDIR */
            kill(-run->pid, SIGTERM);
            for (int i = 0; i < 100 && !exited; i++) {
                pid_t r = waitpid(run->pid, status, WNOHANG);
                if (r == run->pid || (r < 0 && errno == ECHILD))
                    exited = true;
                else {
                    struct timespec ts = { 0, 2 * 1000 * 1000 };
                    nanosleep(&ts, NULL);
                }
            }
            kill(-run->pid, SIGKILL);
            if (!exited)
                while (waitpid(run->pid, status, 0) < 0 && errno == EINTR)
                    ;
            break;
        }
    }
    wmx_child_drop(run->pid);
    if (fd >= 0)
        close(fd);
    s[n] = '\0';
    return s;
}

/* "FILE:LINE:COL: [fatal ]error: MESSAGE", clang's first error line, into
 * err with clang's own position (a header's, when the error is there). */
static bool clang_diagnostic(char *msg, wmx_error *err)
{
    for (char *line = msg; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *e = strstr(line, ": error: ");
        char *f = strstr(line, ": fatal error: ");
        if (f && (!e || f < e))
            e = f;
        if (e) {
            /* ":LINE:COL" just before it */
            char *c2 = e - 1;
            while (c2 > line && *c2 >= '0' && *c2 <= '9')
                c2--;
            char *c1 = c2 - 1;
            while (c1 > line && *c1 >= '0' && *c1 <= '9')
                c1--;
            if (c1 > line && *c1 == ':' && *c2 == ':' && c2 > c1 + 1 && e > c2 + 1) {
                int l = atoi(c1 + 1), c = atoi(c2 + 1);
                *c1 = '\0';
                wmx_error_set(err, line, l, c, "%s", e + 2);
                return true;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    return false;
}

static int clang_finish(const char *path, clang_run *run, wmx_error *err)
{
    const char *clang = clang_command();
    int status = 0, stopped;
    char *msg = clang_wait(run, &status, &stopped);
    if (stopped == 2)
        wmx_error_set(err, path, 1, 1, "clang did not finish within %g s (an #include of a device, "
                      "a FIFO or a huge file?  WMX_CLANG_TIMEOUT sets the limit)", run->limit_s);
    else if (stopped)
        wmx_error_set(err, path, 1, 1, "clang stopped after %.1f s (Ctrl-C or a limit)",
                      clang_now() - run->started);
    if (stopped) {
        err->limit = stopped == 1;
        free(msg);
        return -1;
    }
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok) {
        if (strncmp(msg, "wmx-clang-missing:", 18) == 0) {
            msg[strcspn(msg, "\n")] = '\0';
            wmx_error_set(err, path, 1, 1, "C input needs clang, and '%s' could not be run (%s); "
                                           "install it with: apt-get install -y clang-14, or set WMX_CLANG",
                          clang, msg + 19);
        } else if (!clang_diagnostic(msg, err)) {
            size_t l = strlen(msg);
            while (l && msg[l - 1] == '\n')
                msg[--l] = '\0';
            if (l)
                wmx_error_set(err, path, 1, 1, "clang failed: %s", msg);
            else if (WIFSIGNALED(status))
                wmx_error_set(err, path, 1, 1, "clang failed: killed by signal %d", WTERMSIG(status));
            else
                wmx_error_set(err, path, 1, 1, "clang failed (exit %d) with no message",
                              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        }
        free(msg);
        return -1;
    }
    free(msg);
    return 0;
}

static void read_lines_into(const char *path, char ***lines, int *nlines)
{
    size_t len = 0;
    wmx_error e = { 0 };
    char *text = wmx_read_file(path, &len, &e);
    if (!text)
        return;
    char *s = text;
    for (;;) {
        char *nl = strchr(s, '\n');
        *lines = wmx_realloc(*lines, (size_t)(*nlines + 1) * sizeof **lines);
        (*lines)[(*nlines)++] = nl ? wmx_strndup(s, (size_t)(nl - s)) : wmx_strdup(s);
        if (!nl)
            break;
        s = nl + 1;
    }
    free(text);
}

static void read_lines(cfront *c, const char *path)
{
    read_lines_into(path, &c->lines, &c->nlines);
}

/* ---- the module ----------------------------------------------------------------- */

static int handle_global(LLVMModuleRef m, LLVMValueRef g)
{
    /* a global used as pthread_create's first argument holds thread ids */
    for (LLVMUseRef u = p_LLVMGetFirstUse(g); u; u = p_LLVMGetNextUse(u)) {
        LLVMValueRef user = p_LLVMGetUser(u);
        if (p_LLVMIsACallInst(user)) {
            LLVMValueRef f = called_fn(user);
            if (f && (strcmp(vname(f), "pthread_create") == 0 || strcmp(vname(f), "thrd_create") == 0) &&
                p_LLVMGetOperand(user, 0) == g)
                return 1;
        }
        /* &threads[i]: an address computed from it, constant or not */
        int derived = p_LLVMIsAConstantExpr(user) ||
                      (p_LLVMIsAInstruction(user) && (p_LLVMGetInstructionOpcode(user) == LLVMGetElementPtr ||
                                                      p_LLVMGetInstructionOpcode(user) == LLVMBitCast));
        if (derived && p_LLVMGetOperand(user, 0) == g && handle_global(m, user))
            return 1;
    }
    return 0;
}

/* Who may write global (or address) v, through address arithmetic:
 * GLOBAL_READ_ONLY when every use only loads from it or compares it;
 * GLOBAL_MAIN_WRITES when only main may store, RMW or pass it on;
 * GLOBAL_THREAD_WRITES otherwise (another function may, or the address is
 * merged or converted where it cannot be followed).  A read-only global's
 * loads fold; one a thread writes is not worth fold_unwritten's guess (its
 * loads would only fold until that function is translated, and a spin loop
 * on it would not end at translation time). */
enum { GLOBAL_READ_ONLY, GLOBAL_MAIN_WRITES, GLOBAL_THREAD_WRITES };

static int global_writers(LLVMValueRef main_fn, LLVMValueRef v, int depth)
{
    if (depth > 8)
        return GLOBAL_THREAD_WRITES;
    int w = GLOBAL_READ_ONLY;
    for (LLVMUseRef u = p_LLVMGetFirstUse(v); u && w != GLOBAL_THREAD_WRITES; u = p_LLVMGetNextUse(u)) {
        LLVMValueRef user = p_LLVMGetUser(u);
        int uw;
        if (p_LLVMIsAConstantExpr(user)) {
            LLVMOpcode op = p_LLVMGetConstOpcode(user);
            uw = (op == LLVMGetElementPtr || op == LLVMBitCast) && p_LLVMGetOperand(user, 0) == v
                     ? global_writers(main_fn, user, depth + 1) : GLOBAL_THREAD_WRITES;
        } else if (!p_LLVMIsAInstruction(user)) {
            uw = GLOBAL_THREAD_WRITES;
        } else {
            switch (p_LLVMGetInstructionOpcode(user)) {
            case LLVMLoad:
            case LLVMICmp:
                uw = GLOBAL_READ_ONLY;
                break;
            case LLVMGetElementPtr:
            case LLVMBitCast:
                uw = p_LLVMGetOperand(user, 0) == v ? global_writers(main_fn, user, depth + 1) : GLOBAL_THREAD_WRITES;
                break;
            default:
                uw = p_LLVMGetBasicBlockParent(p_LLVMGetInstructionParent(user)) == main_fn ? GLOBAL_MAIN_WRITES
                                                                                          : GLOBAL_THREAD_WRITES;
            }
        }
        if (uw > w)
            w = uw;
    }
    return w;
}

static void add_globals(cfront *c)
{
    LLVMValueRef main_fn = p_LLVMGetNamedFunction(c->mod, "main");
    for (LLVMValueRef g = p_LLVMGetFirstGlobal(c->mod); g && !c->failed; g = p_LLVMGetNextGlobal(g)) {
        const char *name = vname(g);
        LLVMTypeRef t = p_LLVMGlobalGetValueType(g);
        if (p_LLVMIsGlobalConstant(g) && (strncmp(name, ".str", 4) == 0 || strncmp(name, "__PRETTY_FUNCTION__", 19) == 0 ||
                                        strncmp(name, "__func__", 8) == 0 || strncmp(name, "__const.", 8) == 0))
            continue;
        int n = type_cells(c, t);
        if (n < 0) {
            if (p_LLVMGetTypeKind(t) == LLVMArrayTypeKind && p_LLVMIsGlobalConstant(g))
                continue;
            /* LLVM gives a global's line only: its column is where the
             * name stands on that line */
            int line = (int)p_LLVMGetDebugLocLine(g), col = 0;
            if (line > 0 && line <= c->nlines) {
                const char *ln = c->lines[line - 1];
                size_t nl = strlen(name);
                for (const char *q = strstr(ln, name); q && !col; q = strstr(q + 1, name))
                    if ((q == ln || !(isalnum((unsigned char)q[-1]) || q[-1] == '_')) &&
                        !(isalnum((unsigned char)q[nl]) || q[nl] == '_'))
                        col = (int)(q - ln) + 1;
            }
            wmx_error_set(c->err, c->path, line, col ? col : line ? 1 : 0, "unsupported: the global '%s' has a type wmx cannot hold "
                                                 "(only integers, doubles, floats, pointers, mutexes, arrays and structs of them)", name);
            c->failed = 1;
            return;
        }
        int o = obj_new(c, name, n);
        c->objs[o].type = t;
        *pmap_slot(&c->gobj, g, 1) = o;
        int off = 0;
        LLVMValueRef init = p_LLVMIsDeclaration(g) ? NULL : p_LLVMGetInitializer(g);
        const_fill(c, init, t, c->objs[o].cells, &off);
        if (p_LLVMIsThreadLocal(g))
            c->objs[o].tls = g;
        if (handle_global(c->mod, g))
            c->objs[o].handle = 1;
        else {
            int w = global_writers(main_fn, g, 0);
            c->objs[o].frozen = w == GLOBAL_READ_ONLY && !is_mutex_type(t);
            c->objs[o].thread_writes = w == GLOBAL_THREAD_WRITES;
        }
    }
    /* real variables, in declaration order, once every object exists (an
     * initializer may point at a later global) */
    for (int o = 0; o < c->nobjs && !c->failed; o++)
        if (!c->objs[o].handle)
            obj_make_real(c, o);
}

/* The kind of the scalar that cell `cell` of a value of type t is (a
 * mutex's one cell: LLVMStructTypeKind). */
static LLVMTypeKind leaf_kind(cfront *c, LLVMTypeRef t, int cell)
{
    LLVMTypeKind k = p_LLVMGetTypeKind(t);
    if (k == LLVMArrayTypeKind) {
        LLVMTypeRef e = p_LLVMGetElementType(t);
        int ec = type_cells(c, e);
        return ec > 0 ? leaf_kind(c, e, cell % ec) : LLVMVoidTypeKind;
    }
    if (k == LLVMStructTypeKind && !is_mutex_type(t)) {
        int i = field_of_cell(c, t, cell);
        return i >= 0 ? leaf_kind(c, p_LLVMStructGetTypeAtIndex(t, (unsigned)i),
                                  cell - field_offset(c, t, (unsigned)i))
                      : LLVMVoidTypeKind;
    }
    return k;
}

/* Whether cell `cell` of a value of type t holds a pointer. */
static int leaf_is_pointer(cfront *c, LLVMTypeRef t, int cell)
{
    return leaf_kind(c, t, cell) == LLVMPointerTypeKind;
}

/* Whether cell `cell` of a value of type t holds a double or a float. */
static int leaf_is_float(cfront *c, LLVMTypeRef t, int cell)
{
    LLVMTypeKind k = leaf_kind(c, t, cell);
    return k == LLVMDoubleTypeKind || k == LLVMFloatTypeKind;
}

/* The cells that hold doubles and floats, so that states and traces show
 * their values (ir_value_text), not their bits. */
static void mark_float_cells(cfront *c)
{
    for (int o = 0; o < c->nobjs; o++) {
        const cobj *ob = &c->objs[o];
        if (ob->var < 0 || !ob->type)
            continue;
        const ir_var *v = &c->p->vars[ob->var];
        for (int i = 0; i < v->length && i < ob->ncells; i++)
            if (leaf_is_float(c, ob->type, i)) {
                if (!c->p->cell_float)
                    c->p->cell_float = wmx_calloc((size_t)(c->p->ncells ? c->p->ncells : 1), 1);
                c->p->cell_float[v->base + i] = 1;
            }
    }
}

/* Final states show the user's globals, but not their pointers: a pointer's
 * value is a wmx byte address, which means nothing to the reader. */
static void observe_globals(cfront *c, int nglobals_vars)
{
    wmx_program *p = c->p;
    /* each variable's type, the last object's that holds it, in one pass
     * (a search per variable was quadratic in the globals) */
    LLVMTypeRef *var_type = wmx_calloc((size_t)nglobals_vars + 1, sizeof *var_type);
    for (int o = 0; o < c->nobjs; o++)
        if (c->objs[o].var >= 0 && c->objs[o].var < nglobals_vars)
            var_type[c->objs[o].var] = c->objs[o].type;
    int capobs = p->nobserved;     /* what is there may be exactly full */
    for (int v = 0; v < nglobals_vars; v++) {
        if (p->vars[v].name[0] == '$')
            continue;
        LLVMTypeRef t = var_type[v];
        if (p->nobserved + p->vars[v].length > capobs) {
            capobs = 2 * (p->nobserved + p->vars[v].length);
            p->observed = wmx_realloc(p->observed, (size_t)capobs * sizeof *p->observed);
        }
        for (int k = 0; k < p->vars[v].length; k++) {
            if (t && leaf_is_pointer(c, t, k))
                continue;
            p->observed[p->nobserved++] = (cond_lhs){ .thread = -1, .reg = -1, .cell = p->vars[v].base + k };
        }
    }
    free(var_type);
}

/* Whether f's address is taken: a use other than a direct call, or than
 * the function argument of pthread_create and pthread_key_create (those
 * are resolved while translating). */
static int fn_address_taken(LLVMValueRef f)
{
    for (LLVMUseRef u = p_LLVMGetFirstUse(f); u; u = p_LLVMGetNextUse(u)) {
        LLVMValueRef user = p_LLVMGetUser(u);
        if (p_LLVMIsACallInst(user)) {
            if (p_LLVMGetCalledValue(user) == f)
                continue;
            LLVMValueRef g = called_fn(user);
            const char *n = g ? vname(g) : "";
            if (strcmp(n, "pthread_create") == 0 || strcmp(n, "thrd_create") == 0 ||
                strcmp(n, "pthread_key_create") == 0)
                continue;
        }
        if (p_LLVMIsAConstantExpr(user) && p_LLVMGetConstOpcode(user) == LLVMBitCast &&
            !fn_address_taken(user))
            continue;
        return 1;
    }
    return 0;
}

/* The functions a pointer may call (see FN_BASE). */
static void add_function_codes(cfront *c)
{
    for (LLVMValueRef f = p_LLVMGetFirstFunction(c->mod); f; f = p_LLVMGetNextFunction(f)) {
        if (p_LLVMIsDeclaration(f) || !fn_address_taken(f))
            continue;
        c->fns = wmx_realloc(c->fns, (size_t)(c->nfns + 1) * sizeof *c->fns);
        c->fns[c->nfns++] = f;
    }
}

static void translate_program(cfront *c, const char *name, const char *path)
{
    c->p = ir_program_new(name, path, "wmx");
    c->p->unroll = c->unroll;
    c->p->observed_shown_only = true;
    add_function_codes(c);
    add_globals(c);
    int nglobal_vars = c->p->nvars;
    LLVMValueRef mainf = p_LLVMGetNamedFunction(c->mod, "main");
    if (!c->failed && (!mainf || p_LLVMIsDeclaration(mainf))) {
        wmx_error_set(c->err, path, 0, 0, "no main function: wmx runs main as the first thread");
        c->failed = 1;
    }
    if (!c->failed) {
        c->threads = wmx_calloc(1, sizeof *c->threads);
        c->threads[0].fn = mainf;
        c->threads[0].arg = cv_const(1);      /* argc: the program's name only */
        c->threads[0].t = ir_add_thread(c->p, "main");
        c->threads[0].start_var = c->threads[0].done_var = c->threads[0].arg_var = -1;
        c->nthreads = 1;
        for (int i = 0; i < c->nthreads && !c->failed && !c->restart; i++)
            translate_thread(c, i);
        observe_globals(c, nglobal_vars);
        if (!c->failed)
            spin_to_await(c->p);
        drop_trivial_sections(c);
        split_section_locks(c);
        add_nondet_thread(c);
        c->p->plp = c->plp != 0;
        c->p->nondet_lo = c->nondet_lo;
        c->p->nondet_hi = c->nondet_hi;
        if (!c->failed)
            mark_float_cells(c);     /* last: every cell is made by now */
    }
}

/* Everything one translation made, but not what the module gives. */
static void free_translation(cfront *c)
{
    for (int i = 0; i < c->nobjs; i++) {
        free(c->objs[i].name);
        free(c->objs[i].cells);
    }
    free(c->objs);
    c->objs = NULL;
    c->nobjs = c->capobjs = 0;
    kmap_free(&c->gobj);
    for (int i = 0; i < c->ninsts; i++) {
        free(c->insts[i].env);
        free(c->insts[i].regs);
        free(c->insts[i].allocas);
        free(c->insts[i].eff);
        free(c->insts[i].count);
    }
    free(c->insts);
    c->insts = NULL;
    c->ninsts = 0;
    free(c->threads);
    c->threads = NULL;
    c->nthreads = 0;
    free(c->stack);
    c->stack = NULL;
    c->depth = c->cap = 0;
    free(c->work);
    c->work = NULL;
    c->nwork = c->capwork = 0;
    free(c->joins);
    free(c->join_at);
    c->joins = NULL;
    c->join_at = NULL;
    c->njoins = c->capjoins = 0;
    free(c->key_dtor);
    c->key_dtor = NULL;
    free(c->fns);
    c->fns = NULL;
    c->nfns = 0;
    kmap_free(&c->create_sites);
    kmap_free(&c->memo);
    free(c->barriers);
    c->barriers = NULL;
    c->nbarriers = c->capbarriers = 0;
    free(c->tls_copies);
    c->tls_copies = NULL;
    c->ntls_copies = 0;
    free(c->nondets);
    c->nondets = NULL;
    c->nnondets = 0;
    c->next_key = 0;
    c->atomic_var = -1;
    c->hit_guard = -1;
    c->prelude_over = c->prelude_objs = c->wild_write = 0;
    c->cur = c->t = c->forked = c->visible = 0;
}

static wmx_program *translate_file(const char *path, const cfront_opts *o, const char *depfile,
                                   wmx_error *err);

wmx_program *cfront_load(const char *path, const cfront_opts *o, wmx_error *err)
{
    if (access(path, R_OK) != 0) {
        wmx_error_set(err, path, 0, 0, "cannot read the file: %s", strerror(errno));
        return NULL;
    }
    /* a translation kept from an earlier run (core/cfront_cache.h) */
    char *entry = cfront_cache_entry(path, o, clang_command());
    if (entry) {
        wmx_program *p = cfront_cache_get(entry);
        if (p) {
            free(entry);
            return p;
        }
    }
    /* scratch files go to $TMPDIR and are removed on SIGINT/SIGTERM */
    char *dep = wmx_asprintf("%s/wmx-cfront-XXXXXX", wmx_tmpdir());
    int fd = entry ? mkstemp(dep) : -1;
    if (fd >= 0) {
        wmx_temp_add(dep);
        close(fd);
    }
    wmx_program *p = translate_file(path, o, fd >= 0 ? dep : NULL, err);
    if (p && fd >= 0)
        cfront_cache_put(entry, p, dep);
    if (fd >= 0)
        wmx_temp_unlink(dep);
    free(dep);
    free(entry);
    return p;
}

static wmx_program *translate_file(const char *path, const cfront_opts *o, const char *depfile,
                                   wmx_error *err)
{
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/wmx-cfront-XXXXXX", wmx_tmpdir());
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        wmx_error_set(err, path, 0, 0, "cannot make a temporary file in %s: %s", wmx_tmpdir(),
                      strerror(errno));
        return NULL;
    }
    wmx_temp_add(tmpl);
    close(fd);
    char why[300];
    clang_run run;
    if (clang_start(path, o, tmpl, depfile, &run, err) != 0) {
        wmx_temp_unlink(tmpl);
        return NULL;
    }
    int llvm_ok = llvm_open(why, sizeof why) == 0;
    if (clang_finish(path, &run, err) != 0) {
        wmx_temp_unlink(tmpl);
        return NULL;
    }
    if (!llvm_ok) {
        wmx_error_set(err, path, 0, 0, "%s", why);
        wmx_temp_unlink(tmpl);
        return NULL;
    }
    cfront cf;
    cfront *c = &cf;
    memset(c, 0, sizeof *c);
    c->path = path;
    c->err = err;
    c->unroll = o && o->unroll > 0 ? o->unroll : CFRONT_DEFAULT_UNROLL;
    c->unroll_given = o && o->unroll_given;
    /* partial loop purity is on for C, as in GenMC and Nidhugg */
    c->plp = !(o && o->no_plp) || (o && o->plp);
    c->no_spin_assume = o && o->no_spin_assume;
    c->atomic_var = -1;
    c->hit_guard = -1;
    c->nondet_given = o && o->nondet_given;
    c->nondet_lo = o && o->nondet_given ? o->nondet_lo : CFRONT_NONDET_LO;
    c->nondet_hi = o && o->nondet_given ? o->nondet_hi : CFRONT_NONDET_HI;
    c->budget = 2000000;
    c->stop = o ? o->stop : NULL;
    c->ctx = p_LLVMContextCreate();
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    if (p_LLVMCreateMemoryBufferWithContentsOfFile(tmpl, &buf, &msg) != 0) {
        wmx_error_set(err, path, 0, 0, "cannot read clang's output: %s", msg ? msg : "?");
        p_LLVMDisposeMessage(msg);
        wmx_temp_unlink(tmpl);
        p_LLVMContextDispose(c->ctx);
        return NULL;
    }
    wmx_temp_unlink(tmpl);
    if (p_LLVMParseIRInContext(c->ctx, buf, &c->mod, &msg) != 0) {
        wmx_error_set(err, path, 0, 0, "cannot parse clang's output: %s", msg ? msg : "?");
        p_LLVMDisposeMessage(msg);
        p_LLVMContextDispose(c->ctx);
        return NULL;
    }
    LLVMPassBuilderOptionsRef po = p_LLVMCreatePassBuilderOptions();
    LLVMErrorRef perr = p_LLVMRunPasses(c->mod, "function(sroa,mem2reg)", NULL, po);
    p_LLVMDisposePassBuilderOptions(po);
    if (perr) {
        char *m = p_LLVMGetErrorMessage(perr);
        wmx_error_set(err, path, 0, 0, "LLVM passes failed: %s", m);
        p_LLVMDisposeErrorMessage(m);
        p_LLVMDisposeModule(c->mod);
        p_LLVMContextDispose(c->ctx);
        return NULL;
    }
    c->td = p_LLVMCreateTargetData(p_LLVMGetDataLayoutStr(c->mod));
    read_lines(c, path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char *name = wmx_strndup(base, strlen(base) - 2);
    /* a load folded on a wrong guess (fold_unwritten) translates again,
     * without that guess: at most once per object, and once for all */
    for (int pass = 0;; pass++) {
        translate_program(c, name, path);
        if (c->failed && !c->nofold_all) {
            /* a guess may have sent translation astray (a loop that only
             * ends once another thread's write is seen): try without */
            for (int k = 0; k < c->nobjs; k++)
                if (c->objs[k].assumed)
                    c->restart = 1;
            c->nofold_all = c->restart;
        }
        if (!c->restart || pass > 64)
            break;
        c->restart = 0;
        ir_program_free(c->p);
        c->p = NULL;
        free_translation(c);
        c->failed = 0;
        c->budget = 2000000;
    }
    free(name);
    wmx_program *p = c->p;
    free_translation(c);
    free(c->nofold);
    for (int i = 0; i < c->nfuncs; i++) {
        finfo_free(c->funcs[i]);
        free(c->funcs[i]);
    }
    free(c->funcs);
    kmap_free(&c->fidx);
    for (int i = 0; i < c->nlayouts; i++)
        free(c->layouts[i].first);
    free(c->layouts);
    kmap_free(&c->layout_idx);
    for (int i = 0; i < c->nlines; i++)
        free(c->lines[i]);
    free(c->lines);
    for (int i = 0; i < c->nincs; i++) {
        for (int k = 0; k < c->incs[i].nlines; k++)
            free(c->incs[i].lines[k]);
        free(c->incs[i].lines);
        free(c->incs[i].name);
    }
    free(c->incs);
    p_LLVMDisposeTargetData(c->td);
    p_LLVMDisposeModule(c->mod);
    p_LLVMContextDispose(c->ctx);
    if (c->failed) {
        ir_program_free(p);
        return NULL;
    }
    return p;
}

#endif /* WMX_HAVE_LLVM */
