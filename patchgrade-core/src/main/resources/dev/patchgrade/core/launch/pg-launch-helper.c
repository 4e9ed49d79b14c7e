/*
 * patchgrade launch helper.
 *
 * The JVM keeps one of these per worker and sends it one request per launch. The helper starts the
 * target from its own small image, so the target's ru_maxrss is its own peak and not the JVM's
 * high-water mark (the kernel records the old image's peak at exec; a child spawned straight from
 * the JVM inherits the JVM's). It reports the target's wait4 rusage, kills the target's process
 * group on timeout (SIGTERM, grace, SIGKILL) and, as a child subreaper, kills whatever the target
 * left behind. If the JVM dies, the request pipe reaches EOF and the helper kills the run and exits.
 *
 * Request on stdin: "PGRUN1 <length as 10 digits>\n", then <length> bytes of NUL-terminated fields:
 *   timeout_ms grace_ms output_cap_bytes exe cwd stdin_path stdout_path stderr_path
 *   argc argv... envc env...
 * The running target's pid is written to the file named by the helper's first argument, so the JVM
 * can kill its process group should the helper itself die (a reply line would wake the JVM twice).
 * A second argument "--no-pidfd" makes it wait through SIGCHLD, as on systems without pidfds.
 * Replies (one line on stdout):
 *   "done status=<exited|signaled> code=<n> signal=<n> signame=<NAME> timed_out=<0|1> maxrss_kb=<n>
 *    utime_us=<n> stime_us=<n> minflt=<n> majflt=<n> inblock=<n> oublock=<n> wall_us=<n>", or
 *   "nostart stage=<stage> errno=<n>" when the target could not be started.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

static int sigchld_pipe[2] = {-1, -1};
static int pid_file = -1;
/* With pidfds (Linux 5.3+) the helper waits for its child and the lifeline in one poll, with
 * SIGCHLD blocked; elsewhere a SIGCHLD handler writes to a self-pipe that poll watches. */
static int use_pidfd = 0;

static int open_pidfd(pid_t pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
}

static void on_sigchld(int sig) {
    (void)sig;
    int saved = errno;
    if (write(sigchld_pipe[1], "c", 1) < 0) { /* pipe full: a wakeup is already pending */ }
    errno = saved;
}

static long long now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static const char *signal_name(int sig) {
    switch (sig) {
    case SIGHUP: return "SIGHUP";   case SIGINT: return "SIGINT";   case SIGQUIT: return "SIGQUIT";
    case SIGILL: return "SIGILL";   case SIGTRAP: return "SIGTRAP"; case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";   case SIGFPE: return "SIGFPE";   case SIGKILL: return "SIGKILL";
    case SIGUSR1: return "SIGUSR1"; case SIGSEGV: return "SIGSEGV"; case SIGUSR2: return "SIGUSR2";
    case SIGPIPE: return "SIGPIPE"; case SIGALRM: return "SIGALRM"; case SIGTERM: return "SIGTERM";
    case SIGCHLD: return "SIGCHLD"; case SIGCONT: return "SIGCONT"; case SIGSTOP: return "SIGSTOP";
    case SIGTSTP: return "SIGTSTP"; case SIGTTIN: return "SIGTTIN"; case SIGTTOU: return "SIGTTOU";
    case SIGURG: return "SIGURG";   case SIGXCPU: return "SIGXCPU"; case SIGXFSZ: return "SIGXFSZ";
    case SIGVTALRM: return "SIGVTALRM"; case SIGPROF: return "SIGPROF"; case SIGWINCH: return "SIGWINCH";
    case SIGSYS: return "SIGSYS";
    default: return "SIGUNKNOWN";
    }
}

/*
 * Requests are read with read(2), never through stdio: stdio would read ahead, and fd 0 must be
 * empty while a target runs, because readability there means the JVM has gone (the lifeline).
 */
static char *request;
static size_t request_len;
static size_t request_pos;

static int read_exact(char *into, size_t len) {
    size_t done = 0;
    while (done < len) {
        ssize_t n = read(0, into + done, len - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        done += (size_t)n;
    }
    return 1;
}

/* Header: "PGRUN1 " and the body length in exactly 10 digits and a newline, read in one call. */
#define HEADER_LENGTH 18
static int read_request(void) {
    char header[HEADER_LENGTH + 1];
    if (!read_exact(header, HEADER_LENGTH)) return 0;
    header[HEADER_LENGTH] = '\0';
    unsigned long long len = 0;
    if (sscanf(header, "PGRUN1 %10llu", &len) != 1 || header[HEADER_LENGTH - 1] != '\n' || len == 0 || len > (64u << 20)) return 0;
    free(request);
    request = malloc((size_t)len);
    if (!request) return 0;
    request_len = (size_t)len;
    request_pos = 0;
    return read_exact(request, request_len);
}

static char *read_field(void) {
    if (request_pos >= request_len) return NULL;
    char *start = request + request_pos;
    char *end = memchr(start, '\0', request_len - request_pos);
    if (!end) return NULL;
    request_pos += (size_t)(end - start) + 1;
    return start;
}

static long long read_number(int *ok) {
    char *field = read_field();
    if (!field) { *ok = 0; return 0; }
    return strtoll(field, NULL, 10);
}

/* Every live process below the helper, found through /proc (Linux only). */
static int kill_descendants(void) {
#ifdef __linux__
    pid_t self = getpid();
    int found = 0;
    /* Orphans reparent to the helper (subreaper), so walking parent links from each process finds
     * everything the target started, even in another session or process group. */
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
        FILE *stat = fopen(path, "r");
        if (!stat) continue;
        char content[512];
        size_t len = fread(content, 1, sizeof content - 1, stat);
        fclose(stat);
        content[len] = '\0';
        char *close_paren = strrchr(content, ')');
        if (!close_paren) continue;
        char state;
        long ppid;
        if (sscanf(close_paren + 1, " %c %ld", &state, &ppid) != 2) continue;
        if (state == 'Z') continue;
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
 * Kills and reaps whatever the target left behind. Once the target is reaped, every surviving
 * descendant has an ancestor that was reparented to this subreaper, so "no children at all"
 * (ECHILD) means nothing is left and the /proc walk is skipped: the common case stays cheap.
 */
static void reap_all_leftovers(pid_t group) {
    kill(-group, SIGKILL);
    for (int round = 0; round < 500; round++) {
        int status;
        pid_t reaped;
        while ((reaped = waitpid(-1, &status, WNOHANG)) > 0) { }
        if (reaped < 0 && errno == ECHILD) return;
        int alive = kill_descendants();
        if (kill(-group, 0) == 0) {
            kill(-group, SIGKILL);
            alive++;
        }
        if (alive == 0) {
            while (waitpid(-1, &status, WNOHANG) > 0) { }
            return;
        }
        usleep(2000);
    }
}

static void close_inherited_fds(int keep) {
#if defined(__linux__) && defined(SYS_close_range)
    if (keep > 3 && syscall(SYS_close_range, 3, keep - 1, 0) == 0 &&
        syscall(SYS_close_range, keep + 1, ~0U, 0) == 0) {
        return;
    }
    if (keep == 3 && syscall(SYS_close_range, 4, ~0U, 0) == 0) return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536) max = 65536;
    for (int fd = 3; fd < max; fd++) {
        if (fd != keep) close(fd);
    }
}

static void child_fail(int report_fd, const char *stage) {
    char message[64];
    int len = snprintf(message, sizeof message, "%s %d", stage, errno);
    if (write(report_fd, message, (size_t)len) < 0) { }
    _exit(127);
}

static int redirect(const char *path, int target, int flags, int report_fd, const char *stage) {
    int fd = open(path, flags, 0644);
    if (fd < 0) child_fail(report_fd, stage);
    if (fd != target) {
        if (dup2(fd, target) < 0) child_fail(report_fd, stage);
        close(fd);
    }
    return 0;
}

static void run_child(const char *exe, char **argv, char **envp, const char *cwd, const char *in_path,
                      const char *out_path, const char *err_path, long long cap, int report_fd) {
    setpgid(0, 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* main() already reset every other disposition for the whole helper; only its own two remain. */
    signal(SIGPIPE, SIG_DFL);
    signal(SIGCHLD, SIG_DFL);
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core); /* a crashing candidate must not litter core files */
    if (cap > 0) {
        struct rlimit limit = {(rlim_t)cap, (rlim_t)cap};
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0) child_fail(report_fd, "rlimit");
    }
    redirect(in_path[0] ? in_path : "/dev/null", 0, O_RDONLY, report_fd, "stdin");
    redirect(out_path, 1, O_WRONLY | O_CREAT | O_TRUNC, report_fd, "stdout");
    redirect(err_path, 2, O_WRONLY | O_CREAT | O_TRUNC, report_fd, "stderr");
    if (cwd[0] && chdir(cwd) != 0) child_fail(report_fd, "chdir");
    close_inherited_fds(report_fd);
    execve(exe, argv, envp);
    child_fail(report_fd, "exec");
}

static int lifeline_lost(void) {
    char probe;
    ssize_t n = read(0, &probe, 1);
    return n <= 0 && !(n < 0 && (errno == EAGAIN || errno == EINTR));
}

static int serve_one(void) {
    if (!read_request()) return 0;
    int ok = 1;
    long long timeout_ms = read_number(&ok);
    long long grace_ms = read_number(&ok);
    long long cap = read_number(&ok);
    char *exe = read_field();
    char *cwd = read_field();
    char *in_path = read_field();
    char *out_path = read_field();
    char *err_path = read_field();
    long long argc = read_number(&ok);
    if (!ok || !exe || !cwd || !in_path || !out_path || !err_path || argc < 1 || argc > 100000) return 0;
    char **argv = calloc((size_t)argc + 1, sizeof(char *));
    for (long long i = 0; i < argc; i++) {
        argv[i] = read_field();
        if (!argv[i]) return 0;
    }
    long long envc = read_number(&ok);
    if (!ok || envc < 0 || envc > 100000) return 0;
    char **envp = calloc((size_t)envc + 1, sizeof(char *));
    for (long long i = 0; i < envc; i++) {
        envp[i] = read_field();
        if (!envp[i]) return 0;
    }

    int report[2];
    if (pipe(report) != 0) {
        fprintf(stdout, "nostart stage=pipe errno=%d\n", errno);
        fflush(stdout);
        free(argv);
        free(envp);
        return 1;
    }
    fcntl(report[0], F_SETFD, FD_CLOEXEC);
    fcntl(report[1], F_SETFD, FD_CLOEXEC);

    long long started = now_us();
    /* vfork: no page tables to copy, so a launch costs little more than posix_spawn. The child only
     * makes system calls on its own stack until execve or _exit, and the exec records this small
     * image's high-water mark, not the JVM's. */
    pid_t pid = vfork();
    if (pid < 0) {
        fprintf(stdout, "nostart stage=fork errno=%d\n", errno);
        fflush(stdout);
        close(report[0]);
        close(report[1]);
        free(argv);
        free(envp);
        return 1;
    }
    if (pid == 0) {
        close(report[0]);
        run_child(exe, argv, envp, cwd, in_path, out_path, err_path, cap, report[1]);
    }
    setpgid(pid, pid);
    close(report[1]);
    char failure[64] = {0};
    ssize_t got;
    do {
        got = read(report[0], failure, sizeof failure - 1);
    } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got > 0) {
        int status;
        waitpid(pid, &status, 0);
        char stage[32] = "exec";
        int err = 0;
        sscanf(failure, "%31s %d", stage, &err);
        fprintf(stdout, "nostart stage=%s errno=%d\n", stage, err);
        fflush(stdout);
        free(argv);
        free(envp);
        return 1;
    }
    if (pid_file >= 0) {
        char line[16];
        int len = snprintf(line, sizeof line, "%-11d\n", (int)pid);
        if (pwrite(pid_file, line, (size_t)len, 0) < 0) { /* the JVM only loses its last-resort cleanup */ }
    }

    int pidfd = use_pidfd ? open_pidfd(pid) : -1;
    long long deadline = started + timeout_ms * 1000LL;
    long long kill_at = 0;
    int timed_out = 0;
    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    for (;;) {
        pid_t done = wait4(pid, &status, WNOHANG, &usage);
        if (done == pid) break;
        long long now = now_us();
        if (!timed_out && timeout_ms > 0 && now >= deadline) {
            timed_out = 1;
            kill(-pid, SIGTERM);
            kill_at = now + grace_ms * 1000LL;
        }
        if (timed_out && kill_at && now >= kill_at) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            kill_at = 0;
        }
        long long wake = timed_out ? (kill_at ? kill_at : now + 50000) : (timeout_ms > 0 ? deadline : now + 1000000);
        int wait_ms = (int)((wake - now) / 1000) + 1;
        if (wait_ms > 1000) wait_ms = 1000;
        struct pollfd fds[2] = {{pidfd >= 0 ? pidfd : sigchld_pipe[0], POLLIN, 0}, {0, POLLIN, 0}};
        int ready = poll(fds, 2, wait_ms);
        if (ready > 0) {
            if (pidfd < 0 && (fds[0].revents & POLLIN)) {
                char drain[64];
                while (read(sigchld_pipe[0], drain, sizeof drain) > 0) { }
            }
            if ((fds[1].revents & (POLLIN | POLLHUP | POLLERR)) && lifeline_lost()) {
                reap_all_leftovers(pid);
                exit(3);
            }
        }
    }
    long long wall = now_us() - started;
    if (pidfd >= 0) close(pidfd);
    reap_all_leftovers(pid);

    long long maxrss_kb = usage.ru_maxrss;
#ifdef __APPLE__
    maxrss_kb = usage.ru_maxrss / 1024; /* macOS reports bytes */
#endif
    int signaled = WIFSIGNALED(status);
    int sig = signaled ? WTERMSIG(status) : 0;
    fprintf(stdout,
            "done status=%s code=%d signal=%d signame=%s timed_out=%d maxrss_kb=%lld utime_us=%lld "
            "stime_us=%lld minflt=%ld majflt=%ld inblock=%ld oublock=%ld wall_us=%lld\n",
            signaled ? "signaled" : "exited", signaled ? 0 : WEXITSTATUS(status), sig,
            signaled ? signal_name(sig) : "-", timed_out, maxrss_kb,
            (long long)usage.ru_utime.tv_sec * 1000000LL + usage.ru_utime.tv_usec,
            (long long)usage.ru_stime.tv_sec * 1000000LL + usage.ru_stime.tv_usec,
            (long)usage.ru_minflt, (long)usage.ru_majflt, (long)usage.ru_inblock, (long)usage.ru_oublock,
            wall);
    fflush(stdout);
    free(argv);
    free(envp);
    return 1;
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        puts("pg-launch-helper 1");
        return 0;
    }
    /* Whatever dispositions the JVM passed on (ignored signals survive exec) must not reach targets. */
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        signal(sig, SIG_DFL);
    }
    signal(SIGPIPE, SIG_IGN);
    if (argc > 1) {
        pid_file = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    }
    if (pipe(sigchld_pipe) != 0) return 2;
    for (int i = 0; i < 2; i++) {
        fcntl(sigchld_pipe[i], F_SETFL, fcntl(sigchld_pipe[i], F_GETFL) | O_NONBLOCK);
        fcntl(sigchld_pipe[i], F_SETFD, FD_CLOEXEC);
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigchld;
    action.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigaction(SIGCHLD, &action, NULL);
    int probe = argc > 2 && strcmp(argv[2], "--no-pidfd") == 0 ? -1 : open_pidfd(getpid());
    if (probe >= 0) {
        close(probe);
        use_pidfd = 1;
        sigset_t chld;
        sigemptyset(&chld);
        sigaddset(&chld, SIGCHLD);
        sigprocmask(SIG_BLOCK, &chld, NULL);
    }
#ifdef __linux__
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#endif
    while (serve_one()) { }
    return 0;
}
