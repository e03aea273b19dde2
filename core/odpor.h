/* odpor.h - Optimal-DPOR with wakeup trees, awaits and independent
 * fetch-and-adds (IFAA) under SC: the extended entry point and the data the
 * UI reads while an exploration runs.
 *
 * explore_odpor() is the plain entry point used by
 * explore_run(); explore_odpor_ex() adds introspection: a DOT file of the
 * exploration tree per explored execution (--dump-wut DIR) and a callback
 * that sees the explorer's whole state (current execution, sleep sets and
 * wakeup trees of every prefix) after each maximal execution.
 */
#ifndef WMX_ODPOR_H
#define WMX_ODPOR_H

#include "result.h"

#include <stdio.h>

/* An event as the dependency relation sees it. */
typedef struct odpor_event {
    int thread;
    int index;          /* index of the event in its thread */
    int instr;          /* instruction index */
    int cell;           /* -1 for fences */
    bool writes;        /* store, XCHG, FAA, successful CAS */
    bool reads;
    bool faa_unused;    /* FAA whose loaded value is never used (IFAA) */
    bool await;
} odpor_event;

/* A node of a wakeup tree.  The children of a prefix's root are the threads
 * to explore from it, leftmost first.  `race_e`/`race_e2` name the race (as
 * event ids) whose wakeup sequence created the node (EID_INIT when the node
 * was an arbitrary scheduling choice). */
typedef struct odpor_node {
    int thread;         /* -1 for a root */
    odpor_event ev;
    int child, sibling; /* node indices, -1 = none */
    wmx_eid race_e, race_e2;
    bool blocking_race; /* created by the await (blocking) race analysis */
} odpor_node;

typedef struct odpor_state odpor_state;

/* Read access to a running exploration (valid inside the callback). */
int odpor_depth(const odpor_state *s);                         /* |E| */
const wmx_event *odpor_events(const odpor_state *s);           /* E, |E| events */
/* Sleep set of prefix E[0..i): fills up to max threads into out; returns n. */
int odpor_sleep(const odpor_state *s, int i, odpor_event *out, int max);
/* Root node of the wakeup tree of prefix E[0..i). */
int odpor_wut_root(const odpor_state *s, int i);
const odpor_node *odpor_node_at(const odpor_state *s, int node);
/* Writes the current execution tree (path, sleep sets, wakeup trees) as DOT. */
void odpor_write_dot(const odpor_state *s, FILE *f);

typedef struct odpor_ext {
    const char *dump_dir;      /* non-NULL: write DIR/exec-NNNNNN.dot per maximal execution */
    /* called after race analysis of each maximal execution (may be NULL) */
    void (*on_execution)(const odpor_state *s, void *ud);
    void *ud;
    /* statistics filled in by the run */
    long sleep_blocked;        /* executions cut because every enabled thread slept (should be 0) */
    long inserted;             /* wakeup sequences inserted */
    long races;                /* races analysed */
} odpor_ext;

/* Optimal-DPOR with wakeup trees and awaits (SC only; see odpor.h). */
int explore_odpor(const wmx_program *prog, const explore_opts *opts,
                  explore_result *res, wmx_error *err);

int explore_odpor_ex(const wmx_program *prog, const explore_opts *opts, odpor_ext *ext,
                     explore_result *res, wmx_error *err);

/* Tests (tests/unit/test_wire.c): a random unit of work (schedule,
 * sleepers, wakeup tree, records of this rank, of the receiver and of a
 * third rank) written by rank 0 and read by rank 1 of three (and back)
 * is the same unit; a wakeup sequence for a
 * record rank 1 holds, sent from rank 0, becomes rank 1's unit.  NULL, or
 * what differed.  p needs two threads or more. */
const char *odpor_wire_selftest(const wmx_program *p, unsigned seed);

/* The dependency relation used by odpor (exposed for brute-force tests):
 * events of different threads conflict when they touch the same cell, one
 * writes, and (with ifaa) they are not both FAAs with unused results. */
bool odpor_conflict(const odpor_event *a, const odpor_event *b, bool ifaa);
/* Builds the dependency view of a machine event.  `faa_unused` is a per
 * thread table from odpor_faa_unused_table (may be NULL: no FAA is unused). */
odpor_event odpor_event_of(const wmx_program *p, const wmx_event *ev, bool *const *faa_unused);
/* For every thread and instruction: whether it is an FAA whose result is
 * unused (destination discarded, or a register that is never read and not
 * observed by res).  Free with odpor_faa_unused_free. */
bool **odpor_faa_unused_table(const wmx_program *p, const explore_result *res);
void odpor_faa_unused_free(const wmx_program *p, bool **t);

#endif
