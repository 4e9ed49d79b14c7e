#include "pg-helper.h"
#ifdef __linux__
#include <sys/ptrace.h>
#endif

/* ---------------------------------------------------------------------------------------------
 * The tree: everything below a reaper (the helper; in the sandbox the zygote for the target, PID 1 for the rest),
 * summed over wait4 results.
 */

void add_usage(struct tree *tree, const struct rusage *u) {
    struct rusage *t = &tree->usage;
    timeradd(&t->ru_utime, &u->ru_utime, &t->ru_utime);
    timeradd(&t->ru_stime, &u->ru_stime, &t->ru_stime);
    if (u->ru_maxrss > t->ru_maxrss) t->ru_maxrss = u->ru_maxrss;
    t->ru_minflt += u->ru_minflt;
    t->ru_majflt += u->ru_majflt;
    t->ru_inblock += u->ru_inblock;
    t->ru_oublock += u->ru_oublock;
}

/*
 * Reaps children, adding their usage, until none is left (ECHILD: `childless`) or, with WNOHANG in `options`, none
 * has ended; returns how many. Without __WALL only the children whose end signals SIGCHLD are taken.
 */
int reap_children(struct tree *tree, int count_killed, int options) {
    int reaped = 0;
    for (;;) {
        int status;
        struct rusage u;
        pid_t pid = wait4(-1, &status, options, &u);
        if (pid < 0 && errno == EINTR && !(options & WNOHANG)) continue;
        if (pid <= 0) {
            tree->childless = pid < 0 && errno == ECHILD;
            return reaped;
        }
        /* A stop of a child that made us its tracer (PTRACE_TRACEME), which wait4 reports even without WUNTRACED: not
         * its end, and its usage is the live process's, which the end reports again (a stopped sibling's 200 MB of
         * churned faults, counted twice, explained away a 100 MB child the kernel reaped: read as 1.5 MB). Left
         * stopped: let go, a child that stops again at once could keep a WNOHANG reap from ever finding none. */
        if (WIFSTOPPED(status)) continue;
        add_usage(tree, &u);
        if (count_killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) tree->leftovers++;
        reaped++;
    }
}

/* Reaps every child that has already ended. */
int reap_ended(struct tree *tree, int count_killed) {
    return reap_children(tree, count_killed, WNOHANG | __WALL);
}

static int has_children(void) {
    siginfo_t info;
    memset(&info, 0, sizeof info);
    int result = waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT | __WALL);
    return !(result < 0 && errno == ECHILD);
}

/* Every live process below this one, found through /proc (Linux only); kills them, returns how many. */
static int kill_descendants(void) {
#ifdef __linux__
    pid_t self = getpid();
    int found = 0;
    enum { MAX_PROCS = 65536 };
    static pid_t pids[MAX_PROCS];
    static pid_t ppids[MAX_PROCS];
    int count = 0;
    DIR *proc = opendir("/proc");
    if (!proc) return 0;
    struct dirent *entry;
    while ((entry = readdir(proc)) != NULL && count < MAX_PROCS) {
        char *end;
        long pid = strtol(entry->d_name, &end, 10);
        if (*end != '\0' || pid <= 0) continue;
        char path[64];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        char content[512];
        if (read_text(path, content, sizeof content) < 0) continue;
        char *close_paren = strrchr(content, ')');
        if (!close_paren) continue;
        char state;
        long ppid;
        if (sscanf(close_paren + 1, " %c %ld", &state, &ppid) != 2 || state == 'Z') continue;
        pids[count] = (pid_t)pid;
        ppids[count] = (pid_t)ppid;
        count++;
    }
    closedir(proc);
    for (int i = 0; i < count; i++) {
        pid_t cursor = ppids[i];
        for (int depth = 0; depth < 64 && cursor > 1; depth++) {
            if (cursor == self) {
                kill(pids[i], SIGKILL);
                found++;
                break;
            }
            pid_t next = 0;
            for (int j = 0; j < count; j++) {
                if (pids[j] == cursor) { next = ppids[j]; break; }
            }
            cursor = next;
        }
    }
    return found;
#else
    return 0;
#endif
}

/*
 * After the target ended: reaps what had ended already, then kills and reaps whatever is left,
 * counting it. Orphans reparent to the reaper, so "no children at all" (ECHILD) means nothing is
 * left and the /proc walk is skipped: the common case stays cheap.
 */
void finish_tree(struct tree *tree, pid_t group, int pid_namespace) {
    reap_ended(tree, 0);
    if (tree->childless || !has_children()) return;
    if (pid_namespace) {
        kill(-1, SIGKILL); /* PID 1: every other process of its namespace */
    } else {
        kill(-group, SIGKILL);
        kill_descendants();
    }
    /* PID 1 does not give up: a process of the run still dying (a large address space to free) when the
     * next run starts would be reaped into that run's figures, and its memory, freed after the helper took
     * the next baseline, would hide as much of that run's tree peak. The JVM's deadline on the reply bounds
     * this wait (launcher_failed). */
    for (int round = 0; pid_namespace || round < 5000; round++) {
        reap_ended(tree, 1);
        if (!has_children()) return;
        if (pid_namespace) kill(-1, SIGKILL);
        else kill_descendants();
        usleep(1000);
    }
}

/* ---------------------------------------------------------------------------------------------
 * Starting the target: clone(CLONE_VM|CLONE_VFORK) on a stack of its own, as glibc's posix_spawn
 * does, so the setup code runs before exec without copying page tables and without touching the
 * parent's stack. The exec records this small image's high-water mark, not the JVM's.
 */

/*
 * Descriptors in flight on unix sockets count against their sender's uid, and a send fails once that
 * count passes the sender's own RLIMIT_NOFILE, unless the sender has CAP_SYS_ADMIN or CAP_SYS_RESOURCE
 * in the host's namespace. When Maven is not root every run has the helper's uid: one run holding its
 * limit's worth in flight made every other worker's hand-over of a run's stdio fail (launcher_failed).
 * So the launcher's own processes send with the hard limit and runs get a hard limit a reserve below it:
 * a run stops at its own limit, and the launcher still has the reserve to pass descriptors.
 */
struct descriptor_reserve nofile;

static int exempt_from_inflight_limit(void) {
    char status[4096];
    if (read_text("/proc/self/status", status, sizeof status) <= 0) return 0;
    const char *line = strstr(status, "CapEff:");
    unsigned long long caps = 0;
    if (!line || sscanf(line + 7, "%llx", &caps) != 1) return 0;
    return (caps >> 21 & 1) /* CAP_SYS_ADMIN */ || (caps >> 24 & 1) /* CAP_SYS_RESOURCE */;
}

void reserve_descriptors_in_flight(void) {
    struct rlimit files;
    if (exempt_from_inflight_limit() || getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_max == RLIM_INFINITY) return;
    nofile.inherited = files;
    rlim_t reserve = files.rlim_max / 2 < 65536 ? files.rlim_max / 2 : 65536;
    nofile.run_hard = files.rlim_max - reserve;
    nofile.run_soft = files.rlim_cur < nofile.run_hard ? files.rlim_cur : nofile.run_hard;
    files.rlim_cur = files.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &files) != 0) nofile.run_hard = nofile.run_soft = 0;
}

/* The running target's pid, left-aligned and padded to PID_LINE with a newline, as the JVM reads it.
 * Formatted by hand: the target's own child stores it before exec, where no stdio belongs. */
void set_pid_file(pid_t pid) {
    char line[PID_LINE];
    char digits[PID_LINE];
    int n = 0;
    unsigned int value = pid > 0 ? (unsigned int)pid : 0;
    do {
        digits[n++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0 && n < PID_LINE - 1);
    for (int i = 0; i < PID_LINE - 1; i++) line[i] = i < n ? digits[n - 1 - i] : ' ';
    line[PID_LINE - 1] = '\n';
    if (helper.pid_page) {
        memcpy(helper.pid_page, line, PID_LINE);
    } else if (helper.pid_file >= 0 && pwrite(helper.pid_file, line, PID_LINE, 0) < 0) {
        /* the JVM only loses its last-resort cleanup */
    }
}

static void child_fail(struct spawn *s, const char *stage) {
    s->failed_errno = errno;
    s->failed_stage = stage;
    _exit(127);
}

static void place_fd(int fd, int target, struct spawn *s, const char *stage) {
    if (fd == target) {
        if (fcntl(fd, F_SETFD, 0) < 0) child_fail(s, stage);
        return;
    }
    if (dup2(fd, target) < 0) child_fail(s, stage);
}

static void close_inherited_fds(void) {
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, 3, ~0U, 0) == 0) return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536) max = 65536;
    for (int fd = 3; fd < max; fd++) close(fd);
}

static int spawn_child(void *arg) {
    struct spawn *s = arg;
    const struct request *r = s->r;
    /* In the sandbox a session of its own, so a scheduler autogroup of its own: the worker's was shared by
     * every run, whose nice value (0-19, /proc/self/autogroup) one run set and the next read back. */
    if (s->drop_privileges ? setsid() < 0 : setpgid(0, 0) != 0) child_fail(s, "setpgid");
    /* Stored by the child before it runs a line of the target: a target that stops the helper at once
     * must still find its group named in the pid file, for the JVM's last-resort kill. */
    if (!s->drop_privileges) set_pid_file(getpid());
    sigset_t none;
    sigemptyset(&none);
    if (sigprocmask(SIG_SETMASK, &none, NULL) != 0) child_fail(s, "sigmask");
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    /* main() reset every other disposition for the whole helper; only its own two remain. */
    if (sigaction(SIGPIPE, &dfl, NULL) != 0 || sigaction(SIGCHLD, &dfl, NULL) != 0) child_fail(s, "sigaction");
    struct rlimit no_core = {0, 0};
    if (setrlimit(RLIMIT_CORE, &no_core) != 0) child_fail(s, "rlimit"); /* no core files from crashing candidates */
    if (s->drop_privileges && nofile.run_hard > 0) {
        struct rlimit files = {nofile.run_soft, nofile.run_hard};
        if (setrlimit(RLIMIT_NOFILE, &files) != 0) child_fail(s, "rlimit");
    }
    if (r->cap > 0) {
        struct rlimit limit = {(rlim_t)r->cap, (rlim_t)r->cap};
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0) child_fail(s, "rlimit");
    }
    static const char *stages[3] = {"stdin", "stdout", "stderr"};
    for (int i = 0; i < 3; i++) {
        int fd = s->fds[i];
        if (fd < 0) {
            const char *path = i == 0 ? (r->in_path[0] ? r->in_path : "/dev/null") : i == 1 ? r->out_path : r->err_path;
            fd = open(path, i == 0 ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
            if (fd < 0) child_fail(s, stages[i]);
        }
        place_fd(fd, i, s, stages[i]);
    }
    if (r->cwd[0] && chdir(r->cwd) != 0) child_fail(s, "chdir");
#ifdef __linux__
    if (s->drop_privileges) {
        /* Non-root in its user namespace, so exec clears every capability; no set-uid gains either. */
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) child_fail(s, "no_new_privs");
        /* One fault brings in 4 KB, never 2 MB: the memory of a process that escaped wait4 is told by its faults
         * (see memcg_faults), and the filter keeps this on. Inherited by every child and kept across exec. */
        if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) != 0) child_fail(s, "thp_disable");
        if (confine_syscalls() != 0) child_fail(s, "seccomp");
    }
#endif
    close_inherited_fds();
    execve(r->exe, r->argv, r->envp);
    child_fail(s, "exec");
    return 127;
}

#define SPAWN_STACK (256 * 1024)
static char *spawn_stack;

/* Starts the target; returns its pid, or -1 with *failure set to "stage errno" when it could not start. */
pid_t spawn_target(struct spawn *s, char *failure, size_t failure_len) {
    s->failed_stage = NULL;
    s->failed_errno = 0;
    if (!spawn_stack) {
        spawn_stack = mmap(NULL, SPAWN_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
        if (spawn_stack == MAP_FAILED) {
            spawn_stack = NULL;
            snprintf(failure, failure_len, "stack %d", errno);
            return -1;
        }
    }
    s->pidfd = -1;
#ifdef __linux__
    /* CLONE_PIDFD hands us the pidfd with the clone: no pidfd_open a run. */
    int pidfd = -1;
    pid_t pid = clone(spawn_child, spawn_stack + SPAWN_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD | s->clone_flags | (helper.use_pidfd ? CLONE_PIDFD : 0),
                      s, &pidfd);
    if (pid > 0) s->pidfd = pidfd;
#else
    pid_t pid = vfork();
    if (pid == 0) spawn_child(s);
#endif
    if (pid < 0) {
        snprintf(failure, failure_len, "fork %d", errno);
        return -1;
    }
    /* CLONE_VFORK: we run again only once the child has exec'd (its process group already its own) or died. */
    if (s->failed_stage) {
        snprintf(failure, failure_len, "%s %d", s->failed_stage, s->failed_errno);
        if (s->pidfd >= 0) close(s->pidfd);
        s->pidfd = -1;
        int status;
        waitpid(pid, &status, 0);
        return -1;
    }
    failure[0] = '\0';
    return pid;
}

/* ---------------------------------------------------------------------------------------------
 * Waiting for the target with a deadline: SIGTERM to its group (or namespace), a grace, SIGKILL.
 */
/*
 * The run-queue delay and on-CPU time of the target's own thread, read while it is a zombie (once
 * reaped, the figures are gone): the JVM takes from the delay whatever the tree's other threads and
 * processes could have caused, and counts the rest as other processes' load. 0 where unknown.
 */
static void read_schedstat(int fd, struct outcome *out) {
    char text[128];
    ssize_t n = fd < 0 ? -1 : pread(fd, text, sizeof text - 1, 0);
    if (n <= 0) return;
    text[n] = '\0';
    unsigned long long on_cpu_ns = 0, waiting_ns = 0;
    if (sscanf(text, "%llu %llu", &on_cpu_ns, &waiting_ns) != 2) return;
    out->leader_cpu_us = (long long)(on_cpu_ns / 1000ULL);
    out->cpu_wait_us = (long long)(waiting_ns / 1000ULL);
}

/* Opened while the target runs (it is ours, unreaped, so the pid is its): once it ends, its figures then
 * cost one read, not a /proc lookup between its end and the start of the next run. */
static int open_schedstat(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "%d/schedstat", (int)pid);
    return proc_open(path);
}

/* The timeout's signal to the target and all it started: in the sandbox PID 1 signals its whole namespace (the
 * zygote, outside it, must never kill(-1): that is every process of our uid on the host). */
static void signal_tree(pid_t pid, int pid_namespace, int sig) {
#ifdef __linux__
    if (pid_namespace) signal_runs(sig);
#endif
    if (!pid_namespace) kill(-pid, sig);
    kill(pid, sig);
}

/* Waits for `pid`; with `watch_lifeline`, fd 0 is polled too, and the run is abandoned (0) when the JVM has gone. */
int wait_target(pid_t pid, int pidfd, const struct request *r, int pid_namespace, long long started, int watch_lifeline,
                       struct outcome *out) {
    if (pidfd < 0 && helper.use_pidfd) pidfd = open_pidfd(pid);
    int schedstat = open_schedstat(pid);
    /* With a pidfd, the first look is the poll: a child that already ended makes it return at once. */
    int look = pidfd < 0;
    long long deadline = started + r->timeout_ms * 1000LL;
    long long kill_at = 0;
    for (;;) {
        int status;
        struct rusage u;
        siginfo_t exited;
        memset(&exited, 0, sizeof exited);
        /* Read its schedstat while it is a zombie: once reaped, the figure is gone. */
        if (look && waitid(P_PID, pid, &exited, WEXITED | WNOHANG | WNOWAIT) == 0 && exited.si_pid == pid) {
            read_schedstat(schedstat, out);
        }
        pid_t done = look ? wait4(pid, &status, WNOHANG, &u) : 0;
        look = 1;
#ifdef __linux__
        if (done == pid && WIFSTOPPED(status)) {
            /* Not its end: a stop of a target that made us its tracer (PTRACE_TRACEME), which wait4 reports even
             * without WUNTRACED (taken for the end, a crash read as "exit 11" and the run was cut short). Let go with
             * the signal it stopped for, but the SIGTRAP a traced exec sends the process itself (SI_USER), which an
             * untraced exec never gets and which would kill it; the deadline is still checked below. */
            siginfo_t why;
            int sig = WSTOPSIG(status);
            if (sig == SIGTRAP && ptrace(PTRACE_GETSIGINFO, pid, 0, &why) == 0 && why.si_code == SI_USER) sig = 0;
            if (ptrace(PTRACE_DETACH, pid, 0, (void *)(long)sig) != 0) {
                /* ESRCH: killed meanwhile, reaped at the next look; otherwise it stays stopped and the deadline ends it. */
            }
            done = 0;
        }
#endif
        if (done == pid) {
            out->status = status;
            add_usage(&out->tree, &u);
            break;
        }
        long long now = now_us();
        if (!out->timed_out && now >= deadline) {
            out->timed_out = 1;
            signal_tree(pid, pid_namespace, SIGTERM);
            kill_at = now + r->grace_ms * 1000LL;
        }
        if (out->timed_out && kill_at && now >= kill_at) {
            signal_tree(pid, pid_namespace, SIGKILL);
            kill_at = 0;
        }
        long long wake = out->timed_out ? (kill_at ? kill_at : now + 50000) : deadline;
        long long wait_ms = (wake - now) / 1000 + 1;
        if (wait_ms > 1000) wait_ms = 1000;
        if (sockets.sampling) {
            /* Not at once: a run over within a look's time holds nothing for long, and most runs are. Memory parked
             * for less than a look's time can be missed: no room to keep anything in. */
            if (now - started >= SOCKET_SAMPLE_MS * 1000LL) sample_sockets(out);
            if (wait_ms > SOCKET_SAMPLE_MS) wait_ms = SOCKET_SAMPLE_MS;
        }
        /* Orphans reparented to us end too, and must not keep the poll busy: reap them as they come. */
        struct pollfd fds[2] = {{pidfd >= 0 ? pidfd : helper.sigchld_pipe[0], POLLIN, 0}, {0, LIFELINE_EVENTS, 0}};
        int ready = poll(fds, watch_lifeline ? 2 : 1, (int)wait_ms);
        if (ready > 0) {
            if (pidfd < 0 && (fds[0].revents & POLLIN)) {
                char drain[64];
                while (read(helper.sigchld_pipe[0], drain, sizeof drain) > 0) { }
            }
            if (watch_lifeline && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) && lifeline_lost(fds[1].revents)) {
                if (pidfd >= 0) close(pidfd);
                if (schedstat >= 0) close(schedstat);
                return 0;
            }
        }
    }
    out->wall_us = now_us() - started;
    if (pidfd >= 0) close(pidfd);
    if (schedstat >= 0) close(schedstat);
    return 1;
}
