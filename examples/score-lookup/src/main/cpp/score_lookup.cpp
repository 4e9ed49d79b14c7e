// The score-lookup driver: "scan" walks a small table per lookup; "cache" is the model's "faster"
// patch, an unbounded unordered_map that prints the same total while its RSS grows with every id.
// "heavy" burns extra CPU for the same answer, "hang" never returns, "crash" dies of SIGSEGV.
#include <csignal>
#include <cstdint>
#include <iostream>
#include <string>
#include <unistd.h>
#include <unordered_map>
#include <vector>

struct ScoreRow {
    std::uint32_t id;
    int score;
};

static int lookup_scan(const std::vector<ScoreRow>& rows, std::uint32_t id) {
    for (const auto& row : rows) {
        if (row.id == id) return row.score;
    }
    return -1;
}

static int lookup_unbounded_cache(const std::vector<ScoreRow>& rows, std::uint32_t id) {
    static std::unordered_map<std::uint32_t, int> cache;
    auto it = cache.find(id);
    if (it != cache.end()) return it->second;
    int score = lookup_scan(rows, id);
    cache.emplace(id, score);
    return score;
}

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "scan";
    if (mode == "hang") {
        for (;;) pause();
    }
    if (mode == "crash") raise(SIGSEGV);
    std::vector<ScoreRow> rows;
    rows.reserve(256);
    for (std::uint32_t i = 0; i < 256; ++i) rows.push_back({i, static_cast<int>(i % 17)});
    const int passes = mode == "heavy" ? 8 : 1;
    long long acc = 0;
    for (int pass = 0; pass < passes; ++pass) {
        acc = 0;
        for (int round = 0; round < 400000; ++round) {
            std::uint32_t id = static_cast<std::uint32_t>((round * 17u) % 1000000u);
            acc += mode == "cache" ? lookup_unbounded_cache(rows, id) : lookup_scan(rows, id);
        }
    }
    std::cout << acc << "\n";
    return 0;
}
