/* thread_memo.h - a thread's runs, remembered by the values its reads return.
 *
 * Under the SC interpreter a thread's next event depends only on its own
 * state and, for a read, on the value the read returns.  So the runs of one
 * thread form a tree: a node is the thread after some events (its own part
 * of the state saved), an edge the next event, and a node whose next
 * instruction reads has one child per value read.  An explorer that
 * rebuilds many executions from scratch (rfsmc builds every alternative's
 * fixed part that way) walks the tree and runs the interpreter only on a
 * miss.  The memo owns its nodes; node numbers stay valid until the next
 * thread_memo_trim.
 */
#ifndef WMX_THREAD_MEMO_H
#define WMX_THREAD_MEMO_H

#include "machine.h"

typedef struct thread_memo thread_memo;

typedef struct thread_memo_node {
    wmx_event ev;          /* the event of the edge into this node (its rf is
                              the source it had when first run: callers set it) */
    wmx_val key;           /* the value read on that edge (reads) */
    int32_t child;         /* first child, -1 when none yet */
    int32_t sibling;       /* the parent's next child, -1 at the end */
    int32_t cell;          /* the next instruction's cell, when it reads */
    int8_t status;         /* the thread's thread_status here */
    int8_t reads;          /* the next instruction reads (load, await, RMW) */
    int8_t enabled;        /* the edge: 0 when an await fails with `key` */
} thread_memo_node;

/* A memo over `sc` (an SC machine, borrowed) that keeps at most about
 * max_bytes of nodes (see thread_memo_trim). */
thread_memo *thread_memo_new(const wmx_machine *sc, size_t max_bytes);
void thread_memo_free(thread_memo *tm);

/* Forgets every node but the roots when the memo holds more than its
 * max_bytes; call only while no node number is held. */
void thread_memo_trim(thread_memo *tm);

/* Counts the trims that forgot nodes: a node number kept from before a
 * change of generation means nothing. */
unsigned thread_memo_generation(const thread_memo *tm);

/* Thread t at its start (after its first local instructions). */
int thread_memo_root(const thread_memo *tm, int t);
const thread_memo_node *thread_memo_node_of(const thread_memo *tm, int t, int n);

/* The node after thread t's next event from node n, its read (if the next
 * instruction reads) returning v, written by src; -1 when the step is not
 * enabled there (an await whose condition fails with v).  Node n's status
 * must be TS_RUNNING. */
int thread_memo_step(thread_memo *tm, int t, int n, wmx_val v, wmx_eid src);

/* Writes node n's saved part of thread t into state (a state of `sc`). */
void thread_memo_load(const thread_memo *tm, int t, int n, void *state);

#endif
