// Writes to stdout until something stops it.
#include <cstdio>
#include <cstring>

int main() {
    static char line[4096];
    std::memset(line, 'y', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    for (;;) std::fwrite(line, 1, sizeof line, stdout);
}
