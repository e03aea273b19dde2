// unroll: 3
// mp-spin.c - C twin of examples/mp-spin.wmx: message passing where the
// reader spins on the flag (`while (flag == 0) bound 3 { }`, hence --unroll 3).
// Expected: P1_d == 0 reachable under PSO only.
#include <pthread.h>
#include <stdatomic.h>

atomic_int data, flag;
int P1_d;

void *P0(void *arg)
{
    atomic_store_explicit(&data, 42, memory_order_relaxed);
    atomic_store_explicit(&flag, 1, memory_order_relaxed);
    return NULL;
}

void *P1(void *arg)
{
    while (atomic_load_explicit(&flag, memory_order_relaxed) == 0)
        ;
    int d = atomic_load_explicit(&data, memory_order_relaxed);
    P1_d = d;
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
