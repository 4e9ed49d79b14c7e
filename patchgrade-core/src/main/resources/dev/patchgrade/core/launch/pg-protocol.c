#include "pg-helper.h"

/* ---------------------------------------------------------------------------------------------
 * Requests. The JVM may queue the next request while a target runs, so that the helper starts it the
 * moment the run before ends. Whatever arrives on fd 0 during a run is read into `ahead` and taken
 * from there first; end of file on fd 0 means the JVM has gone (the lifeline).
 */
static char ahead[64 * 1024];
static size_t ahead_start, ahead_end;

/*
 * The answer to a run that ended, held back until the next run has started when that run's request
 * is here already: the JVM wakes to take the answer while the next target execs, not before it. An
 * answer is never held while the helper waits for the JVM, and always goes before the next one.
 */
static char held_answer[1024];
static size_t held_length;

void send_held_answer(void) {
    if (held_length == 0) return;
    size_t length = held_length;
    held_length = 0;
    if (!write_all(1, held_answer, length)) { /* the JVM has gone: the lifeline ends us */ }
}

/* read_exact on fd 0, through what was read ahead. */
static int read_input(char *into, size_t len) {
    size_t done = 0;
    while (done < len) {
        if (ahead_start < ahead_end) {
            size_t n = ahead_end - ahead_start < len - done ? ahead_end - ahead_start : len - done;
            memcpy(into + done, ahead + ahead_start, n);
            ahead_start += n;
            done += n;
            continue;
        }
        /* Whatever the JVM has sent so far, in one read: a request's header and body, and often the next request. */
        ahead_start = ahead_end = 0;
        send_held_answer(); /* the JVM may be waiting for it before it sends more */
        ssize_t n = read(0, ahead, sizeof ahead);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        ahead_end = (size_t)n;
    }
    return 1;
}

/* Called when a poll saw `revents` on fd 0 during a run: keeps what the JVM queued, and says whether
 * the JVM has gone (end of file, or a hang-up that cannot be read past). */
int lifeline_lost(short revents) {
    if (ahead_start > 0) {
        memmove(ahead, ahead + ahead_start, ahead_end - ahead_start);
        ahead_end -= ahead_start;
        ahead_start = 0;
    }
    if (ahead_end == sizeof ahead) return (revents & (POLLHUP | POLLERR)) != 0;
    ssize_t n = read(0, ahead + ahead_end, sizeof ahead - ahead_end);
    if (n > 0) {
        ahead_end += (size_t)n;
        return 0;
    }
    return !(n < 0 && (errno == EAGAIN || errno == EINTR));
}

/* Whatever the JVM queued while a run went, read without waiting: the next request is then here when the
 * run's answer is written, and the answer can wait for the next run to start (answer_ended). */
static void take_queued_input(void) {
    if (ahead_start == 0 && ahead_end == sizeof ahead) return;
    struct pollfd input = {0, POLLIN, 0};
    if (poll(&input, 1, 0) > 0 && (input.revents & POLLIN)) lifeline_lost(input.revents);
}
#define MAX_REQUEST (64u << 20)

/* The body length a request header ("PGRUN1 <10 digits>\n", not NUL-terminated) announces; 0 for a garbled one. */
unsigned long long body_length(const char *header) {
    char text[HEADER_LENGTH + 1];
    memcpy(text, header, HEADER_LENGTH);
    text[HEADER_LENGTH] = '\0';
    unsigned long long len = 0;
    if (sscanf(text, "PGRUN1 %10llu", &len) != 1 || text[HEADER_LENGTH - 1] != '\n' || len > MAX_REQUEST) return 0;
    return len;
}

struct cursor {
    char *body;
    size_t len, pos;
};

static char *next_field(struct cursor *c) {
    if (c->pos >= c->len) return NULL;
    char *start = c->body + c->pos;
    char *end = memchr(start, '\0', c->len - c->pos);
    if (!end) return NULL;
    c->pos += (size_t)(end - start) + 1;
    return start;
}

static int next_number(struct cursor *c, long long *out) {
    char *field = next_field(c);
    if (!field || !*field) return 0;
    char *end;
    errno = 0;
    *out = strtoll(field, &end, 10);
    return errno == 0 && *end == '\0';
}

static char **next_list(struct cursor *c, long long min) {
    long long count;
    if (!next_number(c, &count) || count < min || count > 100000) return NULL;
    char **list = calloc((size_t)count + 1, sizeof(char *));
    if (!list) return NULL;
    for (long long i = 0; i < count; i++) {
        if (!(list[i] = next_field(c))) {
            free(list);
            return NULL;
        }
    }
    return list;
}

/* Parses a request body in place; the fields point into it. Returns 0 for a garbled body. */
int parse_request(struct request *r) {
    struct cursor c = {r->body, r->len, 0};
    if (!(r->token = next_field(&c)) || !*r->token || strlen(r->token) > 32 || strspn(r->token, "0123456789abcdef") != strlen(r->token)) return 0;
    if (!next_number(&c, &r->timeout_ms) || !next_number(&c, &r->grace_ms) || !next_number(&c, &r->cap)) return 0;
    if (!(r->exe = next_field(&c)) || !(r->cwd = next_field(&c)) || !(r->in_path = next_field(&c)) ||
        !(r->out_path = next_field(&c)) || !(r->err_path = next_field(&c))) return 0;
    if (!(r->argv = next_list(&c, 1))) return 0;
    if (!(r->envp = next_list(&c, 0))) return 0;
    return r->timeout_ms > 0 && r->grace_ms >= 0;
}

void free_request(struct request *r) {
    free(r->argv);
    free(r->envp);
    free(r->body);
    memset(r, 0, sizeof *r);
}

/* Returns 1 with a parsed request from fd 0, 0 at EOF or on a garbled request (the helper then exits). */
int read_request(struct request *r) {
    char header[HEADER_LENGTH];
    memset(r, 0, sizeof *r);
    if (!read_input(header, HEADER_LENGTH)) return 0;
    unsigned long long len = body_length(header);
    if (len == 0) return 0;
    r->body = malloc((size_t)len);
    if (!r->body) return 0;
    r->len = (size_t)len;
    if (!read_input(r->body, r->len) || !parse_request(r)) {
        free_request(r);
        return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------------------------------------
 * Serving requests.
 */
/* One answer line to the JVM, tagged with the request's token. */
void answer(const struct request *r, const char *format, ...) {
    send_held_answer();
    va_list args;
    va_start(args, format);
    vfprintf(stdout, format, args);
    va_end(args);
    fprintf(stdout, " run=%s\n", r->token);
    fflush(stdout);
}

/* The answer to a run that ended: held back (see held_answer) when the next request is here already. */
void answer_ended(const struct request *r, const char *line) {
    send_held_answer();
    int length = snprintf(held_answer, sizeof held_answer, "%s run=%s\n", line, r->token);
    if (length < 0 || (size_t)length >= sizeof held_answer) {
        answer(r, "%s", line);
        return;
    }
    held_length = (size_t)length;
    take_queued_input();
    /* Held only while the whole next request is here: the helper then starts it without waiting on the JVM. */
    size_t have = ahead_end - ahead_start;
    unsigned long long next = have >= HEADER_LENGTH ? body_length(ahead + ahead_start) : 0;
    if (next == 0 || have < HEADER_LENGTH + next) send_held_answer();
}
