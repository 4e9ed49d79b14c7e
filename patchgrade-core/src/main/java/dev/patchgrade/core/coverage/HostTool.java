package dev.patchgrade.core.coverage;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a tool of the host (git, gcov) outside the sandbox, with a deadline. These read the build and the
 * repository for patchgrade and are not the candidate; the candidate's only part is the coverage data gcov reads,
 * as data. Output goes to files, not pipes: a tool that hangs cannot block the reader, and gcov's JSON of a large
 * build is read as a stream.
 */
final class HostTool {
    static final Duration DEADLINE = Duration.ofMinutes(5);
    private static final int STDERR_KEPT = 16 * 1024;

    private HostTool() {}

    /** A tool that could not start at all (not installed, not on the PATH). */
    static final class Missing extends IOException {
        Missing(String message, IOException cause) {
            super(message, cause);
        }
    }

    /**
     * How a run ended; {@link #close} deletes its stdout file.
     *
     * @param stderr the first 16 KiB of stderr
     */
    record Run(List<String> command, int exit, Path stdout, String stderr) implements AutoCloseable {
        String stdoutText() throws IOException {
            return Files.readString(stdout, StandardCharsets.UTF_8);
        }

        InputStream stdoutStream() throws IOException {
            return Files.newInputStream(stdout);
        }

        String display() {
            return String.join(" ", command);
        }

        @Override
        public void close() {
            try {
                Files.deleteIfExists(stdout);
            } catch (IOException e) {
                // a temporary file; the next run of the JVM's cleaner will do
            }
        }
    }

    /**
     * @param directory where the tool runs
     * @param variables set in (or, with a {@code null} value, removed from) the JVM's environment for the tool
     * @throws Missing when the tool cannot start
     * @throws IOException when it does not end by {@link #DEADLINE} (it is killed) or its output cannot be kept
     */
    static Run run(List<String> command, Path directory, Map<String, String> variables) throws IOException {
        Path stdout = Files.createTempFile("patchgrade-tool-", ".out");
        Path stderr = Files.createTempFile("patchgrade-tool-", ".err");
        boolean done = false;
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            if (directory != null) {
                builder.directory(directory.toFile());
            }
            Map<String, String> environment = builder.environment();
            environment.put("LC_ALL", "C");
            variables.forEach((name, value) -> {
                if (value == null) {
                    environment.remove(name);
                } else {
                    environment.put(name, value);
                }
            });
            Process process;
            try {
                process = builder.start();
            } catch (IOException e) {
                throw new Missing("cannot run `" + String.join(" ", command) + "`: " + e.getMessage(), e);
            }
            try {
                if (!process.waitFor(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                    throw new IOException("`" + String.join(" ", command) + "` did not finish in " + DEADLINE.toMinutes() + " minutes and was killed");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                throw new IOException("interrupted while running `" + String.join(" ", command) + "`", e);
            }
            String errors;
            try (InputStream in = Files.newInputStream(stderr)) {
                errors = new String(in.readNBytes(STDERR_KEPT), StandardCharsets.UTF_8);
            }
            done = true;
            return new Run(List.copyOf(command), process.exitValue(), stdout, errors);
        } finally {
            Files.deleteIfExists(stderr);
            if (!done) {
                Files.deleteIfExists(stdout);
            }
        }
    }
}
