/* Nidhugg's await intrinsics: an exchange that waits for a condition on the
 * value it replaces, and a load that waits.  Conditions are Nidhugg's bit
 * fields: 8 signed, 4 less, 2 equal, 1 greater. */
#include <pthread.h>
#include <stdatomic.h>
#include <assert.h>
int __VERIFIER_xchg_await_aint(atomic_int *var, int value, int cond, int comp_operand);
int __VERIFIER_load_await_aint(atomic_int *var, int cond, int comp_operand);
#define COND_EQ 0x2
#define COND_NE 0x5
#define COND_SLT 0xc
#define COND_SGE 0xb
atomic_int a, b;
int r1, r2, r3;
void *t1(void *p) { r1 = __VERIFIER_xchg_await_aint(&a, 1, COND_NE, 2); atomic_fetch_add(&b, 1); return p; }
void *t2(void *p) { r2 = __VERIFIER_xchg_await_aint(&a, 2, COND_SLT, 2); atomic_fetch_add(&b, 1); return p; }
void *t3(void *p) { r3 = __VERIFIER_load_await_aint(&b, COND_SGE, 1); assert(r3 >= 1); return p; }
int main(void)
{
    pthread_t x, y, z;
    pthread_create(&x, 0, t1, 0);
    pthread_create(&y, 0, t2, 0);
    pthread_create(&z, 0, t3, 0);
    return 0;
}
