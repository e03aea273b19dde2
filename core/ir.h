/* ir.h - the program intermediate representation shared by every parser,
 * machine and explorer.
 *
 * A program is a set of threads over a shared memory of integer cells.
 * Shared variables are named ranges of cells (a scalar is a range of one).
 * Each thread has its own registers and a flat list of instructions;
 * control flow is by (conditional) jumps to instruction indices, so loops are
 * lowered by the parsers into jumps plus a hidden iteration counter.
 *
 * Ownership: a wmx_program owns every array and string it points to;
 * ir_program_free() releases all of it.  Expressions live in one pool per
 * program and are referred to by index (-1 = none), so instructions stay
 * plain old data and copying a program is cheap.
 */
#ifndef WMX_IR_H
#define WMX_IR_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* Threads per program: an event id keeps the thread in 8 bits
 * (machine.h's EID_MAKE), and the readers enforce the same bound. */
#define WMX_MAX_THREADS 255

typedef int64_t wmx_val;

/* PGAS limits: ranks 1..WMX_PGAS_MAX_RANKS, queue ids 0..WMX_PGAS_MAX_QUEUES-1 */
#define WMX_PGAS_MAX_RANKS  16
#define WMX_PGAS_MAX_QUEUES 8

/* A position in a source file (1-based; 0 = unknown). */
typedef struct wmx_srcloc {
    int line, col;
    int file;            /* 0: the program's file; k: its srcfiles[k - 1] */
} wmx_srcloc;

/* ---- expressions --------------------------------------------------- */

typedef enum ir_op {
    OP_CONST,       /* value */
    OP_REG,         /* register `reg` of the executing thread */
    OP_ADDR,        /* byte address of cell `value` (see ir_cell_address) */
    /* unary: a */
    OP_NEG, OP_NOT /* logical !a */, OP_BNOT /* ~a */,
    /* binary: a, b */
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
    OP_AND, OP_OR, OP_XOR, OP_SHL, OP_SHR,
    OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
    OP_LAND, OP_LOR,
    OP_UDIV, OP_UREM, /* on the 64-bit values as unsigned (C's uint64_t / and %) */
    /* IEEE doubles, held as their 64 bits (C's float as the double of the
     * same value, rounded to float precision by OP_F32) */
    OP_FADD, OP_FSUB, OP_FMUL, OP_FDIV,
    OP_FEQ, OP_FNE, OP_FLT, OP_FLE, OP_FGT, OP_FGE,   /* ordered: false when a NaN is there */
    /* unary: a */
    OP_FNEG, OP_ITOF /* signed */, OP_UTOF /* unsigned */, OP_FTOI, OP_FTOU /* toward 0, saturating */,
    OP_F32 /* rounded to float */
} ir_op;

typedef struct ir_expr {
    ir_op op;
    int a, b;        /* operand expression indices, -1 when unused */
    int reg;         /* OP_REG */
    wmx_val value;   /* OP_CONST, OP_ADDR */
} ir_expr;

/* ---- addresses ----------------------------------------------------- */

/* A shared-memory operand.  Either a variable plus an optional element index
 * expression (cell = var.base + index), or, when `ptr` >= 0, an expression
 * yielding a byte address (as produced by OP_ADDR plus offsets) which is
 * mapped back to a cell by ir_address_cell(). */
typedef struct ir_addr {
    int var;         /* variable index, -1 when `ptr` is used */
    int index;       /* element index expression, -1 = element 0 */
    int ptr;         /* byte-address expression, -1 when unused */
} ir_addr;

/* ---- instructions -------------------------------------------------- */

typedef enum ir_kind {
    I_NOP,
    I_LOAD,     /* dst = [addr] */
    I_STORE,    /* [addr] = e1 */
    I_FENCE,    /* full fence (MFENCE) */
    I_XCHG,     /* dst = [addr]; [addr] = e1               (atomic, fences) */
    I_FAA,      /* dst = [addr]; [addr] = [addr] + e1      (atomic, fences) */
    I_CAS,      /* dst = [addr]; if dst == e1 then [addr] = e2 (atomic, fences);
                   dst2 (if >= 0) = 1 on success, 0 on failure; a `blocking`
                   CAS waits until ([addr] cmp e1) instead of failing (cmp is
                   OP_EQ for a lock; another one makes it an exchange-await,
                   Nidhugg's __VERIFIER_xchg_await) */
    I_AWAIT,    /* block until ([addr] cmp e1) holds, then dst = [addr] */
    I_ASSUME,   /* block the thread forever unless e1 != 0 */
    I_ASSERT,   /* assertion violation unless e1 != 0 */
    I_LET,      /* dst = e1 */
    I_JUMP,     /* if e1 < 0 or e1 != 0: pc = target */
    I_HALT,     /* thread ends (herd `ret`) */
    /* PGAS (core/pgas_machine.h; only in programs with pgas_ranks > 0):
     * addr = local address, addr2 = remote address, e1 = rank, e2 = queue */
    I_PREAD,    /* read(local, R, remote, q) */
    I_PWRITE,   /* write(local, R, remote, q) */
    I_BARRIER,  /* barrier */
    I_QUIET     /* quiet: wait until all of the rank's queues are empty */
} ir_kind;

typedef struct ir_instr {
    ir_kind kind;
    ir_addr addr;        /* memory operand for LOAD/STORE/XCHG/FAA/CAS/AWAIT */
    ir_addr addr2;       /* PGAS read/write: the remote address */
    int dst;             /* destination register, -1 = discard */
    int dst2;            /* CAS success flag register, -1 = none */
    int e1, e2;          /* expressions, -1 = none */
    ir_op cmp;           /* AWAIT and blocking CAS comparison (OP_EQ .. OP_GE) */
    int target;          /* JUMP target instruction index */
    wmx_srcloc loc;      /* where it was written */
    char *text;          /* source text of the instruction, for display */
    bool bound_cut;      /* ASSUME(0) where the C front end's --unroll cut a loop */
    bool spin;           /* ASSUME where a spin loop would go round again with
                            nothing changed (GenMC's spin-assume, the PLP rewrite) */
    bool blocking;       /* CAS: enabled only when it would succeed (a mutex lock,
                            as Nidhugg and GenMC block a thread at a held lock) */
    bool writes_back;    /* CAS: one that fails writes back the value it read (x86's
                            LOCK CMPXCHG): pthread_mutex_trylock, so failed trylocks
                            are ordered accesses of the mutex, as in Nidhugg */
    unsigned char ends;  /* ASSUME(0) where C's abort() (IR_ENDS_ABORT) or
                            exit() (IR_ENDS_EXIT) ends the run */
} ir_instr;

enum { IR_ENDS_NONE, IR_ENDS_ABORT, IR_ENDS_EXIT };

/* A bounded loop, recorded for display and for loop rewrites (PLP).
 * Instructions [head, end) form the loop; `counter` is the hidden register
 * counting iterations; exceeding `bound` blocks the thread (assume false). */
typedef struct ir_loop {
    int head, end;
    int counter;
    int bound;
} ir_loop;

typedef struct ir_thread {
    char *name;          /* "P0", "t1", ... */
    int nregs;
    int capregs;         /* reg_names/reg_init allocated for (ir_add_reg grows them by half
                          * again: a translation adds hundreds of thousands) */
    char **reg_names;    /* nregs names; hidden registers start with '$' */
    wmx_val *reg_init;   /* nregs initial values */
    int ninstrs;
    ir_instr *instrs;
    int nloops;
    ir_loop *loops;
} ir_thread;

typedef struct ir_var {
    char *name;
    int base;            /* first cell */
    int length;          /* number of cells (1 for a scalar) */
    int elem_size;       /* bytes per element, for byte addresses (default 8) */
} ir_var;

/* ---- final condition (herd7 form) ---------------------------------- */

typedef enum cond_kind {
    C_TRUE, C_FALSE,
    C_EQ,                /* lhs = value */
    C_NOT, C_AND, C_OR, C_IMPLIES
} cond_kind;

/* Left-hand side of an atom: a register of a thread, or a memory cell. */
typedef struct cond_lhs {
    int thread;          /* >= 0: register `reg` of that thread */
    int reg;
    int cell;            /* thread < 0: this memory cell */
} cond_lhs;

typedef struct ir_cond {
    cond_kind kind;
    int a, b;            /* sub-conditions (index into program conds) */
    cond_lhs lhs;        /* C_EQ */
    wmx_val value;       /* C_EQ */
    bool value_is_addr;  /* C_EQ compares with a byte address of a cell */
} ir_cond;

typedef enum quantifier {
    Q_NONE,              /* no condition given */
    Q_EXISTS,
    Q_NOT_EXISTS,
    Q_FORALL
} quantifier;

/* ---- program ------------------------------------------------------- */

/* core/cfront_cache.c writes and reads every field of these structures
 * (a translated C program kept between runs): a new field goes there too,
 * with a new CACHE_MAGIC. */

typedef struct wmx_program {
    char *name;          /* test name */
    char *file;          /* source file path */
    char **srcfiles;     /* other files instructions come from (a C
                            program's #includes), see wmx_srcloc.file */
    int nsrcfiles;
    char *arch;          /* "X86", "X86_64" or "wmx" */
    int nthreads;
    ir_thread *threads;
    int nvars;
    ir_var *vars;
    int ncells;
    wmx_val *cell_init;  /* ncells initial values */
    int nexprs, cap_exprs;
    ir_expr *exprs;
    int nconds, cap_conds;
    ir_cond *conds;
    quantifier quant;
    int cond_root;       /* index into conds, -1 when quant == Q_NONE */
    char *cond_text;     /* the condition as written, for reports */
    int nobserved;       /* extra observed locations (herd `locations [...]`) */
    cond_lhs *observed;
    /* The observed memory locations are shown, not read: a C program's
     * globals are listed in its final states, but no read of the program
     * sees their final values (see explore_observed_shown_only). */
    bool observed_shown_only;
    /* PGAS programs (`ranks N; spmd {...}`): pgas_ranks > 0, one thread
     * (the spmd code) that every rank runs; `rank` and `nranks` are
     * registers of it that the PGAS machine sets per rank. */
    int pgas_ranks;
    int pgas_rank_reg, pgas_nranks_reg;
    int pgas_queues;     /* queue ids 0..pgas_queues-1 (doc/pgas.md) */
    /* C input (core/cfront.h): the loop bound used; 0 for other inputs */
    int unroll;
    /* C input: __VERIFIER_nondet_* values range over [nondet_lo, nondet_hi]
     * (clipped to each call's type); has_nondet when the program has one */
    bool has_nondet;
    wmx_val nondet_lo, nondet_hi;
    /* without --nondet, also the values at the constants a nondet value is
     * compared with, on the true side (n >= 5 && n < 10: 5 and 9), outside
     * [nondet_lo, nondet_hi], ascending; owned */
    int nondet_nextra;
    wmx_val *nondet_extra;
    /* C input: loops were translated with partial loop purity (a time round
     * that changed nothing is blocked); --no-plp turns it off */
    bool plp;
    /* C input: cell_float[c] when cell c holds a double or float (its 64
     * bits, see OP_FADD), for display; NULL when no cell does; owned */
    unsigned char *cell_float;
} wmx_program;

/* ---- construction (used by the parsers) ---------------------------- */

wmx_program *ir_program_new(const char *name, const char *file, const char *arch);
/* the file an instruction's loc is in */
const char *ir_loc_file(const wmx_program *p, wmx_srcloc loc);
/* the srcfiles index + 1 of path (added if new), for wmx_srcloc.file */
int ir_add_srcfile(wmx_program *p, const char *path);
void ir_program_free(wmx_program *p);

/* Adds a thread, returns its index. */
int ir_add_thread(wmx_program *p, const char *name);
/* Returns the register index of `name` in thread t, adding it (initial 0)
 * when absent. */
int ir_thread_reg(wmx_program *p, int t, const char *name);
/* Adds a register the thread does not have yet (no search: the caller made
 * its name new). */
int ir_add_reg(wmx_program *p, int t, const char *name);
/* Returns the register index, or -1 when the thread has no such register. */
int ir_find_reg(const wmx_program *p, int t, const char *name);
/* Adds a variable of `length` cells all initialised to 0; returns its index.
 * Returns -1 if a variable of that name exists. */
int ir_add_var(wmx_program *p, const char *name, int length);
int ir_find_var(const wmx_program *p, const char *name);
/* Appends an instruction (copied; `text` is duplicated) and returns its index. */
int ir_add_instr(wmx_program *p, int t, const ir_instr *in);
/* An instruction with every operand field set to "none". */
ir_instr ir_instr_init(ir_kind kind, wmx_srcloc loc);

int ir_const(wmx_program *p, wmx_val v);
int ir_reg(wmx_program *p, int reg);
int ir_unop(wmx_program *p, ir_op op, int a);
int ir_binop(wmx_program *p, ir_op op, int a, int b);
int ir_add_cond(wmx_program *p, const ir_cond *c);

/* ---- evaluation (used by the machines) ----------------------------- */

/* Evaluates expression e with the given register file.  Division by zero
 * yields 0 (and sets *fault when fault != NULL). */
wmx_val ir_eval(const wmx_program *p, int e, const wmx_val *regs, bool *fault);
/* a `cmp` b, for an await's comparison (OP_EQ .. OP_GE) */
bool ir_cmp_holds(ir_op cmp, wmx_val a, wmx_val b);
/* Comparisons (OP_EQ .. OP_GE): whether op is one; !(a op b) as a
 * comparison; and the op with b op' a == a op b. */
bool ir_op_is_cmp(ir_op op);
/* Whether op takes one operand (a) only. */
bool ir_op_is_unary(ir_op op);
ir_op ir_cmp_negate(ir_op op);
ir_op ir_cmp_swap(ir_op op);
/* Whether expression e reads register reg (true too for a tree deeper
 * than the rewrites look at). */
bool ir_expr_uses(const wmx_program *p, int e, int reg);

/* The byte address standing for a cell (used for pointer values). */
wmx_val ir_cell_address(const wmx_program *p, int cell);
/* Resolves a memory operand to a cell; returns -1 when out of bounds. */
int ir_address_cell(const wmx_program *p, const ir_addr *a, const wmx_val *regs);
/* Value v of cell c as text: a double's value for a cell that holds one
 * (cell_float; the shortest text that reads back the same), else the
 * integer.  Returns buf. */
const char *ir_value_text(const wmx_program *p, int cell, wmx_val v, char *buf, size_t n);
/* Name of a cell for display: "x" or "a[3]".  Writes into buf. */
const char *ir_cell_name(const wmx_program *p, int cell, char *buf, size_t n);
/* Which variable holds the cell, or -1. */
int ir_cell_var(const wmx_program *p, int cell);

/* True when the instruction touches shared memory or orders it. */
bool ir_is_visible(const ir_instr *in);
/* Whether the instruction can wait for memory to change: an await, or a
 * blocking CAS (a lock); a thread stopped at one that cannot pass waits. */
bool ir_waits(const ir_instr *in);
/* Whether thread t's instruction pc is where a bounded loop stops a
 * thread that would go round once more (a `bound N` loop's count, or
 * where the C front end's --unroll cut a loop). */
bool ir_is_loop_bound(const wmx_program *p, int t, int pc);
/* Whether instruction pc of thread t is the thread's creation gate: the
 * C front end's await on `$start.T` that pthread_create opens.  A thread
 * still there when nothing can move was never created: it neither blocks
 * the run nor waits. */
bool ir_is_creation_gate(const wmx_program *p, int t, int pc);
/* Whether some thread has a lock (a blocking CAS). */
bool ir_has_locks(const wmx_program *p);
/* Which thread accesses each variable: owner[v] (nvars of them) is the one
 * thread whose instructions name v, -1 when none does, -2 when several do
 * or its address may be taken (an OP_ADDR of it, or a constant, initial
 * value or register value in its range of addresses). */
void ir_var_owners(const wmx_program *p, int *owner);

/* Evaluates the condition's proposition on a final state. */
bool ir_cond_eval(const wmx_program *p, int c, const wmx_val *const *regs,
                  const wmx_val *mem);

/* Prints the condition proposition in herd syntax into buf. */
void ir_cond_format(const wmx_program *p, int c, char *buf, size_t n);

/* Register name as herd prints it in states: "0:EAX" for litmus tests,
 * "t0:r" for native programs. */
void ir_lhs_format(const wmx_program *p, const cond_lhs *l, char *buf, size_t n);

#endif
