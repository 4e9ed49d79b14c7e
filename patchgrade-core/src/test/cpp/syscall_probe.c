/*
 * System calls that no seccomp table lists, made as a program would: one line each, "NAME ok" where the
 * call did its work, "NAME refused errno=N" where it failed.
 *   unlisted     landlock_create_ruleset (asking the ABI version: it changes nothing), syscall 1000
 *   kexec        kexec_load with no segments (inside the sandbox only: as root outside it would unload a
 *                loaded crash kernel)
 *   compat       (x86_64) through int 0x80, by i386's numbers: getpid, then landlock_create_ruleset
 *   x32          (x86_64) getpid by its x32 number
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#define PG_LANDLOCK_CREATE_RULESET 444 /* one number on every architecture */
#define PG_LANDLOCK_CREATE_RULESET_VERSION 1

static void report(const char *name, long result, int error) {
    if (result >= 0) printf("%s ok\n", name);
    else printf("%s refused errno=%d\n", name, error);
}

static void call(const char *name, long nr, long a0, long a1, long a2, long a3) {
    errno = 0;
    long result = syscall(nr, a0, a1, a2, a3);
    report(name, result, errno);
}

#if defined(__x86_64__)
/* i386's calling convention: number in eax, arguments in ebx, ecx, edx; -errno back in eax. */
static void compat_call(const char *name, long nr, long a0, long a1, long a2) {
    long result;
    __asm__ volatile("int $0x80" : "=a"(result) : "a"(nr), "b"(a0), "c"(a1), "d"(a2) : "memory");
    report(name, result < 0 && result > -4096 ? -1 : result, (int)-result);
}
#endif

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "unlisted") == 0) {
        call("landlock", PG_LANDLOCK_CREATE_RULESET, 0, 0, PG_LANDLOCK_CREATE_RULESET_VERSION, 0);
        call("nr1000", 1000, 0, 0, 0, 0);
        return 0;
    }
    if (strcmp(mode, "kexec") == 0) {
        call("kexec_load", SYS_kexec_load, 0, 0, 0, 0);
        return 0;
    }
#if defined(__x86_64__)
    if (strcmp(mode, "compat") == 0) {
        compat_call("compat-getpid", 20, 0, 0, 0);
        compat_call("compat-landlock", PG_LANDLOCK_CREATE_RULESET, 0, 0, PG_LANDLOCK_CREATE_RULESET_VERSION);
        return 0;
    }
    if (strcmp(mode, "x32") == 0) {
        call("x32-getpid", 39 | 0x40000000, 0, 0, 0, 0);
        return 0;
    }
#endif
    fprintf(stderr, "usage: syscall_probe unlisted|kexec|compat|x32\n");
    return 2;
}
