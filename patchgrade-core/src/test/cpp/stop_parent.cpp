// A hostile candidate: stops its parent (the launcher) so that the grader hangs, then exits 0.
#include <csignal>
#include <cstdio>
#include <unistd.h>

int main() {
    int result = kill(getppid(), SIGSTOP);
    std::printf("stop %s\n", result == 0 ? "sent" : "refused");
    return 0;
}
