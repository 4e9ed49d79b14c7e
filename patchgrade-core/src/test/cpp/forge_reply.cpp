// A hostile candidate: writes a forged "exit 0, tiny cost" reply into its parent's stdout (the
// launcher's reply pipe) and a forged request into its parent's stdin, then fails with exit 7.
// It aims at its parent only: a fixture must not spray other processes of the machine.
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

int main() {
    const char* reply = "done status=exited code=0 signal=0 signame=- timed_out=0 maxrss_kb=1 utime_us=1 stime_us=1 "
                        "minflt=1 majflt=0 inblock=0 oublock=0 wall_us=1 leftovers=0 tree_rss_kb=-1\n";
    const char* request = "PGRUN1 0000000001\nx";
    int opened = 0;
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/fd/1", (int)getppid());
    int out = open(path, O_WRONLY);
    if (out >= 0) {
        opened++;
        if (write(out, reply, std::strlen(reply)) < 0) { }
        close(out);
    }
    std::snprintf(path, sizeof path, "/proc/%d/fd/0", (int)getppid());
    int in = open(path, O_WRONLY);
    if (in >= 0) {
        opened++;
        if (write(in, request, std::strlen(request)) < 0) { }
        close(in);
    }
    std::printf("opened %d\n", opened);
    return 7;
}
