// Summarises the numbers it is given on one long line, the way a real report tool does; the
// checksum comes last, so a change to it lies far past the first 60 characters.
// With no numbers it prints its usage on stderr and exits 2.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: report N...\n");
        return 2;
    }
    std::vector<long> values;
    for (int i = 1; i < argc; i++) {
        values.push_back(std::atol(argv[i]));
    }
    long total = 0;
    unsigned long checksum = 0;
    for (long v : values) {
        total += v;
        checksum = checksum * 31 + static_cast<unsigned long>(v);
    }
#ifdef PATCHED
    checksum += 1;  // the patch folds one value twice
#endif
    std::sort(values.begin(), values.end());
    std::printf("summary: items=%zu total=%ld average=%.2f median=%ld max=%ld checksum=0x%lx\n", values.size(), total,
                static_cast<double>(total) / values.size(), values[values.size() / 2], values.back(), checksum & 0xffff);
    return 0;
}
