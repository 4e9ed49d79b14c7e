// Forks the given number of children (bounded at 64) that sleep, then exits at once.
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

int main(int argc, char** argv) {
    int count = argc > 1 ? std::atoi(argv[1]) : 8;
    if (count > 64) count = 64;
    for (int i = 0; i < count; ++i) {
        if (fork() == 0) {
            sleep(30);
            _exit(0);
        }
    }
    std::printf("forked %d\n", count);
    return 0;
}
