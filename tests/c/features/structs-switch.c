// structs-switch.c - struct arguments through a global array, a mutex, an
// inlined function with several returns, a switch on a value read from
// shared memory, SV-COMP's __VERIFIER_assert/reach_error.  The second
// assert fails (10 + 20 < 40).  tests/c_families.sh checks that odpor,
// rfsmc and naive agree on it.
#include <pthread.h>
#include <assert.h>
extern void abort(void);
void reach_error() { assert(0); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error();abort();} } return; }
pthread_mutex_t m;
int data = 0;
pthread_t t1, t2;
struct arg { int id; int *out; };
int outs[2];
struct arg args[2] = { {1, &outs[0]}, {2, &outs[1]} };
int classify(int v) { if (v > 3) return 2; if (v > 1) return 1; return 0; }
void *thr(void *p) {
  struct arg *a = p;
  pthread_mutex_lock(&m);
  data += a->id;
  int d = data;
  pthread_mutex_unlock(&m);
  switch (classify(d)) { case 0: *a->out = 10; break; case 1: *a->out = 20; break; default: *a->out = 30; }
  return 0;
}
int main() {
  pthread_mutex_init(&m, 0);
  pthread_create(&t1, 0, thr, &args[0]);
  pthread_create(&t2, 0, thr, &args[1]);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  __VERIFIER_assert(data == 3);
  __VERIFIER_assert(outs[0] + outs[1] >= 40);
  return 0;
}
