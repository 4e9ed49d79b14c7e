// Prints what a case gave it, so tests can see per-case settings arrive: each argument on a line,
// the PROBE variable, and the working directory; some arguments change its behaviour:
//   --stderr=TEXT  prints TEXT on stderr        --sleep-ms=N  sleeps N ms first
//   --exit=N       exits with N                  --long=N     prints a line of N characters, the last one varying with PROBE_LAST
//   --bump-last    every other argument is printed with its last character one higher (a patch that is off by one, far into a line)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <unistd.h>

int main(int argc, char** argv) {
    int status = 0;
    bool bump = false;
    for (int i = 1; i < argc; i++) {
        bump = bump || std::strcmp(argv[i], "--bump-last") == 0;
    }
    for (int i = 1; i < argc; i++) {
        const char* arg = argv[i];
        if (std::strcmp(arg, "--bump-last") == 0) {
            continue;
        }
        if (std::strncmp(arg, "--sleep-ms=", 11) == 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(arg + 11)));
        } else if (std::strncmp(arg, "--stderr=", 9) == 0) {
            std::fprintf(stderr, "%s\n", arg + 9);
        } else if (std::strncmp(arg, "--exit=", 7) == 0) {
            status = std::atoi(arg + 7);
        } else if (std::strcmp(arg, "--cwd") == 0) {
            char buffer[4096];
            std::printf("cwd=%s\n", getcwd(buffer, sizeof buffer) ? buffer : "?");
        } else if (std::strncmp(arg, "--long=", 7) == 0) {
            int n = std::atoi(arg + 7);
            const char* last = std::getenv("PROBE_LAST");
            std::string line(n > 0 ? n - 1 : 0, 'x');
            std::printf("%s%s\n", line.c_str(), last ? last : "x");
        } else {
            std::string text(arg);
            if (bump && !text.empty()) {
                text.back() = static_cast<char>(text.back() + 1);
            }
            std::printf("arg=%s\n", text.c_str());
        }
    }
    const char* probe = std::getenv("PROBE");
    if (probe) {
        std::printf("PROBE=%s\n", probe);
    }
    return status;
}
