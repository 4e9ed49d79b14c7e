package dev.patchgrade.core.launch;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Suggestions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    static final Duration STARTUP = Duration.ofSeconds(20);

    private final Path helperBinary;
    private final Path scratch;
    private final Duration grace;
    private final List<String> helperArguments;
    private final SandboxStatus sandbox;
    private final String cgroup;
    private final String cpuCgroup;
    private final boolean taskClock;
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
            if (HelperTestHooks.userNamespacesDenied()) {
                arguments.add("--deny-userns");
            }
            arguments.addAll(spec.helperArguments());
        }
        HelperProcess first;
        try {
            first = HelperProcess.start(helperBinary, scratch, "helper-" + helpers.incrementAndGet(), arguments, watchdog);
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
            String why = SandboxStatus.explainRefusal(reason);
            if (spec.mode() == SandboxSpec.Mode.REQUIRED) {
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
        log.debug("sandbox: " + description());
        all.add(first);
    }

    @Override
    public boolean measuresUsage() {
        return true;
    }

    @Override
    public String description() {
        return "launch helper " + helperBinary + (sandbox.active() ? " in the namespace sandbox" : " without sandbox");
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
                    + "becomes undumpable and leaves that counter, and if the kernel reaps it too, its CPU is missing, and so are its "
                    + "peak RSS, faults and I/O (max_rss_kb...): no cgroup of patchgrade's own cross-checks them here. Give the build "
                    + "a writable cgroup v1 cpuacct hierarchy, or a delegated cgroup v2 subtree, to close "
                    + "this; max_wall_ms and max_instructions (Valgrind) still see such work";
        }
        return "CPU figures (user_us, sys_us) count only processes reaped through wait4: a child whose parent ignores SIGCHLD "
                + "(SIG_IGN or SA_NOCLDWAIT) is reaped by the kernel and its CPU is missing, and so are its peak RSS, faults and "
                + "I/O (max_rss_kb...), and no cgroup of patchgrade's own cross-checks them here. Give the build a writable "
                + "cgroup v1 cpuacct hierarchy, or a delegated cgroup v2 subtree, to "
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
            Duration deadline = request.timeout().plus(grace).plus(HelperTestHooks.answerMargin());
            try {
                String token = HelperProtocol.token();
                reply = helper.run(HelperProtocol.encode(token, request, resolution.path(), files, grace), token, deadline, watchdog);
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
                return LaunchResult.couldNotStart(HelperProtocol.startFailure(reply, request, resolution.path(), shown));
            }
            boolean signaled = "signaled".equals(reply.get("status"));
            Long treeRss = HelperProtocol.number(reply, "tree_rss_kb");
            Usage usage = Usage.withUnwaited(HelperProtocol.number(reply, "maxrss_kb"), HelperProtocol.number(reply, "utime_us"), HelperProtocol.number(reply, "stime_us"),
                    HelperProtocol.number(reply, "minflt"), HelperProtocol.number(reply, "majflt"), HelperProtocol.number(reply, "inblock"), HelperProtocol.number(reply, "oublock"),
                    treeRss != null && treeRss < 0 ? null : treeRss,
                    Usage.outsideWait(HelperProtocol.number(reply, "cpu_wait_us"), HelperProtocol.number(reply, "leader_cpu_us"), HelperProtocol.number(reply, "utime_us"),
                            HelperProtocol.number(reply, "stime_us")),
                    HelperProtocol.number(reply, "unwaited_cpu_us"));
            Long leftovers = HelperProtocol.number(reply, "leftovers");
            LaunchResult result = files.finish(request,
                    signaled ? null : Integer.valueOf(reply.get("code")),
                    signaled ? reply.get("signame") : null,
                    signaled ? Integer.valueOf(reply.get("signal")) : null,
                    "1".equals(reply.get("timed_out")),
                    usage,
                    HelperProtocol.number(reply, "wall_us"),
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
            chosen = HelperProcess.start(helperBinary, scratch, "helper-" + helpers.incrementAndGet(), helperArguments, watchdog);
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
}
