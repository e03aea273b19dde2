/* trace.h - the trace file format (doc/trace-format.md): a program file, a
 * model and the sequence of transitions, one per line, with each event's
 * description as a comment.  Reading replays the steps on the machine and
 * refuses a step that is not enabled, naming its line. */
#ifndef WMX_TRACE_H
#define WMX_TRACE_H

#include "machine.h"

typedef struct trace_data {
    const char *program;       /* program file path as written */
    wmx_model model;
    int len;
    wmx_transition *steps;
    wmx_event *events;         /* may be NULL when writing: recomputed */
} trace_data;

/* Writes the trace atomically.  0 ok, -1 with err. */
int trace_save(const char *path, const wmx_machine *m, const trace_data *td, wmx_error *err);
char *trace_format(const wmx_machine *m, const trace_data *td);

/* A trace read from a file: the program path and model it names and the
 * steps; owned by the caller (trace_file_free). */
typedef struct trace_file {
    char *program;
    wmx_model model;
    int len;
    wmx_transition *steps;
    int *lines;                /* source line of each step */
    char **thread_names;       /* as written; resolved by trace_replay */
    char **cell_names;         /* flush VAR under PSO, else "" */
} trace_file;

/* Parses a trace file (syntax only).  NULL + err on failure. */
trace_file *trace_parse(const char *text, size_t len, const char *file, wmx_error *err);
trace_file *trace_load(const char *path, wmx_error *err);
void trace_file_free(trace_file *tf);
/* Replays the steps of tf on m from the initial state, filling events
 * (tf->len entries) and the final state.  -1 with err (file:line) when a step
 * is not enabled. */
int trace_replay(const wmx_machine *m, const trace_file *tf, const char *file,
                 void *state, wmx_event *events, wmx_error *err);

#endif
