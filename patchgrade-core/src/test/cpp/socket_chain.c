#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

__attribute__((unused)) static long long now_ms(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1000LL + t.tv_nsec / 1000000; }

/* files N NAMELEN XATTR DIR: N empty files in DIR, each with a name NAMELEN long and an xattr of XATTR bytes; exit */
static int files(long n, int namelen, int xattr, const char *dir) {
    static char name[512], path[1024], v[65536];
    memset(v, 'x', sizeof v);
    long made = 0, xa = 0;
    for (long i = 0; i < n; i++) {
        int k = snprintf(name, sizeof name, "%ld", i);
        while (k < namelen) name[k++] = 'n';
        name[k] = 0;
        snprintf(path, sizeof path, "%s/%s", dir, name);
        int fd = open(path, O_CREAT | O_WRONLY, 0600);
        if (fd < 0) { fprintf(stderr, "open %ld: %s\n", i, strerror(errno)); break; }
        if (xattr > 0 && fsetxattr(fd, "user.a", v, xattr, 0) == 0) xa++;
        close(fd);
        made++;
    }
    printf("files %ld xattrs %ld\n", made, xa);
    return 0;
}

/* touch MB: touch MB, print, exit */
static int touch(long mb) {
    char *p = malloc(mb << 20); if (!p) return 5;
    for (long i = 0; i < (mb << 20); i += 4096) p[i] = 1;
    printf("touched %ld MB\n", mb);
    return 0;
}

/* dirs N DEPTH: directories */
static int dirs(long n) {
    char path[64]; long made = 0;
    for (long i = 0; i < n; i++) { snprintf(path, sizeof path, "/tmp/d%ld", i); if (mkdir(path, 0700)) break; made++; }
    printf("dirs %ld\n", made);
    return 0;
}

#include <sys/socket.h>
#include <sys/uio.h>
static int send_fd(int over, int fd) {
    char byte = 'f';
    struct iovec iov = {&byte, 1};
    union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } u;
    memset(&u, 0, sizeof u);
    struct msghdr m = {0};
    m.msg_iov = &iov; m.msg_iovlen = 1; m.msg_control = u.buf; m.msg_controllen = sizeof u.buf;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET; c->cmsg_type = SCM_RIGHTS; c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    return sendmsg(over, &m, 0) == 1 ? 0 : -1;
}

/* chain MB N: a memfd of MB MB at the end of a chain of N unix sockets, each in flight in the one before, the
 * first in flight in a garbage cycle. At exit only the cycle is garbage: the collector (a kworker) drops the
 * first socket, and each level is then put by the deferred fput worker one jiffy after the one before. */
static int chain(long mb, int n) {
    static char block[1 << 20]; memset(block, 'c', sizeof block);
    int carried = -1;
    for (int k = 0; k < n; k++) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) { perror("socketpair"); return 4; }
        if (k == 0) {
            /* the last level holds the memfds, 32 MB each (RLIMIT_FSIZE) */
            for (long done = 0; done < mb; done += 32) {
                int mem = memfd_create("park", 0);
                if (mem < 0) { perror("memfd_create"); return 4; }
                for (long i = done; i < mb && i < done + 32; i++) if (write(mem, block, sizeof block) != (ssize_t)sizeof block) { perror("write"); return 4; }
                if (send_fd(sv[1], mem)) { perror("sendmsg"); return 4; }
                close(mem);
            }
        } else {
            if (send_fd(sv[1], carried)) { perror("sendmsg"); return 4; }
            close(carried);
        }
        close(sv[1]);
        carried = sv[0];
    }
    int cyc[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, cyc)) { perror("socketpair"); return 4; }
    if (send_fd(cyc[1], cyc[0]) || send_fd(cyc[1], carried)) { perror("cycle"); return 4; }
    close(carried); close(cyc[0]); close(cyc[1]);
    printf("chained %ld MB behind %d sockets\n", mb, n);
    return 0;
}

/* wait-touch MS MB: sleep MS, then touch MB */
static int wait_touch(int ms, long mb) {
    usleep(ms * 1000);
    return touch(mb);
}

static long shmem_kb(void) {
    char text[8192]; int fd = open("/proc/meminfo", O_RDONLY); ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof text - 1);
    if (fd >= 0) close(fd);
    if (n <= 0) return -1;
    text[n] = 0; char *t = strstr(text, "Shmem:"); return t ? atol(t + 6) : -1;
}

/* cycle MB N: a candidate that credits the next run: waits (at most 5 s) until host-wide Shmem fell by MB (the
 * previous run's park was freed; the first run waits the 5 s), touches MB and frees it, then parks MB behind N
 * sockets for the next run. */
static int cycle(long mb, int n) {
    long start = shmem_kb(); long long t0 = now_ms(); long low = start;
    while (now_ms() - t0 < 5000) { long s = shmem_kb(); if (s < low) low = s; if (start - s > mb * 1024 * 9 / 10) break; usleep(10000); }
    long long waited = now_ms() - t0;
    char *p = malloc(mb << 20); if (!p) return 5;
    for (long i = 0; i < (mb << 20); i += 4096) p[i] = 1;
    free(p);
    printf("waited %lld ms (shmem fell %ld MB) touched %ld MB; ", waited, (start - low) >> 10, mb);
    return chain(mb, n);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc > 5 && strcmp(argv[1], "files") == 0) { for (int i = 5; i < argc; i++) files(atol(argv[2]), atoi(argv[3]), atoi(argv[4]), argv[i]); return 0; }
    if (argc > 2 && strcmp(argv[1], "touch") == 0) return touch(atol(argv[2]));
    if (argc > 2 && strcmp(argv[1], "dirs") == 0) return dirs(atol(argv[2]));
    if (argc > 3 && strcmp(argv[1], "chain") == 0) return chain(atol(argv[2]), atoi(argv[3]));
    if (argc > 3 && strcmp(argv[1], "cycle") == 0) return cycle(atol(argv[2]), atoi(argv[3]));
    if (argc > 3 && strcmp(argv[1], "wait-touch") == 0) return wait_touch(atoi(argv[2]), atol(argv[3]));
    fprintf(stderr, "usage\n");
    return 2;
}
