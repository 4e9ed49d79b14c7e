// A hostile candidate: replaces the file its stdout goes to with a link to /dev/zero, so that a
// grader that reads it back reads forever.
#include <cstdio>
#include <unistd.h>

int main() {
    char path[4096];
    ssize_t n = readlink("/proc/self/fd/1", path, sizeof path - 1);
    if (n <= 0) return 2;
    path[n] = '\0';
    int removed = unlink(path);
    int linked = symlink("/dev/zero", path);
    std::fprintf(stderr, "unlink %d symlink %d\n", removed, linked);
    std::printf("ok\n");
    return 0;
}
