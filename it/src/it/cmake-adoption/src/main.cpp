// stats N...: prints the count, sum, min, max and mean of its integer arguments.
// stats --workload K: the same over K numbers of its own (a fixed sequence), for timing and memory.
#include "stats.hpp"

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    std::vector<long long> values;
    if (argc == 3 && std::string(argv[1]) == "--workload") {
        long long k = 0;
        if (!parse_int(argv[2], k) || k < 0) {
            std::fprintf(stderr, "stats: --workload wants a count, not %s\n", argv[2]);
            return 2;
        }
        unsigned long long state = 42;
        for (long long i = 0; i < k; ++i) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            values.push_back(static_cast<long long>(state >> 40) % 2001 - 1000);
        }
    } else {
        for (int i = 1; i < argc; ++i) {
            long long v = 0;
            if (!parse_int(argv[i], v)) {
                std::fprintf(stderr, "stats: not an integer: %s\n", argv[i]);
                return 2;
            }
            values.push_back(v);
        }
    }
    std::printf("%s\n", format_summary(summarize(values)).c_str());
    return 0;
}
