#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int add(int a, int b) {
    long sum = (long) a + b; /*R*/
    if (sum > 1000000) /*R*/
        sum = 1000000; /*N*/
    return (int) sum; /*R*/
}

int sub(int a, int b) {
    int difference = a - b; /*N*/
    return difference < 0 ? -difference : difference; /*N*/
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: calc add|sub|fork A B\n");
        return 2;
    }
    int a = atoi(argv[2]);
    int b = atoi(argv[3]);
    if (strcmp(argv[1], "add") == 0) {
        printf("%d\n", add(a, b));
    } else if (strcmp(argv[1], "sub") == 0) {
        printf("%d\n", sub(a, b));
    } else if (strcmp(argv[1], "fork") == 0) {
        pid_t child = fork();
        if (child == 0) {
            printf("%d\n", add(a, b));
            exit(0);
        }
        waitpid(child, NULL, 0);
    }
    return 0;
}
