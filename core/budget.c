/* budget.c - limits polled by explorers: cancel flag, trace count, time,
 * memory. */
#include "budget.h"

#include <math.h>
#include <ctype.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <stdatomic.h>

/* The coarse clock (the kernel's tick, a few ms) costs a few ns against
 * tens for the precise one: cheap enough to read on every poll, so the time
 * between two real checks does not depend on how long a poll takes. */
static double coarse_now(void)
{
#ifdef CLOCK_MONOTONIC_COARSE
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts) == 0)
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
    return explore_now();
}

double explore_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void explore_clock_start(explore_clock *c, const explore_opts *o)
{
    double now = explore_now();
    /* the timeout covers the whole command when the caller says when it began */
    c->start = o && o->started > 0 && o->started <= now ? o->started : now;
    c->next_check = coarse_now();
    c->next_progress = now + 0.1;
    c->next_mem = now;
    c->polls = 0;
    c->reported = 0;
    c->charged = 0;
}

static void publish_traces(explore_clock *c, const explore_opts *o, long found)
{
    if (found != c->reported) {
        atomic_fetch_add_explicit(&o->shared->traces, found - c->reported, memory_order_relaxed);
        c->reported = found;
    }
}

bool explore_should_stop(explore_clock *c, const explore_opts *o, explore_result *res, int depth)
{
    if (!res->complete)
        return true;
    if ((o->cancel && *o->cancel) || (o->cancel2 && *o->cancel2)) {
        explore_stop(res, "interrupted", "interrupted (Ctrl-C)");
        return true;
    }
    long found = res->traces + res->blocked;
    if (o->shared) {
        /* a parallel run: the others' traces count, and one's stop is all's */
        if (atomic_load_explicit(&o->shared->stop, memory_order_relaxed)) {
            explore_stop(res, "team", "another worker stopped");
            return true;
        }
        /* The shared count is written only when --max-traces needs it
         * exact, or in batches: a write per trace bounced its cache line
         * between the workers millions of times a second (naive on
         * lastzero-5 was slower on two workers than on one).  The slow path
         * below also publishes, for the progress line. */
        if (o->max_traces > 0 || found - c->reported >= 4096)
            publish_traces(c, o, found);
        if (o->max_traces > 0)
            found = atomic_load_explicit(&o->shared->traces, memory_order_relaxed);
    }
    if (o->max_traces > 0 && found >= o->max_traces) {
        explore_stop(res, "max-traces", "--max-traces %ld reached", o->max_traces);
        return true;
    }
    /* even the coarse clock costs ~5% of a fast exploration on a virtual
     * machine (vDSO falls back to a slower path): read it every 8th poll */
    if ((++c->polls & 7) != 0)
        return false;
    if (coarse_now() < c->next_check)
        return false;
    return explore_check_limits(c, o, res, depth);
}

/* Reads the resident set size: true (res stopped) past the budget.  Every
 * 10 ms while far below it; nearer, at every check (a few µs each, a
 * clock tick apart), since one step can allocate hundreds of MiB a second:
 * --max-memory 64M stopped rfsmc at 197 MiB (issue 47). */
static bool memory_over(explore_clock *c, const explore_opts *o, explore_result *res, double now)
{
    size_t rss = explore_rss();
    c->next_mem = now + (rss < o->max_memory / 2 ? 0.01 : 0);
    c->charged = 0;
    if (rss <= o->max_memory)
        return false;
    char a[32], b[32];
    explore_stop(res, "memory limit", "memory limit %s reached (resident %s%s)",
                 explore_format_size(o->max_memory, a, sizeof a),
                 explore_format_size(rss, b, sizeof b), explore_memory_hint(o));
    return true;
}

bool explore_charge(explore_clock *c, const explore_opts *o, explore_result *res, size_t bytes)
{
    if (o->max_memory == 0)
        return false;
    if (!res->complete)
        return true;
    c->charged += bytes;
    /* a 32nd of the budget between two reads: the overshoot stays ~3% */
    if (c->charged < o->max_memory / 32)
        return false;
    return memory_over(c, o, res, explore_now());
}

bool explore_check_limits(explore_clock *c, const explore_opts *o, explore_result *res, int depth)
{
    if (!res->complete)
        return true;
    double now = explore_now();
    c->next_check = coarse_now() + 0.001;
    if (o->shared)
        publish_traces(c, o, res->traces + res->blocked);
    if (o->timeout_s > 0 && now - c->start >= o->timeout_s) {
        explore_stop(res, "timeout", "timeout after %g s", o->timeout_s);
        return true;
    }
    if (o->max_memory > 0 && now >= c->next_mem && memory_over(c, o, res, now))
        return true;
    if (o->progress && now >= c->next_progress) {
        explore_progress pr = { res->traces, res->blocked, res->events, depth, now - c->start };
        o->progress(&pr, o->ud);
        c->next_progress = now + 0.1;
    }
    return false;
}

bool explore_reserve(explore_clock *c, const explore_opts *o, explore_result *res, size_t bytes)
{
    (void)c;
    if (o->max_memory == 0 || bytes < ((size_t)1 << 24))
        return false;           /* small blocks: the periodic RSS check is enough */
    size_t rss = explore_rss();
    if (rss + bytes <= o->max_memory && bytes <= o->max_memory)
        return false;
    char a[32], b2[32], c2[32];
    explore_stop(res, "memory limit", "memory limit %s reached (resident %s, %s more needed%s)",
                 explore_format_size(o->max_memory, a, sizeof a),
                 explore_format_size(rss, b2, sizeof b2),
                 explore_format_size(bytes, c2, sizeof c2), explore_memory_hint(o));
    return true;
}

size_t explore_rss(void)
{
    /* /proc/self/statm: size resident ... in pages; one read() is cheap */
    int fd = open("/proc/self/statm", O_RDONLY);
    if (fd < 0)
        return 0;
    char buf[128];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    unsigned long long size, resident;
    if (sscanf(buf, "%llu %llu", &size, &resident) != 2)
        return 0;
    long page = sysconf(_SC_PAGESIZE);
    return (size_t)resident * (size_t)(page > 0 ? page : 4096);
}

int explore_parse_size(const char *s, size_t *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v) || v < 0)
        return -1;
    double mult = 1;
    switch (toupper((unsigned char)*end)) {
    case '\0': break;
    case 'K': mult = 1024.0; end++; break;
    case 'M': mult = 1024.0 * 1024; end++; break;
    case 'G': mult = 1024.0 * 1024 * 1024; end++; break;
    case 'T': mult = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: return -1;
    }
    /* accept "512MB", "512MiB", "2GB" too */
    if (mult > 1 && (*end == 'i' || *end == 'I'))
        end++;
    if (mult > 1 && (*end == 'b' || *end == 'B'))
        end++;
    if (*end != '\0')
        return -1;
    double bytes = v * mult;
    if (bytes >= 1.8e19)
        return -1;
    *out = (size_t)bytes;
    return 0;
}

const char *explore_format_size(size_t n, char *buf, size_t len)
{
    if (n >= (size_t)1 << 30)
        snprintf(buf, len, "%.1f GiB", (double)n / (double)((size_t)1 << 30));
    else if (n >= (size_t)1 << 20)
        snprintf(buf, len, "%.0f MiB", (double)n / (double)((size_t)1 << 20));
    else
        snprintf(buf, len, "%zu bytes", n);
    return buf;
}
