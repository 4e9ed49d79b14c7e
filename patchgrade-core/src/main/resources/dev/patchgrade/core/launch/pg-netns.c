#include "pg-helper.h"

#ifdef __linux__
/*
 * Each run has a network namespace of its own, made ahead by the worker's network maker: a namespace
 * shared by runs keeps counters any run can move and the next can read (loopback's byte counts in
 * /proc/net/dev, /proc/net/snmp, sockstat), an answer cache no sysctl empties. Making one costs 0.5-1.0
 * ms here, about what the rest of the sandbox adds to a launch; the maker makes the next while the
 * current run runs, outside the measured cgroups (its memory and CPU are none of the run's), and
 * the zygote only enters it. The maker is a child of the zygote outside the runs' PID namespace: no run
 * sees it. The kernel frees a used namespace in the background.
 */
#ifndef SIOCGSKNS
#define SIOCGSKNS 0x894C
#endif
struct net_maker_link net_maker = {.sock = -1, .pidfd = -1};

/* "net", with the namespace as a descriptor when `attach`, or "fail <errno>" when netns < 0. */
static void send_netns(int sock, int netns, int err, int attach) {
    char text[32];
    int len = snprintf(text, sizeof text, netns >= 0 ? "net" : "fail %d", err);
    if (send_with_fds(sock, text, (size_t)len, &netns, netns >= 0 && attach, MSG_NOSIGNAL) < 0) _exit(0); /* the zygote is gone */
}

/* A new network namespace with loopback up, as a descriptor; -1 with errno. The maker itself moves
 * into it: its old one (none of the runs') goes. */
static int make_netns(void) {
    if (unshare(CLONE_NEWNET) != 0) return -1;
    int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (sock < 0) return -1;
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, IFNAMSIZ, "lo");
    int netns = -1;
    if (ioctl(sock, SIOCGIFFLAGS, &ifr) == 0) {
        ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
        if (ioctl(sock, SIOCSIFFLAGS, &ifr) == 0) netns = ioctl(sock, SIOCGSKNS, 0);
    }
    int err = errno;
    close(sock);
    errno = err;
    return netns;
}

/* Tells the zygote which step failed, as "fail <stage> <errno>" in place of "up", and ends. */
static void maker_fail(int sock, const char *stage) {
    char text[64];
    int len = snprintf(text, sizeof text, "fail %s %d", stage, errno);
    if (write(sock, text, (size_t)len) < 0) { /* the zygote is gone: it has nothing to report to */ }
    _exit(2);
}

void net_maker_main(int sock, pid_t zygote, const int leave[2]) {
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) maker_fail(sock, "net_maker_pdeathsig");
    if (getppid() != zygote) _exit(0);
    /* Dumpable, so that the zygote (our uid, no capability outside) may join our namespace through a pidfd;
     * no run can name us: we are outside its PID namespace. */
    if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0) maker_fail(sock, "net_maker_dumpable");
    for (int i = 0; i < 2; i++) {
        if (leave[i] < 0) continue;
        if (write(leave[i], "0", 1) != 1 || close(leave[i]) != 0) maker_fail(sock, "net_maker_cgroup");
    }
    if (write(sock, "up", 2) != 2) _exit(0);
    char mode;
    if (read(sock, &mode, 1) != 1) _exit(0);
    for (;;) {
        int netns = make_netns();
        send_netns(sock, netns, errno, mode != 'p');
        if (netns >= 0) close(netns);
        char took;
        ssize_t n;
        do {
            n = read(sock, &took, 1);
        } while (n < 0 && errno == EINTR);
        if (n != 1) _exit(0);
    }
}

/* The zygote enters the next run's network namespace. 0; -1 with errno (the maker could not make one: it is
 * asked again for the next run); the zygote ends if the maker is gone. */
int enter_fresh_netns(void) {
    char text[32];
    char control[CMSG_SPACE(sizeof(int))];
    struct iovec iov = {text, sizeof text - 1};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n;
    do {
        n = recvmsg(net_maker.sock, &msg, MSG_CMSG_CLOEXEC);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) _exit(2); /* the helper sees the zygote go, and the JVM starts a fresh one */
    text[n] = '\0';
    int netns = -1;
    struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
    if (cmsg && cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS) memcpy(&netns, CMSG_DATA(cmsg), sizeof(int));
    int result = 0, err = 0;
    if (net_maker.pidfd >= 0 && strcmp(text, "net") == 0) {
        if (setns(net_maker.pidfd, CLONE_NEWNET) != 0) {
            err = errno;
            result = -1;
        }
    } else if (netns < 0) {
        err = strncmp(text, "fail ", 5) == 0 ? atoi(text + 5) : EPROTO;
        result = -1;
    } else if (setns(netns, CLONE_NEWNET) != 0) {
        err = errno;
        result = -1;
    }
    if (netns >= 0) close(netns);
    if (write(net_maker.sock, "t", 1) != 1) _exit(2);
    errno = err;
    return result;
}
#endif /* __linux__ */
