// sb.c - C twin of examples/sb.wmx (Store Buffering).
// Expected: P0_r0 == 0 && P1_r0 == 0 reachable under TSO and PSO, not SC.
#include <pthread.h>
#include <stdatomic.h>

atomic_int x = 0, y = 0;
int P0_r0, P1_r0;

void *P0(void *arg)
{
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    int r0 = atomic_load_explicit(&y, memory_order_relaxed);
    P0_r0 = r0;
    return NULL;
}

void *P1(void *arg)
{
    atomic_store_explicit(&y, 1, memory_order_relaxed);
    int r0 = atomic_load_explicit(&x, memory_order_relaxed);
    P1_r0 = r0;
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
