// cas-nested.c - a CAS retry loop through an inlined function with three
// returns, thread ids passed by value, a thread created by a thread and
// joined there.  tests/c_families.sh checks that odpor and rfsmc agree.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
atomic_int cnt, flag;
int res[3];
int try_inc(void) {
  int old = atomic_load(&cnt);
  if (old >= 2) return -1;
  if (atomic_compare_exchange_strong(&cnt, &old, old + 1)) return old;
  return -2;
}
void *child(void *arg) { atomic_store(&flag, 1); return 0; }
void *worker(void *arg) {
  long id = (long)arg;
  int r;
  do { r = try_inc(); } while (r == -2);
  res[id] = r;
  if (id == 0) { pthread_t c; pthread_create(&c, 0, child, 0); pthread_join(c, 0); }
  return 0;
}
int main() {
  pthread_t t[3];
  for (long i = 0; i < 3; i++) pthread_create(&t[i], 0, worker, (void *)i);
  for (int i = 0; i < 3; i++) pthread_join(t[i], 0);
  assert(atomic_load(&cnt) == 2);
  assert(flag == 1);
  return 0;
}
