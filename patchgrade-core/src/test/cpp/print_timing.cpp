// Does the argument's millions of steps of work and prints how long they took, as test suites do
// ("42 tests in 0.013742 s"): the output changes from run to run, and more so under Valgrind.
#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    long millions = argc > 1 ? std::atol(argv[1]) : 1;
    auto start = std::chrono::steady_clock::now();
    volatile unsigned long acc = 0;
    for (long i = 0; i < millions * 1000000L; ++i) acc = acc * 31 + static_cast<unsigned long>(i);
    auto took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("result %lu in %.9f s\n", acc & 0xffff, took);
    return 0;
}
