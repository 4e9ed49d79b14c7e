#include "pg-helper.h"

#ifdef __linux__
/* Receives one request and its three descriptors from the helper over the socket. */
static int zygote_receive(int sock, struct request *r, int fds[3]) {
    char header[HEADER_LENGTH];
    char control[FD_CONTROL_SPACE];
    struct iovec iov;
    struct msghdr msg;
    fd_message(&msg, &iov, header, control);
    ssize_t n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    if (n != HEADER_LENGTH) return 0;
    struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
    if (!cmsg || cmsg->cmsg_type != SCM_RIGHTS || cmsg->cmsg_len != CMSG_LEN(3 * sizeof(int))) return 0;
    memcpy(fds, CMSG_DATA(cmsg), 3 * sizeof(int));
    unsigned long long len = body_length(header);
    if (len == 0) return 0;
    memset(r, 0, sizeof *r);
    r->body = malloc((size_t)len);
    if (!r->body) return 0;
    r->len = (size_t)len;
    if (!read_exact(sock, r->body, r->len) || !parse_request(r)) return 0;
    return 1;
}

/*
 * Each run has an IPC namespace of PID 1's making, entered by PID 1 itself: when the run ends PID 1 is still
 * in it and removes every SysV segment, queue and semaphore set there. Dropping the namespace alone frees
 * them later, from a kernel work queue: a segment left at exit was still in memory when the next run took its
 * cgroup baseline, and hid that much of its peak. 0, or -1 with errno.
 */
static int fresh_ipc(void) {
    return unshare(CLONE_NEWIPC);
}

static void clear_ipc(void) {
    struct shm_info shm;
    int max = shmctl(0, SHM_INFO, (struct shmid_ds *)(void *)&shm);
    for (int i = 0; max >= 0 && shm.used_ids > 0 && i <= max; i++) {
        struct shmid_ds ds;
        int id = shmctl(i, SHM_STAT_ANY, &ds);
        if (id < 0 && errno == EINVAL) id = shmctl(i, SHM_STAT, &ds); /* before Linux 4.17 */
        if (id >= 0) shmctl(id, IPC_RMID, NULL);
    }
    struct msginfo msg;
    max = msgctl(0, MSG_INFO, (struct msqid_ds *)(void *)&msg);
    for (int i = 0; max >= 0 && msg.msgpool > 0 && i <= max; i++) {
        struct msqid_ds ds;
        int id = msgctl(i, MSG_STAT_ANY, &ds);
        if (id < 0 && errno == EINVAL) id = msgctl(i, MSG_STAT, &ds);
        if (id >= 0) msgctl(id, IPC_RMID, NULL);
    }
    struct seminfo sem;
    max = semctl(0, 0, SEM_INFO, &sem);
    for (int i = 0; max >= 0 && sem.semusz > 0 && i <= max; i++) {
        struct semid_ds ds;
        int id = semctl(i, 0, SEM_STAT_ANY, &ds);
        if (id < 0 && errno == EINVAL) id = semctl(i, 0, SEM_STAT, &ds);
        if (id >= 0) semctl(id, 0, IPC_RMID);
    }
}

/* One record to the helper, in one message of its exact size. */
static void send_report(int sock, const struct run_report *rep) {
    if (!write_all(sock, rep, sizeof *rep)) _exit(0); /* the helper is gone, and its runs with it */
}

static void send_nostart(int sock, const char *stage, int err) {
    struct run_report rep;
    memset(&rep, 0, sizeof rep);
    snprintf(rep.stage, sizeof rep.stage, "%s", stage);
    rep.err = err;
    send_report(sock, &rep);
}

static void close_socket_sampler(void) {
    sockets.sampling = 0;
    int *fds[3] = {&sockets.diag, &sockets.stat, &sockets.stat6};
    for (int i = 0; i < 3; i++) {
        if (*fds[i] >= 0) close(*fds[i]);
        *fds[i] = -1;
    }
}

/* Each run: measured here, weighed by the helper (answer_run), which gets the counters' readings as they are. */
static void serve_runs(int sock) {
    int tmp_mounted = 0, shm_mounted = 0;
    int fresh = 0; /* /tmp and /dev/shm are new and no run has had them */
    int has_shm = is_directory("/dev/shm");
    size_tmpfs();
    for (;;) {
        struct request r;
        int fds[3];
        if (!zygote_receive(sock, &r, fds)) _exit(0);
        long long own_start = own_cpu_us(); /* what of the helper's CPU cgroup delta is our own work */
        if (!fresh && (fresh_tmpfs("/tmp", &tmp_mounted, 1) != 0 || (has_shm && fresh_tmpfs("/dev/shm", &shm_mounted, 0) != 0))) {
            send_nostart(sock, "sandbox_tmp", errno);
        } else if (fresh_ipc() != 0) {
            send_nostart(sock, "sandbox_ipc", errno);
        } else if (enter_fresh_netns() != 0) {
            send_nostart(sock, "sandbox_net", errno);
        } else {
            struct spawn s = {&r, {fds[0], fds[1], fds[2]}, 1, 0, NULL, 0, -1};
            char failure[96];
            struct run_report rep;
            reset_last_pid();
            struct run_counters before;
            read_run_counters(&before);
            long long started = now_us();
            pid_t pid = spawn_target(&s, failure, sizeof failure);
            fresh = 0;
            for (int i = 0; i < 3; i++) close(fds[i]);
            if (pid < 0) {
                report_nostart(&rep, failure);
                send_report(sock, &rep);
            } else {
                struct outcome out;
                memset(&out, 0, sizeof out);
                /* In the run's own namespace, which this process joined for it. */
                sockets.sampling = 1;
                wait_target(pid, s.pidfd, &r, 1, started, 0, &out);
                if (!sockets.sampling) out.socket_peak = -1;
                close_socket_sampler();
                finish_tree(&out.tree, pid, 1);
                clear_ipc();
                int garbage_left = collect_unix_garbage();
                /* The run's /tmp and /dev/shm go now, before the reply: left until the next run, their files
                 * would hold memory charged to the cgroup when the helper takes the next run's baseline (hiding
                 * that much of the next run's peak) and outlive the run. The check at the next start repeats. */
                fresh = fresh_tmpfs("/tmp", &tmp_mounted, 1) == 0 && (!has_shm || fresh_tmpfs("/dev/shm", &shm_mounted, 0) == 0);
                report_outcome(&rep, &out);
                rep.before = before;
                read_run_counters(&rep.after);
                rep.garbage_left = garbage_left;
                rep.tasks = tasks_created();
                rep.socket_peak = out.socket_peak;
                long long own_end = own_cpu_us();
                rep.init_cpu_us = own_start >= 0 && own_end >= own_start ? own_end - own_start : 0;
                send_report(sock, &rep);
            }
        }
        free_request(&r);
    }
}

/* PID 1: /proc of its own namespace, the kept paths held, then it serves runs until the helper goes. */
/* PID 1's command line is readable by the child, and would list the hidden paths and where the
 * helper lives. */
static void forget_command_line(void) {
    for (int i = 0; i < spec.count; i++) {
        spec.ops[i].path = strdup(spec.ops[i].path);
        if (!spec.ops[i].path) _exit(2);
        if (spec.ops[i].target && !(spec.ops[i].target = strdup(spec.ops[i].target))) _exit(2);
    }
    for (int i = 0; i < helper.argc; i++) memset(helper.argv[i], 0, strlen(helper.argv[i]));
    snprintf(helper.argv[0], 5, "%s", "init");
}

void init_main(int sock, int report, int maker_sock) {
    /* Without it PID 1, and the PID namespace with it, would outlive a zygote that was killed. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) != 0) zygote_fail(report, "pdeathsig");
    if (getppid() != 0) _exit(2); /* PID 1 sees no parent: anything else means the zygote is gone */
    forget_command_line();
    net_maker.sock = maker_sock;
    hold_kept_paths();
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
    open_task_clock();
    char ok[16];
    int ok_len = snprintf(ok, sizeof ok, "ok %d", counters.task_clock_fd >= 0);
    if (write(report, ok, (size_t)ok_len) != ok_len) _exit(2);
    close(report);
    serve_runs(sock);
}
#endif /* __linux__ */
