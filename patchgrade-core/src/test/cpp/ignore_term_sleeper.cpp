// Ignores SIGTERM and sleeps, so only SIGKILL ends it.
#include <csignal>
#include <cstdio>
#include <unistd.h>

int main() {
    std::signal(SIGTERM, SIG_IGN);
    std::printf("ignoring SIGTERM\n");
    std::fflush(stdout);
    for (;;) pause();
}
