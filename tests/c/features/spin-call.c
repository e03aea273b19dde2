// spin-call.c - a retry loop that calls functions which only read and
// compute is still a spin loop: a pop whose compare-exchange failed goes
// round again only to wait (GenMC's spin-assume accepts such "clean" calls).
// One push and two pops: 5 complete executions, 2 blocked.
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
atomic_uintptr_t top = 0;
int got[2];
static uintptr_t pointer_of(uintptr_t v) { return v & ~(uintptr_t)1; }
static int is_empty(uintptr_t v) { return pointer_of(v) == 0; }
void *push(void *arg) { (void)arg; atomic_store(&top, 8); return 0; }
void *pop(void *arg) {
  int id = (int)(intptr_t)arg;
  for (;;) {
    uintptr_t t = atomic_load(&top);
    if (is_empty(t)) { got[id] = 0; return 0; }
    if (atomic_compare_exchange_strong(&top, &t, 0)) { got[id] = (int)pointer_of(t); return 0; }
  }
}
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, push, 0);
  pthread_create(&b, 0, pop, (void *)0);
  pthread_create(&c, 0, pop, (void *)1);
  return 0;
}
