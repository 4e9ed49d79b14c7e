package dev.patchgrade.core.classify;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.digest.SafeNames;
import dev.patchgrade.core.grade.CaseRunner;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.OracleGuard;
import dev.patchgrade.core.grade.ProjectPaths;
import dev.patchgrade.core.grade.Reports;
import dev.patchgrade.core.launch.CapturedStream;
import dev.patchgrade.core.launch.ChildEnvironment;
import dev.patchgrade.core.launch.ExecutableCheck;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.report.AtomicFiles;
import dev.patchgrade.core.report.ConsoleTable;
import dev.patchgrade.core.report.FirstDifference;
import dev.patchgrade.core.report.JsonReports;
import dev.patchgrade.core.report.TestCaseReport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code freeze-reference} and {@code three-column} goals, without Maven. */
public final class ThreeColumnGoal {
    private static final int MESSAGE_EXCERPT = FirstDifference.WIDTH;
    private static final int TABLE_ROWS = 30;

    private ThreeColumnGoal() {}

    public record Options(GoalSettings settings, Path cases, List<String> reference, List<String> candidate, Path referenceDigest,
            Comparison comparison, int timeoutSeconds, int parallel, Shard shard) {}

    /** One graded row. */
    record Row(Case testCase, LaunchResult reference, LaunchResult candidate, Pattern pattern) {}

    public static String freeze(GoalSettings settings, List<String> reference, Path sidecar, boolean force, GradeLog log) {
        if (Files.exists(sidecar) && !force) {
            throw new PatchgradeException("refused_overwrite", sidecar + " exists and freeze-reference does not overwrite it. If the new "
                    + "reference was reviewed, re-run with -Dpatchgrade.force=true (or <force>true</force>) and commit the sidecar");
        }
        Path executable = referenceExecutable(settings, reference);
        String sha = ReferenceSidecar.sha256(executable);
        try {
            AtomicFiles.write(sidecar, ReferenceSidecar.line(sha, ProjectPaths.portable(executable.toAbsolutePath(), settings.projectDirectory())).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new PatchgradeException("write_failed", "cannot write " + sidecar + ": " + e.getMessage(), e);
        }
        log.info("Froze the reference " + executable + " as sha256 " + sha + " in " + sidecar);
        return sha;
    }

    public static GoalResult grade(Options options, GradeLog log) {
        GoalSettings settings = options.settings();
        return Reports.grade(settings, settings.suiteName(options.shard()), e -> Map.of("goal", "three-column", "execution", settings.executionId(), "verdict", "error", "worst", e.errorName()), log, () -> gradeAndReport(options, log));
    }

    private static GoalResult gradeAndReport(Options options, GradeLog log) {
        GoalSettings settings = options.settings();
        long started = System.nanoTime();
        validate(options);
        log.info("three-column " + settings.executionId() + ": cases " + options.cases() + ", reference sidecar " + options.referenceDigest());
        Path referenceBinary = referenceExecutable(settings, options.reference());
        OracleGuard guard = OracleGuard.snapshot(List.of(options.cases(), options.referenceDigest(), referenceBinary));
        checkIdentity(options, referenceBinary);
        List<Case> cases = options.shard().select(CasesFile.read(options.cases(), true));
        List<Row> rows;
        List<Path> oracles = List.of(options.cases(), options.referenceDigest());
        List<Path> candidateBinary = settings.executablesOf(options.candidate());
        // The candidate must not run the reference and print its answers: hidden while a candidate runs,
        // unless the candidate is the reference binary itself (run with other arguments).
        List<Path> hiddenFromCandidate = sameFile(candidateBinary, referenceBinary) ? oracles : concat(oracles, referenceBinary);
        try (Launcher referenceLauncher = settings.openLauncher(log, oracles, List.of(referenceBinary));
                Launcher candidateLauncher = settings.openLauncher(log, hiddenFromCandidate, candidateBinary)) {
            rows = CaseRunner.runAll(cases, options.parallel(), c -> gradeRow(referenceLauncher, candidateLauncher, options, c),
                    r -> !r.pattern().passed(), log);
        }
        guard.verifyUnchanged();
        double seconds = (System.nanoTime() - started) / 1e9;
        Pattern worst = rows.stream().map(Row::pattern).min(Enum::compareTo).orElse(Pattern.PASS_ALL_AGREE);
        writeReports(options, rows, worst, seconds, log);
        printTable(log, options, rows, worst);
        List<String> failures = rows.stream().filter(r -> !r.pattern().passed())
                .map(r -> CasesFile.printable(r.testCase().id()) + ": " + r.pattern().wireName() + " (" + message(r) + ")").toList();
        return new GoalResult(failures, null, worst.wireName());
    }

    private static void validate(Options options) {
        if (options.reference() == null || options.reference().isEmpty()) {
            throw new PatchgradeException("bad_parameter", "<reference> is required: the frozen reference binary, executable first");
        }
        if (options.candidate() == null || options.candidate().isEmpty()) {
            throw new PatchgradeException("bad_parameter", "<candidate> is required: the binary built from the patch, executable first");
        }
        if (options.timeoutSeconds() <= 0) {
            throw new PatchgradeException("bad_parameter", "<timeout> must be a positive number of seconds (found " + options.timeoutSeconds() + ")");
        }
    }

    private static Path referenceExecutable(GoalSettings settings, List<String> reference) {
        if (reference == null || reference.isEmpty()) {
            throw new PatchgradeException("bad_parameter", "<reference> is required: the frozen reference binary, executable first");
        }
        ExecutableCheck.Resolution resolution = ExecutableCheck.resolve(reference.get(0), settings.workingDirectory(),
                ChildEnvironment.pinned(settings.environment()));
        if (!resolution.ok()) {
            GoalSettings.mustHaveStarted(LaunchResult.couldNotStart(resolution.failure()), "reference", reference);
        }
        return resolution.path();
    }

    private static void checkIdentity(Options options, Path referenceBinary) {
        String actual = ReferenceSidecar.sha256(referenceBinary);
        String frozen = ReferenceSidecar.read(options.referenceDigest(), options.settings().hint("freeze-reference", "-Dpatchgrade.force=true"));
        if (frozen == null) {
            throw new PatchgradeException("reference_identity_drift", "no reference sidecar at " + options.referenceDigest() + ", so the reference "
                    + referenceBinary + " (sha256 " + actual + ") cannot be trusted as frozen. Nothing was graded. Freeze it once it is reviewed: "
                    + "`" + options.settings().hint("freeze-reference", "") + "`, and commit the sidecar");
        }
        if (!frozen.equals(actual)) {
            throw new PatchgradeException("reference_identity_drift", "the reference " + referenceBinary + " has sha256 " + actual + " but "
                    + options.referenceDigest() + " records " + frozen + ". Nothing was graded: a swapped reference makes every golden look "
                    + "rotten. If the new reference was reviewed, re-freeze it with `" + options.settings().hint("freeze-reference", "-Dpatchgrade.force=true") + "`");
        }
    }

    private static boolean sameFile(List<Path> candidate, Path reference) {
        try {
            return !candidate.isEmpty() && Files.isSameFile(candidate.get(0), reference);
        } catch (IOException e) {
            return false;
        }
    }

    private static List<Path> concat(List<Path> paths, Path more) {
        List<Path> all = new java.util.ArrayList<>(paths);
        all.add(more);
        return all;
    }

    private static Row gradeRow(Launcher referenceLauncher, Launcher candidateLauncher, Options options, Case c) {
        Path streams = options.settings().streamsDirectory().resolve(SafeNames.stem(c.id()));
        LaunchResult reference = GoalSettings.mustHaveStarted(
                run(referenceLauncher, options, options.reference(), c, streams.resolveSibling(streams.getFileName() + ".reference")),
                "reference", options.reference());
        LaunchResult candidate = GoalSettings.mustHaveStarted(
                run(candidateLauncher, options, options.candidate(), c, streams.resolveSibling(streams.getFileName() + ".candidate")),
                "candidate", options.candidate());
        Comparison rule = options.comparison();
        Classifier.Evidence evidence = new Classifier.Evidence(reference.timedOut(), candidate.timedOut(),
                exitedAsExpected(reference, c), exitedAsExpected(candidate, c),
                compare(rule, stdout(reference), stdout(candidate)),
                compare(rule, stdout(candidate), golden(c)),
                compare(rule, stdout(reference), golden(c)));
        return new Row(c, reference, candidate, Classifier.classify(evidence));
    }

    /** Compares and closes both sides; closing a kept output checks it still holds what was captured. */
    private static boolean compare(Comparison rule, Reader left, Reader right) {
        try (left; right) {
            return rule.equal(left, right);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read an output back to compare it", e);
        }
    }

    /** Ended by itself with the row's {@code expect_exit} (0 unless the case says otherwise). */
    private static boolean exitedAsExpected(LaunchResult result, Case c) {
        return result.started() && !result.timedOut() && result.exitCode() != null && result.exitCode() == c.expectExit();
    }

    private static LaunchResult run(Launcher launcher, Options options, List<String> command, Case c, Path keep) {
        // Only the arguments, stdin, directory and environment of the case reach a binary; the golden never does.
        Duration timeout = Duration.ofSeconds(options.timeoutSeconds());
        return launcher.launch(c.applyTo(options.settings().launchRequest(command, Map.of(), timeout), options.settings().workingDirectory(), timeout)
                .keepingOutputAs(keep));
    }

    /** Bytes as ISO-8859-1 characters, so comparisons are byte-exact whatever the encoding. */
    private static Reader stdout(LaunchResult result) {
        return new BufferedReader(new InputStreamReader(CapturedStream.open(result.stdout()), StandardCharsets.ISO_8859_1));
    }

    private static Reader golden(Case c) {
        return new StringReader(new String(c.golden().getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
    }

    static String message(Row row) {
        if (row.pattern() == Pattern.TIMEOUT || row.pattern() == Pattern.NONZERO_EXIT) {
            return "reference " + row.reference().outcome() + ", candidate " + row.candidate().outcome()
                    + (row.testCase().expectExit() == 0 ? "" : " (expected exit " + row.testCase().expectExit() + ")");
        }
        String reference = row.reference().stdout().excerpt().strip();
        String candidate = row.candidate().stdout().excerpt().strip();
        String golden = row.testCase().golden().strip();
        int at = firstDifference(reference, candidate, golden);
        return "reference=" + quote(reference, at) + " candidate=" + quote(candidate, at) + " golden=" + quote(golden, at);
    }

    private static String differingLine(Row row) {
        if (row.pattern() == Pattern.TIMEOUT || row.pattern() == Pattern.NONZERO_EXIT) {
            return "";
        }
        String line = firstDifferingLine(row.reference().stdout().excerpt(), row.candidate().stdout().excerpt(), row.testCase().golden());
        return line == null ? "" : "\n" + line;
    }

    /** Where the first of the three texts parts from another, so that every excerpt shows that place. */
    static int firstDifference(String... texts) {
        int at = Integer.MAX_VALUE;
        for (int i = 0; i < texts.length; i++) {
            for (int j = i + 1; j < texts.length; j++) {
                int index = FirstDifference.firstIndex(texts[i], texts[j]);
                if (index >= 0) {
                    at = Math.min(at, index);
                }
            }
        }
        return at == Integer.MAX_VALUE ? 0 : at;
    }

    /**
     * The first line where the three outputs part, each side centred on where they part: the body's
     * full excerpts start at the beginning, and a difference far into a long line must still show.
     * {@code null} where the three agree line for line (a difference only in surrounding white space).
     */
    static String firstDifferingLine(String reference, String candidate, String golden) {
        List<String> r = FirstDifference.lines(reference);
        List<String> c = FirstDifference.lines(candidate);
        List<String> g = FirstDifference.lines(golden);
        int count = Math.max(r.size(), Math.max(c.size(), g.size()));
        for (int i = 0; i < count; i++) {
            String ri = i < r.size() ? r.get(i) : null;
            String ci = i < c.size() ? c.get(i) : null;
            String gi = i < g.size() ? g.get(i) : null;
            if (java.util.Objects.equals(ri, ci) && java.util.Objects.equals(ci, gi)) {
                continue;
            }
            int at = firstDifference(ri == null ? "" : ri, ci == null ? "" : ci, gi == null ? "" : gi);
            return "first differing line " + (i + 1) + ": reference " + lineSide(ri, at) + " | candidate " + lineSide(ci, at)
                    + " | golden " + lineSide(gi, at);
        }
        return null;
    }

    private static String lineSide(String line, int at) {
        return line == null ? "(no such line)" : quote(line, at);
    }

    private static String quote(String text, int at) {
        return "<" + FirstDifference.excerpt(text, at, MESSAGE_EXCERPT) + ">";
    }

    public static Path feedbackFile(GoalSettings settings) {
        return settings.reportsDirectory().resolve(settings.qualifiedName() + ".feedback.jsonl");
    }

    private static Map<String, Object> side(LaunchResult result) {
        Map<String, Object> side = new LinkedHashMap<>();
        side.put("exit", result.exitCode());
        side.put("signal", result.signal());
        side.put("timed_out", result.timedOut());
        side.put("stdout", result.stdout().excerpt());
        side.put("stdout_complete", result.stdout().complete());
        side.put("stderr", result.stderr().excerpt());
        side.put("stdout_file", String.valueOf(result.stdout().file()));
        return side;
    }

    private static void writeReports(Options options, List<Row> rows, Pattern worst, double seconds, GradeLog log) {
        GoalSettings settings = options.settings();
        List<TestCaseReport> tests = new ArrayList<>();
        List<Map<String, Object>> jsonRows = new ArrayList<>();
        StringBuilder feedback = new StringBuilder();
        Map<Pattern, Integer> counts = new EnumMap<>(Pattern.class);
        for (Row row : rows) {
            counts.merge(row.pattern(), 1, Integer::sum);
            double caseSeconds = (row.reference().wallMicros() + row.candidate().wallMicros()) / 1e6;
            String out = "reference stdout:\n" + row.reference().stdout().excerpt() + "\ncandidate stdout:\n" + row.candidate().stdout().excerpt();
            String err = "reference stderr:\n" + row.reference().stderr().excerpt() + "\ncandidate stderr:\n" + row.candidate().stderr().excerpt();
            if (row.pattern().passed()) {
                tests.add(TestCaseReport.passed(row.testCase().id(), caseSeconds, out, err));
            } else {
                String details = row.pattern().wireName() + ": " + row.pattern().advice() + "\ncomparison: " + options.comparison()
                        + "\nargs: " + row.testCase().args()
                        + differingLine(row)
                        + "\nreference (" + row.reference().outcome() + "):\n" + row.reference().stdout().excerpt()
                        + "\ncandidate (" + row.candidate().outcome() + "):\n" + row.candidate().stdout().excerpt()
                        + "\ngolden:\n" + row.testCase().golden()
                        + "\nfull streams: " + row.reference().stdout().file() + ", " + row.candidate().stdout().file()
                        + options.settings().facts().hintText(row.reference().stderr().excerpt() + "\n" + row.candidate().stderr().excerpt(), log)
                        + "\n";
                tests.add(TestCaseReport.failed(row.testCase().id(), caseSeconds, row.pattern().wireName(), message(row), details, out, err));
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("id", row.testCase().id());
                line.put("args", row.testCase().args());
                line.put("reference", row.reference().stdout().excerpt());
                line.put("candidate", row.candidate().stdout().excerpt());
                line.put("pattern", row.pattern().wireName());
                try {
                    feedback.append(JsonReports.MAPPER.writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                            .writeValueAsString(line)).append('\n');
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", row.testCase().id());
            json.put("args", row.testCase().args());
            json.put("pattern", row.pattern().wireName());
            json.put("reference", side(row.reference()));
            json.put("candidate", side(row.candidate()));
            json.put("golden", row.testCase().golden());
            jsonRows.add(json);
        }
        Reports.writeSuite(settings, settings.suiteName(options.shard()), tests, seconds);
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("goal", "three-column");
        report.put("execution", settings.executionId());
        report.put("verdict", worst.passed() ? "pass" : "fail");
        report.put("worst", worst.wireName());
        report.put("comparison", options.comparison().toString());
        report.put("shard", options.shard().all() ? null : options.shard().index() + "/" + options.shard().count());
        Map<String, Integer> countJson = new LinkedHashMap<>();
        counts.forEach((pattern, n) -> countJson.put(pattern.wireName(), n));
        report.put("counts", countJson);
        report.put("sandbox", Reports.sandboxJson(settings));
        report.put("rows", jsonRows);
        JsonReports.write(report, settings.jsonReport());
        try {
            AtomicFiles.write(feedbackFile(settings), feedback.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + feedbackFile(settings), e);
        }
    }

    private static void printTable(GradeLog log, Options options, List<Row> rows, Pattern worst) {
        ConsoleTable table = new ConsoleTable("case", "pattern", "reference | candidate | golden");
        // Passing rows only when asked for: the counts below say how many there are.
        List<Row> shown = rows.stream().filter(r -> log.verbose() || !r.pattern().passed()).limit(log.verbose() ? Long.MAX_VALUE : TABLE_ROWS).toList();
        shown.forEach(r -> table.row(CasesFile.printable(r.testCase().id()), r.pattern().wireName(), message(r)));
        log.info("three-column grade of " + rows.size() + " row(s), comparison " + options.comparison()
                + (options.shard().all() ? "" : " (" + options.shard().label() + ")") + ":");
        if (!shown.isEmpty()) {
            table.lines().forEach(log::info);
        }
        if (shown.size() < rows.size()) {
            log.info((rows.size() - shown.size()) + " more row(s) not listed; list every row with -Dpatchgrade.verbose=true");
        }
        ConsoleTable counts = new ConsoleTable("pattern", "rows");
        for (Pattern pattern : Pattern.values()) {
            long n = rows.stream().filter(r -> r.pattern() == pattern).count();
            if (n > 0) {
                counts.row(pattern.wireName(), Long.toString(n));
            }
        }
        counts.lines().forEach(log::info);
        log.info("worst pattern: " + worst.wireName() + (worst.passed() ? "" : " (" + worst.advice() + ")"));
    }
}
