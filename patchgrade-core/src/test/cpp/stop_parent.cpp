// A hostile candidate: stops its parent (the launcher) so that the grader hangs, then exits 0. In the sandbox
// its parent is outside its PID namespace and has no pid there (getppid() is 0): kill(0, ...) would stop the
// candidate's own process group, so it says there is no parent to stop.
#include <csignal>
#include <cstdio>
#include <unistd.h>

int main() {
    pid_t parent = getppid();
    if (parent == 0) {
        std::printf("stop no parent\n");
        return 0;
    }
    int result = kill(parent, SIGSTOP);
    std::printf("stop %s\n", result == 0 ? "sent" : "refused");
    return 0;
}
