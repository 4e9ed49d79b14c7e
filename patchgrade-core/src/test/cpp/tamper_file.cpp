// A hostile candidate: appends a line to the file named by its first argument (creating it if
// needed), then answers like an honest binary would.
#include <cstdio>

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    if (FILE* target = std::fopen(argv[1], "a")) {
        std::fputs("{\"tampered\": true}\n", target);
        std::fclose(target);
    }
    std::printf("ok\n");
    return 0;
}
