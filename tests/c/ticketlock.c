// ticketlock.c - C twin of examples/ticketlock.wmx: atomic_fetch_add hands
// out tickets, a spin loop waits for ours (the .wmx await), the release is a
// plain (relaxed) store.
// Expected: count == 1 reachable under PSO only.
#include <pthread.h>
#include <stdatomic.h>

atomic_int next, serving, count;

void *P0(void *arg)
{
    int my = atomic_fetch_add(&next, 1);                               // take a ticket
    while (atomic_load_explicit(&serving, memory_order_relaxed) != my) // wait for our turn
        ;
    int c = atomic_load_explicit(&count, memory_order_relaxed);        // critical section
    atomic_store_explicit(&count, c + 1, memory_order_relaxed);
    atomic_store_explicit(&serving, my + 1, memory_order_relaxed);     // release
    return NULL;
}

void *P1(void *arg)
{
    int my = atomic_fetch_add(&next, 1);
    while (atomic_load_explicit(&serving, memory_order_relaxed) != my)
        ;
    int c = atomic_load_explicit(&count, memory_order_relaxed);
    atomic_store_explicit(&count, c + 1, memory_order_relaxed);
    atomic_store_explicit(&serving, my + 1, memory_order_relaxed);
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
