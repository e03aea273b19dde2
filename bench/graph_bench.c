/* graph_bench.c - layout + draw time of execution graphs (ui/graph.c) for
 * generated executions of about N events: build the graph, lay it out with
 * Graphviz dot, draw it into a 200x60 screen.  Prints one row per size
 * with the best of a few runs and the process's peak memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "exec.h"
#include "graph.h"

static const wmx_srcloc L = { 1, 1 };
static unsigned long rng = 88172645463325252UL;

static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* nt threads of len loads/stores over 4 variables, run randomly under TSO */
static wmx_exec *gen(int nev, wmx_program **pp)
{
    int nt = 4, len = nev / nt;
    wmx_program *p = ir_program_new("bench", "bench.wmx", "wmx");
    const char *vn[] = { "a", "b", "c", "d" };
    for (int v = 0; v < 4; v++)
        ir_add_var(p, vn[v], 1);
    wmx_val val = 1;
    for (int t = 0; t < nt; t++) {
        char nm[16];
        snprintf(nm, sizeof nm, "P%d", t);
        ir_add_thread(p, nm);
        for (int i = 0; i < len; i++) {
            ir_instr in = ir_instr_init(rnd(2) ? I_STORE : I_LOAD, L);
            in.addr.var = (int)rnd(4);
            if (in.kind == I_STORE) {
                in.e1 = ir_const(p, val++);
            } else {
                char reg[16];
                snprintf(reg, sizeof reg, "r%d", i % 8);
                in.dst = ir_thread_reg(p, t, reg);
            }
            ir_add_instr(p, t, &in);
        }
    }
    wmx_error err = { 0 };
    wmx_machine *m = machine_new(p, MODEL_TSO, &err);
    void *st = malloc(machine_state_size(m));
    machine_init(m, st);
    wmx_transition *en = malloc((size_t)machine_max_enabled(m) * sizeof *en);
    int cap = 4 * nev + 16, n = 0;
    wmx_event *ev = malloc((size_t)cap * sizeof *ev);
    for (;;) {
        int k = machine_enabled(m, st, en);
        if (k == 0 || n == cap)
            break;
        machine_apply(m, st, &en[rnd((unsigned)k)], &ev[n++]);
    }
    wmx_exec *x = exec_from_events(p, MODEL_TSO, ev, n, &err);
    free(ev);
    free(en);
    free(st);
    machine_free(m);
    *pp = p;
    return x;
}

int main(int argc, char **argv)
{
    int sizes[] = { 50, 200, 500 };
    int runs = argc > 1 ? atoi(argv[1]) : 3;
    printf("%-8s %-7s %-7s %-10s %-10s %-10s %s\n", "events", "nodes", "edges", "build ms", "layout ms",
           "draw ms", "total ms (best of runs)");
    ui_screen s = { 0 };
    scr_resize(&s, 200, 60);
    s.unicode = true;
    for (int k = 0; k < 3; k++) {
        wmx_program *p;
        wmx_exec *x = gen(sizes[k], &p);
        double best = 1e9, bb = 0, bl = 0, bd = 0;
        int nn = 0, ne = 0;
        for (int r = 0; r < runs; r++) {
            double t0 = now();
            gx_graph *g = gx_from_exec(x, GX_HB, MODEL_TSO, true, NULL);
            double t1 = now();
            char err[600];
            if (gx_layout(g, 0, err, sizeof err) < 0) {
                fprintf(stderr, "graph_bench: %s\n", err);
                return 1;
            }
            double t2 = now();
            ui_rect rect = { 0, 0, 200, 60 };
            gx_draw(g, &s, rect, g->W / 3, g->H / 3, 0);
            double t3 = now();
            if (t3 - t0 < best) {
                best = t3 - t0;
                bb = t1 - t0;
                bl = t2 - t1;
                bd = t3 - t2;
            }
            nn = g->nn;
            ne = g->ne;
            gx_free(g);
        }
        printf("%-8d %-7d %-7d %-10.1f %-10.1f %-10.1f %.1f%s\n", x->nev, nn, ne, bb * 1e3, bl * 1e3, bd * 1e3,
               best * 1e3, sizes[k] == 200 ? (best < 0.1 ? "  (target < 100 ms: ok)" : "  (target < 100 ms: MISSED)") : "");
        exec_free(x);
        ir_program_free(p);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak memory: %ld KB\n", ru.ru_maxrss);
    scr_free(&s);
    return 0;
}
