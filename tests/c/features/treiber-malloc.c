// treiber-malloc.c - a Treiber stack: nodes from malloc, CAS retry loops in
// inlined push/pop, NULL checks on pointers read from shared memory.
// tests/c_families.sh checks that odpor and rfsmc agree on it.
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <assert.h>
struct node { int val; struct node *_Atomic next; };
struct node *_Atomic top;
int popped[2];
void push(int v) {
  struct node *n = malloc(sizeof *n);
  n->val = v;
  struct node *t;
  do { t = atomic_load(&top); n->next = t; } while (!atomic_compare_exchange_strong(&top, &t, n));
}
int pop(void) {
  struct node *t, *nx;
  do { t = atomic_load(&top); if (!t) return -1; nx = t->next; } while (!atomic_compare_exchange_strong(&top, &t, nx));
  return t->val;
}
void *pusher(void *a) { push((int)(long)a); return 0; }
void *popper(void *a) { popped[(long)a] = pop(); return 0; }
int main() {
  pthread_t t[4];
  pthread_create(&t[0], 0, pusher, (void *)1);
  pthread_create(&t[1], 0, pusher, (void *)2);
  pthread_create(&t[2], 0, popper, (void *)0);
  pthread_create(&t[3], 0, popper, (void *)1);
  for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
  assert(popped[0] != popped[1] || popped[0] == -1);
  return 0;
}
