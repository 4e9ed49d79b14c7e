/*
 * patchgrade launch helper: what its files share. The wire format and the helper's overall shape are
 * described at the top of pg-main.c; each file starts with what it is for.
 *
 *   pg-main.c       main, and serving one request with or without the sandbox
 *   pg-protocol.c   requests from the JVM (and what it queues during a run), answers to it
 *   pg-spawn.c      starting the target, waiting for it with a deadline, reaping its tree
 *   pg-cgroup.c     the memory and CPU cgroups: the tree's peak and CPU, reaped or not
 *   pg-account.c    a run's record turned into its answer: every escape rule, in one place
 *   pg-perfclock.c  the zygote's task-clock and fault counters, the memory cgroup's faults, the pid counter
 *   pg-sockdiag.c   sampling what the run's TCP sockets hold (sock_diag)
 *   pg-unixgc.c     making the kernel collect the unix sockets a run left in a garbage cycle
 *   pg-netns.c      the network maker: a fresh network namespace for every run
 *   pg-mount.c      the candidate's view of the file system, and each run's fresh /tmp and /dev/shm
 *   pg-zygote.c     the zygote: user, mount and PID namespaces, and PID 1 forked into them
 *   pg-serve.c      the zygote serving each run from outside the PID namespace: the target is its child
 *   pg-init.c       PID 1 of a worker's runs: a reaper loop, and what only a process inside can do
 *   pg-seccomp.c    the target's seccomp filter
 *   pg-util.c       small I/O helpers and the one place that reports a failed step and exits
 */
#ifndef PG_HELPER_H
#define PG_HELPER_H

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
#include <sys/signalfd.h>
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

/* The architectures the seccomp filter (pg-seccomp.c) is written for: elsewhere the sandbox stays off, as
 * its runs would reach the host's unix sockets. */
#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#define PG_SECCOMP_ARCH 1
#endif

/* ---- the helper process (pg-main.c) ---- */
#define PID_LINE 12
struct helper_state {
    int pid_file;
    char *pid_page; /* the pid file's page, shared with the file: the running target's pid is a store, not a write a run */
    int argc;
    char **argv;
    /* With pidfds (Linux 5.3+) the helper waits for its child and the lifeline in one poll; elsewhere a
     * SIGCHLD handler writes to a self-pipe that poll watches. */
    int use_pidfd;
    int sigchld_pipe[2];
    int zygote_sock; /* the helper's end of the zygote's socket, -1 without the sandbox */
    pid_t zygote_pid;
};
extern struct helper_state helper;

/* ---- requests and answers (pg-protocol.c) ---- */
/* What a poll on fd 0 asks for during a run: nothing, so that only the JVM's end of the pipe closing
 * (POLLHUP, reported whatever was asked) wakes the helper. Asking for POLLIN woke it for each request the
 * JVM queued while a target ran: a context switch a run, a fifth of the helper's own CPU on a 2-core VM.
 * What the JVM queued is taken when the run ends (take_queued_input). */
#define LIFELINE_EVENTS 0
#define HEADER_LENGTH 18

struct request {
    char *body;
    size_t len;
    char *token;
    long long timeout_ms, grace_ms, cap;
    char *exe, *cwd, *in_path, *out_path, *err_path;
    char **argv, **envp;
};

void send_held_answer(void);
int lifeline_lost(short revents);
unsigned long long body_length(const char *header);
int parse_request(struct request *r);
void free_request(struct request *r);
int read_request(struct request *r);
void answer(const struct request *r, const char *format, ...) __attribute__((format(printf, 2, 3)));
void answer_ended(const struct request *r, const char *line);

/* ---- the target and its tree (pg-spawn.c) ---- */
/* Everything below a reaper (the helper, or a run's target and what PID 1 reaped of it), summed over wait4 results. */
struct tree {
    struct rusage usage; /* summed CPU, faults and I/O; ru_maxrss is the largest single process */
    int leftovers;
    int childless; /* the last reap_ended found no child at all (ECHILD) */
};

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

struct outcome {
    int status;
    int timed_out;
    long long wall_us;
    long long cpu_wait_us; /* the target's time runnable but waiting for a CPU (its run-queue delay) */
    long long leader_cpu_us; /* the target's own thread's time on a CPU, from the same schedstat line */
    long long socket_peak; /* bytes: the most the run's TCP sockets held at one sample, -1 where not sampled */
    struct tree tree;
};

/* The zygote's counters at one moment (pg-perfclock.c), each -1 where it has not that counter. */
struct run_counters {
    long long task_clock;   /* the zygote's task clock: every target's tree's CPU, reaped or not */
    long long own_cpu;      /* the zygote's own CPU, which that clock counts too */
    long long faults;       /* the perf fault counter of the zygote and the targets' trees */
    long long memcg_faults; /* the memory cgroup's pgfault, less PID 1's own faults */
    long long own_faults;   /* the zygote's own faults, which both fault counts include */
};

/*
 * What a run measured, as the zygote sends it to the helper (one message of exactly this size) and as the helper
 * fills it itself without the sandbox: readings only, no decision. The helper weighs them (pg-account.c).
 * A counter the zygote has not is -1 before and after.
 */
struct run_report {
    int started;        /* 0: the target did not start; stage and err say where and why */
    char stage[32];
    int err;
    int status, timed_out, leftovers;
    long long maxrss_kb, utime_us, stime_us, minflt, majflt, inblock, oublock;
    long long wall_us, cpu_wait_us, leader_cpu_us;
    struct run_counters before, after;  /* read by the zygote right around the run */
    long long init_cpu_us;              /* the zygote's and PID 1's own CPU in the run (see serve_runs), 0 without it */
    int garbage_left;                   /* unix sockets of the run outlived the collection (collect_unix_garbage) */
    long long tasks;                    /* tasks the run made, -1 where not counted */
    long long socket_peak;              /* bytes, -1 where not sampled */
};

void report_outcome(struct run_report *rep, const struct outcome *out);
void report_nostart(struct run_report *rep, const char *failure);
struct cpu_window {
    int had;
    long long user0, system0;
    long long memory_base;
};
void answer_run(const struct request *r, const struct run_report *rep, const struct cpu_window *w);

/* RLIMIT_NOFILE of runs, a reserve below the launcher's own (see reserve_descriptors_in_flight). */
struct descriptor_reserve {
    rlim_t run_soft, run_hard; /* 0: runs keep the limits they inherit */
    struct rlimit inherited;
};
extern struct descriptor_reserve nofile;

void add_usage(struct tree *tree, const struct rusage *u);
int reap_children(struct tree *tree, int count_killed, int options);
int reap_ended(struct tree *tree, int count_killed);
void finish_tree(struct tree *tree, pid_t group, int pid_namespace);
void reserve_descriptors_in_flight(void);
void set_pid_file(pid_t pid);
pid_t spawn_target(struct spawn *s, char *failure, size_t failure_len);
int wait_target(pid_t pid, int pidfd, const struct request *r, int pid_namespace, long long started, int watch_lifeline, struct outcome *out);

/* ---- the target's seccomp filter (pg-seccomp.c) ---- */
int confine_syscalls(void);

/* ---- cgroups (pg-cgroup.c) ---- */
/* Memory cgroup (v1 where writable, v2 where delegated): the peak of the whole tree's summed memory. */
struct memory_cgroup {
    char dir[PATH_MAX];
    int version; /* 0: none */
    char parent_procs[PATH_MAX];
    int peak_fd;
    int tcp_accounted;   /* v1: TCP socket buffers charged to the worker cgroup (memory.kmem.tcp) */
    long long tcp_base;  /* v1: the TCP peak reset before a run, -1 when it could not be */
    long long last_base; /* what it held at the last run's start (see cgroup_settle) */
    int faults_told;     /* the zygote reads the memory cgroup's faults around each run */
};
/*
 * CPU of the whole tree from the cgroup too: a process whose parent ignores SIGCHLD is reaped by the
 * kernel itself, and its rusage reaches no wait4. v2: cpu.stat of the memory cgroup; v1: a cpuacct
 * cgroup of our own beside it.
 */
struct cpu_cgroup {
    char dir[PATH_MAX];
    char parent_procs[PATH_MAX];
    int version; /* 0: none, 1: v1 cpuacct, 2: v2 cpu.stat */
    /* The cgroup's figures read after the last run: the next run starts from them. Between runs only the
     * helper itself runs in the cgroup, for microseconds, well inside the margin a run is allowed. */
    int mark_valid;
    long long mark_own, window_own; /* our own CPU at the mark, and where this run's window began */
    long long mark_user, mark_system;
};
extern struct memory_cgroup memcg;
extern struct cpu_cgroup cpucg;

void setup_cgroup(void);
void setup_cpu_cgroup(void);
int cgroup_cpu_start(long long *user, long long *system);
int cgroup_cpu_end(long long *user, long long *system, long long *helper_cpu);
void leave_cgroup(void);
long long cgroup_reset(void);
long long cgroup_peak_kb(long long base, long long socket_kb);

/* ---- the zygote's counters and PID 1's pid counter (pg-perfclock.c) ---- */
struct counters {
    int task_clock_fd;
    int fault_fd; /* page faults of the zygote and every target's tree, reaped or not */
    int task_clock_in_sandbox; /* the helper's copy: the zygote said it has its counter */
    /*
     * The memory cgroup's fault count (its memory.stat, opened by the helper before the user namespace): every
     * fault on a memory of the tree, in user mode or taken by the kernel for it (MAP_POPULATE,
     * MADV_POPULATE_WRITE, mlock, O_DIRECT), which the perf counter leaves out. rusage counts the same faults, so
     * the wait4 sums explain an honest run's to the fault; a process the kernel reaped cannot bring memory into
     * its resident set without faults nobody explains, however few tasks or little CPU it used (100 MB populated
     * with 15 ms of CPU, after 6,000 threads had bought the CPU check an allowance of 60 ms). Read by the zygote
     * right around the run, when the helper and PID 1 are waiting: -1 without a memory cgroup.
     */
    int memcg_stat_fd;
    /* The cgroup's counts are exact only when flushed: the kernel folds each CPU's pending updates (fewer than
     * 64) into a total that is flushed on reading once it passes 64 a CPU. So a reading can lag by up to 128
     * updates a CPU, each fault one at least (honest runs here were off by -48 to +12). Past that, faults nobody
     * explains are an escape: at 4 KB a fault (transparent huge pages are off in runs) that leaves 1 MB on 2 CPUs. */
    long long memcg_fault_noise;
    /* Every run of a worker shares PID 1's namespace, whose pids count up: a run that forks N times leaves
     * N for the next to read in its own pid. PID 1 sets the counter back at the end of each run (all its
     * processes are gone), so every run's first process is pid 2. Opened before /proc/sys is made
     * read-only; -1 where the kernel has no such file (the channel then stays open). */
    int last_pid_fd;
};
extern struct counters counters;
/* What the task clock may exceed the wait4 sums by in an honest run: it runs on sched_clock, which counts the
 * time a hypervisor steals and, with IRQ time accounting, interrupts, both of which rusage leaves out (an honest
 * dd with fsync measured 4.4 ms). Faults have no such noise: a child that touches memory shows there. */
#define UNWAITED_CLOCK_NOISE_US 20000
#define UNWAITED_FAULT_NOISE 16

void size_memcg_fault_noise(void);
long long memcg_faults(void);
void open_task_clock(void);
long long fault_count(void);
long long own_faults(void);
long long task_clock_us(void);
long long tasks_created(void);
void reset_last_pid(void);
void read_run_counters(struct run_counters *c);

/* ---- sockets of the run (pg-sockdiag.c) ---- */
#define SOCKET_SAMPLE_MS 50
struct socket_sampler {
    int diag;     /* the zygote's sock_diag socket in the current run's namespace, made at its first look */
    int stat;     /* the namespace's net/sockstat, opened at the first look */
    int stat6;    /* and its sockstat6 */
    int sampling; /* the zygote looks at the run's sockets (it is in the run's namespace) */
};
extern struct socket_sampler sockets;
void sample_sockets(struct outcome *out);

/* ---- unix garbage (pg-unixgc.c) ---- */
int collect_unix_garbage(void);

/* ---- the network maker (pg-netns.c) ---- */
struct net_maker_link {
    int sock; /* the zygote's end: one namespace per message, "t" back for the next */
    /* The zygote joins the maker's namespace through a pidfd of it (Linux 5.8): a namespace passed as a descriptor
     * counts against the in-flight descriptors of our uid, the target's, and a run holding 20,000 in flight
     * (one socketpair) made every worker's handover on the host fail. Older kernels: passed as a descriptor. */
    int pidfd;
};
extern struct net_maker_link net_maker;
void net_maker_main(int sock, pid_t zygote, const int leave[2]);
int enter_fresh_netns(void);

/* ---- the view (pg-mount.c) ---- */
#define MAX_PATHS 4096
/* Mount operations in the order given: 'r' show read-only, 'w' make writable, 'l' make a symbolic link,
 * 'h' hide. A later operation lies on top of an earlier one, so the caller orders them (oracles hidden last). */
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
extern struct sandbox_spec spec;

int is_directory(const char *path);
int make_mount_point(const char *path, int directory);
void build_root(int report);
void hold_kept_paths(void);
void size_tmpfs(void);
int fresh_tmpfs(const char *dir, int *mounted, int with_keeps);
void mask_proc_files(int report);

/* ---- the zygote, its runs and PID 1 (pg-zygote.c, pg-serve.c, pg-init.c) ---- */
const char *start_zygote(char *why, size_t why_len);
/* The zygote's requests to PID 1, one byte each; only REAPER_END is answered, with a struct reaped. */
#define REAPER_TERM 'T' /* SIGTERM to every process of the namespace */
#define REAPER_KILL 'K' /* SIGKILL to every process of the namespace */
#define REAPER_END 'E'  /* the run is over: kill and reap what is left, count its tasks, set the pid counter back */
struct reaped {
    struct tree tree;             /* what PID 1 reaped of the run (its orphans); leftovers counted when killed */
    long long tasks;              /* tasks the run made, -1 where not counted */
    long long own_cpu_us;         /* PID 1's own CPU since its last answer, -1 where unknown */
    long long own_faults;         /* and its own faults, which the memory cgroup counts too */
};
struct reaper_link {
    int sock; /* the zygote's end of PID 1's socketpair */
};
extern struct reaper_link reaper;
void signal_runs(int sig);
void serve_runs(int sock);
void init_main(int zygote, int report);

/* ---- utilities (pg-util.c) ---- */
#define FD_CONTROL_SPACE CMSG_SPACE(3 * sizeof(int))
#define PG_SCM_MAX_FD 253

/* The zygote's view of /proc, the host's opened before pivot_root: the runs' /proc, mounted by PID 1, has no pid
 * for the zygote (no /proc/self), and the targets' pids it knows are its own namespace's. -1 in every other
 * process, which reads its own /proc. */
extern int zygote_proc;
int proc_open(const char *relative);
ssize_t read_proc_text(const char *relative, char *text, size_t size);
int bind_by_fd(int fd, const char *to);

long long now_us(void);
long long own_cpu_us(void);
const char *signal_name(int sig);
int open_pidfd(pid_t pid);
pid_t fork_quiet(void);
void on_sigchld(int sig);
int write_all(int fd, const void *data, size_t len);
ssize_t read_text(const char *path, char *text, size_t size);
int read_exact(int fd, char *into, size_t len);
int write_file(const char *path, const char *text);
int write_text(const char *path, const char *format, ...) __attribute__((format(printf, 2, 3)));
void fd_message(struct msghdr *msg, struct iovec *iov, char *header, char *control);
ssize_t send_with_fds(int sock, const void *data, size_t len, const int *fds, int count, int flags);
void die_with_error(const char *format, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* The zygote's own: a step of the sandbox's setup that failed, told to the helper, which reports the sandbox off. */
void zygote_fail(int report_fd, const char *stage) __attribute__((noreturn));

#endif
