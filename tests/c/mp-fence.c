// mp-fence.c - C twin of examples/mp-fence.wmx (MP with a fence between the
// two writes).
// Expected: P1_r0 == 1 && P1_r1 == 0 unreachable on SC, TSO and PSO.
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
int P1_r0, P1_r1;

void *P0(void *arg)
{
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    atomic_store_explicit(&y, 1, memory_order_relaxed);
    return NULL;
}

void *P1(void *arg)
{
    int r0 = atomic_load_explicit(&y, memory_order_relaxed);
    int r1 = atomic_load_explicit(&x, memory_order_relaxed);
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
