// The frozen reference: tenths to whole units, rounding half away from zero. Exit 2 on bad input.
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    char* end = nullptr;
    long long tenths = std::strtoll(argv[1], &end, 10);
    if (*end != '\0' || end == argv[1]) return 2;
    long long sign = tenths < 0 ? -1 : 1;
    long long mag = tenths < 0 ? -tenths : tenths;
    std::printf("%lld\n", sign * ((mag + 5) / 10));
    return 0;
}
