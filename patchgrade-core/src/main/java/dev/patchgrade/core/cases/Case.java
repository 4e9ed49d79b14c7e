package dev.patchgrade.core.cases;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.launch.LaunchRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One graded case.
 *
 * @param line the line of the cases file it came from (1-based), for messages
 * @param stdin text fed to the child, or {@code null} for empty stdin
 * @param golden the expected stdout in a three-column cases file, else {@code null}; never given to a child
 * @param timeoutSeconds this case's own wall-clock cap, or {@code null} for the goal's {@code timeout}
 * @param cwd the directory the case starts in, relative to the goal's working directory, or {@code null}
 * @param env variables added to the child environment for this case only
 * @param expectExit the exit status both binaries of a three-column row are expected to end with
 */
public record Case(String id, List<String> args, String stdin, String golden, int line, Double timeoutSeconds, String cwd,
        Map<String, String> env, int expectExit) {
    public Case {
        args = List.copyOf(args);
        env = env == null ? Map.of() : Map.copyOf(env);
    }

    public Case(String id, List<String> args, String stdin, String golden, int line) {
        this(id, args, stdin, golden, line, null, null, Map.of(), 0);
    }

    /**
     * {@code base} (the goal's command, environment and directory) with this case's arguments, stdin,
     * directory, environment and timeout applied.
     *
     * @param defaultTimeout the goal's {@code timeout}, for a case without {@code timeout_s}
     */
    public LaunchRequest applyTo(LaunchRequest base, Path workingDirectory, Duration defaultTimeout) {
        LaunchRequest request = base.withArguments(args)
                .withStdin(stdin == null ? null : stdin.getBytes(StandardCharsets.UTF_8))
                .withTimeout(timeoutSeconds == null ? defaultTimeout : Duration.ofNanos(Math.round(timeoutSeconds * 1e9)));
        if (cwd != null) {
            Path directory = workingDirectory.resolve(cwd).normalize();
            if (!Files.isDirectory(directory)) {
                throw new PatchgradeException(ErrorName.BAD_CASE, shown -> "case \"" + CasesFile.printable(id) + "\" (line " + line + "): key "
                        + "\"cwd\" is \"" + cwd + "\", but " + directory + " is not a directory; create it, or fix \"cwd\" (it is relative to "
                        + shown.setting(Setting.WORKING_DIRECTORY) + ", " + workingDirectory + ")");
            }
            request = request.withWorkingDirectory(directory);
        }
        if (!env.isEmpty()) {
            Map<String, String> merged = new LinkedHashMap<>(request.environment());
            merged.putAll(env);
            request = request.withEnvironment(merged);
        }
        return request;
    }
}
