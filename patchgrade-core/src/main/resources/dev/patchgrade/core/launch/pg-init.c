#include "pg-helper.h"

/*
 * PID 1 of a worker's runs: only what must be done from inside their PID namespace (bubblewrap's do_init shape).
 * After setting up the namespace's /proc it runs one loop: it reaps every child as it ends (a run's orphans
 * reparent to it, not to the zygote, which is outside the namespace), summing their rusage into the run's tree,
 * and on the zygote's requests signals the whole namespace (the timeout) or ends the run: everything left killed
 * and reaped, the pid counter read and set back, one fixed-size answer. The zygote (pg-serve.c) does the rest.
 * PID 1 of a namespace is immune to every signal sent from inside it that it has no handler for: SIGSTOP and
 * SIGKILL from a run cannot stop or end it.
 */

#ifdef __linux__
/* The loop: a child's end (SIGCHLD, through a signalfd) and the zygote's requests, until the zygote goes. */
static void reap_runs(int zygote) {
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    if (sigprocmask(SIG_BLOCK, &chld, NULL) != 0) die_with_error("PID 1 blocking SIGCHLD");
    int ended = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
    if (ended < 0) die_with_error("PID 1 making its SIGCHLD signalfd");
    struct tree tree;
    memset(&tree, 0, sizeof tree);
    long long cpu_mark = own_cpu_us(), faults_mark = own_faults();
    for (;;) {
        struct pollfd ready[2] = {{zygote, POLLIN, 0}, {ended, POLLIN, 0}};
        if (poll(ready, 2, -1) < 0) {
            if (errno == EINTR) continue;
            die_with_error("PID 1 polling for its children and the zygote");
        }
        if (ready[1].revents & POLLIN) {
            struct signalfd_siginfo info;
            while (read(ended, &info, sizeof info) == (ssize_t)sizeof info) { }
            reap_ended(&tree, 0);
        }
        if (!ready[0].revents) continue;
        char request;
        ssize_t n = recv(zygote, &request, 1, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n != 1) _exit(0); /* the zygote is gone: the namespace goes with us */
        if (request == REAPER_TERM || request == REAPER_KILL) {
            /* Every process of the namespace but ours: ESRCH when the target was alone and has ended, EPERM where
             * none left could be signalled (the end of the run kills and reaps whatever is left). */
            if (kill(-1, request == REAPER_TERM ? SIGTERM : SIGKILL) != 0 && errno != ESRCH && errno != EPERM)
                die_with_error("PID 1 signalling the run");
            continue;
        }
        if (request != REAPER_END) _exit(2);
        finish_tree(&tree, 0, 1);
        struct reaped got = {.tree = tree, .tasks = tasks_created()};
        reset_last_pid();
        long long cpu = own_cpu_us(), faults = own_faults();
        got.own_cpu_us = cpu >= 0 && cpu_mark >= 0 ? cpu - cpu_mark : -1;
        got.own_faults = faults >= 0 && faults_mark >= 0 ? faults - faults_mark : -1;
        if (send(zygote, &got, sizeof got, MSG_NOSIGNAL) != (ssize_t)sizeof got) _exit(0);
        memset(&tree, 0, sizeof tree);
        cpu_mark = cpu;
        faults_mark = faults;
    }
}

/* PID 1's command line is readable by the child, and would list the hidden paths and where the
 * helper lives. */
static void forget_command_line(void) {
    for (int i = 0; i < helper.argc; i++) memset(helper.argv[i], 0, strlen(helper.argv[i]));
    snprintf(helper.argv[0], 5, "%s", "init");
}

/* PID 1: /proc of its own namespace, then the loop until the zygote goes. `zygote` is its end of the zygote's
 * requests; a failed step is told on `report`, the helper's. */
void init_main(int zygote, int report) {
    /* Without it PID 1, and the PID namespace with it, would outlive a zygote that was killed. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) zygote_fail(report, "pdeathsig");
    if (getppid() != 0) _exit(2); /* PID 1 sees no parent: anything else means the zygote is gone */
    forget_command_line();
    /* hidepid=2: a run sees only processes it may trace, so not us. Our /proc files belong to the uid the
     * target runs as when Maven is root (a process that is not dumpable has root's, and root is the
     * target's uid outside): coredump_filter took 9 bits a run for the next, and /proc/1/stat's counts of
     * what we reaped (cminflt) carried a byte from one run to the next. The group exempt from hiding is
     * root's unless named, and root's group is the target's when Maven is root: a group no one here has. */
    char proc_options[64];
    snprintf(proc_options, sizeof proc_options, "hidepid=2,gid=%u", getegid() == 0 ? 1u : 0u);
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, proc_options) != 0) zygote_fail(report, "proc");
    counters.last_pid_fd = open("/proc/sys/kernel/ns_last_pid", O_RDWR | O_CLOEXEC);
    /* The runs see a second instance over this one, read-only: writing /proc/self/clear_refs resets a
     * process's peak RSS, the very figure wait4 reports (a cheating run touched 256 MB, reset it and
     * passed a 20 MB ceiling). Stdout reopened through /proc/self/fd is the file's own mount, so it
     * stays writable. This instance holds the pid counter's descriptor, which a read-only remount of
     * it would refuse. */
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, proc_options) != 0) zygote_fail(report, "proc_readonly");
    mask_proc_files(report);
    /* The target's uid is the caller's, host root when Maven runs as root: sysctls (core_pattern...)
     * would take its writes. Read-only, as bubblewrap does. */
    static const char *const proc_read_only[] = {"/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus"};
    for (size_t i = 0; i < sizeof proc_read_only / sizeof proc_read_only[0]; i++) {
        const char *path = proc_read_only[i];
        if (access(path, F_OK) != 0) continue;
        if (mount(path, path, NULL, MS_BIND | MS_REC, NULL) != 0 ||
            mount(NULL, path, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
            zygote_fail(report, "proc_read_only");
    }
    /* Up: the zygote opens its counters now, on itself, so that they count the runs and not us. */
    if (write(zygote, "u", 1) != 1) _exit(2);
    if (close(report) != 0) _exit(2);
    reap_runs(zygote);
}
#endif /* __linux__ */
