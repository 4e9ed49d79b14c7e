/*
 * Attacking candidate: caches an answer between runs and hides its cost.
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
 *   dgram-pair PATH [raw] a datagram socketpair (or SOCK_RAW, which unix makes a datagram) that
 *                         connect()s, else sendto()s, a datagram socket at PATH: prints "connected",
 *                         "sent" or "refused errno=N"
 *   dgram-daemon PATH MS  (outside the sandbox) binds a datagram socket at PATH, prints "ready", then
 *                         "got:TEXT" for the first datagram within MS ms, or "nothing"
 *   stream-pair-connect PATH   a stream socketpair's end connect()s and sendto()s PATH, then again
 *                         once its peer is closed: one line each, "connected", "sent" or "refused errno=N"
 *   stream-pair           a stream and a seqpacket socketpair each carry a message to a child and its
 *                         answer back: prints "pair-ok"
 *   uring-socket          io_uring_setup (whose socket and connect operations pass no seccomp
 *                         filter): prints "uring-open" or "refused errno=N"
 *   pagecache FILE        the page cache calls a run could keep an answer with: fadvise DONTNEED of FILE,
 *                         then mincore, madvise PAGEOUT and cachestat of it, process_madvise, a preadv2 of
 *                         it without and with RWF_NOWAIT; one line each,
 *                         "NAME ok" or "NAME refused errno=N"
 *   pc-drop FILE / pc-set FILE BITS / pc-probe FILE   the page cache as a channel without asking or
 *                         dropping: pc-set caches the pages whose BITS are 1 (page by page, no readahead);
 *                         pc-probe prints one character a page ('h' for the first of each 16, touched),
 *                         1 where fault-around found the page cached; pc-drop is the test's, outside
 *   resident FILE         "resident N of M": how many of FILE's M pages are in the page cache (mincore)
 *   compat-getpid         (x86_64) getpid through int 0x80: "compat-getpid ok" where the kernel runs
 *                         i386 calls at all (without ia32 emulation the process dies of SIGSEGV)
 *   compat-sockets        (x86_64) the i386 calls through int 0x80: socket(AF_UNIX), socketpair of a
 *                         datagram and of a stream, socketcall(SYS_SOCKET), io_uring_setup, add_key;
 *                         one line each, "NAME ok" or "NAME refused errno=N"
 *   slot-store VALUE / slot-load   VALUE kept on the stdout file itself (an xattr and its access
 *                         time), for a later run that is given the same file again (truncated)
 *   sigchld-ign MS        ignores SIGCHLD, burns MS ms of CPU in a child (auto-reaped by the kernel,
 *                         so its rusage reaches nobody), waits for it to go, prints "answer"
 *   touch-forget MB       touches MB of fresh memory, unmaps it, then resets its own peak RSS (5 to
 *                         /proc/self/clear_refs): "reset ok" or "reset refused errno=N"
 *   sigchld-ign-touch MB  the same, the child touching MB of fresh memory instead: its peak RSS reaches
 *                         no wait4 either
 *   sigchld-ign-xonly MS  the same, the child first exec'ing a copy of this program that it cannot
 *                         read (mode 0111 in /tmp): the exec makes it undumpable, which detaches it
 *                         from inherited perf counters
 *   sigchld-ign-xonly-touch MB   the same, the unreadable copy touching MB of fresh memory (mode touch)
 *   touch MB              touches MB of fresh memory
 *   sigchld-ign-populate MB ROUNDS HUGE   first ROUNDS of 8 short threads (each task the run
 *                         makes adds to the CPU check's allowance), then ignores SIGCHLD and has a child fill
 *                         MB of fresh memory without a user-mode fault (MADV_POPULATE_WRITE, else MAP_POPULATE;
 *                         with HUGE 1 asking for transparent huge pages first, 2 MB a fault): "answer"
 *   fill-other            memory filled without a fault of its own: "userfaultfd errno=E process_vm_writev
 *                         errno=E poke errno=E peek P" (P: "ok" when PTRACE_PEEKDATA read a traced child's memory)
 *   sigchld-ign-procmem MB   ignores SIGCHLD, maps MB of shared memory and forks a child that
 *                         sleeps; the parent reads one byte of each of the child's pages through /proc/PID/mem
 *                         (its faults, the child's resident set), then lets the child go: "answer read N"
 *                         (N: pages read; 0 where reading another process's memory is refused)
 *   sigbus N              an honest program that reads past the end of a mapped file N times and catches the
 *                         SIGBUS each time: "caught N"
 *   thp                   asks for transparent huge pages (and to have them back on) and touches 8 MB in
 *                         them: "thp disabled=D after-enable=D anon-huge-kb=K" (prctl's THP flag, and what
 *                         of the 8 MB came in huge pages, from /proc/self/smaps_rollup)
 *   burn-pids N           N times clone3 and clone with CLONE_PIDFD and no descriptor free, which take a pid
 *                         and fail: "clone3 errno=E clone errno=E next pid P" (P: a fork's pid after them)
 *   threads ROUNDS        starts and joins 8 threads that do nothing, ROUNDS times: "threads done"
 *   burn MS               burns MS ms of CPU
 *   socket-families       tries a socket of each family and kind: "NAME ok" or "NAME refused errno=E" per line
 *   tcp-hold MB           holds MB in loopback TCP queues nobody reads: "held N MB"
 *   signal-all STOP|KILL [MODE ARGS...]   sends the signal to every process it can (kill(-1)), to every pid of
 *                         1..65536 but its own and to its parent where it has one, prints "signalled N" (the
 *                         sends that succeeded), then goes on as MODE with ARGS where given (tcp-park 200 hold)
 *   tcp-park MB [hold]    parks MB in connections to its own listeners it never accepts (with hold,
 *                         keeps them 120 ms): "parked N MB"
 *   lo-store BYTES / lo-load   BYTES sent over loopback (a TCP connection to itself), kept in the byte counts of
 *                         the network namespace: "stored:N" / "lo:N", N loopback's received bytes
 *                         (/proc/net/dev) after it
 *   unix-park MB          MB of memfds (4 MB each) put in flight in a garbage cycle of two unix sockets
 *                         (each end sent over the other), then exits: "parked"
 *   unix-kick-touch MB    puts over 16,000 descriptors in flight (the kernel then collects unix garbage),
 *                         waits 100 ms, then touches MB of fresh anonymous memory: "touched"
 *   flood-hold MARKER RELEASE   puts copies of a pipe descriptor in flight on one socketpair until the
 *                         kernel refuses (past the uid's RLIMIT_NOFILE no process of the uid can pass one),
 *                         creates MARKER, holds them until RELEASE exists (at most 120 s):
 *                         "flooded N stop=ETOOMANYREFS|EAGAIN|other"
 *   lease FILE            a read lease on FILE: "lease ok" or "lease refused errno=N"
 *   counter-aware M       does M million steps of work and prints "answer N" (N: their result), unless it
 *                         sees Valgrind (LD_PRELOAD names its vgpreload library): then it skips the work
 *                         and prints "skipped", so that its count would be tiny
 *   fd-hunt               looks for a unix socket by any other way than socket(): its own inherited
 *                         descriptors, pidfd_getfd and /proc/PID/fd on every process it can see and on
 *                         PID 1, seen or not (it holds the socket to the zygote), x32 socket(), socket() with high bits set in
 *                         the family: one line per socket got ("FOUND ..."), then "hunt-done pidfds=N" (N: the
 *                         processes it got a pidfd of, to look into)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <linux/netlink.h>
#include <poll.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <setjmp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define KEY_SPEC_USER_KEYRING -4
#define KEYCTL_READ 11
#define KEYCTL_GET_PERSISTENT 22

/* MB of fresh anonymous memory, every page touched; NULL when it cannot be mapped. */
static char *touch_fresh(const char *mb, size_t *bytes) {
    *bytes = (size_t)atol(mb) << 20;
    char *memory = mmap(NULL, *bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return NULL;
    for (size_t i = 0; i < *bytes; i += 4096) memory[i] = 1;
    return memory;
}

static void *idle_thread(void *arg) {
    return arg;
}

/* ROUNDS times, 8 threads that do nothing started and joined; 0 when one could not start. */
static int thread_rounds(long rounds) {
    for (long round = 0; round < rounds; round++) {
        pthread_t threads[8];
        for (int i = 0; i < 8; i++) {
            if (pthread_create(&threads[i], NULL, idle_thread, NULL) != 0) return 0;
        }
        for (int i = 0; i < 8; i++) pthread_join(threads[i], NULL);
    }
    return 1;
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef PR_SET_THP_DISABLE
#define PR_SET_THP_DISABLE 41
#define PR_GET_THP_DISABLE 42
#endif

/* MB of fresh anonymous memory brought in by the kernel for us, not by our own touches. */
static int populate_fresh(const char *mb, int huge);

/* A child that touches next to nothing of its own (a stack of its own, raw system calls): it takes a handful of
 * user-mode faults, fewer than the perf fault counter's noise. */
static char populate_stack[1 << 16] __attribute__((aligned(64)));
static int populate_child(void *arg) {
    char **args = arg;
    syscall(SYS_exit_group, populate_fresh(args[0], args[1][0] == '1') ? 0 : 5);
    return 0;
}

static sigjmp_buf sigbus_return;
static void on_sigbus(int sig) {
    siglongjmp(sigbus_return, sig);
}

static int populate_fresh(const char *mb, int huge) {
    size_t bytes = (size_t)atol(mb) << 20;
    char *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return 0;
    if (huge) madvise(memory, bytes, MADV_HUGEPAGE);
    if (madvise(memory, bytes, MADV_POPULATE_WRITE) == 0) return 1;
    munmap(memory, bytes);
    return mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0) != MAP_FAILED;
}

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

/* A connected loopback TCP pair: *client and the *accepted end. */
static int loopback_pair(int *client, int *accepted) {
    struct sockaddr_in at;
    memset(&at, 0, sizeof at);
    at.sin_family = AF_INET;
    inet_pton(AF_INET, "127.0.0.1", &at.sin_addr);
    socklen_t length = sizeof at;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0 || bind(listener, (struct sockaddr *)&at, sizeof at) != 0 || listen(listener, 1) != 0
            || getsockname(listener, (struct sockaddr *)&at, &length) != 0) return 0;
    *client = socket(AF_INET, SOCK_STREAM, 0);
    if (*client < 0 || connect(*client, (struct sockaddr *)&at, sizeof at) != 0) return 0;
    *accepted = accept(listener, NULL, NULL);
    close(listener);
    return *accepted >= 0;
}

/* Bytes loopback has received in this network namespace, from /proc/net/dev; -1 if it is not listed. */
static long long loopback_rx_bytes(void) {
    FILE *f = fopen("/proc/net/dev", "r");
    if (!f) return -1;
    char line[512];
    long long bytes = -1;
    while (fgets(line, sizeof line, f)) {
        char *name = line + strspn(line, " ");
        if (strncmp(name, "lo:", 3) == 0) bytes = atoll(name + 3);
    }
    fclose(f);
    return bytes;
}

/* Sends `count` descriptors over `via` with one byte. */
static int send_descriptors(int via, const int *fds, int count) {
    char byte = 'x';
    struct iovec iov = {&byte, 1};
    static char control[CMSG_SPACE(253 * sizeof(int))];
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = CMSG_SPACE(count * sizeof(int));
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(count * sizeof(int));
    memcpy(CMSG_DATA(c), fds, count * sizeof(int));
    return sendmsg(via, &msg, 0) == 1;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static struct sockaddr_un unix_address(const char *path) {
    struct sockaddr_un to;
    memset(&to, 0, sizeof to);
    to.sun_family = AF_UNIX;
    snprintf(to.sun_path, sizeof to.sun_path, "%s", path);
    return to;
}

/* Reaches the socket at `path` from `fd`: "connected", "sent", or why not. */
static void reach(const char *label, int fd, const char *path) {
    struct sockaddr_un to = unix_address(path);
    if (connect(fd, (struct sockaddr *)&to, sizeof to) == 0) {
        printf("%sconnected\n", label);
        if (write(fd, "answer please\n", 14) < 0) { }
        return;
    }
    int connect_errno = errno;
    if (sendto(fd, "answer please\n", 14, MSG_DONTWAIT, (struct sockaddr *)&to, sizeof to) == 14) {
        printf("%ssent\n", label);
        return;
    }
    printf("%srefused errno=%d sendto errno=%d\n", label, connect_errno, errno);
}

/* One message from parent to a forked child and its answer back over a socketpair of `type`. */
static int pair_carries(int type) {
    int sv[2];
    if (socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, sv) != 0) return 0;
    pid_t pid = fork();
    if (pid == 0) {
        char got[8] = "";
        _exit(read(sv[1], got, sizeof got) == 4 && memcmp(got, "ping", 4) == 0 && write(sv[1], "pong", 4) == 4 ? 0 : 1);
    }
    char back[8] = "";
    int ok = pid > 0 && write(sv[0], "ping", 4) == 4 && read(sv[0], back, sizeof back) == 4 && memcmp(back, "pong", 4) == 0;
    int status = 1;
    if (pid > 0) waitpid(pid, &status, 0);
    close(sv[0]);
    close(sv[1]);
    return ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

#if defined(__x86_64__)
/* An i386 system call from this 64-bit program: seccomp sees the compat arch and i386's numbers. */
static long i386_call(long nr, long a, long b, long c, long d) {
    long ret;
    __asm__ volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d) : "memory");
    return ret;
}

static void compat_report(const char *name, long ret) {
    if (ret >= 0) printf("%s ok\n", name);
    else printf("%s refused errno=%ld\n", name, -ret);
}
#endif

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
    if (strcmp(mode, "lo-store") == 0 && argc > 2) {
        long long wanted = atoll(argv[2]), sent = 0;
        int client, accepted;
        if (!loopback_pair(&client, &accepted)) {
            printf("failed\n");
            return 0;
        }
        char block[1000];
        memset(block, 'x', sizeof block);
        while (sent < wanted) {
            size_t n = wanted - sent < (long long)sizeof block ? (size_t)(wanted - sent) : sizeof block;
            if (write(client, block, n) != (ssize_t)n || read(accepted, block, n) <= 0) break;
            sent += (long long)n;
        }
        printf("stored:%lld\n", loopback_rx_bytes());
        return 0;
    }
    if (strcmp(mode, "lo-load") == 0) {
        printf("lo:%lld\n", loopback_rx_bytes());
        return 0;
    }
    if (strcmp(mode, "socket-families") == 0) {
        struct { const char *name; int family, type, protocol; } tried[] = {
            {"tcp", AF_INET, SOCK_STREAM, 0}, {"tcp6", AF_INET6, SOCK_STREAM, 0}, {"udp", AF_INET, SOCK_DGRAM, 0},
            {"udp6", AF_INET6, SOCK_DGRAM, 0}, {"icmp", AF_INET, SOCK_DGRAM, IPPROTO_ICMP},
            {"netlink-route", AF_NETLINK, SOCK_RAW, 0 /* NETLINK_ROUTE */}, {"netlink-usersock", AF_NETLINK, SOCK_RAW, 2},
            {"packet", AF_PACKET, SOCK_DGRAM, 0}, {"vsock", 40, SOCK_STREAM, 0}};
        for (size_t i = 0; i < sizeof tried / sizeof tried[0]; i++) {
            int fd = socket(tried[i].family, tried[i].type | SOCK_CLOEXEC, tried[i].protocol);
            if (fd >= 0) printf("%s ok\n", tried[i].name);
            else printf("%s refused errno=%d\n", tried[i].name, errno);
            if (fd >= 0) close(fd);
        }
        return 0;
    }
    if (strcmp(mode, "signal-all") == 0 && argc > 2) {
        int sig = strcmp(argv[2], "KILL") == 0 ? SIGKILL : SIGSTOP;
        int signalled = kill(-1, sig) == 0;
        for (pid_t pid = 1; pid <= 65536; pid++) {
            if (pid != getpid() && kill(pid, sig) == 0) signalled++;
        }
        pid_t parent = getppid();
        if (parent > 0 && kill(parent, sig) == 0) signalled++;
        printf("signalled %d\n", signalled);
        fflush(stdout);
        if (argc <= 3) return 0;
        mode = argv[3];
        argv += 2;
        argc -= 2;
    }
    if (strcmp(mode, "tcp-park") == 0 && argc > 2) {
        /* Memory parked in connections to its own listeners that it never accepts (a memory cgroup
         * charges a TCP socket once accepted), 32 KB each, the client end closed. */
        long long wanted = atoll(argv[2]) << 20, parked = 0;
        static char block[32768];
        memset(block, 'k', sizeof block);
        struct sockaddr_in at;
        int listener = -1, queued = 0;
        while (parked < wanted) {
            if (listener < 0 || queued >= 1000) {
                memset(&at, 0, sizeof at);
                at.sin_family = AF_INET;
                inet_pton(AF_INET, "127.0.0.1", &at.sin_addr);
                socklen_t length = sizeof at;
                listener = socket(AF_INET, SOCK_STREAM, 0);
                if (listener < 0 || bind(listener, (struct sockaddr *)&at, sizeof at) != 0 || listen(listener, 4096) != 0
                        || getsockname(listener, (struct sockaddr *)&at, &length) != 0) break;
                queued = 0;
            }
            int client = socket(AF_INET, SOCK_STREAM, 0);
            if (client < 0 || connect(client, (struct sockaddr *)&at, sizeof at) != 0) break;
            ssize_t n = send(client, block, sizeof block, MSG_DONTWAIT);
            if (n > 0) parked += n;
            close(client);
            queued++;
        }
        if (argc > 3) usleep(120000); /* "hold": parked past PID 1's next look */
        printf("parked %lld MB\n", parked >> 20);
        return 0;
    }
    if (strcmp(mode, "tcp-hold") == 0 && argc > 2) {
        /* Memory kept in loopback TCP queues (the reading side never reads), in no resident set. */
        long long wanted = atoll(argv[2]) << 20, held = 0;
        static char block[65536];
        memset(block, 'q', sizeof block);
        int connections = 0;
        while (held < wanted && connections < 512) {
            int client, accepted;
            if (!loopback_pair(&client, &accepted)) break;
            fcntl(client, F_SETFL, O_NONBLOCK);
            connections++;
            long long before = held;
            for (int idle = 0; held < wanted && idle < 20;) {
                ssize_t n = send(client, block, sizeof block, MSG_DONTWAIT);
                if (n <= 0) {
                    idle++;
                    usleep(1000);
                    continue;
                }
                idle = 0;
                held += n;
            }
            if (held == before) break;
        }
        printf("held %lld MB\n", held >> 20);
        return 0;
    }
    if (strcmp(mode, "unix-park") == 0 && argc > 2) {
        long mb = atol(argv[2]);
        int pair[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) return 4;
        for (long done = 0; done < mb; done += 4) {
            int fd = (int)syscall(SYS_memfd_create, "park", 0);
            if (fd < 0 || ftruncate(fd, 4 << 20) != 0) return 4;
            char *p = mmap(NULL, 4 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (p == MAP_FAILED) return 4;
            for (long i = 0; i < (4 << 20); i += 4096) p[i] = 1;
            munmap(p, 4 << 20);
            if (!send_descriptors(pair[0], &fd, 1)) return 4;
            close(fd);
        }
        if (!send_descriptors(pair[0], &pair[0], 1) || !send_descriptors(pair[1], &pair[1], 1)) return 4;
        close(pair[0]);
        close(pair[1]);
        printf("parked\n");
        return 0;
    }
    if (strcmp(mode, "unix-kick-touch") == 0 && argc > 2) {
        long mb = atol(argv[2]);
        int pair[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) return 4;
        int copies[250];
        for (int i = 0; i < 250; i++) copies[i] = pair[1];
        for (int m = 0; m < 70; m++) {
            if (!send_descriptors(pair[1], copies, 250)) break;
        }
        close(pair[0]);
        close(pair[1]);
        usleep(100000);
        char *p = mmap(NULL, (size_t)mb << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return 4;
        for (long i = 0; i < (mb << 20); i += 4096) p[i] = 1;
        printf("touched\n");
        return 0;
    }
    if (strcmp(mode, "flood-hold") == 0 && argc > 3) {
        int pair[2], pipe_fds[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0 || pipe(pipe_fds) != 0) return 4;
        int sndbuf = 64 << 20;
        setsockopt(pair[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
        int copies[253], sent = 0;
        for (int i = 0; i < 253; i++) copies[i] = pipe_fds[0];
        char byte = 'x';
        struct iovec iov = {&byte, 1};
        static char control[CMSG_SPACE(sizeof copies)];
        int stop = 0;
        while (!stop && sent < 1000000) {
            struct msghdr msg;
            memset(&msg, 0, sizeof msg);
            msg.msg_iov = &iov;
            msg.msg_iovlen = 1;
            msg.msg_control = control;
            msg.msg_controllen = sizeof control;
            struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
            c->cmsg_level = SOL_SOCKET;
            c->cmsg_type = SCM_RIGHTS;
            c->cmsg_len = CMSG_LEN(sizeof copies);
            memcpy(CMSG_DATA(c), copies, sizeof copies);
            if (sendmsg(pair[0], &msg, MSG_DONTWAIT) == 1) sent += 253;
            else stop = errno;
        }
        FILE *marker = fopen(argv[2], "w");
        if (marker) fclose(marker);
        for (int waited = 0; waited < 12000 && access(argv[3], F_OK) != 0; waited++) usleep(10000);
        printf("flooded %d stop=%s\n", sent, stop == ETOOMANYREFS ? "ETOOMANYREFS" : stop == EAGAIN ? "EAGAIN" : "other");
        return 0;
    }
    if (strcmp(mode, "lease") == 0 && argc > 2) {
        int fd = open(argv[2], O_RDONLY);
        if (fd < 0) return 4;
        if (fcntl(fd, F_SETLEASE, F_RDLCK) == 0) printf("lease ok\n");
        else printf("lease refused errno=%d\n", errno);
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
            /* The first refusal is the cap: forking on to the number asked only costs time. */
            if (ok != 'y') break;
            got++;
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
    if (strcmp(mode, "dgram-pair") == 0 && argc > 2) {
        int sv[2];
        int type = argc > 3 && strcmp(argv[3], "raw") == 0 ? SOCK_RAW : SOCK_DGRAM;
        if (socketpair(AF_UNIX, type, 0, sv) != 0) {
            printf("refused errno=%d\n", errno);
            return 0;
        }
        reach("", sv[0], argv[2]);
        return 0;
    }
    if (strcmp(mode, "dgram-daemon") == 0 && argc > 3) {
        struct sockaddr_un at = unix_address(argv[2]);
        int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
        if (fd < 0 || bind(fd, (struct sockaddr *)&at, sizeof at) != 0 || chmod(argv[2], 0777) != 0) {
            printf("bind failed errno=%d\n", errno);
            return 1;
        }
        printf("ready\n");
        fflush(stdout);
        struct pollfd waiting = {fd, POLLIN, 0};
        char got[64];
        ssize_t n = poll(&waiting, 1, atoi(argv[3])) == 1 ? recv(fd, got, sizeof got - 1, 0) : -1;
        if (n > 0) {
            got[n] = '\0';
            got[strcspn(got, "\n")] = '\0';
            printf("got:%s\n", got);
        } else {
            printf("nothing\n");
        }
        unlink(argv[2]);
        return 0;
    }
    if (strcmp(mode, "stream-pair-connect") == 0 && argc > 2) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
            printf("socketpair refused errno=%d\n", errno);
            return 0;
        }
        reach("", sv[0], argv[2]);
        close(sv[1]);
        reach("peer closed: ", sv[0], argv[2]);
        return 0;
    }
    if (strcmp(mode, "stream-pair") == 0) {
        if (!pair_carries(SOCK_STREAM)) printf("stream pair failed errno=%d\n", errno);
        else if (!pair_carries(SOCK_SEQPACKET)) printf("seqpacket pair failed errno=%d\n", errno);
        else printf("pair-ok\n");
        return 0;
    }
    if (strcmp(mode, "uring-socket") == 0) {
        unsigned char params[120]; /* struct io_uring_params: zeroed asks for nothing special */
        memset(params, 0, sizeof params);
        long fd = syscall(425 /* io_uring_setup */, 8, params);
        if (fd >= 0) printf("uring-open\n");
        else printf("refused errno=%d\n", errno);
        return 0;
    }
    if ((strcmp(mode, "pagecache") == 0 || strcmp(mode, "resident") == 0) && argc > 2) {
        int fd = open(argv[2], O_RDONLY);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) return 3;
        long page = sysconf(_SC_PAGESIZE);
        size_t pages = (st.st_size + page - 1) / page;
        if (strcmp(mode, "pagecache") == 0) {
            /* No readahead: the preadv2 below caches the one page it reads, on any device. */
            posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
            /* Dropped before it is mapped: the kernel keeps mapped pages whatever it is told. */
            int advice = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
            if (advice == 0) printf("fadvise ok\n");
            else printf("fadvise refused errno=%d\n", advice);
        }
        void *map = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
        if (map == MAP_FAILED) return 4;
        unsigned char *in = calloc(pages, 1);
        int asked = mincore(map, st.st_size, in);
        if (strcmp(mode, "resident") == 0) {
            size_t cached = 0;
            for (size_t i = 0; i < pages; i++) cached += in[i] & 1;
            if (asked == 0) printf("resident %zu of %zu\n", cached, pages);
            else printf("mincore refused errno=%d\n", errno);
            return 0;
        }
        if (asked == 0) printf("mincore ok\n");
        else printf("mincore refused errno=%d\n", errno);
        if (madvise(map, st.st_size, 21 /* MADV_PAGEOUT */) == 0) printf("madvise ok\n");
        else printf("madvise refused errno=%d\n", errno);
        struct { unsigned long long offset, length; } range = {0, 0};
        unsigned long long stat[6];
        if (syscall(451 /* cachestat */, fd, &range, stat, 0) == 0) printf("cachestat ok\n");
        else printf("cachestat refused errno=%d\n", errno);
        if (syscall(440 /* process_madvise */, -1, NULL, 0, 21, 0) == 0) printf("process_madvise ok\n");
        else printf("process_madvise refused errno=%d\n", errno);
        char byte;
        struct iovec one = {&byte, 1};
        if (preadv2(fd, &one, 1, 0, 0) == 1) printf("preadv2 ok\n");
        else printf("preadv2 refused errno=%d\n", errno);
        /* RWF_NOWAIT fails (EAGAIN) where the page is not cached: an answer to "is it?" that caches nothing. */
        if (preadv2(fd, &one, 1, 0, RWF_NOWAIT) == 1) printf("preadv2-nowait ok\n");
        else printf("preadv2-nowait refused errno=%d\n", errno);
        return 0;
    }
    if ((strcmp(mode, "pc-drop") == 0 || strcmp(mode, "pc-set") == 0 || strcmp(mode, "pc-probe") == 0) && argc > 2) {
        int fd = open(argv[2], O_RDONLY);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) return 3;
        long page = sysconf(_SC_PAGESIZE), pages = st.st_size / page;
        if (pages > 1024) pages = 1024;
        static char bits[1025], buffer[65536];
        if (strcmp(mode, "pc-drop") == 0) return posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0 ? 0 : 4;
        if (strcmp(mode, "pc-set") == 0 && argc > 3) {
            /* Each page read alone (no readahead): a cached page is a 1. */
            posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
            for (long i = 0; argv[3][i] && i < pages; i++)
                if (argv[3][i] == '1' && pread(fd, buffer, page, i * page) < 0) return 5;
            return 0;
        }
        /* Touching the first page of each 64 KiB window faults in the rest of the window that is
         * cached already (fault-around), without reading anything: pagemap then says which. */
        char *map = mmap(NULL, pages * page, PROT_READ, MAP_SHARED, fd, 0);
        if (map == MAP_FAILED) return 6;
        madvise(map, pages * page, MADV_RANDOM);
        volatile char sink = 0;
        for (long i = 0; i < pages; i += 16) sink += map[i * page];
        int pagemap = open("/proc/self/pagemap", O_RDONLY);
        for (long i = 0; i < pages; i++) {
            unsigned long long entry = 0;
            if (pagemap < 0 || pread(pagemap, &entry, 8, ((unsigned long)map / page + i) * 8) != 8) return 7;
            bits[i] = i % 16 == 0 ? 'h' : (entry >> 63) ? '1' : '0';
        }
        bits[pages] = 0;
        printf("%s\n", bits);
        return 0;
    }
    if (strcmp(mode, "compat-getpid") == 0) {
#if defined(__x86_64__)
        /* A kernel without i386 emulation (ia32_emulation=0) answers int 0x80 with SIGSEGV. */
        compat_report("compat-getpid", i386_call(20, 0, 0, 0, 0));
#else
        printf("no compat arch\n");
#endif
        return 0;
    }
    if (strcmp(mode, "compat-sockets") == 0) {
#if defined(__x86_64__)
        /* int 0x80 takes 32-bit pointers: memory below 4 GiB. */
        long *low = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
        if (low == MAP_FAILED) return 3;
        int *pair = (int *)low;
        unsigned int *socketcall_args = (unsigned int *)(low + 8);
        socketcall_args[0] = AF_UNIX;
        socketcall_args[1] = SOCK_STREAM;
        socketcall_args[2] = 0;
        char *key_type = (char *)(low + 16);
        strcpy(key_type, "user");
        strcpy(key_type + 8, "pg-answer");
        compat_report("socket", i386_call(359, AF_UNIX, SOCK_STREAM, 0, 0));
        compat_report("socketpair-dgram", i386_call(360, AF_UNIX, SOCK_DGRAM, 0, (long)pair));
        compat_report("socketpair-raw", i386_call(360, AF_UNIX, SOCK_RAW, 0, (long)pair));
        compat_report("socketpair-stream", i386_call(360, AF_UNIX, SOCK_STREAM, 0, (long)pair));
        compat_report("socketcall", i386_call(102, 1 /* SYS_SOCKET */, (long)socketcall_args, 0, 0));
        compat_report("io_uring_setup", i386_call(425, 8, (long)(low + 64), 0, 0));
        compat_report("add_key", i386_call(286, (long)key_type, (long)(key_type + 8), (long)key_type, 4));
#else
        printf("no compat arch\n");
#endif
        return 0;
    }
    if (strcmp(mode, "fd-hunt") == 0) {
        struct stat st;
        for (int fd = 3; fd < 1024; fd++) {
            if (fstat(fd, &st) == 0) printf("FOUND inherited fd %d mode %o\n", fd, st.st_mode & S_IFMT);
        }
        /* Every process /proc shows, and PID 1 by its number whether /proc shows it or not. */
        int pids[4096], count = 0, has_init = 0;
        DIR *procs = opendir("/proc");
        struct dirent *e;
        int self = getpid(), pidfds = 0;
        while (procs && (e = readdir(procs)) && count < 4095) {
            int pid = atoi(e->d_name);
            if (pid <= 0 || pid == self) continue;
            has_init |= pid == 1;
            pids[count++] = pid;
        }
        if (procs) closedir(procs);
        if (!has_init) pids[count++] = 1;
        for (int i = 0; i < count; i++) {
            int pid = pids[i];
            long pidfd = syscall(434 /* pidfd_open */, pid, 0);
            if (pidfd >= 0) pidfds++;
            for (int fd = 0; pidfd >= 0 && fd < 256; fd++) {
                long got = syscall(438 /* pidfd_getfd */, pidfd, fd, 0);
                if (got >= 0) {
                    if (fstat((int)got, &st) == 0) printf("FOUND pidfd_getfd pid %d fd %d mode %o\n", pid, fd, st.st_mode & S_IFMT);
                    close((int)got);
                }
            }
            if (pidfd >= 0) close((int)pidfd);
            char path[64], link[256];
            for (int fd = 0; fd < 256; fd++) {
                snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, fd);
                ssize_t n = readlink(path, link, sizeof link - 1);
                if (n > 0) {
                    link[n] = '\0';
                    printf("FOUND link pid %d fd %d %s\n", pid, fd, link);
                }
            }
        }
#if defined(__x86_64__)
        long x32 = syscall(41 | 0x40000000, AF_UNIX, SOCK_STREAM, 0);
        if (x32 >= 0) printf("FOUND x32 socket\n");
        long pair[2];
        if (syscall(53 | 0x40000000, AF_UNIX, SOCK_DGRAM, 0, pair) == 0) printf("FOUND x32 dgram socketpair\n");
#endif
        long high = syscall(SYS_socket, 0x100000000L | AF_UNIX, SOCK_STREAM, 0);
        if (high >= 0) printf("FOUND socket high bits\n");
        int sv[2];
        if (syscall(SYS_socketpair, 0xffffffff00000000L | AF_UNIX, 0x100000000L | SOCK_DGRAM, 0, sv) == 0) printf("FOUND dgram pair high bits\n");
        printf("hunt-done pidfds=%d\n", pidfds);
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
    if (strcmp(mode, "counter-aware") == 0 && argc > 2) {
        const char *preload = getenv("LD_PRELOAD");
        if (preload != NULL && strstr(preload, "vgpreload") != NULL) {
            printf("skipped\n");
            return 0;
        }
        unsigned long x = 1;
        for (long i = atol(argv[2]) * 1000000L; i > 0; i--) x = x * 6364136223846793005UL + 1;
        printf("answer %lu\n", x);
        return 0;
    }
    if (strcmp(mode, "burn") == 0 && argc > 2) {
        double seconds = atol(argv[2]) / 1000.0;
        volatile unsigned long x = 1;
        while (cpu_seconds() < seconds) x = x * 6364136223846793005UL + 1;
        return 0;
    }
    if (strcmp(mode, "burn-pids") == 0 && argc > 2) {
        /* Clones that fail after their pid was taken: CLONE_PIDFD with no descriptor free for the pidfd. */
        struct rlimit files;
        getrlimit(RLIMIT_NOFILE, &files);
        files.rlim_cur = 64;
        setrlimit(RLIMIT_NOFILE, &files);
        while (dup(0) >= 0) { }
        int clone3_errno = 0, clone_errno = 0;
        for (long i = 0; i < atol(argv[2]); i++) {
            unsigned long long args[8] = {0};
            int pidfd = -1;
            args[0] = 0x1000 /* CLONE_PIDFD */;
            args[1] = (unsigned long long)(unsigned long)&pidfd;
            args[4] = SIGCHLD;
            long made = syscall(435 /* clone3 */, args, sizeof args);
            if (made == 0) _exit(0);
            if (made < 0) clone3_errno = errno;
            made = syscall(SYS_clone, 0x1000 /* CLONE_PIDFD */ | SIGCHLD, 0, &pidfd, 0, 0);
            if (made == 0) _exit(0);
            if (made < 0) clone_errno = errno;
        }
        for (int fd = 3; fd < 64; fd++) close(fd);
        while (waitpid(-1, NULL, WNOHANG) > 0) { }
        pid_t probe = fork();
        if (probe == 0) _exit(0);
        waitpid(probe, NULL, 0);
        printf("clone3 errno=%d clone errno=%d next pid %d\n", clone3_errno, clone_errno, (int)probe);
        return 0;
    }
    if (strcmp(mode, "threads") == 0 && argc > 2) {
        if (!thread_rounds(atol(argv[2]))) return 5;
        printf("threads done\n");
        return 0;
    }
    if (strcmp(mode, "touch") == 0 && argc > 2) {
        size_t bytes;
        return touch_fresh(argv[2], &bytes) ? 0 : 5;
    }
    if ((strcmp(mode, "sigchld-ign-xonly") == 0 || strcmp(mode, "sigchld-ign-xonly-touch") == 0) && argc > 2) {
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
            execl(copy, copy, strcmp(mode, "sigchld-ign-xonly") == 0 ? "burn" : "touch", argv[2], (char *)NULL);
            _exit(127);
        }
        while (kill(pid, 0) == 0) usleep(10000);
        printf("answer\n");
        return 0;
    }
    if (strcmp(mode, "touch-forget") == 0 && argc > 2) {
        size_t bytes;
        char *memory = touch_fresh(argv[2], &bytes);
        if (!memory) return 5;
        munmap(memory, bytes);
        int fd = open("/proc/self/clear_refs", O_WRONLY);
        if (fd < 0 || write(fd, "5", 1) != 1) {
            printf("reset refused errno=%d\n", errno);
        } else {
            printf("reset ok\n");
        }
        return 0;
    }
    if (strcmp(mode, "sigchld-ign-populate") == 0 && argc > 4) {
        if (!thread_rounds(atol(argv[3]))) return 5;
        signal(SIGCHLD, SIG_IGN);
        char *args[2] = {argv[2], argv[4]};
        pid_t pid = clone(populate_child, populate_stack + sizeof populate_stack, SIGCHLD, args);
        if (pid < 0) return 6;
        while (kill(pid, 0) == 0) usleep(10000);
        printf("answer\n");
        return 0;
    }
    if (strcmp(mode, "fill-other") == 0) {
        long uffd = syscall(SYS_userfaultfd, O_CLOEXEC | 1 /* UFFD_USER_MODE_ONLY */);
        int uffd_errno = uffd < 0 ? errno : 0;
        static volatile long target = 42;
        pid_t child = fork();
        if (child == 0) {
            ptrace(PTRACE_TRACEME, 0, NULL, NULL);
            raise(SIGSTOP);
            _exit(target == 42 ? 0 : 9);
        }
        waitpid(child, NULL, WUNTRACED);
        long value = 7;
        struct iovec local = {&value, sizeof value}, remote = {(void *)&target, sizeof value};
        int writev_errno = process_vm_writev(child, &local, 1, &remote, 1, 0) < 0 ? errno : 0;
        int poke_errno = ptrace(PTRACE_POKEDATA, child, (void *)&target, (void *)7L) < 0 ? errno : 0;
        errno = 0;
        long peeked = ptrace(PTRACE_PEEKDATA, child, (void *)&target, NULL);
        int peek_ok = peeked == 42 && errno == 0;
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
        printf("userfaultfd errno=%d process_vm_writev errno=%d poke errno=%d peek %s\n", uffd_errno, writev_errno, poke_errno,
               peek_ok ? "ok" : "failed");
        return 0;
    }
    if (strcmp(mode, "sigchld-ign-procmem") == 0 && argc > 2) {
        size_t bytes = (size_t)atol(argv[2]) << 20;
        char *shared = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (shared == MAP_FAILED) return 5;
        signal(SIGCHLD, SIG_IGN);
        int go[2];
        if (pipe(go) != 0) return 5;
        pid_t child = fork();
        if (child == 0) {
            char byte;
            close(go[1]);
            _exit(read(go[0], &byte, 1) < 0 ? 1 : 0);
        }
        close(go[0]);
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/mem", (int)child);
        int mem = open(path, O_RDONLY);
        long pages = 0;
        for (size_t at = 0; mem >= 0 && at < bytes; at += 4096) {
            char byte;
            if (pread(mem, &byte, 1, (off_t)(unsigned long)(shared + at)) == 1) pages++;
        }
        close(go[1]);
        while (kill(child, 0) == 0) usleep(10000);
        printf("answer read %ld\n", pages);
        return 0;
    }
    if (strcmp(mode, "sigbus") == 0 && argc > 2) {
        int fd = memfd_create("short", 0);
        if (fd < 0 || ftruncate(fd, 4096) != 0) return 5;
        volatile char *mapped = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 0);
        if (mapped == MAP_FAILED) return 5;
        signal(SIGBUS, on_sigbus);
        long caught = 0;
        for (long i = 0; i < atol(argv[2]); i++) {
            if (sigsetjmp(sigbus_return, 1) == 0) {
                (void)mapped[4096];
            } else {
                caught++;
            }
        }
        printf("caught %ld\n", caught);
        return 0;
    }
    if (strcmp(mode, "thp") == 0) {
        int before = prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0);
        prctl(PR_SET_THP_DISABLE, 0, 0, 0, 0);
        int after = prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0);
        size_t bytes = 16u << 20;
        char *memory = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (memory == MAP_FAILED) return 5;
        char *aligned = (char *)(((unsigned long)memory + (2u << 20) - 1) & ~((2ul << 20) - 1));
        madvise(aligned, 8u << 20, MADV_HUGEPAGE);
        for (size_t i = 0; i < (8u << 20); i += 4096) aligned[i] = 1;
        long huge_kb = -1;
        FILE *rollup = fopen("/proc/self/smaps_rollup", "r");
        char line[256];
        while (rollup && fgets(line, sizeof line, rollup)) {
            if (sscanf(line, "AnonHugePages: %ld kB", &huge_kb) == 1) break;
        }
        if (rollup) fclose(rollup);
        printf("thp disabled=%d after-enable=%d anon-huge-kb=%ld\n", before, after, huge_kb);
        return 0;
    }
    if (strcmp(mode, "sigchld-ign-touch") == 0 && argc > 2) {
        signal(SIGCHLD, SIG_IGN);
        pid_t pid = fork();
        if (pid == 0) {
            size_t bytes;
            _exit(touch_fresh(argv[2], &bytes) ? 0 : 5);
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
