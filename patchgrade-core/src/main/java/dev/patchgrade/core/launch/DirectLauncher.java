package dev.patchgrade.core.launch;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
    private final String reason;
    private final AtomicLong runs = new AtomicLong();

    DirectLauncher(Path scratch, Duration grace, String reason) {
        this.scratch = scratch;
        this.grace = grace;
        this.reason = reason;
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
        ExecutableCheck.Resolution resolution = ExecutableCheck.resolve(
                request.command().get(0), request.workingDirectory(), request.environment());
        if (!resolution.ok()) {
            return LaunchResult.couldNotStart(resolution.failure());
        }
        RunFiles files = RunFiles.create(scratch, "run-" + runs.incrementAndGet(), request, false);
        java.util.List<String> command = new java.util.ArrayList<>(request.command());
        command.set(0, resolution.path().toString());
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
            files.discard();
            throw new IllegalStateException("interrupted while waiting for " + request.command().get(0), e);
        }
        long wallMicros = (System.nanoTime() - started) / 1000;
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        // The JDK reports death by signal N as 128+N, indistinguishable from exit(128+N): keep the code.
        return files.finish(request, timedOut ? null : process.exitValue(), overLimit ? "SIGXFSZ" : null, null,
                timedOut, Usage.UNAVAILABLE, wallMicros);
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
