/*
 * Attacking candidate aimed at who waits for a run and who reaps what it leaves: the target's parent (which it can
 * make its tracer, and whose children clone(CLONE_PARENT) makes), and PID 1, which reaps the orphans.
 *   traceme-segv          makes its parent its tracer (PTRACE_TRACEME), prints "traced", then dereferences NULL
 *   traceme-stop SIG      the same, then raises SIG with a handler that prints "resumed" (an untraced program
 *                         prints "traced", "resumed" and exits 0)
 *   traceme-exec PROGRAM [ARGS...]   the same, then execs PROGRAM (a traced exec stops with SIGTRAP for the tracer)
 *   traceme-storm         makes its parent its tracer and stops for it again and again, as fast as it can: it ends
 *                         only when killed
 *   sibling-grandchild MS CMB SMB   a clone(CLONE_PARENT) sibling that touches SMB MB and forks a child that
 *                         touches CMB MB and burns MS ms of CPU; both then sleep; once the child is done the target
 *                         prints "answer" and exits 0, leaving the sibling and its child to the end of the run
 *   pids N                forks N children one after another, each exiting at once: "pid P children C1 C2 ..."
 *   burn MS               burns MS ms of CPU: "burnt"
 *   siblings N MS         N clone(CLONE_PARENT) siblings that each burn MS ms and exit before the target
 *                         does: "siblings N"
 *   fork-flood N          a clone(CLONE_PARENT) sibling forks children that sleep, and goes on forking (up to 2N) once
 *                         it has N: the target then prints "answer" and exits 0, while the sibling still forks
 *   sibling-traceme MS    a clone(CLONE_PARENT) sibling makes its parent (the target's) its tracer, burns MS ms and
 *                         raises SIGUSR1 with a handler that prints "resumed", then sleeps; the target waits for the
 *                         burn to be done (and 100 ms more), prints "answer" and exits 0
 *   stopped-sibling-hides CHURN MB   a clone(CLONE_PARENT) sibling makes its parent its tracer, takes the faults of
 *                         CHURN MB (1 MB mapped, touched and unmapped at a time: a small resident set), then stops
 *                         at a signal; meanwhile the target, ignoring SIGCHLD, has a child (reaped by the kernel)
 *                         touch MB; the target then prints "answer" and exits 0
 *   mq-store VALUE / mq-load   VALUE left in a POSIX message queue "/pg-answer" of the run's IPC namespace, which
 *                         mq-load reads back: "mq:VALUE", or "mq-none errno=E" where it has no such queue
 *   term-proof-fork N MS  blocks SIGTERM, has a clone(CLONE_PARENT) sibling that ignores SIGTERM and forks N
 *                         children as fast as it can (each ignoring SIGTERM, burning MS ms, then sleeping), one more
 *                         each time one ends; prints "forking" and sleeps: it ends only by SIGKILL
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long cpu_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (long long)t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

static void burn(long long ms) {
    long long until = cpu_us() + ms * 1000LL;
    volatile unsigned long x = 0;
    while (cpu_us() < until) {
        for (int i = 0; i < 10000; i++) x += (unsigned long)i;
    }
}

static void touch(long long mb) {
    if (mb <= 0) return;
    size_t bytes = (size_t)mb << 20;
    char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) _exit(3);
    for (size_t i = 0; i < bytes; i += 4096) p[i] = 1;
}

/* A child of our parent's (the same parent, the same exit signal); 0 in the child, like fork. */
static pid_t clone_parent(void) {
    return (pid_t)syscall(SYS_clone, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0);
}

/* The sibling's word that its work is done, and the target's answer once it has it. */
static int done_pipe[2];

static void tell_done(void) {
    if (write(done_pipe[1], "r", 1) != 1) _exit(5);
}

static int answer_when_done(long settle_ms) {
    char r;
    if (read(done_pipe[0], &r, 1) != 1) return 2;
    struct timespec settle = {settle_ms / 1000, (settle_ms % 1000) * 1000000L};
    nanosleep(&settle, NULL);
    printf("answer\n");
    return 0;
}

/* A sibling (see clone_parent) that will tell when it is done, and with `traced` has made its parent its tracer. */
static pid_t sibling_telling_done(int traced) {
    if (pipe(done_pipe) != 0) return -1;
    pid_t sibling = clone_parent();
    if (sibling == 0 && traced && ptrace(PTRACE_TRACEME, 0, 0, 0) != 0) printf("traceme errno=%d\n", errno);
    return sibling;
}

static void resumed(int sig) {
    (void)sig;
    static const char line[] = "resumed\n";
    if (write(1, line, sizeof line - 1) < 0) _exit(4);
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "traceme-exec") == 0 && argc > 2) {
        if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0) printf("traceme errno=%d\n", errno);
        printf("traced\n");
        execv(argv[2], argv + 2);
        printf("exec errno=%d\n", errno);
        return 2;
    }
    if (strcmp(mode, "traceme-storm") == 0) {
        signal(SIGUSR1, SIG_IGN);
        printf("storming\n");
        for (;;) {
            ptrace(PTRACE_TRACEME, 0, 0, 0);
            raise(SIGUSR1);
        }
    }
    if (strcmp(mode, "traceme-segv") == 0 || (strcmp(mode, "traceme-stop") == 0 && argc > 2)) {
        if (ptrace(PTRACE_TRACEME, 0, 0, 0) != 0) printf("traceme errno=%d\n", errno);
        printf("traced\n");
        if (strcmp(mode, "traceme-segv") == 0) {
            volatile int *nowhere = NULL;
            *nowhere = 1;
            return 0;
        }
        int sig = atoi(argv[2]);
        signal(sig, resumed);
        raise(sig);
        return 0;
    }
    if (strcmp(mode, "sibling-grandchild") == 0 && argc > 4) {
        pid_t sibling = sibling_telling_done(0);
        if (sibling < 0) return 2;
        if (sibling == 0) {
            touch(atoll(argv[4]));
            pid_t child = fork();
            if (child == 0) {
                touch(atoll(argv[3]));
                burn(atoll(argv[2]));
                tell_done();
                for (;;) pause();
            }
            for (;;) pause();
        }
        return answer_when_done(0);
    }
    if (strcmp(mode, "pids") == 0 && argc > 2) {
        int n = atoi(argv[2]);
        printf("pid %d children", (int)getpid());
        for (int i = 0; i < n; i++) {
            pid_t child = fork();
            if (child == 0) _exit(0);
            printf(" %d", (int)child);
            waitpid(child, NULL, 0);
        }
        printf("\n");
        return 0;
    }
    if (strcmp(mode, "burn") == 0 && argc > 2) {
        burn(atoll(argv[2]));
        printf("burnt\n");
        return 0;
    }
    if (strcmp(mode, "siblings") == 0 && argc > 3) {
        int n = atoi(argv[2]);
        long long ms = atoll(argv[3]);
        int made = 0;
        for (int i = 0; i < n; i++) {
            pid_t sibling = clone_parent();
            if (sibling == 0) {
                burn(ms);
                _exit(0);
            }
            if (sibling > 0) made++;
        }
        /* Ours to wait for only by the zygote: give them time to end before we do. */
        struct timespec pause_for = {0, 200L * 1000000L + ms * n * 1000000L / 2};
        nanosleep(&pause_for, NULL);
        printf("siblings %d\n", made);
        return 0;
    }
    if (strcmp(mode, "fork-flood") == 0 && argc > 2) {
        int most = atoi(argv[2]);
        pid_t sibling = sibling_telling_done(0);
        if (sibling == 0) {
            for (int made = 0; made < 2 * most;) {
                pid_t child = fork();
                if (child == 0) {
                    for (;;) pause();
                }
                if (child > 0 && ++made == most) tell_done();
            }
            for (;;) pause();
        }
        return sibling < 0 ? 2 : answer_when_done(0);
    }
    if (strcmp(mode, "sibling-traceme") == 0 && argc > 2) {
        pid_t sibling = sibling_telling_done(1);
        if (sibling == 0) {
            burn(atoll(argv[2]));
            tell_done();
            signal(SIGUSR1, resumed);
            raise(SIGUSR1);
            for (;;) pause();
        }
        return sibling < 0 ? 2 : answer_when_done(100);
    }
    if (strcmp(mode, "stopped-sibling-hides") == 0 && argc > 3) {
        pid_t sibling = sibling_telling_done(1);
        if (sibling == 0) {
            for (long long mb = atoll(argv[2]); mb > 0; mb--) {
                char *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (p == MAP_FAILED) _exit(3);
                for (size_t i = 0; i < (1 << 20); i += 4096) p[i] = 1;
                munmap(p, 1 << 20);
            }
            tell_done();
            raise(SIGUSR1);
            _exit(0);
        }
        signal(SIGCHLD, SIG_IGN);
        pid_t hidden = fork();
        if (hidden == 0) {
            touch(atoll(argv[3]));
            _exit(0);
        }
        while (wait(NULL) > 0 || errno == EINTR) { }
        return sibling < 0 ? 2 : answer_when_done(100);
    }
    if (strcmp(mode, "mq-store") == 0 && argc > 2) {
        struct mq_attr attr = {0, 4, 64, 0};
        mqd_t q = mq_open("/pg-answer", O_CREAT | O_WRONLY, 0600, &attr);
        if (q == (mqd_t)-1 || mq_send(q, argv[2], strlen(argv[2]), 0) != 0) {
            printf("mq-store errno=%d\n", errno);
            return 0;
        }
        printf("stored\n");
        return 0;
    }
    if (strcmp(mode, "mq-load") == 0) {
        mqd_t q = mq_open("/pg-answer", O_RDONLY | O_NONBLOCK);
        char value[65];
        ssize_t n = q == (mqd_t)-1 ? -1 : mq_receive(q, value, 64, NULL);
        if (n < 0) {
            printf("mq-none errno=%d\n", errno);
            return 0;
        }
        value[n] = '\0';
        printf("mq:%s\n", value);
        return 0;
    }
    if (strcmp(mode, "term-proof-fork") == 0 && argc > 3) {
        sigset_t term;
        sigemptyset(&term);
        sigaddset(&term, SIGTERM);
        sigprocmask(SIG_BLOCK, &term, NULL);
        signal(SIGTERM, SIG_IGN);
        pid_t sibling = clone_parent();
        if (sibling == 0) {
            int most = atoi(argv[2]), live = 0;
            for (;;) {
                while (live >= most && waitpid(-1, NULL, 0) > 0) live--;
                pid_t child = fork();
                if (child == 0) {
                    burn(atoll(argv[3]));
                    for (;;) pause();
                }
                if (child > 0) live++;
                else sched_yield();
            }
        }
        printf("forking\n");
        for (;;) pause();
    }
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
}
