// Candidate: truncates toward zero, so 15 -> 1 and -15 -> -1.
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    char* end = nullptr;
    long long tenths = std::strtoll(argv[1], &end, 10);
    if (*end != '\0' || end == argv[1]) return 2;
    std::printf("%lld\n", tenths / 10);
    return 0;
}
