// unroll: 4
// spinlock.c - C twin of examples/spinlock.wmx: a test-and-set spinlock on
// atomic_exchange (`while (r != 0) bound 4`, hence --unroll 4), a non-atomic
// increment of count, a plain (relaxed) release store.
// Expected: the assertion and count == 1:
//   SC: holds / unreachable  TSO: holds / unreachable  PSO: can fail / reachable
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int lock, count, done;

void *P0(void *arg)
{
    int r = atomic_exchange(&lock, 1);
    while (r != 0)
        r = atomic_exchange(&lock, 1);
    int c = atomic_load_explicit(&count, memory_order_relaxed);    // critical section
    atomic_store_explicit(&count, c + 1, memory_order_relaxed);
    atomic_store_explicit(&lock, 0, memory_order_relaxed);         // release
    atomic_store_explicit(&done, 1, memory_order_relaxed);
    return NULL;
}

void *P1(void *arg)
{
    int r = atomic_exchange(&lock, 1);
    while (r != 0)
        r = atomic_exchange(&lock, 1);
    int c = atomic_load_explicit(&count, memory_order_relaxed);
    atomic_store_explicit(&count, c + 1, memory_order_relaxed);
    atomic_store_explicit(&lock, 0, memory_order_relaxed);
    while (atomic_load_explicit(&done, memory_order_relaxed) != 1)    // wait for P0
        ;
    int n = atomic_load_explicit(&count, memory_order_relaxed);
    assert(n == 2);                        // both increments are there
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
