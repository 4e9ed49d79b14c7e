#include "pg-helper.h"

/* The sandbox's view, as main() read it from the command line. */
struct sandbox_spec spec;

#ifdef __linux__
/* Why the sandbox could not be set up: the first failing step and its errno, sent to the helper. */
void zygote_fail(int report_fd, const char *stage) {
    char message[128];
    int len = snprintf(message, sizeof message, "fail %s %d", stage, errno);
    if (write(report_fd, message, (size_t)len) < 0) { /* the helper then reads no answer, and says "unknown" */ }
    _exit(2);
}

/*
 * The user namespace's maps, written by the helper from the parent namespace: mapping uid 0 needs
 * CAP_SETFCAP there, which the zygote no longer has once it has unshared. Never root inside: exec
 * then clears every capability the namespace gave.
 */
static const char *write_maps(pid_t pid) {
    uid_t uid = geteuid();
    gid_t gid = getegid();
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/setgroups", (int)pid);
    if (write_text(path, "deny") != 0 && errno != ENOENT) return "setgroups";
    snprintf(path, sizeof path, "/proc/%d/uid_map", (int)pid);
    if (write_text(path, "%d %d 1\n", uid == 0 ? 1000 : (int)uid, (int)uid) != 0) return "uid_map";
    snprintf(path, sizeof path, "/proc/%d/gid_map", (int)pid);
    if (write_text(path, "%d %d 1\n", gid == 0 ? 1000 : (int)gid, (int)gid) != 0) return "gid_map";
    return NULL;
}

static int zygote_main(int sock, int report, int go, pid_t helper_pid) {
    /* Without it the zygote, and with it every run's PID 1, would outlive a helper that was killed. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) zygote_fail(report, "pdeathsig");
    if (getppid() != helper_pid) _exit(0); /* the helper is gone already */
    /* A session of our own, so a scheduler autogroup of our own: a run that lowers its autogroup's
     * priority (/proc/self/autogroup) must not lower the JVM's and Maven's with it. */
    if (setsid() < 0) zygote_fail(report, "setsid");
    /* The helper's SIGCHLD self-pipe is its own: this process wakes on a new one. */
    if (close(helper.sigchld_pipe[0]) != 0 || close(helper.sigchld_pipe[1]) != 0) zygote_fail(report, "pipe");
    if (pipe2(helper.sigchld_pipe, O_CLOEXEC | O_NONBLOCK) != 0) zygote_fail(report, "pipe");
    if (spec.deny_userns) {
        errno = EPERM;
        zygote_fail(report, "userns");
    }
    /* The network maker leaves the measured cgroups; opened here, as the helper's user, before the
     * user namespace (a cgroup file checks who opened it). */
    int leave[2] = {memcg.version ? open(memcg.parent_procs, O_WRONLY | O_CLOEXEC) : -1,
                    cpucg.version == 1 ? open(cpucg.parent_procs, O_WRONLY | O_CLOEXEC) : -1};
    if ((memcg.version && leave[0] < 0) || (cpucg.version == 1 && leave[1] < 0)) zygote_fail(report, "net_maker_cgroup");
    /* The helper is not dumpable, and neither would we be: then our /proc files belong to root and the
     * helper (not root) could not write our maps. Dumpable again until they are written and the root
     * is built; no candidate runs yet. */
    if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0) zygote_fail(report, "dumpable");
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWNET) != 0) zygote_fail(report, "userns");
    /* The helper writes our maps now; its answer is one byte, or EOF if it could not. */
    if (write(report, "maps", 4) != 4) _exit(2);
    char answer;
    if (read(go, &answer, 1) != 1) _exit(2);
    close(go);
    /* Namespaces made by runs are charged up to the caller's host-wide quota: a run holding all of
     * them would stop every other sandbox on the machine from starting (and sandbox=auto would then
     * run candidates without one). Our own namespace caps what its runs can take, with room for the
     * namespaces of ended runs that the kernel frees in the background. */
    static const char *const quotas[] = {"user", "mnt", "net", "pid", "ipc", "uts", "cgroup", "time"};
    for (size_t i = 0; i < sizeof quotas / sizeof quotas[0]; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/sys/user/max_%s_namespaces", quotas[i]);
        /* No user namespace of a run's own: in one, a run holds the capabilities to make IPC namespaces and
         * tmpfs mounts that the zygote cannot see to clear, and whose memory the kernel frees only after the next
         * run has taken its baseline (a 300 MB segment hid that much of the next run's peak). */
        /* Nothing else stops that: the target's seccomp filter lets clone and unshare make namespaces. So a quota
         * of user namespaces that cannot be set ends the sandbox, on any kernel; the others only keep runs from
         * using up the host's quotas, and kernels before 4.9 (time: 5.6) have no file for them. */
        if (write_text(path, "%s", i == 0 ? "0" : "1024") != 0 && (i == 0 || errno != ENOENT))
            zygote_fail(report, i == 0 ? "userns_quota" : "namespace_quota");
    }
    /* The host's /proc, ours to read once the runs' namespace has its own there: in that one we have no pid. */
    zygote_proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (zygote_proc < 0) zygote_fail(report, "zygote_proc");
    build_root(report);
    /* Nothing of ours may be traced or read through /proc by what runs below. */
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) zygote_fail(report, "undumpable");
    /* The network maker: forked before the PID namespace, so that no run sees it; up once it has left
     * the measured cgroups. */
    int nets[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, nets) != 0) zygote_fail(report, "net_maker");
    pid_t zygote = getpid();
    pid_t maker = fork_quiet();
    if (maker < 0) zygote_fail(report, "net_maker");
    if (maker == 0) {
        close(nets[0]);
        close(sock);
        close(report);
        close(zygote_proc);
        net_maker_main(nets[1], zygote, leave);
        _exit(0);
    }
    close(nets[1]);
    for (int i = 0; i < 2; i++) if (leave[i] >= 0) close(leave[i]);
    char up[32] = "";
    ssize_t got;
    do {
        got = read(nets[0], up, sizeof up - 1);
    } while (got < 0 && errno == EINTR);
    if (got != 2 || memcmp(up, "up", 2) != 0) {
        char stage[32] = "net_maker";
        int err = EPROTO;
        up[got > 0 ? got : 0] = '\0';
        if (sscanf(up, "fail %31s %d", stage, &err) != 2) err = EPROTO;
        errno = err;
        zygote_fail(report, stage);
    }
    /* Joining its network namespace through a pidfd works from 5.8 on: tried once here (its namespace now
     * is ours from the user namespace's making, none a run has had). */
    net_maker.pidfd = (int)syscall(434 /* pidfd_open */, maker, 0);
    if (net_maker.pidfd >= 0 && setns(net_maker.pidfd, CLONE_NEWNET) != 0) {
        close(net_maker.pidfd);
        net_maker.pidfd = -1;
    }
    if (net_maker.pidfd >= 0 && fcntl(net_maker.pidfd, F_SETFD, FD_CLOEXEC) != 0) zygote_fail(report, "net_maker");
    if (write(nets[0], net_maker.pidfd >= 0 ? "p" : "f", 1) != 1) zygote_fail(report, "net_maker");
    net_maker.sock = nets[0];
    if (unshare(CLONE_NEWUTS | CLONE_NEWPID) != 0) zygote_fail(report, "pid_namespace");
    if (sethostname("patchgrade", 10) != 0) zygote_fail(report, "hostname");
    /* Our first child is PID 1 of the new namespace; every later one, each run's target, lands there too. We stay
     * outside, the runs' measurer: a run cannot name us. PID 1 says "u" once /proc is up (or tells the helper why
     * not), and takes only the requests of pg-serve.c. */
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) zygote_fail(report, "init_socket");
    pid_t init = fork_quiet();
    if (init < 0) zygote_fail(report, "fork_init");
    if (init == 0) {
        int ours[] = {pair[0], sock, nets[0], zygote_proc, net_maker.pidfd, counters.memcg_stat_fd};
        for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++) {
            if (ours[i] >= 0 && close(ours[i]) != 0) _exit(2);
        }
        zygote_proc = -1;
        init_main(pair[1], report);
        _exit(0);
    }
    if (close(pair[1]) != 0) zygote_fail(report, "init_socket");
    reaper.sock = pair[0];
    char init_up;
    ssize_t said;
    do {
        said = read(reaper.sock, &init_up, 1);
    } while (said < 0 && errno == EINTR);
    if (said != 1 || init_up != 'u') {
        errno = EPROTO;
        zygote_fail(report, "init"); /* PID 1 told the helper first where it could */
    }
    hold_kept_paths();
    /* Inherited by every target and what it starts, not by PID 1 or the network maker, forked before. */
    open_task_clock();
    char ok[16];
    int ok_len = snprintf(ok, sizeof ok, "ok %d", counters.task_clock_fd >= 0);
    if (write(report, ok, (size_t)ok_len) != ok_len) _exit(2);
    if (close(report) != 0) _exit(2);
    serve_runs(sock);
    _exit(0);
}
#endif /* __linux__ */

/* Starts the zygote; returns NULL when the sandbox is up, else why not ("stage:errno"). */
const char *start_zygote(char *why, size_t why_len) {
#if defined(__linux__) && !defined(PG_SECCOMP_ARCH)
    /* No seccomp filter for this architecture: its runs would reach the host's unix sockets. */
    snprintf(why, why_len, "unsupported_arch:0");
    return why;
#elif defined(__linux__)
    int sv[2], report[2], go[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0 || pipe2(report, O_CLOEXEC) != 0 || pipe2(go, O_CLOEXEC) != 0) {
        snprintf(why, why_len, "socketpair:%d", errno);
        return why;
    }
    pid_t helper_pid = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, why_len, "fork:%d", errno);
        return why;
    }
    if (pid == 0) {
        close(sv[0]);
        close(report[0]);
        close(go[1]);
        if (helper.pid_file >= 0) close(helper.pid_file);
        helper.pid_file = -1;
        if (helper.pid_page) munmap(helper.pid_page, PID_LINE);
        helper.pid_page = NULL;
        zygote_main(sv[1], report[1], go[0], helper_pid);
        _exit(0);
    }
    close(sv[1]);
    close(report[1]);
    close(go[0]);
    char answer[128] = "";
    ssize_t n;
    do {
        n = read(report[0], answer, sizeof answer - 1);
    } while (n < 0 && errno == EINTR);
    if (n == 4 && memcmp(answer, "maps", 4) == 0) {
        const char *failed = write_maps(pid);
        if (failed) {
            snprintf(answer, sizeof answer, "fail %s %d", failed, errno);
            n = (ssize_t)strlen(answer);
        } else if (write(go[1], "g", 1) != 1) {
            snprintf(answer, sizeof answer, "fail go %d", errno);
            n = (ssize_t)strlen(answer);
        } else {
            do {
                n = read(report[0], answer, sizeof answer - 1);
            } while (n < 0 && errno == EINTR);
        }
    }
    close(go[1]);
    close(report[0]);
    if (n >= 2 && memcmp(answer, "ok", 2) == 0) {
        answer[n] = '\0';
        sscanf(answer, "ok %d", &counters.task_clock_in_sandbox);
        helper.zygote_sock = sv[0];
        helper.zygote_pid = pid;
        return NULL;
    }
    answer[n > 0 ? n : 0] = '\0';
    char stage[64] = "unknown";
    int err = 0;
    sscanf(answer, "fail %63s %d", stage, &err);
    snprintf(why, why_len, "%s:%d", stage, err);
    close(sv[0]);
    int status;
    waitpid(pid, &status, 0);
    return why;
#else
    snprintf(why, why_len, "unsupported:0");
    return why;
#endif
}
