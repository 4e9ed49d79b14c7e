#include "pg-helper.h"

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

/* Makes `path` (under /newroot) exist as a mount point of the given kind, creating parents. */
int make_mount_point(const char *path, int directory) {
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

int is_directory(const char *path) {
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

/* Builds the candidate's view of the file system in this (new) mount namespace, then pivots into it. */
void build_root(int report) {
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
     * the next, which a cheating run set and the next read back, and every other worker's are there too. */
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
     * only had on request, so a run set one to a value the next run read back (42 written, 42 read,
     * across workers). */
    DIR *thp = opendir("/newroot/sys/kernel/mm/transparent_hugepage");
    struct dirent *size_dir;
    while (thp && (size_dir = readdir(thp)) != NULL && hidden_dir_count < 40) { /* the array keeps MAX_PATHS + 8 for the hidden paths */
        if (strncmp(size_dir->d_name, "hugepages-", 10) != 0 || strlen(size_dir->d_name) > 40) continue;
        char stats[128];
        if (snprintf(stats, sizeof stats, "/newroot/sys/kernel/mm/transparent_hugepage/%s/stats", size_dir->d_name) >= (int)sizeof stats ||
            !is_directory(stats))
            continue;
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
            if (snprintf(path, sizeof path, "/newroot/sys/devices/system/node/%s/%s", node->d_name, counters[i]) >= (int)sizeof path) continue;
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

/*
 * Each run's /tmp and /dev/shm, made fresh by the zygote (pg-serve.c) before it starts and again once its
 * processes are gone, so no file outlives it.
 */

/* Binds what `fd` holds (opened O_PATH) at `to`, through its /proc/self/fd link: the zygote's is in the host's
 * /proc it holds, reached from there as a relative path (a bind takes a path, and /proc/self of the runs' /proc
 * does not exist for it). 0, or -1 with errno. */
int bind_by_fd(int fd, const char *to) {
    char source[64];
    snprintf(source, sizeof source, "%sself/fd/%d", zygote_proc >= 0 ? "" : "/proc/", fd);
    if (zygote_proc >= 0 && fchdir(zygote_proc) != 0) return -1;
    int result = mount(source, to, NULL, MS_BIND | MS_REC, NULL);
    int err = errno;
    if (zygote_proc >= 0 && chdir("/") != 0) die_with_error("the zygote returning to / after binding %s", to);
    errno = err;
    return result;
}
struct keep {
    int fd;             /* a bound path, held open; -1 for a link */
    const char *path;
    const char *target; /* a link's */
};
static struct keep keeps[MAX_PATHS];
static int keep_count;

/* Paths shown under /tmp (a project or a test's directory there) must outlive each fresh /tmp: held
 * open once, bound back whenever /tmp is mounted anew; a link on the way to one is made again. */
void hold_kept_paths(void) {
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

void size_tmpfs(void) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    unsigned long long kb = pages > 0 && page > 0 ? (unsigned long long)pages * (unsigned long long)page / 1024 / TMPFS_RAM_SHARE : 0;
    if (kb < 65536) kb = 65536;
    snprintf(tmpfs_options, sizeof tmpfs_options, "mode=1777,size=%lluk,nr_inodes=%d", kb, TMPFS_FILES);
}

/* A fresh tmpfs at `dir` (mode 1777), whatever the run before did with the last one: even a run that
 * left no file moved its inode counter and its times, which the next run could read. 0, or -1 with errno. */
int fresh_tmpfs(const char *dir, int *mounted, int with_keeps) {
    if (*mounted && umount2(dir, MNT_DETACH) != 0) return -1;
    if (mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, tmpfs_options) != 0) return -1;
    *mounted = 1;
    for (int i = 0; with_keeps && i < keep_count; i++) {
        struct stat st;
        if (keeps[i].target) continue; /* links once every bind is back, below */
        if (fstat(keeps[i].fd, &st) != 0 || make_mount_point(keeps[i].path, S_ISDIR(st.st_mode)) != 0 ||
            bind_by_fd(keeps[i].fd, keeps[i].path) != 0) return -1;
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

/* Files of /proc that only root may read, and the key lists: the target's uid is host root's when Maven is
 * root, and they show host-wide state a run can set and the next run read back exactly (kpageflags and
 * kpagecgroup: which pages each memory cgroup has cached, a worker's among them), or the kernel's timers,
 * slabs and keys. Covered with /dev/null, as Docker does for some of them. */
void mask_proc_files(int report) {
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
        if (snprintf(path, sizeof path, "/proc/%s", name) >= (int)sizeof path) continue;
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
#endif /* __linux__ */
