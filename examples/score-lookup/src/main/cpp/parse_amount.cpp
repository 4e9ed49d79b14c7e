// parse_amount, the known-good build: prints cents for an amount, exit 1 for input it rejects.
#include <charconv>
#include <iostream>
#include <string_view>

int parse_amount(std::string_view s) {
    double v = 0.0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || ptr != s.data() + s.size()) return -1;
    if (v < 0 || v > 1e7) return -1;
    return static_cast<int>(v * 100.0 + 0.5);
}

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    int c = parse_amount(argv[1]);
    if (c < 0) return 1;
    std::cout << c << "\n";
    return 0;
}
