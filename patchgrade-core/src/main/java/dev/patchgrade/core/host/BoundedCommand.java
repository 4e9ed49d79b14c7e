package dev.patchgrade.core.host;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a short tool command (a compiler's {@code --version}, the build of the launch helper) with a
 * deadline. Output goes to a file, not a pipe, so a tool that hangs, or leaves a child holding its
 * output open, cannot block the reader: the wait ends at the deadline and the whole tree is killed.
 */
public final class BoundedCommand {
    private static final int MAX_OUTPUT_BYTES = 64 * 1024;

    private BoundedCommand() {}

    /** What the command printed (stdout and stderr together, at most 64 KiB) and how it exited. */
    public record Outcome(int exitCode, String output) {}

    /**
     * @param directory the working directory, or {@code null} for the JVM's
     * @throws IOException when the command cannot start or has not exited by {@code timeout} (it is then killed)
     */
    public static Outcome run(List<String> command, Path directory, Duration timeout) throws IOException {
        Path output = Files.createTempFile("patchgrade-tool-", ".out");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            if (directory != null) {
                builder.directory(directory.toFile());
            }
            Process process = builder.start();
            try {
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    kill(process);
                    throw new IOException("`" + String.join(" ", command) + "` did not finish in " + seconds(timeout) + " s and was killed");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                kill(process);
                throw new IOException("interrupted while running `" + String.join(" ", command) + "`", e);
            }
            return new Outcome(process.exitValue(), head(output));
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** Like {@link #run}, but a non-zero exit is an {@link IOException} carrying the output. */
    public static String output(List<String> command, Path directory, Duration timeout) throws IOException {
        Outcome outcome = run(command, directory, timeout);
        if (outcome.exitCode() != 0) {
            throw new IOException("`" + String.join(" ", command) + "` exited " + outcome.exitCode() + ": " + outcome.output().strip());
        }
        return outcome.output();
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String head(Path output) throws IOException {
        try (InputStream in = Files.newInputStream(output)) {
            return new String(in.readNBytes(MAX_OUTPUT_BYTES), StandardCharsets.UTF_8);
        }
    }

    private static String seconds(Duration timeout) {
        return timeout.toMillis() % 1000 == 0 ? Long.toString(timeout.toSeconds()) : String.valueOf(timeout.toMillis() / 1000.0);
    }
}
