package dev.patchgrade.core.launch;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Suggestions;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Opens the best launcher this machine supports. */
public final class Launchers {
    /** Set to {@code direct} to skip the helper (the path used when no C compiler is available). */
    public static final String MODE_PROPERTY = "patchgrade.launcher";
    static final Duration GRACE = Duration.ofMillis(500);
    /**
     * How many callers a goal keeps per child that may run: one waits for its run while the other hashes
     * and judges the output of the run before, so the launches follow each other without a gap.
     */
    public static final int CALLERS_PER_CHILD = 2;

    private Launchers() {}

    /** A launcher without the sandbox: for measuring and tests of launch mechanics. */
    public static Launcher open(GradeLog log) {
        return open(log, SandboxSpec.off());
    }

    /**
     * A launcher whose scratch files live in a fresh temporary directory, removed on close (and, should
     * the JVM be killed, by the next launcher opened on this machine). Where the helper cannot be had,
     * the returned launcher still runs commands and says, through {@code log}, which figures it cannot
     * measure.
     *
     * @throws dev.patchgrade.core.PatchgradeException {@code sandbox_unavailable} when the spec requires a
     *     sandbox this machine cannot give
     */
    public static Launcher open(GradeLog log, SandboxSpec spec) {
        return open(log, spec, Integer.MAX_VALUE);
    }

    /**
     * The same, with at most {@code concurrency} children running at once however many threads call
     * it: the callers beyond that queue their runs, so that with twice as many callers as children
     * one run starts the moment another ends while its caller still works on the result.
     */
    public static Launcher open(GradeLog log, SandboxSpec spec, int concurrency) {
        return open(log, spec, concurrency, Suggestions.PLAIN);
    }

    /** The same, its messages naming settings as {@code shown} gives them. */
    public static Launcher open(GradeLog log, SandboxSpec spec, int concurrency, Suggestions shown) {
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1 (found " + concurrency + ")");
        }
        Scratch scratch = Scratch.create();
        try {
            Launcher inner = choose(log, scratch.directory(), Scratch.hiddenFrom(spec, scratch.directory()), concurrency, shown);
            log.debug("launching through " + inner.description());
            return new ScratchOwning(inner, scratch);
        } catch (RuntimeException e) {
            scratch.delete();
            throw e;
        }
    }

    private static Launcher choose(GradeLog log, Path scratch, SandboxSpec spec, int concurrency, Suggestions shown) {
        if ("direct".equals(System.getProperty(MODE_PROPERTY))) {
            return degraded(log, scratch, MODE_PROPERTY + "=direct was set", spec, concurrency);
        }
        String os = System.getProperty("os.name", "").toLowerCase();
        if (!(os.contains("linux") || os.contains("mac"))) {
            return degraded(log, scratch, "the launch helper supports Linux and macOS, not " + os, spec, concurrency);
        }
        NativeHelper.Located located = NativeHelper.locate(log, shown);
        if (located.binary() == null) {
            return degraded(log, scratch, located.problem(), spec, concurrency);
        }
        String probe = RAN.contains(located.binary()) ? null : probe(located.binary());
        if (probe == null) {
            RAN.add(located.binary());
        } else {
            return degraded(log, scratch, "the launch helper " + located.binary() + " does not run: " + probe, spec, concurrency);
        }
        return new HelperLauncher(located.binary(), scratch, GRACE, spec, log, concurrency, shown);
    }

    private static Launcher degraded(GradeLog log, Path scratch, String reason, SandboxSpec spec, int concurrency) {
        if (spec.mode() == SandboxSpec.Mode.REQUIRED) {
            throw new dev.patchgrade.core.PatchgradeException(dev.patchgrade.core.ErrorName.SANDBOX_UNAVAILABLE, "sandbox=required, but the sandbox lives in the "
                    + "launch helper, which cannot be used here: " + reason + ". Install a C compiler (cc), or set sandbox to auto or off");
        }
        if (spec.mode() == SandboxSpec.Mode.AUTO) {
            log.warn("patchgrade runs children WITHOUT the sandbox (" + reason + "): verdicts of this execution are not tamper-proof");
        }
        log.warn("patchgrade cannot measure peak RSS, CPU time, page faults or block I/O here: " + reason
                + ". Commands still run; those figures are reported as unavailable, and grading against them is an error.");
        return new DirectLauncher(scratch, GRACE, reason, spec.mode() == SandboxSpec.Mode.OFF ? "sandbox=off was set" : reason, concurrency);
    }

    /**
     * Helpers that answered their probe in this JVM: a later launcher starts them without asking again (a helper
     * that stops starting fails its launcher with launcher_failed instead of degrading it).
     */
    private static final java.util.Set<Path> RAN = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private static String probe(Path helper) {
        try {
            dev.patchgrade.core.host.BoundedCommand.Outcome outcome = dev.patchgrade.core.host.BoundedCommand.run(
                    List.of(helper.toString(), "--version"), null, Duration.ofSeconds(10));
            String output = outcome.output().strip();
            return outcome.exitCode() == 0 && output.startsWith("pg-launch-helper") ? null : "answered '" + output + "'";
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    /** The scratch directory of a launcher opened here (tests). */
    static Path scratchOf(Launcher launcher) {
        return ((ScratchOwning) launcher).scratch.directory();
    }

    /**
     * While a launcher runs children outside the sandbox, this JVM is not dumpable. A child of the same user could
     * otherwise open /proc/JVM/mem (to read the run's token there, and rewrite the heap) and
     * /proc/JVM/fd (to write a forged answer with that token into the helper's reply pipe): a non-root user's
     * verdict would then be as forgeable as root's. Counted, so the JVM is dumpable again, as it was, after the last.
     */
    static final class UndumpableJvm {
        private static int holders;
        private static Boolean before;

        private UndumpableJvm() {}

        static synchronized void hold() {
            if (holders++ == 0) {
                before = PosixCalls.dumpable();
                PosixCalls.setDumpable(false);
            }
        }

        static synchronized void release() {
            if (--holders == 0 && Boolean.TRUE.equals(before)) {
                PosixCalls.setDumpable(true);
            }
        }
    }

    private static final class ScratchOwning implements Launcher {
        private final Launcher inner;
        private final Scratch scratch;
        private final java.util.concurrent.atomic.AtomicBoolean undumpable = new java.util.concurrent.atomic.AtomicBoolean();

        ScratchOwning(Launcher inner, Scratch scratch) {
            this.inner = inner;
            this.scratch = scratch;
            Scratch.OPEN.add(this);
            if (!inner.sandbox().active()) {
                undumpable.set(true);
                UndumpableJvm.hold();
            }
        }

        @Override
        public LaunchResult launch(LaunchRequest request) {
            return inner.launch(request);
        }

        @Override
        public boolean measuresUsage() {
            return inner.measuresUsage();
        }

        @Override
        public String description() {
            return inner.description();
        }

        @Override
        public SandboxStatus sandbox() {
            return inner.sandbox();
        }

        @Override
        public String method() {
            return inner.method();
        }

        @Override
        public String cpuLimitation() {
            return inner.cpuLimitation();
        }

        @Override
        public void close() {
            Scratch.OPEN.remove(this);
            inner.close();
            scratch.delete();
            if (undumpable.compareAndSet(true, false)) {
                UndumpableJvm.release();
            }
        }
    }
}
