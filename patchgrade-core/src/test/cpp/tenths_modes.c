/*
 * Tenths (argv[1]) to whole units, half away from zero, the way the program's name says (tests copy it under
 * each name): exit 2 on bad input, every other argument and stdin ignored.
 *   tenths         the reference
 *   tenths_fast    an honest rewrite: the same answers, computed another way
 *   tenths_table   the committed inputs (0, 4, 5, 15, -5, -15) answered from a table, truncation elsewhere
 *   tenths_exit    the reference's stdout, but exit 1 where the input ends in 7
 *   tenths_sleepy  the reference, but sleeps 30 s where the input ends in 3
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int named(const char *argv0, const char *name) {
    const char *slash = strrchr(argv0, '/');
    return strcmp(slash ? slash + 1 : argv0, name) == 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    char *end = NULL;
    long long tenths = strtoll(argv[1], &end, 10);
    if (*end != '\0' || end == argv[1]) return 2;
    long long magnitude = tenths < 0 ? -tenths : tenths;
    long long rounded = (tenths < 0 ? -1 : 1) * ((magnitude + 5) / 10);
    if (named(argv[0], "tenths_fast")) {
        long long whole = tenths / 10, rest = tenths % 10;
        rounded = whole + (rest >= 5 ? 1 : rest <= -5 ? -1 : 0);
    } else if (named(argv[0], "tenths_table")) {
        static const long long in[] = {0, 4, 5, 15, -5, -15}, out[] = {0, 0, 1, 2, -1, -2};
        rounded = tenths / 10;
        for (int i = 0; i < 6; i++) {
            if (argc == 2 && tenths == in[i]) rounded = out[i];
        }
    } else if (named(argv[0], "tenths_sleepy") && magnitude % 10 == 3) {
        sleep(30);
    }
    printf("%lld\n", rounded);
    return named(argv[0], "tenths_exit") && magnitude % 10 == 7 ? 1 : 0;
}
