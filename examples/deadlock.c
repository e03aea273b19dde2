// deadlock.c - two threads take two mutexes in opposite orders.
//
// Each thread locks one mutex, then the other.  When both have taken their
// first mutex, each waits for the other's: a deadlock.  wmx explores every
// order and lists where the threads of a blocked execution stop, with the
// shortest trace into the deadlock; taking the mutexes in the same order in
// both threads removes it.
//
//   wmx explore examples/deadlock.c --model sc
//   (in the interactive explorer: until deadlock)
#include <pthread.h>

pthread_mutex_t a, b;
int balance;

void *deposit(void *arg)
{
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    balance += 10;
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return arg;
}

void *withdraw(void *arg)
{
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    balance -= 10;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return arg;
}

int main(void)
{
    pthread_t p, q;
    pthread_create(&p, NULL, deposit, NULL);
    pthread_create(&q, NULL, withdraw, NULL);
    pthread_join(p, NULL);
    pthread_join(q, NULL);
    return 0;
}
