#include "pg-helper.h"

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
int confine_syscalls(void) {
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
         * UFFDIO_COPY and UFFDIO_CONTINUE: a run hid 50 MB in a child the kernel reaped) or by another
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
         * cgroup counts (a run held 1,000 MB in UDP or netlink queues, read back whole, with a tree
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
         * own that no TCP dump lists (a run parked 300 MB there with a tree peak of 82 MB). */
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
         * waited on it, hid 1,000 MB. Every socket keeps the kernel's default buffer. */
        PG_LOAD(97, args[1]),
        PG_JEQ(98, SOL_SOCKET, 99, ALLOW),
        PG_LOAD(99, args[2]),
        PG_JEQ(100, SO_RCVBUF, NOOP, ALLOW),
        /* FALLOC: fallocate(fd, mode, offset, length) allocates, and grows a file, as a write would; its other modes
         * pass the output cap, which is RLIMIT_FSIZE (FALLOC_FL_INSERT_RANGE made a kept stream of 8 TB,
         * FALLOC_FL_KEEP_SIZE held 2 GB of disk behind 6 bytes): "Operation not supported", as on a file system
         * without them. */
        PG_LOAD(101, args[1]),
        PG_JEQ(102, 0, ALLOW, NOTSUP),
        /* MODE1/MODE2: chmod(path, mode), fchmod(fd, mode), fchmodat(dir, path, mode, ...): no set-user-ID or
         * set-group-ID bit. A run owns its output files on the host, and made its kept stream a set-user-ID copy of a
         * program for any local user to run; the modes are reset when the run ends, and never get
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
