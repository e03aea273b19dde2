// lost-update.c - C twin of examples/lost-update.wmx: x is incremented with
// a separate load and store, y with an atomic fetch-and-add.
// Expected: x == 1 reachable on every model; y == 2 in every final state.
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;

void *P0(void *arg)
{
    int r = atomic_load_explicit(&x, memory_order_relaxed);
    atomic_store_explicit(&x, r + 1, memory_order_relaxed);
    atomic_fetch_add(&y, 1);
    return NULL;
}

void *P1(void *arg)
{
    int r = atomic_load_explicit(&x, memory_order_relaxed);
    atomic_store_explicit(&x, r + 1, memory_order_relaxed);
    atomic_fetch_add(&y, 1);
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
