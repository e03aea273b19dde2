// spin-xchg.c - spin loops whose only writes are exchanges: a
// test-and-test-and-set lock whose exchange sits in a helper function.  A
// time round the outer loop whose exchange read 1 and wrote 1 changed
// nothing, so it is only waiting (GenMC's spin-assume blocks it); wmx makes
// the exchange wait for a value that leaves the loop or changes something
// (an exchange-await), so no run blocks: 4 complete executions for 2
// threads (-DTAS: a plain test-and-set lock, 2; -DCAS: the try is a
// compare-exchange, GenMC's spinlock, which becomes a lock: 4).
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
atomic_int lock;
int inside, total;
#ifdef CAS
static int try_acquire(void) { int e = 0; return !atomic_compare_exchange_strong(&lock, &e, 1); }
#else
static int try_acquire(void) { return atomic_exchange(&lock, 1); }
#endif
static void acquire(void) {
  for (;;) {
#ifndef TAS
    while (atomic_load(&lock) != 0)
      ;
#endif
    if (!try_acquire())
      return;
  }
}
void *worker(void *arg) {
  (void)arg;
  acquire();
  assert(inside == 0);
  inside = 1;
  total++;
  inside = 0;
  atomic_store(&lock, 0);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(total == 2);
  return 0;
}
