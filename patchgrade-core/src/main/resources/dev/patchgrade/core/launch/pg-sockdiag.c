#include "pg-helper.h"

/*
 * TCP sockets of the run's network namespace, sampled while it runs. A memory cgroup charges a TCP socket only
 * once it is accepted: a run that connected to its own listener and never accepted parked 1,000 MB in the
 * queues of the connections waiting there with a tree peak of 40 MB. sock_diag lists every socket
 * of the namespace, accepted or not, with what its queues hold; an empty namespace answers in microseconds.
 */
struct socket_sampler sockets = {.diag = -1, .stat = -1, .stat6 = -1};

static long long socket_memory_of(int family) {
    struct {
        struct nlmsghdr header;
        struct inet_diag_req_v2 request;
    } ask;
    memset(&ask, 0, sizeof ask);
    ask.header.nlmsg_len = sizeof ask;
    ask.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    ask.header.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
    ask.request.sdiag_family = (unsigned char)family;
    ask.request.sdiag_protocol = IPPROTO_TCP;
    ask.request.idiag_states = ~0u;
    ask.request.idiag_ext = 1 << (INET_DIAG_SKMEMINFO - 1);
    if (send(sockets.diag, &ask, sizeof ask, 0) != (ssize_t)sizeof ask) return -1;
    static char buffer[65536];
    long long total = 0;
    for (;;) {
        ssize_t n = recv(sockets.diag, buffer, sizeof buffer, 0);
        if (n <= 0) return -1;
        for (struct nlmsghdr *h = (struct nlmsghdr *)buffer; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
            if (h->nlmsg_type == NLMSG_DONE) return total;
            if (h->nlmsg_type == NLMSG_ERROR) return -1;
            struct inet_diag_msg *msg = NLMSG_DATA(h);
            int left = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof *msg));
            for (struct rtattr *a = (struct rtattr *)(msg + 1); RTA_OK(a, left); a = RTA_NEXT(a, left)) {
                if (a->rta_type == INET_DIAG_SKMEMINFO && RTA_PAYLOAD(a) >= (int)(SK_MEMINFO_BACKLOG * sizeof(unsigned int))) {
                    const unsigned int *info = RTA_DATA(a);
                    total += (long long)info[SK_MEMINFO_RMEM_ALLOC] + info[SK_MEMINFO_WMEM_QUEUED];
                    /* A connection waiting to be accepted that its client reset is in no hash, so in no dump, and
                     * keeps what it received until accepted and read (1,000 MB held read as a 1.6 MB
                     * tree peak). A listener tells only how many wait (its accept queue, idiag_rqueue): each counts
                     * as what its receive buffer, the listener's, can hold. Honest servers accept at once. */
                    if (msg->idiag_state == 10 /* TCP_LISTEN */)
                        total += (long long)msg->idiag_rqueue * info[SK_MEMINFO_RCVBUF];
                }
            }
        }
    }
}

/* The namespace's TCP sockets in use (accepted or not), -1 where unknown: a dump walks the host's whole
 * socket hash whatever the namespace holds (5 ms here), this read costs a few microseconds. `path` is under the
 * zygote's /proc (proc_open), whose self is the zygote in the run's network namespace. */
static int tcp_in_use(int *fd, const char *path, const char *line) {
    if (*fd < 0) *fd = proc_open(path);
    char text[512];
    ssize_t n = *fd < 0 ? -1 : pread(*fd, text, sizeof text - 1, 0);
    if (n <= 0) return -1;
    text[n] = '\0';
    const char *tcp = strstr(text, line);
    return tcp ? atoi(tcp + strlen(line)) : -1;
}

/* IPv6 sockets, v4-mapped ones too, are counted in sockstat6 alone (a run parked 1,000 MB over ::1 with
 * TCP: inuse 0). */
static int sockets_in_use(void) {
    int v4 = tcp_in_use(&sockets.stat, "self/net/sockstat", "TCP: inuse ");
    int v6 = tcp_in_use(&sockets.stat6, "self/net/sockstat6", "TCP6: inuse ");
    return v4 < 0 || v6 < 0 ? -1 : v4 + v6;
}

void sample_sockets(struct outcome *out) {
    if (!sockets.sampling || sockets_in_use() == 0) return;
    if (sockets.diag < 0) sockets.diag = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (sockets.diag < 0) {
        out->socket_peak = -1;
        sockets.sampling = 0;
        return;
    }
    long long v4 = socket_memory_of(AF_INET), v6 = socket_memory_of(AF_INET6);
    if (v4 < 0 || v6 < 0) return;
    if (v4 + v6 > out->socket_peak) out->socket_peak = v4 + v6;
}
