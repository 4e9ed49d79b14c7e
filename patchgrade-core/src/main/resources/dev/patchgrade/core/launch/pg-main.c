/*
 * patchgrade launch helper.
 *
 * The JVM keeps one of these per worker and sends it one request per launch. The helper starts the
 * target from its own small image, so the target's ru_maxrss is its own peak and not the JVM's
 * high-water mark (the kernel records the old image's peak at exec; a child spawned straight from
 * the JVM inherits the JVM's).
 *
 * Whole-tree figures: every process the target starts is reaped by a process of ours (the helper as
 * child subreaper, or in the sandbox the zygote for the target and the PID 1 of the run's PID namespace
 * for the rest), each with wait4, so CPU, faults and block I/O are summed and ru_maxrss is the largest
 * single process over the tree, waited for or not.
 * Whatever is still alive when the target exits is killed and counted as a leftover.
 *
 * Sandbox (--sandbox): at start the helper forks a zygote that enters new user, mount and network
 * namespaces and builds the candidate's view of the file system once: the host read-only, hidden
 * paths covered by empty unreadable mounts, read-only and writable exceptions bound back, then
 * pivot_root so the host tree is gone from its namespace. It then makes new UTS and PID namespaces for
 * its children and forks the worker's PID 1, which mounts /proc once and then only reaps: every
 * process of a run that is not the zygote's child, and on the zygote's request everything left at the
 * end of a run (pg-init.c). The zygote itself stays outside the PID namespace and serves every run
 * (pg-serve.c): a fresh /tmp and /dev/shm, the target started as its own child, a non-root user without
 * capabilities in IPC and network namespaces of its own (the network one made ahead by the worker's
 * network maker, outside the measured cgroups), waited for and measured from where the run cannot
 * name it (its getppid() is 0), and after it exits everything else in the PID namespace killed and
 * reaped by PID 1 (creating and tearing down PID and mount namespaces per run would cost more than the
 * launch itself). The output files are opened by the helper outside the sandbox
 * and passed in as descriptors. Dying parents take their children along (PR_SET_PDEATHSIG), and a
 * PID namespace dies with its PID 1, so nothing outlives a run or its helper.
 * What runs share (the zygote's user and mount namespaces) must carry nothing from one run
 * to the next, and nothing of the host may take the target's writes: /dev is a read-only tmpfs with
 * the harmless nodes only, /run is empty, /proc/sys is read-only, the target's seccomp filter
 * refuses the keyring calls, each run's output files are new inodes, and the zygote caps the namespaces runs can hold. Nor may a run
 * reach past the network namespace: the filter refuses every socket family but TCP streams (AF_VSOCK
 * reaches the hypervisor), any unix socket that can name a path (socket(AF_UNIX), a datagram
 * socketpair; a pathname connect() crosses a read-only mount, to any host daemon's socket the view
 * shows) and io_uring (whose socket operations pass no filter). A stream or seqpacket socketpair
 * still works.
 *
 * Start: pg-launch-helper <pid-file> [--no-pidfd] [--sandbox] [--hide P]... [--ro P]... [--rw P]...
 *        [--cgroup] [--deny-userns]
 * First line on stdout: "ready sandbox=<namespaces|off> reason=<word> cgroup=<v1|v2|none> cpu_cgroup=<v1|v2|none>",
 * with the sandbox up also "task_clock=<0|1>" (whether the zygote has its perf task-clock counter).
 * Request on stdin: "PGRUN1 <length as 10 digits>\n", then <length> bytes of NUL-terminated fields:
 *   token timeout_ms grace_ms output_cap_bytes exe cwd stdin_path stdout_path stderr_path
 *   argc argv... envc env...
 * Reply (one line on stdout):
 *   "done status=<exited|signaled> code=<n> signal=<n> signame=<NAME> timed_out=<0|1> maxrss_kb=<n>
 *    utime_us=<n> stime_us=<n> minflt=<n> majflt=<n> inblock=<n> oublock=<n> wall_us=<n>
 *    leftovers=<n> cpu_wait_us=<n> leader_cpu_us=<n> unwaited_cpu_us=<n> init_cpu_us=<n> tasks=<n>
 *    tree_rss_kb=<n or -1>" in that order (pg-account.c's answer_run; HelperProtocol.DONE_KEYS takes exactly these),
 *   where unwaited_cpu_us is the CPU of processes that escaped every wait4, already in utime_us (0: none, 1 or more:
 *   something escaped, -1: nothing could tell), init_cpu_us the zygote's and PID 1's own CPU during the run (0 without
 *   the sandbox or its clock) and tasks the tasks the run made (-1 where not counted); or
 *   "nostart stage=<stage> errno=<n>" when the target could not be started;
 *   either ends with " run=<token>", the request's token (1 to 32 hex digits): a line that a child
 *   managed to write into our stdout cannot pass for the answer to a request it never saw.
 * Without the sandbox, the running target's pid is written to the pid file (and 0 once it is
 * reaped), so the JVM can kill its process group should the helper itself die.
 */
#include "pg-helper.h"

struct helper_state helper = {.pid_file = -1, .sigchld_pipe = {-1, -1}, .zygote_sock = -1, .zygote_pid = -1};

/* A new inode every run: a slot's file is given to each of its runs, and whatever a run set on it
 * (an xattr, its times, its mode) must not reach the next. */
static int open_output(const char *path) {
    if (unlink(path) != 0 && errno != ENOENT) return -1;
    return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}

/* The zygote's record of a run, in one message of exactly its size: anything else is a zygote gone wrong. 0 when the
 * zygote or the JVM has gone. */
static int receive_report(struct run_report *rep) {
    char message[sizeof *rep + 1];
    for (;;) {
        struct pollfd pfd[2] = {{helper.zygote_sock, POLLIN, 0}, {0, LIFELINE_EVENTS, 0}};
        int ready = poll(pfd, 2, 1000);
        if (ready < 0 && errno != EINTR) return 0;
        if (ready <= 0) continue;
        if ((pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) && lifeline_lost(pfd[1].revents)) return 0;
        if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) break;
    }
    ssize_t n;
    do {
        n = recv(helper.zygote_sock, message, sizeof message, 0);
    } while (n < 0 && errno == EINTR);
    if (n != (ssize_t)sizeof *rep) return 0;
    memcpy(rep, message, sizeof *rep);
    rep->stage[sizeof rep->stage - 1] = '\0';
    /* A stage is a word of ours: it reaches the JVM's line as it is. */
    return rep->started || (rep->stage[0] && strspn(rep->stage, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(rep->stage));
}

/* One run inside the sandbox: descriptors opened here, the run itself in the zygote. */
static int serve_sandboxed(struct request *r) {
    int fds[3] = {
        open(r->in_path[0] ? r->in_path : "/dev/null", O_RDONLY | O_CLOEXEC | O_NOFOLLOW),
        open_output(r->out_path),
        open_output(r->err_path),
    };
    static const char *stages[3] = {"stdin", "stdout", "stderr"};
    for (int i = 0; i < 3; i++) {
        if (fds[i] < 0) {
            answer(r, "nostart stage=%s errno=%d", stages[i], errno);
            for (int j = 0; j < 3; j++) if (fds[j] >= 0) close(fds[j]);
            return 1;
        }
    }
    char header[HEADER_LENGTH + 1];
    snprintf(header, sizeof header, "PGRUN1 %010llu\n", (unsigned long long)r->len);
    struct cpu_window window = {.memory_base = cgroup_reset()};
    window.had = cgroup_cpu_start(&window.user0, &window.system0);
    int sent = send_with_fds(helper.zygote_sock, header, HEADER_LENGTH, fds, 3, MSG_NOSIGNAL) == HEADER_LENGTH && write_all(helper.zygote_sock, r->body, r->len);
    send_held_answer(); /* the run is on its way */
    for (int i = 0; i < 3; i++) close(fds[i]);
    if (!sent) return 0;
    struct run_report rep;
    if (!receive_report(&rep)) return 0; /* the zygote died: the helper ends, the JVM starts a fresh one */
    answer_run(r, &rep, &window);
    return 1;
}

/* One run without the sandbox: the helper itself is the reaper. */
static int serve_direct(struct request *r) {
    char failure[96];
    /* Fresh output inodes, as in the sandbox: on ext4, truncating a file that held data and writing it
     * again makes its close start writeback (auto_da_alloc), about 2 ms a run; an unlinked file's
     * unwritten pages are just dropped. */
    struct spawn s = {r, {-1, open_output(r->out_path), -1}, 0, 0, NULL, 0, -1};
    if (s.fds[1] >= 0) s.fds[2] = open_output(r->err_path);
    if (s.fds[2] < 0) {
        answer(r, "nostart stage=%s errno=%d", s.fds[1] < 0 ? "stdout" : "stderr", errno);
        if (s.fds[1] >= 0) close(s.fds[1]);
        return 1;
    }
    struct cpu_window window = {.memory_base = cgroup_reset()};
    window.had = cgroup_cpu_start(&window.user0, &window.system0);
    long long started = now_us();
    pid_t pid = spawn_target(&s, failure, sizeof failure);
    send_held_answer(); /* the target is running (or could not start) */
    close(s.fds[1]);
    close(s.fds[2]);
    struct run_report rep;
    if (pid < 0) {
        report_nostart(&rep, failure);
        answer_run(r, &rep, &window);
        return 1;
    }
    set_pid_file(pid);
    struct outcome out;
    memset(&out, 0, sizeof out);
    if (!wait_target(pid, s.pidfd, r, 0, started, 1, &out)) {
        kill(-pid, SIGKILL);
        finish_tree(&out.tree, pid, 0);
        exit(3);
    }
    finish_tree(&out.tree, pid, 0);
    set_pid_file(0);
    /* No PID 1 and no counters: processes reaped by the kernel itself (their parent ignored SIGCHLD) reach no
     * wait4, and only the CPU cgroup may tell their CPU. */
    report_outcome(&rep, &out);
    answer_run(r, &rep, &window);
    return 1;
}

static void cleanup_and_exit(int code) {
    send_held_answer();
    if (helper.zygote_pid > 0) {
        kill(helper.zygote_pid, SIGKILL);
        waitpid(helper.zygote_pid, NULL, 0);
    }
    leave_cgroup();
    exit(code);
}

static int add_op(char kind, const char *path, const char *target) {
    if (spec.count >= MAX_PATHS || path[0] != '/' || strcmp(path, "/") == 0) return 0;
    spec.ops[spec.count].kind = kind;
    spec.ops[spec.count].target = target;
    spec.ops[spec.count++].path = path;
    return 1;
}

int main(int argc, char **argv) {
    helper.argc = argc;
    helper.argv = argv;
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        puts("pg-launch-helper 2");
        return 0;
    }
    /* Whatever dispositions the JVM passed on (ignored signals survive exec) must not reach targets. */
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        /* Unchecked: the C library keeps a few numbers of its own (NPTL's), which refuse with EINVAL. */
        signal(sig, SIG_DFL);
    }
    if (signal(SIGPIPE, SIG_IGN) == SIG_ERR) die_with_error("ignoring SIGPIPE");
    if (argc < 2) {
        fprintf(stderr, "usage: pg-launch-helper <pid-file> [--no-pidfd] [--sandbox] [--ro P] [--rw P] [--link P T] [--hide P] [--cgroup]\n");
        return 2;
    }
    /* The JVM's last resort should the helper die: without it a target would outlive both. */
    helper.pid_file = open(argv[1], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (helper.pid_file < 0) die_with_error("opening the pid file %s", argv[1]);
    if (ftruncate(helper.pid_file, PID_LINE) == 0) {
        helper.pid_page = mmap(NULL, PID_LINE, PROT_READ | PROT_WRITE, MAP_SHARED, helper.pid_file, 0);
        if (helper.pid_page == MAP_FAILED) helper.pid_page = NULL;
    }
    set_pid_file(0);
    int want_pidfd = 1, want_sandbox = 0, want_cgroup = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--no-pidfd") == 0) want_pidfd = 0;
        else if (strcmp(argv[i], "--sandbox") == 0) want_sandbox = 1;
        else if (strcmp(argv[i], "--cgroup") == 0) want_cgroup = 1;
        else if (strcmp(argv[i], "--deny-userns") == 0) spec.deny_userns = 1;
        else if (i + 1 < argc && strcmp(argv[i], "--hide") == 0) { if (!add_op('h', argv[++i], NULL)) return 2; }
        else if (i + 1 < argc && strcmp(argv[i], "--ro") == 0) { if (!add_op('r', argv[++i], NULL)) return 2; }
        else if (i + 1 < argc && strcmp(argv[i], "--rw") == 0) { if (!add_op('w', argv[++i], NULL)) return 2; }
        else if (i + 2 < argc && strcmp(argv[i], "--link") == 0) { i += 2; if (!add_op('l', argv[i - 1], argv[i])) return 2; }
        else {
            fprintf(stderr, "pg-launch-helper: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
#ifdef __linux__
    /* Nothing bounds a target's memory: should it fill the machine, the OOM killer takes it, not the JVM.
     * Set here once, inherited by every process the helper starts (per target, it cost a /proc write a run). */
    if (!write_file("/proc/self/oom_score_adj", "1000")) die_with_error("writing 1000 to /proc/self/oom_score_adj");
#endif
    if (pipe2(helper.sigchld_pipe, O_CLOEXEC | O_NONBLOCK) != 0) die_with_error("making the SIGCHLD pipe");
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigchld;
    action.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    if (sigaction(SIGCHLD, &action, NULL) != 0) die_with_error("sigaction(SIGCHLD)");
    int probe = want_pidfd ? open_pidfd(getpid()) : -1;
    if (probe >= 0) {
        close(probe);
        helper.use_pidfd = 1;
        sigset_t chld;
        sigemptyset(&chld);
        sigaddset(&chld, SIGCHLD);
        if (sigprocmask(SIG_BLOCK, &chld, NULL) != 0) die_with_error("blocking SIGCHLD");
    }
#ifdef __linux__
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) die_with_error("prctl(PR_SET_CHILD_SUBREAPER)");
    /* Its own children run as the same user: they must not trace it or read its memory. No
     * PR_SET_PDEATHSIG here: it fires when the JVM *thread* that started us ends, not the JVM. The
     * lifeline is stdin reaching EOF. */
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) die_with_error("prctl(PR_SET_DUMPABLE, 0)");
#endif
    if (want_cgroup) {
        setup_cgroup();
        setup_cpu_cgroup();
    }
    /* "cgroup=" names the memory cgroup (tree RSS), "cpu_cgroup=" the CPU one: without it, CPU of a
     * process the kernel reaped itself (its parent ignored SIGCHLD) reaches no figure. */
    char cgroup_name[32];
    snprintf(cgroup_name, sizeof cgroup_name, "%s cpu_cgroup=%s", memcg.version == 1 ? "v1" : memcg.version == 2 ? "v2" : "none",
             cpucg.version == 1 ? "v1" : cpucg.version == 2 ? "v2" : "none");
    char why[128];
    if (want_sandbox) {
        if (memcg.version) {
            size_memcg_fault_noise();
            char stat_path[PATH_MAX + 16];
            snprintf(stat_path, sizeof stat_path, "%s/memory.stat", memcg.dir);
            counters.memcg_stat_fd = open(stat_path, O_RDONLY | O_CLOEXEC);
            memcg.faults_told = memcg_faults() >= 0;
        }
        reserve_descriptors_in_flight();
        const char *failed = start_zygote(why, sizeof why);
        if (failed) {
            /* Unsandboxed runs get what the helper got. */
            if (nofile.run_hard > 0 && setrlimit(RLIMIT_NOFILE, &nofile.inherited) != 0) die_with_error("restoring RLIMIT_NOFILE");
            fprintf(stdout, "ready sandbox=off reason=%s cgroup=%s\n", failed, cgroup_name);
        } else {
            fprintf(stdout, "ready sandbox=namespaces reason=- cgroup=%s task_clock=%d\n", cgroup_name, counters.task_clock_in_sandbox);
        }
    } else {
        fprintf(stdout, "ready sandbox=off reason=disabled cgroup=%s\n", cgroup_name);
    }
    fflush(stdout);
    for (;;) {
        struct request r;
        if (!read_request(&r)) cleanup_and_exit(0);
        int ok = helper.zygote_sock >= 0 ? serve_sandboxed(&r) : serve_direct(&r);
        free_request(&r);
        if (!ok) cleanup_and_exit(3);
    }
}
