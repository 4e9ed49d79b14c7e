/*
 * The launch helper's seccomp program, checked where it is made: the test compiles this file with the
 * helper's seccomp block (seccomp_block.c beside it, copied from between the helper's seccomp markers).
 *   program_check shape    "length=N longest_jump=J": N instructions, J the longest jump any takes; or
 *                          "bad at=PC why=..." for an instruction that is not one the filter may hold
 *   program_check verdicts one line a call read from stdin, "native|compat|ARCH NR [A0..A5]" (numbers in
 *                          C notation), answered with what the program returns: ALLOW, KILL or ERRNO=N
 *   program_check kernel   the kernel takes the program: in a child, NO_NEW_PRIVS and the filter, then
 *                          syscall 1000 and getpid: "kernel nr1000 errno=E getpid ok|failed"
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "seccomp_block.c"

static struct sock_filter code[BPF_MAXINSNS];

static int shape(void) {
    int length = seccomp_program(code);
    if (length < 0) {
        printf("bad at=-1 why=generator errno=%d\n", errno);
        return 1;
    }
    unsigned longest = 0;
    for (int pc = 0; pc < length; pc++) {
        struct sock_filter f = code[pc];
        unsigned far = 0;
        const char *why = NULL;
        switch (f.code) {
        case BPF_LD | BPF_W | BPF_ABS:
            if (f.k >= sizeof(struct seccomp_data) || f.k % 4 != 0) why = "load outside seccomp_data";
            break;
        case BPF_ALU | BPF_AND | BPF_K:
            break;
        case BPF_JMP | BPF_JA | BPF_K:
            far = f.k;
            break;
        case BPF_JMP | BPF_JEQ | BPF_K:
        case BPF_JMP | BPF_JGE | BPF_K:
            far = f.jt > f.jf ? f.jt : f.jf;
            break;
        case BPF_RET | BPF_K:
            break;
        default:
            why = "an opcode the generator does not make";
        }
        if (!why && f.code != (BPF_RET | BPF_K) && (unsigned long)pc + 1 + far >= (unsigned long)length) why = "jump past the end";
        if (!why && pc == length - 1 && f.code != (BPF_RET | BPF_K)) why = "the last instruction does not return";
        if (why) {
            printf("bad at=%d why=%s\n", pc, why);
            return 1;
        }
        if (far > longest) longest = far;
    }
    printf("length=%d longest_jump=%u\n", length, longest);
    return 0;
}

/* The classic BPF subset the generator makes, run as the kernel runs it. */
static unsigned run(int length, const struct seccomp_data *data) {
    unsigned a = 0;
    for (int pc = 0; pc < length; pc++) {
        struct sock_filter f = code[pc];
        switch (f.code) {
        case BPF_LD | BPF_W | BPF_ABS: memcpy(&a, (const char *)data + f.k, 4); break;
        case BPF_ALU | BPF_AND | BPF_K: a &= f.k; break;
        case BPF_JMP | BPF_JA | BPF_K: pc += (int)f.k; break;
        case BPF_JMP | BPF_JEQ | BPF_K: pc += a == f.k ? f.jt : f.jf; break;
        case BPF_JMP | BPF_JGE | BPF_K: pc += a >= f.k ? f.jt : f.jf; break;
        case BPF_RET | BPF_K: return f.k;
        default: return 0xdeadbeefu;
        }
    }
    return 0xdeadbeefu;
}

static int verdicts(void) {
    int length = seccomp_program(code);
    if (length < 0) return 1;
    char arch[32];
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
        struct seccomp_data data;
        memset(&data, 0, sizeof data);
        char *at = line;
        int used = 0;
        if (sscanf(at, "%31s%n", arch, &used) != 1) continue;
        at += used;
        data.arch = strcmp(arch, "native") == 0 ? PG_NATIVE_ARCH
#ifdef PG_COMPAT_ARCH
                    : strcmp(arch, "compat") == 0 ? PG_COMPAT_ARCH
#endif
                    : (unsigned)strtoul(arch, NULL, 0);
        data.nr = (int)strtol(at, &at, 0);
        for (int i = 0; i < 6; i++) data.args[i] = strtoull(at, &at, 0);
        unsigned verdict = run(length, &data);
        if (verdict == SECCOMP_RET_ALLOW) printf("ALLOW\n");
        else if (verdict == SECCOMP_RET_KILL_PROCESS) printf("KILL\n");
        else if ((verdict & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO) printf("ERRNO=%u\n", verdict & SECCOMP_RET_DATA);
        else printf("OTHER=%#x\n", verdict);
    }
    return 0;
}

static int kernel(void) {
    pid_t child = fork();
    if (child == 0) {
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || confine_syscalls() != 0) {
            printf("kernel refused errno=%d\n", errno);
            _exit(1);
        }
        errno = 0;
        long unknown = syscall(1000);
        int unknown_errno = errno;
        pid_t self = (pid_t)syscall(SYS_getpid);
        printf("kernel nr1000 errno=%d getpid %s\n", unknown < 0 ? unknown_errno : 0, self > 0 ? "ok" : "failed");
        fflush(stdout);
        _exit(0);
    }
    int status;
    if (child < 0 || waitpid(child, &status, 0) != child) return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "shape") == 0) return shape();
    if (argc == 2 && strcmp(argv[1], "verdicts") == 0) return verdicts();
    if (argc == 2 && strcmp(argv[1], "kernel") == 0) return kernel();
    fprintf(stderr, "usage: program_check shape|verdicts|kernel\n");
    return 2;
}
