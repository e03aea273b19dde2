// barrier-cas.c - N threads take a CAS spin lock in turn while N others
// meet at a pthread barrier, then check what the others wrote before it.
// Only the lock's order makes executions: N! complete ones (GenMC's count
// for its barrier test of this shape: 2, 6, 24 for N = 2, 3, 4); the
// arrival order at a barrier makes none.  Failed CAS rounds are blocked.
// tests/c_families.sh checks the counts for N = 2 and 3.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
#ifndef N
#define N 3
#endif
atomic_int lock;
int owner_seen;
pthread_barrier_t meet;
int before[N], who[N], serial;
void *locker(void *arg) {
  (void)arg;
  int expected = 0;
  while (!atomic_compare_exchange_strong(&lock, &expected, 1))
    expected = 0;
  owner_seen++;
  atomic_store(&lock, 0);
  return 0;
}
void *meeter(void *arg) {
  int i = *(int *)arg;
  before[i] = i + 1;
  if (pthread_barrier_wait(&meet) == PTHREAD_BARRIER_SERIAL_THREAD)
    serial++;
  assert(before[(i + 1) % N] == (i + 1) % N + 1);
  return 0;
}
int ids[N];
int main(void) {
  pthread_t l[N], m[N];
  pthread_barrier_init(&meet, 0, N);
  for (int i = 0; i < N; i++) {
    ids[i] = i;
    pthread_create(&l[i], 0, locker, 0);
    pthread_create(&m[i], 0, meeter, &ids[i]);
  }
  for (int i = 0; i < N; i++) {
    pthread_join(l[i], 0);
    pthread_join(m[i], 0);
  }
  assert(owner_seen == N && serial == 1);
  return 0;
}
