package dev.patchgrade.core.launch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One resident helper and its pipes. Several threads may queue runs on it: requests are written in
 * the order the runs are queued, the helper answers them in that order, and each thread reads its
 * own answer when every run queued before it has been answered.
 */
final class HelperProcess {
    /** How long a failed helper may take to kill its own tree before it is killed. */
    static final Duration CLEANUP = Duration.ofSeconds(2);
    private final Process process;
    private final OutputStream requests;
    private final BufferedReader replies;
    private final String slot;
    private final Path pidFile;
    Map<String, String> ready;
    /** The helper's user, known once it answered: the only user whose process group its pid file may name. */
    private long helperUid = -1;
    /** Runs queued or running on it; guarded by the launcher's list of helpers. */
    int load;
    /** Scratch file names free for a run; a slot is a run's until its output is hashed. */
    private final Deque<String> freeSlots = new ConcurrentLinkedDeque<>();
    private final AtomicLong slots = new AtomicLong();
    /** Orders writing a request with joining the queue. */
    private final Object writing = new Object();
    /** The runs whose requests were written and are not answered yet, oldest first; guarded by itself. */
    private final Deque<Ticket> queue = new ArrayDeque<>();
    private boolean broken;

    private record Ticket(Duration deadline) {}

    private HelperProcess(Process process, String slot, Path pidFile) {
        this.process = process;
        this.slot = slot;
        this.pidFile = pidFile;
        this.requests = process.getOutputStream();
        this.replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
    }

    /** Starts a helper and waits for its ready line, at most {@link HelperLauncher#STARTUP} (the {@code watchdog} kills it then). */
    static HelperProcess start(Path binary, Path scratch, String slot, List<String> arguments, Watchdog watchdog) throws IOException {
        Path pidFile = scratch.resolve(slot + ".pid");
        List<String> command = new ArrayList<>();
        String wrapper = HelperTestHooks.wrapper();
        if (!wrapper.isBlank()) {
            command.addAll(List.of(wrapper.strip().split("\\s+")));
            // The wrapped helper runs as another user: it must be able to write its scratch files.
            scratch.toFile().setWritable(true, false);
            scratch.toFile().setExecutable(true, false);
        }
        command.addAll(List.of(binary.toString(), pidFile.toString()));
        if ("false".equals(System.getProperty(HelperLauncher.PIDFD_PROPERTY))) {
            command.add("--no-pidfd");
        }
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().clear();
        HelperProcess helper = new HelperProcess(builder.start(), slot, pidFile);
        Watchdog.Alarm alarm = watchdog.arm(HelperLauncher.STARTUP, helper::destroy);
        try {
            String line = helper.replies.readLine();
            if (line == null || !line.startsWith("ready ")) {
                helper.destroy();
                throw new IOException(alarm.fired() ? "no answer within " + HelperLauncher.STARTUP.toSeconds() + " s"
                        : "it answered '" + (line == null ? "nothing" : line) + "' instead of 'ready'");
            }
            helper.ready = HelperProtocol.parse(line);
            helper.helperUid = ProcFacts.realUid(helper.process.pid());
            return helper;
        } finally {
            watchdog.disarm(alarm);
        }
    }

    String takeSlot() {
        String free = freeSlots.pollFirst();
        return free != null ? free : slot + "-" + slots.incrementAndGet();
    }

    void giveBack(String freed) {
        freeSlots.addFirst(freed);
    }

    /**
     * Queues one request and waits for its answer: first for the runs queued before it (each bounded by
     * its own deadline), then for its own until {@code deadline}. Past a deadline the helper is killed.
     */
    Map<String, String> run(byte[] request, String token, Duration deadline, Watchdog watchdog) throws IOException {
        Ticket ticket = new Ticket(deadline);
        boolean answered = false;
        try {
            synchronized (writing) {
                // A helper stopped with a full pipe would block the write: the alarm covers it too.
                Watchdog.Alarm alarm = watchdog.arm(deadline, this::killRun);
                try {
                    synchronized (queue) {
                        if (broken) {
                            throw new IOException("a run queued before this one failed");
                        }
                        queue.addLast(ticket);
                    }
                    requests.write(request);
                    requests.flush();
                } catch (IOException e) {
                    killRun();
                    throw new IOException(alarm.fired() ? "the helper took no request within " + deadline.toSeconds()
                            + " s (it was stopped or stuck)" : "the helper's pipe broke (" + e.getMessage() + ")", e);
                } finally {
                    watchdog.disarm(alarm);
                }
            }
            awaitTurn(ticket);
            String line;
            Watchdog.Alarm alarm = watchdog.arm(deadline, this::killRun);
            try {
                line = replies.readLine();
            } catch (IOException e) {
                killRun();
                throw new IOException(alarm.fired() ? "no answer within " + deadline.toSeconds() + " s (the helper was stopped or stuck)"
                        : "the helper's pipe broke (" + e.getMessage() + ")", e);
            } finally {
                watchdog.disarm(alarm);
            }
            if (alarm.fired()) {
                // An answer after the deadline comes from a helper that was stopped or stuck, then continued to clean up.
                throw new IOException("no answer within " + deadline.toSeconds() + " s (the helper was stopped or stuck)");
            }
            if (line == null) {
                // The helper died while its child ran: the child's group must not outlive it.
                killRun();
                throw new IOException("the helper exited unexpectedly");
            }
            Map<String, String> reply = HelperProtocol.parse(line);
            if (!HelperProtocol.valid(reply, token)) {
                killRun();
                throw new IOException("the helper answered a garbled line: '" + (line.length() > 200 ? line.substring(0, 200) + "..." : line) + "'");
            }
            answered = true;
            return reply;
        } finally {
            synchronized (queue) {
                queue.remove(ticket);
                broken |= !answered;
                queue.notifyAll();
            }
        }
    }

    /** Until every run queued before {@code ticket} is answered, or one of them failed. */
    private void awaitTurn(Ticket ticket) throws IOException {
        synchronized (queue) {
            long ahead = 0;
            for (Ticket queued : queue) {
                if (queued == ticket) {
                    break;
                }
                ahead += queued.deadline().toMillis();
            }
            // Each run ahead is bounded by its own alarm; this bound only matters should a thread die between its steps.
            long giveUp = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ahead + 1_000);
            while (queue.peekFirst() != ticket && !broken) {
                long left = giveUp - System.nanoTime();
                if (left <= 0) {
                    killRun();
                    throw new IOException("the runs queued before this one got no answer in time (the helper was stopped or stuck)");
                }
                try {
                    queue.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while a run queued before this one ran", e);
                }
            }
            if (broken) {
                throw new IOException("a run queued before this one failed, and the helper was killed with it");
            }
        }
    }

    /**
     * The helper and whatever it was running go. A helper that can still run cleans up its own tree, the one
     * complete account of it (a child in a session of its own, a group the pid file no longer names): its stdin
     * ends, and it is continued in case a run stopped it. A helper not done after {@link #CLEANUP} has its
     * descendants killed from here, then the pid file's group (without the sandbox), then itself.
     */
    private void killRun() {
        // Closing waits for a writer blocked on the helper's full pipe: on a thread of its own. Until the close
        // goes through, the continued helper still passes its deadline and kills its tree (timeout, then grace).
        Thread closing = new Thread(() -> {
            try {
                requests.close();
            } catch (IOException e) {
                // a broken pipe: the helper is gone already
            }
        }, "patchgrade-helper-close");
        closing.setDaemon(true);
        synchronized (queue) {
            // Whatever the helper still answers is not trusted: the runs queued on it fail.
            broken = true;
            queue.notifyAll();
        }
        closing.start();
        try {
            closing.join(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long giveUp = System.nanoTime() + CLEANUP.toNanos();
        try {
            while (process.isAlive() && System.nanoTime() < giveUp) {
                PosixCalls.signal(process.pid(), PosixCalls.SIGCONT);
                process.waitFor(20, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (process.isAlive()) {
            // Still not done (a run that keeps stopping it on a busy machine): its tree is killed from here, while the
            // parent links still lead to it. A descendant is of the run's making, never a process a run could name.
            for (int round = 0; round < 50; round++) {
                List<ProcessHandle> tree = process.descendants().toList();
                if (tree.isEmpty()) {
                    break;
                }
                tree.forEach(ProcessHandle::destroyForcibly);
            }
        }
        PosixCalls.killGroup(lastChild());
        process.destroyForcibly();
    }

    private long lastChild() {
        try {
            String text = Files.readString(pidFile, StandardCharsets.US_ASCII).strip();
            long pid = text.isEmpty() ? 0 : Long.parseLong(text);
            return ProcFacts.leadsAGroupOf(pid, helperUid) ? pid : 0;
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    void shutdown() {
        try {
            requests.close();
        } catch (IOException e) {
            // closing the pipe is the signal; a broken pipe means the helper is gone already
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                killRun();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            killRun();
        }
    }

    void destroy() {
        process.destroyForcibly();
    }
}
