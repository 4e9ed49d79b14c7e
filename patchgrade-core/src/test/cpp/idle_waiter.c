/*
 * Attack fixture: makes a CPU-bound run look load-free. The work runs in a second thread; the
 * main thread (whose /proc/<pid>/schedstat the helper reads) drops to SCHED_IDLE and spins on the
 * same CPU, so it is runnable yet waits on the run queue for nearly the whole wall time.
 * Usage: idle_waiter <cpu-ms of work>
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static atomic_int done;
static long work_ms;

static long long cpu_now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

static void *work(void *arg) {
    (void)arg;
    long long until = cpu_now_us() + work_ms * 1000LL;
    volatile unsigned long x = 0;
    while (cpu_now_us() < until) for (int i = 0; i < 10000; i++) x += i;
    atomic_store(&done, 1);
    return NULL;
}

int main(int argc, char **argv) {
    work_ms = argc > 1 ? atol(argv[1]) : 1000;
    cpu_set_t one;
    CPU_ZERO(&one);
    cpu_set_t allowed;
    sched_getaffinity(0, sizeof allowed, &allowed);
    for (int c = 0; c < CPU_SETSIZE; c++) if (CPU_ISSET(c, &allowed)) { CPU_SET(c, &one); break; }
    sched_setaffinity(0, sizeof one, &one); /* inherited by the worker */
    pthread_t t;
    pthread_create(&t, NULL, work, NULL);
    struct sched_param p = {0};
    sched_setscheduler(0, SCHED_IDLE, &p); /* the main thread only */
    while (!atomic_load(&done)) { }
    printf("done\n");
    return 0;
}
