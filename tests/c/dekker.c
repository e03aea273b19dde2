// unroll: 2
// dekker.c - C twin of examples/dekker.wmx: Dekker's mutual exclusion
// algorithm, bounded (`while (flag[1] == 1) bound 2`, hence --unroll 2; the
// await inside becomes a spin loop, which the bound does not restrict in
// effect: its failed spins change nothing).
// Expected: the assertion SC: always holds  TSO: can fail  PSO: can fail;
// incs == 0 reachable on every model.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag[2], turn, incs;

void *P0(void *arg)
{
    atomic_store_explicit(&flag[0], 1, memory_order_relaxed);
    while (atomic_load_explicit(&flag[1], memory_order_relaxed) == 1) {
        if (atomic_load_explicit(&turn, memory_order_relaxed) != 0) {
            atomic_store_explicit(&flag[0], 0, memory_order_relaxed);
            while (atomic_load_explicit(&turn, memory_order_relaxed) != 0)
                ;
            atomic_store_explicit(&flag[0], 1, memory_order_relaxed);
        }
    }
    int n = atomic_fetch_add(&incs, 1);    // enter the critical section
    assert(n == 0);                        // mutual exclusion
    atomic_fetch_add(&incs, -1);           // leave it
    atomic_store_explicit(&turn, 1, memory_order_relaxed);
    atomic_store_explicit(&flag[0], 0, memory_order_relaxed);
    return NULL;
}

void *P1(void *arg)
{
    atomic_store_explicit(&flag[1], 1, memory_order_relaxed);
    while (atomic_load_explicit(&flag[0], memory_order_relaxed) == 1) {
        if (atomic_load_explicit(&turn, memory_order_relaxed) != 1) {
            atomic_store_explicit(&flag[1], 0, memory_order_relaxed);
            while (atomic_load_explicit(&turn, memory_order_relaxed) != 1)
                ;
            atomic_store_explicit(&flag[1], 1, memory_order_relaxed);
        }
    }
    int n = atomic_fetch_add(&incs, 1);
    assert(n == 0);
    atomic_fetch_add(&incs, -1);
    atomic_store_explicit(&turn, 0, memory_order_relaxed);
    atomic_store_explicit(&flag[1], 0, memory_order_relaxed);
    return NULL;
}

int main(void)
{
    pthread_t t0, t1;
    pthread_create(&t0, NULL, P0, NULL);
    pthread_create(&t1, NULL, P1, NULL);
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);
    return 0;
}
