package dev.patchgrade.core.launch;

import dev.patchgrade.core.GradeLog;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The degraded path where the helper cannot be built or run: commands still run through the JDK,
 * but no rusage figure is reported, because the JDK's child inherits the JVM's RSS high-water mark
 * and a number from that path would be a lie. Wall time and exit codes remain.
 */
final class DirectLauncher implements Launcher {
    private static final long POLL_MILLIS = 20;

    private final Path scratch;
    private final Duration grace;
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    /** Targets running right now in this JVM: adopted orphans are everything else in a foreign session. */
    private static final Set<Long> RUNNING = ConcurrentHashMap.newKeySet();
    private static final boolean ADOPTS_ORPHANS = PosixCalls.becomeSubreaper();

    private final String reason;
    private final String sandboxReason;
    private final AtomicLong runs = new AtomicLong();
    /** Callers may queue more runs than may run at once (see {@link Launchers#open(GradeLog, SandboxSpec, int)}). */
    private final Semaphore running;

    DirectLauncher(Path scratch, Duration grace, String reason, String sandboxReason, int concurrency) {
        this.running = new Semaphore(concurrency);
        this.scratch = scratch;
        this.grace = grace;
        this.reason = reason;
        this.sandboxReason = sandboxReason;
    }

    @Override
    public SandboxStatus sandbox() {
        return SandboxStatus.off(sandboxReason);
    }

    @Override
    public boolean measuresUsage() {
        return false;
    }

    @Override
    public String description() {
        return "JDK process launch without rusage (" + reason + ")";
    }

    @Override
    public LaunchResult launch(LaunchRequest request) {
        // Bounded: every run holding a permit ends by its own timeout and grace.
        running.acquireUninterruptibly();
        try {
            return launchNow(request);
        } finally {
            running.release();
        }
    }

    private LaunchResult launchNow(LaunchRequest request) {
        ExecutableCheck.Resolution resolution = ExecutableCheck.resolve(
                request.command().get(0), request.workingDirectory(), request.environment());
        if (!resolution.ok()) {
            return LaunchResult.couldNotStart(resolution.failure());
        }
        RunFiles files = RunFiles.create(scratch, "run-" + runs.incrementAndGet(), request, false);
        java.util.List<String> command = new java.util.ArrayList<>(request.command());
        command.set(0, resolution.path().toString());
        // A session of its own: whatever the target leaves behind is told apart from the JVM's other children.
        boolean ownSession = ADOPTS_ORPHANS && Files.isExecutable(SETSID);
        if (ownSession) {
            command.add(0, SETSID.toString());
        }
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(files.stdout.toFile())
                .redirectError(files.stderr.toFile())
                .redirectInput(files.stdin == null ? new File("/dev/null") : files.stdin.toFile());
        if (request.workingDirectory() != null) {
            builder.directory(request.workingDirectory().toFile());
        }
        builder.environment().clear();
        builder.environment().putAll(request.environment());
        long started = System.nanoTime();
        Process process;
        try {
            process = builder.start();
            RUNNING.add(process.pid());
        } catch (IOException e) {
            files.discard();
            return LaunchResult.couldNotStart(new StartFailure(StartFailure.Kind.OTHER, request.command().get(0), e.getMessage()));
        }
        boolean timedOut = false;
        boolean overLimit = false;
        long deadline = started + request.timeout().toNanos();
        try {
            while (!process.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                if (System.nanoTime() >= deadline) {
                    timedOut = true;
                    break;
                }
                if (size(files.stdout) >= request.outputLimitBytes() || size(files.stderr) >= request.outputLimitBytes()) {
                    overLimit = true;
                    break;
                }
            }
            if (timedOut || overLimit) {
                process.descendants().forEach(ProcessHandle::destroy);
                process.destroy();
                if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                    process.waitFor();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            RUNNING.remove(process.pid());
            files.discard();
            throw new IllegalStateException("interrupted while waiting for " + request.command().get(0), e);
        }
        long wallMicros = (System.nanoTime() - started) / 1000;
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        RUNNING.remove(process.pid());
        int leftovers = ownSession ? killAdoptedOrphans() : 0;
        // The JDK reports death by signal N as 128+N, indistinguishable from exit(128+N): keep the code. A run stopped at
        // the cap is reported killed by SIGXFSZ, as under the helper, where RLIMIT_FSIZE stops it, so reports read alike.
        return files.finish(request, timedOut ? null : process.exitValue(), overLimit ? "SIGXFSZ" : null, null,
                timedOut, overLimit, Usage.UNAVAILABLE, wallMicros, leftovers, () -> { });
    }

    /**
     * Kills and reaps the JVM's children that sit in a session other than the JVM's and are no running
     * target: descendants of finished targets (a daemon that called setsid included), adopted by the
     * JVM as child subreaper. The JDK starts other plugins' processes in the JVM's own session.
     */
    private static int killAdoptedOrphans() {
        int jvmSession = PosixCalls.sessionOf(ProcessHandle.current().pid());
        int killed = 0;
        for (int round = 0; round < 50; round++) {
            List<ProcessHandle> orphans = ProcessHandle.current().children()
                    .filter(child -> !RUNNING.contains(child.pid()))
                    .filter(child -> {
                        int session = PosixCalls.sessionOf(child.pid());
                        return session > 0 && session != jvmSession;
                    })
                    .toList();
            if (orphans.isEmpty()) {
                return killed;
            }
            for (ProcessHandle orphan : orphans) {
                orphan.descendants().forEach(ProcessHandle::destroyForcibly);
                PosixCalls.killAndReap(orphan.pid());
                killed++;
            }
        }
        return killed;
    }

    private static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {}
}
