/* The floor for one launch: posix_spawn + wait4 of the trivial program, in a C loop.
 * Usage: spawn_floor <program> <launches> [argument]; prints milliseconds per launch. The optional
 * argument is passed to every launch, as a case's argument is. */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    int launches = atoi(argv[2]);
    char *child_argv[] = {argv[1], argc > 3 ? argv[3] : NULL, NULL};
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int i = 0; i < launches; i++) {
        pid_t pid;
        if (posix_spawn(&pid, argv[1], NULL, NULL, child_argv, environ) != 0) return 1;
        int status;
        struct rusage usage;
        wait4(pid, &status, 0, &usage);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double ms = (end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6;
    printf("%.4f\n", ms / launches);
    return 0;
}
