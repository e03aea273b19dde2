/* fuzz_trace.c - libFuzzer target for the trace-file readers: the step form
 * (core/trace.c: parse, then replay whatever parsed on a small fixed program
 * under each model; thread and variable names, step counts and flushes come
 * from the input) and the event-set form (core/exec.c's exec_parse). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "lang.h"
#include "machine.h"
#include "trace.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char prog_text[] =
    "var x = 0, y = 0;\n"
    "thread P0 { x = 1; r0 = y; }\n"
    "thread P1 { y = 1; r0 = x; while (r0 == 0) bound 2 { r0 = x; } }\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static wmx_program *prog;     /* built once: the target is the trace reader */
    wmx_error err;
    if (!prog)
        prog = lang_parse(prog_text, sizeof prog_text - 1, "fuzz.wmx", &err);
    char *program = NULL;
    wmx_model hm;
    if (exec_header((const char *)data, size, "fuzz.trace", &program, &hm, &err) == 0)
        free(program);
    if (prog && exec_text_is_eventset((const char *)data, size)) {
        wmx_exec *x = exec_parse((const char *)data, size, "fuzz.trace", prog, &err);
        if (x)
            exec_free(x);
        return 0;
    }
    trace_file *tf = trace_parse((const char *)data, size, "fuzz.trace", &err);
    if (!tf)
        return 0;
    for (int mi = 0; mi < 3 && prog; mi++) {
        wmx_model model = mi == 0 ? MODEL_SC : mi == 1 ? MODEL_TSO : MODEL_PSO;
        wmx_machine *m = machine_new(prog, model, &err);
        if (!m)
            continue;
        void *st = wmx_malloc(machine_state_size(m));
        wmx_event *ev = wmx_malloc((size_t)(tf->len + 1) * sizeof *ev);
        (void)trace_replay(m, tf, "fuzz.trace", st, ev, &err);
        free(ev);
        free(st);
        machine_free(m);
    }
    trace_file_free(tf);
    return 0;
}
