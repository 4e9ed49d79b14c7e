// Allocates the given number of MiB and touches every page, so peak RSS grows by about that much.
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    long mb = argc > 1 ? std::atol(argv[1]) : 0;
    size_t bytes = static_cast<size_t>(mb) << 20;
    char* block = static_cast<char*>(std::malloc(bytes ? bytes : 1));
    for (size_t i = 0; i < bytes; i += 4096) block[i] = static_cast<char>(i);
    long sum = 0;
    for (size_t i = 0; i < bytes; i += 4096) sum += block[i];
    std::printf("touched %ld MiB (%ld)\n", mb, sum & 0xff);
    std::free(block);
    return 0;
}
