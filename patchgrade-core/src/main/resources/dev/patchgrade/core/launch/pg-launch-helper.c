/*
 * patchgrade launch helper.
 *
 * The JVM keeps one of these per worker and sends it one request per launch. The helper starts the
 * target from its own small image, so the target's ru_maxrss is its own peak and not the JVM's
 * high-water mark (the kernel records the old image's peak at exec; a child spawned straight from
 * the JVM inherits the JVM's).
 *
 * Whole-tree figures: every process the target starts is reaped by a process of ours (the helper as
 * child subreaper, or the PID 1 of the run's PID namespace), each with wait4, so CPU, faults and
 * block I/O are summed and ru_maxrss is the largest single process over the tree, waited for or not.
 * Whatever is still alive when the target exits is killed and counted as a leftover.
 *
 * Sandbox (--sandbox): at start the helper forks a zygote that enters new user, mount and network
 * namespaces and builds the candidate's view of the file system once: the host read-only, hidden
 * paths covered by empty unreadable mounts, read-only and writable exceptions bound back, then
 * pivot_root so the host tree is gone from its namespace. It then enters new UTS and PID namespaces
 * and forks the worker's PID 1, which mounts /proc once and serves every run: a fresh /tmp and
 * /dev/shm for every run, the target started as a non-root user
 * without capabilities in IPC and network namespaces of its own (the network one made ahead by the
 * worker's network maker, outside the measured cgroups), and after it exits everything else in the
 * PID namespace killed and reaped (creating and tearing down PID and mount namespaces per run would
 * cost more than the launch itself). The output files are opened by the helper outside the sandbox
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
 * with the sandbox up also "task_clock=<0|1>" (whether PID 1 has its perf task-clock counter).
 * Request on stdin: "PGRUN1 <length as 10 digits>\n", then <length> bytes of NUL-terminated fields:
 *   token timeout_ms grace_ms output_cap_bytes exe cwd stdin_path stdout_path stderr_path
 *   argc argv... envc env...
 * Reply (one line on stdout):
 *   "done status=<exited|signaled> code=<n> signal=<n> signame=<NAME> timed_out=<0|1> maxrss_kb=<n>
 *    utime_us=<n> stime_us=<n> minflt=<n> majflt=<n> inblock=<n> oublock=<n> wall_us=<n>
 *    leftovers=<n> cpu_wait_us=<n> leader_cpu_us=<n> tree_rss_kb=<n or -1>", or
 *   "nostart stage=<stage> errno=<n>" when the target could not be started;
 *   either ends with " run=<token>", the request's token (1 to 32 hex digits): a line that a child
 *   managed to write into our stdout cannot pass for the answer to a request it never saw.
 * Without the sandbox, the running target's pid is written to the pid file (and 0 once it is
 * reaped), so the JVM can kill its process group should the helper itself die.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <net/if.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <linux/filter.h>
#include <linux/perf_event.h>
#include <linux/seccomp.h>
#include <stddef.h>
#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#endif

static int pid_file = -1;
#define PID_LINE 12
/* The pid file's page, shared with the file: the running target's pid is a store, not a write a run. */
static char *pid_page;
static int main_argc;
static char **main_argv;
/* With pidfds (Linux 5.3+) the helper waits for its child and the lifeline in one poll; elsewhere a
 * SIGCHLD handler writes to a self-pipe that poll watches. */
static int use_pidfd = 0;
static int sigchld_pipe[2] = {-1, -1};

static long long now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* This process's own CPU: PID 1's, which its inherited counters count with the run's; the helper's, in its cgroup. */
static long long own_cpu_us(void) {
    struct timespec t;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return -1;
    return (long long)t.tv_sec * 1000000LL + t.tv_nsec / 1000;
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

static int write_all(int fd, const void *data, size_t len) {
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

/* A small file's text, NUL-terminated: its length, or -1 when it cannot be opened or is empty. */
static ssize_t read_text(const char *path, char *text, size_t size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, text, size - 1);
    close(fd);
    if (n <= 0) return -1;
    text[n] = '\0';
    return n;
}

static int read_exact(int fd, char *into, size_t len) {
    size_t done = 0;
    while (done < len) {
        ssize_t n = read(fd, into + done, len - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        done += (size_t)n;
    }
    return 1;
}

/* ---------------------------------------------------------------------------------------------
 * Requests. The JVM may queue the next request while a target runs, so that the helper starts it the
 * moment the run before ends. Whatever arrives on fd 0 during a run is read into `ahead` and taken
 * from there first; end of file on fd 0 means the JVM has gone (the lifeline).
 */
static char ahead[64 * 1024];
static size_t ahead_start, ahead_end;

/*
 * The answer to a run that ended, held back until the next run has started when that run's request
 * is here already: the JVM wakes to take the answer while the next target execs, not before it. An
 * answer is never held while the helper waits for the JVM, and always goes before the next one.
 */
static char held_answer[1024];
static size_t held_length;

static void send_held_answer(void) {
    if (held_length == 0) return;
    size_t length = held_length;
    held_length = 0;
    if (!write_all(1, held_answer, length)) { /* the JVM has gone: the lifeline ends us */ }
}

/* read_exact on fd 0, through what was read ahead. */
static int read_input(char *into, size_t len) {
    size_t done = 0;
    while (done < len) {
        if (ahead_start < ahead_end) {
            size_t n = ahead_end - ahead_start < len - done ? ahead_end - ahead_start : len - done;
            memcpy(into + done, ahead + ahead_start, n);
            ahead_start += n;
            done += n;
            continue;
        }
        /* Whatever the JVM has sent so far, in one read: a request's header and body, and often the next request. */
        ahead_start = ahead_end = 0;
        send_held_answer(); /* the JVM may be waiting for it before it sends more */
        ssize_t n = read(0, ahead, sizeof ahead);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        ahead_end = (size_t)n;
    }
    return 1;
}

/* What a poll on fd 0 asks for during a run: nothing, so that only the JVM's end of the pipe closing
 * (POLLHUP, reported whatever was asked) wakes the helper. Asking for POLLIN woke it for each request the
 * JVM queued while a target ran: a context switch a run, a fifth of the helper's own CPU on a 2-core VM.
 * What the JVM queued is taken when the run ends (take_queued_input). */
#define LIFELINE_EVENTS 0

/* Called when a poll saw `revents` on fd 0 during a run: keeps what the JVM queued, and says whether
 * the JVM has gone (end of file, or a hang-up that cannot be read past). */
static int lifeline_lost(short revents) {
    if (ahead_start > 0) {
        memmove(ahead, ahead + ahead_start, ahead_end - ahead_start);
        ahead_end -= ahead_start;
        ahead_start = 0;
    }
    if (ahead_end == sizeof ahead) return (revents & (POLLHUP | POLLERR)) != 0;
    ssize_t n = read(0, ahead + ahead_end, sizeof ahead - ahead_end);
    if (n > 0) {
        ahead_end += (size_t)n;
        return 0;
    }
    return !(n < 0 && (errno == EAGAIN || errno == EINTR));
}

/* Whatever the JVM queued while a run went, read without waiting: the next request is then here when the
 * run's answer is written, and the answer can wait for the next run to start (answer_ended). */
static void take_queued_input(void) {
    if (ahead_start == 0 && ahead_end == sizeof ahead) return;
    struct pollfd input = {0, POLLIN, 0};
    if (poll(&input, 1, 0) > 0 && (input.revents & POLLIN)) lifeline_lost(input.revents);
}
#define HEADER_LENGTH 18
#define MAX_REQUEST (64u << 20)

/* The body length a request header ("PGRUN1 <10 digits>\n", not NUL-terminated) announces; 0 for a garbled one. */
static unsigned long long body_length(const char *header) {
    char text[HEADER_LENGTH + 1];
    memcpy(text, header, HEADER_LENGTH);
    text[HEADER_LENGTH] = '\0';
    unsigned long long len = 0;
    if (sscanf(text, "PGRUN1 %10llu", &len) != 1 || text[HEADER_LENGTH - 1] != '\n' || len > MAX_REQUEST) return 0;
    return len;
}

struct request {
    char *body;
    size_t len;
    char *token;
    long long timeout_ms, grace_ms, cap;
    char *exe, *cwd, *in_path, *out_path, *err_path;
    char **argv, **envp;
};

struct cursor {
    char *body;
    size_t len, pos;
};

static char *next_field(struct cursor *c) {
    if (c->pos >= c->len) return NULL;
    char *start = c->body + c->pos;
    char *end = memchr(start, '\0', c->len - c->pos);
    if (!end) return NULL;
    c->pos += (size_t)(end - start) + 1;
    return start;
}

static int next_number(struct cursor *c, long long *out) {
    char *field = next_field(c);
    if (!field || !*field) return 0;
    char *end;
    errno = 0;
    *out = strtoll(field, &end, 10);
    return errno == 0 && *end == '\0';
}

static char **next_list(struct cursor *c, long long min) {
    long long count;
    if (!next_number(c, &count) || count < min || count > 100000) return NULL;
    char **list = calloc((size_t)count + 1, sizeof(char *));
    if (!list) return NULL;
    for (long long i = 0; i < count; i++) {
        if (!(list[i] = next_field(c))) {
            free(list);
            return NULL;
        }
    }
    return list;
}

/* Parses a request body in place; the fields point into it. Returns 0 for a garbled body. */
static int parse_request(struct request *r) {
    struct cursor c = {r->body, r->len, 0};
    if (!(r->token = next_field(&c)) || !*r->token || strlen(r->token) > 32 || strspn(r->token, "0123456789abcdef") != strlen(r->token)) return 0;
    if (!next_number(&c, &r->timeout_ms) || !next_number(&c, &r->grace_ms) || !next_number(&c, &r->cap)) return 0;
    if (!(r->exe = next_field(&c)) || !(r->cwd = next_field(&c)) || !(r->in_path = next_field(&c)) ||
        !(r->out_path = next_field(&c)) || !(r->err_path = next_field(&c))) return 0;
    if (!(r->argv = next_list(&c, 1))) return 0;
    if (!(r->envp = next_list(&c, 0))) return 0;
    return r->timeout_ms > 0 && r->grace_ms >= 0;
}

static void free_request(struct request *r) {
    free(r->argv);
    free(r->envp);
    free(r->body);
    memset(r, 0, sizeof *r);
}

/* Returns 1 with a parsed request from fd 0, 0 at EOF or on a garbled request (the helper then exits). */
static int read_request(struct request *r) {
    char header[HEADER_LENGTH];
    memset(r, 0, sizeof *r);
    if (!read_input(header, HEADER_LENGTH)) return 0;
    unsigned long long len = body_length(header);
    if (len == 0) return 0;
    r->body = malloc((size_t)len);
    if (!r->body) return 0;
    r->len = (size_t)len;
    if (!read_input(r->body, r->len) || !parse_request(r)) {
        free_request(r);
        return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------------------------------------
 * The tree: everything below a reaper (the helper, or PID 1 of a run), summed over wait4 results.
 */
struct tree {
    struct rusage usage; /* summed CPU, faults and I/O; ru_maxrss is the largest single process */
    int leftovers;
    int childless; /* the last reap_ended found no child at all (ECHILD) */
};

static void add_usage(struct tree *tree, const struct rusage *u) {
    struct rusage *t = &tree->usage;
    timeradd(&t->ru_utime, &u->ru_utime, &t->ru_utime);
    timeradd(&t->ru_stime, &u->ru_stime, &t->ru_stime);
    if (u->ru_maxrss > t->ru_maxrss) t->ru_maxrss = u->ru_maxrss;
    t->ru_minflt += u->ru_minflt;
    t->ru_majflt += u->ru_majflt;
    t->ru_inblock += u->ru_inblock;
    t->ru_oublock += u->ru_oublock;
}

/* Reaps every child that has already ended, adding its usage; returns how many. */
static int reap_ended(struct tree *tree, int count_killed) {
    int reaped = 0;
    for (;;) {
        int status;
        struct rusage u;
        pid_t pid = wait4(-1, &status, WNOHANG | __WALL, &u);
        if (pid <= 0) {
            tree->childless = pid < 0 && errno == ECHILD;
            return reaped;
        }
        add_usage(tree, &u);
        if (count_killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) tree->leftovers++;
        reaped++;
    }
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
static void finish_tree(struct tree *tree, pid_t group, int pid_namespace) {
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
struct spawn {
    const struct request *r;
    int fds[3]; /* stdin, stdout, stderr already open, or -1 to open the request's paths */
    int drop_privileges;
    int clone_flags; /* more namespaces for the target */
    /* Set by a child that could not start: it shares our memory until exec, as glibc's posix_spawn
     * child shares its error code, so no pipe is needed to learn why. */
    const char *failed_stage;
    int failed_errno;
    int pidfd; /* set by spawn_target: the child's pidfd from clone itself where pidfds work, else -1 */
};

/*
 * Descriptors in flight on unix sockets count against their sender's uid, and a send fails once that
 * count passes the sender's own RLIMIT_NOFILE, unless the sender has CAP_SYS_ADMIN or CAP_SYS_RESOURCE
 * in the host's namespace. When Maven is not root every run has the helper's uid: one run holding its
 * limit's worth in flight made every other worker's hand-over of a run's stdio fail (launcher_failed).
 * So the launcher's own processes send with the hard limit and runs get a hard limit a reserve below it:
 * a run stops at its own limit, and the launcher still has the reserve to pass descriptors.
 */
static rlim_t run_files_soft, run_files_hard; /* 0: runs keep the limits they inherit */
static struct rlimit inherited_files;

static int exempt_from_inflight_limit(void) {
    char status[4096];
    if (read_text("/proc/self/status", status, sizeof status) <= 0) return 0;
    const char *line = strstr(status, "CapEff:");
    unsigned long long caps = 0;
    if (!line || sscanf(line + 7, "%llx", &caps) != 1) return 0;
    return (caps >> 21 & 1) /* CAP_SYS_ADMIN */ || (caps >> 24 & 1) /* CAP_SYS_RESOURCE */;
}

static void reserve_descriptors_in_flight(void) {
    struct rlimit files;
    if (exempt_from_inflight_limit() || getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_max == RLIM_INFINITY) return;
    inherited_files = files;
    rlim_t reserve = files.rlim_max / 2 < 65536 ? files.rlim_max / 2 : 65536;
    run_files_hard = files.rlim_max - reserve;
    run_files_soft = files.rlim_cur < run_files_hard ? files.rlim_cur : run_files_hard;
    files.rlim_cur = files.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &files) != 0) run_files_hard = run_files_soft = 0;
}

/* The running target's pid, left-aligned and padded to PID_LINE with a newline, as the JVM reads it.
 * Formatted by hand: the target's own child stores it before exec, where no stdio belongs. */
static void set_pid_file(pid_t pid) {
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
    if (pid_page) {
        memcpy(pid_page, line, PID_LINE);
    } else if (pid_file >= 0 && pwrite(pid_file, line, PID_LINE, 0) < 0) {
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

#ifdef __linux__
/*
 * A sandboxed target shares its user namespace (and so its user keyring) with every later run of
 * the worker: the keyring calls are refused, so no run leaves an answer there for the next.
 * Sockets that reach past the network namespace are refused too, and so is every family but TCP
 * streams over the run's loopback (see SOCKET in the filter). AF_VSOCK reaches the hypervisor's
 * host. A pathname unix socket takes connect() (and a datagram's sendto()) through a read-only mount
 * to whatever host daemon's socket the view shows, bound before the sandbox or after it, and Landlock
 * of the kernels we run on cannot refuse that: so the target gets no unix socket that can name a
 * path. socket(AF_UNIX) is refused outright; socketpair(AF_UNIX) is allowed for the connected stream
 * types only, whose connect() fails with EISCONN and whose sendto() refuses or ignores an address (a
 * datagram pair, and SOCK_RAW, which unix makes a datagram, can connect() or sendto() any path).
 * io_uring is refused: its socket and connect operations run in the kernel, past this filter. On
 * i386, socketcall() is refused: its arguments sit in memory a filter cannot read (glibc has used
 * the direct calls since Linux 4.3). A call of any other arch ends the process: on aarch64 a run can
 * exec a 32-bit ARM program (where the CPU and kernel run them), whose calls carry AUDIT_ARCH_ARM and
 * would otherwise pass unchecked, socket(AF_UNIX) included.
 *
 * PID 1: the worker's PID 1 is in every run's PID namespace and has the target's uid (an unprivileged
 * user namespace maps one), so the kernel lets a run set its resource limits, nice value, CPU
 * affinity, scheduling policy and I/O priority, which every later target inherits: a 64-bit answer in
 * a soft limit for the next run, or RLIMIT_NOFILE 4 and the worker starts nothing again. Those calls
 * are refused for pid 1 (every other pid a run can name is its own), and setpriority and ioprio_set
 * for the whole uid. Its /proc directory is hidden (hidepid=2).
 *
 * LEASES: the target owns the host's files when Maven is root (its uid is root's outside), and a lease
 * works through a read-only mount: a write lease on /etc/ld.so.cache held for a run stalled every exec
 * on the host. fcntl(F_SETLEASE) is refused.
 *
 * PAGE CACHE: every run reads files through the host's page cache, which outlives it, so which
 * pages of a large file are cached can carry an answer from one run to the next (the grade of
 * runs > 1 takes the cheapest run). A run may not ask (mincore, cachestat refused) nor drop pages
 * (fadvise DONTNEED and madvise COLD/PAGEOUT do nothing; process_madvise refused): reading a page
 * can still only cache it, and what is left is telling cached from uncached pages by read time. A
 * read with RWF_NOWAIT (which fails where the page is not cached, and so asks without caching) is
 * refused with EOPNOTSUPP, as file systems without it refuse it.
 */
#if defined(__x86_64__)
#define PG_NATIVE_ARCH AUDIT_ARCH_X86_64
#define PG_X32_BIT 0x40000000u
#define PG_COMPAT_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define PG_NATIVE_ARCH AUDIT_ARCH_AARCH64
#define PG_X32_BIT 0xffffffffu
#define PG_COMPAT_ARCH 0u
#endif
#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000u /* before Linux 4.14 the kernel reads it as SECCOMP_RET_KILL */
#endif
#ifndef __NR_io_uring_setup
/* The same on every architecture (Linux 5.1 numbered them all alike). */
#define __NR_io_uring_setup 425
#define __NR_io_uring_enter 426
#define __NR_io_uring_register 427
#endif
/* The same numbers on every architecture (Linux 5.10 and 6.5 numbered them all alike). */
#define PG_NR_PROCESS_MADVISE 440
#define PG_NR_CACHESTAT 451
#define PG_MADV_COLD 20
#define PG_MADV_PAGEOUT 21
#define PG_RWF_NOWAIT 0x8
#define PG_NR_CLONE3 435 /* Linux 5.3, one number everywhere */
#define PG_PTRACE_POKETEXT 4 /* the same on every architecture */
#define PG_PTRACE_POKEDATA 5
#ifndef __NR_userfaultfd /* headers older than Linux 4.3 */
#if defined(__x86_64__)
#define __NR_userfaultfd 323
#elif defined(__aarch64__)
#define __NR_userfaultfd 282
#endif
#endif
#define PG_CLONE_PIDFD 0x1000
static int confine_syscalls(void) {
#ifdef PG_NATIVE_ARCH
    /* Every instruction sits at the index it is written with and every jump names its target, so
     * no offset is counted by hand: a wrong one would silently allow everything. Each index must be
     * written once: one left out is a zero instruction (A = 0), one twice is a -Woverride-init warning. */
    enum { COMPAT = 40, SOCKET = 81, INET = 85, PAIR = 91, FADV = 108, MADV = 110, RWF = 113, PID1 = 116, PRIO = 118, IOPRIO = 123,
        FCNTL = 128, CLONE = 130, PRCTL = 133, PTRACE = 135, ALLOW = 138, NOSYS = 139, ACCES = 140, NOAF = 141, KILL = 142, NOOP = 143, NOTSUP = 144, PERM = 145, NOPROTO = 146, SOCKOPT = 97, FALLOC = 101, MODE1 = 103, MODE2 = 105, LENGTH = 147 };
#define PG_TO(at, label) ((label) - (at) - 1)
#define PG_LOAD(at, field) [at] = BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define PG_JEQ(at, value, then, otherwise) [at] = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (value), PG_TO(at, then), PG_TO(at, otherwise))
#define PG_IF(at, value, then) PG_JEQ(at, value, then, (at) + 1)
#define PG_GOTO(at, label) [at] = BPF_STMT(BPF_JMP | BPF_JA | BPF_K, PG_TO(at, label))
#define PG_RETURN(at, action) [at] = BPF_STMT(BPF_RET | BPF_K, (action))
    struct sock_filter filter[LENGTH] = {
        PG_LOAD(0, arch),
        PG_JEQ(1, PG_NATIVE_ARCH, 2, COMPAT),
        PG_LOAD(2, nr),
        /* x32 calls (the same arch, with this bit) are none of them checked below: all refused. */
        [3] = BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, PG_X32_BIT, PG_TO(3, NOSYS), 0),
        PG_IF(4, __NR_add_key, NOSYS),
        PG_IF(5, __NR_request_key, NOSYS),
        PG_IF(6, __NR_keyctl, NOSYS),
        PG_IF(7, __NR_io_uring_setup, NOSYS),
        PG_IF(8, __NR_io_uring_enter, NOSYS),
        PG_IF(9, __NR_io_uring_register, NOSYS),
        PG_IF(10, __NR_socket, SOCKET),
        PG_IF(11, __NR_socketpair, PAIR),
        PG_IF(12, __NR_setsockopt, SOCKOPT),
        PG_IF(13, __NR_fallocate, FALLOC),
        PG_IF(14, __NR_chmod, MODE1),
        PG_IF(15, __NR_fchmod, MODE1),
        PG_IF(16, __NR_fchmodat, MODE2),
        PG_IF(17, 452 /* fchmodat2 */, MODE2),
        /* The page cache is the host's: see PAGE CACHE above. */
        PG_IF(18, __NR_mincore, NOSYS),
        PG_IF(19, PG_NR_CACHESTAT, NOSYS),
        PG_IF(20, PG_NR_PROCESS_MADVISE, NOSYS),
        PG_IF(21, __NR_fadvise64, FADV),
        PG_IF(22, __NR_madvise, MADV),
        PG_IF(23, __NR_preadv2, RWF),
        PG_IF(24, __NR_pwritev2, RWF),
        /* PID 1 is the one process of the namespace that is not the run's, and it has the target's uid:
         * its limits, priority, CPUs and scheduling policy (inherited by every later target) would take a
         * run's writes for the next run to read. See PID 1 above. */
        PG_IF(25, __NR_prlimit64, PID1),
        PG_IF(26, __NR_sched_setaffinity, PID1),
        PG_IF(27, __NR_sched_setscheduler, PID1),
        PG_IF(28, __NR_sched_setparam, PID1),
        PG_IF(29, __NR_sched_setattr, PID1),
        PG_IF(30, __NR_setpriority, PRIO),
        PG_IF(31, __NR_ioprio_set, IOPRIO),
        /* Leases on host files (the target owns them when Maven is root): a write lease on /etc/ld.so.cache
         * held for a run stalled every exec on the host. */
        PG_IF(32, __NR_fcntl, FCNTL),
        /* A clone that fails after its pid was taken moves the pid counter without making a task; a run
         * that burnt 120,000 pids this way (CLONE_PIDFD with no descriptor free) bought itself the escape
         * allowance of as many tasks. clone3 is refused as Docker refuses it (glibc falls back to clone). */
        PG_IF(33, PG_NR_CLONE3, NOSYS),
        PG_IF(34, __NR_clone, CLONE),
        PG_IF(35, __NR_prctl, PRCTL),
        /* Memory no fault count sees (see memcg_faults): page tables filled without a fault (a userfaultfd's
         * UFFDIO_COPY and UFFDIO_CONTINUE: red team 11 hid 50 MB in a child the kernel reaped) or by another
         * process, whose rusage then explains the faults (process_vm_writev, PTRACE_POKEDATA: 200 MB). */
        PG_IF(36, __NR_userfaultfd, NOSYS),
        PG_IF(37, __NR_process_vm_writev, NOSYS),
        PG_IF(38, __NR_ptrace, PTRACE),
        PG_GOTO(39, ALLOW),
        /* COMPAT: 32-bit calls (int 0x80 works from any x86_64 program too), by i386's numbers. A
         * still holds the arch; aarch64 has no compat arch of ours (0 never matches): an arch not
         * checked here (32-bit ARM under aarch64) ends the process. */
        PG_JEQ(40, PG_COMPAT_ARCH, 41, KILL),
        PG_LOAD(41, nr),
        PG_IF(42, 286 /* add_key */, NOSYS),
        PG_IF(43, 287 /* request_key */, NOSYS),
        PG_IF(44, 288 /* keyctl */, NOSYS),
        PG_IF(45, 425 /* io_uring_setup */, NOSYS),
        PG_IF(46, 426 /* io_uring_enter */, NOSYS),
        PG_IF(47, 427 /* io_uring_register */, NOSYS),
        PG_IF(48, 102 /* socketcall */, NOSYS),
        PG_IF(49, 359 /* socket */, SOCKET),
        PG_IF(50, 360 /* socketpair */, PAIR),
        PG_IF(51, 366 /* setsockopt */, SOCKOPT),
        PG_IF(52, 324 /* fallocate */, FALLOC),
        PG_IF(53, 15 /* chmod */, MODE1),
        PG_IF(54, 94 /* fchmod */, MODE1),
        PG_IF(55, 306 /* fchmodat */, MODE2),
        PG_IF(56, 452 /* fchmodat2 */, MODE2),
        PG_IF(57, 218 /* mincore */, NOSYS),
        PG_IF(58, PG_NR_CACHESTAT, NOSYS),
        PG_IF(59, PG_NR_PROCESS_MADVISE, NOSYS),
        /* i386 splits the 64-bit offsets over two arguments, so the advice moves: none is done. */
        PG_IF(60, 250 /* fadvise64 */, NOOP),
        PG_IF(61, 272 /* fadvise64_64 */, NOOP),
        PG_IF(62, 219 /* madvise */, MADV),
        PG_IF(63, 378 /* preadv2 */, RWF),
        PG_IF(64, 379 /* pwritev2 */, RWF),
        PG_IF(65, 340 /* prlimit64 */, PID1),
        PG_IF(66, 241 /* sched_setaffinity */, PID1),
        PG_IF(67, 156 /* sched_setscheduler */, PID1),
        PG_IF(68, 154 /* sched_setparam */, PID1),
        PG_IF(69, 351 /* sched_setattr */, PID1),
        PG_IF(70, 97 /* setpriority */, PRIO),
        PG_IF(71, 289 /* ioprio_set */, IOPRIO),
        PG_IF(72, 55 /* fcntl */, FCNTL),
        PG_IF(73, 221 /* fcntl64 */, FCNTL),
        PG_IF(74, PG_NR_CLONE3, NOSYS),
        PG_IF(75, 120 /* clone */, CLONE),
        PG_IF(76, 172 /* prctl */, PRCTL),
        PG_IF(77, 374 /* userfaultfd */, NOSYS),
        PG_IF(78, 348 /* process_vm_writev */, NOSYS),
        PG_IF(79, 26 /* ptrace */, PTRACE),
        PG_GOTO(80, ALLOW),
        /* SOCKET: socket(family, type, protocol). An argument's low 32 bits (little-endian): the int
         * the kernel reads, whatever the high bits hold. The run's network is its own loopback: a TCP stream
         * there is all it gets. Datagram and netlink queues hold memory that no resident set and no v1 memory
         * cgroup counts (red team 16 held 1,000 MB in UDP or netlink queues, read back whole, with a tree
         * peak of 2 MB); TCP buffers are charged to the worker's cgroup (see setup_cgroup). Any other family
         * (vsock, packet, the ones a module would be loaded for) is refused. */
        PG_LOAD(81, args[0]),
        PG_IF(82, AF_UNIX, ACCES),
        PG_IF(83, AF_INET, INET),
        PG_JEQ(84, AF_INET6, INET, NOAF),
        PG_LOAD(85, args[1]),
        [86] = BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xf),
        PG_JEQ(87, SOCK_STREAM, 88, ACCES),
        /* A stream of TCP only: MPTCP (IPPROTO_MPTCP, a stream too) keeps what it receives in a socket of its
         * own that no TCP dump lists (red team 18 parked 300 MB there with a tree peak of 82 MB). */
        PG_LOAD(88, args[2]),
        PG_IF(89, 0, ALLOW),
        PG_JEQ(90, IPPROTO_TCP, ALLOW, NOPROTO),
        /* PAIR: socketpair(family, type, protocol, sv), the type without SOCK_NONBLOCK and SOCK_CLOEXEC
         * (any other flag bit is EINVAL in the kernel). */
        PG_LOAD(91, args[0]),
        PG_JEQ(92, AF_UNIX, 93, NOAF),
        PG_LOAD(93, args[1]),
        [94] = BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xf),
        PG_IF(95, SOCK_STREAM, ALLOW),
        PG_JEQ(96, SOCK_SEQPACKET, ALLOW, ACCES),
        /* SOCKOPT: setsockopt(fd, level, name, value, length): SO_RCVBUF does nothing. A connection waiting to be
         * accepted takes its listener's receive buffer when it is made, and PID 1 counts each waiting one as the
         * listener's buffer at the time of a look: a listener's buffer set large, then shrunk once a connection
         * waited on it, hid 1,000 MB (red team 19). Every socket keeps the kernel's default buffer. */
        PG_LOAD(97, args[1]),
        PG_JEQ(98, SOL_SOCKET, 99, ALLOW),
        PG_LOAD(99, args[2]),
        PG_JEQ(100, SO_RCVBUF, NOOP, ALLOW),
        /* FALLOC: fallocate(fd, mode, offset, length) allocates, and grows a file, as a write would; its other modes
         * pass the output cap, which is RLIMIT_FSIZE (red team 20: FALLOC_FL_INSERT_RANGE made a kept stream of 8 TB,
         * FALLOC_FL_KEEP_SIZE held 2 GB of disk behind 6 bytes): "Operation not supported", as on a file system
         * without them. */
        PG_LOAD(101, args[1]),
        PG_JEQ(102, 0, ALLOW, NOTSUP),
        /* MODE1/MODE2: chmod(path, mode), fchmod(fd, mode), fchmodat(dir, path, mode, ...): no set-user-ID or
         * set-group-ID bit. A run owns its output files on the host, and made its kept stream a set-user-ID copy of a
         * program for any local user to run (red team 20); the modes are reset when the run ends, and never get
         * those bits meanwhile. */
        PG_LOAD(103, args[1]),
        PG_GOTO(104, 106),
        PG_LOAD(105, args[2]),
        [106] = BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 06000),
        PG_JEQ(107, 0, ALLOW, PERM),
        /* FADV: fadvise64(fd, offset, len, advice): dropping the file's cached pages does nothing. */
        PG_LOAD(108, args[3]),
        PG_JEQ(109, POSIX_FADV_DONTNEED, NOOP, ALLOW),
        /* MADV: madvise(addr, len, advice): reclaiming a mapping's pages does nothing. */
        PG_LOAD(110, args[2]),
        PG_IF(111, PG_MADV_COLD, NOOP),
        PG_JEQ(112, PG_MADV_PAGEOUT, NOOP, ALLOW),
        /* RWF: preadv2/pwritev2(fd, iov, count, pos_l, pos_h, flags) with RWF_NOWAIT, which fails where the
         * data is not cached and so asks without caching: refused as a file system without it refuses. */
        PG_LOAD(113, args[5]),
        [114] = BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PG_RWF_NOWAIT),
        PG_JEQ(115, 0, ALLOW, NOTSUP),
        /* PID1: a call whose first argument is a pid, refused for pid 1. */
        PG_LOAD(116, args[0]),
        PG_JEQ(117, 1, PERM, ALLOW),
        /* PRIO: setpriority(which, who, prio): refused for every process of the uid (PID 1 among them) and
         * for pid 1. */
        PG_LOAD(118, args[0]),
        PG_IF(119, PRIO_USER, PERM),
        PG_JEQ(120, PRIO_PROCESS, 121, ALLOW),
        PG_LOAD(121, args[1]),
        PG_JEQ(122, 1, PERM, ALLOW),
        /* IOPRIO: ioprio_set(which, who, ioprio), alike (IOPRIO_WHO_PROCESS 1, IOPRIO_WHO_USER 3). */
        PG_LOAD(123, args[0]),
        PG_IF(124, 3, PERM),
        PG_JEQ(125, 1, 126, ALLOW),
        PG_LOAD(126, args[1]),
        PG_JEQ(127, 1, PERM, ALLOW),
        /* FCNTL: fcntl(fd, cmd, arg), refused for F_SETLEASE. */
        PG_LOAD(128, args[1]),
        PG_JEQ(129, F_SETLEASE, PERM, ALLOW),
        /* CLONE: clone(flags, ...), refused with CLONE_PIDFD (see above). */
        PG_LOAD(130, args[0]),
        [131] = BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PG_CLONE_PIDFD),
        PG_JEQ(132, 0, ALLOW, PERM),
        /* PRCTL: prctl(option, ...): transparent huge pages stay off for the run (see memcg_faults): turning
         * them back on, or off, does nothing. */
        PG_LOAD(133, args[0]),
        PG_JEQ(134, PR_SET_THP_DISABLE, NOOP, ALLOW),
        /* PTRACE: ptrace(request, ...): writing another process's memory is refused; tracing is not (LeakSanitizer
         * stops its own threads with it, debuggers read). */
        PG_LOAD(135, args[0]),
        PG_IF(136, PG_PTRACE_POKETEXT, PERM),
        PG_JEQ(137, PG_PTRACE_POKEDATA, PERM, ALLOW),
        PG_RETURN(138, SECCOMP_RET_ALLOW),
        PG_RETURN(139, SECCOMP_RET_ERRNO | ENOSYS),
        PG_RETURN(140, SECCOMP_RET_ERRNO | EACCES),
        PG_RETURN(141, SECCOMP_RET_ERRNO | EAFNOSUPPORT),
        PG_RETURN(142, SECCOMP_RET_KILL_PROCESS),
        /* Errno 0: the call returns success without being made. */
        PG_RETURN(143, SECCOMP_RET_ERRNO | 0),
        PG_RETURN(144, SECCOMP_RET_ERRNO | EOPNOTSUPP),
        PG_RETURN(145, SECCOMP_RET_ERRNO | EPERM),
        PG_RETURN(146, SECCOMP_RET_ERRNO | EPROTONOSUPPORT),
    };
#undef PG_TO
#undef PG_LOAD
#undef PG_JEQ
#undef PG_IF
#undef PG_GOTO
#undef PG_RETURN
    struct sock_fprog program = {LENGTH, filter};
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0);
#else
    return 0;
#endif
}
#endif

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
    if (s->drop_privileges && run_files_hard > 0) {
        struct rlimit files = {run_files_soft, run_files_hard};
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
static pid_t spawn_target(struct spawn *s, char *failure, size_t failure_len) {
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
    pid_t pid = clone(spawn_child, spawn_stack + SPAWN_STACK, CLONE_VM | CLONE_VFORK | SIGCHLD | s->clone_flags | (use_pidfd ? CLONE_PIDFD : 0),
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
struct outcome {
    int status;
    int timed_out;
    long long wall_us;
    long long cpu_wait_us; /* the target's time runnable but waiting for a CPU (its run-queue delay) */
    long long leader_cpu_us; /* the target's own thread's time on a CPU, from the same schedstat line */
    long long socket_peak; /* bytes: the most the run's TCP sockets held at one sample, -1 where not sampled */
    struct tree tree;
};

/*
 * TCP sockets of the run's network namespace, sampled while it runs. A memory cgroup charges a TCP socket only
 * once it is accepted: a run that connected to its own listener and never accepted parked 1,000 MB in the
 * queues of the connections waiting there with a tree peak of 40 MB (red team 17). sock_diag lists every socket
 * of the namespace, accepted or not, with what its queues hold; an empty namespace answers in microseconds.
 */
#define SOCKET_SAMPLE_MS 50
static int socket_diag = -1; /* PID 1's sock_diag socket in the current run's namespace, made at its first look */
static int socket_stat = -1; /* the namespace's /proc/self/net/sockstat, opened at the first look */
static int socket_stat6 = -1; /* and its sockstat6 */
static int socket_sampling = 0; /* PID 1 looks at the run's sockets (it is in the run's namespace) */

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
    if (send(socket_diag, &ask, sizeof ask, 0) != (ssize_t)sizeof ask) return -1;
    static char buffer[65536];
    long long total = 0;
    for (;;) {
        ssize_t n = recv(socket_diag, buffer, sizeof buffer, 0);
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
                     * keeps what it received until accepted and read (red team 18: 1,000 MB held read as a 1.6 MB
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
 * socket hash whatever the namespace holds (5 ms here), this read costs a few microseconds. */
static int tcp_in_use(int *fd, const char *path, const char *line) {
    if (*fd < 0) *fd = open(path, O_RDONLY | O_CLOEXEC);
    char text[512];
    ssize_t n = *fd < 0 ? -1 : pread(*fd, text, sizeof text - 1, 0);
    if (n <= 0) return -1;
    text[n] = '\0';
    const char *tcp = strstr(text, line);
    return tcp ? atoi(tcp + strlen(line)) : -1;
}

/* IPv6 sockets, v4-mapped ones too, are counted in sockstat6 alone (red team 18 parked 1,000 MB over ::1 with
 * TCP: inuse 0). */
static int sockets_in_use(void) {
    int v4 = tcp_in_use(&socket_stat, "/proc/self/net/sockstat", "TCP: inuse ");
    int v6 = tcp_in_use(&socket_stat6, "/proc/self/net/sockstat6", "TCP6: inuse ");
    return v4 < 0 || v6 < 0 ? -1 : v4 + v6;
}

static void sample_sockets(struct outcome *out) {
    if (!socket_sampling || sockets_in_use() == 0) return;
    if (socket_diag < 0) socket_diag = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (socket_diag < 0) {
        out->socket_peak = -1;
        socket_sampling = 0;
        return;
    }
    long long v4 = socket_memory_of(AF_INET), v6 = socket_memory_of(AF_INET6);
    if (v4 < 0 || v6 < 0) return;
    if (v4 + v6 > out->socket_peak) out->socket_peak = v4 + v6;
}

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
    snprintf(path, sizeof path, "/proc/%d/schedstat", (int)pid);
    return open(path, O_RDONLY | O_CLOEXEC);
}

/* Waits for `pid`; with `watch_lifeline`, fd 0 is polled too, and the run is abandoned (0) when the JVM has gone. */
static int wait_target(pid_t pid, int pidfd, const struct request *r, int pid_namespace, long long started, int watch_lifeline,
                       struct outcome *out) {
    if (pidfd < 0 && use_pidfd) pidfd = open_pidfd(pid);
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
        if (done == pid) {
            out->status = status;
            add_usage(&out->tree, &u);
            break;
        }
        long long now = now_us();
        if (!out->timed_out && now >= deadline) {
            out->timed_out = 1;
            if (pid_namespace) kill(-1, SIGTERM); else kill(-pid, SIGTERM);
            kill_at = now + r->grace_ms * 1000LL;
        }
        if (out->timed_out && kill_at && now >= kill_at) {
            if (pid_namespace) kill(-1, SIGKILL); else kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            kill_at = 0;
        }
        long long wake = out->timed_out ? (kill_at ? kill_at : now + 50000) : deadline;
        long long wait_ms = (wake - now) / 1000 + 1;
        if (wait_ms > 1000) wait_ms = 1000;
        if (socket_sampling) {
            /* Not at once: a run over within a look's time holds nothing for long, and most runs are. Memory parked
             * for less than a look's time can be missed: no room to keep anything in. */
            if (now - started >= SOCKET_SAMPLE_MS * 1000LL) sample_sockets(out);
            if (wait_ms > SOCKET_SAMPLE_MS) wait_ms = SOCKET_SAMPLE_MS;
        }
        /* Orphans reparented to us end too, and must not keep the poll busy: reap them as they come. */
        struct pollfd fds[2] = {{pidfd >= 0 ? pidfd : sigchld_pipe[0], POLLIN, 0}, {0, LIFELINE_EVENTS, 0}};
        int ready = poll(fds, watch_lifeline ? 2 : 1, (int)wait_ms);
        if (ready > 0) {
            if (pidfd < 0 && (fds[0].revents & POLLIN)) {
                char drain[64];
                while (read(sigchld_pipe[0], drain, sizeof drain) > 0) { }
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

/* ---------------------------------------------------------------------------------------------
 * Memory cgroup (v1 where writable, v2 where delegated): the peak of the whole tree's summed memory.
 */
static char cgroup_dir[PATH_MAX];
static int cgroup_version = 0;

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    int ok = write_all(fd, text, strlen(text));
    close(fd);
    return ok;
}

/*
 * The cgroup files read or written around every run, opened once: on cgroupfs an open costs several
 * times the read, and a run needs seven of them. Reading at offset 0 shows the current value again.
 */
#define KEPT_FILES 12
static struct {
    char path[PATH_MAX + 32];
    int flags;
    int fd;
} kept_files[KEPT_FILES];
static int kept_count;

static int kept_fd(const char *path, int flags) {
    for (int i = 0; i < kept_count; i++) {
        if (kept_files[i].flags == flags && strcmp(kept_files[i].path, path) == 0) return kept_files[i].fd;
    }
    int fd = open(path, flags | O_CLOEXEC);
    if (fd < 0 || kept_count == KEPT_FILES) return fd; /* never full: the table holds every file a run uses */
    snprintf(kept_files[kept_count].path, sizeof kept_files[kept_count].path, "%s", path);
    kept_files[kept_count].flags = flags;
    kept_files[kept_count].fd = fd;
    kept_count++;
    return fd;
}

/* Closes a descriptor kept_fd gave, unless the table keeps it. */
static void unkept(int fd) {
    for (int i = 0; i < kept_count; i++) {
        if (kept_files[i].fd == fd) return;
    }
    close(fd);
}

static ssize_t read_kept(const char *path, char *text, size_t size) {
    int fd = kept_fd(path, O_RDONLY);
    if (fd < 0) return -1;
    ssize_t n = pread(fd, text, size - 1, 0);
    unkept(fd);
    if (n <= 0) return -1;
    text[n] = '\0';
    return n;
}

static long long read_kept_number(const char *path) {
    char text[64];
    return read_kept(path, text, sizeof text) < 0 ? -1 : strtoll(text, NULL, 10);
}

static int write_kept(const char *path, int flags, const char *text) {
    int fd = kept_fd(path, flags);
    if (fd < 0) return 0;
    int ok = pwrite(fd, text, strlen(text), 0) == (ssize_t)strlen(text);
    unkept(fd);
    return ok;
}

/* Our own cgroup in the given hierarchy ("memory" for v1, "" for v2), from /proc/self/cgroup. */
static int own_cgroup(const char *controller, char *path, size_t len) {
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f) return 0;
    char line[1024];
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        char *first = strchr(line, ':');
        char *second = first ? strchr(first + 1, ':') : NULL;
        if (!second) continue;
        *second = '\0';
        char *controllers = first + 1;
        int match = controller[0] ? strstr(controllers, controller) != NULL && strncmp(line, "0:", 2) != 0
                                  : strncmp(line, "0:", 2) == 0;
        if (match) {
            char *p = second + 1;
            p[strcspn(p, "\n")] = '\0';
            snprintf(path, len, "%s", p);
            found = 1;
            break;
        }
    }
    fclose(f);
    return found;
}

static char cgroup_parent_procs[PATH_MAX];
static int cgroup_peak_fd = -1;
static int tcp_accounted = 0;   /* v1: TCP socket buffers charged to the worker cgroup (memory.kmem.tcp) */
static long long tcp_base = -1; /* v1: the TCP peak reset before a run, -1 when it could not be */

/* Empty cgroups left by helpers that were killed: removing a busy one fails, which is what we want. */
static void sweep_stale_cgroups(const char *parent) {
    DIR *dir = opendir(parent);
    if (!dir) return;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        int pid;
        if (sscanf(entry->d_name, "patchgrade-%d", &pid) != 1 || pid == getpid()) continue;
        if (kill(pid, 0) == 0 || errno != ESRCH) continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", parent, entry->d_name);
        rmdir(path);
    }
    closedir(dir);
}

/* Moves the helper (and so everything it starts) into a cgroup of its own below its current one. */
static void setup_cgroup(void) {
#ifdef __linux__
    char own[PATH_MAX / 2];
    char parent[PATH_MAX];
    if (own_cgroup("memory", own, sizeof own)) {
        snprintf(parent, sizeof parent, "/sys/fs/cgroup/memory%s", strcmp(own, "/") == 0 ? "" : own);
        cgroup_version = 1;
    } else if (own_cgroup("", own, sizeof own)) {
        snprintf(parent, sizeof parent, "/sys/fs/cgroup%s", strcmp(own, "/") == 0 ? "" : own);
        char controllers[PATH_MAX + 32];
        snprintf(controllers, sizeof controllers, "%s/cgroup.subtree_control", parent);
        char text[256] = "";
        int fd = open(controllers, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ssize_t n = read(fd, text, sizeof text - 1);
            text[n > 0 ? n : 0] = '\0';
            close(fd);
        }
        if (strstr(text, "memory")) cgroup_version = 2;
    }
    if (!cgroup_version) return;
    sweep_stale_cgroups(parent);
    snprintf(cgroup_dir, sizeof cgroup_dir, "%s/patchgrade-%d", parent, (int)getpid());
    snprintf(cgroup_parent_procs, sizeof cgroup_parent_procs, "%s/cgroup.procs", parent);
    char procs[PATH_MAX + 16], peak[PATH_MAX + 32];
    snprintf(procs, sizeof procs, "%s/cgroup.procs", cgroup_dir);
    snprintf(peak, sizeof peak, "%s/%s", cgroup_dir, cgroup_version == 1 ? "memory.max_usage_in_bytes" : "memory.peak");
    if (mkdir(cgroup_dir, 0755) != 0 && errno != EEXIST) {
        cgroup_version = 0;
        return;
    }
    if (access(peak, R_OK | W_OK) != 0 || !write_file(procs, "0")) {
        rmdir(cgroup_dir);
        cgroup_version = 0;
        return;
    }
    if (cgroup_version == 1) {
        /* v1 charges TCP socket buffers to a cgroup only once its TCP limit is set: a run holding its memory in
         * loopback queues was in no RSS and no tree peak (red team 16). Set to no limit at all, only to count. */
        char tcp[PATH_MAX + 48];
        snprintf(tcp, sizeof tcp, "%s/memory.kmem.tcp.limit_in_bytes", cgroup_dir);
        tcp_accounted = write_file(tcp, "-1");
    }
#endif
}

/*
 * CPU of the whole tree from the cgroup too: a process whose parent ignores SIGCHLD is reaped by the
 * kernel itself, and its rusage reaches no wait4. v2: cpu.stat of the memory cgroup; v1: a cpuacct
 * cgroup of our own beside it.
 */
static char cpu_cgroup_dir[PATH_MAX];
static char cpu_parent_procs[PATH_MAX];
static int cpu_cgroup = 0; /* 1: v1 cpuacct, 2: v2 cpu.stat */

static void setup_cpu_cgroup(void) {
#ifdef __linux__
    char path[PATH_MAX + 32];
    if (cgroup_version == 2) {
        snprintf(path, sizeof path, "%s/cpu.stat", cgroup_dir);
        if (access(path, R_OK) == 0) {
            snprintf(cpu_cgroup_dir, sizeof cpu_cgroup_dir, "%s", cgroup_dir);
            cpu_cgroup = 2;
        }
        return;
    }
    char own[PATH_MAX / 2];
    if (!own_cgroup("cpuacct", own, sizeof own)) return;
    static const char *const mounts[] = {"/sys/fs/cgroup/cpuacct", "/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpuacct,cpu"};
    for (size_t i = 0; i < sizeof mounts / sizeof mounts[0]; i++) {
        char parent[PATH_MAX];
        snprintf(parent, sizeof parent, "%s%s", mounts[i], strcmp(own, "/") == 0 ? "" : own);
        snprintf(path, sizeof path, "%s/cpuacct.usage_user", parent);
        if (access(path, R_OK) != 0) continue;
        sweep_stale_cgroups(parent);
        snprintf(cpu_cgroup_dir, sizeof cpu_cgroup_dir, "%s/patchgrade-%d", parent, (int)getpid());
        snprintf(cpu_parent_procs, sizeof cpu_parent_procs, "%s/cgroup.procs", parent);
        char procs[PATH_MAX + 16];
        snprintf(procs, sizeof procs, "%s/cgroup.procs", cpu_cgroup_dir);
        if ((mkdir(cpu_cgroup_dir, 0755) == 0 || errno == EEXIST) && write_file(procs, "0")) cpu_cgroup = 1;
        else rmdir(cpu_cgroup_dir);
        return;
    }
#endif
}

/* The tree's user and system CPU so far, in microseconds; 0 when there is no cgroup to ask. */
static int cgroup_cpu_us(long long *user, long long *system) {
    char path[PATH_MAX + 32];
    if (cpu_cgroup == 1) {
        /* usage_user and usage_sys are sampled at ticks (a busy machine lost a third of a child's CPU in
         * them); cpuacct.usage is the scheduler's exact total, so user is the total less system. */
        snprintf(path, sizeof path, "%s/cpuacct.usage", cpu_cgroup_dir);
        long long total = read_kept_number(path);
        snprintf(path, sizeof path, "%s/cpuacct.usage_sys", cpu_cgroup_dir);
        long long s = read_kept_number(path);
        if (total < 0 || s < 0) return 0;
        if (s > total) s = total;
        *user = (total - s) / 1000;
        *system = s / 1000;
        return 1;
    }
    if (cpu_cgroup == 2) {
        snprintf(path, sizeof path, "%s/cpu.stat", cpu_cgroup_dir);
        char text[2048];
        if (read_kept(path, text, sizeof text) < 0) return 0;
        int found = 0;
        for (char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
            long long value;
            if (sscanf(line, "user_usec %lld", &value) == 1) { *user = value; found |= 1; }
            if (sscanf(line, "system_usec %lld", &value) == 1) { *system = value; found |= 2; }
        }
        return found == 3;
    }
    return 0;
}

/* The cgroup's figures read after the last run: the next run starts from them. Between runs only the
 * helper itself runs in the cgroup, for microseconds, well inside the margin a run is allowed. */
static int cpu_mark_valid;
static long long cpu_mark_own, cpu_window_own; /* our own CPU at the mark, and where this run's window began */
static long long cpu_mark_user, cpu_mark_system;

/* The tree's CPU before a run: 0 when there is no cgroup to ask. */
static int cgroup_cpu_start(long long *user, long long *system) {
    if (cpu_mark_valid) {
        *user = cpu_mark_user;
        *system = cpu_mark_system;
        cpu_window_own = cpu_mark_own;
        return 1;
    }
    cpu_window_own = own_cpu_us();
    return cgroup_cpu_us(user, system);
}

/* Raises a reply's utime_us/stime_us to the cgroup's figures where those are clearly higher (more
 * than our own overhead per run): CPU spent in processes no wait4 saw. */
/* Against a CPU cgroup, whose account is rusage's own: what the launcher's own work leaves unexplained, and per
 * task the run made, what a thread spends after its time joined its process's (red team: 4.8 us a thread, so
 * 2,400 short threads of an honest program measured 12-17 ms). */
#define UNWAITED_CGROUP_NOISE_US 2000
#define UNWAITED_CGROUP_US_PER_TASK 10

/* The number after " KEY=" in an answer line, or -1. */
static long long line_field(const char *line, const char *key) {
    char pattern[40];
    snprintf(pattern, sizeof pattern, " %s=", key);
    const char *at = strstr(line, pattern);
    long long value;
    return at && sscanf(at + strlen(pattern), "%lld", &value) == 1 ? value : -1;
}

/* Replaces the number after " KEY=" in an answer line of size bytes; nothing when the key is not there. */
static void set_line_field(char *line, size_t size, const char *key, long long value) {
    char pattern[40];
    snprintf(pattern, sizeof pattern, " %s=", key);
    char *at = strstr(line, pattern);
    if (!at) return;
    char *from = at + strlen(pattern);
    char *end = from + strcspn(from, " \n");
    char number[24];
    int len = snprintf(number, sizeof number, "%lld", value);
    size_t tail = strlen(end) + 1;
    if ((size_t)(from - line) + (size_t)len + tail > size) return;
    memmove(from + len, end, tail);
    memcpy(from, number, (size_t)len);
}

/* Removes " KEY=value" from an answer line; nothing when the key is not there. */
static void remove_line_field(char *line, const char *key) {
    char pattern[40];
    snprintf(pattern, sizeof pattern, " %s=", key);
    char *at = strstr(line, pattern);
    if (!at) return;
    char *end = at + 1 + strcspn(at + 1, " ");
    memmove(at, end, strlen(end) + 1);
}

/*
 * The cgroup holds the whole tree, reaped through wait4 or not, with our own work and PID 1's, on rusage's own
 * clock: what it has past that work and the wait4 sums is CPU of a process that escaped every wait4, whose peak
 * RSS, faults and I/O nobody has. It sees what PID 1's counters cannot: a child that execs a file it cannot read
 * leaves them. That CPU is charged as user time, and the answer says how much escaped.
 */
static int memcg_faults_told; /* PID 1 reads the memory cgroup's faults around each run */

static void apply_cgroup_cpu(char *line, size_t size, int had, long long user0, long long system0) {
    long long user1, system1;
    if (!had || !cgroup_cpu_us(&user1, &system1)) return;
    long long own = own_cpu_us();
    long long helper_cpu = own >= 0 && cpu_window_own >= 0 ? own - cpu_window_own : 0;
    cpu_mark_valid = 1;
    cpu_mark_user = user1;
    cpu_mark_system = system1;
    cpu_mark_own = own;
    long long utime = line_field(line, "utime_us"), stime = line_field(line, "stime_us");
    long long unwaited = line_field(line, "unwaited_cpu_us"), init = line_field(line, "init_cpu_us"), tasks = line_field(line, "tasks");
    if (utime < 0 || stime < 0) return;
    long long excess = user1 - user0 + system1 - system0 - (utime + stime) - (init > 0 ? init : 0) - (helper_cpu > 0 ? helper_cpu : 0);
    if (tasks < 0) {
        /* No PID namespace, so no count of the tasks the run made: the CPU is repaired past a wide margin, and
         * no escape is told (the sandbox is off: the report says the verdict is not tamper-proof). */
        if (excess > 20000) set_line_field(line, size, "utime_us", utime + excess);
        return;
    }
    /* When PID 1 saw a process escape (by faults nobody explains), the cgroup's whole excess is that process's. */
    if (excess > UNWAITED_CGROUP_NOISE_US + tasks * UNWAITED_CGROUP_US_PER_TASK || (unwaited > 0 && excess > 0)) {
        set_line_field(line, size, "utime_us", utime + excess);
        /* Where PID 1 counts the memory cgroup's faults, an escaped process's memory shows there, and CPU alone
         * is only CPU: counted, but no per-process figure is lost. Past the allowance it may also be what
         * threads spend after their time joined their process's, which a busy machine made 15 us a thread. */
        if (unwaited > 0 || !memcg_faults_told) set_line_field(line, size, "unwaited_cpu_us", (unwaited > 0 ? unwaited : 0) + excess);
        else set_line_field(line, size, "unwaited_cpu_us", 0);
    } else if (unwaited < 0) {
        set_line_field(line, size, "unwaited_cpu_us", 0);
    }
}

static void leave_cgroup(void) {
    if (cpu_cgroup == 1) {
        write_file(cpu_parent_procs, "0");
        rmdir(cpu_cgroup_dir);
    }
    if (!cgroup_version) return;
    write_file(cgroup_parent_procs, "0");
    rmdir(cgroup_dir);
}

/*
 * Memory the kernel frees from a worker after its run was answered: unix garbage's files are put by a kworker, and
 * a shmem file of GBs takes seconds to free (red team 18: 2,000 MB in memfds parked in a garbage cycle were still
 * charged when the next run's baseline was taken, and that run used 1.6 GB unseen as they went). Where the cgroup
 * holds more than a little over the last baseline, its usage is followed until it has stopped falling for 100 ms (at most 5 s).
 */
#define SETTLE_SLACK_BYTES (8LL << 20)
#define SETTLE_STEP_MS 5
#define SETTLE_MOST_MS 5000
#define SETTLE_QUIET_STEPS 20 /* 100 ms without progress */
static long long last_base = -1;
static void cgroup_settle(const char *usage_path) {
    long long usage = read_kept_number(usage_path);
    if (last_base < 0 || usage < 0 || usage <= last_base + SETTLE_SLACK_BYTES) return;
    struct timespec step = {0, SETTLE_STEP_MS * 1000000L};
    int still = 0;
    for (int waited = 0; waited < SETTLE_MOST_MS; waited += SETTLE_STEP_MS) {
        nanosleep(&step, NULL);
        long long now = read_kept_number(usage_path);
        if (now < 0 || now <= last_base + SETTLE_SLACK_BYTES) return;
        /* Page cache a run read stays charged: usage that no longer falls is settled, whatever its level. "No longer"
         * is a quiet spell, not one step: on a busy machine the kernel thread that frees the memory may not run for
         * tens of milliseconds, and a single step without progress took a baseline with a gigabyte still charged. */
        if (now > usage - (256LL << 10)) {
            if (++still >= SETTLE_QUIET_STEPS) return;
            continue;
        }
        still = 0;
        usage = now;
    }
}

static long long cgroup_reset_now(void);

/* Resets the peak to what the cgroup holds now and returns that, so a run's peak is measured from it. */
static long long cgroup_reset(void) {
    long long base = cgroup_reset_now();
    last_base = base;
    return base;
}

static long long cgroup_reset_now(void) {
    if (!cgroup_version) return -1;
    char path[PATH_MAX + 48];
    snprintf(path, sizeof path, "%s/%s", cgroup_dir, cgroup_version == 1 ? "memory.usage_in_bytes" : "memory.current");
    cgroup_settle(path);
    if (cgroup_version == 1) {
        if (tcp_accounted) {
            snprintf(path, sizeof path, "%s/memory.kmem.tcp.max_usage_in_bytes", cgroup_dir);
            tcp_base = write_kept(path, O_RDWR, "0") ? read_kept_number(path) : -1;
        }
        snprintf(path, sizeof path, "%s/memory.max_usage_in_bytes", cgroup_dir);
        if (!write_kept(path, O_RDWR, "0")) return -1;
        snprintf(path, sizeof path, "%s/memory.usage_in_bytes", cgroup_dir);
    } else {
        /* v2 resets the peak seen through one open file: the same kept file is read after the run. */
        snprintf(path, sizeof path, "%s/memory.peak", cgroup_dir);
        cgroup_peak_fd = kept_fd(path, O_RDWR);
        if (cgroup_peak_fd < 0 || pwrite(cgroup_peak_fd, "reset\n", 6, 0) != 6) return -1;
        snprintf(path, sizeof path, "%s/memory.current", cgroup_dir);
    }
    return read_kept_number(path);
}

/* socket_kb: the most the run's TCP sockets held at one sample (see sample_sockets), -1 where not sampled. */
static long long cgroup_peak_kb(long long base, long long socket_kb) {
    if (!cgroup_version || base < 0) return -1;
    long long peak;
    long long sockets = socket_kb > 0 ? socket_kb * 1024 : 0;
    if (cgroup_version == 1) {
        char path[PATH_MAX + 48];
        snprintf(path, sizeof path, "%s/memory.max_usage_in_bytes", cgroup_dir);
        peak = read_kept_number(path);
        long long tcp = 0;
        if (peak >= 0 && tcp_accounted && tcp_base >= 0) {
            /* TCP buffers are charged apart from memory.usage: their own peak is added (the sum of two peaks
             * bounds the peak of the sum from above). */
            snprintf(path, sizeof path, "%s/memory.kmem.tcp.max_usage_in_bytes", cgroup_dir);
            long long tcp_peak = read_kept_number(path);
            if (tcp_peak > tcp_base) tcp = tcp_peak - tcp_base;
        }
        /* The sampled sockets include the accepted ones the TCP counter has: the larger of the two. */
        if (peak >= 0) peak += tcp > sockets ? tcp : sockets;
    } else {
        char text[64];
        ssize_t n = pread(cgroup_peak_fd, text, sizeof text - 1, 0);
        if (n <= 0) return -1;
        text[n] = '\0';
        peak = strtoll(text, NULL, 10);
        /* v2 charges TCP memory to memory.current once a socket is accepted: the sampled sockets are added, the
         * accepted ones twice (an honest TCP-heavy run reads higher, on the host its envelope was recorded on too). */
        if (peak >= 0) peak += sockets;
    }
    if (peak < 0) return -1;
    return peak > base ? (peak - base) / 1024 : 0;
}

#define FD_CONTROL_SPACE CMSG_SPACE(3 * sizeof(int))

/* A message carrying a request header and three descriptors (stdin, stdout, stderr). */
static void fd_message(struct msghdr *msg, struct iovec *iov, char *header, char *control) {
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
#define PG_SCM_MAX_FD 253
static ssize_t send_with_fds(int sock, const void *data, size_t len, const int *fds, int count, int flags) {
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

/* ---------------------------------------------------------------------------------------------
 * The sandbox.
 */
#define MAX_PATHS 4096
/* Mount operations in the order given: 'r' show read-only, 'w' make writable, 'l' make a symbolic link,
 * 'h' hide. A later
 * operation lies on top of an earlier one, so the caller orders them (oracles hidden last). */
struct sandbox_op {
    char kind;
    const char *path;
    const char *target; /* 'l': what the link holds */
};
struct sandbox_spec {
    struct sandbox_op ops[MAX_PATHS];
    int count;
    int deny_userns; /* tests: behave as a kernel that refuses user namespaces */
};
static struct sandbox_spec spec;
static int zygote_sock = -1;
static pid_t zygote_pid = -1;

#ifdef __linux__
#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#define MOUNT_ATTR_NOSUID 0x00000002
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
struct pg_mount_attr {
    unsigned long long attr_set, attr_clr, propagation, userns_fd;
};

static int set_mount_attr(const char *path, unsigned long long set, unsigned long long clr, int recursive) {
#ifdef SYS_mount_setattr
    struct pg_mount_attr attr = {set, clr, 0, 0};
    if (syscall(SYS_mount_setattr, AT_FDCWD, path, recursive ? AT_RECURSIVE : 0, &attr, sizeof attr) == 0) return 0;
    if (errno != ENOSYS) return -1;
#endif
    /* Kernels before 5.12: one remount per mount, keeping the flags the kernel has locked. */
    unsigned long base = MS_BIND | MS_REMOUNT | ((set & MOUNT_ATTR_RDONLY) ? MS_RDONLY : 0) | ((set & MOUNT_ATTR_NOSUID) ? MS_NOSUID : 0);
    FILE *f = fopen("/proc/self/mounts", "re");
    if (!f) return -1;
    char line[4096];
    size_t prefix = strlen(path);
    int result = 0;
    while (fgets(line, sizeof line, f)) {
        char dev[1024], dir[2048], options[1024];
        if (sscanf(line, "%1023s %2047s %*s %1023s", dev, dir, options) < 3) continue;
        if (strncmp(dir, path, prefix) != 0 || (dir[prefix] != '\0' && dir[prefix] != '/')) continue;
        if (!recursive && dir[prefix] != '\0') continue;
        unsigned long flags = base;
        if (strstr(options, "nodev")) flags |= MS_NODEV;
        if (strstr(options, "noexec")) flags |= MS_NOEXEC;
        if (strstr(options, "nosuid")) flags |= MS_NOSUID;
        if (!(clr & MOUNT_ATTR_RDONLY) && strncmp(options, "ro", 2) == 0 && (options[2] == ',' || options[2] == '\0')) flags |= MS_RDONLY;
        if (mount(NULL, dir, NULL, flags, NULL) != 0) result = -1;
    }
    fclose(f);
    return result;
}

/* Read-only for exactly the mount behind `fd`, even where a later mount covers its path. */
static int set_mount_attr_fd(int fd, const char *by_path) {
#ifdef SYS_mount_setattr
    struct pg_mount_attr attr = {MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0, 0, 0};
    if (syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH, &attr, sizeof attr) == 0) return 0;
    if (errno != ENOSYS) return -1;
#endif
    return mount(NULL, by_path, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
}

/* Why the sandbox could not be set up: the first failing step and its errno, sent to the helper. */
static void zygote_fail(int report_fd, const char *stage) {
    char message[128];
    int len = snprintf(message, sizeof message, "fail %s %d", stage, errno);
    if (write(report_fd, message, (size_t)len) < 0) { }
    _exit(2);
}

static int write_text(const char *path, const char *format, ...) {
    char text[256];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    return write_file(path, text) ? 0 : -1;
}

/* Makes `path` (under /newroot) exist as a mount point of the given kind, creating parents. */
static int make_mount_point(const char *path, int directory) {
    struct stat existing;
    if (stat(path, &existing) == 0) return 0;
    char buffer[PATH_MAX];
    snprintf(buffer, sizeof buffer, "%s", path);
    for (char *p = buffer + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buffer, 0755) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (directory) return mkdir(buffer, 0755) == 0 || errno == EEXIST ? 0 : -1;
    int fd = open(buffer, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return errno == EISDIR || errno == EEXIST ? 0 : -1;
    close(fd);
    return 0;
}

static int is_directory(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Binds host `path` (seen under /oldroot) over its place in /newroot; read-only unless `writable`. */
static int bind_back(const char *path, int writable) {
    char from[PATH_MAX], to[PATH_MAX];
    snprintf(from, sizeof from, "/oldroot%s", path);
    snprintf(to, sizeof to, "/newroot%s", path);
    struct stat st;
    if (stat(from, &st) != 0) return 0; /* nothing there to show */
    if (make_mount_point(to, S_ISDIR(st.st_mode)) != 0) return -1;
    if (mount(from, to, NULL, MS_BIND | MS_REC, NULL) != 0) return -1;
    return writable ? set_mount_attr(to, 0, MOUNT_ATTR_RDONLY, 1) : set_mount_attr(to, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0, 1);
}

/* A symbolic link the view needs on the way to what it shows (/bin -> usr/bin, a linked build directory);
 * where the path exists already (inside a bound directory) the host's own link is there. */
static int make_link(const char *path, const char *target) {
    char to[PATH_MAX];
    snprintf(to, sizeof to, "/newroot%s", path);
    struct stat st;
    if (lstat(to, &st) == 0) return 0;
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", to);
    char *slash = strrchr(parent, '/');
    if (!slash || slash == parent) return -1;
    *slash = '\0';
    if (make_mount_point(parent, 1) != 0) return -1;
    return symlink(target, to);
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

/* Builds the candidate's view of the file system in this (new) mount namespace, then pivots into it. */
static void build_root(int report) {
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) zygote_fail(report, "make_private");
    /* A private tmpfs holds the new root while it is built, as bubblewrap does. */
    if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=64k") != 0) zygote_fail(report, "base_tmpfs");
    if (chdir("/tmp") != 0) zygote_fail(report, "base_chdir");
    if (mkdir("newroot", 0755) != 0 || mkdir("oldroot", 0755) != 0) zygote_fail(report, "base_dirs");
    int hidden_file = open("hidden", O_WRONLY | O_CREAT | O_CLOEXEC, 0000);
    if (hidden_file < 0) zygote_fail(report, "hidden_file");
    close(hidden_file);
    if (syscall(SYS_pivot_root, ".", "oldroot") != 0) zygote_fail(report, "pivot_root");
    if (chdir("/") != 0) zygote_fail(report, "chdir_root");
    /* The view is an empty tmpfs holding only what the caller names (an allow-list, as bubblewrap builds it):
     * nothing of the host exists in it unless it is bound in below. Read-only once every mount point is made. */
    if (mount("tmpfs", "/newroot", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m,nr_inodes=65536") != 0) zygote_fail(report, "root_tmpfs");
    if (mkdir("/newroot/dev", 0755) != 0 || mkdir("/newroot/proc", 0555) != 0 || mkdir("/newroot/tmp", 01777) != 0 ||
        chmod("/newroot/tmp", 01777) != 0)
        zygote_fail(report, "root_dirs");
    /* The kernel mounts a new proc in a user namespace only where one is fully visible already: the host's is
     * bound here, and PID 1 mounts the run's own over it before any run starts. */
    if (mount("/oldroot/proc", "/newroot/proc", NULL, MS_BIND | MS_REC, NULL) != 0) zygote_fail(report, "root_proc");
    int hidden_dirs[MAX_PATHS + 48];
    int hidden_dir_count = 0;
    /* The host's /dev would hand uid 0 its consoles (a run writes a tty, the next reads it back
     * through /dev/vcsN), the kernel log, pseudo-terminals and more: a fresh /dev with the harmless
     * nodes only, read-only once later operations have their mount points in it. */
    if (mount("tmpfs", "/newroot/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k") != 0) zygote_fail(report, "dev_tmpfs");
    static const char *const dev_nodes[] = {"null", "zero", "full", "random", "urandom", "tty"};
    for (size_t i = 0; i < sizeof dev_nodes / sizeof dev_nodes[0]; i++) {
        char from[64], to[64];
        snprintf(from, sizeof from, "/oldroot/dev/%s", dev_nodes[i]);
        snprintf(to, sizeof to, "/newroot/dev/%s", dev_nodes[i]);
        struct stat st;
        if (stat(from, &st) != 0 || !S_ISCHR(st.st_mode)) continue;
        if (make_mount_point(to, 0) != 0 || mount(from, to, NULL, MS_BIND, NULL) != 0) zygote_fail(report, "dev_node");
    }
    static const char *const dev_links[][2] = {{"fd", "/proc/self/fd"}, {"stdin", "/proc/self/fd/0"}, {"stdout", "/proc/self/fd/1"},
                                               {"stderr", "/proc/self/fd/2"}};
    for (size_t i = 0; i < sizeof dev_links / sizeof dev_links[0]; i++) {
        char to[64];
        snprintf(to, sizeof to, "/newroot/dev/%s", dev_links[i][0]);
        if (symlink(dev_links[i][1], to) != 0) zygote_fail(report, "dev_link");
    }
    if (mkdir("/newroot/dev/shm", 01777) != 0) zygote_fail(report, "dev_shm");
    if ((hidden_dirs[hidden_dir_count++] = open("/newroot/dev", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) zygote_fail(report, "dev_open");
    /* The host's runtime state: daemons' sockets (docker, dbus, systemd, databases; the seccomp filter
     * keeps a run from connecting to them anyway), pid files, sessions. An empty /run, read-only too. */
    /* And the host's cgroups: a worker's counters (pgfault, usage, cpuacct.usage) carry on from one run to
     * the next, which a red-team run set and the next read back, and every other worker's are there too. */
    /* And what of /sys only root may read, which the target is when Maven is root: the kernel's tracing and
     * debug file systems, firmware tables, security and BPF state. */
    static const char *const runtime_dirs[] = {"/newroot/run", "/newroot/var/run", "/newroot/sys/fs/cgroup", "/newroot/sys/kernel/tracing",
                                               "/newroot/sys/kernel/debug", "/newroot/sys/kernel/security", "/newroot/sys/firmware",
                                               "/newroot/sys/fs/bpf",
                                               /* Counters that are host-wide, exact and quiet: khugepaged's pages_collapsed took
                                                * +5 from one worker's run for another's to read; slab sizes such as kioctx's stay
                                                * where a run left them for tens of seconds. */
                                               "/newroot/sys/kernel/mm/transparent_hugepage/khugepaged", "/newroot/sys/kernel/mm/ksm",
                                               "/newroot/sys/kernel/mm/damon", "/newroot/sys/kernel/mm/hugepages",
                                               "/newroot/sys/kernel/mm/swap", "/newroot/sys/kernel/mm/numa", "/newroot/sys/kernel/slab"};
    for (size_t i = 0; i < sizeof runtime_dirs / sizeof runtime_dirs[0]; i++) {
        struct stat st;
        if (lstat(runtime_dirs[i], &st) != 0 || !S_ISDIR(st.st_mode)) continue; /* /var/run is a link to /run */
        if (mount("tmpfs", runtime_dirs[i], "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755,size=64k") != 0) zygote_fail(report, "run_tmpfs");
        if ((hidden_dirs[hidden_dir_count++] = open(runtime_dirs[i], O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) zygote_fail(report, "run_open");
    }
    /* The transparent huge page counters of each page size: host-wide, exact, and quiet where huge pages are
     * only had on request, so a run set one to a value the next run read back (red team: 42 written, 42 read,
     * across workers). */
    DIR *thp = opendir("/newroot/sys/kernel/mm/transparent_hugepage");
    struct dirent *size_dir;
    while (thp && (size_dir = readdir(thp)) != NULL && hidden_dir_count < 40) { /* the array keeps MAX_PATHS + 8 for the hidden paths */
        if (strncmp(size_dir->d_name, "hugepages-", 10) != 0 || strlen(size_dir->d_name) > 40) continue;
        char stats[128];
        snprintf(stats, sizeof stats, "/newroot/sys/kernel/mm/transparent_hugepage/%s/stats", size_dir->d_name);
        if (!is_directory(stats)) continue;
        if (mount("tmpfs", stats, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755,size=64k") != 0) zygote_fail(report, "thp_tmpfs");
        if ((hidden_dirs[hidden_dir_count++] = open(stats, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) zygote_fail(report, "thp_open");
    }
    if (thp) closedir(thp);
    /* And each NUMA node's copy of /proc/vmstat (nr_foll_pin_acquired moves by one per O_DIRECT page read, which
     * read access to any file allows: 900 written, 900 read on another worker) and its numastat. */
    DIR *nodes = opendir("/newroot/sys/devices/system/node");
    struct dirent *node;
    while (nodes && (node = readdir(nodes)) != NULL) {
        if (strncmp(node->d_name, "node", 4) != 0 || node->d_name[4] < '0' || node->d_name[4] > '9' || strlen(node->d_name) > 40) continue;
        static const char *const counters[] = {"vmstat", "numastat"};
        for (size_t i = 0; i < sizeof counters / sizeof counters[0]; i++) {
            char path[128];
            snprintf(path, sizeof path, "/newroot/sys/devices/system/node/%s/%s", node->d_name, counters[i]);
            struct stat st;
            if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
            if (mount("/newroot/dev/null", path, NULL, MS_BIND, NULL) != 0) zygote_fail(report, "node_mask");
        }
    }
    if (nodes) closedir(nodes);
    /* Hidden: an empty tmpfs over a directory, an empty mode-0 file over a file. A hiding tmpfs stays
     * writable until later operations have their mount points in it, then becomes read-only. */
    for (int i = 0; i < spec.count; i++) {
        const struct sandbox_op *op = &spec.ops[i];
        if (op->kind == 'r' || op->kind == 'w') {
            if (bind_back(op->path, op->kind == 'w') != 0) zygote_fail(report, op->kind == 'w' ? "bind_writable" : "bind_readonly");
            continue;
        }
        if (op->kind == 'l') {
            if (make_link(op->path, op->target) != 0) zygote_fail(report, "link");
            continue;
        }
        char to[PATH_MAX];
        snprintf(to, sizeof to, "/newroot%s", op->path);
        struct stat st;
        if (lstat(to, &st) != 0) continue; /* absent on the host: the read-only root keeps it absent */
        if (S_ISDIR(st.st_mode)) {
            if (mount("tmpfs", to, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0111,size=64k") != 0) zygote_fail(report, "hide_dir");
            /* Held by descriptor: a later operation may cover its path. */
            if ((hidden_dirs[hidden_dir_count++] = open(to, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) zygote_fail(report, "hide_dir_open");
        } else if (S_ISREG(st.st_mode)) {
            if (mount("/hidden", to, NULL, MS_BIND, NULL) != 0) zygote_fail(report, "hide_file");
            if (set_mount_attr(to, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0, 0) != 0) zygote_fail(report, "hide_file_ro");
        }
    }
    for (int i = 0; i < hidden_dir_count; i++) {
        char by_fd[64];
        snprintf(by_fd, sizeof by_fd, "/proc/self/fd/%d", hidden_dirs[i]);
        if (set_mount_attr_fd(hidden_dirs[i], by_fd) != 0) zygote_fail(report, "hide_dir_ro");
        close(hidden_dirs[i]);
    }
    if (set_mount_attr("/newroot", MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0, 0) != 0) zygote_fail(report, "readonly_root");
    /* The host tree goes away entirely: pivot into the new root and detach the old one. */
    if (chdir("/newroot") != 0) zygote_fail(report, "enter_newroot");
    if (syscall(SYS_pivot_root, ".", ".") != 0) zygote_fail(report, "pivot_newroot");
    if (umount2(".", MNT_DETACH) != 0) zygote_fail(report, "detach_oldroot");
    if (chdir("/") != 0) zygote_fail(report, "chdir_newroot");
}

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
 * PID 1 of a worker's runs. It serves every run of its helper: each target gets a fresh IPC namespace
 * at clone, a fresh /tmp and /dev/shm, and after it ends
 * everything else in the PID namespace is killed and reaped, so no process and no file outlives it.
 */
struct keep {
    int fd;             /* a bound path, held open; -1 for a link */
    const char *path;
    const char *target; /* a link's */
};
static struct keep keeps[MAX_PATHS];
static int keep_count;

/* Paths shown under /tmp (a project or a test's directory there) must outlive each fresh /tmp: held
 * open once, bound back whenever /tmp is mounted anew; a link on the way to one is made again. */
static void hold_kept_paths(void) {
    for (int i = 0; i < spec.count; i++) {
        const char *path = spec.ops[i].path;
        char kind = spec.ops[i].kind;
        if ((kind != 'r' && kind != 'w' && kind != 'l') || strncmp(path, "/tmp/", 5) != 0) continue;
        int fd = kind == 'l' ? -1 : open(path, O_PATH | O_CLOEXEC);
        if (kind != 'l' && fd < 0) continue;
        keeps[keep_count].fd = fd;
        keeps[keep_count].target = kind == 'l' ? spec.ops[i].target : NULL;
        keeps[keep_count++].path = path;
    }
}

/* A run's /tmp and /dev/shm each hold at most a sixteenth of the machine's memory and 65,536 files:
 * unbounded, one run could fill half of memory twice over with files no OOM kill takes back. */
#define TMPFS_RAM_SHARE 16
#define TMPFS_FILES 65536
static char tmpfs_options[96];

static void size_tmpfs(void) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    unsigned long long kb = pages > 0 && page > 0 ? (unsigned long long)pages * (unsigned long long)page / 1024 / TMPFS_RAM_SHARE : 0;
    if (kb < 65536) kb = 65536;
    snprintf(tmpfs_options, sizeof tmpfs_options, "mode=1777,size=%lluk,nr_inodes=%d", kb, TMPFS_FILES);
}

/* A fresh tmpfs at `dir` (mode 1777), whatever the run before did with the last one: even a run that
 * left no file moved its inode counter and its times, which the next run could read. 0, or -1 with errno. */
static int fresh_tmpfs(const char *dir, int *mounted, int with_keeps) {
    if (*mounted && umount2(dir, MNT_DETACH) != 0) return -1;
    if (mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, tmpfs_options) != 0) return -1;
    *mounted = 1;
    for (int i = 0; with_keeps && i < keep_count; i++) {
        struct stat st;
        char source[64];
        if (keeps[i].target) continue; /* links once every bind is back, below */
        snprintf(source, sizeof source, "/proc/self/fd/%d", keeps[i].fd);
        if (fstat(keeps[i].fd, &st) != 0 || make_mount_point(keeps[i].path, S_ISDIR(st.st_mode)) != 0 ||
            mount(source, keeps[i].path, NULL, MS_BIND | MS_REC, NULL) != 0) return -1;
    }
    for (int i = 0; with_keeps && i < keep_count; i++) {
        if (!keeps[i].target) continue;
        struct stat st;
        char parent[PATH_MAX];
        snprintf(parent, sizeof parent, "%s", keeps[i].path);
        char *slash = strrchr(parent, '/');
        if (!slash || slash == parent) return -1;
        *slash = '\0';
        if (lstat(keeps[i].path, &st) == 0) continue; /* inside a directory bound back: the host's own link */
        if (make_mount_point(parent, 1) != 0 || symlink(keeps[i].target, keeps[i].path) != 0) return -1;
    }
    return 0;
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
    write_all(sock, line, strlen(line));
}

/*
 * A process whose parent ignores SIGCHLD is reaped by the kernel, and its CPU reaches no wait4. Without
 * a cgroup (a user without root, no delegation) PID 1 counts its whole tree's CPU with a task-clock
 * counter inherited by every process it starts: the kernel folds each child's count into ours at
 * its exit, reaped or not. Not exact: an exec that makes a process undumpable (a file it cannot read,
 * with fs.suid_dumpable=0) detaches it from the counter; the reports say so.
 */
static int task_clock_fd = -1;
static int fault_counter_fd = -1; /* page faults of PID 1 and every process below it, reaped or not */
/* What the task clock may exceed the wait4 sums by in an honest run: it runs on sched_clock, which counts the
 * time a hypervisor steals and, with IRQ time accounting, interrupts, both of which rusage leaves out (an honest
 * dd with fsync measured 4.4 ms). Faults have no such noise: a child that touches memory shows there. */
#define UNWAITED_CLOCK_NOISE_US 20000
#define UNWAITED_FAULT_NOISE 16
static int task_clock_in_sandbox; /* the helper's copy: PID 1 said it has its counter */

/*
 * The memory cgroup's fault count (its memory.stat, opened by the helper before the user namespace): every fault
 * on a memory of the tree, in user mode or taken by the kernel for it (MAP_POPULATE, MADV_POPULATE_WRITE, mlock,
 * O_DIRECT), which the perf counter above leaves out. rusage counts the same faults, so the wait4 sums explain an
 * honest run's to the fault; a process the kernel reaped cannot bring memory into its resident set without faults
 * nobody explains, however few tasks or little CPU it used (red team: 100 MB populated with 15 ms of CPU, after
 * 6,000 threads had bought the CPU check an allowance of 60 ms). Read by PID 1 right around the run, when the
 * helper and the zygote are waiting: -1 without a memory cgroup.
 */
static int memcg_stat_fd = -1;
/* The cgroup's counts are exact only when flushed: the kernel folds each CPU's pending updates (fewer than 64)
 * into a total that is flushed on reading once it passes 64 a CPU. So a reading can lag by up to 128 updates a
 * CPU, each fault one at least (honest runs here were off by -48 to +12). Past that, faults nobody explains are
 * an escape: at 4 KB a fault (transparent huge pages are off in runs) that leaves 1 MB on 2 CPUs. */
static long long memcg_fault_noise = 16;

static void size_memcg_fault_noise(void) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    memcg_fault_noise = 16 + 128LL * (cpus > 0 ? cpus : 1024);
}

static long long memcg_faults(void) {
    char text[4096];
    ssize_t n = memcg_stat_fd >= 0 ? pread(memcg_stat_fd, text, sizeof text - 1, 0) : -1;
    if (n <= 0) return -1;
    text[n] = '\0';
    for (char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        long long value;
        if (sscanf(line, "pgfault %lld", &value) == 1) return value;
    }
    return -1;
}

static void open_task_clock(void) {
#ifdef SYS_perf_event_open
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_TASK_CLOCK;
    attr.inherit = 1;
    /* What perf_event_paranoid=2 allows a user; a counting task clock still counts time in the kernel. */
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    task_clock_fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    attr.config = PERF_COUNT_SW_PAGE_FAULTS;
    fault_counter_fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
#endif
}


static long long fault_count(void) {
    unsigned long long count;
    if (fault_counter_fd < 0 || read(fault_counter_fd, &count, sizeof count) != (ssize_t)sizeof count) return -1;
    return (long long)count;
}

/* PID 1's own faults: rusage counts every one, the counter only those taken in user mode, so what is left after
 * taking these out of the counter is never more than the tree's real faults. */
static long long own_faults(void) {
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0) return -1;
    return (long long)u.ru_minflt + u.ru_majflt;
}

static long long task_clock_us(void) {
    unsigned long long ns;
    if (task_clock_fd < 0 || read(task_clock_fd, &ns, sizeof ns) != (ssize_t)sizeof ns) return -1; /* no pread on a perf event */
    return (long long)(ns / 1000);
}

/* Every run of a worker shares PID 1's namespace, whose pids count up: a run that forks N times leaves
 * N for the next to read in its own pid. PID 1 sets the counter back before each run (all earlier
 * runs' processes are gone), so every run's first process is pid 2. Opened before /proc/sys is made
 * read-only; -1 where the kernel has no such file (the channel then stays open). */
static int last_pid_fd = -1;

/* How many tasks (processes and threads) the run made: the pid counter was set back to 1 before it. */
static long long tasks_created(void) {
    char text[32];
    ssize_t n = last_pid_fd >= 0 ? pread(last_pid_fd, text, sizeof text - 1, 0) : -1;
    if (n <= 0) return -1;
    text[n] = '\0';
    long long last = atoll(text);
    return last >= 1 ? last - 1 : -1;
}

static void reset_last_pid(void) {
    if (last_pid_fd >= 0 && pwrite(last_pid_fd, "1", 1, 0) != 1) { /* a kernel that refuses: as without the file */ }
}

/*
 * Each run has a network namespace of its own, made ahead by the worker's network maker: a namespace
 * shared by runs keeps counters any run can move and the next can read (loopback's byte counts in
 * /proc/net/dev, /proc/net/snmp, sockstat), an answer cache no sysctl empties. Making one costs 0.5-1.0
 * ms here, about what the rest of the sandbox adds to a launch; the maker makes the next while the
 * current run runs, outside the measured cgroups (its memory and CPU are none of the run's), and
 * PID 1 only enters it. The maker is a child of the zygote outside the runs' PID namespace: no run
 * sees it. The kernel frees a used namespace in the background.
 */
#ifndef SIOCGSKNS
#define SIOCGSKNS 0x894C
#endif
static int net_maker_sock = -1; /* PID 1's end: one namespace per message, "t" back for the next */
/* PID 1 joins the maker's namespace through a pidfd of it (Linux 5.8): a namespace passed as a descriptor
 * counts against the in-flight descriptors of our uid, the target's, and a run holding 20,000 in flight
 * (one socketpair) made every worker's handover on the host fail. Older kernels: passed as a descriptor. */
static int maker_pidfd = -1;

/* "net", with the namespace as a descriptor when `attach`, or "fail <errno>" when netns < 0. */
static void send_netns(int sock, int netns, int err, int attach) {
    char text[32];
    int len = snprintf(text, sizeof text, netns >= 0 ? "net" : "fail %d", err);
    if (send_with_fds(sock, text, (size_t)len, &netns, netns >= 0 && attach, MSG_NOSIGNAL) < 0) _exit(0); /* PID 1 is gone */
}

/* A new network namespace with loopback up, as a descriptor; -1 with errno. The maker itself moves
 * into it: its old one (none of the runs') goes. */
static int make_netns(void) {
    if (unshare(CLONE_NEWNET) != 0) return -1;
    int sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (sock < 0) return -1;
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, IFNAMSIZ, "lo");
    int netns = -1;
    if (ioctl(sock, SIOCGIFFLAGS, &ifr) == 0) {
        ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
        if (ioctl(sock, SIOCSIFFLAGS, &ifr) == 0) netns = ioctl(sock, SIOCGSKNS, 0);
    }
    int err = errno;
    close(sock);
    errno = err;
    return netns;
}

static void net_maker_main(int sock, pid_t zygote, const int leave[2]) {
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != zygote) _exit(0);
    /* Dumpable, so that PID 1 (our uid, no capability outside) may join our namespace through a pidfd;
     * no run can name us: we are outside its PID namespace. */
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    for (int i = 0; i < 2; i++) {
        if (leave[i] >= 0 && write(leave[i], "0", 1) != 1) {
            char text[32];
            int len = snprintf(text, sizeof text, "fail %d", errno);
            if (write(sock, text, (size_t)len) < 0) { }
            _exit(2);
        }
        if (leave[i] >= 0) close(leave[i]);
    }
    if (write(sock, "up", 2) != 2) _exit(0);
    char mode;
    if (read(sock, &mode, 1) != 1) _exit(0);
    for (;;) {
        int netns = make_netns();
        send_netns(sock, netns, errno, mode != 'p');
        if (netns >= 0) close(netns);
        char took;
        ssize_t n;
        do {
            n = read(sock, &took, 1);
        } while (n < 0 && errno == EINTR);
        if (n != 1) _exit(0);
    }
}

/* PID 1 enters the next run's network namespace. 0; -1 with errno (the maker could not make one: it is
 * asked again for the next run); PID 1 ends if the maker is gone. */
static int enter_fresh_netns(void) {
    char text[32];
    char control[CMSG_SPACE(sizeof(int))];
    struct iovec iov = {text, sizeof text - 1};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n;
    do {
        n = recvmsg(net_maker_sock, &msg, MSG_CMSG_CLOEXEC);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) _exit(2); /* the helper sees the zygote go, and the JVM starts a fresh one */
    text[n] = '\0';
    int netns = -1;
    struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
    if (cmsg && cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS) memcpy(&netns, CMSG_DATA(cmsg), sizeof(int));
    int result = 0, err = 0;
    if (maker_pidfd >= 0 && strcmp(text, "net") == 0) {
        if (setns(maker_pidfd, CLONE_NEWNET) != 0) {
            err = errno;
            result = -1;
        }
    } else if (netns < 0) {
        err = strncmp(text, "fail ", 5) == 0 ? atoi(text + 5) : EPROTO;
        result = -1;
    } else if (setns(netns, CLONE_NEWNET) != 0) {
        err = errno;
        result = -1;
    }
    if (netns >= 0) close(netns);
    if (write(net_maker_sock, "t", 1) != 1) _exit(2);
    errno = err;
    return result;
}

/*
 * Unix sockets a run left in a garbage cycle (a socketpair whose ends were sent over each other with
 * SCM_RIGHTS) outlive all its processes, with whatever else was in flight in them: a red-team run
 * parked 96 MB of memfds there, charged to the cgroup, then the next run made the kernel collect them
 * during its own window and hid that much of its peak; each such run also kept its network namespace
 * alive (1,023 of them and no run of the worker could start again). Since Linux 6.10 the collector runs
 * only once over 16,000 descriptors are in flight, not when the last process goes. So after a run
 * whose network namespace still counts sockets, PID 1 puts that many in flight itself (its own
 * socketpair, no cycle of its own) and waits for the collector, then for the sockets to go, then for
 * the kernel's deferred closing of what they held: before the answer and the next run's baseline.
 * A run that closed its sockets costs one read of /proc/self/net/sockstat.
 */
static long sockets_left(void) {
    char text[512];
    ssize_t n = read_text("/proc/self/net/sockstat", text, sizeof text);
    if (n <= 0) return -1;
    const char *used = strstr(text, "sockets: used ");
    return used ? atol(used + strlen("sockets: used ")) : -1;
}

#define UNIX_GC_TRIGGER 16000 /* UNIX_INFLIGHT_TRIGGER_GC */
#define DEFERRED_CLOSE_WAIT_MS 25 /* the kernel closes files freed by a kernel thread a jiffy later: 10 ms at HZ=100 */

/* 1 where sockets of the run are left after the wait: a chain of sockets in flight inside each other is freed by a
 * kernel thread one link a jiffy (9 ms here), so 200 links outlast the wait, and what they hold is freed only once the
 * next run's baseline took it in (red team 20: that run's 300 MB read as a tree peak of 0). Such a run is one whose
 * processes escaped: its per-process figures are not trusted, and a ceiling on them is an error. */
static int collect_unix_garbage(void) {
    if (sockets_left() <= 0) return 0;
    struct rlimit files, raised;
    int have_limit = getrlimit(RLIMIT_NOFILE, &files) == 0;
    raised = files;
    /* In-flight descriptors count against the sender's RLIMIT_NOFILE: raised to the hard limit meanwhile. */
    if (have_limit && raised.rlim_cur < raised.rlim_max) {
        raised.rlim_cur = raised.rlim_max;
        setrlimit(RLIMIT_NOFILE, &raised);
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
    if (have_limit) setrlimit(RLIMIT_NOFILE, &files);
    struct timespec tick = {0, 1000000};
    for (int waited = 0; waited < 1000 && sockets_left() > 0; waited++) nanosleep(&tick, NULL);
    struct timespec deferred = {0, DEFERRED_CLOSE_WAIT_MS * 1000000L};
    nanosleep(&deferred, NULL);
    return sockets_left() > 0;
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
                socket_sampling = 1;
                wait_target(pid, s.pidfd, &r, 1, started, 0, &out);
                if (!socket_sampling) out.socket_peak = -1;
                socket_sampling = 0;
                if (socket_diag >= 0) {
                    close(socket_diag);
                    socket_diag = -1;
                }
                if (socket_stat >= 0) {
                    close(socket_stat);
                    socket_stat = -1;
                }
                if (socket_stat6 >= 0) {
                    close(socket_stat6);
                    socket_stat6 = -1;
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
                if (memcg_hidden > memcg_fault_noise) unwaited = 1; /* the CPU it took is the cgroup's to tell */
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
    for (int i = 0; i < main_argc; i++) memset(main_argv[i], 0, strlen(main_argv[i]));
    snprintf(main_argv[0], 5, "%s", "init");
}

/* Files of /proc that only root may read, and the key lists: the target's uid is host root's when Maven is
 * root, and they show host-wide state a run can set and the next run read back exactly (kpageflags and
 * kpagecgroup: which pages each memory cgroup has cached, a worker's among them), or the kernel's timers,
 * slabs and keys. Covered with /dev/null, as Docker does for some of them. */
static void mask_proc_files(int report) {
    enum { MAX_MASKED = 64 };
    static char masked[MAX_MASKED][64];
    int count = 0;
    DIR *proc = opendir("/proc");
    if (!proc) zygote_fail(report, "proc_mask");
    struct dirent *entry;
    while ((entry = readdir(proc)) != NULL && count < MAX_MASKED) {
        const char *name = entry->d_name;
        if ((name[0] >= '0' && name[0] <= '9') || strlen(name) > 40) continue;
        char path[64];
        snprintf(path, sizeof path, "/proc/%s", name);
        struct stat st;
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        /* And the memory counters that are host-wide, exact, and quiet on many hosts: /proc/vmstat's
         * thp_fault_alloc carried a byte from one worker's run to another's. */
        static const char *const listed[] = {"keys", "key-users", "vmstat", "zoneinfo", "buddyinfo", "pagetypeinfo"};
        int is_listed = 0;
        for (size_t i = 0; i < sizeof listed / sizeof listed[0]; i++) is_listed |= strcmp(name, listed[i]) == 0;
        if ((st.st_mode & S_IROTH) && !is_listed) continue;
        snprintf(masked[count++], sizeof masked[0], "%s", path);
    }
    closedir(proc);
    for (int i = 0; i < count; i++) {
        if (mount("/dev/null", masked[i], NULL, MS_BIND, NULL) != 0) zygote_fail(report, "proc_mask");
    }
}

static void init_main(int sock, int report, int net_maker) {
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != 0) _exit(2); /* PID 1 sees no parent: anything else means the zygote is gone */
    forget_command_line();
    net_maker_sock = net_maker;
    hold_kept_paths();
    /* hidepid=2: a run sees only processes it may trace, so not us. Our /proc files belong to the uid the
     * target runs as when Maven is root (a process that is not dumpable has root's, and root is the
     * target's uid outside): coredump_filter took 9 bits a run for the next, and /proc/1/stat's counts of
     * what we reaped (cminflt) carried a byte from one run to the next. The group exempt from hiding is
     * root's unless named, and root's group is the target's when Maven is root: a group no one here has. */
    char proc_options[64];
    snprintf(proc_options, sizeof proc_options, "hidepid=2,gid=%u", getegid() == 0 ? 1u : 0u);
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, proc_options) != 0) zygote_fail(report, "proc");
    last_pid_fd = open("/proc/sys/kernel/ns_last_pid", O_RDWR | O_CLOEXEC);
    /* The runs see a second instance over this one, read-only: writing /proc/self/clear_refs resets a
     * process's peak RSS, the very figure wait4 reports (a red-team run touched 256 MB, reset it and
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
    int ok_len = snprintf(ok, sizeof ok, "ok %d", task_clock_fd >= 0);
    if (write(report, ok, (size_t)ok_len) != ok_len) _exit(2);
    close(report);
    serve_runs(sock);
}
static int zygote_main(int sock, int report, int go, pid_t helper) {
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != helper) _exit(0); /* the helper is gone already */
    /* A session of our own, so a scheduler autogroup of our own: a run that lowers its autogroup's
     * priority (/proc/self/autogroup) must not lower the JVM's and Maven's with it. */
    if (setsid() < 0) zygote_fail(report, "setsid");
    /* The helper's SIGCHLD self-pipe is its own: this process and its PID 1s wake on a new one. */
    close(sigchld_pipe[0]);
    close(sigchld_pipe[1]);
    if (pipe2(sigchld_pipe, O_CLOEXEC | O_NONBLOCK) != 0) zygote_fail(report, "pipe");
    if (spec.deny_userns) {
        errno = EPERM;
        zygote_fail(report, "userns");
    }
    /* The network maker leaves the measured cgroups; opened here, as the helper's user, before the
     * user namespace (a cgroup file checks who opened it). */
    int leave[2] = {cgroup_version ? open(cgroup_parent_procs, O_WRONLY | O_CLOEXEC) : -1,
                    cpu_cgroup == 1 ? open(cpu_parent_procs, O_WRONLY | O_CLOEXEC) : -1};
    if ((cgroup_version && leave[0] < 0) || (cpu_cgroup == 1 && leave[1] < 0)) zygote_fail(report, "net_maker_cgroup");
    /* The helper is not dumpable, and neither would we be: then our /proc files belong to root and the
     * helper (not root) could not write our maps. Dumpable again until they are written and the root
     * is built; no candidate runs yet. */
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
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
         * tmpfs mounts that PID 1 cannot see to clear, and whose memory the kernel frees only after the next
         * run has taken its baseline (a 300 MB segment hid that much of the next run's peak). */
        if (write_text(path, i == 0 ? "0" : "1024") != 0) { /* older kernels: the host quota alone */ }
    }
    build_root(report);
    /* Nothing of ours may be traced or read through /proc by what runs below. */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    /* The network maker: forked before the PID namespace, so that no run sees it; up once it has left
     * the measured cgroups. */
    int nets[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, nets) != 0) zygote_fail(report, "net_maker");
    pid_t zygote = getpid();
    pid_t maker = fork();
    if (maker < 0) zygote_fail(report, "net_maker");
    if (maker == 0) {
        close(nets[0]);
        close(sock);
        close(report);
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
        errno = got > 5 && strncmp(up, "fail ", 5) == 0 ? atoi(up + 5) : EPROTO;
        zygote_fail(report, "net_maker_cgroup");
    }
    /* Joining its network namespace through a pidfd works from 5.8 on: tried once here (its namespace now
     * is ours from the user namespace's making, none a run has had). */
    maker_pidfd = (int)syscall(434 /* pidfd_open */, maker, 0);
    if (maker_pidfd >= 0 && setns(maker_pidfd, CLONE_NEWNET) != 0) {
        close(maker_pidfd);
        maker_pidfd = -1;
    }
    if (maker_pidfd >= 0 && fcntl(maker_pidfd, F_SETFD, FD_CLOEXEC) != 0) zygote_fail(report, "net_maker");
    if (write(nets[0], maker_pidfd >= 0 ? "p" : "f", 1) != 1) zygote_fail(report, "net_maker");
    if (unshare(CLONE_NEWUTS | CLONE_NEWPID) != 0) zygote_fail(report, "pid_namespace");
    if (sethostname("patchgrade", 10) != 0) zygote_fail(report, "hostname");
    /* Our first child is PID 1 of the new namespace; it reports "ok" itself once /proc is up. We stay
     * as its parent outside, and go when it goes (the helper then sees the socket close). */
    pid_t init = fork();
    if (init < 0) zygote_fail(report, "fork_init");
    if (init == 0) {
        init_main(sock, report, nets[0]);
        _exit(0);
    }
    close(report);
    close(sock);
    close(nets[0]);
    int status;
    while (waitpid(init, &status, 0) < 0 && errno == EINTR) { }
    _exit(0);
}
#endif /* __linux__ */

/* Starts the zygote; returns NULL when the sandbox is up, else why not ("stage:errno"). */
static const char *start_zygote(char *why, size_t why_len) {
#if defined(__linux__) && !defined(PG_NATIVE_ARCH)
    /* No seccomp filter for this architecture: its runs would reach the host's unix sockets. */
    snprintf(why, why_len, "unsupported_arch:0");
    return why;
#elif defined(__linux__)
    int sv[2], report[2], go[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0 || pipe2(report, O_CLOEXEC) != 0 || pipe2(go, O_CLOEXEC) != 0) {
        snprintf(why, why_len, "socketpair:%d", errno);
        return why;
    }
    pid_t helper = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, why_len, "fork:%d", errno);
        return why;
    }
    if (pid == 0) {
        close(sv[0]);
        close(report[0]);
        close(go[1]);
        if (pid_file >= 0) close(pid_file);
        pid_file = -1;
        if (pid_page) munmap(pid_page, PID_LINE);
        pid_page = NULL;
        zygote_main(sv[1], report[1], go[0], helper);
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
        } else {
            if (write(go[1], "g", 1) != 1) { }
            do {
                n = read(report[0], answer, sizeof answer - 1);
            } while (n < 0 && errno == EINTR);
        }
    }
    close(go[1]);
    close(report[0]);
    if (n >= 2 && memcmp(answer, "ok", 2) == 0) {
        answer[n] = '\0';
        sscanf(answer, "ok %d", &task_clock_in_sandbox);
        zygote_sock = sv[0];
        zygote_pid = pid;
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

/* ---------------------------------------------------------------------------------------------
 * Serving requests.
 */
/* One answer line to the JVM, tagged with the request's token. */
static void answer(const struct request *r, const char *format, ...) {
    send_held_answer();
    va_list args;
    va_start(args, format);
    vfprintf(stdout, format, args);
    va_end(args);
    fprintf(stdout, " run=%s\n", r->token);
    fflush(stdout);
}

/* The answer to a run that ended: held back (see held_answer) when the next request is here already. */
static void answer_ended(const struct request *r, const char *line) {
    send_held_answer();
    int length = snprintf(held_answer, sizeof held_answer, "%s run=%s\n", line, r->token);
    if (length < 0 || (size_t)length >= sizeof held_answer) {
        answer(r, "%s", line);
        return;
    }
    held_length = (size_t)length;
    take_queued_input();
    /* Held only while the whole next request is here: the helper then starts it without waiting on the JVM. */
    size_t have = ahead_end - ahead_start;
    unsigned long long next = have >= HEADER_LENGTH ? body_length(ahead + ahead_start) : 0;
    if (next == 0 || have < HEADER_LENGTH + next) send_held_answer();
}

static void reply_nostart(const struct request *r, const char *failure) {
    char stage[32] = "exec";
    int err = 0;
    sscanf(failure, "%31s %d", stage, &err);
    answer(r, "nostart stage=%s errno=%d", stage, err);
}

/* A new inode every run: a slot's file is given to each of its runs, and whatever a run set on it
 * (an xattr, its times, its mode) must not reach the next. */
static int open_output(const char *path) {
    if (unlink(path) != 0 && errno != ENOENT) return -1;
    return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
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
    long long base = cgroup_reset();
    long long user0 = 0, system0 = 0;
    int had_cpu = cgroup_cpu_start(&user0, &system0);
    int sent = send_with_fds(zygote_sock, header, HEADER_LENGTH, fds, 3, MSG_NOSIGNAL) == HEADER_LENGTH && write_all(zygote_sock, r->body, r->len);
    send_held_answer(); /* the run is on its way */
    for (int i = 0; i < 3; i++) close(fds[i]);
    if (!sent) return 0;
    char line[600];
    size_t have = 0;
    for (;;) {
        struct pollfd pfd[2] = {{zygote_sock, POLLIN, 0}, {0, LIFELINE_EVENTS, 0}};
        int ready = poll(pfd, 2, 1000);
        if (ready < 0 && errno != EINTR) return 0;
        if (ready <= 0) continue;
        if ((pfd[1].revents & (POLLIN | POLLHUP | POLLERR)) && lifeline_lost(pfd[1].revents)) return 0;
        if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t n = read(zygote_sock, line + have, sizeof line - 1 - have);
            if (n <= 0) return 0; /* the zygote died: the helper ends, the JVM starts a fresh one */
            have += (size_t)n;
            if (memchr(line, '\n', have) || have >= sizeof line - 1) break;
        }
    }
    line[have] = '\0';
    line[strcspn(line, "\n")] = '\0';
    if (strncmp(line, "done ", 5) == 0) apply_cgroup_cpu(line, sizeof line, had_cpu, user0, system0);
    if (strncmp(line, "done ", 5) == 0) {
        long long socket_kb = line_field(line, "socket_kb");
        remove_line_field(line, "socket_kb"); /* PID 1's figure for this helper, not the JVM's */
        char whole[sizeof line + 32];
        snprintf(whole, sizeof whole, "%s tree_rss_kb=%lld", line, cgroup_peak_kb(base, socket_kb));
        answer_ended(r, whole);
    } else {
        answer(r, "%s", line);
    }
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
    long long base = cgroup_reset();
    long long user0 = 0, system0 = 0;
    int had_cpu = cgroup_cpu_start(&user0, &system0);
    long long started = now_us();
    pid_t pid = spawn_target(&s, failure, sizeof failure);
    send_held_answer(); /* the target is running (or could not start) */
    close(s.fds[1]);
    close(s.fds[2]);
    if (pid < 0) {
        reply_nostart(r, failure);
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
    struct rusage *u = &out.tree.usage;
    long long maxrss_kb = u->ru_maxrss;
#ifdef __APPLE__
    maxrss_kb = u->ru_maxrss / 1024; /* macOS reports bytes */
#endif
    int signaled = WIFSIGNALED(out.status);
    int sig = signaled ? WTERMSIG(out.status) : 0;
    char line[600];
    snprintf(line, sizeof line,
            "done status=%s code=%d signal=%d signame=%s timed_out=%d maxrss_kb=%lld utime_us=%lld "
            "stime_us=%lld minflt=%ld majflt=%ld inblock=%ld oublock=%ld wall_us=%lld leftovers=%d cpu_wait_us=%lld leader_cpu_us=%lld "
            "unwaited_cpu_us=-1 init_cpu_us=0 tasks=-1 tree_rss_kb=%lld",
            signaled ? "signaled" : "exited", signaled ? 0 : WEXITSTATUS(out.status), sig,
            signaled ? signal_name(sig) : "-", out.timed_out, maxrss_kb,
            (long long)u->ru_utime.tv_sec * 1000000LL + u->ru_utime.tv_usec,
            (long long)u->ru_stime.tv_sec * 1000000LL + u->ru_stime.tv_usec,
            (long)u->ru_minflt, (long)u->ru_majflt, (long)u->ru_inblock, (long)u->ru_oublock,
            out.wall_us, out.tree.leftovers, out.cpu_wait_us, out.leader_cpu_us, cgroup_peak_kb(base, -1));
    /* Processes reaped by the kernel itself (their parent ignored SIGCHLD) reach no wait4. */
    apply_cgroup_cpu(line, sizeof line, had_cpu, user0, system0);
    answer_ended(r, line);
    return 1;
}

static void cleanup_and_exit(int code) {
    send_held_answer();
    if (zygote_pid > 0) {
        kill(zygote_pid, SIGKILL);
        waitpid(zygote_pid, NULL, 0);
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
    main_argc = argc;
    main_argv = argv;
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        puts("pg-launch-helper 2");
        return 0;
    }
    /* Whatever dispositions the JVM passed on (ignored signals survive exec) must not reach targets. */
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        signal(sig, SIG_DFL);
    }
    signal(SIGPIPE, SIG_IGN);
    if (argc < 2) {
        fprintf(stderr, "usage: pg-launch-helper <pid-file> [--no-pidfd] [--sandbox] [--ro P] [--rw P] [--link P T] [--hide P] [--cgroup]\n");
        return 2;
    }
    pid_file = open(argv[1], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (pid_file >= 0 && ftruncate(pid_file, PID_LINE) == 0) {
        pid_page = mmap(NULL, PID_LINE, PROT_READ | PROT_WRITE, MAP_SHARED, pid_file, 0);
        if (pid_page == MAP_FAILED) pid_page = NULL;
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
    int oom = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    if (oom >= 0) {
        if (write(oom, "1000", 4) < 0) { }
        close(oom);
    }
#endif
    if (pipe2(sigchld_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return 2;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigchld;
    action.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    if (sigaction(SIGCHLD, &action, NULL) != 0) return 2;
    int probe = want_pidfd ? open_pidfd(getpid()) : -1;
    if (probe >= 0) {
        close(probe);
        use_pidfd = 1;
        sigset_t chld;
        sigemptyset(&chld);
        sigaddset(&chld, SIGCHLD);
        if (sigprocmask(SIG_BLOCK, &chld, NULL) != 0) return 2;
    }
#ifdef __linux__
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) return 2;
    /* Its own children run as the same user: they must not trace it or read its memory. No
     * PR_SET_PDEATHSIG here: it fires when the JVM *thread* that started us ends, not the JVM. The
     * lifeline is stdin reaching EOF. */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
    if (want_cgroup) {
        setup_cgroup();
        setup_cpu_cgroup();
    }
    /* "cgroup=" names the memory cgroup (tree RSS), "cpu_cgroup=" the CPU one: without it, CPU of a
     * process the kernel reaped itself (its parent ignored SIGCHLD) reaches no figure. */
    char cgroup_name[32];
    snprintf(cgroup_name, sizeof cgroup_name, "%s cpu_cgroup=%s", cgroup_version == 1 ? "v1" : cgroup_version == 2 ? "v2" : "none",
             cpu_cgroup == 1 ? "v1" : cpu_cgroup == 2 ? "v2" : "none");
    char why[128];
    if (want_sandbox) {
        if (cgroup_version) {
            size_memcg_fault_noise();
            char stat_path[PATH_MAX + 16];
            snprintf(stat_path, sizeof stat_path, "%s/memory.stat", cgroup_dir);
            memcg_stat_fd = open(stat_path, O_RDONLY | O_CLOEXEC);
            memcg_faults_told = memcg_faults() >= 0;
        }
        reserve_descriptors_in_flight();
        const char *failed = start_zygote(why, sizeof why);
        if (failed) {
            if (run_files_hard > 0) setrlimit(RLIMIT_NOFILE, &inherited_files); /* unsandboxed runs get what the helper got */
            fprintf(stdout, "ready sandbox=off reason=%s cgroup=%s\n", failed, cgroup_name);
        } else {
            fprintf(stdout, "ready sandbox=namespaces reason=- cgroup=%s task_clock=%d\n", cgroup_name, task_clock_in_sandbox);
        }
    } else {
        fprintf(stdout, "ready sandbox=off reason=disabled cgroup=%s\n", cgroup_name);
    }
    fflush(stdout);
    for (;;) {
        struct request r;
        if (!read_request(&r)) cleanup_and_exit(0);
        int ok = zygote_sock >= 0 ? serve_sandboxed(&r) : serve_direct(&r);
        free_request(&r);
        if (!ok) cleanup_and_exit(3);
    }
}
