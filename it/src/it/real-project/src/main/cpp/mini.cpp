// A tiny script runner standing in for a real interpreter (think of lua running a test script).
// Each line of the script is one statement:
//   print TEXT   prints TEXT            add A B    prints A + B (int: overflows are undefined behaviour)
//   env NAME     prints $NAME            sleep MS   sleeps MS milliseconds
//   fail TEXT    prints "<script path>:<line>: TEXT" on stderr and exits 1
// A script that cannot be opened is reported with its absolute path, as real programs do.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>

static std::string absolute(const std::string& path) {
    if (!path.empty() && path[0] == '/') {
        return path;
    }
    char cwd[4096];
    return std::string(getcwd(cwd, sizeof cwd) ? cwd : ".") + "/" + path;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: mini SCRIPT\n");
        return 2;
    }
#ifdef WARN
    std::fprintf(stderr, "mini: warning: the 'add' statement is deprecated\n");
#endif
    std::ifstream in(argv[1]);
    if (!in) {
        std::fprintf(stderr, "mini: cannot open %s\n", absolute(argv[1]).c_str());
        return 1;
    }
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        number++;
        std::istringstream words(line);
        std::string op;
        words >> op;
        std::string rest;
        std::getline(words >> std::ws, rest);
        if (op == "print") {
            std::printf("%s\n", rest.c_str());
        } else if (op == "add") {
            int a = 0;
            int b = 0;
            std::istringstream(rest) >> a >> b;
            int sum = a + b;
#ifdef PATCHED
            if (sum > 100) {
                sum -= 1;  // the patch's off-by-one
            }
#endif
            std::printf("%d\n", sum);
        } else if (op == "env") {
            const char* value = std::getenv(rest.c_str());
            std::printf("%s=%s\n", rest.c_str(), value ? value : "(unset)");
        } else if (op == "sleep") {
            std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(rest.c_str())));
        } else if (op == "fail") {
            std::fprintf(stderr, "%s:%d: %s\n", argv[1], number, rest.c_str());
            return 1;
        }
    }
    return 0;
}
