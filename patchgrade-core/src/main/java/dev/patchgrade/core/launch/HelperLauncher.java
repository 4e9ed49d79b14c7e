package dev.patchgrade.core.launch;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.grade.Setting;
import dev.patchgrade.core.grade.Suggestions;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Launches through resident helper processes: each launch is one request on a pipe, so the per-launch
 * cost is the helper's fork and exec, not a new JVM spawn. There are at most {@code concurrency}
 * helpers, each running one child at a time; a caller that finds every helper busy queues its request
 * on the least loaded one, so that the helper starts it the moment the run before ends while the
 * caller of that run still hashes its output (the JVM's work per case then costs no launch time).
 * Where the kernel allows, each helper runs its children in the sandbox. Every wait on a helper has a
 * deadline: a helper that is stopped, dies or answers garbage is killed with its runs, and the
 * launches fail with {@code launcher_failed}; the next launch gets a fresh helper.
 */
final class HelperLauncher implements Launcher {
    /** Set to {@code false} to make new helpers wait through SIGCHLD, the path of systems without pidfds. */
    static final String PIDFD_PROPERTY = "patchgrade.helper.pidfd";
    /** Set to {@code true} to make helpers behave as on a kernel that refuses user namespaces (tests). */
    static final String DENY_USERNS_PROPERTY = "patchgrade.sandbox.denyUserns";
    /** Tests: a command the helper is started through, e.g. {@code setpriv --reuid=65534 ...} to see what a non-root user gets. */
    static final String WRAPPER_PROPERTY = "patchgrade.helper.wrapper";
    /** Tests: how many directory entries the sandbox's scan for unix sockets may read before it gives up. */
    static final String SCAN_LIMIT_PROPERTY = "patchgrade.sandbox.scanLimit";
    /** Beyond a run's own timeout and grace, how long the JVM waits for the helper's answer (milliseconds; tests shorten it). */
    static final String ANSWER_MARGIN_PROPERTY = "patchgrade.helper.answerMarginMillis";
    private static final Duration STARTUP = Duration.ofSeconds(20);
    private static final int ENOENT = 2;
    private static final int ENOEXEC = 8;
    private static final int EACCES = 13;

    private final Path helperBinary;
    private final Path scratch;
    private final Duration grace;
    private final List<String> helperArguments;
    private final SandboxStatus sandbox;
    private final String cgroup;
    private final String cpuCgroup;
    private final boolean taskClock;
    private final String socketScan;
    private final int concurrency;
    /** How messages name the settings that fix what they report. */
    private final Suggestions shown;
    /** The live helpers, guarded by itself. */
    private final List<HelperProcess> all = new ArrayList<>();
    private final AtomicLong helpers = new AtomicLong();
    private final Watchdog watchdog = new Watchdog("patchgrade-launch-watchdog");
    private volatile boolean closed;

    /**
     * Starts the first helper at once, so the sandbox's availability is known before anything runs.
     *
     * @param concurrency how many children may run at once (one helper each)
     * @param shown how messages name settings
     * @throws PatchgradeException {@code sandbox_unavailable} when the sandbox is required but refused
     */
    HelperLauncher(Path helperBinary, Path scratch, Duration grace, SandboxSpec spec, GradeLog log, int concurrency, Suggestions shown) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency " + concurrency);
        }
        this.shown = shown;
        this.concurrency = concurrency;
        this.helperBinary = helperBinary;
        this.scratch = scratch;
        this.grace = grace;
        List<String> arguments = new ArrayList<>(List.of("--cgroup"));
        if (spec.mode() != SandboxSpec.Mode.OFF) {
            arguments.add("--sandbox");
            if (Boolean.getBoolean(DENY_USERNS_PROPERTY)) {
                arguments.add("--deny-userns");
            }
            Long scanLimit = Long.getLong(SCAN_LIMIT_PROPERTY);
            if (scanLimit != null) {
                arguments.addAll(List.of("--scan-limit", Long.toString(scanLimit)));
            }
            arguments.addAll(spec.helperArguments());
        }
        HelperProcess first;
        try {
            first = HelperProcess.start(helperBinary, scratch, "helper-" + helpers.incrementAndGet(), arguments);
        } catch (IOException e) {
            watchdog.close();
            throw new PatchgradeException(ErrorName.LAUNCHER_FAILED, "the launch helper " + helperBinary + " did not start: " + e.getMessage()
                    + ". Delete the helper cache directory " + helperBinary.getParent() + " so that it is built again", e);
        }
        Map<String, String> ready = first.ready;
        String reason = ready.getOrDefault("reason", "-");
        if (spec.mode() == SandboxSpec.Mode.OFF) {
            this.sandbox = SandboxStatus.off("sandbox=off was set");
            this.helperArguments = arguments;
        } else if ("namespaces".equals(ready.get("sandbox"))) {
            this.sandbox = SandboxStatus.on();
            this.helperArguments = arguments;
        } else {
            String where = ready.get("where");
            String why = SandboxStatus.explainRefusal(reason, shown) + (where == null ? ""
                    : " (it stopped in " + java.net.URLDecoder.decode(where, StandardCharsets.UTF_8) + ")");
            // Not the kernel's refusal but a view too big to make safe, maybe made so by a candidate filling a
            // writable path: falling back to no sandbox would reward that, so it stops the execution in every mode.
            if (spec.mode() == SandboxSpec.Mode.REQUIRED || SandboxStatus.isScanFailure(reason)) {
                first.destroy();
                watchdog.close();
                throw new PatchgradeException(ErrorName.SANDBOX_UNAVAILABLE, "sandbox=" + spec.mode().wireName() + ", but " + why
                        + ". Or set sandbox to auto (runs without it, with a warning) or off");
            }
            log.warn("patchgrade runs children WITHOUT the sandbox: " + why + ". Verdicts of this execution are not tamper-proof: "
                    + "a candidate can read oracles and rewrite reports. Set sandbox=required to make this an error");
            this.sandbox = SandboxStatus.off("the kernel refused: " + why);
            // Later helpers would be refused the same way: start them without asking.
            this.helperArguments = List.of("--cgroup");
        }
        this.cgroup = ready.getOrDefault("cgroup", "none");
        this.cpuCgroup = ready.getOrDefault("cpu_cgroup", "none");
        this.taskClock = sandbox.active() && "1".equals(ready.get("task_clock"));
        this.socketScan = ready.containsKey("scan_entries") ? "; " + ready.get("scan_sockets") + " unix sockets hidden after scanning "
                + ready.get("scan_entries") + " entries in " + Long.parseLong(ready.getOrDefault("scan_us", "0")) / 1000 + " ms" : "";
        log.debug("sandbox: " + description());
        all.add(first);
    }

    @Override
    public boolean measuresUsage() {
        return true;
    }

    @Override
    public String description() {
        return "launch helper " + helperBinary + (sandbox.active() ? " in the namespace sandbox" + socketScan : " without sandbox");
    }

    @Override
    public SandboxStatus sandbox() {
        return sandbox;
    }

    @Override
    public String method() {
        String base = "v1".equals(cgroup) ? "rusage_tree,cgroup_v1" : "v2".equals(cgroup) ? "rusage_tree,cgroup_v2" : "rusage_tree";
        return taskClock ? base + ",task_clock" : base;
    }

    /** Without a CPU cgroup there is no exact account of it on Linux for a user without privileges (see the README). */
    @Override
    public String cpuLimitation() {
        if (!"none".equals(cpuCgroup)) {
            return null;
        }
        if (taskClock) {
            return "CPU figures (user_us, sys_us) count processes reaped through wait4 and, for a child the kernel reaps itself (its "
                    + "parent ignores SIGCHLD), an inherited perf task-clock counter; but a child that execs a file it cannot read "
                    + "becomes undumpable and leaves that counter, and its CPU is missing: no cgroup of patchgrade's own cross-checks "
                    + "it here. Give the build a writable cgroup v1 cpuacct hierarchy, or a delegated cgroup v2 subtree, to close "
                    + "this; max_wall_ms and max_instructions (Valgrind) still see such work";
        }
        return "CPU figures (user_us, sys_us) count only processes reaped through wait4: a child whose parent ignores SIGCHLD "
                + "(SIG_IGN or SA_NOCLDWAIT) is reaped by the kernel and its CPU is missing, and no cgroup of patchgrade's own "
                + "cross-checks it here. Give the build a writable cgroup v1 cpuacct hierarchy, or a delegated cgroup v2 subtree, to "
                + "close this; max_wall_ms and max_instructions still see such work";
    }

    @Override
    public LaunchResult launch(LaunchRequest request) {
        if (closed) {
            throw new IllegalStateException("the launcher is closed");
        }
        ExecutableCheck.Resolution resolution = ExecutableCheck.resolve(
                request.command().get(0), request.workingDirectory(), request.environment());
        if (!resolution.ok()) {
            return LaunchResult.couldNotStart(resolution.failure());
        }
        for (String part : request.command()) {
            if (part.indexOf('\0') >= 0) {
                return LaunchResult.couldNotStart(new StartFailure(StartFailure.Kind.OTHER,
                        request.command().get(0), "an argument contains a NUL character, which no process can receive"));
            }
        }
        HelperProcess helper = acquire();
        String slot = helper.takeSlot();
        RunFiles files;
        Map<String, String> reply;
        try {
            files = RunFiles.create(scratch, slot, request, true);
            Duration deadline = request.timeout().plus(grace).plus(Duration.ofMillis(Long.getLong(ANSWER_MARGIN_PROPERTY, 10_000)));
            try {
                reply = helper.run(encode(request, resolution.path(), files), deadline, watchdog);
            } catch (IOException e) {
                files.discard();
                retire(helper);
                throw new PatchgradeException(ErrorName.LAUNCHER_FAILED, "the launch helper failed while running " + request.command().get(0)
                        + ": " + e.getMessage() + ". It was killed with its runs; the next launch starts a fresh one. If this repeats, the "
                        + "command may be signalling or stopping its parent (run it with sandbox=required)", e);
            }
        } catch (RuntimeException e) {
            helper.giveBack(slot);
            throw e;
        } finally {
            release(helper);
        }
        boolean held = false;
        try {
            if (reply.containsKey("nostart")) {
                files.discard();
                return LaunchResult.couldNotStart(startFailure(reply, request, resolution.path(), shown));
            }
            boolean signaled = "signaled".equals(reply.get("status"));
            Long treeRss = number(reply, "tree_rss_kb");
            Usage usage = new Usage(number(reply, "maxrss_kb"), number(reply, "utime_us"), number(reply, "stime_us"),
                    number(reply, "minflt"), number(reply, "majflt"), number(reply, "inblock"), number(reply, "oublock"),
                    treeRss != null && treeRss < 0 ? null : treeRss,
                    Usage.outsideWait(number(reply, "cpu_wait_us"), number(reply, "leader_cpu_us"), number(reply, "utime_us"),
                            number(reply, "stime_us")));
            Long leftovers = number(reply, "leftovers");
            LaunchResult result = files.finish(request,
                    signaled ? null : Integer.valueOf(reply.get("code")),
                    signaled ? reply.get("signame") : null,
                    signaled ? Integer.valueOf(reply.get("signal")) : null,
                    "1".equals(reply.get("timed_out")),
                    usage,
                    number(reply, "wall_us"),
                    leftovers == null ? 0 : leftovers.intValue(),
                    () -> helper.giveBack(slot));
            held = files.holds();
            return result;
        } finally {
            // Only now: the slot's scratch files are this run's until they are hashed (or, held, until the caller lets them go).
            if (!held) {
                helper.giveBack(slot);
            }
        }
    }

    /** The helper to queue a run on: an idle one, a new one while there are fewer than {@code concurrency}, else the least loaded. */
    private HelperProcess acquire() {
        HelperProcess chosen;
        synchronized (all) {
            chosen = null;
            for (HelperProcess helper : all) {
                if (chosen == null || helper.load < chosen.load) {
                    chosen = helper;
                }
            }
            if (chosen != null && (chosen.load == 0 || all.size() >= concurrency)) {
                chosen.load++;
                return chosen;
            }
        }
        try {
            chosen = HelperProcess.start(helperBinary, scratch, "helper-" + helpers.incrementAndGet(), helperArguments);
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.LAUNCHER_FAILED, "a new launch helper did not start: " + e.getMessage(), e);
        }
        synchronized (all) {
            if (closed) {
                chosen.destroy();
                throw new IllegalStateException("the launcher is closed");
            }
            chosen.load++;
            all.add(chosen);
        }
        return chosen;
    }

    private void release(HelperProcess helper) {
        synchronized (all) {
            helper.load--;
        }
    }

    /** A helper that failed goes, with whatever it ran; runs queued on it fail too. */
    private void retire(HelperProcess helper) {
        synchronized (all) {
            all.remove(helper);
        }
        helper.destroy();
    }

    private static StartFailure startFailure(Map<String, String> reply, LaunchRequest request, Path resolved, Suggestions suggestions) {
        String showIt = "show it with " + suggestions.setting(Setting.READ_ONLY_PATHS);
        String stage = reply.getOrDefault("stage", "exec");
        int errno = Integer.parseInt(reply.getOrDefault("errno", "0"));
        String shown = request.command().get(0);
        if (!stage.equals("exec")) {
            String what = switch (stage) {
                case "chdir" -> "cannot enter the working directory " + request.workingDirectory()
                        + (errno == EACCES || errno == ENOENT ? " (hidden by the sandbox? " + showIt + ")" : "");
                case "stdin", "stdout", "stderr" -> "cannot open the file for " + stage;
                default -> "failed while preparing the child (" + stage + ")";
            };
            return new StartFailure(StartFailure.Kind.OTHER, shown, what + ", errno " + errno);
        }
        return switch (errno) {
            case ENOENT -> new StartFailure(StartFailure.Kind.NOT_FOUND, shown,
                    Files.exists(resolved) ? "its #! interpreter or dynamic loader is missing (or hidden by the sandbox: "
                            + showIt + ")" : "no file at " + resolved);
            case EACCES -> new StartFailure(StartFailure.Kind.NOT_EXECUTABLE, shown, "permission denied"
                    + (Files.isExecutable(resolved) ? " (inside the sandbox: is it under a hidden path? " + showIt + ")" : ""));
            case ENOEXEC -> new StartFailure(StartFailure.Kind.BAD_FORMAT, shown, "exec format error");
            default -> new StartFailure(StartFailure.Kind.OTHER, shown, "execve failed, errno " + errno);
        };
    }

    private byte[] encode(LaunchRequest request, Path executable, RunFiles files) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(512);
        field(body, Long.toString(request.timeout().toMillis()));
        field(body, Long.toString(grace.toMillis()));
        field(body, Long.toString(request.outputLimitBytes()));
        field(body, executable.toString());
        field(body, request.workingDirectory() == null ? "" : request.workingDirectory().toAbsolutePath().toString());
        field(body, files.stdin == null ? "" : files.stdin.toAbsolutePath().toString());
        field(body, files.stdout.toString());
        field(body, files.stderr.toString());
        List<String> command = request.command();
        field(body, Integer.toString(command.size()));
        for (String argument : command) {
            field(body, argument);
        }
        field(body, Integer.toString(request.environment().size()));
        request.environment().forEach((key, value) -> field(body, key + "=" + value));
        String length = Integer.toString(body.size());
        byte[] header = ("PGRUN1 " + "0".repeat(10 - length.length()) + length + "\n").getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream all = new ByteArrayOutputStream(header.length + body.size());
        all.writeBytes(header);
        all.writeBytes(body.toByteArray());
        return all.toByteArray();
    }

    private static void field(ByteArrayOutputStream out, String value) {
        out.writeBytes(value.getBytes(StandardCharsets.UTF_8));
        out.write(0);
    }

    private static Long number(Map<String, String> reply, String key) {
        String value = reply.get(key);
        return value == null ? null : Long.valueOf(value);
    }

    @Override
    public void close() {
        List<HelperProcess> helpers;
        synchronized (all) {
            closed = true;
            helpers = List.copyOf(all);
            all.clear();
        }
        for (HelperProcess helper : helpers) {
            helper.shutdown();
        }
        watchdog.close();
    }

    /**
     * One resident helper and its pipes. Several threads may queue runs on it: requests are written in
     * the order the runs are queued, the helper answers them in that order, and each thread reads its
     * own answer when every run queued before it has been answered.
     */
    private static final class HelperProcess {
        private static final Set<String> DONE_KEYS = Set.of("status", "code", "signal", "signame", "timed_out", "maxrss_kb",
                "utime_us", "stime_us", "minflt", "majflt", "inblock", "oublock", "wall_us", "leftovers", "cpu_wait_us", "leader_cpu_us",
                "tree_rss_kb");
        private final Process process;
        private final OutputStream requests;
        private final BufferedReader replies;
        private final String slot;
        private final Path pidFile;
        Map<String, String> ready;
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

        static HelperProcess start(Path binary, Path scratch, String slot, List<String> arguments) throws IOException {
            Path pidFile = scratch.resolve(slot + ".pid");
            List<String> command = new ArrayList<>();
            String wrapper = System.getProperty(WRAPPER_PROPERTY, "");
            if (!wrapper.isBlank()) {
                command.addAll(List.of(wrapper.strip().split("\\s+")));
                // The wrapped helper runs as another user: it must be able to write its scratch files.
                scratch.toFile().setWritable(true, false);
                scratch.toFile().setExecutable(true, false);
            }
            command.addAll(List.of(binary.toString(), pidFile.toString()));
            if ("false".equals(System.getProperty(PIDFD_PROPERTY))) {
                command.add("--no-pidfd");
            }
            command.addAll(arguments);
            ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
            builder.environment().clear();
            HelperProcess helper = new HelperProcess(builder.start(), slot, pidFile);
            AtomicBoolean expired = new AtomicBoolean();
            ScheduledExecutorService timer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "patchgrade-launch-startup");
                thread.setDaemon(true);
                return thread;
            });
            try {
                timer.schedule(() -> {
                    expired.set(true);
                    helper.process.destroyForcibly();
                }, STARTUP.toMillis(), TimeUnit.MILLISECONDS);
                String line = helper.replies.readLine();
                if (line == null || !line.startsWith("ready ")) {
                    helper.destroy();
                    throw new IOException(expired.get() ? "no answer within " + STARTUP.toSeconds() + " s"
                            : "it answered '" + (line == null ? "nothing" : line) + "' instead of 'ready'");
                }
                helper.ready = parse(line);
                return helper;
            } finally {
                timer.shutdownNow();
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
        Map<String, String> run(byte[] request, Duration deadline, Watchdog watchdog) throws IOException {
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
                if (line == null) {
                    // The helper died while its child ran: the child's group must not outlive it.
                    killRun();
                    throw new IOException(alarm.fired() ? "no answer within " + deadline.toSeconds() + " s (the helper was stopped or stuck)"
                            : "the helper exited unexpectedly");
                }
                Map<String, String> reply = parse(line);
                if (!valid(reply)) {
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

        private static boolean valid(Map<String, String> reply) {
            try {
                if (reply.containsKey("nostart")) {
                    return reply.size() == 3 && reply.containsKey("stage") && Integer.parseInt(reply.get("errno")) >= 0;
                }
                if (!reply.containsKey("done") || !reply.keySet().containsAll(DONE_KEYS)) {
                    return false;
                }
                for (String key : DONE_KEYS) {
                    if (!key.equals("status") && !key.equals("signame")) {
                        Long.parseLong(reply.get(key));
                    }
                }
                return Set.of("exited", "signaled").contains(reply.get("status"));
            } catch (RuntimeException e) {
                return false;
            }
        }

        /** The helper and whatever it was running go: without the sandbox, the child's group too. */
        private void killRun() {
            PosixCalls.killGroup(lastChild());
            process.destroyForcibly();
        }

        private long lastChild() {
            try {
                String text = Files.readString(pidFile, StandardCharsets.US_ASCII).strip();
                return text.isEmpty() ? 0 : Long.parseLong(text);
            } catch (IOException | NumberFormatException e) {
                return 0;
            }
        }

        private static Map<String, String> parse(String line) {
            String[] words = line.strip().split(" ");
            Map<String, String> fields = new HashMap<>(words.length * 2);
            fields.put(words[0], "");
            for (int i = 1; i < words.length; i++) {
                int eq = words[i].indexOf('=');
                if (eq > 0) {
                    fields.put(words[i].substring(0, eq), words[i].substring(eq + 1));
                } else {
                    fields.put("garbled", words[i]);
                }
            }
            return fields;
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
}
