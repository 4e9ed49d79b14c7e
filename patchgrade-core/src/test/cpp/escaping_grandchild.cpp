// Leaves a grandchild behind that keeps stdout open: "bg" backgrounds it in the same process group,
// "setsid" double-forks it into its own session. The parent prints and exits 0 at once.
#include <cstdio>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
    bool escape = argc > 1 && std::strcmp(argv[1], "setsid") == 0;
    std::printf("parent done\n");
    std::fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        if (escape) {
            setsid();
            if (fork() != 0) _exit(0);
        }
        sleep(30);
        std::printf("grandchild still here\n");
        _exit(0);
    }
    if (escape) {
        int status;
        waitpid(child, &status, 0);
    }
    return 0;
}
