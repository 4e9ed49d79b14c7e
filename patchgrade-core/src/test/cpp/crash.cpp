// Ends the way its argument says: segv, abort, kill (SIGKILL to itself), or exit:<code>.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

int main(int argc, char** argv) {
    const char* how = argc > 1 ? argv[1] : "segv";
    std::fprintf(stderr, "about to %s\n", how);
    if (std::strcmp(how, "segv") == 0) raise(SIGSEGV);
    if (std::strcmp(how, "abort") == 0) std::abort();
    if (std::strcmp(how, "kill") == 0) kill(getpid(), SIGKILL);
    if (std::strncmp(how, "exit:", 5) == 0) return std::atoi(how + 5);
    return 0;
}
