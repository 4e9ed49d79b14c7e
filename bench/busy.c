/* Keeps one core busy for the given number of seconds: the noisy neighbour of the envelope bench. */
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
    int seconds = argc > 1 ? atoi(argv[1]) : 60;
    time_t end = time(NULL) + seconds;
    volatile unsigned long spin = 0;
    while (time(NULL) < end) {
        for (int i = 0; i < 1000000; i++) spin += i;
    }
    return 0;
}
