// unroll: 3
// tour.c - C twin of examples/tour.wmx: every kind of .wmx statement once.
// The .wmx loops are `while (i < 3) bound 3` and `do ... while (n < 2)
// bound 2`; both run exactly that often, so --unroll 3 covers them.
// P1_prev/P1_ok are stored right after the cas, before the assume and the
// assert, as the .wmx registers are final there.
// Expected: in every final state P1_ok == 1, P1_prev == 1, y == 7, x == 5,
// a[2] == 1, a[3] == 3 (SC, TSO and PSO).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

extern void __VERIFIER_assume(int);

atomic_int x, y = 0, flag;
atomic_int a[4] = {10, 20};    /* a[2] and a[3] start at 0 */
int P1_ok, P1_prev;

void *P0(void *arg)
{
    int k = 2;                                          // thread P0 (k = 2)
    int t = atomic_load_explicit(&x, memory_order_relaxed);
    atomic_store_explicit(&a[k], t + 1, memory_order_relaxed);
    if (atomic_load_explicit(&a[0], memory_order_relaxed) == 10) {
        atomic_store_explicit(&y, 1, memory_order_relaxed);
    } else {
        atomic_store_explicit(&y, 2, memory_order_relaxed);
    }
    int i = 0;
    while (i < 3) {                                     // a[3] = 0 + 1 + 2
        int t3 = atomic_load_explicit(&a[3], memory_order_relaxed);
        atomic_store_explicit(&a[3], t3 + i, memory_order_relaxed);
        i = i + 1;
    }
    int old = atomic_exchange(&flag, 1);                // publish
    (void)old;
    return NULL;
}

void *P1(void *arg)
{
    int r;
    while ((r = atomic_load_explicit(&flag, memory_order_relaxed)) == 0)
        ;                                               // r = await(flag != 0)
    int s = atomic_fetch_add(&x, 5);                    // s = 0, x becomes 5
    int prev = 1;                                       // prev, ok = cas(y, 1, 7)
    int ok = atomic_compare_exchange_strong(&y, &prev, 7);
    P1_prev = prev;
    P1_ok = ok;
    int n = 0;
    do {
        n = n + 1;
    } while (n < 2);
    __VERIFIER_assume(r == 1);
    assert(s == 0 && n == 2);
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
