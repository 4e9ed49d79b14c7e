#include "pg-helper.h"

#ifdef __linux__
/*
 * A process whose parent ignores SIGCHLD is reaped by the kernel, and its CPU reaches no wait4. Without
 * a cgroup (a user without root, no delegation) the zygote counts every target's whole tree's CPU with a
 * task-clock counter on itself, inherited by every process it starts after (not PID 1 nor the network maker,
 * forked before): the kernel folds each child's count into ours at its exit, reaped or not, by whom ever. Not exact: an exec that makes a process undumpable (a file it cannot read,
 * with fs.suid_dumpable=0) detaches it from the counter; the reports say so.
 */
struct counters counters = {.task_clock_fd = -1, .fault_fd = -1, .memcg_stat_fd = -1, .memcg_fault_noise = 16, .last_pid_fd = -1};
void size_memcg_fault_noise(void) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    counters.memcg_fault_noise = 16 + 128LL * (cpus > 0 ? cpus : 1024);
}

long long memcg_faults(void) {
    char text[4096];
    ssize_t n = counters.memcg_stat_fd >= 0 ? pread(counters.memcg_stat_fd, text, sizeof text - 1, 0) : -1;
    if (n <= 0) return -1;
    text[n] = '\0';
    for (char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        long long value;
        if (sscanf(line, "pgfault %lld", &value) == 1) return value;
    }
    return -1;
}

void open_task_clock(void) {
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
    counters.task_clock_fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    attr.config = PERF_COUNT_SW_PAGE_FAULTS;
    counters.fault_fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
#endif
}

long long fault_count(void) {
    unsigned long long count;
    if (counters.fault_fd < 0 || read(counters.fault_fd, &count, sizeof count) != (ssize_t)sizeof count) return -1;
    return (long long)count;
}

/* The zygote's own faults: rusage counts every one, the counter only those taken in user mode, so what is left after
 * taking these out of the counter is never more than the tree's real faults. */
long long own_faults(void) {
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0) return -1;
    return (long long)u.ru_minflt + u.ru_majflt;
}

long long task_clock_us(void) {
    unsigned long long ns;
    if (counters.task_clock_fd < 0 || read(counters.task_clock_fd, &ns, sizeof ns) != (ssize_t)sizeof ns) return -1; /* no pread on a perf event */
    return (long long)(ns / 1000);
}

/* The pid counter is PID 1's to read and write: only a process whose own PID namespace is the runs' may
 * write it (see struct counters). */

/* How many tasks (processes and threads) the run made: the pid counter was set back to 1 after the run before. */
long long tasks_created(void) {
    char text[32];
    ssize_t n = counters.last_pid_fd >= 0 ? pread(counters.last_pid_fd, text, sizeof text - 1, 0) : -1;
    if (n <= 0) return -1;
    text[n] = '\0';
    long long last = atoll(text);
    return last >= 1 ? last - 1 : -1;
}

void reset_last_pid(void) {
    /* A counter not set back would count earlier runs' tasks as this one's (a larger escape allowance) and let a
     * run read the last one's in its pid. */
    if (counters.last_pid_fd >= 0 && pwrite(counters.last_pid_fd, "1", 1, 0) != 1) die_with_error("PID 1 writing ns_last_pid");
}
void read_run_counters(struct run_counters *c) {
    c->task_clock = task_clock_us();
    c->own_cpu = own_cpu_us();
    c->faults = fault_count();
    c->memcg_faults = memcg_faults();
    c->own_faults = own_faults();
}
#endif /* __linux__ */
