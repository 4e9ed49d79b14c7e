package dev.patchgrade.core.classify;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.classify.ThreeColumnGoal.Options;
import dev.patchgrade.core.digest.SafeNames;
import dev.patchgrade.core.grade.CaseGrading;
import dev.patchgrade.core.grade.GoalReporting;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.launch.CapturedStream;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.report.SectionView;
import dev.patchgrade.core.report.ThreeColumnSection;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The {@code three-column} goal's steps: the reference checked against its sidecar, then every row run on both binaries and classified. */
final class ThreeColumnGrading extends CaseGrading<Case, ThreeColumnGrading.Row, ThreeColumnResult> {
    private final Options options;
    private ReferenceHome referenceFiles;
    private List<Path> goldenFiles;
    private ReferenceLaunchers launchers;

    /** One graded row. */
    record Row(Case testCase, LaunchResult reference, LaunchResult candidate, DriftPattern pattern) {
        /** Its full streams are kept for people to look at: a failing row's, or every row's with keepAll. */
        boolean keeps(boolean keepAll) {
            return !pattern.passed() || keepAll;
        }

        /** The four stream files, both binaries' stdout and stderr. */
        List<Path> files() {
            return List.of(reference.stdout().file(), reference.stderr().file(), candidate.stdout().file(), candidate.stderr().file());
        }
    }

    ThreeColumnGrading(Options options) {
        super(options.settings(), options.run().shard(), options.run().parallel(), "rows");
        this.options = options;
    }

    @Override
    protected void validate() {
        if (options.reference() == null || options.reference().isEmpty()) {
            throw PatchgradeException.badParameter(Setting.REFERENCE, "is required: the frozen reference binary, executable first");
        }
        if (options.candidate() == null || options.candidate().isEmpty()) {
            throw PatchgradeException.badParameter(Setting.CANDIDATE, "is required: the binary built from the patch, executable first");
        }
        if (options.run().timeoutSeconds() <= 0) {
            throw PatchgradeException.badParameter(Setting.TIMEOUT, "must be a positive number of seconds (found " + options.run().timeoutSeconds() + ")");
        }
        referenceFiles = ThreeColumnGoal.referenceHome(settings, options.reference(), options.referenceHome());
    }

    @Override
    protected List<Path> oracles() {
        List<Path> oracles = new ArrayList<>(List.of(options.run().cases(), options.referenceDigest()));
        oracles.addAll(goldenFiles());
        oracles.addAll(referenceFiles.frozen());
        return oracles;
    }

    /** The cases' {@code golden_file}s, hidden from both programs as the cases file is; read once. */
    private List<Path> goldenFiles() {
        if (goldenFiles == null) {
            goldenFiles = CasesFile.goldenFiles(options.run().cases());
        }
        return goldenFiles;
    }

    @Override
    protected Collection<Case> prepare(GradeLog log) {
        log.info("three-column " + settings.executionId() + ": cases " + options.run().cases() + ", reference sidecar " + options.referenceDigest());
        DriftPattern identity = identity(options, referenceFiles);
        if (identity != null) {
            // The worst pattern stops the grade before any row: an error named after the pattern, as SPEC says.
            throw new PatchgradeException(ErrorName.REFERENCE_IDENTITY_DRIFT, identityMessage(settings, options.referenceDigest(), referenceFiles));
        }
        return CasesFile.open(options.run().cases(), true, options.run().shard());
    }

    /**
     * {@link DriftPattern#REFERENCE_IDENTITY_DRIFT} where the reference is not the frozen one (or none was frozen),
     * {@code null} where it is: the worst pattern of all, found before any row runs.
     */
    static DriftPattern identity(Options options, ReferenceHome files) {
        return identity(options.settings(), options.referenceDigest(), files);
    }

    /** The same for any goal that runs a frozen reference: {@code sidecar} is where it was frozen. */
    static DriftPattern identity(GoalSettings settings, Path sidecar, ReferenceHome files) {
        List<String> frozen = ReferenceSidecar.read(sidecar, settings.rerecord("freeze-reference"));
        return frozen != null && frozen.equals(digests(files)) ? null : DriftPattern.REFERENCE_IDENTITY_DRIFT;
    }

    private static List<String> digests(ReferenceHome files) {
        return files.frozen().stream().map(ReferenceSidecar::sha256).toList();
    }

    static String identityMessage(GoalSettings settings, Path sidecar, ReferenceHome files) {
        return identityMessage(settings, sidecar, files, "a reference that changed makes every golden look rotten");
    }

    /** @param why what a changed reference would do to this goal's verdicts */
    static String identityMessage(GoalSettings settings, Path sidecar, ReferenceHome files, String why) {
        String actual = String.join(", ", digests(files));
        String named = String.join(", ", files.frozen().stream().map(Path::toString).toList());
        List<String> frozen = ReferenceSidecar.read(sidecar, settings.rerecord("freeze-reference"));
        if (frozen == null) {
            return "no reference sidecar at " + sidecar + ", so the reference " + named + " (sha256 " + actual
                    + ") cannot be trusted as frozen. Nothing was graded. Freeze it once it is reviewed: `" + settings.rerun("freeze-reference")
                    + "`, and commit the sidecar";
        }
        return changed(files.frozen(), digests(files), frozen) + " since " + sidecar + " was written. Nothing was graded: "
                + why + ". If the change was reviewed, re-freeze it with `"
                + settings.rerecord("freeze-reference") + "`";
    }

    /** Which of the reference's files changed: a test input edited by hand reads differently from a swapped binary. */
    static String changed(List<Path> files, List<String> actual, List<String> recorded) {
        if (actual.size() != recorded.size()) {
            return "the reference's command now names " + actual.size() + " file(s) (" + String.join(", ", files.stream().map(Path::toString).toList())
                    + ") where " + recorded.size() + " were frozen";
        }
        List<String> changes = new ArrayList<>();
        for (int i = 0; i < actual.size(); i++) {
            if (!actual.get(i).equals(recorded.get(i))) {
                changes.add(files.get(i) + " (sha256 " + actual.get(i) + ", frozen as " + recorded.get(i) + ")");
            }
        }
        return "the reference's " + (changes.size() == 1 ? "file " : "files ") + String.join(", ", changes) + (changes.size() == 1 ? " has" : " have")
                + " changed";
    }

    @Override
    protected AutoCloseable openLaunchers(GradeLog log) {
        List<Path> oracles = new ArrayList<>(List.of(options.run().cases(), options.referenceDigest()));
        oracles.addAll(goldenFiles());
        launchers = ReferenceLaunchers.open(settings, log, referenceFiles, options.reference(), options.candidate(),
                () -> CasesFile.open(options.run().cases(), true, dev.patchgrade.core.cases.Shard.ALL), oracles, List.of(), Integer.MAX_VALUE);
        return launchers;
    }

    @Override
    protected Row gradeCase(Case c) {
        Path streams = settings.streamsDirectory().resolve(SafeNames.stem(c.id()));
        LaunchResult reference = settings.mustHaveStarted(
                run(launchers.reference(), options.reference(), c, streams.resolveSibling(streams.getFileName() + ".reference")),
                "reference", options.reference());
        LaunchResult candidate = settings.mustHaveStarted(
                run(launchers.candidate(), options.candidate(), c, streams.resolveSibling(streams.getFileName() + ".candidate")),
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

    private LaunchResult run(Launcher launcher, List<String> command, Case c, Path keep) {
        // Only the arguments, stdin, directory and environment of the case reach a binary; the golden never does.
        Duration timeout = Duration.ofSeconds(options.run().timeoutSeconds());
        return launcher.launch(c.applyTo(settings.launchRequest(command, Map.of(), timeout), settings.workingDirectory(), timeout)
                .keepingOutputAs(keep));
    }

    /** Bytes as ISO-8859-1 characters, so comparisons are byte-exact whatever the encoding. */
    private static Reader stdout(LaunchResult result) {
        return new BufferedReader(new InputStreamReader(CapturedStream.open(result.stdout()), StandardCharsets.ISO_8859_1));
    }

    private static Reader golden(Case c) {
        return new StringReader(new String(c.golden().getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1));
    }

    @Override
    protected boolean failing(Row row) {
        return !row.pattern().passed();
    }

    @Override
    protected GoalReporting<Row, ThreeColumnResult> reporting(GradeLog log) {
        return new GoalReporting<>(new ThreeColumnTally(), new ThreeColumnJUnit(options, log), new ThreeColumnJson(options),
                List.of(new ThreeColumnFiles(options), new ThreeColumnConsole(options, log)));
    }

    @Override
    protected SectionView section() {
        return new ThreeColumnSection();
    }

    @Override
    protected Map<String, Object> errorHead(PatchgradeException error) {
        return GoalRun.head("goal", "three-column", "execution", settings.executionId(), "verdict", "error", "worst", error.errorName());
    }
}
