// thread-local.c - _Thread_local and __thread globals: each thread has its
// own copy, which starts from the initializer (not from what main stored in
// its own copy), and an address one thread publishes reaches that thread's
// copy.  Every assert here fails if the copies were one shared variable.
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
#include <stdint.h>
_Thread_local int counter = 10;
__thread int mine;
int *_Atomic published;
atomic_int go;
int seen;
void *worker(void *arg) {
  int id = (int)(intptr_t)arg;
  assert(counter == 10);
  counter += id;
  mine = id + 1;
  if (id == 0) {
    atomic_store(&published, &mine);
  } else {
    int *p = atomic_load(&published);
    if (p)
      seen = *p;               /* worker 0's copy: 1 */
  }
  if (atomic_load(&go))        /* a branch on shared memory: after it the */
    mine = mine + 0;           /* copies are real variables */
  assert(mine == id + 1);
  assert(counter == 10 + id);
  return 0;
}
int main(void) {
  counter = 5;
  pthread_t a, b;
  pthread_create(&a, 0, worker, (void *)0);
  pthread_create(&b, 0, worker, (void *)1);
  atomic_store(&go, 1);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 5 && mine == 0);
  assert(seen == 0 || seen == 1);
  return 0;
}
