/*
 * Red-team candidate: caches an answer between runs and hides its cost.
 *   keyring-store VALUE   stores VALUE as key "pg-answer" in the user keyring (@u)
 *   keyring-load          prints what a previous run stored there, or "none"
 *   persistent-store VALUE / persistent-load   the same through the user's persistent keyring
 *   vsock                 opens an AF_VSOCK socket (not confined by the network namespace), prints
 *                         "vsock-open" if it could; it connects nowhere
 *   tw-store VALUE / tw-load   16 bits in TIME_WAIT sockets of the shared network namespace: a bit
 *                         set is a loopback port that the next run cannot bind
 *   metrics-store N       a TCP connection to 127.0.0.N, which the kernel remembers in tcp_metrics
 *   userns N              holds N user namespaces at once (one per child), prints how many it got:
 *                         each is charged to the caller's host-wide quota (user.max_user_namespaces)
 *   unix-connect PATH     connects to a unix socket on the host file system (a daemon outside the
 *                         sandbox: docker, dbus, a database...), prints "connected" if it could
 *   slot-store VALUE / slot-load   VALUE kept on the stdout file itself (an xattr and its access
 *                         time), for a later run that is given the same file again (truncated)
 *   sigchld-ign MS        ignores SIGCHLD, burns MS ms of CPU in a child (auto-reaped by the kernel,
 *                         so its rusage reaches nobody), waits for it to go, prints "answer"
 *   sigchld-ign-xonly MS  the same, the child first exec'ing a copy of this program that it cannot
 *                         read (mode 0111 in /tmp): the exec makes it undumpable, which detaches it
 *                         from inherited perf counters
 *   burn MS               burns MS ms of CPU
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define KEY_SPEC_USER_KEYRING -4
#define KEYCTL_READ 11
#define KEYCTL_GET_PERSISTENT 22

static long ring(const char *mode) {
    if (strncmp(mode, "persistent", 10) == 0) return syscall(SYS_keyctl, KEYCTL_GET_PERSISTENT, -1, KEY_SPEC_USER_KEYRING);
    return KEY_SPEC_USER_KEYRING;
}

static int tcp_socket(const char *address, int port, struct sockaddr_in *to) {
    memset(to, 0, sizeof *to);
    to->sin_family = AF_INET;
    to->sin_port = htons((unsigned short)port);
    inet_pton(AF_INET, address, &to->sin_addr);
    return socket(AF_INET, SOCK_STREAM, 0);
}

/* A connection to address:port whose accepting side closes first, so its port stays in TIME_WAIT. */
static int connect_and_close(const char *address, int port) {
    struct sockaddr_in to;
    int listener = tcp_socket(address, port, &to);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(listener, (struct sockaddr *)&to, sizeof to) != 0 || listen(listener, 1) != 0) return 0;
    struct sockaddr_in ignored;
    int client = tcp_socket(address, port, &ignored);
    if (connect(client, (struct sockaddr *)&to, sizeof to) != 0) return 0;
    int accepted = accept(listener, NULL, NULL);
    char block[8192];
    memset(block, 'x', sizeof block);
    for (int i = 0; i < 32; i++) {
        if (write(client, block, sizeof block) < 0 || read(accepted, block, sizeof block) < 0) break;
    }
    close(accepted);
    char byte;
    if (read(client, &byte, 1) < 0) { }
    close(client);
    close(listener);
    return 1;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    const char *mode = argv[1];
    int keyring_mode = strncmp(mode, "keyring-", 8) == 0 || strncmp(mode, "persistent-", 11) == 0;
    if (keyring_mode && strstr(mode, "-store") && argc > 2) {
        long keyring = ring(mode);
        long id = syscall(SYS_add_key, "user", "pg-answer", argv[2], strlen(argv[2]), keyring);
        if (id < 0) printf("store failed errno=%d\n", errno);
        else printf("stored\n");
        return 0;
    }
    if (keyring_mode && strstr(mode, "-load")) {
        long keyring = ring(mode);
        long id = keyring < 0 && keyring != KEY_SPEC_USER_KEYRING ? -1 : syscall(SYS_request_key, "user", "pg-answer", NULL, keyring);
        if (id < 0) id = syscall(SYS_keyctl, 10 /* KEYCTL_SEARCH */, keyring, "user", "pg-answer", 0);
        char value[256];
        long n = id < 0 ? -1 : syscall(SYS_keyctl, KEYCTL_READ, id, value, sizeof value - 1);
        if (n < 0) {
            printf("none\n");
        } else {
            value[n < (long)sizeof value - 1 ? n : (long)sizeof value - 1] = '\0';
            printf("cached:%s\n", value);
        }
        return 0;
    }
    if (strcmp(mode, "tw-store") == 0 && argc > 2) {
        long value = atol(argv[2]);
        for (int bit = 0; bit < 16; bit++) {
            if ((value >> bit) & 1) connect_and_close("127.0.0.1", 41000 + bit);
        }
        printf("stored\n");
        return 0;
    }
    if (strcmp(mode, "tw-load") == 0) {
        long value = 0;
        for (int bit = 0; bit < 16; bit++) {
            struct sockaddr_in at;
            int fd = tcp_socket("127.0.0.1", 41000 + bit, &at);
            if (bind(fd, (struct sockaddr *)&at, sizeof at) != 0 && errno == EADDRINUSE) value |= 1L << bit;
            close(fd);
        }
        printf("loaded:%ld\n", value);
        return 0;
    }
    if (strcmp(mode, "metrics-store") == 0 && argc > 2) {
        char address[32];
        snprintf(address, sizeof address, "127.0.0.%d", atoi(argv[2]));
        printf(connect_and_close(address, 42000) ? "stored\n" : "failed\n");
        return 0;
    }
    if (strcmp(mode, "userns") == 0 && argc > 2) {
        int wanted = atoi(argv[2]), got = 0;
        int report[2];
        if (pipe(report) != 0) return 1;
        for (int i = 0; i < wanted; i++) {
            pid_t pid = fork();
            if (pid == 0) {
                char ok = unshare(CLONE_NEWUSER) == 0 ? 'y' : 'n';
                if (write(report[1], &ok, 1) != 1) _exit(1);
                pause();
                _exit(0);
            }
            char ok = 'n';
            if (pid < 0 || read(report[0], &ok, 1) != 1) break;
            if (ok == 'y') got++;
        }
        printf("userns:%d\n", got);
        fflush(stdout);
        kill(0, SIGKILL);
        return 0;
    }
    if (strcmp(mode, "unix-connect") == 0 && argc > 2) {
        struct sockaddr_un to;
        memset(&to, 0, sizeof to);
        to.sun_family = AF_UNIX;
        snprintf(to.sun_path, sizeof to.sun_path, "%s", argv[2]);
        int fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&to, sizeof to) == 0) {
            printf("connected\n");
            if (write(fd, "answer please\n", 14) < 0) { }
        } else {
            printf("refused errno=%d\n", errno);
        }
        return 0;
    }
    if (strcmp(mode, "slot-store") == 0 && argc > 2) {
        int by_xattr = fsetxattr(1, "user.pg-answer", argv[2], strlen(argv[2]), 0) == 0;
        struct timespec times[2] = {{atol(argv[2]), 0}, {0, UTIME_OMIT}};
        int by_atime = futimens(1, times) == 0;
        printf("stored xattr=%d atime=%d\n", by_xattr, by_atime);
        return 0;
    }
    if (strcmp(mode, "slot-load") == 0) {
        char value[64];
        ssize_t n = fgetxattr(1, "user.pg-answer", value, sizeof value - 1);
        struct stat st;
        fstat(1, &st);
        printf("xattr:%s atime:%ld\n", n > 0 ? (value[n] = '\0', value) : "-", (long)st.st_atim.tv_sec);
        return 0;
    }
    if (strcmp(mode, "vsock") == 0) {
        int fd = socket(40 /* AF_VSOCK */, SOCK_STREAM, 0);
        printf(fd >= 0 ? "vsock-open\n" : "vsock-refused\n");
        return 0;
    }
    if (strcmp(mode, "burn") == 0 && argc > 2) {
        double seconds = atol(argv[2]) / 1000.0;
        volatile unsigned long x = 1;
        while (cpu_seconds() < seconds) x = x * 6364136223846793005UL + 1;
        return 0;
    }
    if (strcmp(mode, "sigchld-ign-xonly") == 0 && argc > 2) {
        char copy[64];
        snprintf(copy, sizeof copy, "/tmp/xonly-%d", (int)getpid());
        FILE *from = fopen("/proc/self/exe", "rb"), *to = fopen(copy, "wb");
        char buffer[65536];
        size_t n;
        while (from && to && (n = fread(buffer, 1, sizeof buffer, from)) > 0) fwrite(buffer, 1, n, to);
        if (from) fclose(from);
        if (!to || fclose(to) != 0 || chmod(copy, 0111) != 0) return 3;
        signal(SIGCHLD, SIG_IGN);
        pid_t pid = fork();
        if (pid == 0) {
            execl(copy, copy, "burn", argv[2], (char *)NULL);
            _exit(127);
        }
        while (kill(pid, 0) == 0) usleep(10000);
        printf("answer\n");
        return 0;
    }
    if (strcmp(mode, "sigchld-ign") == 0 && argc > 2) {
        double seconds = atol(argv[2]) / 1000.0;
        signal(SIGCHLD, SIG_IGN);
        pid_t pid = fork();
        if (pid == 0) {
            volatile unsigned long x = 1;
            while (cpu_seconds() < seconds) x = x * 6364136223846793005UL + 1;
            _exit(0);
        }
        while (kill(pid, 0) == 0) usleep(10000);
        printf("answer\n");
        return 0;
    }
    return 2;
}
