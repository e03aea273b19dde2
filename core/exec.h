/* exec.h - executions as data: the events of a run of the machines, grouped
 * by thread in program order, with the reads-from function (RF) and, when
 * known, the memory order of the memory-writes.
 *
 * Every thread event is one record: a read r, a write (a two-phase write
 * (wB, wM) under TSO/PSO, an atomic write under SC), a fence fnc, an atomic
 * read-modify-write or an await.  A write's memory-write wM is not a record
 * of its own: `flushed` says whether the wM is part of the execution and
 * `mem_order` where it happened in the source trace (-1 when unknown).
 * This makes one execution usable under every model: the checker decides
 * whether writes are atomic (SC) or two-phase (TSO, PSO).
 *
 * An execution comes either from a machine trace (exec_from_events) or from
 * the "event set + RF" form of a trace file (exec_parse); exec_format writes
 * that form (doc/trace-format.md).
 */
#ifndef WMX_EXEC_H
#define WMX_EXEC_H

#include "machine.h"
#include "trace.h"

typedef enum xkind { X_READ, X_WRITE, X_FENCE, X_RMW, X_AWAIT } xkind;

const char *xkind_name(xkind k);   /* "r", "w", "fnc", "rmw", "await" */

typedef struct xevent {
    xkind kind;
    int thread;
    int index;           /* position among the thread's events (EID_INDEX) */
    int instr;           /* instruction index in the thread, -1 unknown */
    int cell;            /* memory cell, -1 for fences */
    wmx_val value;       /* read: value read; write/rmw: value written */
    wmx_val read;        /* rmw: value read */
    bool wrote;          /* rmw: it wrote (false for a failed CAS) */
    int rf;              /* reads/awaits/rmws: event index of the write read, -1 = initial value */
    bool flushed;        /* writes: the memory-write is part of the execution */
    int mem_order;       /* writes: position of the memory-write in the source trace, -1 unknown */
    int line;            /* line in the file it was read from, 0 unknown */
} xevent;

typedef struct wmx_exec {
    char *program_path;        /* as named in the file (may be NULL) */
    wmx_model model;           /* the model the file names */
    const wmx_program *prog;   /* borrowed; used for names and source lines */
    int nthreads, ncells;
    wmx_val *cell_init;        /* ncells initial values */
    int nev;
    xevent *ev;                /* sorted by thread, then index */
    int evcap;                 /* exec_add: room in ev */
    int *tcount;               /* exec_add: events per thread among the first tcounted */
    int tcounted;
    int *tstart;               /* nthreads + 1: events of thread t are [tstart[t], tstart[t+1]) */
    /* observers: the final memory-writer of selected cells (index of a
     * write event, -1 = initial value); nobs entries, cells in obs_cell */
    int nobs, obs_cap;
    int *obs_cell;
    int *obs_writer;
} wmx_exec;

/* Reads (loads, awaits, rmws) and writes (stores, rmws that wrote).
 * Inline: the explorers ask it of every event of every trace. */
static inline bool xev_is_read(const xevent *e)
{
    return e->kind == X_READ || e->kind == X_AWAIT || e->kind == X_RMW;
}
static inline bool xev_is_write(const xevent *e)
{
    return e->kind == X_WRITE || (e->kind == X_RMW && e->wrote);
}

/* Builds an execution from the events of a machine trace (events[i] is what
 * step i did).  Thread events are numbered per thread from 0, as the machine
 * numbers them.  NULL + err when the events are malformed. */
wmx_exec *exec_from_events(const wmx_program *prog, wmx_model model,
                           const wmx_event *events, int len, wmx_error *err);
/* An empty execution of prog (for building one by hand, e.g. in tests):
 * add events with exec_add (in program order per thread), then exec_seal. */
wmx_exec *exec_new(const wmx_program *prog, wmx_model model);
int exec_add(wmx_exec *x, const xevent *e);     /* returns the new event's position before sealing */
void exec_seal(wmx_exec *x);                    /* sorts, indexes; rf given as positions is remapped */
void exec_free(wmx_exec *x);
wmx_exec *exec_copy(const wmx_exec *x);

/* Event index of (thread, index), or -1. */
int exec_find(const wmx_exec *x, int thread, int index);
/* Adds (or replaces) an observer: cell's final value comes from writer. */
void exec_set_observer(wmx_exec *x, int cell, int writer);
/* Makes observer i (of cell, by writer) the last one: no search, for
 * callers that set distinct cells in order (rfsmc's final writers). */
void exec_put_observer(wmx_exec *x, int i, int cell, int writer);

/* Names for people: "P0.2" / "init" and "P0.2 r x=1 (line 4: r0 = x)". */
const char *exec_event_name(const wmx_exec *x, int e, char *buf, size_t n);
const char *exec_event_describe(const wmx_exec *x, int e, char *buf, size_t n);
/* Source line of an event's instruction, 0 unknown. */
int exec_event_line(const wmx_exec *x, int e);

/* ---- relations ---- */

typedef enum rel_kind { REL_PO, REL_RF, REL_CO, REL_FR, REL_PPO, REL_FENCE } rel_kind;
const char *rel_name(rel_kind k);

typedef struct xedge {
    rel_kind kind;
    int from, to;        /* event indices; -1 = the initial write */
    int cell;            /* rf/co/fr: the cell */
} xedge;

/* Edges of the execution graph: po (immediate successors), rf, and, when
 * the memory order is known (mem_order), co (immediate successors per cell,
 * starting from the initial value) and fr.  Returns the count; *out is owned
 * by the caller. */
int exec_edges(const wmx_exec *x, xedge **out);

/* ---- the event-set + RF form of trace files ---- */

/* Text of the execution in the event-set form. */
char *exec_format(const wmx_exec *x);
int exec_save(const char *path, const wmx_exec *x, wmx_error *err);
/* Whether the text is in the event-set form (has an `events` section). */
bool exec_text_is_eventset(const char *text, size_t len);
/* Parses the event-set form against prog (names resolve in it); NULL + err
 * (file:line:col) on any error. */
wmx_exec *exec_parse(const char *text, size_t len, const char *file,
                     const wmx_program *prog, wmx_error *err);
/* Reads just the `program` and `model` lines of either form. */
int exec_header(const char *text, size_t len, const char *file, char **program,
                wmx_model *model, wmx_error *err);

/* Loads either form of trace file: the program it names is loaded into
 * *prog_out (owned by the caller; resolved relative to the current
 * directory, then to the trace file's directory), a step-form trace is
 * replayed on the machine of its model.  NULL + err on failure. */
wmx_exec *exec_load(const char *path, wmx_program **prog_out, wmx_error *err);

/* Whether the file at `path` reads as a trace (its header names a program),
 * rather than a program: how commands that take either tell them apart. */
bool exec_is_trace_file(const char *path);

#endif
