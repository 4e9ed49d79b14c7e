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

static void reply_line(int sock, const char *line) {
    if (!write_all(sock, line, strlen(line))) _exit(0); /* the helper is gone, and its runs with it */
}

static void serve_runs(int sock) {
    int tmp_mounted = 0, shm_mounted = 0;
    int fresh = 0; /* /tmp and /dev/shm are new and no run has had them */
    int has_shm = is_directory("/dev/shm");
    size_tmpfs();
    char line[600];
    for (;;) {
        struct request r;
        int fds[3];
        if (!zygote_receive(sock, &r, fds)) _exit(0);
        long long own_start = own_cpu_us(); /* what of the helper's CPU cgroup delta is our own work */
        if (!fresh && (fresh_tmpfs("/tmp", &tmp_mounted, 1) != 0 || (has_shm && fresh_tmpfs("/dev/shm", &shm_mounted, 0) != 0))) {
            snprintf(line, sizeof line, "nostart stage=sandbox_tmp errno=%d\n", errno);
            reply_line(sock, line);
        } else if (fresh_ipc() != 0) {
            snprintf(line, sizeof line, "nostart stage=sandbox_ipc errno=%d\n", errno);
            reply_line(sock, line);
        } else if (enter_fresh_netns() != 0) {
            snprintf(line, sizeof line, "nostart stage=sandbox_net errno=%d\n", errno);
            reply_line(sock, line);
        } else {
            struct spawn s = {&r, {fds[0], fds[1], fds[2]}, 1, 0, NULL, 0, -1};
            char failure[96];
            reset_last_pid();
            long long clock0 = task_clock_us();
            long long own0 = own_cpu_us();
            long long faults0 = fault_count();
            long long memcg_faults0 = memcg_faults();
            long long own_faults0 = own_faults();
            long long started = now_us();
            pid_t pid = spawn_target(&s, failure, sizeof failure);
            fresh = 0;
            for (int i = 0; i < 3; i++) close(fds[i]);
            if (pid < 0) {
                char stage[32] = "exec";
                int err = 0;
                sscanf(failure, "%31s %d", stage, &err);
                snprintf(line, sizeof line, "nostart stage=%s errno=%d\n", stage, err);
                reply_line(sock, line);
            } else {
                struct outcome out;
                memset(&out, 0, sizeof out);
                /* In the run's own namespace, which this process joined for it. */
                sockets.sampling = 1;
                wait_target(pid, s.pidfd, &r, 1, started, 0, &out);
                if (!sockets.sampling) out.socket_peak = -1;
                sockets.sampling = 0;
                if (sockets.diag >= 0) {
                    close(sockets.diag);
                    sockets.diag = -1;
                }
                if (sockets.stat >= 0) {
                    close(sockets.stat);
                    sockets.stat = -1;
                }
                if (sockets.stat6 >= 0) {
                    close(sockets.stat6);
                    sockets.stat6 = -1;
                }
                finish_tree(&out.tree, pid, 1);
                clear_ipc();
                int garbage_left = collect_unix_garbage();
                /* The run's /tmp and /dev/shm go now, before the reply: left until the next run, their files
                 * would hold memory charged to the cgroup when the helper takes the next run's baseline (hiding
                 * that much of the next run's peak) and outlive the run. The check at the next start repeats. */
                fresh = fresh_tmpfs("/tmp", &tmp_mounted, 1) == 0 && (!has_shm || fresh_tmpfs("/dev/shm", &shm_mounted, 0) == 0);
                struct rusage *u = &out.tree.usage;
                int signaled = WIFSIGNALED(out.status);
                int sig = signaled ? WTERMSIG(out.status) : 0;
                long long utime = (long long)u->ru_utime.tv_sec * 1000000LL + u->ru_utime.tv_usec;
                long long stime = (long long)u->ru_stime.tv_sec * 1000000LL + u->ru_stime.tv_usec;
                long long clock1 = task_clock_us();
                long long own1 = own_cpu_us();
                long long faults1 = fault_count();
                long long memcg_faults1 = memcg_faults();
                long long own_faults1 = own_faults();
                /* A process the kernel reaped itself (its parent ignored SIGCHLD) reached no wait4: its CPU only the
                 * counters saw, and its peak RSS, faults and I/O nobody. Told by the faults it took, or by CPU well
                 * past the clock's noise; then its CPU is charged as user time (the clock has no user/system split)
                 * and the answer says how much, so that no per-process figure of the run is trusted. Our own work
                 * is taken out exactly. -1: no counter here, the helper's CPU cgroup may tell instead. */
                long long unwaited = -1;
                int memcg_told = memcg_faults0 >= 0 && memcg_faults1 >= memcg_faults0 && own_faults0 >= 0 && own_faults1 >= own_faults0;
                long long memcg_hidden = memcg_told ? memcg_faults1 - memcg_faults0 - (own_faults1 - own_faults0) - (u->ru_minflt + u->ru_majflt) : 0;
                if (memcg_hidden > counters.memcg_fault_noise) unwaited = 1; /* the CPU it took is the cgroup's to tell */
                if (clock0 >= 0 && clock1 >= clock0 && own0 >= 0 && own1 >= own0) {
                    long long excess = clock1 - clock0 - (own1 - own0) - (utime + stime);
                    if (excess < 0) excess = 0;
                    long long hidden_faults = faults0 >= 0 && faults1 >= faults0 && own_faults0 >= 0 && own_faults1 >= own_faults0
                        ? faults1 - faults0 - (own_faults1 - own_faults0) - (u->ru_minflt + u->ru_majflt) : 0;
                    int cpu_escaped = excess > UNWAITED_CLOCK_NOISE_US + (utime + stime + own1 - own0) / 4;
                    /* Where the memory cgroup's faults are told, they alone tell an escape: an escaped process's
                     * memory shows there, CPU alone is counted but loses no per-process figure, and the perf
                     * counter's faults are the weaker account (a waited process's faults taken in the kernel,
                     * which rusage counts and it does not, offset them; failed faults, such as an honest
                     * program's caught SIGBUS, count there and not in rusage). */
                    int escaped = unwaited > 0 || (!memcg_told && (hidden_faults > UNWAITED_FAULT_NOISE || cpu_escaped));
                    unwaited = escaped ? (excess > 0 ? excess : 1) : 0;
                    if (escaped || cpu_escaped) utime += excess;
                }
                if (garbage_left && unwaited <= 0) unwaited = 1;
                long long own_end = own_cpu_us();
                snprintf(line, sizeof line,
                        "done status=%s code=%d signal=%d signame=%s timed_out=%d maxrss_kb=%ld utime_us=%lld "
                        "stime_us=%lld minflt=%ld majflt=%ld inblock=%ld oublock=%ld wall_us=%lld leftovers=%d cpu_wait_us=%lld leader_cpu_us=%lld "
                        "unwaited_cpu_us=%lld init_cpu_us=%lld tasks=%lld socket_kb=%lld\n",
                        signaled ? "signaled" : "exited", signaled ? 0 : WEXITSTATUS(out.status), sig,
                        signaled ? signal_name(sig) : "-", out.timed_out, (long)u->ru_maxrss, utime, stime,
                        (long)u->ru_minflt, (long)u->ru_majflt, (long)u->ru_inblock, (long)u->ru_oublock, out.wall_us,
                        out.tree.leftovers, out.cpu_wait_us, out.leader_cpu_us, unwaited,
                        own_start >= 0 && own_end >= own_start ? own_end - own_start : 0, tasks_created(),
                        out.socket_peak < 0 ? -1 : out.socket_peak / 1024);
                reply_line(sock, line);
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
