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
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <sys/xattr.h>
#include <mqueue.h>
#include <linux/net_tstamp.h>
#include <linux/errqueue.h>
#include <sys/mman.h>

static long long now_ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000LL + t.tv_nsec / 1000000; }

static void sockstat(const char *tag) {
    char text[1024]; int fd = open("/proc/self/net/sockstat", O_RDONLY); ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
    if (fd >= 0) close(fd);
    if (n > 0) { text[n] = 0; char *t = strstr(text, "TCP:"); if (t) { char *e = strchr(t, '\n'); if (e) *e = 0; fprintf(stderr, "%s %s\n", tag, t); } }
}

static int proto = 0;
static int new_listener(struct sockaddr_in *at) {
    memset(at, 0, sizeof *at); at->sin_family = AF_INET; inet_pton(AF_INET, "127.0.0.1", &at->sin_addr);
    socklen_t len = sizeof *at; int l = socket(AF_INET, SOCK_STREAM, proto);
    if (l < 0 || bind(l, (struct sockaddr *)at, sizeof *at) || listen(l, 4096) || getsockname(l, (struct sockaddr *)at, &len)) return -1;
    return l;
}

/* rst-park MB HOLDMS: memory parked in connections never accepted, whose clients then reset them: the children
 * go to TCP_CLOSE (unhashed: no sock_diag dump lists them), stay in the accept queue with their receive queues.
 * Then holds HOLDMS, then accepts and reads every byte back one connection at a time: "parked N MB read M MB" */
static int rst_park(long long wanted, int hold_ms, int do_rst) {
    static char block[65536]; memset(block, 'k', sizeof block);
    struct sockaddr_in at; int listeners[4096]; int nl = 0, queued = 0, l = -1;
    long long parked = 0;
    struct linger lg = {1, 0};
    int chunk = 32768;
    while (parked < wanted) {
        if (l < 0 || queued >= 1000) { l = new_listener(&at); if (l < 0) { perror("listener"); break; } listeners[nl++] = l; queued = 0; }
        int c = socket(AF_INET, SOCK_STREAM, proto);
        if (c < 0 || connect(c, (struct sockaddr *)&at, sizeof at)) { perror("connect"); break; }
        ssize_t n = send(c, block, chunk, MSG_DONTWAIT);
        if (n > 0) parked += n;
        if (do_rst) setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
        close(c); queued++;
    }
    sockstat("after-park");
    long long t0 = now_ms();
    if (hold_ms > 0) usleep(hold_ms * 1000);
    long long got = 0; int conns = 0;
    for (int i = 0; i < nl; i++) {
        fcntl(listeners[i], F_SETFL, O_NONBLOCK);
        for (;;) {
            int a = accept(listeners[i], NULL, NULL);
            if (a < 0) break;
            conns++;
            for (;;) { ssize_t n = recv(a, block, sizeof block, MSG_DONTWAIT); if (n <= 0) break; for (ssize_t k = 0; k < n; k++) if (block[k] != 'k') { fprintf(stderr, "bad\n"); return 3; } got += n; }
            close(a);
        }
    }
    printf("parked %lld MB read %lld MB from %d held %lld ms\n", parked >> 20, got >> 20, conns, now_ms() - t0);
    return 0;
}

/* hold MB HOLDMS: accepted pairs, the client sends until the accepted end's queue is full; the accepted end reads
 * nothing until the hold is over, then reads it all back: "held N MB read M MB" */
static int hold(long long wanted, int hold_ms) {
    static char block[65536]; memset(block, 'q', sizeof block);
    static int clients[8192], accepted[8192]; static long long sent[8192]; int n = 0; long long held = 0;
    while (held < wanted && n < 8192) {
        struct sockaddr_in at; int l = new_listener(&at); if (l < 0) { perror("listener"); break; }
        int c = socket(AF_INET, SOCK_STREAM, proto);
        if (c < 0 || connect(c, (struct sockaddr *)&at, sizeof at)) { perror("connect"); break; }
        int a = accept(l, NULL, NULL); close(l); if (a < 0) { perror("accept"); break; }
        clients[n] = c; accepted[n] = a; n++;
        long long before = held;
        for (int idle = 0; held < wanted && idle < 5;) {
            ssize_t k = send(c, block, sizeof block, MSG_DONTWAIT);
            if (k <= 0) { idle++; usleep(1000); continue; }
            idle = 0; held += k; sent[n - 1] += k;
        }
        if (held == before) break;
    }
    sockstat("after-hold");
    long long t0 = now_ms();
    usleep(hold_ms * 1000);
    long long got = 0;
    for (int i = 0; i < n; i++) {
        for (long long mine = 0; mine < sent[i];) { ssize_t k = recv(accepted[i], block, sizeof block, 0); if (k <= 0) break; got += k; mine += k; }
        close(accepted[i]); close(clients[i]);
    }
    printf("held %lld MB read %lld MB over %d held %lld ms\n", held >> 20, got >> 20, n, now_ms() - t0);
    return 0;
}

/* unix-hold MB HOLDMS: stream socketpairs, one end written until full (SO_SNDBUF as large as allowed), held, read back */
static int unix_hold(long long wanted, int hold_ms) {
    static char block[65536]; memset(block, 'u', sizeof block);
    static int a[4096], b[4096]; static long long sent[4096]; int n = 0; long long held = 0;
    while (held < wanted && n < 4096) {
        int sv[2]; if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) { perror("socketpair"); break; }
        int big = 64 << 20; setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &big, sizeof big); setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
        fcntl(sv[0], F_SETFL, O_NONBLOCK);
        a[n] = sv[0]; b[n] = sv[1]; n++;
        long long before = held;
        for (;;) { ssize_t k = send(sv[0], block, sizeof block, MSG_DONTWAIT); if (k <= 0) break; held += k; sent[n - 1] += k; if (held >= wanted) break; }
        if (held == before) break;
    }
    long long t0 = now_ms();
    usleep(hold_ms * 1000);
    long long got = 0;
    for (int i = 0; i < n; i++) {
        for (long long mine = 0; mine < sent[i];) { ssize_t k = recv(b[i], block, sizeof block, 0); if (k <= 0) break; for (ssize_t j = 0; j < k; j++) if (block[j] != 'u') return 3; got += k; mine += k; }
        close(a[i]); close(b[i]);
    }
    printf("unix held %lld MB read %lld MB over %d pairs held %lld ms\n", held >> 20, got >> 20, n, now_ms() - t0);
    return 0;
}

/* tw-make K: K connections the client closes in FIN_WAIT2 (a timewait sock made in process context), then exits */
static int tw_make(long k) {
    struct sockaddr_in at; int l = -1; long made = 0, on_listener = 0;
    for (long i = 0; i < k; i++) {
        if (l < 0 || on_listener >= 20000) { if (l >= 0) close(l); l = new_listener(&at); on_listener = 0; if (l < 0) { perror("listener"); break; } }
        int c = socket(AF_INET, SOCK_STREAM, 0);
        if (c < 0 || connect(c, (struct sockaddr *)&at, sizeof at)) { perror("connect"); break; }
        int a = accept(l, NULL, NULL);
        shutdown(c, SHUT_WR);
        char b; if (read(a, &b, 1) != 0) { }
        close(c); close(a); made++; on_listener++;
    }
    sockstat("after-tw");
    printf("tw made %ld\n", made);
    return 0;
}

/* touch MB: MB of fresh memory touched, then exit */
static int touch(long mb) {
    char *p = malloc(mb << 20); if (!p) return 5;
    for (long i = 0; i < (mb << 20); i += 4096) p[i] = 1;
    long long t0 = now_ms(); while (now_ms() - t0 < 120) { } /* past a look */
    printf("touched %ld MB\n", mb);
    return 0;
}

/* xattr-hold MB HOLDMS DIR: user.* xattrs of 64 KB on files in DIR (tmpfs), held, read back */
static int xattr_hold(long long wanted, int hold_ms, const char *dir) {
    static char v[65536]; memset(v, 'x', sizeof v); long long held = 0; int files = 0, per = 0; char path[256];
    while (held < wanted) {
        snprintf(path, sizeof path, "%s/f%d", dir, files);
        if (per == 0) { int fd = open(path, O_CREAT | O_WRONLY, 0600); if (fd < 0) { perror("open"); break; } close(fd); }
        char name[32]; snprintf(name, sizeof name, "user.v%d", per);
        if (setxattr(path, name, v, sizeof v, 0) != 0) { if (per == 0) { perror("setxattr"); break; } files++; per = 0; continue; }
        held += sizeof v; per++;
    }
    long long t0 = now_ms(); usleep(hold_ms * 1000);
    long long got = 0;
    for (int f = 0; f <= files; f++) for (int p = 0;; p++) {
        snprintf(path, sizeof path, "%s/f%d", dir, f); char name[32]; snprintf(name, sizeof name, "user.v%d", p);
        ssize_t k = getxattr(path, name, v, sizeof v); if (k <= 0) break; got += k;
    }
    printf("xattr held %lld MB read %lld MB files %d held %lld ms\n", held >> 20, got >> 20, files + 1, now_ms() - t0);
    return 0;
}

/* park6 MB HOLDMS: the park of park4 (plain close, no RST) over IPv6 loopback ::1 (or v4-mapped with MAPPED=1) */
static int park6(long long wanted, int hold_ms) {
    static char block[65536]; memset(block, 'k', sizeof block);
    int listeners[4096]; int nl = 0, queued = 0, l = -1; long long parked = 0;
    struct sockaddr_in6 at; int mapped = getenv("MAPPED") != NULL;
    while (parked < wanted) {
        if (l < 0 || queued >= 1000) {
            memset(&at, 0, sizeof at); at.sin6_family = AF_INET6; inet_pton(AF_INET6, mapped ? "::ffff:127.0.0.1" : "::1", &at.sin6_addr);
            socklen_t len = sizeof at; l = socket(AF_INET6, SOCK_STREAM, proto);
            if (l < 0 || bind(l, (struct sockaddr *)&at, sizeof at) || listen(l, 4096) || getsockname(l, (struct sockaddr *)&at, &len)) { perror("listen6"); break; }
            listeners[nl++] = l; queued = 0;
        }
        int c = socket(AF_INET6, SOCK_STREAM, proto);
        if (c < 0 || connect(c, (struct sockaddr *)&at, sizeof at)) { perror("connect6"); break; }
        ssize_t n = send(c, block, 32768, MSG_DONTWAIT); if (n > 0) parked += n;
        close(c); queued++;
    }
    sockstat("after-park6");
    char text[512]; int fd = open("/proc/self/net/sockstat6", O_RDONLY); ssize_t k = fd < 0 ? -1 : read(fd, text, sizeof text - 1); if (k > 0) { text[k] = 0; char *e = strchr(text, '\n'); if (e) *e = 0; fprintf(stderr, "sockstat6 %s\n", text); }
    long long t0 = now_ms(); usleep(hold_ms * 1000);
    long long got = 0; int conns = 0;
    for (int i = 0; i < nl; i++) {
        fcntl(listeners[i], F_SETFL, O_NONBLOCK);
        for (;;) { int a = accept(listeners[i], NULL, NULL); if (a < 0) break; conns++;
            for (;;) { ssize_t n = recv(a, block, sizeof block, MSG_DONTWAIT); if (n <= 0) break; got += n; } close(a); }
    }
    printf("parked6 %lld MB read %lld MB from %d held %lld ms\n", parked >> 20, got >> 20, conns, now_ms() - t0);
    return 0;
}

static int send_fds(int sock, int *fds, int count) {
    char byte = 'f'; struct iovec iov = {&byte, 1}; char control[CMSG_SPACE(253 * sizeof(int))];
    struct msghdr msg; memset(&msg, 0, sizeof msg); msg.msg_iov = &iov; msg.msg_iovlen = 1; msg.msg_control = control;
    msg.msg_controllen = CMSG_SPACE(count * sizeof(int));
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c->cmsg_level = SOL_SOCKET; c->cmsg_type = SCM_RIGHTS; c->cmsg_len = CMSG_LEN(count * sizeof(int));
    memcpy(CMSG_DATA(c), fds, count * sizeof(int));
    return sendmsg(sock, &msg, 0) == 1;
}

/* gc-park MB EACH: memfds of EACH MB (written through write(), no mapping), put in flight in a unix garbage cycle, exit */
static int gc_park(long mb, long each) {
    int pair[2]; if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair)) return 4;
    static char block[1 << 20]; memset(block, 'g', sizeof block);
    int fds[253], n = 0;
    for (long done = 0; done < mb && n < 253; done += each) {
        int fd = memfd_create("park", 0); if (fd < 0) return 4;
        for (long i = 0; i < each; i++) if (write(fd, block, sizeof block) != (ssize_t)sizeof block) return 5;
        fds[n++] = fd;
    }
    if (!send_fds(pair[0], fds, n)) return 6;
    for (int i = 0; i < n; i++) close(fds[i]);
    if (!send_fds(pair[0], &pair[0], 1) || !send_fds(pair[1], &pair[1], 1)) return 7;
    close(pair[0]); close(pair[1]);
    printf("gc-parked %d memfds\n", n);
    return 0;
}

/* touch-now MB: touches MB at once and exits (no spin) */
static int touch_now(long mb) {
    char *p = malloc(mb << 20); if (!p) return 5;
    for (long i = 0; i < (mb << 20); i += 4096) p[i] = 1;
    printf("touched %ld MB\n", mb);
    return 0;
}

/* errq-hold MB HOLDMS DISCONNECT V6: TCP pairs; the client asks for software TX timestamps with the packet data
 * (SO_TIMESTAMPING, tstamp_allow_data) and sends; the accepted end reads everything (its queue empties), so the
 * data stays only in clones on the client's error queue; with DISCONNECT the client then connect(AF_UNSPEC)s
 * (TCP_CLOSE, unhashed). Hold, then read the error queues back (MSG_ERRQUEUE): "errq held N MB read M MB" */
static int errq_hold(long long wanted, int hold_ms, int disconnect, int v6) {
    static char block[65536]; memset(block, 'e', sizeof block);
    static int clients[4096]; int n = 0; long long sent_total = 0, queued = 0;
    while (queued < wanted && n < 4096) {
        int fam = v6 ? AF_INET6 : AF_INET;
        struct sockaddr_storage at; memset(&at, 0, sizeof at); socklen_t len;
        if (v6) { struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&at; a6->sin6_family = AF_INET6; inet_pton(AF_INET6, "::1", &a6->sin6_addr); len = sizeof *a6; }
        else { struct sockaddr_in *a4 = (struct sockaddr_in *)&at; a4->sin_family = AF_INET; inet_pton(AF_INET, "127.0.0.1", &a4->sin_addr); len = sizeof *a4; }
        int l = socket(fam, SOCK_STREAM, 0);
        if (l < 0 || bind(l, (struct sockaddr *)&at, len) || listen(l, 1) || getsockname(l, (struct sockaddr *)&at, &len)) { perror("listen"); break; }
        int c = socket(fam, SOCK_STREAM, 0);
        int big = 64 << 20; setsockopt(c, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
        if (c < 0 || connect(c, (struct sockaddr *)&at, len)) { perror("connect"); break; }
        int a = accept(l, NULL, NULL); close(l);
        int flags = SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
        if (setsockopt(c, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof flags)) { perror("SO_TIMESTAMPING"); return 3; }
        long long mine = 0;
        for (int i = 0; i < 400; i++) {
            ssize_t k = send(c, block, sizeof block, MSG_DONTWAIT);
            if (k > 0) { mine += k; sent_total += k; }
            for (;;) { ssize_t r = recv(a, block, sizeof block, MSG_DONTWAIT); if (r <= 0) break; }
            int rm = 0; socklen_t sl = sizeof rm;
            (void)sl; (void)rm;
        }
        for (int i = 0; i < 20; i++) { for (;;) { ssize_t r = recv(a, block, sizeof block, MSG_DONTWAIT); if (r <= 0) break; } usleep(200); }
        memset(block, 'e', sizeof block);
        /* how much the error queue holds: SIOCINQ does not tell; count by a peek of each is destructive, so estimate by rcvbuf use */
        close(a);
        if (disconnect) { struct sockaddr un; memset(&un, 0, sizeof un); un.sa_family = AF_UNSPEC; connect(c, &un, sizeof un); }
        clients[n++] = c;
        queued += 0; /* counted at read back */
        int rb = 0; socklen_t rl = sizeof rb; getsockopt(c, SOL_SOCKET, SO_RCVBUF, &rb, &rl);
        queued += rb / 2; /* what the error queue can hold at most, roughly */
    }
    sockstat("after-errq");
    long long t0 = now_ms(); usleep(hold_ms * 1000);
    long long got = 0;
    static char buf[1 << 17]; char control[512];
    for (int i = 0; i < n; i++) {
        for (;;) {
            struct iovec iov = {buf, sizeof buf}; struct msghdr msg; memset(&msg, 0, sizeof msg);
            msg.msg_iov = &iov; msg.msg_iovlen = 1; msg.msg_control = control; msg.msg_controllen = sizeof control;
            ssize_t k = recvmsg(clients[i], &msg, MSG_ERRQUEUE | MSG_DONTWAIT);
            if (k <= 0) break;
            got += k;
        }
        close(clients[i]);
    }
    printf("errq sent %lld MB over %d read back %lld MB held %lld ms\n", sent_total >> 20, n, got >> 20, now_ms() - t0);
    return 0;
}

/* memfd-work MB PARK: the work's memory is a memfd of MB (mapped, touched, unmapped); at the end it is either closed
 * (freed by the exiting process: its CPU) or, with PARK, put in a unix garbage cycle (freed later by a kworker) */
static int memfd_work(long mb, int park) {
    int fds[253], n = 0;
    for (long done = 0; done < mb && n < 253; done += 64) {
        int fd = memfd_create("work", 0); if (fd < 0 || ftruncate(fd, 64 << 20)) return 4;
        char *p = mmap(NULL, 64 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0); if (p == MAP_FAILED) return 4;
        for (long i = 0; i < (64 << 20); i += 4096) p[i] = 1;
        munmap(p, 64 << 20);
        fds[n++] = fd;
    }
    if (park) {
        int pair[2]; if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair)) return 4;
        if (!send_fds(pair[0], fds, n)) return 6;
        for (int i = 0; i < n; i++) close(fds[i]);
        if (!send_fds(pair[0], &pair[0], 1) || !send_fds(pair[1], &pair[1], 1)) return 7;
        close(pair[0]); close(pair[1]);
    } else {
        for (int i = 0; i < n; i++) close(fds[i]);
    }
    struct rusage u; getrusage(RUSAGE_SELF, &u);
    printf("memfd-work %ld park=%d self-sys-ms=%ld\n", mb, park, u.ru_stime.tv_sec * 1000 + u.ru_stime.tv_usec / 1000);
    return 0;
}

/* children N HOLDMS: N connections never accepted, no data, the client closed (CLOSE_WAIT children): kernel memory only */
static int children(long n, int hold_ms) {
    struct sockaddr_in at; int l = -1, q = 0; long made = 0;
    while (made < n) {
        if (l < 0 || q >= 4000) { l = new_listener(&at); q = 0; if (l < 0) { perror("listener"); break; } }
        int c = socket(AF_INET, SOCK_STREAM, 0);
        if (c < 0 || connect(c, (struct sockaddr *)&at, sizeof at)) { perror("connect"); break; }
        close(c); q++; made++;
    }
    sockstat("after-children");
    usleep(hold_ms * 1000);
    printf("children %ld\n", made);
    return 0;
}

/* tmp-park MB: MB of ordinary files in /tmp (64 MB each, written, closed); only a descriptor of the /tmp directory
 * goes into a unix garbage cycle, so the detached tmpfs outlives PID 1's unmount */
static int tmp_park(long mb) {
    static char block[1 << 20]; memset(block, 't', sizeof block);
    for (long done = 0, i = 0; done < mb; done += 64, i++) {
        char path[64]; snprintf(path, sizeof path, "/tmp/f%ld", i);
        int fd = open(path, O_CREAT | O_WRONLY, 0600); if (fd < 0) { perror("open"); return 4; }
        for (int k = 0; k < 64; k++) if (write(fd, block, sizeof block) != (ssize_t)sizeof block) { perror("write"); return 5; }
        close(fd);
    }
    int dir = open("/tmp", O_RDONLY | O_DIRECTORY); if (dir < 0) return 4;
    int pair[2]; if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair)) return 4;
    if (!send_fds(pair[0], &dir, 1)) return 6;
    close(dir);
    if (!send_fds(pair[0], &pair[0], 1) || !send_fds(pair[1], &pair[1], 1)) return 7;
    close(pair[0]); close(pair[1]);
    printf("tmp-parked %ld MB\n", mb);
    return 0;
}

/* mq-park: POSIX message queues filled until the kernel refuses, then exit (clear_ipc removes SysV only) */
static int mq_park(void) {
    static char msg[8192]; memset(msg, 'm', sizeof msg); long bytes = 0; int queues = 0;
    for (int q = 0; q < 256; q++) {
        char name[32]; snprintf(name, sizeof name, "/r18q%d", q);
        struct mq_attr attr; memset(&attr, 0, sizeof attr); attr.mq_maxmsg = 10; attr.mq_msgsize = 8192;
        mqd_t d = mq_open(name, O_CREAT | O_WRONLY | O_NONBLOCK, 0600, &attr);
        if (d == (mqd_t)-1) { fprintf(stderr, "mq_open %d errno %d\n", q, errno); break; }
        queues++;
        for (int i = 0; i < 10; i++) { if (mq_send(d, msg, sizeof msg, 0) != 0) break; bytes += sizeof msg; }
    }
    printf("mq-parked %d queues %ld KB\n", queues, bytes >> 10);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "mq-park") == 0) return mq_park();
    if (argc > 2 && strcmp(argv[1], "tmp-park") == 0) return tmp_park(atol(argv[2]));
    if (argc > 3 && strcmp(argv[1], "children") == 0) return children(atol(argv[2]), atoi(argv[3]));
    if (argc > 3 && strcmp(argv[1], "memfd-work") == 0) return memfd_work(atol(argv[2]), atoi(argv[3]));
    if (argc > 5 && strcmp(argv[1], "errq-hold") == 0) return errq_hold(atoll(argv[2]) << 20, atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
    if (argc > 3 && strcmp(argv[1], "gc-park") == 0) return gc_park(atol(argv[2]), atol(argv[3]));
    if (argc > 2 && strcmp(argv[1], "touch-now") == 0) return touch_now(atol(argv[2]));
    if (argc > 3 && strcmp(argv[1], "park6m") == 0) { setenv("MAPPED", "1", 1); return park6(atoll(argv[2]) << 20, atoi(argv[3])); }
    if (argc > 3 && strcmp(argv[1], "park6") == 0) return park6(atoll(argv[2]) << 20, atoi(argv[3]));
    if (argc > 4 && strcmp(argv[1], "xattr-hold") == 0) return xattr_hold(atoll(argv[2]) << 20, atoi(argv[3]), argv[4]);
    if (argc > 2 && strcmp(argv[1], "tw-make") == 0) return tw_make(atol(argv[2]));
    if (argc > 2 && strcmp(argv[1], "touch") == 0) return touch(atol(argv[2]));
    if (argc > 3 && strcmp(argv[1], "unix-hold") == 0) return unix_hold(atoll(argv[2]) << 20, atoi(argv[3]));
    if (getenv("PROTO")) proto = atoi(getenv("PROTO"));
    if (argc > 3 && strcmp(argv[1], "mptcp-park") == 0) { proto = 262; return rst_park(atoll(argv[2]) << 20, atoi(argv[3]), 0); }
    if (argc > 3 && strcmp(argv[1], "mptcp-hold") == 0) { proto = 262; return hold(atoll(argv[2]) << 20, atoi(argv[3])); }
    if (argc > 3 && strcmp(argv[1], "tcp-hold") == 0) return hold(atoll(argv[2]) << 20, atoi(argv[3]));
    struct rlimit r; getrlimit(RLIMIT_NOFILE, &r); r.rlim_cur = r.rlim_max; setrlimit(RLIMIT_NOFILE, &r);
    if (argc > 3 && strcmp(argv[1], "rst-park") == 0) return rst_park(atoll(argv[2]) << 20, atoi(argv[3]), 1);
    if (argc > 3 && strcmp(argv[1], "fin-park") == 0) return rst_park(atoll(argv[2]) << 20, atoi(argv[3]), 0);
    fprintf(stderr, "usage\n"); return 2;
}
