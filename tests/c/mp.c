// mp.c - C twin of examples/mp.wmx (Message Passing).
// Expected: P1_r0 == 1 && P1_r1 == 0 reachable under PSO only.
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
int P1_r0, P1_r1;

void *P0(void *arg)
{
    atomic_store_explicit(&x, 1, memory_order_relaxed);    // data
    atomic_store_explicit(&y, 1, memory_order_relaxed);    // flag
    return NULL;
}

void *P1(void *arg)
{
    int r0 = atomic_load_explicit(&y, memory_order_relaxed);    // flag
    int r1 = atomic_load_explicit(&x, memory_order_relaxed);    // data
    P1_r0 = r0;
    P1_r1 = r1;
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
