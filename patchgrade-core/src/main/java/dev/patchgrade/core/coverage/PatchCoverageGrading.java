package dev.patchgrade.core.coverage;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.cases.CaseSource;
import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.coverage.PatchCoverageGoal.Options;
import dev.patchgrade.core.grade.CaseRunner;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalReports;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.report.PatchCoverageSection;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.OracleGuard;
import dev.patchgrade.core.grade.Reporters;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.report.ExecutionReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** The {@code patch-coverage} goal's steps: the patch read from git, every case run on the coverage build, the counts read and judged. */
final class PatchCoverageGrading {
    /** How many of the cases that timed out or wrote no data the reports name. */
    static final int CASES_NAMED = 20;

    private final Options options;
    private final GoalSettings settings;
    private Git.Patch patch;
    private Gcov gcov;
    private CoverageScratch scratch;
    private Launcher launcher;
    private Map<Path, Integer> changedFiles;
    private List<java.util.TreeSet<Integer>> changedLines;
    private final Map<Path, Integer> matched = new ConcurrentHashMap<>();
    /** Per object, whether its data speak of a changed file: gcov lists the same sources for every run of one build. */
    private final Map<Path, Boolean> relevant = new ConcurrentHashMap<>();

    /** What one case gave. */
    record CaseRun(Case testCase, String outcome, boolean timedOut, int dataFiles, LineTally.CaseCounts counts) {}

    private PatchCoverageGrading(Options options) {
        this.options = options;
        this.settings = options.settings();
    }

    static GoalResult grade(Options options, GradeLog log) {
        GoalSettings settings = options.settings();
        PatchCoverageGrading grading = new PatchCoverageGrading(options);
        return GoalRun.grade(settings, settings.className(), e -> GoalRun.head("goal", "patch-coverage", "execution", settings.executionId(),
                "verdict", "error"), PatchCoverageSection::new, log, reports -> grading.run(log, reports));
    }

    private GoalResult run(GradeLog log, GoalReports reports) throws IOException {
        long started = System.nanoTime();
        PatchCoverageGoal.validate(options);
        CaseRunner.requireWorkers(options.run().parallel());
        Path casesFile = options.run().cases();
        OracleGuard guard = OracleGuard.snapshot(List.of(casesFile));
        CaseSource cases = CasesFile.open(casesFile, CasesFile.holdsGoldens(casesFile), Shard.ALL);
        patch = Git.read(options.sourceRoot(), settings.projectDirectory(), options.base());
        gcov = Gcov.probe(options.gcov());
        log.info("patch-coverage " + settings.executionId() + ": " + patch.files().size() + " C/C++ file(s) changed under " + patch.root()
                + " since " + options.base() + " (" + abbreviated(patch.baseObject()) + "), " + patch.changedLines() + " added or modified line(s); "
                + cases.size() + " case(s) of " + casesFile + " on " + String.join(" ", options.command()) + ", read with " + gcov.version());
        LineTally tally = new LineTally(patch.files());
        List<String> timedOut = new ArrayList<>();
        List<String> withoutData = new ArrayList<>();
        long[] counts = new long[3]; // cases, timed out, without data
        if (!patch.files().isEmpty()) {
            changedFiles = new HashMap<>();
            changedLines = patch.files().stream().map(PatchDiff.FileChange::changedLines).toList();
            for (int i = 0; i < patch.files().size(); i++) {
                Path file = patch.absolute(patch.files().get(i));
                changedFiles.put(file, i);
                try {
                    changedFiles.putIfAbsent(file.toRealPath(), i);
                } catch (IOException e) {
                    // listed by git, so it exists; a link git follows differently stays matched by its own path
                }
            }
            scratch = CoverageScratch.fresh(settings);
            try (Launcher opened = scratch.openLauncher(settings, log, List.of(casesFile), dev.patchgrade.core.grade.RunInputs.of(options.command(),
                    () -> CasesFile.open(casesFile, CasesFile.holdsGoldens(casesFile), Shard.ALL)),
                    options.run().parallel())) {
                launcher = opened;
                CaseRunner.forEach(cases, options.run().parallel(), this::runCase, run -> false, run -> {
                    counts[0]++;
                    if (run.timedOut()) {
                        counts[1]++;
                        named(timedOut, run.testCase().id());
                    }
                    if (run.dataFiles() == 0) {
                        counts[2]++;
                        named(withoutData, run.testCase().id());
                    }
                    tally.add(run.testCase().line(), run.testCase().id(), run.counts());
                }, log);
            } finally {
                launcher = null;
                scratch.delete();
            }
            if (counts[2] == counts[0]) {
                throw noData(counts[0], counts[1]);
            }
        } else {
            log.info("patch-coverage " + settings.executionId() + ": git diff " + options.base() + " changes no line of a C or C++ file under "
                    + patch.root() + ": nothing to measure, no case run");
        }
        guard.verifyUnchanged();
        List<FileCoverage> files = tally.result();
        if (counts[1] > 0) {
            log.warn(counts[1] + " case(s) timed out, and a killed run writes no coverage data: their lines are not counted (first: "
                    + timedOut + "). Raise " + settings.suggestions().setting(dev.patchgrade.core.Setting.TIMEOUT)
                    + " for the coverage build, which runs slower than an optimised one");
        }
        if (counts[2] > counts[1]) {
            log.warn((counts[2] - counts[1]) + " case(s) wrote no coverage data although they did not time out (first: " + withoutData
                    + "): a run that ends by a signal or _exit() skips the data's writing at exit");
        }
        PatchCoverageResult result = new PatchCoverageResult(options, patch, gcov, files, counts[0], timedOut, counts[1], withoutData, counts[2],
                (System.nanoTime() - started) / 1e9);
        report(reports, result, log);
        return result.goalResult();
    }

    /** Hands the files, then the result, to every reporter: the JUnit XML, the JSON report, then the console. */
    private void report(GoalReports reports, PatchCoverageResult result, GradeLog log) {
        try (ExecutionReport report = reports.open(settings.className(), "files")) {
            if (result.files().isEmpty()) {
                // No file is a row, and an XML suite without a case would not say why.
                report.addCase(PatchCoverageJUnit.nothingToMeasure(result));
            }
            Reporters<FileCoverage, PatchCoverageResult> reporters = reports.reporters(report, result::seconds, result::below,
                    new PatchCoverageJUnit(options.minimumPercent()), new PatchCoverageJson(settings, options.minimumPercent()),
                    List.of(new PatchCoverageConsole(settings, log)));
            result.files().forEach(reporters::row);
            reporters.finish(result);
        }
    }

    private static void named(List<String> names, String id) {
        if (names.size() < CASES_NAMED) {
            names.add(CasesFile.printable(id));
        }
    }

    private PatchgradeException noData(long cases, long timedOut) {
        String command = String.join(" ", options.command());
        String why = timedOut == cases ? "every case timed out, and a killed run writes no coverage data: raise "
                + settings.suggestions().setting(dev.patchgrade.core.Setting.TIMEOUT) + " for the coverage build"
                : "it is not a coverage build. Compile and link it with --coverage (CMake: -DCMAKE_C_FLAGS=--coverage "
                        + "-DCMAKE_CXX_FLAGS=--coverage -DCMAKE_EXE_LINKER_FLAGS=--coverage), and give that binary as command";
        return new PatchgradeException(ErrorName.NO_COVERAGE_DATA, shown -> "none of the " + cases + " case(s) run on " + command
                + " wrote coverage data (.gcda, through GCOV_PREFIX into " + scratch.runs() + "): " + why + " ("
                + shown.setting(dev.patchgrade.core.Setting.COMMAND) + ")");
    }

    /** Runs one case in its own data directory, then reads what its tree wrote, keeping only the changed lines' counts. */
    private CaseRun runCase(Case c) {
        Path data = scratch.runs().resolve("line-" + c.line());
        Path tree = scratch.gcov().resolve("line-" + c.line());
        try {
            Files.createDirectories(data);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the coverage data directory " + data, e);
        }
        Duration timeout = Duration.ofSeconds(options.run().timeoutSeconds());
        LaunchRequest request = c.applyTo(settings.launchRequest(options.command(), Map.of(), timeout), settings.workingDirectory(), timeout);
        Map<String, String> environment = new LinkedHashMap<>(request.environment());
        // Set last: a case's env or the execution's environment must not send the data elsewhere.
        environment.put("GCOV_PREFIX", data.toString());
        environment.put("GCOV_PREFIX_STRIP", "0");
        LaunchResult result = launcher.launch(request.withEnvironment(environment));
        settings.mustHaveStarted(result, "command", options.command());
        try {
            List<CaseData.Found> found = CaseData.collect(data);
            LineTally.CaseCounts counts = found.isEmpty() ? LineTally.CaseCounts.none() : counts(found, tree);
            return new CaseRun(c, result.outcome(), result.timedOut(), found.size(), counts);
        } finally {
            CaseData.delete(data);
            CaseData.delete(tree);
        }
    }

    private LineTally.CaseCounts counts(List<CaseData.Found> found, Path tree) {
        List<CaseData.Found> read = found.stream().filter(f -> relevant.getOrDefault(f.object(), true)).toList();
        Map<Integer, Map<Integer, Long>> byFile = new TreeMap<>();
        if (read.isEmpty()) {
            return new LineTally.CaseCounts(byFile);
        }
        List<Path> copies = CaseData.layOut(read, tree);
        Map<String, Path> objects = new HashMap<>();
        for (int i = 0; i < read.size(); i++) {
            objects.put(copies.get(i).toString(), read.get(i).object());
        }
        java.util.function.Consumer<GcovOutput.Data> each = data -> {
            boolean speaks = false;
            for (GcovOutput.Source source : data.sources()) {
                int index = index(source.file());
                if (index < 0) {
                    continue;
                }
                speaks = true;
                Map<Integer, Long> lines = byFile.computeIfAbsent(index, i -> new TreeMap<>());
                java.util.TreeSet<Integer> changed = changedLines.get(index);
                source.counts().forEach((line, count) -> {
                    if (changed.contains(line)) {
                        lines.merge(line, count, Long::sum);
                    }
                });
            }
            Path object = data.dataFile() == null ? null : objects.get(data.dataFile());
            if (object != null) {
                relevant.put(object, speaks);
            }
        };
        if (gcov.json()) {
            gcov.read(copies, tree, each);
        } else {
            for (int i = 0; i < copies.size(); i++) {
                // A listing names its sources as the compiler was given them: relative ones from where it ran, most often beside the object.
                gcov.read(List.of(copies.get(i)), read.get(i).object().getParent(), each);
            }
        }
        return new LineTally.CaseCounts(byFile);
    }

    /** The changed file a source gcov names is, or -1. */
    private int index(Path source) {
        return matched.computeIfAbsent(source, s -> {
            Integer index = changedFiles.get(s);
            if (index == null) {
                try {
                    index = changedFiles.get(s.toRealPath());
                } catch (IOException e) {
                    index = null;
                }
            }
            return index == null ? -1 : index;
        });
    }

    private static String abbreviated(String object) {
        return object.length() > 12 ? object.substring(0, 12) : object;
    }
}
