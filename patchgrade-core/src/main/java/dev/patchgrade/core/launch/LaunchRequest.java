package dev.patchgrade.core.launch;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One command to run.
 *
 * @param command the executable first, then its arguments; a name without {@code /} is looked up on
 *     the child's {@code PATH}
 * @param workingDirectory where the child starts, or {@code null} for the caller's directory
 * @param environment the child's whole environment (see {@link ChildEnvironment#pinned}), which the child sees
 *     in the order of its names: the same in every build, so a program that prints its environment digests alike
 * @param stdin bytes for the child's stdin, or {@code null} for {@code /dev/null}
 * @param timeout wall time after which the child's process group is stopped
 * @param outputLimitBytes cap per output stream; past it the run fails with {@code output_limit}
 * @param keepOutputAs where to keep the streams ({@code <prefix>.stdout}, {@code <prefix>.stderr}),
 *     or {@code null} to discard them once hashed
 * @param holdOutput keep the streams in the launcher's scratch space after the launch, named by the
 *     result, until the caller keeps them ({@link LaunchResult#keepOutputAs}) or lets them go
 *     ({@link LaunchResult#released}): for callers that decide only after looking at the output
 *     whether it is worth a file of its own
 */
public record LaunchRequest(
        List<String> command,
        Path workingDirectory,
        Map<String, String> environment,
        byte[] stdin,
        Duration timeout,
        long outputLimitBytes,
        Path keepOutputAs,
        boolean holdOutput) {

    public static final long DEFAULT_OUTPUT_LIMIT = 64L << 20;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

    public LaunchRequest {
        command = List.copyOf(command);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("a command needs at least the executable");
        }
        // Map.copyOf iterates in an order seeded afresh in each JVM, and the helper hands the child its variables in
        // the order they come: a program printing its environment would digest differently from build to build.
        environment = Collections.unmodifiableMap(new TreeMap<>(environment));
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        if (holdOutput && keepOutputAs != null) {
            throw new IllegalArgumentException("output is either kept as " + keepOutputAs + " or held, not both");
        }
        if (outputLimitBytes <= 0) {
            throw new IllegalArgumentException("output limit must be positive, was " + outputLimitBytes);
        }
    }

    /** A request with the pinned environment, no stdin, the default timeout and output cap. */
    public static LaunchRequest of(List<String> command) {
        return new LaunchRequest(command, null, ChildEnvironment.pinned(Map.of()), null,
                DEFAULT_TIMEOUT, DEFAULT_OUTPUT_LIMIT, null, false);
    }

    public LaunchRequest withWorkingDirectory(Path directory) {
        return new LaunchRequest(command, directory, environment, stdin, timeout, outputLimitBytes, keepOutputAs, holdOutput);
    }

    public LaunchRequest withEnvironment(Map<String, String> env) {
        return new LaunchRequest(command, workingDirectory, env, stdin, timeout, outputLimitBytes, keepOutputAs, holdOutput);
    }

    public LaunchRequest withStdin(byte[] input) {
        return new LaunchRequest(command, workingDirectory, environment, input, timeout, outputLimitBytes, keepOutputAs, holdOutput);
    }

    public LaunchRequest withTimeout(Duration limit) {
        return new LaunchRequest(command, workingDirectory, environment, stdin, limit, outputLimitBytes, keepOutputAs, holdOutput);
    }

    public LaunchRequest withOutputLimit(long bytes) {
        return new LaunchRequest(command, workingDirectory, environment, stdin, timeout, bytes, keepOutputAs, holdOutput);
    }

    public LaunchRequest keepingOutputAs(Path prefix) {
        return new LaunchRequest(command, workingDirectory, environment, stdin, timeout, outputLimitBytes, prefix, false);
    }

    /** The streams stay in scratch space after the launch until the result is kept or released (see {@code holdOutput}). */
    public LaunchRequest holdingOutput() {
        return new LaunchRequest(command, workingDirectory, environment, stdin, timeout, outputLimitBytes, null, true);
    }

    public LaunchRequest withArguments(List<String> extra) {
        List<String> all = new java.util.ArrayList<>(command);
        all.addAll(extra);
        return new LaunchRequest(all, workingDirectory, environment, stdin, timeout, outputLimitBytes, keepOutputAs, holdOutput);
    }
}
