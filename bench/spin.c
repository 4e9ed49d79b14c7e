/* Spins for the given number of loop iterations and exits: a case whose wall time is all user CPU. */
#include <stdlib.h>

int main(int argc, char **argv) {
    long long n = argc > 1 ? atoll(argv[1]) : 0;
    volatile long long spin = 0;
    for (long long i = 0; i < n; i++) spin += i;
    return 0;
}
