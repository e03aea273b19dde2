// byte-offsets.c - char * arithmetic on pointers read from shared memory:
// memory has one cell per scalar, so C's byte offsets are mapped through the
// types around them.  container_of (both offsetof spellings) steps back into
// the struct the result is cast to, (char *)p + 8 on a long * steps one long,
// and a list head's container_of (a place outside any node) is only compared.
// Every assert fails if a byte were taken for a cell.
#include <pthread.h>
#include <stddef.h>
#include <assert.h>
#define container_of(p, T, m) ((T *)((char *)(p) - offsetof(T, m)))
#define old_container_of(p, T, m) ((T *)((char *)(p) - (size_t)&((T *)0)->m))
struct link { struct link *next; };
struct node { int key; int pad; long weight; struct link l; };
struct link head = { &head };
struct node n1 = { 1, 0, 10, { &head } };
long pair[2] = { 7, 9 };
long *_Atomic lp;
long sum, seen;
void *walker(void *a) {
  (void)a;
  for (struct node *p = container_of(head.next, struct node, l); &p->l != &head;
       p = old_container_of(p->l.next, struct node, l))
    sum += p->key + p->weight;
  long *q = lp;
  if (q) {
    seen = *(long *)((char *)q + 8);
    assert(*(long *)((char *)(q + 1) - 8) == 7);
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, walker, 0);
  head.next = &n1.l;
  lp = &pair[0];
  pthread_join(t, 0);
  assert(sum == 0 || sum == 11);
  assert(seen == 0 || seen == 9);
  return 0;
}
