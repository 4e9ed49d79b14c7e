// The differential generator of tenths: prints PATCHGRADE_COUNT cases for PATCHGRADE_SEED as JSON Lines,
// {"id":"gen-17","args":["-1234"]}. Most amounts are small (where rounding half away from zero shows), some
// are large, some are spelled at the edge of a number (tenths exits 2 on most of those, and so must a patch).
//
// Every choice comes from one std::mt19937_64 seeded with PATCHGRADE_SEED, and only its raw output is used:
// std::uniform_int_distribution's algorithm differs between standard libraries, so it would print other
// cases for the same seed on another agent.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <random>

int main() {
    const char* seed = std::getenv("PATCHGRADE_SEED");
    const char* count = std::getenv("PATCHGRADE_COUNT");
    if (seed == nullptr || count == nullptr) {
        std::fprintf(stderr, "tenths_cases: PATCHGRADE_SEED and PATCHGRADE_COUNT must be set\n");
        return 2;
    }
    std::mt19937_64 draw(std::strtoull(seed, nullptr, 10));
    long n = std::strtol(count, nullptr, 10);
    for (long i = 0; i < n; i++) {
        uint64_t kind = draw() % 20;
        uint64_t value = draw();
        if (kind == 0) {
            // Spellings at the edge of a number: tenths exits 2 on most, and reads " 7" and "+7" as 7.
            static const char* const odd[] = {"", "x", "1.5", "--5", "12x", " 7", "+7", "-0"};
            std::printf("{\"id\":\"gen-%ld\",\"args\":[\"%s\"]}\n", i, odd[value % 8]);
        } else if (kind == 1) {
            std::printf("{\"id\":\"gen-%ld\",\"args\":[\"%" PRId64 "\"]}\n", i, static_cast<int64_t>(value % 2000000000001ULL) - INT64_C(1000000000000));
        } else {
            std::printf("{\"id\":\"gen-%ld\",\"args\":[\"%" PRId64 "\"]}\n", i, static_cast<int64_t>(value % 4001) - 2000);
        }
    }
    return 0;
}
