/* verify_bench.c - times VTSO-rf, VPSO-rf and the naive baseline on
 * generated executions (built by bench/verify.sh against libwmxcore.a).
 *
 * An instance: k threads of straight-line code over d variables (stores of
 * fresh values, loads, a few fences), run once on the TSO machine with a
 * random schedule; its events and reads-from form a consistent instance.
 * The inconsistent twin redirects one read to another write of its variable
 * (taking that write's value) so that no order explains it in most cases;
 * the verdict column says what the checker decided.
 * Output: one row per (instance, algorithm), then the fitted growth. */
#include "exec.h"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng = 88172645463325252ULL;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static wmx_program *gen(int k, int n, int d)
{
    wmx_program *p = ir_program_new("bench", "bench.wmx", "wmx");
    const wmx_srcloc L = { 1, 1 };
    for (int v = 0; v < d; v++) {
        char nm[8];
        snprintf(nm, sizeof nm, "v%d", v);
        ir_add_var(p, nm, 1);
    }
    wmx_val val = 1;
    for (int t = 0; t < k; t++) {
        char nm[8];
        snprintf(nm, sizeof nm, "P%d", t);
        ir_add_thread(p, nm);
        int reg = ir_thread_reg(p, t, "r");
        for (int i = 0; i < n / k; i++) {
            unsigned c = rnd(20);
            ir_instr in = ir_instr_init(c < 9 ? I_STORE : c < 19 ? I_LOAD : I_FENCE, L);
            if (in.kind != I_FENCE)
                in.addr.var = (int)rnd((unsigned)d);
            if (in.kind == I_STORE)
                in.e1 = ir_const(p, val++);
            if (in.kind == I_LOAD)
                in.dst = reg;
            ir_add_instr(p, t, &in);
        }
    }
    return p;
}

static wmx_exec *run_once(const wmx_program *p)
{
    wmx_error err;
    wmx_machine *m = machine_new(p, MODEL_TSO, &err);
    void *st = malloc(machine_state_size(m));
    machine_init(m, st);
    wmx_transition *en = malloc((size_t)machine_max_enabled(m) * sizeof *en);
    int cap = 1024, len = 0;
    wmx_event *ev = malloc((size_t)cap * sizeof *ev);
    for (;;) {
        int ne = machine_enabled(m, st, en);
        if (ne == 0)
            break;
        /* prefer steps 2:1 so buffers fill up a little */
        int pick = (int)rnd((unsigned)ne);
        if (en[pick].kind == TR_FLUSH && rnd(3) && en[0].kind == TR_STEP)
            pick = 0;
        if (len == cap) {
            cap *= 2;
            ev = realloc(ev, (size_t)cap * sizeof *ev);
        }
        machine_apply(m, st, &en[pick], &ev[len++]);
    }
    wmx_exec *x = exec_from_events(p, MODEL_TSO, ev, len, &err);
    free(ev);
    free(en);
    free(st);
    machine_free(m);
    return x;
}

/* redirect one read (chosen at random) to another write of its variable */
static void break_one(wmx_exec *x)
{
    for (int tries = 0; tries < 1000; tries++) {
        int r = (int)rnd((unsigned)x->nev);
        if (x->ev[r].kind != X_READ)
            continue;
        int ws[4096], nw = 0;
        for (int w = 0; w < x->nev && nw < 4096; w++)
            if (x->ev[w].kind == X_WRITE && x->ev[w].cell == x->ev[r].cell && w != x->ev[r].rf &&
                x->ev[w].thread != x->ev[r].thread)
                ws[nw++] = w;
        if (nw == 0)
            continue;
        int w = ws[rnd((unsigned)nw)];
        x->ev[r].rf = w;
        x->ev[r].value = x->ev[w].value;
        return;
    }
}

typedef struct row { int k, n; int algo; double t; } row;

int main(int argc, char **argv)
{
    int nmax = argc > 1 ? atoi(argv[1]) : 1000;
    double naive_budget = argc > 2 ? atof(argv[2]) : 2.0;
    const int sizes[] = { 20, 50, 100, 200, 500, 1000, 2000 };
    const char *algos[] = { "VTSO-rf", "VPSO-rf", "naive-tso" };
    row *rows = NULL;
    int nrows = 0;
    printf("%-28s %2s %5s  %-10s %-12s %10s %10s %10s\n", "instance", "k", "n", "algorithm", "verdict", "time(s)", "states", "peakKB");
    for (int k = 2; k <= 4; k++) {
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0] && sizes[si] <= nmax; si++) {
            int n = sizes[si];
            for (int kind = 0; kind < 2; kind++) {
                wmx_program *p = gen(k, n, 3);
                wmx_exec *x = run_once(p);
                if (kind == 1)
                    break_one(x);
                char inst[64];
                snprintf(inst, sizeof inst, "%s-k%d-n%d", kind ? "inconsistent" : "consistent", k, n);
                for (int a = 0; a < 3; a++) {
                    verify_result r;
                    double t0 = now();
                    int rc = 0;
                    if (a == 0)
                        vtso_rf(x, 0, &r);
                    else if (a == 1)
                        vpso_rf(x, 0, &r);
                    else
                        rc = verify_naive(x, MODEL_TSO, (long)(naive_budget * 2e6), &r);
                    double t = now() - t0;
                    const char *verdict = rc < 0 ? "gave-up" : r.consistent ? "consistent" : "inconsistent";
                    struct rusage ru;
                    getrusage(RUSAGE_SELF, &ru);   /* the process's peak so far */
                    printf("%-28s %2d %5d  %-10s %-12s %10.4f %10ld %10ld\n", inst, k, x->nev, algos[a], verdict, t,
                           r.states, ru.ru_maxrss);
                    if (rc == 0 && kind == 0) {
                        rows = realloc(rows, (size_t)(nrows + 1) * sizeof *rows);
                        rows[nrows++] = (row){ k, x->nev, a, t };
                    }
                    verify_result_free(&r);
                }
                exec_free(x);
                ir_program_free(p);
                fflush(stdout);
            }
        }
    }
    /* fitted growth on consistent instances: time ~ c * n^a (least squares
     * on log-log, ignoring times under 10 microseconds) */
    printf("\nfitted growth (consistent instances, time ~ n^a):\n");
    for (int a = 0; a < 3; a++)
        for (int k = 2; k <= 4; k++) {
            double sx = 0, sy = 0, sxx = 0, sxy = 0;
            int m = 0;
            for (int i = 0; i < nrows; i++)
                if (rows[i].algo == a && rows[i].k == k && rows[i].t > 1e-5) {
                    double lx = log((double)rows[i].n), ly = log(rows[i].t);
                    sx += lx; sy += ly; sxx += lx * lx; sxy += lx * ly; m++;
                }
            if (m >= 2 && m * sxx - sx * sx > 1e-9)
                printf("  %-10s k=%d: a = %.2f  (%d points)\n", algos[a], k, (m * sxy - sx * sy) / (m * sxx - sx * sx), m);
            else
                printf("  %-10s k=%d: too few measurable points\n", algos[a], k);
        }
    free(rows);
    return 0;
}
