// Writes bytes that break naive report writers: NUL, an ANSI colour escape, U+FFFE, invalid UTF-8
// and a CDATA terminator, on stdout and stderr. With HOSTILE_VARIANT=changed in its environment
// the "loud" case prints something else, so a digest recorded without it drifts on that case.
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    const char* which = argc > 1 ? argv[1] : "loud";
    if (std::strcmp(which, "quiet") == 0) return 0;
    static const char hostile[] = "nul[\0] esc[\x1b[31mred\x1b[0m] fffe[\xef\xbf\xbe] bad-utf8[\xc3\x28\xff] cdata[]]>] end\n";
    std::fwrite(hostile, 1, sizeof hostile - 1, stdout);
    std::fwrite(hostile, 1, sizeof hostile - 1, stderr);
    const char* variant = std::getenv("HOSTILE_VARIANT");
    if (variant && std::strcmp(which, "loud") == 0) std::printf("variant %s\n", variant);
    return 0;
}
