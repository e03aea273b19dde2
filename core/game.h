/* game.h - TSO safety games (seed 002, arXiv 2309.02862).
 *
 * A game file (.game) gives processes as labelled transition systems over
 * wr(x,d), rd(x,d), mf and skip.  Player A keeps every process out of its
 * final states, player B tries to reach one; each may flush store buffers
 * before and/or after her own instruction (the 16 update variants).
 *
 * The solver builds the reachable position graph (with explicit update
 * sub-phases, see game.c) and computes both winning regions by a backward
 * attractor.  Everything here is pure: no globals, no output. */
#ifndef WMX_GAME_H
#define WMX_GAME_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

enum { GAME_NEVER = 0, GAME_BEFORE = 1, GAME_AFTER = 2, GAME_ALWAYS = 3 };  /* bit set */
enum { GAME_A = 0, GAME_B = 1 };
typedef enum { GOP_WR, GOP_RD, GOP_MF, GOP_SKIP } game_op;

typedef struct game_trans {
    int from, to;
    game_op op;
    int var, val;             /* val indexes game_def.dom */
} game_trans;

typedef struct game_proc {
    char *name;
    int nstates;
    char **states;
    int init;
    unsigned char *final;     /* [nstates] */
    int ntrans;
    game_trans *trans;        /* numbered 1..ntrans on screen, file order */
} game_proc;

typedef struct game_def {
    char *name;               /* from `name`, else NULL */
    int nvars;
    char **vars;
    int *init;                /* [nvars] value indexes */
    int ndom;
    long *dom;                /* value index -> integer */
    int nprocs;
    game_proc *procs;
} game_def;

#define GAME_MAX_PROCS 32
#define GAME_MAX_K 32

game_def *game_parse(const char *text, size_t len, const char *file, wmx_error *err);
game_def *game_load(const char *path, wmx_error *err);
void game_free(game_def *g);
const char *game_update_name(int u);
int game_update_parse(const char *s);            /* -1 if unknown */
/* never/never: no buffer ever flushes, so the finite collapse is exact */
int game_variant_exact(int a_update, int b_update);
/* The most writes any process can make, over every path of its transition
 * system from its start state; -1 when a reachable cycle holds a write.
 * No buffer can hold more, so the game bounded by this K (at least 1) is
 * the unbounded game itself, in every variant. */
int game_write_bound(const game_def *g);
/* How the variant is decided exactly: 0 by the finite collapse, K > 0 as
 * the K-bounded game (K from game_write_bound), -1 only by bounds. */
int game_exact_bound(const game_def *g, int a_update, int b_update);

typedef struct game_opts {
    int a_update, b_update;   /* GAME_NEVER .. GAME_ALWAYS */
    int first;                /* GAME_A or GAME_B */
    int k;                    /* buffer bound; 0 = unbounded (exact variants only) */
    uint64_t max_positions;   /* 0 = no limit */
    volatile sig_atomic_t *cancel;
    /* called every 65536 positions; non-zero return stops the build */
    int (*progress)(uint64_t positions, void *ud);
    void *ud;
} game_opts;

void game_opts_init(game_opts *o);

/* Edge labels: kind in the top 2 bits, then process, then transition. */
enum { GE_INSTR = 0, GE_FLUSH = 1, GE_END = 2, GE_PASS = 3 };
#define GE_KIND(l) ((unsigned)(l) >> 14)
#define GE_PROC(l) (((unsigned)(l) >> 8) & 0x3f)
#define GE_TRANS(l) ((unsigned)(l) & 0xff)

/* Position phases: S starts a turn; P after own updates before the
 * instruction; Q after the instruction, updating before ending the turn. */
enum { GP_S = 0, GP_P = 1, GP_Q = 2 };

typedef struct game_graph {
    const game_def *g;
    game_opts o;
    int collapse;             /* buffers kept as last write per variable */
    int slots;                /* buffer slots per process */
    int keylen;
    uint32_t n, cap;
    uint8_t *keys;            /* n * keylen */
    uint32_t *hash;
    uint32_t hcap;
    uint32_t *soff;           /* [n+1] successor offsets */
    uint32_t *succ;
    uint16_t *lab;            /* edge labels, parallel to succ */
    uint32_t nedges, ecap;
    /* successors of the position being expanded, interned as a batch
     * (their hash slots prefetched first: the build is memory bound) */
    uint8_t *bkeys;
    uint16_t *blab;
    uint64_t *bhash;
    int bn, bcap;
    uint32_t *poff, *pred;    /* predecessor lists */
    /* solution */
    uint8_t *winB;            /* 1 if B wins from the position */
    uint32_t *rank;           /* B's attractor rank (UINT32_MAX in A's region) */
    uint32_t *strat;          /* chosen edge index (into succ) or UINT32_MAX */
    uint32_t nreach;          /* positions reachable after pass resolution */
    int limited;              /* the build stopped at a limit */
    double build_s, solve_s;
} game_graph;

/* Builds the reachable graph from the initial position. 0 ok, -1 limit hit. */
int game_build(game_graph *G, const game_def *g, const game_opts *o);
/* Both regions and both strategies by backward attractor (linear). */
void game_solve(game_graph *G);
void game_graph_free(game_graph *G);

/* Independent checks (not used by the solver): the naive fixpoint over
 * successors only, and a strategy checker.  Return 0 when all is well. */
uint8_t *game_solve_naive(const game_graph *G);
int game_check_strategy(const game_graph *G, char *why, size_t n);

/* Position helpers. */
int game_owner(const game_graph *G, uint32_t v);
int game_phase(const game_graph *G, uint32_t v);
int game_is_target(const game_graph *G, uint32_t v);
/* Human-readable position / move text. */
void game_pos_str(const game_graph *G, uint32_t v, wmx_strbuf *b);
void game_move_str(const game_graph *G, uint16_t lab, wmx_strbuf *b);
void game_trans_str(const game_def *g, int p, int t, wmx_strbuf *b);

/* Successors of a position given as a key, with labels: for play mode. */
typedef struct game_move {
    uint16_t lab;
    uint32_t to;              /* index in the graph */
} game_move;
int game_moves(const game_graph *G, uint32_t v, game_move *out, int max);

#endif
