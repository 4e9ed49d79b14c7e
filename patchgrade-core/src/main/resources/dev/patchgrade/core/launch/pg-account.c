#include "pg-helper.h"

/*
 * A run's answer from its record. The zygote only measures (its counters around the run, the wait4 sums); every
 * decision on what escaped the wait4 sums is taken here, by the helper, for runs with and without the sandbox,
 * and the answer line is written once.
 */

static long long usage_us(const struct timeval *t) {
    return (long long)t->tv_sec * 1000000LL + t->tv_usec;
}

/* The wait4 sums of a finished tree; no counter of the zygote's (the helper's own path fills them in or leaves them -1). */
void report_outcome(struct run_report *rep, const struct outcome *out) {
    const struct rusage *u = &out->tree.usage;
    memset(rep, 0, sizeof *rep);
    rep->started = 1;
    rep->status = out->status;
    rep->timed_out = out->timed_out;
    rep->leftovers = out->tree.leftovers;
    rep->maxrss_kb = u->ru_maxrss;
#ifdef __APPLE__
    rep->maxrss_kb = u->ru_maxrss / 1024; /* macOS reports bytes */
#endif
    rep->utime_us = usage_us(&u->ru_utime);
    rep->stime_us = usage_us(&u->ru_stime);
    rep->minflt = u->ru_minflt;
    rep->majflt = u->ru_majflt;
    rep->inblock = u->ru_inblock;
    rep->oublock = u->ru_oublock;
    rep->wall_us = out->wall_us;
    rep->cpu_wait_us = out->cpu_wait_us;
    rep->leader_cpu_us = out->leader_cpu_us;
    struct run_counters none = {-1, -1, -1, -1, -1};
    rep->before = rep->after = none;
    rep->tasks = -1;
    rep->socket_peak = -1;
}

/* A target that could not start: `failure` is spawn_target's "stage errno". */
void report_nostart(struct run_report *rep, const char *failure) {
    memset(rep, 0, sizeof *rep);
    snprintf(rep->stage, sizeof rep->stage, "exec");
    sscanf(failure, "%31s %d", rep->stage, &rep->err);
}

/*
 * A process the kernel reaped itself (its parent ignored SIGCHLD) reached no wait4: its CPU only the zygote's counters
 * saw, and its peak RSS, faults and I/O nobody. Told by the faults it took, or by CPU well past the clock's noise;
 * then its CPU is charged as user time (the clock has no user/system split) and the answer says how much, so that
 * no per-process figure of the run is trusted. The zygote's own work is taken out exactly. -1: no counter, the CPU
 * cgroup may tell instead.
 */
static long long counters_unwaited(const struct run_report *rep, long long *utime) {
    const struct run_counters *a = &rep->before, *b = &rep->after;
    long long unwaited = -1;
    long long waited_faults = rep->minflt + rep->majflt;
    int own_faults_told = a->own_faults >= 0 && b->own_faults >= a->own_faults;
    long long own_faults = b->own_faults - a->own_faults;
    int memcg_told = a->memcg_faults >= 0 && b->memcg_faults >= a->memcg_faults && own_faults_told;
    long long memcg_hidden = memcg_told ? b->memcg_faults - a->memcg_faults - own_faults - waited_faults : 0;
    if (memcg_hidden > counters.memcg_fault_noise) unwaited = 1; /* the CPU it took is the cgroup's to tell */
    if (a->task_clock >= 0 && b->task_clock >= a->task_clock && a->own_cpu >= 0 && b->own_cpu >= a->own_cpu) {
        long long own = b->own_cpu - a->own_cpu;
        long long excess = b->task_clock - a->task_clock - own - (*utime + rep->stime_us);
        if (excess < 0) excess = 0;
        long long hidden_faults = a->faults >= 0 && b->faults >= a->faults && own_faults_told ? b->faults - a->faults - own_faults - waited_faults : 0;
        int cpu_escaped = excess > UNWAITED_CLOCK_NOISE_US + (*utime + rep->stime_us + own) / 4;
        /* Where the memory cgroup's faults are told, they alone tell an escape: an escaped process's memory shows
         * there, CPU alone is counted but loses no per-process figure, and the perf counter's faults are the weaker
         * account (a waited process's faults taken in the kernel, which rusage counts and it does not, offset them;
         * failed faults, such as an honest program's caught SIGBUS, count there and not in rusage). */
        int escaped = unwaited > 0 || (!memcg_told && (hidden_faults > UNWAITED_FAULT_NOISE || cpu_escaped));
        unwaited = escaped ? (excess > 0 ? excess : 1) : 0;
        if (escaped || cpu_escaped) *utime += excess;
    }
    if (rep->garbage_left && unwaited <= 0) unwaited = 1;
    return unwaited;
}

/* Against a CPU cgroup, whose account is rusage's own: what the launcher's own work leaves unexplained, and per
 * task the run made, what a thread spends after its time joined its process's (4.8 us a thread, so
 * 2,400 short threads of an honest program measured 12-17 ms). */
#define UNWAITED_CGROUP_NOISE_US 2000
#define UNWAITED_CGROUP_US_PER_TASK 10
/* Without a PID namespace nothing counts the tasks: the CPU is repaired only past a wide margin. */
#define UNCOUNTED_CGROUP_NOISE_US 20000

/*
 * The cgroup holds the whole tree, reaped through wait4 or not, with our own work, the zygote's and PID 1's, on
 * rusage's own clock: what it has past that work and the wait4 sums is CPU of a process that escaped every wait4, whose peak
 * RSS, faults and I/O nobody has. It sees what the zygote's counters cannot: a child that execs a file it cannot read
 * leaves them. That CPU is charged as user time, and the answer says how much escaped.
 */
static void cgroup_unwaited(const struct run_report *rep, const struct cpu_window *w, long long *utime, long long *unwaited) {
    long long user1, system1, helper_cpu;
    if (!w->had || !cgroup_cpu_end(&user1, &system1, &helper_cpu)) return;
    long long excess = user1 - w->user0 + system1 - w->system0 - (*utime + rep->stime_us) - (rep->init_cpu_us > 0 ? rep->init_cpu_us : 0) -
                       (helper_cpu > 0 ? helper_cpu : 0);
    if (rep->tasks < 0) {
        /* No escape is told: the sandbox is off, and the report says the verdict is not tamper-proof. */
        if (excess > UNCOUNTED_CGROUP_NOISE_US) *utime += excess;
        return;
    }
    /* When the zygote saw a process escape (by faults nobody explains), the cgroup's whole excess is that process's. */
    if (excess > UNWAITED_CGROUP_NOISE_US + rep->tasks * UNWAITED_CGROUP_US_PER_TASK || (*unwaited > 0 && excess > 0)) {
        *utime += excess;
        /* Where the zygote counts the memory cgroup's faults, an escaped process's memory shows there, and CPU alone
         * is only CPU: counted, but no per-process figure is lost. Past the allowance it may also be what
         * threads spend after their time joined their process's, which a busy machine made 15 us a thread. */
        *unwaited = *unwaited > 0 || !memcg.faults_told ? (*unwaited > 0 ? *unwaited : 0) + excess : 0;
    } else if (*unwaited < 0) {
        *unwaited = 0;
    }
}

/* The one answer to a run: its figures, with whatever escaped the wait4 sums charged, and the tree's peak. */
void answer_run(const struct request *r, const struct run_report *rep, const struct cpu_window *w) {
    if (!rep->started) {
        answer(r, "nostart stage=%s errno=%d", rep->stage, rep->err);
        return;
    }
    long long utime = rep->utime_us;
    long long unwaited = counters_unwaited(rep, &utime);
    cgroup_unwaited(rep, w, &utime, &unwaited);
    int signaled = WIFSIGNALED(rep->status);
    int sig = signaled ? WTERMSIG(rep->status) : 0;
    char line[600];
    snprintf(line, sizeof line,
            "done status=%s code=%d signal=%d signame=%s timed_out=%d maxrss_kb=%lld utime_us=%lld stime_us=%lld minflt=%lld "
            "majflt=%lld inblock=%lld oublock=%lld wall_us=%lld leftovers=%d cpu_wait_us=%lld leader_cpu_us=%lld "
            "unwaited_cpu_us=%lld init_cpu_us=%lld tasks=%lld tree_rss_kb=%lld",
            signaled ? "signaled" : "exited", signaled ? 0 : WEXITSTATUS(rep->status), sig, signaled ? signal_name(sig) : "-",
            rep->timed_out, rep->maxrss_kb, utime, rep->stime_us, rep->minflt, rep->majflt, rep->inblock, rep->oublock,
            rep->wall_us, rep->leftovers, rep->cpu_wait_us, rep->leader_cpu_us, unwaited, rep->init_cpu_us, rep->tasks,
            cgroup_peak_kb(w->memory_base, rep->socket_peak < 0 ? -1 : rep->socket_peak / 1024));
    answer_ended(r, line);
}
