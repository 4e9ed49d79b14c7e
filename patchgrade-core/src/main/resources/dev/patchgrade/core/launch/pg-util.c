#include "pg-helper.h"

long long now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* This process's own CPU: the zygote's, which its inherited counters count with the run's; PID 1's; the helper's, in its cgroup. */
long long own_cpu_us(void) {
    struct timespec t;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return -1;
    return (long long)t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

const char *signal_name(int sig) {
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

int open_pidfd(pid_t pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
}

/*
 * fork(), for a child whose end signals nothing to its parent: wait4 without __WALL never takes it. The zygote's
 * own children in the runs' namespace (a target's clone(CLONE_PARENT) siblings) are reaped with wait4(-1), which
 * must never take PID 1 or the network maker. A sibling's end signals what its target's does, SIGCHLD.
 */
pid_t fork_quiet(void) {
#ifdef __linux__
    return (pid_t)syscall(SYS_clone, 0UL, NULL, NULL, NULL, 0UL);
#else
    return fork();
#endif
}

void on_sigchld(int sig) {
    (void)sig;
    int saved = errno;
    if (write(helper.sigchld_pipe[1], "c", 1) < 0) { /* pipe full: a wakeup is already pending */ }
    errno = saved;
}

int write_all(int fd, const void *data, size_t len) {
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        p += n;
        len -= (size_t)n;
    }
    return 1;
}

static ssize_t read_fd_text(int fd, char *text, size_t size) {
    if (fd < 0) return -1;
    ssize_t n = read(fd, text, size - 1);
    close(fd);
    if (n <= 0) return -1;
    text[n] = '\0';
    return n;
}

/* A small file's text, NUL-terminated: its length, or -1 when it cannot be opened or is empty. */
ssize_t read_text(const char *path, char *text, size_t size) {
    return read_fd_text(open(path, O_RDONLY | O_CLOEXEC), text, size);
}

int zygote_proc = -1;

/* A file of /proc (`relative` to it: "self/net/sockstat"), read-only, as this process may see it. */
int proc_open(const char *relative) {
    if (zygote_proc >= 0) return openat(zygote_proc, relative, O_RDONLY | O_CLOEXEC);
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "/proc/%s", relative) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return open(path, O_RDONLY | O_CLOEXEC);
}

ssize_t read_proc_text(const char *relative, char *text, size_t size) {
    return read_fd_text(proc_open(relative), text, size);
}

int read_exact(int fd, char *into, size_t len) {
    size_t done = 0;
    while (done < len) {
        ssize_t n = read(fd, into + done, len - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        done += (size_t)n;
    }
    return 1;
}

/* A cgroup or /proc file may refuse a write at its close as well as at the write. */
int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    int ok = write_all(fd, text, strlen(text));
    int err = errno;
    if (close(fd) != 0 && ok) return 0;
    errno = err;
    return ok;
}

int write_text(const char *path, const char *format, ...) {
    char text[256];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    return write_file(path, text) ? 0 : -1;
}

/* A message carrying a request header and three descriptors (stdin, stdout, stderr). */
void fd_message(struct msghdr *msg, struct iovec *iov, char *header, char *control) {
    iov->iov_base = header;
    iov->iov_len = HEADER_LENGTH;
    memset(msg, 0, sizeof *msg);
    memset(control, 0, FD_CONTROL_SPACE);
    msg->msg_iov = iov;
    msg->msg_iovlen = 1;
    msg->msg_control = control;
    msg->msg_controllen = FD_CONTROL_SPACE;
}

/* Sends `len` bytes and, when count > 0, the descriptors fds[0..count) with them (SCM_RIGHTS) in one
 * message; sendmsg's result. */
ssize_t send_with_fds(int sock, const void *data, size_t len, const int *fds, int count, int flags) {
    static char control[CMSG_SPACE(PG_SCM_MAX_FD * sizeof(int))];
    struct iovec iov = {(void *)data, len};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (count > 0) {
        memset(control, 0, sizeof control);
        msg.msg_control = control;
        msg.msg_controllen = CMSG_SPACE(count * sizeof(int));
        struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
        cmsg->cmsg_level = SOL_SOCKET;
        cmsg->cmsg_type = SCM_RIGHTS;
        cmsg->cmsg_len = CMSG_LEN(count * sizeof(int));
        memcpy(CMSG_DATA(cmsg), fds, count * sizeof(int));
    }
    return sendmsg(sock, &msg, flags);
}

/*
 * The one place a step of the helper, its zygote or a PID 1 that must not fail reports and ends (bubblewrap's
 * die_with_error): "fatal <what failed>: <strerror> (errno N)" as one line on stdout, the JVM's pipe, in a
 * single write (a line under PIPE_BUF never mixes with another). The JVM shows it whole: before "ready" as the
 * helper's answer instead of "ready", later as the garbled answer of the run that was going.
 */
void die_with_error(const char *format, ...) {
    int err = errno;
    char what[256];
    va_list args;
    va_start(args, format);
    vsnprintf(what, sizeof what, format, args);
    va_end(args);
    char line[400];
    int len = snprintf(line, sizeof line, "fatal %s: %s (errno %d)\n", what, strerror(err), err);
    if (len > (int)sizeof line - 1) {
        len = (int)sizeof line - 1;
        line[len - 1] = '\n';
    }
    if (write(1, line, (size_t)len) < 0) { /* the JVM is gone: nobody is left to tell */ }
    _exit(2);
}
