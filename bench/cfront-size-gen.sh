# bench/cfront-size-gen.sh - C programs that grow in one dimension only, for
# bench/cfront_size.sh and tests/hostile.sh (issue 47 point 4): the front
# end's cost must grow linearly with each.  Sourced; each prints a program.

cs_head() {
  printf '#include <pthread.h>\n#include <stdatomic.h>\n\natomic_int x;\n'
}

# cs_main: main starts P, reads x, joins
cs_main() {
  printf 'int main(void)\n{\n  pthread_t t;\n  pthread_create(&t, NULL, P, NULL);\n'
  printf '  int r = atomic_load_explicit(&x, memory_order_relaxed);\n  (void)r;\n  pthread_join(t, NULL);\n  return 0;\n}\n'
}

# cs_fields N: a global struct of N int fields, two of them written
cs_fields() {
  cs_head
  printf 'struct big {\n'
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "  int f%d;\n", i }'
  printf '};\nstruct big g;\n\n'
  printf 'void *P(void *arg)\n{\n  g.f0 = 1;\n  g.f%d = 2;\n' $(($1 - 1))
  printf '  atomic_store_explicit(&x, 1, memory_order_relaxed);\n  return NULL;\n}\n\n'
  cs_main
}

# cs_globals N: N int globals, the first and last written
cs_globals() {
  cs_head
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "int g%d;\n", i }'
  printf '\nvoid *P(void *arg)\n{\n  g0 = 1;\n  g%d = 2;\n' $(($1 - 1))
  printf '  atomic_store_explicit(&x, 1, memory_order_relaxed);\n  return NULL;\n}\n\n'
  cs_main
}

# cs_functions N: N functions, each a store of its own, all called by P
cs_functions() {
  cs_head
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
    printf "void f%d(void) { atomic_store_explicit(&x, %d, memory_order_relaxed); }\n", i, i }'
  printf '\nvoid *P(void *arg)\n{\n'
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "  f%d();\n", i }'
  printf '  return NULL;\n}\n\n'
  cs_main
}

# cs_statements N: one function of N stores
cs_statements() {
  cs_head
  printf '\nvoid *P(void *arg)\n{\n'
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "  atomic_store_explicit(&x, %d, memory_order_relaxed);\n", i }'
  printf '  return NULL;\n}\n\n'
  cs_main
}
