package dev.patchgrade.core.count;

import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts instructions with Valgrind's cachegrind, cache simulation off and children traced: each
 * process of the tree prints its own {@code I refs} total when it exits, and the count is their sum.
 * Valgrind runs the command 20-50 times slower than native, so its run has a timeout of
 * {@value #SLOWDOWN} times the request's.
 */
public final class ValgrindCounter implements InstructionCounter {
    public static final int SLOWDOWN = 50;
    static final List<String> OPTIONS = List.of("--tool=cachegrind", "--cache-sim=no", "--trace-children=yes",
            "--cachegrind-out-file=/dev/null");
    private static final Pattern I_REFS = Pattern.compile("^==\\d+== I\\s+refs:\\s+([0-9,]+)\\s*$");

    private final Path valgrind;

    public ValgrindCounter(Path valgrind) {
        this.valgrind = valgrind;
    }

    /** The {@code valgrind} executable on {@code path} (a {@code PATH} value), if there is one. */
    public static Optional<Path> locate(String path) {
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(":")) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, "valgrind");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    @Override
    public String method() {
        return "valgrind";
    }

    public Path executable() {
        return valgrind;
    }

    @Override
    public InstructionCount count(Launcher launcher, LaunchRequest request) {
        List<String> command = new ArrayList<>();
        command.add(valgrind.toString());
        command.addAll(OPTIONS);
        command.addAll(request.command());
        Path scratch = null;
        LaunchRequest counted = new LaunchRequest(command, request.workingDirectory(), request.environment(), request.stdin(),
                request.timeout().multipliedBy(SLOWDOWN), request.outputLimitBytes(), request.keepOutputAs(), request.holdOutput());
        try {
            if (counted.keepOutputAs() == null) {
                scratch = Files.createTempDirectory("patchgrade-count-");
                counted = counted.keepingOutputAs(scratch.resolve("valgrind"));
            }
            LaunchResult result = launcher.launch(counted);
            if (!result.started()) {
                return InstructionCount.failed(method(), "valgrind could not start: " + result.startFailure().describe());
            }
            if (!result.exitedZero() || result.outputLimited()) {
                return InstructionCount.failed(method(), "under Valgrind the command " + (result.timedOut()
                        ? "did not finish within " + counted.timeout().toSeconds() + " s (" + SLOWDOWN + " times the timeout)"
                        : "ended with " + result.outcome()) + ", so no count was taken; see " + result.stderr().file());
            }
            Long total = sumOfIRefs(result.stderr().file());
            return total == null
                    ? InstructionCount.failed(method(), "valgrind printed no \"I refs\" total; see " + result.stderr().file())
                    : InstructionCount.of(total, method());
        } catch (IOException e) {
            return InstructionCount.failed(method(), "cannot read Valgrind's report: " + e.getMessage());
        } finally {
            if (scratch != null) {
                deleteQuietly(scratch);
            }
        }
    }

    /** The sum of every process's {@code I refs} line in Valgrind's log, or {@code null} when there is none. */
    static Long sumOfIRefs(Path log) throws IOException {
        Long total = null;
        try (BufferedReader reader = Files.newBufferedReader(log, StandardCharsets.ISO_8859_1)) {
            String line;
            while ((line = reader.readLine()) != null) {
                Matcher matcher = I_REFS.matcher(line);
                if (matcher.matches()) {
                    long refs = Long.parseLong(matcher.group(1).replace(",", ""));
                    total = total == null ? refs : Math.addExact(total, refs);
                }
            }
        }
        return total;
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.walk(dir)) {
            for (Path path : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException | UncheckedIOException e) {
            // a scratch directory under the system temp dir; nothing depends on it
        }
    }
}
