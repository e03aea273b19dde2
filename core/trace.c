/* trace.c - reading and writing trace files (doc/trace-format.md). */
#include "trace.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing string. */

char *trace_format(const wmx_machine *m, const trace_data *td)
{
    const wmx_program *p = machine_program(m);
    wmx_strbuf b = { 0 };
    wmx_strbuf_printf(&b, "# wmx trace (format 1, see doc/trace-format.md)\n");
    wmx_strbuf_printf(&b, "program %s\nmodel %s\n", td->program, model_name(td->model));
    void *st = wmx_malloc(machine_state_size(m));
    machine_init(m, st);
    for (int i = 0; i < td->len; i++) {
        const wmx_transition *t = &td->steps[i];
        wmx_event ev;
        machine_apply(m, st, t, &ev);
        char cell[128] = "";
        if (t->kind == TR_FLUSH && t->cell >= 0)
            ir_cell_name(p, t->cell, cell, sizeof cell);
        char desc[512];
        machine_describe(m, &ev, desc, sizeof desc);
        char head[200];
        snprintf(head, sizeof head, "%s %s%s%s", t->kind == TR_STEP ? "step" : "flush",
                 p->threads[t->thread].name, cell[0] ? " " : "", cell);
        wmx_strbuf_printf(&b, "%-24s # %d %s\n", head, i + 1, desc);
    }
    wmx_strbuf_printf(&b, "end\n");
    free(st);
    return b.s;
}

int trace_save(const char *path, const wmx_machine *m, const trace_data *td, wmx_error *err)
{
    /* name the program relative to the trace, so the pair can move */
    trace_data rel = *td;
    char *relpath = td->program && td->program[0] != '/' ? wmx_path_relative(td->program, path) : NULL;
    if (relpath)
        rel.program = relpath;
    char *text = trace_format(m, &rel);
    int rc = wmx_write_file_atomic(path, text, strlen(text), err);
    free(text);
    free(relpath);
    return rc;
}

void trace_file_free(trace_file *tf)
{
    if (!tf)
        return;
    for (int i = 0; i < tf->len; i++) {
        free(tf->thread_names[i]);
        free(tf->cell_names[i]);
    }
    free(tf->thread_names);
    free(tf->cell_names);
    free(tf->program);
    free(tf->steps);
    free(tf->lines);
    free(tf);
}

trace_file *trace_parse(const char *text, size_t len, const char *file, wmx_error *err)
{
    trace_file *tf = wmx_calloc(1, sizeof *tf);
    tf->model = MODEL_TSO;
    int cap = 0;
    int line = 0;
    bool ended = false, have_model = false;
    size_t pos = 0;
    while (pos < len) {
        line++;
        size_t eol = pos;
        while (eol < len && text[eol] != '\n')
            eol++;
        char buf[512];
        size_t n = eol - pos;
        if (n >= sizeof buf) {
            wmx_error_set(err, file, line, 1, "line too long");
            goto fail;
        }
        memcpy(buf, text + pos, n);
        buf[n] = '\0';
        pos = eol + 1;
        char *hash = strchr(buf, '#');
        size_t check = hash ? (size_t)(hash - buf) : n;
        for (size_t i = 0; i < check; i++)
            if (buf[i] == '\0' || (unsigned char)buf[i] > 0x7e || (buf[i] < 0x20 && buf[i] != '\t' && buf[i] != '\r')) {
                wmx_error_set(err, file, line, (int)i + 1, "unexpected byte 0x%02x", (unsigned char)buf[i]);
                goto fail;
            }
        if (hash)
            *hash = '\0';
        char w1[128] = "", w2[128] = "", w3[160] = "", w4[8] = "";
        int k = sscanf(buf, "%127s %127s %159s %7s", w1, w2, w3, w4);
        if (k <= 0)
            continue;
        int col = (int)(strstr(buf, w1) - buf) + 1;
        if (ended) {
            wmx_error_set(err, file, line, col, "text after 'end'");
            goto fail;
        }
        if (strcmp(w1, "program") == 0 && k == 2) {
            free(tf->program);
            tf->program = wmx_strdup(w2);
        } else if (strcmp(w1, "model") == 0 && k == 2) {
            if (model_parse(w2, &tf->model) < 0) {
                wmx_error_set(err, file, line, col, "unknown model '%s' (sc, tso or pso)", w2);
                goto fail;
            }
            have_model = true;
        } else if ((strcmp(w1, "step") == 0 && k == 2) || (strcmp(w1, "flush") == 0 && (k == 2 || k == 3))) {
            if (tf->len == cap) {
                cap = cap ? 2 * cap : 32;
                tf->steps = wmx_realloc(tf->steps, (size_t)cap * sizeof *tf->steps);
                tf->lines = wmx_realloc(tf->lines, (size_t)cap * sizeof *tf->lines);
                tf->thread_names = wmx_realloc(tf->thread_names, (size_t)cap * sizeof *tf->thread_names);
                tf->cell_names = wmx_realloc(tf->cell_names, (size_t)cap * sizeof *tf->cell_names);
            }
            tf->steps[tf->len] = (wmx_transition){ w1[0] == 's' ? TR_STEP : TR_FLUSH, -1, -1 };
            tf->lines[tf->len] = line;
            tf->thread_names[tf->len] = wmx_strdup(w2);
            tf->cell_names[tf->len] = wmx_strdup(k == 3 ? w3 : "");
            tf->len++;
        } else if (strcmp(w1, "end") == 0 && k == 1) {
            ended = true;
        } else {
            wmx_error_set(err, file, line, col,
                          "expected 'program FILE', 'model M', 'step THREAD', 'flush THREAD [VAR]' or 'end'");
            goto fail;
        }
    }
    if (!tf->program) {
        wmx_error_set(err, file, line ? line : 1, 1, "missing 'program FILE' line");
        goto fail;
    }
    if (!have_model) {
        wmx_error_set(err, file, line ? line : 1, 1, "missing 'model sc|tso|pso' line");
        goto fail;
    }
    if (!ended) {
        wmx_error_set(err, file, line ? line : 1, 1, "truncated trace: missing 'end'");
        goto fail;
    }
    return tf;
fail:
    trace_file_free(tf);
    return NULL;
}

trace_file *trace_load(const char *path, wmx_error *err)
{
    size_t len;
    char *text = wmx_read_file(path, &len, err);
    if (!text)
        return NULL;
    trace_file *tf = trace_parse(text, len, path, err);
    free(text);
    return tf;
}

static int find_thread(const wmx_program *p, const char *name)
{
    for (int t = 0; t < p->nthreads; t++)
        if (strcmp(p->threads[t].name, name) == 0)
            return t;
    return -1;
}

static int find_cell(const wmx_program *p, const char *name)
{
    char buf[160];
    for (int c = 0; c < p->ncells; c++)
        if (strcmp(ir_cell_name(p, c, buf, sizeof buf), name) == 0)
            return c;
    return -1;
}

int trace_replay(const wmx_machine *m, const trace_file *tf, const char *file,
                 void *state, wmx_event *events, wmx_error *err)
{
    const wmx_program *p = machine_program(m);
    machine_init(m, state);
    for (int i = 0; i < tf->len; i++) {
        wmx_transition t = tf->steps[i];
        t.thread = find_thread(p, tf->thread_names[i]);
        if (t.thread < 0) {
            wmx_error_set(err, file, tf->lines[i], 0, "no thread named '%s' in %s", tf->thread_names[i], p->file);
            return -1;
        }
        if (t.kind == TR_FLUSH && machine_model(m) == MODEL_PSO) {
            if (!tf->cell_names[i][0]) {
                wmx_error_set(err, file, tf->lines[i], 0, "a PSO flush names its variable: 'flush %s VAR'", tf->thread_names[i]);
                return -1;
            }
            t.cell = find_cell(p, tf->cell_names[i]);
            if (t.cell < 0) {
                wmx_error_set(err, file, tf->lines[i], 0, "no variable '%s' in %s", tf->cell_names[i], p->file);
                return -1;
            }
        }
        if (!machine_is_enabled(m, state, &t)) {
            wmx_error_set(err, file, tf->lines[i], 0, "step %d (%s %s) is not enabled here under %s",
                          i + 1, t.kind == TR_STEP ? "step" : "flush", tf->thread_names[i],
                          model_name(machine_model(m)));
            return -1;
        }
        ((trace_file *)tf)->steps[i] = t;
        machine_apply(m, state, &t, events ? &events[i] : NULL);
    }
    return 0;
}
