/* ui.h - the interactive explorer's internal interface (ui_ prefix).
 *
 * The UI is three layers:
 *   - a session (session.c): the loaded program, the machine, the timeline of
 *     steps with one state snapshot per step (undo/redo/goto are index moves)
 *     and the list of executions the last `explore` recorded;
 *   - panes (pane_*.c) drawing into a virtual screen (screen.c) of cells with
 *     theme styles - the same screen is blitted to curses (tui.c) or written
 *     as text by `save-screen` and scripted mode, so tests see what people see;
 *   - the command line: every line goes through cmd_run() and the shared
 *     command table (src/commands.c + ui/repl_commands.c); keys are bound to
 *     command lines (keys.c), completion reads the same table (complete.c).
 *
 * Nothing here is global except the curses/readline glue in tui.c, which
 * readline's callback interface forces on us.
 */
#ifndef WMX_UI_H
#define WMX_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <wchar.h>

#include "cfront.h"
#include "cli.h"
#include "explore.h"
#include "machine.h"

/* ---- styles: every themable element, one X-macro list ---------------- */

#define UI_STYLES(_)                                                         \
    _(NORMAL, "normal")             _(BORDER, "border")                      \
    _(BORDER_FOCUS, "border-focus") _(TITLE, "title")                        \
    _(TITLE_FOCUS, "title-focus")   _(HEADER, "header")                      \
    _(STATUS, "status")             _(PROMPT, "prompt")                      \
    _(NEXT, "next")                 _(DIM, "dim")                            \
    _(SELECTED, "selected")         _(ERROR, "error")                        \
    _(OK, "ok")                     _(CHANGED, "changed")                    \
    _(PROGRESS, "progress")         _(ECHO, "echo")                          \
    _(THREAD0, "thread0") _(THREAD1, "thread1") _(THREAD2, "thread2")        \
    _(THREAD3, "thread3") _(THREAD4, "thread4") _(THREAD5, "thread5")        \
    _(EV_R, "event-r")    _(EV_W, "event-w")    _(EV_WB, "event-wB")         \
    _(EV_WM, "event-wM")  _(EV_FENCE, "event-fence") _(EV_RMW, "event-rmw")  \
    _(EV_AWAIT, "event-await")                                               \
    _(EDGE_PO, "edge-po") _(EDGE_RF, "edge-rf") _(EDGE_CO, "edge-co")        \
    _(EDGE_FR, "edge-fr")

typedef enum ui_style {
#define UI_STYLE_ENUM(id, name) ST_##id,
    UI_STYLES(UI_STYLE_ENUM)
#undef UI_STYLE_ENUM
    ST_COUNT
} ui_style;

#define UI_NTHREAD_STYLES 6
ui_style ui_thread_style(int thread);
ui_style ui_event_style(event_kind k);

/* ---- themes (theme.c) ------------------------------------------------ */

#define UI_ATTR_BOLD      1u
#define UI_ATTR_UNDERLINE 2u
#define UI_ATTR_REVERSE   4u
#define UI_ATTR_DIM       8u

typedef struct ui_style_spec {
    int fg, bg;             /* 0..255, -1 = terminal default */
    unsigned attr;
} ui_style_spec;

typedef struct ui_theme {
    char name[64];
    ui_style_spec st[ST_COUNT];
} ui_theme;

/* Loads theme NAME (a name looked up in the theme directories, or a path
 * ending in .theme).  Returns 0, or -1 with a message in err (file:line). */
int ui_theme_load(ui_theme *t, const char *name, wmx_error *err);
/* The built-in default (used when no theme file can be found). */
void ui_theme_builtin(ui_theme *t);
/* Names of the installed themes, NULL-terminated, owned by the caller
 * (free each and the array). */
char **ui_theme_list(void);
const char *ui_style_name(ui_style s);

/* ---- the virtual screen (screen.c) ----------------------------------- */

typedef struct ui_cell {
    wchar_t ch;
    unsigned char style;
} ui_cell;

typedef struct ui_screen {
    int w, h;
    ui_cell *cells;
    bool unicode;           /* box drawing characters allowed */
} ui_screen;

void scr_resize(ui_screen *s, int w, int h);
void scr_free(ui_screen *s);
void scr_clear(ui_screen *s);
/* Writes UTF-8 text at (x, y), clipped to `maxw` columns (and the screen);
 * returns the columns written. */
int scr_put(ui_screen *s, int x, int y, int maxw, ui_style st, const char *text);
int scr_printf(ui_screen *s, int x, int y, int maxw, ui_style st, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void scr_fill(ui_screen *s, int x, int y, int w, int h, wchar_t ch, ui_style st);
void scr_set_style(ui_screen *s, int x, int y, int w, ui_style st);
/* A frame with a title, ASCII or Unicode box lines. */
void scr_box(ui_screen *s, int x, int y, int w, int h, ui_style st, ui_style tst, const char *title);
/* The screen as UTF-8 text, one line per row, trailing blanks removed;
 * owned by the caller. */
char *scr_text(const ui_screen *s);
/* Glyphs that have an ASCII fallback. */
const char *scr_glyph(const ui_screen *s, const char *unicode, const char *ascii);

/* ---- executions recorded by `explore` (session.c) -------------------- */

/* A recorded trace.  Its steps are packed into 32 bits each (kind, thread,
 * PSO cell) when they fit, which all but huge programs do: ten thousand
 * classes' traces then take a third of the memory (4 bytes a step, not 12).
 * `wide` traces keep whole transitions.  Read a step with ui_trace_step. */
typedef struct ui_trace {
    int len;
    bool wide;
    void *steps;            /* uint32_t[len], or wmx_transition[len] if wide */
} ui_trace;
wmx_transition ui_trace_step(const ui_trace *t, int i);

#define UI_TRACES_PER_CLASS 64

/* One distinct final state (plus blocked/error), with some of its traces. */
typedef struct ui_exec_class {
    wmx_val *vals;          /* observed locations (in the list's pool) */
    bool satisfies, blocked, error;
    bool deadlock;          /* blocked, with two or more threads waiting at
                               awaits or locks and none stopped otherwise */
    long count;
    int ntraces;
    ui_trace *traces;       /* at most UI_TRACES_PER_CLASS, grown on demand
                               (a small class keeps sorting the list cheap);
                               traces and their steps are in the list's pool */
} ui_exec_class;

/* The executions list keeps at most this many classes: enough to browse,
 * bounded in memory; the summary says when it is capped. */
#define UI_EXEC_LIST_CAP 10000
#define UI_EXEC_FILTER_WORDS 4096
/* `explore` prints the first this many to the output, the pane has all. */
#define UI_EXEC_OUTPUT_LINES 1000

typedef struct ui_exec_list {
    bool valid;
    wmx_model model;
    explore_algo algo;
    int nobserved;
    cond_lhs *observed;
    char **observed_names;  /* "P0:r0" per observed location, for the labels */
    int n, cap;
    ui_exec_class *v;
    /* open-addressing hash index of v: each trace finds its class in
     * constant time; the hash is kept in the slot so that a miss reads
     * no class */
    struct ui_exec_slot { unsigned hash; int ci; } *index;  /* ci: class + 1, 0 = empty */
    int index_cap;          /* a power of two, at least twice n */
    /* a Bloom filter over the classes' hashes (two bits per class in one
     * 64-bit word): once the list is full nearly every trace is of a class
     * not in it, and the filter answers that from 32 KiB where a probe of
     * the index missed the cache every time */
    uint64_t *filter;       /* UI_EXEC_FILTER_WORDS words */
    long traces;
    long unlisted;          /* traces whose class did not fit in the list */
    struct ui_pool_chunk *pool; /* the classes' values and traces: one block
                               per 64 KiB, not a malloc per trace */
    bool complete;
    char summary[320];
    wmx_machine *m;         /* reads the final states handed to on_trace */
} ui_exec_list;

/* ---- the session (session.c) ----------------------------------------- */

typedef struct ui_session {
    wmx_program *prog;      /* owned; NULL when nothing is loaded */
    wmx_model model;
    explore_algo algo;
    wmx_machine *m;
    size_t ssize;
    int len, cap;           /* timeline: steps[0..len) */
    int pos;                /* current position, 0..len */
    wmx_transition *steps;
    wmx_event *events;      /* events[i] = the event of steps[i] */
    unsigned char *states;  /* (cap + 1) snapshots: state after i steps */
    ui_exec_list execs;
    /* `next-class`: the RF-SMC search, paused after the last class shown */
    struct rfsmc_iter *classes;
    explore_opts classes_opts;  /* the iterator borrows it: keep it here */
    explore_result classes_res;
    long classes_seen;
    /* the schedule the timeline had before the last `model` change, for
     * `replay` (flushes named by the write they move) */
    wmx_transition *sched;
    wmx_eid *sched_writes;
    int sched_len;
    wmx_model sched_model;
} ui_session;

/* Memory that lives as long as the list (freed by sess_exec_clear). */
void *sess_exec_alloc(ui_exec_list *l, size_t bytes);
/* The class's final state, "P0:r0=0; P1:r0=0;", in buf (built when shown:
 * the list can hold thousands). */
const char *sess_exec_label(const ui_exec_list *l, const ui_exec_class *c, char *buf, size_t n);

void sess_init(ui_session *s);
void sess_free(ui_session *s);
/* Takes ownership of prog; builds the machine for the session's model and
 * resets the timeline.  -1 with err when the machine refuses the program
 * (prog is then freed). */
int sess_set_program(ui_session *s, wmx_program *prog, wmx_error *err);
int sess_set_model(ui_session *s, wmx_model model, wmx_error *err);
const void *sess_state(const ui_session *s);            /* state at pos */
const void *sess_state_at(const ui_session *s, int i);  /* state after i steps */
/* Applies t at pos (which must be enabled): keeps the redo part when t is
 * the next step of the timeline, otherwise truncates it. */
void sess_apply(ui_session *s, const wmx_transition *t);
/* Replaces the timeline by `steps` (replayed from the initial state) and
 * moves to position `pos`.  -1 (timeline kept up to the failing step) when a
 * step is not enabled; *bad receives its index. */
int sess_replay(ui_session *s, const wmx_transition *steps, int n, int pos, int *bad);
void sess_exec_clear(ui_exec_list *l);
/* Drops the paused `next-class` search (program or model changed). */
void sess_classes_clear(ui_session *s);

/* ---- keys ------------------------------------------------------------ */

/* Keys as panes and bindings see them; tui.c maps curses' codes to these. */
enum {
    UI_KEY_UP = 0x1000, UI_KEY_DOWN, UI_KEY_LEFT, UI_KEY_RIGHT, UI_KEY_PGUP,
    UI_KEY_PGDN, UI_KEY_HOME, UI_KEY_END, UI_KEY_ENTER, UI_KEY_BTAB, UI_KEY_RESIZE,
    UI_KEY_F1 = 0x1100,     /* Fn is UI_KEY_F1 + n - 1 */
    UI_KEY_ALT = 0x10000    /* or'ed with a character: Alt-x / Esc x */
};

/* ---- panes (pane_*.c) ------------------------------------------------ */

typedef struct ui_state ui_state;
typedef struct ui_pane ui_pane;

typedef struct ui_rect {
    int x, y, w, h;
} ui_rect;

/* The pane interface: one file per pane defines one of these. */
typedef struct ui_pane_ops {
    const char *name;       /* for `focus NAME` and completion */
    const char *title;
    /* Draws the content inside r (the frame is drawn by the layout). */
    void (*draw)(ui_state *ui, ui_pane *p, ui_screen *s, ui_rect r);
    /* Number of content lines, for scrolling (NULL: no scrolling). */
    int (*lines)(ui_state *ui, ui_pane *p, int width);
    /* A key while the pane is focused in pane mode; true when handled. */
    bool (*key)(ui_state *ui, ui_pane *p, int key);
} ui_pane_ops;

struct ui_pane {
    const ui_pane_ops *ops;
    int scroll;             /* first content line shown */
    int sel;                /* selected line (lists) */
    ui_rect r;              /* where it was last drawn (inside the frame) */
    bool shown;             /* part of the last layout */
    bool follow;            /* scroll to what changed at the next draw */
};

enum {
    PANE_SOURCE, PANE_REGS, PANE_BUFFERS, PANE_MEMORY, PANE_EVENTS,
    PANE_OUTPUT, PANE_EXECS, PANE_GRAPH, PANE_GAME, PANE_COUNT
};

extern const ui_pane_ops pane_source_ops, pane_regs_ops, pane_buffers_ops,
    pane_memory_ops, pane_events_ops, pane_output_ops, pane_execs_ops,
    pane_graph_ops,                 /* graph.h */
    pane_game_ops;                  /* pane_game.c */
struct ui_graph_pane;

/* ---- the output pane's text ----------------------------------------- */

typedef struct ui_line {
    char *text;
    unsigned char style;
} ui_line;

/* The output pane keeps this many lines, dropping the oldest. */
#define UI_OUT_MAX_LINES 5000

typedef struct ui_output {
    int n, cap;
    ui_line *lines;
    int last_cmd;           /* index of the last command's echo line */
    bool tail;              /* the last command's end matters most (a final
                             * state and verdict): show its end, not its start */
} ui_output;

/* The Program pane row to keep in view: the next instruction of the thread
 * that moved last (pane_source.c). */
int ui_source_focus_row(ui_state *ui, int width, int *header);
/* Screen rows that output lines [from, to) take at `width` columns (they wrap). */
int out_rows(const ui_output *o, int from, int to, int width);
void out_add(ui_output *o, ui_style st, const char *text);  /* splits at \n */
/* One line of n bytes (no \n in it); out_trim drops all but the last
 * UI_OUT_MAX_LINES lines (out_add does). */
void out_add_line(ui_output *o, ui_style st, const char *line, size_t n);
void out_trim(ui_output *o);
void out_clear(ui_output *o);

/* ---- the whole UI ---------------------------------------------------- */

typedef struct ui_progress {
    bool active;
    const char *what;
    long traces, blocked, events;
    int depth;              /* the explorer's search depth */
    double elapsed;
    double drawn;           /* elapsed at the last drawing */
    int tick;
} ui_progress;

struct ui_state {
    ui_session sess;
    /* `load prog.c -DN=3 --unroll 4`: the C options of the last load, kept
     * here because the command line's words do not outlive the command */
    cfront_opts c_opts;
    char c_flags[CFRONT_MAX_FLAGS][256];
    ui_theme theme;
    int theme_gen;          /* bumped when the theme changes (tui.c re-inits colours) */
    bool no_color;
    ui_screen scr;
    ui_pane panes[PANE_COUNT];
    int focus;              /* PANE_* */
    bool zoom;
    int bottom;             /* PANE_OUTPUT or PANE_EXECS in the bottom area */
    bool pane_mode;         /* keys drive panes instead of the command line */
    ui_output out;
    char message[512];      /* one-line message in the status line */
    bool message_error;
    ui_progress progress;
    struct ui_graph_pane *graph;    /* the graph pane's state (pane_graph.c), NULL until used */
    struct ui_game *game;           /* play mode (pane_game.c): a loaded .game, else NULL */
    struct ui_pgas *pgas;           /* a loaded PGAS program (pane_pgas.c), else NULL */
    bool quit;
    bool interactive;       /* curses is running */
    cmd_ctx *ctx;           /* the batch context (cancel flag) */
    volatile sig_atomic_t cancel;
    /* what the prompt line shows (tui.c fills it before drawing) */
    const char *prompt;
    const char *line;
    int point;
};

void ui_init(ui_state *ui, cmd_ctx *ctx);
void ui_free(ui_state *ui);
/* Lays out and draws every pane, the status line and the prompt line into
 * ui->scr (whose size is the terminal's). */
void ui_draw(ui_state *ui);
/* Runs one command line through the shared table; output goes to the
 * output pane (and to `echo` when not NULL, as scripted mode prints it).
 * Returns the command's exit code. */
int ui_exec_line(ui_state *ui, const char *line, FILE *echo);
/* Loads a program or a trace file into the session. */
int ui_load(ui_state *ui, const char *path, FILE *out, FILE *err);
int ui_set_theme(ui_state *ui, const char *name, FILE *err);
void ui_focus(ui_state *ui, int pane);
void ui_scroll(ui_state *ui, int delta);
void ui_message(ui_state *ui, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Called by the explorer hooks; redraws the status line and polls keys
 * (tui.c supplies the curses side, NULL in scripted mode). */
extern void (*ui_progress_hook)(ui_state *ui);
void ui_progress_draw(ui_state *ui);
/* The column of the cursor on the prompt line. */
int ui_prompt_cursor(const ui_state *ui);
/* The full-screen loop (tui.c); returns an exit code. */
int tui_main(ui_state *ui);

/* Helpers shared by panes and commands. */
int ui_find_thread(const wmx_program *p, const char *name);   /* name or number */
int ui_find_cell(const wmx_program *p, const char *name);     /* "x", "a[2]" */
const char *ui_thread_state(const ui_session *s, const void *st, int t);
/* The step number (1-based) of the write event `id` in the timeline, 0 when
 * it is the initial value or not found. */
int ui_event_step(const ui_session *s, wmx_eid id);

/* Keys (keys.c): what a key does, as a command line; NULL when unbound. */
const char *ui_key_command(ui_state *ui, int key, char *buf, size_t n);
void ui_print_keys(FILE *out);

/* Completion (complete.c): candidates for the word at `start` in line. */
char **ui_complete(ui_state *ui, const char *line, int start, int end, bool *files);

/* Play mode for .game files (pane_game.c). */
int ui_game_load(ui_state *ui, const char *path, FILE *out, FILE *err);
void ui_game_free(ui_state *ui);
/* the loaded game's file, and the update rule of player 0 (A) or 1 (B)
 * in the variant being played (NULL when no game is loaded) */
const char *ui_game_path(const ui_state *ui);
const char *ui_game_update(const ui_state *ui, int player);
int ui_game_undo(ui_state *ui, int dir, long n, FILE *out, FILE *err);
int ui_game_status(ui_state *ui, char *buf, size_t n);
int ui_game_height(ui_state *ui, int width);
int cmd_game_play(int argc, char **argv, cmd_ctx *ctx);
int cmd_game_move(int argc, char **argv, cmd_ctx *ctx);
int cmd_game_update(int argc, char **argv, cmd_ctx *ctx);
int cmd_game_end(int argc, char **argv, cmd_ctx *ctx);
int cmd_game_hint(int argc, char **argv, cmd_ctx *ctx);
/* PGAS mode (pane_pgas.c): a PGAS program replaces the thread session. */
typedef struct ui_pgas ui_pgas;
struct pgas_robust_result;
int ui_pgas_load(ui_state *ui, wmx_program *p, FILE *out, FILE *err);   /* takes p */
void ui_pgas_free(ui_state *ui);
const wmx_program *ui_pgas_program(const ui_state *ui);
void ui_pgas_draw(ui_state *ui, ui_screen *s, int x, int y, int w, int h);
/* Rows the PGAS area wants at width w: the code or the ranks, whichever is longer. */
int ui_pgas_height(const ui_state *ui, int w);
/* step/popa/popb/barrier/undo/redo/restart/graph in PGAS mode: true when
 * handled (*rc set). */
bool ui_pgas_run(ui_state *ui, int argc, char **argv, cmd_ctx *ctx, int *rc);
void ui_pgas_after_robust(const wmx_program *p, const struct pgas_robust_result *res, cmd_ctx *ctx);

/* The explorer hooks put into cmd_ctx (repl_commands.c). */
void ui_explore_before(explore_opts *o, cmd_ctx *ctx);
void ui_explore_after(const explore_result *r, cmd_ctx *ctx);

#endif
