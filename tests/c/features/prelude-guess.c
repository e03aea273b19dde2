// prelude-guess.c - main sets up memory before its threads start (a loop
// filling an array, a pointer into it); the threads read that memory, and
// one writes it through the pointer.  wmx folds the set-up into initial
// values and guesses that what nothing writes later can be read at
// translation time; the write through `ptr` proves the guess wrong for
// data[0], so translation starts again without it.  Two traces under SC:
// reader sees 1 (before the write) or 7 (after it).  tests/c_families.sh
// checks the count and that odpor and rfsmc agree.
#include <pthread.h>
#include <stdatomic.h>
int data[4];
int *ptr;
int idx[2];
atomic_int x, y;
void *reader(void *arg) {
  int i = *(int *)arg;
  atomic_store(&x, data[i] + data[3] - 4);   /* data[3] is 4 for ever */
  return 0;
}
void *writer(void *arg) {
  (void)arg;
  *ptr = 7;
  atomic_store(&y, 1);
  return 0;
}
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 4; i++)
    data[i] = i + 1;
  ptr = &data[0];
  idx[0] = 0;
  pthread_create(&t[0], 0, reader, &idx[0]);
  pthread_create(&t[1], 0, writer, 0);
  pthread_join(t[0], 0);
  pthread_join(t[1], 0);
  return 0;
}
