// Spends user CPU in a loop whose length is the argument (millions of iterations); prints the result.
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    long millions = argc > 1 ? std::atol(argv[1]) : 100;
    volatile unsigned long acc = 0;
    for (long i = 0; i < millions * 1000000L; ++i) acc = acc * 31 + static_cast<unsigned long>(i);
    std::printf("%lu\n", acc & 0xffff);
    return 0;
}
