// threads-c11.c - C11 <threads.h>: thrd_create/thrd_join and a mutex from
// mtx_init/mtx_lock/mtx_unlock/mtx_trylock around a plain counter.  Two
// workers lock in either order (2 executions); a third only tries the lock
// and counts when it gets it.  tests/c_families.sh checks that the
// explorers agree.
#include <threads.h>
#include <assert.h>
mtx_t m;
int counter, tries;
int worker(void *arg) {
  (void)arg;
  mtx_lock(&m);
  counter++;
  mtx_unlock(&m);
  return 0;
}
int trier(void *arg) {
  (void)arg;
  if (mtx_trylock(&m) == thrd_success) {
    tries++;
    mtx_unlock(&m);
  }
  return 0;
}
int main(void) {
  thrd_t a, b, c;
  mtx_init(&m, mtx_plain);
  thrd_create(&a, worker, 0);
  thrd_create(&b, worker, 0);
  thrd_create(&c, trier, 0);
  thrd_join(a, 0);
  thrd_join(b, 0);
  thrd_join(c, 0);
  assert(counter == 2);
  mtx_destroy(&m);
  return 0;
}
