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
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts instructions with Valgrind's cachegrind, cache simulation off and children traced: each
 * process of the tree prints its own {@code I refs} total when it exits, and the count is their sum.
 * Valgrind runs the command 20-50 times slower than native, so its run has a timeout of
 * {@value #SLOWDOWN} times the request's.
 *
 * <p>A process prints its total only when it ends normally, and an execve starts a new total: work
 * done in a process killed with SIGKILL, or before an execve, is missing from the sum ({@link #LIMITATION}).
 * A run with leftovers (killed by the launcher) or with a traced image that printed no total is
 * therefore no count; a killed fork child cannot be caught that way, since Valgrind prints no
 * {@code Command:} line for it.
 */
public final class ValgrindCounter implements InstructionCounter {
    public static final int SLOWDOWN = 50;
    /**
     * No gdbserver: its FIFOs go to the host's /tmp with the sandbox off, and a run killed at its timeout left them
     * there ({@code vgdb-pipe-*}); no output file of Cachegrind's, the count is read from stderr.
     */
    static final List<String> OPTIONS = List.of("--tool=cachegrind", "--cache-sim=no", "--trace-children=yes",
            "--cachegrind-out-file=/dev/null", "--vgdb=no");
    private static final Pattern I_REFS = Pattern.compile("^==(\\d+)== I\\s+refs:\\s+([0-9,]+)\\s*$");
    private static final Pattern COMMAND = Pattern.compile("^==(\\d+)== Command: .*$");
    /** What a Valgrind count misses, for the reports ({@code measured.counter_limitation}) and the README. */
    public static final String LIMITATION = "Valgrind counts a process only when it ends normally and starts a new count at each "
            + "execve: work done in a process killed with SIGKILL, or before an execve, is not counted, and a program can tell "
            + "it runs under Valgrind. Against a hostile candidate this count is a lower bound such a program can push down; "
            + "hardware counters (instructionCounter=perf) have neither gap";

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
            if (result.leftovers() > 0) {
                return InstructionCount.failed(method(), "under Valgrind " + result.leftovers() + " process(es) of the command outlived it "
                        + "and were killed, and Valgrind counts a process only when it ends normally, so the count would be incomplete; "
                        + "see " + result.stderr().file());
            }
            Report report = read(result.stderr().file());
            if (!report.unreported().isEmpty()) {
                return InstructionCount.failed(method(), "under Valgrind process(es) " + String.join(", ", report.unreported())
                        + " started but printed no \"I refs\" total (killed before Valgrind could report them), so the count would be "
                        + "incomplete; see " + result.stderr().file());
            }
            return report.total() == null
                    ? InstructionCount.failed(method(), "valgrind printed no \"I refs\" total; see " + result.stderr().file())
                    : InstructionCount.of(report.total(), method(), result.stdout().sha256());
        } catch (IOException e) {
            return InstructionCount.failed(method(), "cannot read Valgrind's report: " + e.getMessage());
        } finally {
            if (scratch != null) {
                deleteQuietly(scratch);
            }
        }
    }

    /**
     * What Valgrind's log says.
     *
     * @param total the sum of every process's {@code I refs} line, or {@code null} when there is none
     * @param unreported the PIDs, in log order, that printed a {@code Command:} line (Valgrind started on an
     *     image) but no {@code I refs} total: killed before Valgrind could report. A forked child prints no
     *     {@code Command:} line, so a killed fork child is not among them
     */
    record Report(Long total, List<String> unreported) {}

    static Report read(Path log) throws IOException {
        Long total = null;
        Set<String> started = new LinkedHashSet<>();
        Set<String> reported = new HashSet<>();
        try (BufferedReader reader = Files.newBufferedReader(log, StandardCharsets.ISO_8859_1)) {
            String line;
            while ((line = reader.readLine()) != null) {
                Matcher refs = I_REFS.matcher(line);
                if (refs.matches()) {
                    reported.add(refs.group(1));
                    long value = Long.parseLong(refs.group(2).replace(",", ""));
                    total = total == null ? value : Math.addExact(total, value);
                    continue;
                }
                Matcher command = COMMAND.matcher(line);
                if (command.matches()) {
                    started.add(command.group(1));
                }
            }
        }
        started.removeAll(reported);
        return new Report(total, List.copyOf(started));
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
