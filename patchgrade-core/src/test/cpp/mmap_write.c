/* Attack fixture: rewrites the first bytes of FILE through a shared writable mapping (no write call). Usage: mmap_write FILE */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int fd = open(argv[1], O_RDWR);
    if (fd < 0) { perror("open"); return 1; }
    char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) { perror("mmap"); return 1; }
    memcpy(m, "FORGED", 6);
    munmap(m, 4096);
    if (argc > 2) fsync(fd);
    close(fd);
    printf("mmap-written\n");
    return 0;
}
