// iriw.c - C twin of examples/iriw.wmx (Independent Reads of Independent
// Writes).
// Expected: P2_r0 == 1 && P2_r1 == 0 && P3_r0 == 1 && P3_r1 == 0
// unreachable on SC, TSO and PSO.
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
int P2_r0, P2_r1, P3_r0, P3_r1;

void *P0(void *arg)
{
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    return NULL;
}

void *P1(void *arg)
{
    atomic_store_explicit(&y, 1, memory_order_relaxed);
    return NULL;
}

void *P2(void *arg)
{
    int r0 = atomic_load_explicit(&x, memory_order_relaxed);
    int r1 = atomic_load_explicit(&y, memory_order_relaxed);
    P2_r0 = r0;
    P2_r1 = r1;
    return NULL;
}

void *P3(void *arg)
{
    int r0 = atomic_load_explicit(&y, memory_order_relaxed);
    int r1 = atomic_load_explicit(&x, memory_order_relaxed);
    P3_r0 = r0;
    P3_r1 = r1;
    return NULL;
}

int main(void)
{
    pthread_t t0, t1, t2, t3;
    pthread_create(&t0, NULL, P0, NULL);
    pthread_create(&t1, NULL, P1, NULL);
    pthread_create(&t2, NULL, P2, NULL);
    pthread_create(&t3, NULL, P3, NULL);
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_join(t3, NULL);
    return 0;
}
