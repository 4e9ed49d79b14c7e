// Writes the given number of MiB of a fixed pattern to stdout (or stderr with a second argument "err").
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    long mib = argc > 1 ? std::atol(argv[1]) : 1;
    FILE* out = argc > 2 && std::strcmp(argv[2], "err") == 0 ? stderr : stdout;
    static char block[1 << 20];
    for (size_t i = 0; i < sizeof block; ++i) block[i] = static_cast<char>('a' + i % 26);
    for (long i = 0; i < mib; ++i) std::fwrite(block, 1, sizeof block, out);
    return 0;
}
