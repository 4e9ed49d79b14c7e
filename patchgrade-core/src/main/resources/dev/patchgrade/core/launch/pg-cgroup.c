#include "pg-helper.h"

/* ---------------------------------------------------------------------------------------------
 * Memory cgroup (v1 where writable, v2 where delegated): the peak of the whole tree's summed memory.
 */
struct memory_cgroup memcg = {.peak_fd = -1, .tcp_base = -1, .last_base = -1};
struct cpu_cgroup cpucg;

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
void setup_cgroup(void) {
#ifdef __linux__
    char own[PATH_MAX / 2];
    char parent[PATH_MAX];
    if (own_cgroup("memory", own, sizeof own)) {
        snprintf(parent, sizeof parent, "/sys/fs/cgroup/memory%s", strcmp(own, "/") == 0 ? "" : own);
        memcg.version = 1;
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
        if (strstr(text, "memory")) memcg.version = 2;
    }
    if (!memcg.version) return;
    sweep_stale_cgroups(parent);
    /* A path too long to hold is no cgroup: a cut one would name another directory. */
    if (snprintf(memcg.dir, sizeof memcg.dir, "%s/patchgrade-%d", parent, (int)getpid()) >= (int)sizeof memcg.dir ||
        snprintf(memcg.parent_procs, sizeof memcg.parent_procs, "%s/cgroup.procs", parent) >= (int)sizeof memcg.parent_procs) {
        memcg.version = 0;
        return;
    }
    char procs[PATH_MAX + 16], peak[PATH_MAX + 32];
    snprintf(procs, sizeof procs, "%s/cgroup.procs", memcg.dir);
    snprintf(peak, sizeof peak, "%s/%s", memcg.dir, memcg.version == 1 ? "memory.max_usage_in_bytes" : "memory.peak");
    if (mkdir(memcg.dir, 0755) != 0 && errno != EEXIST) {
        memcg.version = 0;
        return;
    }
    if (access(peak, R_OK | W_OK) != 0 || !write_file(procs, "0")) {
        rmdir(memcg.dir);
        memcg.version = 0;
        return;
    }
    if (memcg.version == 1) {
        /* v1 charges TCP socket buffers to a cgroup only once its TCP limit is set: a run holding its memory in
         * loopback queues was in no RSS and no tree peak. Set to no limit at all, only to count. */
        char tcp[PATH_MAX + 48];
        snprintf(tcp, sizeof tcp, "%s/memory.kmem.tcp.limit_in_bytes", memcg.dir);
        memcg.tcp_accounted = write_file(tcp, "-1");
    }
#endif
}

void setup_cpu_cgroup(void) {
#ifdef __linux__
    char path[PATH_MAX + 32];
    if (memcg.version == 2) {
        snprintf(path, sizeof path, "%s/cpu.stat", memcg.dir);
        if (access(path, R_OK) == 0) {
            snprintf(cpucg.dir, sizeof cpucg.dir, "%s", memcg.dir);
            cpucg.version = 2;
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
        if (snprintf(cpucg.dir, sizeof cpucg.dir, "%s/patchgrade-%d", parent, (int)getpid()) >= (int)sizeof cpucg.dir ||
            snprintf(cpucg.parent_procs, sizeof cpucg.parent_procs, "%s/cgroup.procs", parent) >= (int)sizeof cpucg.parent_procs)
            return;
        char procs[PATH_MAX + 16];
        snprintf(procs, sizeof procs, "%s/cgroup.procs", cpucg.dir);
        if ((mkdir(cpucg.dir, 0755) == 0 || errno == EEXIST) && write_file(procs, "0")) cpucg.version = 1;
        else rmdir(cpucg.dir);
        return;
    }
#endif
}

/* The tree's user and system CPU so far, in microseconds; 0 when there is no cgroup to ask. */
static int cgroup_cpu_us(long long *user, long long *system) {
    char path[PATH_MAX + 32];
    if (cpucg.version == 1) {
        /* usage_user and usage_sys are sampled at ticks (a busy machine lost a third of a child's CPU in
         * them); cpuacct.usage is the scheduler's exact total, so user is the total less system. */
        snprintf(path, sizeof path, "%s/cpuacct.usage", cpucg.dir);
        long long total = read_kept_number(path);
        snprintf(path, sizeof path, "%s/cpuacct.usage_sys", cpucg.dir);
        long long s = read_kept_number(path);
        if (total < 0 || s < 0) return 0;
        if (s > total) s = total;
        *user = (total - s) / 1000;
        *system = s / 1000;
        return 1;
    }
    if (cpucg.version == 2) {
        snprintf(path, sizeof path, "%s/cpu.stat", cpucg.dir);
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

/* The tree's CPU before a run: 0 when there is no cgroup to ask. */
int cgroup_cpu_start(long long *user, long long *system) {
    if (cpucg.mark_valid) {
        *user = cpucg.mark_user;
        *system = cpucg.mark_system;
        cpucg.window_own = cpucg.mark_own;
        return 1;
    }
    cpucg.window_own = own_cpu_us();
    return cgroup_cpu_us(user, system);
}

/* The tree's CPU after a run, and the helper's own since the window began; 0 when there is no cgroup to ask. The
 * figures read are the next run's start (cgroup_cpu_start): between runs only the launcher runs in the cgroup. */
int cgroup_cpu_end(long long *user, long long *system, long long *helper_cpu) {
    if (!cgroup_cpu_us(user, system)) return 0;
    long long own = own_cpu_us();
    *helper_cpu = own >= 0 && cpucg.window_own >= 0 ? own - cpucg.window_own : 0;
    cpucg.mark_valid = 1;
    cpucg.mark_user = *user;
    cpucg.mark_system = *system;
    cpucg.mark_own = own;
    return 1;
}

/* Unchecked: the helper is ending, and a cgroup it could not remove is swept by the next helper
 * (sweep_stale_cgroups). */
void leave_cgroup(void) {
    if (cpucg.version == 1) {
        write_file(cpucg.parent_procs, "0");
        rmdir(cpucg.dir);
    }
    if (!memcg.version) return;
    write_file(memcg.parent_procs, "0");
    rmdir(memcg.dir);
}

/*
 * Memory the kernel frees from a worker after its run was answered: unix garbage's files are put by a kworker, and
 * a shmem file of GBs takes seconds to free (2,000 MB in memfds parked in a garbage cycle were still
 * charged when the next run's baseline was taken, and that run used 1.6 GB unseen as they went). Where the cgroup
 * holds more than a little over the last baseline, its usage is followed until it has stopped falling for 100 ms (at most 5 s).
 */
#define SETTLE_SLACK_BYTES (8LL << 20)
#define SETTLE_STEP_MS 5
#define SETTLE_MOST_MS 5000
#define SETTLE_QUIET_STEPS 20 /* 100 ms without progress */
static void cgroup_settle(const char *usage_path) {
    long long usage = read_kept_number(usage_path);
    if (memcg.last_base < 0 || usage < 0 || usage <= memcg.last_base + SETTLE_SLACK_BYTES) return;
    struct timespec step = {0, SETTLE_STEP_MS * 1000000L};
    int still = 0;
    for (int waited = 0; waited < SETTLE_MOST_MS; waited += SETTLE_STEP_MS) {
        nanosleep(&step, NULL);
        long long now = read_kept_number(usage_path);
        if (now < 0 || now <= memcg.last_base + SETTLE_SLACK_BYTES) return;
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
long long cgroup_reset(void) {
    long long base = cgroup_reset_now();
    memcg.last_base = base;
    return base;
}

static long long cgroup_reset_now(void) {
    if (!memcg.version) return -1;
    char path[PATH_MAX + 48];
    snprintf(path, sizeof path, "%s/%s", memcg.dir, memcg.version == 1 ? "memory.usage_in_bytes" : "memory.current");
    cgroup_settle(path);
    if (memcg.version == 1) {
        if (memcg.tcp_accounted) {
            snprintf(path, sizeof path, "%s/memory.kmem.tcp.max_usage_in_bytes", memcg.dir);
            memcg.tcp_base = write_kept(path, O_RDWR, "0") ? read_kept_number(path) : -1;
        }
        snprintf(path, sizeof path, "%s/memory.max_usage_in_bytes", memcg.dir);
        if (!write_kept(path, O_RDWR, "0")) return -1;
        snprintf(path, sizeof path, "%s/memory.usage_in_bytes", memcg.dir);
    } else {
        /* v2 resets the peak seen through one open file: the same kept file is read after the run. */
        snprintf(path, sizeof path, "%s/memory.peak", memcg.dir);
        memcg.peak_fd = kept_fd(path, O_RDWR);
        if (memcg.peak_fd < 0 || pwrite(memcg.peak_fd, "reset\n", 6, 0) != 6) return -1;
        snprintf(path, sizeof path, "%s/memory.current", memcg.dir);
    }
    return read_kept_number(path);
}

/* socket_kb: the most the run's TCP sockets held at one sample (see sample_sockets), -1 where not sampled. */
long long cgroup_peak_kb(long long base, long long socket_kb) {
    if (!memcg.version || base < 0) return -1;
    long long peak;
    long long sockets = socket_kb > 0 ? socket_kb * 1024 : 0;
    if (memcg.version == 1) {
        char path[PATH_MAX + 48];
        snprintf(path, sizeof path, "%s/memory.max_usage_in_bytes", memcg.dir);
        peak = read_kept_number(path);
        long long tcp = 0;
        if (peak >= 0 && memcg.tcp_accounted && memcg.tcp_base >= 0) {
            /* TCP buffers are charged apart from memory.usage: their own peak is added (the sum of two peaks
             * bounds the peak of the sum from above). */
            snprintf(path, sizeof path, "%s/memory.kmem.tcp.max_usage_in_bytes", memcg.dir);
            long long tcp_peak = read_kept_number(path);
            if (tcp_peak > memcg.tcp_base) tcp = tcp_peak - memcg.tcp_base;
        }
        /* The sampled sockets include the accepted ones the TCP counter has: the larger of the two. */
        if (peak >= 0) peak += tcp > sockets ? tcp : sockets;
    } else {
        char text[64];
        ssize_t n = pread(memcg.peak_fd, text, sizeof text - 1, 0);
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
