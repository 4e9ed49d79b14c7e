#include "pg-helper.h"

/*
 * The zygote's serving of a worker's runs, from outside the runs' PID namespace: each request of the helper gets
 * a fresh /tmp, /dev/shm, IPC and network namespace, its target (the zygote's own child), its sockets sampled, its
 * tree ended by PID 1 (pg-init.c) and its record sent back. The zygote is the runs' measurer, and no run can name it.
 */

#ifdef __linux__
/* Receives one request and its three descriptors from the helper over the socket; 0 when the helper or PID 1 has
 * gone. PID 1 sends nothing unasked: anything on its socket is its end (a dead PID 1 takes the namespace with it,
 * and every later run would fail to start). */
static int zygote_receive(int sock, struct request *r, int fds[3]) {
    struct pollfd ready[2] = {{sock, POLLIN, 0}, {reaper.sock, POLLIN, 0}};
    while (poll(ready, 2, -1) < 0) {
        if (errno != EINTR) return 0;
    }
    if (ready[1].revents) return 0;
    char header[HEADER_LENGTH];
    char control[FD_CONTROL_SPACE];
    struct iovec iov;
    struct msghdr msg;
    fd_message(&msg, &iov, header, control);
    ssize_t n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    if (n != HEADER_LENGTH) return 0;
    struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
    if (!cmsg || cmsg->cmsg_type != SCM_RIGHTS || cmsg->cmsg_len != CMSG_LEN(3 * sizeof(int))) return 0;
    memcpy(fds, CMSG_DATA(cmsg), 3 * sizeof(int));
    unsigned long long len = body_length(header);
    if (len == 0) return 0;
    memset(r, 0, sizeof *r);
    r->body = malloc((size_t)len);
    if (!r->body) return 0;
    r->len = (size_t)len;
    if (!read_exact(sock, r->body, r->len) || !parse_request(r)) return 0;
    return 1;
}

/*
 * Each run has an IPC namespace of the zygote's making, entered by the zygote itself: when the run ends the zygote
 * is still in it and removes every SysV segment, queue and semaphore set there. Dropping the namespace alone frees
 * them later, from a kernel work queue: a segment left at exit was still in memory when the next run took its
 * cgroup baseline, and hid that much of its peak. 0, or -1 with errno.
 */
static int fresh_ipc(void) {
    return unshare(CLONE_NEWIPC);
}

static void clear_ipc(void) {
    struct shm_info shm;
    int max = shmctl(0, SHM_INFO, (struct shmid_ds *)(void *)&shm);
    for (int i = 0; max >= 0 && shm.used_ids > 0 && i <= max; i++) {
        struct shmid_ds ds;
        int id = shmctl(i, SHM_STAT_ANY, &ds);
        if (id < 0 && errno == EINVAL) id = shmctl(i, SHM_STAT, &ds); /* before Linux 4.17 */
        if (id >= 0) shmctl(id, IPC_RMID, NULL);
    }
    struct msginfo msg;
    max = msgctl(0, MSG_INFO, (struct msqid_ds *)(void *)&msg);
    for (int i = 0; max >= 0 && msg.msgpool > 0 && i <= max; i++) {
        struct msqid_ds ds;
        int id = msgctl(i, MSG_STAT_ANY, &ds);
        if (id < 0 && errno == EINVAL) id = msgctl(i, MSG_STAT, &ds);
        if (id >= 0) msgctl(id, IPC_RMID, NULL);
    }
    struct seminfo sem;
    max = semctl(0, 0, SEM_INFO, &sem);
    for (int i = 0; max >= 0 && sem.semusz > 0 && i <= max; i++) {
        struct semid_ds ds;
        int id = semctl(i, 0, SEM_STAT_ANY, &ds);
        if (id < 0 && errno == EINVAL) id = semctl(i, 0, SEM_STAT, &ds);
        if (id >= 0) semctl(id, 0, IPC_RMID);
    }
}

/* One record to the helper, in one message of its exact size. */
static void send_report(int sock, const struct run_report *rep) {
    if (!write_all(sock, rep, sizeof *rep)) _exit(0); /* the helper is gone, and its runs with it */
}

static void send_nostart(int sock, const char *stage, int err) {
    struct run_report rep;
    memset(&rep, 0, sizeof rep);
    snprintf(rep.stage, sizeof rep.stage, "%s", stage);
    rep.err = err;
    send_report(sock, &rep);
}

static void close_socket_sampler(void) {
    sockets.sampling = 0;
    int *fds[3] = {&sockets.diag, &sockets.stat, &sockets.stat6};
    for (int i = 0; i < 3; i++) {
        if (*fds[i] >= 0) close(*fds[i]);
        *fds[i] = -1;
    }
}

/* ---------------------------------------------------------------------------------------------
 * The zygote's requests to PID 1, one byte each on their socketpair: what only a process of the runs' namespace
 * can do. kill(-1, ...) from the zygote would signal every process of our uid on the host.
 */
struct reaper_link reaper = {.sock = -1};

static void ask_reaper(char request) {
    if (send(reaper.sock, &request, 1, MSG_NOSIGNAL) != 1) _exit(0); /* PID 1 is gone, and the namespace with it */
}

/* The timeout's signals: every process of the runs' namespace (the target too, which the caller signals itself). */
void signal_runs(int sig) {
    ask_reaper(sig == SIGKILL ? REAPER_KILL : REAPER_TERM);
}

/* The end of a run: PID 1 kills and reaps what is left, and answers with what it reaped. */
static void end_of_run(struct reaped *got) {
    ask_reaper(REAPER_END);
    ssize_t n;
    do {
        n = recv(reaper.sock, got, sizeof *got, 0);
    } while (n < 0 && errno == EINTR);
    if (n != (ssize_t)sizeof *got) _exit(0);
}

/*
 * The end of a run's tree, once its target is reaped. A run's processes are PID 1's children (orphans reparent to
 * it) but for the target's clone(CLONE_PARENT) siblings, which are ours: where one is left, PID 1 kills the
 * namespace first, and we reap them until none is left (PID 1 and the network maker are not taken: fork_quiet).
 * Only then does PID 1 end the run: a sibling's children reach PID 1 only once the sibling has exited, and reaped
 * after PID 1's answer their rusage went into the next run (300 ms and 168 MB of one run read as the next's).
 * What PID 1 reaped joins the target's own wait4 result: one tree, as if one process had reaped it all.
 */
static void end_tree(struct outcome *out, struct reaped *got) {
    reap_children(&out->tree, 0, WNOHANG);
    int siblings = !out->tree.childless;
    if (siblings) {
        signal_runs(SIGKILL);
        reap_children(&out->tree, 1, 0);
    }
    end_of_run(got);
    add_usage(&out->tree, &got->tree.usage);
    out->tree.leftovers += got->tree.leftovers;
}

/*
 * Each run, served by the zygote outside the runs' PID namespace: the target is the zygote's child (its pid lands in
 * that namespace), so the target has no pid, no /proc entry and no pidfd for the process that measures it, and
 * cannot stop, kill or trace it. Measured here, weighed by the helper (answer_run), which gets the counters'
 * readings as they are.
 */
void serve_runs(int sock) {
    int tmp_mounted = 0, shm_mounted = 0;
    int fresh = 0; /* /tmp and /dev/shm are new and no run has had them */
    int has_shm = is_directory("/dev/shm");
    size_tmpfs();
    for (;;) {
        struct request r;
        int fds[3];
        if (!zygote_receive(sock, &r, fds)) _exit(0);
        long long own_start = own_cpu_us(); /* what of the helper's CPU cgroup delta is our own work */
        if (!fresh && (fresh_tmpfs("/tmp", &tmp_mounted, 1) != 0 || (has_shm && fresh_tmpfs("/dev/shm", &shm_mounted, 0) != 0))) {
            send_nostart(sock, "sandbox_tmp", errno);
        } else if (fresh_ipc() != 0) {
            send_nostart(sock, "sandbox_ipc", errno);
        } else if (enter_fresh_netns() != 0) {
            send_nostart(sock, "sandbox_net", errno);
        } else {
            struct spawn s = {&r, {fds[0], fds[1], fds[2]}, 1, 0, NULL, 0, -1};
            char failure[96];
            struct run_report rep;
            struct run_counters before;
            read_run_counters(&before);
            long long started = now_us();
            pid_t pid = spawn_target(&s, failure, sizeof failure);
            fresh = 0;
            for (int i = 0; i < 3; i++) close(fds[i]);
            struct reaped reaped;
            if (pid < 0) {
                end_of_run(&reaped); /* the pid counter back: a child that failed before exec took a pid */
                report_nostart(&rep, failure);
                send_report(sock, &rep);
            } else {
                struct outcome out;
                memset(&out, 0, sizeof out);
                /* In the run's own namespace, which this process joined for it. */
                sockets.sampling = 1;
                wait_target(pid, s.pidfd, &r, 1, started, 0, &out);
                if (!sockets.sampling) out.socket_peak = -1;
                close_socket_sampler();
                end_tree(&out, &reaped);
                clear_ipc();
                int garbage_left = collect_unix_garbage();
                /* The run's /tmp and /dev/shm go now, before the reply: left until the next run, their files
                 * would hold memory charged to the cgroup when the helper takes the next run's baseline (hiding
                 * that much of the next run's peak) and outlive the run. The check at the next start repeats. */
                fresh = fresh_tmpfs("/tmp", &tmp_mounted, 1) == 0 && (!has_shm || fresh_tmpfs("/dev/shm", &shm_mounted, 0) == 0);
                report_outcome(&rep, &out);
                rep.before = before;
                read_run_counters(&rep.after);
                /* PID 1's faults are the memory cgroup's too, and none of the tree's. */
                if (rep.after.memcg_faults >= 0 && reaped.own_faults > 0) rep.after.memcg_faults -= reaped.own_faults;
                rep.garbage_left = garbage_left;
                rep.tasks = reaped.tasks;
                rep.socket_peak = out.socket_peak;
                long long own_end = own_cpu_us();
                rep.init_cpu_us = (own_start >= 0 && own_end >= own_start ? own_end - own_start : 0) + (reaped.own_cpu_us > 0 ? reaped.own_cpu_us : 0);
                send_report(sock, &rep);
            }
        }
        free_request(&r);
    }
}
#endif /* __linux__ */
