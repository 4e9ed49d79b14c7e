#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000LL + t.tv_nsec / 1000000; }

/* shrink-park MB HOLDMS BIGBUF SMALL: one listener per connection. The listener's SO_RCVBUF is BIGBUF before the
 * connection (the child copies it, locked), then SMALL once the child waits in its accept queue (PID 1 counts
 * accept queue x the listener's rcvbuf now). The client fills the child, then resets (child unhashed, in no dump).
 * Hold, then accept and read back everything: "shrunk N MB read M MB from C" */
static int shrink_park(long long wanted, int hold_ms, int big, int small) {
    static char block[1 << 20]; memset(block, 'k', sizeof block);
    static int listeners[20000]; int nl = 0; long long parked = 0;
    struct linger lg = {1, 0};
    long long each_max = 0;
    while (parked < wanted && nl < 20000) {
        struct sockaddr_in at; memset(&at, 0, sizeof at); at.sin_family = AF_INET; inet_pton(AF_INET, "127.0.0.1", &at.sin_addr);
        socklen_t len = sizeof at;
        int l = socket(AF_INET, SOCK_STREAM, 0);
        if (l < 0) { perror("socket"); break; }
        if (big > 0) setsockopt(l, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
        if (bind(l, (struct sockaddr *)&at, sizeof at) || listen(l, 8) || getsockname(l, (struct sockaddr *)&at, &len)) { perror("listen"); break; }
        listeners[nl++] = l;
        int c = socket(AF_INET, SOCK_STREAM, 0);
        if (c < 0 || connect(c, (struct sockaddr *)&at, sizeof at)) { perror("connect"); break; }
        /* the child is made by the time connect returns (loopback): check the accept queue */
        struct tcp_info ti; socklen_t tl = sizeof ti;
        for (int tries = 0; tries < 1000; tries++) { if (getsockopt(l, IPPROTO_TCP, TCP_INFO, &ti, &tl) == 0 && ti.tcpi_unacked >= 1) break; usleep(100); }
        if (small > 0) setsockopt(l, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
        long long sent = 0; int stalls = 0;
        while (parked + sent < wanted) {
            ssize_t n = send(c, block, sizeof block, MSG_DONTWAIT);
            if (n > 0) { sent += n; stalls = 0; continue; }
            if (errno != EAGAIN || ++stalls > 3) break;
            usleep(2000);
        }
        /* wait for the client's send queue to drain into the child */
        for (int tries = 0; tries < 200; tries++) { int q = 0; ioctl(c, TIOCOUTQ, &q); if (q == 0) break; usleep(1000); }
        int q = 0; ioctl(c, TIOCOUTQ, &q); sent -= q;
        if (sent > each_max) each_max = sent;
        parked += sent;
        setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
        close(c);
    }
    fprintf(stderr, "listeners %d each up to %lld KB\n", nl, each_max >> 10);
    long long t0 = now_ms();
    usleep(hold_ms * 1000);
    long long got = 0; int conns = 0;
    for (int i = 0; i < nl; i++) {
        fcntl(listeners[i], F_SETFL, O_NONBLOCK);
        for (;;) {
            int a = accept(listeners[i], NULL, NULL);
            if (a < 0) break;
            conns++;
            for (;;) { ssize_t n = recv(a, block, sizeof block, MSG_DONTWAIT); if (n <= 0) break; for (ssize_t k = 0; k < n; k += 4096) if (block[k] != 'k') { fprintf(stderr, "bad\n"); return 3; } got += n; }
            close(a);
        }
        close(listeners[i]);
    }
    printf("shrunk %lld MB read %lld MB from %d held %lld ms\n", parked >> 20, got >> 20, conns, now_ms() - t0);
    return 0;
}

/* perf-hold PROCS PAGES HOLDMS: PROCS children each open a software perf event on themselves, map its ring buffer
 * (1 + PAGES pages, PROT_WRITE), write a pattern over the data pages, hold, check every byte.
 * "perf held N MB checked M MB in P procs" */
static int perf_hold(int procs, long pages, int hold_ms) {
    int fd[2]; if (pipe(fd)) return 4;
    for (int i = 0; i < procs; i++) {
        pid_t p = fork();
        if (p < 0) { perror("fork"); break; }
        if (p == 0) {
            close(fd[0]);
            struct perf_event_attr a; memset(&a, 0, sizeof a); a.size = sizeof a; a.type = PERF_TYPE_SOFTWARE;
            a.config = PERF_COUNT_SW_DUMMY; a.disabled = 1; a.exclude_kernel = 1; a.exclude_hv = 1;
            int e = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
            long long ok = 0;
            if (e < 0) { if (i == 0) perror("perf_event_open"); }
            else {
                size_t len = (size_t)(pages + 1) * 4096;
                unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, e, 0);
                if (m == MAP_FAILED) { if (i == 0) perror("mmap perf"); }
                else {
                    unsigned char *d = m + 4096; size_t n = (size_t)pages * 4096;
                    for (size_t k = 0; k < n; k++) d[k] = (unsigned char)(k * 7 + i);
                    usleep(hold_ms * 1000);
                    for (size_t k = 0; k < n; k++) if (d[k] != (unsigned char)(k * 7 + i)) { fprintf(stderr, "bad\n"); break; } else ok++;
                }
            }
            if (write(fd[1], &ok, sizeof ok) != sizeof ok) _exit(1);
            _exit(0);
        }
    }
    close(fd[1]);
    long long total = 0, one; int got = 0;
    while (read(fd[0], &one, sizeof one) == sizeof one) { total += one; got++; }
    while (wait(NULL) > 0) { }
    printf("perf held %lld MB checked in %d procs\n", total >> 20, got);
    return 0;
}

/* conn-spin PAIRS SPINMS: PAIRS accepted loopback connections (2 x PAIRS TCP sockets, every one in each look's
 * dump), then SPINMS of pure computation: "spun N iterations with S sockets" */
static int conn_spin(int pairs, int spin_ms) {
    int l = -1; struct sockaddr_in at; int on = 0, made = 0;
    for (int i = 0; i < pairs; i++) {
        if (l < 0 || on >= 4000) {
            memset(&at, 0, sizeof at); at.sin_family = AF_INET; inet_pton(AF_INET, "127.0.0.1", &at.sin_addr); socklen_t len = sizeof at;
            l = socket(AF_INET, SOCK_STREAM, 0);
            if (l < 0 || bind(l, (struct sockaddr *)&at, sizeof at) || listen(l, 4096) || getsockname(l, (struct sockaddr *)&at, &len)) { perror("listen"); break; }
            on = 0;
        }
        int c = socket(AF_INET, SOCK_STREAM, 0);
        if (c < 0 || connect(c, (struct sockaddr *)&at, sizeof at)) { perror("connect"); break; }
        int a = accept(l, NULL, NULL); if (a < 0) { perror("accept"); break; }
        on++; made++;
    }
    long long t0 = now_ms(); unsigned long long x = 1, it = 0;
    while (now_ms() - t0 < spin_ms) { for (int k = 0; k < 100000; k++) x = x * 6364136223846793005ULL + 1442695040888963407ULL; it++; }
    printf("spun %llu iterations with %d pairs (%llx)\n", it, made, x & 0xff);
    return 0;
}

/* pair-probe: socketpair() of families/types socket() is refused: which reach the kernel (errno other than EACCES) */
static int pair_probe(void) {
    static const int fams[][3] = {{AF_INET, SOCK_DGRAM, 0}, {AF_INET, SOCK_SEQPACKET, 132 /* SCTP */}, {AF_INET6, SOCK_STREAM, 262 /* MPTCP */},
        {AF_NETLINK, SOCK_RAW, 0}, {AF_PACKET, SOCK_RAW, 0}, {30 /* TIPC */, SOCK_SEQPACKET, 0}, {21 /* RDS */, SOCK_SEQPACKET, 0},
        {AF_UNIX, SOCK_DGRAM, 0}};
    for (unsigned i = 0; i < sizeof fams / sizeof fams[0]; i++) {
        int sv[2]; errno = 0;
        int r = socketpair(fams[i][0], fams[i][1], fams[i][2], sv);
        printf("pair %d/%d/%d -> %d %s; ", fams[i][0], fams[i][1], fams[i][2], r, r == 0 ? "ok" : strerror(errno));
        if (r == 0) { close(sv[0]); close(sv[1]); }
        errno = 0; r = socket(fams[i][0], fams[i][1], fams[i][2]);
        printf("socket %d/%d/%d -> %d %s | ", fams[i][0], fams[i][1], fams[i][2], r, r >= 0 ? "ok" : strerror(errno));
        if (r >= 0) close(r);
    }
    int t = socket(AF_INET, SOCK_STREAM, 0), one = 1, big = 64 << 20;
    printf("TCP_REPAIR -> %d %s | ", setsockopt(t, IPPROTO_TCP, 19 /* TCP_REPAIR */, &one, sizeof one), strerror(errno));
    errno = 0; printf("SO_RCVBUFFORCE -> %d %s | ", setsockopt(t, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof big), strerror(errno));
    errno = 0; printf("TCP_ULP tls -> %d %s | ", setsockopt(t, IPPROTO_TCP, 31 /* TCP_ULP */, "tls", 3), strerror(errno));
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 5 && strcmp(argv[1], "shrink-park") == 0) return shrink_park(atoll(argv[2]) << 20, atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
    if (argc > 4 && strcmp(argv[1], "perf-hold") == 0) return perf_hold(atoi(argv[2]), atol(argv[3]), atoi(argv[4]));
    if (argc > 3 && strcmp(argv[1], "conn-spin") == 0) return conn_spin(atoi(argv[2]), atoi(argv[3]));
    if (argc > 1 && strcmp(argv[1], "pair-probe") == 0) return pair_probe();
    if (argc > 1 && strcmp(argv[1], "rcvbuf-probe") == 0) {
        /* rcvbuf-probe: SO_RCVBUF 4 MB on a listener-to-be; prints the buffer before and after */
        int t = socket(AF_INET, SOCK_STREAM, 0), before = 0, after = 0, big = 4 << 20;
        socklen_t n = sizeof before;
        getsockopt(t, SOL_SOCKET, SO_RCVBUF, &before, &n);
        int r = setsockopt(t, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
        n = sizeof after;
        getsockopt(t, SOL_SOCKET, SO_RCVBUF, &after, &n);
        printf("rcvbuf %d set=%d -> %d\n", before, r, after);
        return 0;
    }
    fprintf(stderr, "usage\n");
    return 2;
}
