#include "pg-helper.h"

/* ==== seccomp: begin ==== */
#ifdef __linux__
/*
 * The target's system calls: a table per architecture lists the calls a program may make (a few only with
 * arguments checked), and the filter is generated from it at start. Every other call fails with ENOSYS, as on
 * a kernel without it: glibc falls back where it can (clone3 to clone), a program sees "not implemented" and
 * is not killed. A call of an arch that has no table ends the process: on aarch64 a run can exec a 32-bit ARM
 * program (where the CPU and kernel run them), whose calls would otherwise pass unchecked.
 *
 * What is refused and why:
 * A sandboxed target shares its user namespace (and so its user keyring) with every later run of the worker:
 * the keyring calls are refused, so no run leaves an answer there for the next. Sockets that reach past the
 * network namespace are refused too, and so is every family but TCP streams over the run's loopback (see
 * PG_SOCKET). AF_VSOCK reaches the hypervisor's host. A pathname unix socket takes connect() (and a datagram's
 * sendto()) through a read-only mount to whatever host daemon's socket the view shows, bound before the
 * sandbox or after it, and Landlock of the kernels we run on cannot refuse that: so the target gets no unix
 * socket that can name a path. socket(AF_UNIX) is refused outright; socketpair(AF_UNIX) is allowed for the
 * connected stream types only, whose connect() fails with EISCONN and whose sendto() refuses or ignores an
 * address (a datagram pair, and SOCK_RAW, which unix makes a datagram, can connect() or sendto() any path).
 * io_uring is refused: its socket and connect operations run in the kernel, past this filter. On i386,
 * socketcall() is refused: its arguments sit in memory a filter cannot read (glibc has used the direct calls
 * since Linux 4.3). x32 calls (x86_64's numbers with bit 30 set) have no table: all refused.
 *
 * PID 1: the worker's PID 1 is in every run's PID namespace and has the target's uid (an unprivileged user
 * namespace maps one), so the kernel lets a run set its resource limits, nice value, CPU affinity, scheduling
 * policy and I/O priority, which PID 1 keeps for every later run: a 64-bit answer in a soft limit for the next
 * run to read back, RLIMIT_CPU that ends PID 1 and every later run with it, a nice value that slows the reaping
 * of every run after. Those calls are refused for pid 1 (every other pid a run can name is its own; the zygote
 * that starts and measures it has none in its namespace), and setpriority and ioprio_set for the whole uid.
 * Its /proc directory is hidden (hidepid=2).
 *
 * LEASES: the target owns the host's files when Maven is root (its uid is root's outside), and a lease works
 * through a read-only mount: a write lease on /etc/ld.so.cache held for a run stalled every exec on the host.
 * fcntl(F_SETLEASE) is refused.
 *
 * PAGE CACHE: every run reads files through the host's page cache, which outlives it, so which pages of a
 * large file are cached can carry an answer from one run to the next (the grade of runs > 1 takes the
 * cheapest run). A run may not ask (mincore, cachestat refused) nor drop pages (fadvise DONTNEED and madvise
 * COLD/PAGEOUT do nothing; process_madvise refused): reading a page can still only cache it, and what is left
 * is telling cached from uncached pages by read time. A read with RWF_NOWAIT (which fails where the page is
 * not cached, and so asks without caching) is refused with EOPNOTSUPP, as file systems without it refuse it;
 * Linux AIO is refused, whose iocb carries the same flag past any filter.
 *
 * HIDDEN MEMORY: memory no fault count sees (see memcg_faults): page tables filled without a fault (a
 * userfaultfd's UFFDIO_COPY and UFFDIO_CONTINUE hid 50 MB in a child the kernel reaped) or by another process,
 * whose rusage then explains the faults (process_vm_writev, PTRACE_POKEDATA: 200 MB); perf ring buffers and
 * memfd_secret, which no resident set counts. A clone that fails after its pid was taken moves the pid
 * counter without making a task; a run that burnt 120,000 pids this way (CLONE_PIDFD with no descriptor free)
 * bought itself the escape allowance of as many tasks: clone with CLONE_PIDFD is refused, and clone3 (which
 * glibc falls back from).
 */
#if defined(__x86_64__)
#define PG_NATIVE_ARCH AUDIT_ARCH_X86_64
#define PG_X32_BIT 0x40000000u
#define PG_COMPAT_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define PG_NATIVE_ARCH AUDIT_ARCH_AARCH64
#endif
#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS 0x80000000u /* before Linux 4.14 the kernel reads it as SECCOMP_RET_KILL */
#endif
/* Calls newer than the headers we may be built with: from Linux 5.1 on, one number on every architecture. */
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_map_shadow_stack
#define __NR_map_shadow_stack 453
#endif
#ifndef __NR_futex_wake
#define __NR_futex_wake 454
#define __NR_futex_wait 455
#define __NR_futex_requeue 456
#endif
#ifndef __NR_mseal
#define __NR_mseal 462
#endif
#define PG_MADV_COLD 20
#define PG_MADV_PAGEOUT 21
#define PG_RWF_NOWAIT 0x8
#define PG_PTRACE_POKETEXT 4 /* the same on every architecture */
#define PG_PTRACE_POKEDATA 5
#define PG_CLONE_PIDFD 0x1000
#define PG_IOPRIO_WHO_PROCESS 1
#define PG_IOPRIO_WHO_USER 3

#ifdef PG_NATIVE_ARCH
/*
 * Where a call goes: a verdict (an instruction that returns it), or an argument check (a block that ends in
 * verdicts or in a later check). Checks are laid out in this order, and a block jumps forward only.
 */
enum pg_target {
    PG_ALLOW, PG_NOSYS, PG_KILL, PG_ACCES, PG_NOAF, PG_NOOP, PG_NOTSUP, PG_PERM, PG_NOPROTO, PG_VERDICTS,
    PG_SOCKET = PG_VERDICTS, PG_INET, PG_TCP, PG_PAIR, PG_PAIR_TYPE, PG_SOCKOPT, PG_RCVBUF, PG_FALLOC, PG_MODE1, PG_MODE2,
    PG_FADV, PG_MADV, PG_RWF, PG_PID1, PG_PRIO, PG_IOPRIO, PG_WHO1, PG_FCNTL, PG_CLONE, PG_PRCTL, PG_PTRACE, PG_TARGETS
};

static const unsigned pg_verdicts[PG_VERDICTS] = {
    [PG_ALLOW] = SECCOMP_RET_ALLOW,
    [PG_NOSYS] = SECCOMP_RET_ERRNO | ENOSYS,
    [PG_KILL] = SECCOMP_RET_KILL_PROCESS,
    [PG_ACCES] = SECCOMP_RET_ERRNO | EACCES,
    [PG_NOAF] = SECCOMP_RET_ERRNO | EAFNOSUPPORT,
    [PG_NOOP] = SECCOMP_RET_ERRNO | 0, /* errno 0: the call returns success without being made */
    [PG_NOTSUP] = SECCOMP_RET_ERRNO | EOPNOTSUPP,
    [PG_PERM] = SECCOMP_RET_ERRNO | EPERM,
    [PG_NOPROTO] = SECCOMP_RET_ERRNO | EPROTONOSUPPORT,
};

/* One test of a check: where the call goes when (argument & mask) == value. An argument's low 32 bits
 * (little-endian): the int the kernel reads, whatever the high bits hold. */
struct pg_test {
    unsigned char arg;
    unsigned mask;
    unsigned value;
    unsigned char then;
};
#define PG_TESTS_MAX 3
struct pg_check {
    struct pg_test tests[PG_TESTS_MAX];
    unsigned char count;
    unsigned char otherwise;
};
#define PG_IS(arg, value, then) {(arg), ~0u, (unsigned)(value), (then)}
#define PG_MASKED(arg, mask, value, then) {(arg), (mask), (unsigned)(value), (then)}
static const struct pg_check pg_checks[PG_TARGETS - PG_VERDICTS] = {
    /* socket(family, type, protocol). The run's network is its own loopback: a TCP stream there is all it gets.
     * Datagram and netlink queues hold memory that no resident set and no v1 memory cgroup counts (1,000 MB held
     * in UDP or netlink queues, read back whole, with a tree peak of 2 MB); TCP buffers are charged to the
     * worker's cgroup (see setup_cgroup). Any other family (vsock, packet, the ones a module would be loaded
     * for) is refused. */
    [PG_SOCKET - PG_VERDICTS] = {{PG_IS(0, AF_UNIX, PG_ACCES), PG_IS(0, AF_INET, PG_INET), PG_IS(0, AF_INET6, PG_INET)}, 3, PG_NOAF},
    [PG_INET - PG_VERDICTS] = {{PG_MASKED(1, 0xf, SOCK_STREAM, PG_TCP)}, 1, PG_ACCES},
    /* A stream of TCP only: MPTCP (IPPROTO_MPTCP, a stream too) keeps what it receives in a socket of its own
     * that no TCP dump lists (300 MB parked there with a tree peak of 82 MB). */
    [PG_TCP - PG_VERDICTS] = {{PG_IS(2, 0, PG_ALLOW), PG_IS(2, IPPROTO_TCP, PG_ALLOW)}, 2, PG_NOPROTO},
    /* socketpair(family, type, protocol, sv), the type without SOCK_NONBLOCK and SOCK_CLOEXEC (any other flag
     * bit is EINVAL in the kernel). */
    [PG_PAIR - PG_VERDICTS] = {{PG_IS(0, AF_UNIX, PG_PAIR_TYPE)}, 1, PG_NOAF},
    [PG_PAIR_TYPE - PG_VERDICTS] = {{PG_MASKED(1, 0xf, SOCK_STREAM, PG_ALLOW), PG_MASKED(1, 0xf, SOCK_SEQPACKET, PG_ALLOW)}, 2, PG_ACCES},
    /* setsockopt(fd, level, name, value, length): SO_RCVBUF does nothing. A connection waiting to be accepted
     * takes its listener's receive buffer when it is made, and PID 1 counts each waiting one as the listener's
     * buffer at the time of a look: a listener's buffer set large, then shrunk once a connection waited on it,
     * hid 1,000 MB. Every socket keeps the kernel's default buffer. */
    [PG_SOCKOPT - PG_VERDICTS] = {{PG_IS(1, SOL_SOCKET, PG_RCVBUF)}, 1, PG_ALLOW},
    [PG_RCVBUF - PG_VERDICTS] = {{PG_IS(2, SO_RCVBUF, PG_NOOP)}, 1, PG_ALLOW},
    /* fallocate(fd, mode, offset, length) allocates, and grows a file, as a write would; its other modes pass
     * the output cap, which is RLIMIT_FSIZE (FALLOC_FL_INSERT_RANGE made a kept stream of 8 TB,
     * FALLOC_FL_KEEP_SIZE held 2 GB of disk behind 6 bytes): "Operation not supported", as on a file system
     * without them. */
    [PG_FALLOC - PG_VERDICTS] = {{PG_IS(1, 0, PG_ALLOW)}, 1, PG_NOTSUP},
    /* chmod(path, mode), fchmod(fd, mode), fchmodat(dir, path, mode, ...): no set-user-ID or set-group-ID bit.
     * A run owns its output files on the host, and made its kept stream a set-user-ID copy of a program for
     * any local user to run; the modes are reset when the run ends, and never get those bits meanwhile. */
    [PG_MODE1 - PG_VERDICTS] = {{PG_MASKED(1, 06000, 0, PG_ALLOW)}, 1, PG_PERM},
    [PG_MODE2 - PG_VERDICTS] = {{PG_MASKED(2, 06000, 0, PG_ALLOW)}, 1, PG_PERM},
    /* fadvise64(fd, offset, len, advice): dropping the file's cached pages does nothing (PAGE CACHE). */
    [PG_FADV - PG_VERDICTS] = {{PG_IS(3, POSIX_FADV_DONTNEED, PG_NOOP)}, 1, PG_ALLOW},
    /* madvise(addr, len, advice): reclaiming a mapping's pages does nothing. */
    [PG_MADV - PG_VERDICTS] = {{PG_IS(2, PG_MADV_COLD, PG_NOOP), PG_IS(2, PG_MADV_PAGEOUT, PG_NOOP)}, 2, PG_ALLOW},
    /* preadv2/pwritev2(fd, iov, count, pos_l, pos_h, flags) with RWF_NOWAIT. */
    [PG_RWF - PG_VERDICTS] = {{PG_MASKED(5, PG_RWF_NOWAIT, 0, PG_ALLOW)}, 1, PG_NOTSUP},
    /* A call whose first argument is a pid, refused for pid 1 (PID 1). */
    [PG_PID1 - PG_VERDICTS] = {{PG_IS(0, 1, PG_PERM)}, 1, PG_ALLOW},
    /* setpriority(which, who, prio) and ioprio_set(which, who, ioprio): refused for every process of the uid
     * (PID 1 among them) and for pid 1. */
    [PG_PRIO - PG_VERDICTS] = {{PG_IS(0, PRIO_USER, PG_PERM), PG_IS(0, PRIO_PROCESS, PG_WHO1)}, 2, PG_ALLOW},
    [PG_IOPRIO - PG_VERDICTS] = {{PG_IS(0, PG_IOPRIO_WHO_USER, PG_PERM), PG_IS(0, PG_IOPRIO_WHO_PROCESS, PG_WHO1)}, 2, PG_ALLOW},
    [PG_WHO1 - PG_VERDICTS] = {{PG_IS(1, 1, PG_PERM)}, 1, PG_ALLOW},
    /* fcntl(fd, cmd, arg), refused for F_SETLEASE (LEASES). */
    [PG_FCNTL - PG_VERDICTS] = {{PG_IS(1, F_SETLEASE, PG_PERM)}, 1, PG_ALLOW},
    /* clone(flags, ...), refused with CLONE_PIDFD (HIDDEN MEMORY). */
    [PG_CLONE - PG_VERDICTS] = {{PG_MASKED(0, PG_CLONE_PIDFD, 0, PG_ALLOW)}, 1, PG_PERM},
    /* prctl(option, ...): transparent huge pages stay off for the run (see memcg_faults): turning them back on,
     * or off, does nothing. */
    [PG_PRCTL - PG_VERDICTS] = {{PG_IS(0, PR_SET_THP_DISABLE, PG_NOOP)}, 1, PG_ALLOW},
    /* ptrace(request, ...): writing another process's memory is refused; tracing is not (LeakSanitizer stops
     * its own threads with it, debuggers and strace read). */
    [PG_PTRACE - PG_VERDICTS] = {{PG_IS(0, PG_PTRACE_POKETEXT, PG_PERM), PG_IS(0, PG_PTRACE_POKEDATA, PG_PERM)}, 2, PG_ALLOW},
};
#undef PG_IS
#undef PG_MASKED

/* A call the table lists, by its number in the table's arch, and where it goes. */
struct pg_rule {
    unsigned short nr;
    unsigned char target;
};
/* Every number in a table is below this (the highest is 462); x32 numbers are far above. */
#define PG_NR_LIMIT 512

/*
 * The native table. What these were taken from: strace -f of C and C++ programs (libstdc++ threads,
 * std::filesystem, std::async, random_device), their ASan+UBSan, TSan and LSan builds, gcov-instrumented
 * ones writing .gcda files, cmake-built ones, programs started through ld.so, sh, bash and python3 scripts
 * (threads, subprocess, multiprocessing, tempfile) with the coreutils the tests use, and Valgrind 3.19's
 * memcheck, callgrind, lackey and massif; and what these plainly may call beyond one run of them.
 */
#define ALLOW(name) {__NR_##name, PG_ALLOW}
#define CHECK(name, check) {__NR_##name, (check)}
static const struct pg_rule pg_native_rules[] = {
    /* Files and descriptors: open, read, write, map and close them; stat, list and change the tree (the view
     * decides what may be written); sendfile, splice and copy_file_range as cp and sanitizers use them;
     * extended attributes (ls, cp -a); memfd_create (Valgrind, JITs, glibc's own tests). */
    ALLOW(read), ALLOW(write), ALLOW(readv), ALLOW(writev), ALLOW(pread64), ALLOW(pwrite64), ALLOW(preadv),
    ALLOW(pwritev), CHECK(preadv2, PG_RWF), CHECK(pwritev2, PG_RWF), ALLOW(openat), ALLOW(openat2), ALLOW(close),
    ALLOW(close_range), ALLOW(lseek), ALLOW(dup), ALLOW(dup3), ALLOW(pipe2), CHECK(fcntl, PG_FCNTL), ALLOW(flock),
    ALLOW(fsync), ALLOW(fdatasync), ALLOW(sync), ALLOW(syncfs), ALLOW(sync_file_range), ALLOW(truncate),
    ALLOW(ftruncate), CHECK(fallocate, PG_FALLOC), CHECK(fadvise64, PG_FADV), ALLOW(readahead), ALLOW(sendfile),
    ALLOW(splice), ALLOW(tee), ALLOW(vmsplice), ALLOW(copy_file_range), ALLOW(ioctl), ALLOW(fstat),
    ALLOW(newfstatat), ALLOW(statx), ALLOW(statfs), ALLOW(fstatfs), ALLOW(faccessat), ALLOW(faccessat2),
    ALLOW(getdents64), ALLOW(getcwd), ALLOW(chdir), ALLOW(fchdir), ALLOW(renameat), ALLOW(renameat2),
    ALLOW(mkdirat), ALLOW(unlinkat), ALLOW(linkat), ALLOW(symlinkat), ALLOW(readlinkat), ALLOW(mknodat),
    ALLOW(umask), CHECK(fchmod, PG_MODE1), CHECK(fchmodat, PG_MODE2), CHECK(fchmodat2, PG_MODE2), ALLOW(fchown),
    ALLOW(fchownat), ALLOW(utimensat), ALLOW(getxattr), ALLOW(lgetxattr), ALLOW(fgetxattr), ALLOW(listxattr),
    ALLOW(llistxattr), ALLOW(flistxattr), ALLOW(setxattr), ALLOW(lsetxattr), ALLOW(fsetxattr), ALLOW(removexattr),
    ALLOW(lremovexattr), ALLOW(fremovexattr), ALLOW(memfd_create),
    /* Waiting on descriptors, timers, signals and file events: event loops, Python's selectors, tail -f. */
    ALLOW(ppoll), ALLOW(pselect6), ALLOW(epoll_create1), ALLOW(epoll_ctl), ALLOW(epoll_pwait), ALLOW(epoll_pwait2),
    ALLOW(eventfd2), ALLOW(signalfd4), ALLOW(timerfd_create), ALLOW(timerfd_settime), ALLOW(timerfd_gettime),
    ALLOW(inotify_init1), ALLOW(inotify_add_watch), ALLOW(inotify_rm_watch),
    /* Memory: the allocators, ld.so and the sanitizers' shadow mappings; NUMA policy (TSan, allocators that
     * ask); memory protection keys, shadow stacks and sealing (glibc asks where the CPU has them). */
    ALLOW(brk), ALLOW(mmap), ALLOW(munmap), ALLOW(mremap), ALLOW(mprotect), ALLOW(msync), CHECK(madvise, PG_MADV),
    ALLOW(mlock), ALLOW(mlock2), ALLOW(munlock), ALLOW(mlockall), ALLOW(munlockall), ALLOW(membarrier),
    ALLOW(pkey_alloc), ALLOW(pkey_free), ALLOW(pkey_mprotect), ALLOW(mbind), ALLOW(get_mempolicy),
    ALLOW(set_mempolicy), ALLOW(map_shadow_stack), ALLOW(mseal),
    /* Processes and threads: fork, exec, wait, signal another; thread start-up, futexes, robust lists and rseq
     * (glibc, libstdc++ threads); prctl (thread names, PR_SET_PDEATHSIG, PR_SET_PTRACER as LSan needs it);
     * personality (setarch, Valgrind); unshare (sandboxing programs; the zygote caps the namespaces a run
     * may hold); a filter of a program's own; pidfds of its own children (Python, systemd's tools); tracing
     * (LeakSanitizer stops its threads with ptrace, strace and gdb read) but no writing into another. */
    CHECK(clone, PG_CLONE), ALLOW(execve), ALLOW(execveat), ALLOW(exit), ALLOW(exit_group), ALLOW(wait4),
    ALLOW(waitid), ALLOW(kill), ALLOW(tkill), ALLOW(tgkill), ALLOW(getpid), ALLOW(getppid), ALLOW(gettid),
    ALLOW(getpgid), ALLOW(getsid), ALLOW(setpgid), ALLOW(setsid), ALLOW(set_tid_address), ALLOW(set_robust_list),
    ALLOW(get_robust_list), ALLOW(futex), ALLOW(futex_waitv), ALLOW(futex_wake), ALLOW(futex_wait),
    ALLOW(futex_requeue), ALLOW(rseq), CHECK(prctl, PG_PRCTL), ALLOW(personality), ALLOW(unshare), ALLOW(seccomp),
    ALLOW(pidfd_open), ALLOW(pidfd_send_signal), CHECK(ptrace, PG_PTRACE), ALLOW(process_vm_readv),
    /* Identity, limits and scheduling of the program's own processes (setuid to its own uid, the limits a
     * shell's ulimit sets, nice, affinity); what reaches PID 1 is refused by the checks. */
    ALLOW(getuid), ALLOW(geteuid), ALLOW(getgid), ALLOW(getegid), ALLOW(getresuid), ALLOW(getresgid),
    ALLOW(getgroups), ALLOW(setuid), ALLOW(setgid), ALLOW(setreuid), ALLOW(setregid), ALLOW(setresuid),
    ALLOW(setresgid), ALLOW(setfsuid), ALLOW(setfsgid), ALLOW(setgroups), ALLOW(capget), ALLOW(capset),
    ALLOW(getrlimit), ALLOW(setrlimit), CHECK(prlimit64, PG_PID1), ALLOW(getrusage), ALLOW(times),
    ALLOW(getpriority), CHECK(setpriority, PG_PRIO), ALLOW(sched_yield), ALLOW(sched_getparam),
    ALLOW(sched_getscheduler), ALLOW(sched_getattr), ALLOW(sched_getaffinity), ALLOW(sched_get_priority_max),
    ALLOW(sched_get_priority_min), ALLOW(sched_rr_get_interval), CHECK(sched_setparam, PG_PID1),
    CHECK(sched_setscheduler, PG_PID1), CHECK(sched_setaffinity, PG_PID1), CHECK(sched_setattr, PG_PID1),
    ALLOW(ioprio_get), CHECK(ioprio_set, PG_IOPRIO), ALLOW(getcpu),
    /* Signals and interval timers. */
    ALLOW(rt_sigaction), ALLOW(rt_sigprocmask), ALLOW(rt_sigreturn), ALLOW(rt_sigpending), ALLOW(rt_sigtimedwait),
    ALLOW(rt_sigqueueinfo), ALLOW(rt_tgsigqueueinfo), ALLOW(rt_sigsuspend), ALLOW(sigaltstack), ALLOW(getitimer),
    ALLOW(setitimer), ALLOW(restart_syscall),
    /* Clocks and sleeping (most clock reads are in the vDSO; a program under Valgrind makes them as calls). */
    ALLOW(nanosleep), ALLOW(clock_nanosleep), ALLOW(clock_gettime), ALLOW(clock_getres), ALLOW(gettimeofday),
    ALLOW(timer_create), ALLOW(timer_settime), ALLOW(timer_gettime), ALLOW(timer_getoverrun), ALLOW(timer_delete),
    /* What the machine is: uname, sysinfo (nproc, free), getrandom (libstdc++'s random_device, Python). */
    ALLOW(uname), ALLOW(sysinfo), ALLOW(getrandom),
    /* Sockets: TCP over the run's loopback and connected unix pairs, as the checks allow (PG_SOCKET). */
    CHECK(socket, PG_SOCKET), CHECK(socketpair, PG_PAIR), CHECK(setsockopt, PG_SOCKOPT), ALLOW(getsockopt),
    ALLOW(bind), ALLOW(listen), ALLOW(accept), ALLOW(accept4), ALLOW(connect), ALLOW(shutdown), ALLOW(getsockname),
    ALLOW(getpeername), ALLOW(sendto), ALLOW(recvfrom), ALLOW(sendmsg), ALLOW(recvmsg), ALLOW(sendmmsg),
    ALLOW(recvmmsg),
    /* SysV IPC and POSIX message queues of the run's own IPC namespace (ipcmk, shared-memory programs). */
    ALLOW(shmget), ALLOW(shmat), ALLOW(shmdt), ALLOW(shmctl), ALLOW(semget), ALLOW(semop), ALLOW(semtimedop),
    ALLOW(semctl), ALLOW(msgget), ALLOW(msgsnd), ALLOW(msgrcv), ALLOW(msgctl), ALLOW(mq_open), ALLOW(mq_unlink),
    ALLOW(mq_timedsend), ALLOW(mq_timedreceive), ALLOW(mq_notify), ALLOW(mq_getsetattr),
#if defined(__x86_64__)
    /* x86_64's older calls, which aarch64 has only in their *at form (or not at all): glibc still makes some
     * (fork through clone, but Valgrind and static programs make the rest), arch_prctl sets a thread's TLS. */
    ALLOW(open), ALLOW(creat), ALLOW(stat), ALLOW(lstat), ALLOW(access), ALLOW(pipe), ALLOW(dup2), ALLOW(poll),
    ALLOW(select), ALLOW(epoll_create), ALLOW(epoll_wait), ALLOW(eventfd), ALLOW(signalfd), ALLOW(inotify_init),
    ALLOW(getdents), ALLOW(rename), ALLOW(mkdir), ALLOW(rmdir), ALLOW(link), ALLOW(unlink), ALLOW(symlink),
    ALLOW(readlink), ALLOW(mknod), CHECK(chmod, PG_MODE1), ALLOW(chown), ALLOW(lchown), ALLOW(utime),
    ALLOW(utimes), ALLOW(futimesat), ALLOW(fork), ALLOW(vfork), ALLOW(pause), ALLOW(alarm), ALLOW(time),
    ALLOW(arch_prctl), ALLOW(getpgrp),
#endif
};
#undef ALLOW
#undef CHECK

#ifdef PG_COMPAT_ARCH
/*
 * i386, the calls of a 32-bit program or of int 0x80 from any x86_64 program, by i386's numbers (written out:
 * the headers of a 64-bit build have no names for them). The same groups and checks as above, with the
 * calls i386 has on top: the 32-bit uid calls, *64 file calls, *_time64 clocks and the ipc() multiplexer
 * (its arguments are registers). socketcall() has no line (see above). fadvise64 does nothing: i386 splits
 * the 64-bit offsets over two arguments, so the advice moves.
 */
#define ALLOW32(nr, name) {(nr), PG_ALLOW}
#define CHECK32(nr, name, check) {(nr), (check)}
static const struct pg_rule pg_compat_rules[] = {
    /* Files and descriptors. */
    ALLOW32(3, read), ALLOW32(4, write), ALLOW32(145, readv), ALLOW32(146, writev), ALLOW32(180, pread64), ALLOW32(181, pwrite64), ALLOW32(333, preadv),
    ALLOW32(334, pwritev), CHECK32(378, preadv2, PG_RWF), CHECK32(379, pwritev2, PG_RWF), ALLOW32(5, open), ALLOW32(295, openat),
    ALLOW32(437, openat2), ALLOW32(8, creat), ALLOW32(6, close), ALLOW32(436, close_range), ALLOW32(19, lseek), ALLOW32(140, _llseek), ALLOW32(41, dup),
    ALLOW32(63, dup2), ALLOW32(330, dup3), ALLOW32(42, pipe), ALLOW32(331, pipe2), CHECK32(55, fcntl, PG_FCNTL), CHECK32(221, fcntl64, PG_FCNTL),
    ALLOW32(143, flock), ALLOW32(118, fsync), ALLOW32(148, fdatasync), ALLOW32(36, sync), ALLOW32(344, syncfs), ALLOW32(314, sync_file_range),
    ALLOW32(92, truncate), ALLOW32(193, truncate64), ALLOW32(93, ftruncate), ALLOW32(194, ftruncate64), CHECK32(324, fallocate, PG_FALLOC),
    CHECK32(250, fadvise64, PG_NOOP), CHECK32(272, fadvise64_64, PG_NOOP), ALLOW32(225, readahead), ALLOW32(187, sendfile),
    ALLOW32(239, sendfile64), ALLOW32(313, splice), ALLOW32(315, tee), ALLOW32(316, vmsplice), ALLOW32(377, copy_file_range), ALLOW32(54, ioctl),
    ALLOW32(106, stat), ALLOW32(108, fstat), ALLOW32(107, lstat), ALLOW32(195, stat64), ALLOW32(197, fstat64), ALLOW32(196, lstat64),
    ALLOW32(300, fstatat64), ALLOW32(383, statx), ALLOW32(99, statfs), ALLOW32(100, fstatfs), ALLOW32(268, statfs64), ALLOW32(269, fstatfs64),
    ALLOW32(33, access), ALLOW32(307, faccessat), ALLOW32(439, faccessat2), ALLOW32(141, getdents), ALLOW32(220, getdents64), ALLOW32(183, getcwd),
    ALLOW32(12, chdir), ALLOW32(133, fchdir), ALLOW32(38, rename), ALLOW32(302, renameat), ALLOW32(353, renameat2), ALLOW32(39, mkdir),
    ALLOW32(296, mkdirat), ALLOW32(40, rmdir), ALLOW32(9, link), ALLOW32(303, linkat), ALLOW32(10, unlink), ALLOW32(301, unlinkat), ALLOW32(83, symlink),
    ALLOW32(304, symlinkat), ALLOW32(85, readlink), ALLOW32(305, readlinkat), ALLOW32(14, mknod), ALLOW32(297, mknodat), ALLOW32(60, umask),
    CHECK32(15, chmod, PG_MODE1), CHECK32(94, fchmod, PG_MODE1), CHECK32(306, fchmodat, PG_MODE2), CHECK32(452, fchmodat2, PG_MODE2),
    ALLOW32(182, chown), ALLOW32(95, fchown), ALLOW32(16, lchown), ALLOW32(212, chown32), ALLOW32(207, fchown32), ALLOW32(198, lchown32),
    ALLOW32(298, fchownat), ALLOW32(30, utime), ALLOW32(271, utimes), ALLOW32(299, futimesat), ALLOW32(320, utimensat), ALLOW32(412, utimensat_time64),
    ALLOW32(229, getxattr), ALLOW32(230, lgetxattr), ALLOW32(231, fgetxattr), ALLOW32(232, listxattr), ALLOW32(233, llistxattr),
    ALLOW32(234, flistxattr), ALLOW32(226, setxattr), ALLOW32(227, lsetxattr), ALLOW32(228, fsetxattr), ALLOW32(235, removexattr),
    ALLOW32(236, lremovexattr), ALLOW32(237, fremovexattr), ALLOW32(356, memfd_create),
    /* Waiting on descriptors, timers, signals and file events. */
    ALLOW32(168, poll), ALLOW32(309, ppoll), ALLOW32(414, ppoll_time64), ALLOW32(82, select), ALLOW32(142, _newselect), ALLOW32(308, pselect6),
    ALLOW32(413, pselect6_time64), ALLOW32(254, epoll_create), ALLOW32(329, epoll_create1), ALLOW32(255, epoll_ctl), ALLOW32(256, epoll_wait),
    ALLOW32(319, epoll_pwait), ALLOW32(441, epoll_pwait2), ALLOW32(323, eventfd), ALLOW32(328, eventfd2), ALLOW32(321, signalfd),
    ALLOW32(327, signalfd4), ALLOW32(322, timerfd_create), ALLOW32(325, timerfd_settime), ALLOW32(326, timerfd_gettime),
    ALLOW32(411, timerfd_settime64), ALLOW32(410, timerfd_gettime64), ALLOW32(291, inotify_init), ALLOW32(332, inotify_init1),
    ALLOW32(292, inotify_add_watch), ALLOW32(293, inotify_rm_watch),
    /* Memory. */
    ALLOW32(45, brk), ALLOW32(90, mmap), ALLOW32(192, mmap2), ALLOW32(91, munmap), ALLOW32(163, mremap), ALLOW32(125, mprotect), ALLOW32(144, msync),
    CHECK32(219, madvise, PG_MADV), ALLOW32(150, mlock), ALLOW32(376, mlock2), ALLOW32(151, munlock), ALLOW32(152, mlockall), ALLOW32(153, munlockall),
    ALLOW32(375, membarrier), ALLOW32(381, pkey_alloc), ALLOW32(382, pkey_free), ALLOW32(380, pkey_mprotect), ALLOW32(274, mbind),
    ALLOW32(275, get_mempolicy), ALLOW32(276, set_mempolicy), ALLOW32(462, mseal),
    /* Processes and threads (set_thread_area sets i386's TLS). */
    CHECK32(120, clone, PG_CLONE), ALLOW32(2, fork), ALLOW32(190, vfork), ALLOW32(11, execve), ALLOW32(358, execveat), ALLOW32(1, exit),
    ALLOW32(252, exit_group), ALLOW32(114, wait4), ALLOW32(7, waitpid), ALLOW32(284, waitid), ALLOW32(37, kill), ALLOW32(238, tkill), ALLOW32(270, tgkill),
    ALLOW32(20, getpid), ALLOW32(64, getppid), ALLOW32(224, gettid), ALLOW32(132, getpgid), ALLOW32(65, getpgrp), ALLOW32(147, getsid), ALLOW32(57, setpgid),
    ALLOW32(66, setsid), ALLOW32(258, set_tid_address), ALLOW32(311, set_robust_list), ALLOW32(312, get_robust_list), ALLOW32(240, futex),
    ALLOW32(422, futex_time64), ALLOW32(449, futex_waitv), ALLOW32(454, futex_wake), ALLOW32(455, futex_wait), ALLOW32(456, futex_requeue),
    ALLOW32(386, rseq), ALLOW32(243, set_thread_area), ALLOW32(244, get_thread_area), CHECK32(172, prctl, PG_PRCTL), ALLOW32(136, personality),
    ALLOW32(310, unshare), ALLOW32(354, seccomp), ALLOW32(434, pidfd_open), ALLOW32(424, pidfd_send_signal), CHECK32(26, ptrace, PG_PTRACE),
    ALLOW32(347, process_vm_readv),
    /* Identity, limits and scheduling. */
    ALLOW32(24, getuid), ALLOW32(49, geteuid), ALLOW32(47, getgid), ALLOW32(50, getegid), ALLOW32(199, getuid32), ALLOW32(201, geteuid32),
    ALLOW32(200, getgid32), ALLOW32(202, getegid32), ALLOW32(165, getresuid), ALLOW32(171, getresgid), ALLOW32(209, getresuid32),
    ALLOW32(211, getresgid32), ALLOW32(80, getgroups), ALLOW32(205, getgroups32), ALLOW32(23, setuid), ALLOW32(46, setgid), ALLOW32(213, setuid32),
    ALLOW32(214, setgid32), ALLOW32(70, setreuid), ALLOW32(71, setregid), ALLOW32(203, setreuid32), ALLOW32(204, setregid32), ALLOW32(164, setresuid),
    ALLOW32(170, setresgid), ALLOW32(208, setresuid32), ALLOW32(210, setresgid32), ALLOW32(138, setfsuid), ALLOW32(139, setfsgid),
    ALLOW32(215, setfsuid32), ALLOW32(216, setfsgid32), ALLOW32(81, setgroups), ALLOW32(206, setgroups32), ALLOW32(184, capget), ALLOW32(185, capset),
    ALLOW32(76, getrlimit), ALLOW32(191, ugetrlimit), ALLOW32(75, setrlimit), CHECK32(340, prlimit64, PG_PID1), ALLOW32(77, getrusage),
    ALLOW32(43, times), ALLOW32(96, getpriority), CHECK32(97, setpriority, PG_PRIO), ALLOW32(158, sched_yield), ALLOW32(155, sched_getparam),
    ALLOW32(157, sched_getscheduler), ALLOW32(352, sched_getattr), ALLOW32(242, sched_getaffinity), ALLOW32(159, sched_get_priority_max),
    ALLOW32(160, sched_get_priority_min), ALLOW32(161, sched_rr_get_interval), ALLOW32(423, sched_rr_get_interval_time64),
    CHECK32(154, sched_setparam, PG_PID1), CHECK32(156, sched_setscheduler, PG_PID1), CHECK32(241, sched_setaffinity, PG_PID1),
    CHECK32(351, sched_setattr, PG_PID1), ALLOW32(290, ioprio_get), CHECK32(289, ioprio_set, PG_IOPRIO), ALLOW32(318, getcpu),
    /* Signals (the old sigaction family too) and interval timers. */
    ALLOW32(174, rt_sigaction), ALLOW32(175, rt_sigprocmask), ALLOW32(173, rt_sigreturn), ALLOW32(176, rt_sigpending),
    ALLOW32(177, rt_sigtimedwait), ALLOW32(421, rt_sigtimedwait_time64), ALLOW32(178, rt_sigqueueinfo), ALLOW32(335, rt_tgsigqueueinfo),
    ALLOW32(179, rt_sigsuspend), ALLOW32(67, sigaction), ALLOW32(126, sigprocmask), ALLOW32(119, sigreturn), ALLOW32(72, sigsuspend),
    ALLOW32(73, sigpending), ALLOW32(186, sigaltstack), ALLOW32(29, pause), ALLOW32(27, alarm), ALLOW32(105, getitimer), ALLOW32(104, setitimer),
    ALLOW32(0, restart_syscall),
    /* Clocks and sleeping. */
    ALLOW32(162, nanosleep), ALLOW32(267, clock_nanosleep), ALLOW32(407, clock_nanosleep_time64), ALLOW32(265, clock_gettime),
    ALLOW32(403, clock_gettime64), ALLOW32(266, clock_getres), ALLOW32(406, clock_getres_time64), ALLOW32(78, gettimeofday), ALLOW32(13, time),
    ALLOW32(259, timer_create), ALLOW32(260, timer_settime), ALLOW32(409, timer_settime64), ALLOW32(261, timer_gettime),
    ALLOW32(408, timer_gettime64), ALLOW32(262, timer_getoverrun), ALLOW32(263, timer_delete),
    /* What the machine is. */
    ALLOW32(122, uname), ALLOW32(116, sysinfo), ALLOW32(355, getrandom),
    /* Sockets, the direct calls (Linux 4.3 on). */
    CHECK32(359, socket, PG_SOCKET), CHECK32(360, socketpair, PG_PAIR), CHECK32(366, setsockopt, PG_SOCKOPT), ALLOW32(365, getsockopt),
    ALLOW32(361, bind), ALLOW32(363, listen), ALLOW32(364, accept4), ALLOW32(362, connect), ALLOW32(373, shutdown), ALLOW32(367, getsockname),
    ALLOW32(368, getpeername), ALLOW32(369, sendto), ALLOW32(371, recvfrom), ALLOW32(370, sendmsg), ALLOW32(372, recvmsg), ALLOW32(345, sendmmsg),
    ALLOW32(337, recvmmsg), ALLOW32(417, recvmmsg_time64),
    /* SysV IPC and POSIX message queues. */
    ALLOW32(117, ipc), ALLOW32(395, shmget), ALLOW32(397, shmat), ALLOW32(398, shmdt), ALLOW32(396, shmctl), ALLOW32(393, semget),
    ALLOW32(420, semtimedop_time64), ALLOW32(394, semctl), ALLOW32(399, msgget), ALLOW32(400, msgsnd), ALLOW32(401, msgrcv), ALLOW32(402, msgctl),
    ALLOW32(277, mq_open), ALLOW32(278, mq_unlink), ALLOW32(279, mq_timedsend), ALLOW32(418, mq_timedsend_time64), ALLOW32(280, mq_timedreceive),
    ALLOW32(419, mq_timedreceive_time64), ALLOW32(281, mq_notify), ALLOW32(282, mq_getsetattr),
};
#undef ALLOW32
#undef CHECK32
#endif

/* The program under construction: instructions, and the jumps still to be pointed at a target's block. */
struct pg_program {
    struct sock_filter *code;
    int length;
    int fixups;
    unsigned short fixup_at[BPF_MAXINSNS];
    unsigned char fixup_to[BPF_MAXINSNS];
    int start[PG_TARGETS];
};

static void pg_emit(struct pg_program *p, struct sock_filter instruction) {
    if (p->length < BPF_MAXINSNS) p->code[p->length] = instruction;
    p->length++;
}

/* An unconditional jump to a target's block, placed once every block is laid out: BPF_JA takes a 32-bit
 * offset, where a conditional jump takes 8 bits; so every conditional jump below skips one instruction at most. */
static void pg_goto(struct pg_program *p, unsigned char target) {
    if (p->fixups < BPF_MAXINSNS && p->length < BPF_MAXINSNS) {
        p->fixup_at[p->fixups] = (unsigned short)p->length;
        p->fixup_to[p->fixups] = target;
    }
    p->fixups++;
    pg_emit(p, (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA | BPF_K, 0));
}

/* The calls from first to limit, each number's target a run of its own: nr >= start of the middle run goes
 * right, else left; a run alone jumps to its target. About log2(runs) compares a call. */
static void pg_search(struct pg_program *p, const unsigned short *run_start, const unsigned char *run_target, int first, int limit) {
    if (limit - first == 1) {
        pg_goto(p, run_target[first]);
        return;
    }
    int middle = first + (limit - first) / 2;
    pg_emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, run_start[middle], 0, 1));
    int right = p->length;
    pg_emit(p, (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA | BPF_K, 0));
    pg_search(p, run_start, run_target, first, middle);
    if (right < BPF_MAXINSNS) p->code[right].k = (unsigned)(p->length - right - 1);
    pg_search(p, run_start, run_target, middle, limit);
}

/* One arch's table: A holds the call's number. A number the table does not list is PG_NOSYS. Returns -1
 * when the table names a number twice, one out of range, or a target that does not exist. */
static int pg_dispatch(struct pg_program *p, const struct pg_rule *rules, int count) {
    unsigned char target_of[PG_NR_LIMIT];
    memset(target_of, PG_NOSYS, sizeof target_of);
    for (int i = 0; i < count; i++) {
        if (rules[i].nr >= PG_NR_LIMIT || rules[i].target >= PG_TARGETS || target_of[rules[i].nr] != PG_NOSYS) return -1;
        target_of[rules[i].nr] = rules[i].target;
    }
    unsigned short run_start[PG_NR_LIMIT + 1];
    unsigned char run_target[PG_NR_LIMIT + 1];
    int runs = 0;
    for (int nr = 0; nr < PG_NR_LIMIT; nr++) {
        if (runs == 0 || run_target[runs - 1] != target_of[nr]) {
            run_start[runs] = (unsigned short)nr;
            run_target[runs++] = target_of[nr];
        }
    }
    /* Every number from the limit up (x32's among them) is refused. */
    if (run_target[runs - 1] != PG_NOSYS) {
        run_start[runs] = PG_NR_LIMIT;
        run_target[runs++] = PG_NOSYS;
    }
    pg_search(p, run_start, run_target, 0, runs);
    return 0;
}

/* A check's tests in order, the first that holds deciding, then its otherwise. Returns -1 for a check that
 * would jump back (the program runs forward only) or that has no test. */
static int pg_check(struct pg_program *p, int check) {
    const struct pg_check *c = &pg_checks[check - PG_VERDICTS];
    if (c->count < 1 || c->count > PG_TESTS_MAX || c->otherwise >= PG_TARGETS || (c->otherwise >= PG_VERDICTS && c->otherwise <= check)) {
        return -1;
    }
    int loaded = -1;
    unsigned masked = 0;
    for (int i = 0; i < c->count; i++) {
        const struct pg_test *t = &c->tests[i];
        if (t->arg > 5 || t->then >= PG_TARGETS || (t->then >= PG_VERDICTS && t->then <= check)) return -1;
        /* A is reloaded only where the last test left something else in it. */
        if (loaded != t->arg || masked != t->mask) {
            pg_emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, args[t->arg])));
            if (t->mask != ~0u) pg_emit(p, (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K, t->mask));
            loaded = t->arg;
            masked = t->mask;
        }
        pg_emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, t->value, 0, 1));
        pg_goto(p, t->then);
    }
    pg_goto(p, c->otherwise);
    return 0;
}

/*
 * Writes the filter into code (room for BPF_MAXINSNS instructions): the arch first (a call of an arch with
 * no table is killed), then each arch's search over its table, the checks, and the verdicts. Returns its
 * length, or -1 with errno EINVAL when the tables are inconsistent or the program would not fit.
 */
static int seccomp_program(struct sock_filter *code) {
    struct pg_program p;
    memset(&p, 0, sizeof p);
    p.code = code;
    pg_emit(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, arch)));
    pg_emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PG_NATIVE_ARCH, 0, 1));
    int native = p.length;
    pg_emit(&p, (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA | BPF_K, 0));
#ifdef PG_COMPAT_ARCH
    pg_emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PG_COMPAT_ARCH, 0, 1));
    int compat = p.length;
    pg_emit(&p, (struct sock_filter)BPF_STMT(BPF_JMP | BPF_JA | BPF_K, 0));
#endif
    pg_goto(&p, PG_KILL);
    int failed = 0;
    code[native].k = (unsigned)(p.length - native - 1);
    pg_emit(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, nr)));
#ifdef PG_X32_BIT
    pg_emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, PG_X32_BIT, 0, 1));
    pg_goto(&p, PG_NOSYS);
#endif
    failed |= pg_dispatch(&p, pg_native_rules, (int)(sizeof pg_native_rules / sizeof pg_native_rules[0]));
#ifdef PG_COMPAT_ARCH
    if (p.length < BPF_MAXINSNS) code[compat].k = (unsigned)(p.length - compat - 1);
    pg_emit(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, nr)));
    failed |= pg_dispatch(&p, pg_compat_rules, (int)(sizeof pg_compat_rules / sizeof pg_compat_rules[0]));
#endif
    for (int check = PG_VERDICTS; check < PG_TARGETS; check++) {
        p.start[check] = p.length;
        failed |= pg_check(&p, check);
    }
    for (int verdict = 0; verdict < PG_VERDICTS; verdict++) {
        p.start[verdict] = p.length;
        pg_emit(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, pg_verdicts[verdict]));
    }
    if (failed || p.length > BPF_MAXINSNS) {
        errno = EINVAL;
        return -1;
    }
    for (int i = 0; i < p.fixups; i++) code[p.fixup_at[i]].k = (unsigned)(p.start[p.fixup_to[i]] - p.fixup_at[i] - 1);
    return p.length;
}
#endif /* PG_NATIVE_ARCH */

int confine_syscalls(void) {
#ifdef PG_NATIVE_ARCH
    struct sock_filter code[BPF_MAXINSNS];
    int length = seccomp_program(code);
    if (length < 0) return -1;
    struct sock_fprog program = {(unsigned short)length, code};
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0);
#else
    return 0;
#endif
}
#endif /* __linux__ */
/* ==== seccomp: end ==== */
