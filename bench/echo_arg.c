/* The trivial candidate of the scale bench: prints its argument, so every case has its own stdout digest. */
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc > 1) puts(argv[1]);
    return 0;
}
