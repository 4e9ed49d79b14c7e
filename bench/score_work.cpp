// The score-lookup driver with WORK_PERMILLE/1000 times the lookups of its "scan" mode: the extra
// lookups go to a sink, so the output is the same. The bench grades these variants against an
// envelope recorded on WORK_PERMILLE=1000 to see which slowdowns each ceiling catches.
#ifndef WORK_PERMILLE
#define WORK_PERMILLE 1000
#endif
#define main score_lookup_main
#include "../examples/score-lookup/src/main/cpp/score_lookup.cpp"
#undef main

int main(int argc, char** argv) {
    std::vector<ScoreRow> rows;
    rows.reserve(256);
    for (std::uint32_t i = 0; i < 256; ++i) rows.push_back({i, static_cast<int>(i % 17)});
    volatile long long sink = 0;
    const int extra = 400000 * (WORK_PERMILLE - 1000) / 1000;
    for (int round = 0; round < extra; ++round) {
        sink = sink + lookup_scan(rows, static_cast<std::uint32_t>((round * 17u) % 1000000u));
    }
    return score_lookup_main(argc, argv);
}
