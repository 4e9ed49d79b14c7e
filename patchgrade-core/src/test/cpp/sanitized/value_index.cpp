// Built with -fsanitize=address,undefined (see build-fixtures.sh): prints element N of an eight-element heap
// array, N being the argument plus INDEX_SHIFT from the environment (a patch that is off by some), so that a
// shift past the end is a heap-buffer-overflow that ASan reports; "mul N" multiplies INT_MAX by N (UBSan).
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__attribute__((noinline)) static int element(const int* values, int at) {
    return values[at];
}

int main(int argc, char** argv) {
    if (argc > 2 && std::strcmp(argv[1], "mul") == 0) {
        volatile int factor = std::atoi(argv[2]);
        int product = INT_MAX * factor;
        std::printf("%d\n", product);
        return 0;
    }
    int* values = new int[8];
    for (int i = 0; i < 8; i++) {
        values[i] = i * i;
    }
    const char* shift = std::getenv("INDEX_SHIFT");
    int at = (argc > 1 ? std::atoi(argv[1]) : 0) + (shift ? std::atoi(shift) : 0);
    std::printf("%d\n", element(values, at));
    delete[] values;
    return 0;
}
