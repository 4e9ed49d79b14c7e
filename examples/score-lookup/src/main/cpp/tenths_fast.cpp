// Candidate: tenths_ref rewritten "to be faster" (one division, no branch on the sign). A behaviour-preserving
// patch: it must print what the frozen reference prints for every input, which `differential` checks.
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    char* end = nullptr;
    long long tenths = std::strtoll(argv[1], &end, 10);
    if (*end != '\0' || end == argv[1]) return 2;
    long long whole = tenths / 10, rest = tenths % 10;
    std::printf("%lld\n", whole + (rest >= 5) - (rest <= -5));
    return 0;
}
