// A hostile candidate: spends its memory and CPU in a process nobody waits for, so that a launcher
// reading only its own rusage reports it as cheap. Modes: "inline" (the honest baseline), "fork" (a
// child that is never waited for), "sibling" (a clone(CLONE_PARENT) sibling, reparented to our parent).
// Arguments: mode, megabytes to touch, rounds of CPU work.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <csignal>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

static int pipe_fds[2];
static long megabytes;
static long rounds;

static unsigned long work() {
    size_t bytes = (size_t)megabytes << 20;
    char* block = static_cast<char*>(std::malloc(bytes));
    for (size_t i = 0; i < bytes; i += 4096) block[i] = (char)i;
    unsigned long acc = 1;
    for (long r = 0; r < rounds; r++) acc = acc * 6364136223846793005UL + 1442695040888963407UL + (unsigned char)block[(r * 4096) % bytes];
    return acc;
}

static int child(void*) {
    unsigned long result = work();
    if (write(pipe_fds[1], &result, sizeof result) < 0) return 1;
    pause(); // alive and never waited for
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 4) return 2;
    megabytes = std::atol(argv[2]);
    rounds = std::atol(argv[3]);
    unsigned long result;
    if (std::strcmp(argv[1], "inline") == 0) {
        result = work();
    } else {
        if (pipe(pipe_fds) != 0) return 3;
        if (std::strcmp(argv[1], "fork") == 0) {
            if (fork() == 0) return child(nullptr);
        } else {
            static char stack[1 << 16];
            if (clone(child, stack + sizeof stack, CLONE_PARENT | SIGCHLD, nullptr) < 0) return 4;
        }
        if (read(pipe_fds[0], &result, sizeof result) != sizeof result) return 5;
    }
    std::printf("%lu\n", result % 1000);
    return 0;
}
