#include "pg-helper.h"

#ifdef __linux__
/*
 * Unix sockets a run left in a garbage cycle (a socketpair whose ends were sent over each other with
 * SCM_RIGHTS) outlive all its processes, with whatever else was in flight in them: a cheating run
 * parked 96 MB of memfds there, charged to the cgroup, then the next run made the kernel collect them
 * during its own window and hid that much of its peak; each such run also kept its network namespace
 * alive (1,023 of them and no run of the worker could start again). Since Linux 6.10 the collector runs
 * only once over 16,000 descriptors are in flight, not when the last process goes. So after a run
 * whose network namespace still counts sockets, the zygote puts that many in flight itself (its own
 * socketpair, no cycle of its own) and waits for the collector, then for the sockets to go, then for
 * the kernel's deferred closing of what they held: before the answer and the next run's baseline.
 * A run that closed its sockets costs one read of /proc/self/net/sockstat.
 */
static long sockets_left(void) {
    char text[512];
    ssize_t n = read_proc_text("self/net/sockstat", text, sizeof text);
    if (n <= 0) return -1;
    const char *used = strstr(text, "sockets: used ");
    return used ? atol(used + strlen("sockets: used ")) : -1;
}

#define UNIX_GC_TRIGGER 16000 /* UNIX_INFLIGHT_TRIGGER_GC */
#define DEFERRED_CLOSE_WAIT_MS 25 /* the kernel closes files freed by a kernel thread a jiffy later: 10 ms at HZ=100 */

/* 1 where sockets of the run are left after the wait: a chain of sockets in flight inside each other is freed by a
 * kernel thread one link a jiffy (9 ms here), so 200 links outlast the wait, and what they hold is freed only once the
 * next run's baseline took it in (that run's 300 MB read as a tree peak of 0). Such a run is one whose
 * processes escaped: its per-process figures are not trusted, and a ceiling on them is an error. */
int collect_unix_garbage(void) {
    if (sockets_left() <= 0) return 0;
    struct rlimit files, raised;
    int have_limit = getrlimit(RLIMIT_NOFILE, &files) == 0;
    raised = files;
    /* In-flight descriptors count against the sender's RLIMIT_NOFILE: raised to the hard limit meanwhile. */
    if (have_limit && raised.rlim_cur < raised.rlim_max) {
        raised.rlim_cur = raised.rlim_max;
        /* Unchecked: with fewer in flight the collector may not run, the sockets stay, and the run is told as
         * one whose processes escaped (below): the safe side. */
        if (setrlimit(RLIMIT_NOFILE, &raised) != 0) { }
    }
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0) {
        /* Copies of sv[1] queued at sv[0]: closing sv[0] first frees them, no garbage of our own. */
        int copies[PG_SCM_MAX_FD];
        for (int i = 0; i < PG_SCM_MAX_FD; i++) copies[i] = sv[1];
        for (int sent = 0; sent <= UNIX_GC_TRIGGER; sent += PG_SCM_MAX_FD) {
            if (send_with_fds(sv[1], "g", 1, copies, PG_SCM_MAX_FD, MSG_DONTWAIT | MSG_NOSIGNAL) != 1) break;
        }
        close(sv[0]);
        close(sv[1]);
    }
    /* Runs inherit the zygote's limit where no reserve was set (see reserve_descriptors_in_flight). */
    if (have_limit && setrlimit(RLIMIT_NOFILE, &files) != 0) die_with_error("the zygote restoring RLIMIT_NOFILE");
    struct timespec tick = {0, 1000000};
    for (int waited = 0; waited < 1000 && sockets_left() > 0; waited++) nanosleep(&tick, NULL);
    struct timespec deferred = {0, DEFERRED_CLOSE_WAIT_MS * 1000000L};
    nanosleep(&deferred, NULL);
    return sockets_left() > 0;
}
#endif /* __linux__ */
