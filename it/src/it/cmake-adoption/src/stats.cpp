#include "stats.hpp"

#include <cstdlib>

bool parse_int(const std::string& text, long long& out) {
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
        negative = text[i] == '-';
        ++i;
    }
    if (i == text.size() || text.size() - i > 12) return false;
    long long value = 0;
    for (; i < text.size(); ++i) {
        if (text[i] < '0' || text[i] > '9') return false;
        value = value * 10 + (text[i] - '0');
    }
    out = negative ? -value : value;
    return true;
}

Summary summarize(const std::vector<long long>& values) {
    Summary s;
    for (long long v : values) {
        if (s.count == 0 || v < s.min) s.min = v;
        if (s.count == 0 || v > s.max) s.max = v;
        s.sum += v;
        ++s.count;
    }
    return s;
}

std::string format_mean(const Summary& s) {
    if (s.count == 0) return "none";
    long long n = static_cast<long long>(s.count);
    long long hundredths = std::llabs(s.sum) * 100;
    long long q = (hundredths * 2 + n) / (n * 2);
    std::string digits = std::to_string(q / 100) + "." + (q % 100 < 10 ? "0" : "") + std::to_string(q % 100);
    return (s.sum < 0 && q != 0 ? "-" : "") + digits;
}

std::string format_summary(const Summary& s) {
    if (s.count == 0) return "count=0";
    return "count=" + std::to_string(s.count) + " sum=" + std::to_string(s.sum) + " min=" + std::to_string(s.min) +
           " max=" + std::to_string(s.max) + " mean=" + format_mean(s);
}
