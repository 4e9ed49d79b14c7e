// A hostile candidate: leaves a daemon (new session, double fork) that writes to the file named by
// its first argument after a delay, when the grade is over; then sleeps for the seconds given second.
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc < 3) return 2;
    pid_t first = fork();
    if (first == 0) {
        setsid();
        if (fork() == 0) {
            sleep(1);
            if (FILE* target = std::fopen(argv[1], "a")) {
                std::fputs("rewritten by a daemon\n", target);
                std::fclose(target);
            }
            _exit(0);
        }
        _exit(0);
    }
    // Waits for the first child as daemon(3) callers do: when this process exits exactly one daemon is
    // left, however late the scheduler runs the first child.
    waitpid(first, nullptr, 0);
    sleep(std::atoi(argv[2]));
    std::printf("ok\n");
    return 0;
}
