// 2+2w.c - C twin of examples/2+2w.wmx (2+2W: two writes on each side).
// Expected: x == 1 && y == 1 finally: reachable under PSO only.
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;

void *P0(void *arg)
{
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    atomic_store_explicit(&y, 2, memory_order_relaxed);
    return NULL;
}

void *P1(void *arg)
{
    atomic_store_explicit(&y, 1, memory_order_relaxed);
    atomic_store_explicit(&x, 2, memory_order_relaxed);
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
