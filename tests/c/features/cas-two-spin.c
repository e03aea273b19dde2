// cas-two-spin.c - a spin loop whose condition is two compare-exchanges
// joined by &&: it goes round only when both failed, so it waits like a
// loop of loads (the && leaves a phi that wmx follows edge by edge).  The
// writer counts x and y up to 3; the waiter leaves when x or y is 3 at the
// moment it tries.  4 complete executions: its x exchange reads x = 3
// (one), or it reads x = 0, 1 or 2 and its y exchange then reads y = 3
// (three).  GenMC counts its 42-store version of this test the same way
// (43).  tests/c_families.sh checks the count.
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y;
void *writer(void *arg) {
  (void)arg;
  for (int i = 1; i <= 3; i++) {
    atomic_store(&x, i);
    atomic_store(&y, i);
  }
  return 0;
}
void *waiter(void *arg) {
  (void)arg;
  int rx = 3, ry = 3;
  while (!atomic_compare_exchange_strong(&x, &rx, 7) && !atomic_compare_exchange_strong(&y, &ry, 7)) {
    rx = 3;
    ry = 3;
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, waiter, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
