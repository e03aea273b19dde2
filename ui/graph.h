/* graph.h - graphs drawn by Graphviz: execution graphs (happens-before and
 * the full execution with two-phase writes), Optimal-DPOR wakeup trees with
 * sleep sets, and the tree of the explored traces.
 *
 * A graph is first plain data (gx_graph: nodes with labels, edges with a
 * kind), built from an execution, an exploration snapshot or the recorded
 * traces.  gx_layout() hands it to libgvc's `dot` with every node a fixed
 * box measured in character cells, and reads the positions and splines back
 * as cells, so gx_draw() only rasterises: boxes, edges as line segments with
 * arrow heads, labels.  gx_export() renders the same graph (with its
 * styles) to dot/svg/png/pdf files through gvRenderFilename, atomically.
 *
 * Graphviz reports problems through agerr, which would print on stderr
 * behind curses: every call here captures them (gx_last_error()). */
#ifndef WMX_GRAPH_H
#define WMX_GRAPH_H

#include "exec.h"
#include "odpor.h"
#include "ui.h"
#include "verify.h"

typedef enum gx_view { GX_HB, GX_EXEC, GX_WUT, GX_TREE } gx_view;
const char *gx_view_name(gx_view v);             /* "hb", "exec", "wut", "tree" */
int gx_view_parse(const char *s, gx_view *v);    /* 0 ok, -1 unknown */

typedef enum gx_ekind {
    GE_PO,          /* program order kept by the model (hb) */
    GE_PO_RELAXED,  /* program order the model may reorder (w->r under TSO/PSO, w->w under PSO) */
    GE_RF, GE_CO, GE_FR,
    GE_WBM,         /* buffer-write -> its memory-write */
    GE_TREE,        /* exploration tree: the explored path / a branch */
    GE_BRANCH,      /* a pending wakeup-tree branch */
    GE_COUNT
} gx_ekind;
const char *gx_ekind_name(gx_ekind k);

/* node and edge flags */
#define GX_CUR     1u   /* event of the current step */
#define GX_FACT    2u   /* part of an inconsistency explanation */
#define GX_RACE    4u   /* the race being reversed / the wakeup sequence inserted */
#define GX_FUTURE  8u   /* after the current step (redo part of the timeline) */
#define GX_INIT   16u   /* an initial value */
#define GX_DASHED 32u   /* pending / not part of the execution */

/* Label levels (zoom): 0 full, 1 short, 2 tiny. */
#define GX_ZOOMS 3

typedef struct gx_node {
    char *id;                  /* DOT name: e3, w3 (memory-write), init_1, p2, n7 */
    char *label[GX_ZOOMS];
    char *info;                /* one line for the status line (Enter) */
    int cluster;               /* -1 none, else index into clusters */
    int step;                  /* timeline step (1-based) of the event, 0 none */
    int thread;                /* for the style, -1 none */
    event_kind ekind;          /* for the style (when thread >= 0) */
    wmx_eid eid;               /* the event (EID_INIT: none / initial value) */
    bool mem;                  /* the memory-write of eid (exec view) */
    unsigned flags;
    /* layout, in cells relative to the graph's top-left corner */
    int x, y, w, h;
} gx_node;

typedef struct gx_edge {
    int from, to;
    gx_ekind kind;
    char *label;               /* may be NULL */
    unsigned flags;
    /* layout: the spline as points (cells, doubled resolution not needed) */
    int npts;
    int *pts;                  /* x0,y0,x1,y1,... in cells (graph coordinates) */
    int lx, ly;                /* label centre, -1 none */
} gx_edge;

typedef struct gx_graph {
    gx_view view;
    char *title;
    char *note;                /* one line shown above the drawing (may be NULL) */
    char *verdict;             /* the checker's verdict, for exported files (may be NULL) */
    int nn, ncap, ne, ecap;
    gx_node *n;
    gx_edge *e;
    int nclusters;
    char **clusters;
    /* layout */
    int zoom;                  /* label level of the layout */
    bool laid;
    int W, H;                  /* extent in cells */
    int *cbox;                 /* per cluster: x, y, w, h in cells */
} gx_graph;

/* Layout internals (graph_route.c): re-routes the edges of a laid-out graph
 * on the cell grid so that no two edges share a run of cells, a turn or an
 * end; they may only cross at right angles.  Edges it cannot place keep
 * dot's route. */
#define GX_ROUTE_MAX_NODES 60
void gx_route_apart(gx_graph *g);
/* Is cell (x, y) beside one of n's sides (not at a corner, not inside)?
 * Where an edge may start or end. */
bool gx_beside(const gx_node *n, int x, int y);

gx_graph *gx_new(gx_view view, const char *title);
void gx_free(gx_graph *g);
int gx_add_node(gx_graph *g, const char *id, const char *full, const char *shrt, const char *tiny,
                int cluster, unsigned flags);
int gx_add_edge(gx_graph *g, int from, int to, gx_ekind kind, const char *label, unsigned flags);
int gx_add_cluster(gx_graph *g, const char *name);
int gx_find_node(const gx_graph *g, const char *id);

/* The execution graph of x: one node per event (hb) or per event plus one
 * per memory-write of a two-phase write (exec), grouped per thread in
 * program order, with the initial values used (init_C nodes) when `inits`.
 * Edges po (hb view: preserved po solid, relaxed po dotted under `model`),
 * rf, co, fr (derived from the initial value when the memory order is not
 * known) and wB->wM.  `facts` (may be NULL) marks the facts of an
 * inconsistency explanation. */
gx_graph *gx_from_exec(const wmx_exec *x, gx_view view, wmx_model model, bool inits,
                       const verify_result *facts);
/* Marks the node of timeline step `step` (1-based) GX_CUR and those after
 * `pos` GX_FUTURE; node steps come from the session's events. */
void gx_mark_steps(gx_graph *g, const wmx_event *events, int len, int pos);

/* The exploration state of Optimal-DPOR (valid only inside on_execution):
 * the explored path E with the sleep set of every prefix, the pending
 * branches of the wakeup trees and the race that created each. */
gx_graph *gx_from_odpor(const odpor_state *s, const wmx_program *p, long nexec);

/* The recorded traces of `explore` merged into a prefix tree (each leaf
 * names its final state); at most max_nodes nodes. */
gx_graph *gx_from_traces(const ui_exec_list *l, const wmx_program *p, int max_nodes);

/* Lays the graph out with labels of level `zoom`; 0, or -1 with the reason
 * (including Graphviz's own message) in err. */
int gx_layout(gx_graph *g, int zoom, char *err, size_t n);

/* Draws the laid-out graph into r, its top-left corner at graph cell
 * (panx, pany); node `sel` (-1 none) is selected.  Nothing is drawn outside r. */
void gx_draw(const gx_graph *g, ui_screen *s, ui_rect r, int panx, int pany, int sel);

/* The graph as DOT text (no layout), owned by the caller. */
char *gx_dot(const gx_graph *g);
/* Renders to `path` in `format` (dot, svg, png, pdf; NULL: from the file
 * name's extension).  Written to a temporary file next to it, then renamed.
 * 0, or -1 with a message in err. */
int gx_export(const gx_graph *g, const char *path, const char *format, char *err, size_t n);
/* The format a file name asks for, or NULL. */
const char *gx_format_of(const char *path);

/* The last message Graphviz reported ("" none); gx_clear_error() forgets it. */
const char *gx_last_error(void);
void gx_clear_error(void);

/* ---- the graph pane (pane_graph.c) ---- */

extern const ui_pane_ops pane_graph_ops;
typedef struct ui_graph_pane ui_graph_pane;
void ui_graph_free(ui_state *ui);
/* `graph hb|exec|wut|tree [...]` in the REPL (called by cmd_graph). */
int ui_graph_cmd(int argc, char **argv, cmd_ctx *ctx);
/* Shows a ready-made graph (taken over) in the graph pane, zoomed; it is
 * not rebuilt from the session (PGAS mode). */
void ui_graph_show(ui_state *ui, gx_graph *g);
/* `export FILE.svg|png|pdf|dot` */
int ui_export_cmd(int argc, char **argv, cmd_ctx *ctx);

#endif
