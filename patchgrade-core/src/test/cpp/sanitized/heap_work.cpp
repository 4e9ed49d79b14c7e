// Built with -fsanitize=address,undefined (see build-fixtures.sh): N thousand rounds over a heap buffer, each
// access checked by ASan and each signed multiply by UBSan, then the checksum. The time of a sanitizer build
// with none of its startup or checks left out.
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
    long rounds = argc > 1 ? std::atol(argv[1]) : 1;
    std::vector<int> buffer(4096, 1);
    long sum = 0;
    for (long r = 0; r < rounds * 1000; ++r) {
        for (std::size_t i = 0; i < 64; ++i) {
            std::size_t at = (static_cast<std::size_t>(r) * 67 + i * 31) % buffer.size();
            buffer[at] = (buffer[at] * 3 + static_cast<int>(i)) % 1000003;
            sum += buffer[at];
        }
    }
    std::printf("%ld\n", sum % 1000003);
    return 0;
}
