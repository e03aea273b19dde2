// unroll: 2
// peterson.c - C twin of examples/peterson.wmx:
// Peterson's mutual exclusion algorithm (bounded), no fences.
// Expected: the assertion SC: always holds  TSO: can fail  PSO: can fail
// The wait loops are the .wmx `while (...) bound 2 { }`, hence --unroll 2.
// The .wmx has no final condition, so its final states show every variable
// and the registers n; P0_n/P1_n are stored right after the faa (before the
// assert) because a thread whose assertion fails stops there, and the .wmx
// final state of such an execution still shows n.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag0, flag1, turn, incs;
int P0_n, P1_n;

void *P0(void *arg)
{
    atomic_store_explicit(&flag0, 1, memory_order_relaxed);
    atomic_store_explicit(&turn, 1, memory_order_relaxed);
    while (atomic_load_explicit(&flag1, memory_order_relaxed) == 1 &&
           atomic_load_explicit(&turn, memory_order_relaxed) == 1)
        ;
    int n = atomic_fetch_add(&incs, 1);    // enter
    P0_n = n;
    assert(n == 0);                        // nobody else inside
    atomic_fetch_add(&incs, -1);           // leave
    atomic_store_explicit(&flag0, 0, memory_order_relaxed);
    return NULL;
}

void *P1(void *arg)
{
    atomic_store_explicit(&flag1, 1, memory_order_relaxed);
    atomic_store_explicit(&turn, 0, memory_order_relaxed);
    while (atomic_load_explicit(&flag0, memory_order_relaxed) == 1 &&
           atomic_load_explicit(&turn, memory_order_relaxed) == 0)
        ;
    int n = atomic_fetch_add(&incs, 1);
    P1_n = n;
    assert(n == 0);
    atomic_fetch_add(&incs, -1);
    atomic_store_explicit(&flag1, 0, memory_order_relaxed);
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
