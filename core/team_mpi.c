/* team_mpi.c - a run's units moved between MPI ranks, the end of the run
 * found by the Dijkstra-Safra token ring, results merged on rank 0.
 *
 * Each rank has a team of its own workers (team.c) and, during a run, one
 * messenger thread: the only thread that calls MPI while the workers run
 * (MPI_THREAD_SERIALIZED).  The messenger
 *   - asks one other rank at a time for work when its team has none (REQ);
 *     a rank asked hands over its oldest queued unit (UNIT), or makes its
 *     busy workers split (team_want) and answers when they have, or says it
 *     has none (NOWORK) when it is idle too or nothing came within 5 ms;
 *   - sends the explorers' own messages (MSG, odpor's wakeup sequences for
 *     a forced node another rank owns);
 *   - spreads a stop (a limit, Ctrl-C/SIGTERM: STOP) and, under
 *     --max-traces, each rank's trace count to rank 0 (TRACES);
 *   - detects the end with Dijkstra and Safra's algorithm (EWD 998): UNIT
 *     and MSG are the basic messages, each rank counts those it sent minus
 *     those it received and turns black when it receives one; a token goes
 *     round the ring 0 -> 1 -> .. -> R-1 -> 0, passed on by a rank only when
 *     it is idle (its workers all wait, nothing queued, nothing to send),
 *     adding the rank's count and colour.  Rank 0 declares the end (DONE)
 *     when the token comes back white to a white, idle rank 0 with the
 *     counts summing to 0: then no rank works and no unit is in flight.
 * After DONE each rank stops sending, the ranks exchange how many messages
 * each sent each (MPI_Alltoall) and receive the control messages still on
 * the way, so that nothing is left unmatched; then every rank sends its
 * result to rank 0 (result_wire.h) on the job's communicator, apart from
 * the run's (whose last control messages a slower rank may still be
 * reading), and rank 0 merges them in rank order. */
#include "team_mpi.h"
#include "result_wire.h"
#include "util.h"

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    TAG_REQ = 1, TAG_NOWORK, TAG_UNIT, TAG_MSG, TAG_TOKEN, TAG_STOP, TAG_TRACES, TAG_DONE,
    TAG_RESULT, TAG_SUMMARY
};

typedef struct pending_send {
    MPI_Request req;
    unsigned char *buf;
} pending_send;

typedef struct posted {
    int to;
    unsigned char *buf;
    size_t len;
} posted;

typedef struct mpi_net {
    team_net pub;
    MPI_Comm world;
    /* one run's */
    MPI_Comm comm;
    pthread_t thread;
    team *t;
    const explore_codec *codec;
    void *ctx;
    explore_shared *shared;
    const explore_opts *opts;
    pthread_mutex_t mu;          /* the outbox, and `closed` */
    posted *outbox;
    int nout, capout;
    bool closed;                 /* stopped: explorers' messages are dropped */
    /* the messenger's own */
    pending_send *sends;
    int nsends, capsends;
    long *sent_to, *recv_from;   /* every message, per rank (the final drain) */
    long count;                  /* Safra: basic messages sent - received */
    bool black;
    bool have_token, token_out;
    long tok_q;
    bool tok_black;
    bool asked;                  /* our REQ is unanswered */
    double asked_at;
    int victim;
    int *thieves;                /* ranks whose REQ waits for an answer */
    int nthieves;
    double thief_since;
    bool stopped, done;
    const char *stop_reason;     /* a stop the messenger saw itself (or NULL) */
    char stop_text[128];
    long traces_sent;            /* under --max-traces: our count as rank 0 knows it */
    long *traces_from;           /* rank 0: each rank's count */
    double next_traces;
    /* what was moved (doc/distributed.md, bench) */
    long units_sent, units_recv, unit_bytes, msgs_sent, msg_bytes;
    double started;
} mpi_net;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

bool team_mpi_launched(void)
{
    static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE" };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return true;
    return false;
}

/* ---- sending ---- */

/* Sends len bytes (taken over: freed when the send completes). */
static void send_bytes(mpi_net *n, int to, int tag, unsigned char *buf, size_t len)
{
    if (n->nsends == n->capsends) {
        n->capsends = n->capsends ? 2 * n->capsends : 16;
        n->sends = wmx_realloc(n->sends, (size_t)n->capsends * sizeof *n->sends);
    }
    pending_send *s = &n->sends[n->nsends++];
    s->buf = buf;
    MPI_Isend(buf, (int)len, MPI_BYTE, to, tag, n->comm, &s->req);
    n->sent_to[to]++;
}

static void send_small(mpi_net *n, int to, int tag, const void *p, size_t len)
{
    unsigned char *buf = wmx_malloc(len ? len : 1);
    if (len)
        memcpy(buf, p, len);
    send_bytes(n, to, tag, buf, len);
}

/* Frees the buffers of completed sends; with wait, waits for them all. */
static void complete_sends(mpi_net *n, bool wait)
{
    int k = 0;
    for (int i = 0; i < n->nsends; i++) {
        int flag = 0;
        if (wait)
            MPI_Wait(&n->sends[i].req, MPI_STATUS_IGNORE), flag = 1;
        else
            MPI_Test(&n->sends[i].req, &flag, MPI_STATUS_IGNORE);
        if (flag)
            free(n->sends[i].buf);
        else
            n->sends[k++] = n->sends[i];
    }
    n->nsends = k;
}

static void post(team_net *tn, int to, const wire *msg)
{
    mpi_net *n = tn->impl;
    pthread_mutex_lock(&n->mu);
    if (!n->closed) {
        if (n->nout == n->capout) {
            n->capout = n->capout ? 2 * n->capout : 16;
            n->outbox = wmx_realloc(n->outbox, (size_t)n->capout * sizeof *n->outbox);
        }
        unsigned char *buf = wmx_malloc(msg->len ? msg->len : 1);
        if (msg->len)
            memcpy(buf, msg->buf, msg->len);
        n->outbox[n->nout++] = (posted){ to, buf, msg->len };
    }
    pthread_mutex_unlock(&n->mu);
}

/* The explorers' messages go out (basic messages: counted). */
static bool flush_outbox(mpi_net *n)
{
    pthread_mutex_lock(&n->mu);
    posted *out = n->outbox;
    int k = n->nout;
    n->outbox = NULL;
    n->nout = n->capout = 0;
    pthread_mutex_unlock(&n->mu);
    for (int i = 0; i < k; i++) {
        n->count++;
        n->msgs_sent++;
        n->msg_bytes += (long)out[i].len;
        send_bytes(n, out[i].to, TAG_MSG, out[i].buf, out[i].len);
    }
    free(out);
    return k > 0;
}

static bool outbox_empty(mpi_net *n)
{
    pthread_mutex_lock(&n->mu);
    bool e = n->nout == 0;
    pthread_mutex_unlock(&n->mu);
    return e;
}

/* ---- stopping ---- */

static void stop_here(mpi_net *n, bool tell)
{
    if (n->stopped)
        return;
    n->stopped = true;
    pthread_mutex_lock(&n->mu);
    n->closed = true;
    for (int i = 0; i < n->nout; i++)
        free(n->outbox[i].buf);
    n->nout = 0;
    pthread_mutex_unlock(&n->mu);
    atomic_store(&n->shared->stop, 1);
    team_abort(n->t);
    if (tell)
        for (int r = 0; r < n->pub.size; r++)
            if (r != n->pub.rank)
                send_small(n, r, TAG_STOP, NULL, 0);
}

/* A stop this rank sees first: its workers' (a limit), a signal, or the
 * run's trace count on rank 0. */
static void check_stop(mpi_net *n)
{
    if (n->stopped)
        return;
    const explore_opts *o = n->opts;
    if ((o->cancel && *o->cancel) || (o->cancel2 && *o->cancel2)) {
        n->stop_reason = "interrupted";
        snprintf(n->stop_text, sizeof n->stop_text, "interrupted (Ctrl-C)");
        stop_here(n, true);
    } else if (n->pub.rank == 0 && o->max_traces > 0 &&
               atomic_load(&n->shared->traces) >= o->max_traces) {
        n->stop_reason = "max-traces";
        snprintf(n->stop_text, sizeof n->stop_text, "--max-traces %ld reached", o->max_traces);
        stop_here(n, true);
    } else if (atomic_load(&n->shared->stop)) {
        stop_here(n, true);     /* a worker's limit: its result says which */
    }
}

/* ---- work stealing ---- */

static void answer_thieves(mpi_net *n, double t)
{
    if (n->nthieves == 0)
        return;
    bool idle = n->stopped || team_passive(n->t);
    while (n->nthieves > 0) {
        void *u = idle ? NULL : team_steal(n->t);
        if (!u) {
            /* nothing now: an idle rank says so at once, a busy one when
             * its workers have not split within 5 ms */
            if (!idle && t - n->thief_since < 0.005)
                break;
            for (int i = 0; i < n->nthieves; i++)
                send_small(n, n->thieves[i], TAG_NOWORK, NULL, 0);
            n->nthieves = 0;
            break;
        }
        wire w;
        wire_init(&w);
        n->codec->encode(u, n->ctx, &w);
        n->codec->drop(u, n->ctx);
        n->count++;
        n->units_sent++;
        n->unit_bytes += (long)w.len;
        send_bytes(n, n->thieves[0], TAG_UNIT, w.buf, w.len);
        memmove(n->thieves, n->thieves + 1, (size_t)(n->nthieves - 1) * sizeof *n->thieves);
        n->nthieves--;
        n->thief_since = t;
    }
    team_want(n->t, n->nthieves > 0 && !n->stopped);
}

static void ask_for_work(mpi_net *n, double t)
{
    if (n->asked || n->stopped || n->done)
        return;
    /* after a refusal, the next rank in turn, not before 0.2 ms */
    if (t - n->asked_at < 0.0002)
        return;
    int r = n->victim;
    send_small(n, r, TAG_REQ, NULL, 0);
    n->asked = true;
    n->asked_at = t;
    do
        n->victim = (n->victim + 1) % n->pub.size;
    while (n->victim == n->pub.rank);
}

/* ---- the token (Dijkstra-Safra) ---- */

static void send_token(mpi_net *n, int to, long q, bool black)
{
    int64_t m[2] = { q, black };
    send_small(n, to, TAG_TOKEN, m, sizeof m);
}

static void handle_token(mpi_net *n, bool idle)
{
    int R = n->pub.size;
    if (n->pub.rank == 0) {
        if (!idle)
            return;
        if (n->have_token) {
            n->have_token = false;
            n->token_out = false;
            if (!n->tok_black && !n->black && n->tok_q + n->count == 0) {
                for (int r = 1; r < R; r++)
                    send_small(n, r, TAG_DONE, NULL, 0);
                n->done = true;
                return;
            }
        }
        if (!n->token_out) {
            n->black = false;
            n->token_out = true;
            send_token(n, 1, 0, false);
        }
        return;
    }
    if (n->have_token && idle) {
        send_token(n, (n->pub.rank + 1) % R, n->tok_q + n->count, n->tok_black || n->black);
        n->black = false;
        n->have_token = false;
    }
}

/* ---- receiving ---- */

static bool receive_one(mpi_net *n)
{
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, n->comm, &flag, &st);
    if (!flag)
        return false;
    int len = 0;
    MPI_Get_count(&st, MPI_BYTE, &len);
    unsigned char *buf = wmx_malloc((size_t)len + 1);
    MPI_Recv(buf, len, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, n->comm, MPI_STATUS_IGNORE);
    int from = st.MPI_SOURCE;
    n->recv_from[from]++;
    wire_reader r;
    wire_reader_init(&r, buf, (size_t)len);
    switch (st.MPI_TAG) {
    case TAG_REQ:
        if (n->stopped || n->done) {
            send_small(n, from, TAG_NOWORK, NULL, 0);
        } else {
            if (n->nthieves == 0)
                n->thief_since = now();
            n->thieves = wmx_realloc(n->thieves, (size_t)(n->nthieves + 1) * sizeof *n->thieves);
            n->thieves[n->nthieves++] = from;
        }
        break;
    case TAG_NOWORK:
        n->asked = false;
        break;
    case TAG_UNIT: {
        n->count--;
        n->black = true;
        n->asked = false;
        n->units_recv++;
        void *u = n->stopped ? NULL : n->codec->decode(&r, n->ctx);
        if (u)
            team_give(n->t, u);
        else if (!n->stopped)
            fprintf(stderr, "wmx: rank %d: a unit of work from rank %d was corrupt\n", n->pub.rank, from);
        break;
    }
    case TAG_MSG:
        n->count--;
        n->black = true;
        if (!n->stopped && n->codec->on_message)
            n->codec->on_message(&r, n->ctx, n->t);
        break;
    case TAG_TOKEN: {
        n->have_token = true;
        n->tok_q = wire_get_i64(&r);
        n->tok_black = wire_get_i64(&r) != 0;
        break;
    }
    case TAG_STOP:
        stop_here(n, false);
        break;
    case TAG_TRACES: {
        long c = wire_get_i64(&r);
        atomic_fetch_add(&n->shared->traces, c - n->traces_from[from]);
        n->traces_from[from] = c;
        break;
    }
    case TAG_DONE:
        n->done = true;
        break;
    default:
        break;
    }
    free(buf);
    return true;
}

static void report_traces(mpi_net *n, double t)
{
    if (n->opts->max_traces <= 0 || n->pub.rank == 0 || n->stopped || t < n->next_traces)
        return;
    n->next_traces = t + 0.001;
    long c = atomic_load(&n->shared->traces);
    if (c != n->traces_sent) {
        int64_t v = c;
        send_small(n, 0, TAG_TRACES, &v, sizeof v);
        n->traces_sent = c;
    }
}

static void nap(double s)
{
    struct timespec ts = { 0, (long)(s * 1e9) };
    nanosleep(&ts, NULL);
}

static void *messenger(void *arg)
{
    mpi_net *n = arg;
    double wait = 0.00002;
    while (!n->done) {
        bool busy = false;
        for (int k = 0; k < 64 && receive_one(n); k++)
            busy = true;
        if (n->done)
            break;
        check_stop(n);
        double t = now();
        if (flush_outbox(n))
            busy = true;
        answer_thieves(n, t);
        report_traces(n, t);
        bool idle = (n->stopped || team_passive(n->t)) && outbox_empty(n);
        if (idle && n->nthieves == 0)
            ask_for_work(n, t);
        handle_token(n, idle);
        complete_sends(n, false);
        if (busy) {
            wait = 0.00002;
        } else {
            nap(wait);
            /* an idle rank polls often (work may come any moment); a busy
             * one backs off to 1 ms, leaving the CPU to its workers */
            double most = idle ? 0.0002 : 0.001;
            wait = wait * 2 < most ? wait * 2 : most;
        }
    }
    team_finish(n->t);
    /* the end: no basic message is in flight; the control messages still
     * on the way are counted and received, so none is left unmatched */
    int R = n->pub.size;
    long *expect = wmx_calloc((size_t)R, sizeof *expect);
    MPI_Alltoall(n->sent_to, 1, MPI_LONG, expect, 1, MPI_LONG, n->comm);
    for (;;) {
        bool left = false;
        for (int r = 0; r < R; r++)
            if (n->recv_from[r] < expect[r])
                left = true;
        complete_sends(n, false);
        if (!left && n->nsends == 0)
            break;
        if (!receive_one(n))
            nap(0.00002);
    }
    free(expect);
    return NULL;
}

/* ---- a run ---- */

static void begin(team_net *tn, team *t, const explore_codec *codec, void *ctx,
                  explore_shared *shared, const explore_opts *opts)
{
    mpi_net *n = tn->impl;
    int R = tn->size;
    MPI_Comm_dup(n->world, &n->comm);
    n->t = t;
    n->codec = codec;
    n->ctx = ctx;
    n->shared = shared;
    n->opts = opts;
    n->closed = false;
    n->count = 0;
    n->black = false;
    n->have_token = n->token_out = false;
    n->asked = false;
    n->asked_at = -1;
    n->victim = (tn->rank + 1) % R;
    n->nthieves = 0;
    n->stopped = n->done = false;
    n->stop_reason = NULL;
    n->traces_sent = 0;
    n->next_traces = 0;
    n->units_sent = n->units_recv = n->unit_bytes = n->msgs_sent = n->msg_bytes = 0;
    n->sent_to = wmx_calloc((size_t)R, sizeof *n->sent_to);
    n->recv_from = wmx_calloc((size_t)R, sizeof *n->recv_from);
    n->traces_from = wmx_calloc((size_t)R, sizeof *n->traces_from);
    n->started = now();
    if (pthread_create(&n->thread, NULL, messenger, n) != 0) {
        fprintf(stderr, "wmx: rank %d: cannot start the messenger thread\n", tn->rank);
        MPI_Abort(n->world, 2);
    }
}

static void end(team_net *tn)
{
    mpi_net *n = tn->impl;
    pthread_join(n->thread, NULL);
    complete_sends(n, true);
}

static int gather(team_net *tn, explore_result *res, int rc, wmx_error *err)
{
    mpi_net *n = tn->impl;
    int R = tn->size;
    if (res->complete && n->stop_reason)
        explore_stop(res, n->stop_reason, "%s", n->stop_text);
    const char *stats = getenv("WMX_NET_STATS");
    if (stats && *stats == '1')
        fprintf(stderr, "wmx: rank %d: %ld units sent (%ld bytes), %ld received, %ld messages (%ld bytes), %.3f s\n",
                tn->rank, n->units_sent, n->unit_bytes, n->units_recv, n->msgs_sent, n->msg_bytes,
                now() - n->started);
    if (tn->rank != 0) {
        wire w;
        wire_init(&w);
        wire_i32(&w, rc);
        wire_str(&w, rc ? err->msg : NULL);
        explore_result_write(&w, res);
        MPI_Send(w.buf, (int)w.len, MPI_BYTE, 0, TAG_RESULT, n->world);
        wire_free(&w);
    } else {
        for (int r = 1; r < R; r++) {
            MPI_Status st;
            MPI_Probe(r, TAG_RESULT, n->world, &st);
            int len = 0;
            MPI_Get_count(&st, MPI_BYTE, &len);
            unsigned char *buf = wmx_malloc((size_t)len + 1);
            MPI_Recv(buf, len, MPI_BYTE, r, TAG_RESULT, n->world, MPI_STATUS_IGNORE);
            wire_reader rd;
            wire_reader_init(&rd, buf, (size_t)len);
            int rrc = wire_get_i32(&rd);
            char *msg = wire_get_str(&rd);
            explore_result other;
            explore_result_init(&other, res->prog, res->model, res->algo);
            bool ok = explore_result_read(&rd, &other) && wire_done(&rd);
            if (rrc != 0 && rc == 0) {
                rc = rrc;
                wmx_error_set(err, res->prog->file, 0, 0, "rank %d: %s", r, msg ? msg : "failed");
            } else if (!ok && rc == 0) {
                rc = -1;
                wmx_error_set(err, res->prog->file, 0, 0, "rank %d sent a corrupt result", r);
            }
            if (ok)
                explore_result_merge(res, &other);
            explore_result_free(&other);
            free(msg);
            free(buf);
        }
        explore_finish(res);
    }
    /* the counts of the merged run, which every rank needs (a C program's
     * wider --unroll runs again on all ranks or on none) */
    static const char *const reasons[] = { "max-traces", "timeout", "interrupted", "memory limit", "team" };
    int64_t reason = -1;
    for (int i = 0; i < 5 && !res->complete; i++)
        if (res->stop_reason && strcmp(res->stop_reason, reasons[i]) == 0)
            reason = i;
    int64_t m[7] = { res->traces, res->blocked, res->bound_cut, res->error_traces, res->complete, reason, rc };
    MPI_Bcast(m, 7, MPI_INT64_T, 0, n->comm);
    if (tn->rank != 0) {
        res->traces = m[0];
        res->blocked = m[1];
        res->bound_cut = m[2];
        res->error_traces = m[3];
        if (!m[4] && res->complete)
            explore_stop(res, m[5] >= 0 ? reasons[m[5]] : "team", "stopped on rank 0's word");
        if (m[6] != 0 && rc == 0) {
            rc = (int)m[6];
            wmx_error_set(err, res->prog->file, 0, 0, "another rank failed");
        }
    }
    MPI_Comm_free(&n->comm);
    free(n->sent_to);
    free(n->recv_from);
    free(n->traces_from);
    free(n->thieves);
    n->thieves = NULL;
    free(n->sends);
    n->sends = NULL;
    n->nsends = n->capsends = 0;
    return rc;
}

/* ---- the job ---- */

team_net *team_mpi_init(int *argc, char ***argv, char *why, size_t whylen)
{
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
        snprintf(why, whylen, "MPI_Init_thread failed");
        return NULL;
    }
    if (provided < MPI_THREAD_SERIALIZED) {
        snprintf(why, whylen, "this MPI library gives no thread support (MPI_THREAD_SERIALIZED needed)");
        MPI_Finalize();
        return NULL;
    }
    mpi_net *n = wmx_calloc(1, sizeof *n);
    MPI_Comm_dup(MPI_COMM_WORLD, &n->world);
    MPI_Comm_rank(n->world, &n->pub.rank);
    MPI_Comm_size(n->world, &n->pub.size);
    pthread_mutex_init(&n->mu, NULL);
    n->pub.begin = begin;
    n->pub.post = post;
    n->pub.end = end;
    n->pub.gather = gather;
    n->pub.impl = n;
    return &n->pub;
}

int team_mpi_finish(team_net *tn, int rc)
{
    mpi_net *n = tn->impl;
    int v = rc;
    if (tn->size > 1) {
        /* polled with naps: a rank with nothing to do (a command that runs
         * on rank 0 alone) must not spin while rank 0 works */
        MPI_Request req;
        MPI_Ibcast(&v, 1, MPI_INT, 0, n->world, &req);
        for (int done = 0; !done;) {
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
            if (!done)
                nap(0.001);
        }
    }
    MPI_Comm_free(&n->world);
    MPI_Finalize();
    pthread_mutex_destroy(&n->mu);
    free(n->outbox);
    free(n);
    return v;
}
