# bench/c-gen.sh - the bench families as C programs (pthreads + C11 atomics),
# the programs GenMC and Nidhugg take; sourced by bench/peers.sh and
# tests/c_families.sh.  Each prints the C twin of the .wmx family of the same
# name in bench/rfsmc-gen.sh: the same threads, variables and accesses (all
# relaxed atomics, so the peers see no data race), main creating every
# thread and joining them.

c_head() {
  printf '#include <pthread.h>\n#include <stdatomic.h>\n\n'
}

# c_main N_THREADS NAME...: main creates the threads in order, then joins
c_main() {
  n=$1; shift
  printf 'int main(void)\n{\n  pthread_t t[%d];\n' "$n"
  k=0
  for f in "$@"; do printf '  pthread_create(&t[%d], NULL, %s, NULL);\n' "$k" "$f"; k=$((k + 1)); done
  printf '  for (int i = 0; i < %d; i++)\n    pthread_join(t[i], NULL);\n  return 0;\n}\n' "$n"
}

c_readers() {
  c_head
  printf 'atomic_int x;\n\nvoid *W(void *arg) { atomic_store_explicit(&x, 42, memory_order_relaxed); return NULL; }\n'
  printf 'void *R(void *arg) { int r = atomic_load_explicit(&x, memory_order_relaxed); (void)r; return NULL; }\n\n'
  names="W"; i=1; while [ $i -le "$1" ]; do names="$names R"; i=$((i + 1)); done
  c_main $(($1 + 1)) $names
}

c_lastzero() {
  n=$1
  c_head
  printf 'atomic_int a[%d];\n\n' $((n + 1))
  printf 'void *P0(void *arg)\n{\n  int i = %d;\n  while (atomic_load_explicit(&a[i], memory_order_relaxed) != 0)\n    i--;\n  return NULL;\n}\n\n' "$n"
  printf 'void *P(void *arg)\n{\n  long j = (long)arg;\n  int r = atomic_load_explicit(&a[j - 1], memory_order_relaxed);\n'
  printf '  atomic_store_explicit(&a[j], r + 1, memory_order_relaxed);\n  return NULL;\n}\n\n'
  printf 'int main(void)\n{\n  pthread_t t[%d];\n  pthread_create(&t[0], NULL, P0, NULL);\n' $((n + 1))
  printf '  for (long j = 1; j <= %d; j++)\n    pthread_create(&t[j], NULL, P, (void *)j);\n' "$n"
  printf '  for (int i = 0; i <= %d; i++)\n    pthread_join(t[i], NULL);\n  return 0;\n}\n' "$n"
}

c_lastwrite() {
  c_head
  printf 'atomic_int x;\n\nvoid *P(void *arg) { atomic_store_explicit(&x, (int)(long)arg, memory_order_relaxed); return NULL; }\n\n'
  printf 'int main(void)\n{\n  pthread_t t[%d];\n' "$1"
  printf '  for (long i = 1; i <= %d; i++)\n    pthread_create(&t[i - 1], NULL, P, (void *)i);\n' "$1"
  printf '  for (int i = 0; i < %d; i++)\n    pthread_join(t[i], NULL);\n  return 0;\n}\n' "$1"
}

c_longwriter() {
  c_head
  printf 'atomic_int x;\n\nvoid *w(void *arg)\n{\n  for (int i = 0; i < %d; i++)\n    atomic_store_explicit(&x, 1, memory_order_relaxed);\n  return NULL;\n}\n\n' "$1"
  printf 'void *r(void *arg) { int v = atomic_load_explicit(&x, memory_order_relaxed); (void)v; return NULL; }\n\n'
  c_main 2 w r
}
