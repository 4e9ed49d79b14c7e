package dev.patchgrade.core.launch;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One command to run.
 *
 * @param command the executable first, then its arguments; a name without {@code /} is looked up on
 *     the child's {@code PATH}
 * @param workingDirectory where the child starts, or {@code null} for the caller's directory
 * @param environment the child's whole environment (see {@link ChildEnvironment#pinned})
 * @param stdin bytes for the child's stdin, or {@code null} for {@code /dev/null}
 * @param timeout wall time after which the child's process group is stopped
 * @param outputLimitBytes cap per output stream; past it the run fails with {@code output_limit}
 * @param keepOutputAs where to keep the streams ({@code <prefix>.stdout}, {@code <prefix>.stderr}),
 *     or {@code null} to discard them once hashed
 */
public record LaunchRequest(
        List<String> command,
        Path workingDirectory,
        Map<String, String> environment,
        byte[] stdin,
        Duration timeout,
        long outputLimitBytes,
        Path keepOutputAs) {

    public static final long DEFAULT_OUTPUT_LIMIT = 64L << 20;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    public LaunchRequest {
        command = List.copyOf(command);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("a command needs at least the executable");
        }
        environment = Map.copyOf(environment);
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        if (outputLimitBytes <= 0) {
            throw new IllegalArgumentException("output limit must be positive, was " + outputLimitBytes);
        }
    }

    /** A request with the pinned environment, no stdin, the default timeout and output cap. */
    public static LaunchRequest of(List<String> command) {
        return new LaunchRequest(command, null, ChildEnvironment.pinned(Map.of()), null,
                DEFAULT_TIMEOUT, DEFAULT_OUTPUT_LIMIT, null);
    }

    public LaunchRequest withWorkingDirectory(Path directory) {
        return new LaunchRequest(command, directory, environment, stdin, timeout, outputLimitBytes, keepOutputAs);
    }

    public LaunchRequest withEnvironment(Map<String, String> env) {
        return new LaunchRequest(command, workingDirectory, env, stdin, timeout, outputLimitBytes, keepOutputAs);
    }

    public LaunchRequest withStdin(byte[] input) {
        return new LaunchRequest(command, workingDirectory, environment, input, timeout, outputLimitBytes, keepOutputAs);
    }

    public LaunchRequest withTimeout(Duration limit) {
        return new LaunchRequest(command, workingDirectory, environment, stdin, limit, outputLimitBytes, keepOutputAs);
    }

    public LaunchRequest withOutputLimit(long bytes) {
        return new LaunchRequest(command, workingDirectory, environment, stdin, timeout, bytes, keepOutputAs);
    }

    public LaunchRequest keepingOutputAs(Path prefix) {
        return new LaunchRequest(command, workingDirectory, environment, stdin, timeout, outputLimitBytes, prefix);
    }

    public LaunchRequest withArguments(List<String> extra) {
        List<String> all = new java.util.ArrayList<>(command);
        all.addAll(extra);
        return new LaunchRequest(all, workingDirectory, environment, stdin, timeout, outputLimitBytes, keepOutputAs);
    }
}
