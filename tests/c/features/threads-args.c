// threads-args.c - main writes before it creates threads (they wait for
// pthread_create), thread arguments point into a local array of main,
// -DN sets the thread count.  tests/c_families.sh checks that odpor and
// rfsmc agree on it.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
#ifndef N
#define N 3
#endif
atomic_int x;
int seen[N];
void *thread_n(void *arg) {
  int id = *((int *)arg);
  seen[id] = atomic_fetch_add_explicit(&x, 1, memory_order_acq_rel);
  return NULL;
}
int main() {
  pthread_t t[N];
  int ids[N];
  atomic_store(&x, 10);
  for (int i = 0; i < N; i++) { ids[i] = i; pthread_create(&t[i], NULL, thread_n, &ids[i]); }
  for (int i = 0; i < N; i++) pthread_join(t[i], NULL);
  assert(atomic_load(&x) == 10 + N);
  return 0;
}
