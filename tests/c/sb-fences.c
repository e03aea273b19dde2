// sb-fences.c - C twin of examples/sb-fences.wmx (SB with a full fence
// between the write and the read in each thread).
// Expected: P0_r0 == 0 && P1_r0 == 0 unreachable on SC, TSO and PSO.
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
int P0_r0, P1_r0;

void *P0(void *arg)
{
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    int r0 = atomic_load_explicit(&y, memory_order_relaxed);
    P0_r0 = r0;
    return NULL;
}

void *P1(void *arg)
{
    atomic_store_explicit(&y, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
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
