#pragma once
#include <string>
#include <vector>

struct Summary {
    std::size_t count = 0;
    long long sum = 0;
    long long min = 0;
    long long max = 0;
};

// Accepts an optional sign and decimal digits only, so that "12x" and "" are errors rather than 12 and 0.
bool parse_int(const std::string& text, long long& out);
Summary summarize(const std::vector<long long>& values);
// The mean to two decimals, rounded half away from zero in integer arithmetic (no locale, no float).
std::string format_mean(const Summary& s);
std::string format_summary(const Summary& s);
