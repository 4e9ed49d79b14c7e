package dev.patchgrade.core.envelope;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.count.InstructionCount;
import dev.patchgrade.core.count.InstructionCounters;
import dev.patchgrade.core.envelope.EnvelopeGoal.GradeOptions;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalReports;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.report.EnvelopeSection;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.OracleGuard;
import dev.patchgrade.core.grade.Reporters;
import dev.patchgrade.core.hashing.Sha256;
import dev.patchgrade.core.host.HostInfo;
import dev.patchgrade.core.host.Toolchain;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.report.ExecutionReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The {@code envelope} goal: one command run against its committed ceilings. */
final class EnvelopeGrading {
    private EnvelopeGrading() {}

    static GoalResult grade(GradeOptions options, GradeLog log) {
        GoalSettings settings = options.settings();
        EnvelopeGoal.Measurement measured = options.measurement();
        Shard shard = options.run().shard();
        if (!shard.selects(settings.executionId())) {
            int home = 1;
            while (!new Shard(home, shard.count()).selects(settings.executionId())) {
                home++;
            }
            log.info("envelope (" + settings.executionId() + ") runs on shard " + home + "/" + shard.count()
                    + ", where its execution id hashes to; this is shard " + shard.index() + "/" + shard.count() + ": not graded here");
            return new GoalResult(List.of(), null, "not_on_this_shard");
        }
        log.info("envelope " + settings.executionId() + ": envelope " + measured.envelope()
                + (options.expectStdout() == null ? "" : ", expected stdout " + options.expectStdout()));
        return GoalRun.grade(settings, measured.command() == null || measured.command().isEmpty() ? measured.envelope().getFileName().toString() : EnvelopeGoal.display(measured.command()), e -> GoalRun.head("mode", "grade", "goal", "envelope", "execution", settings.executionId(), "verdict", "error"),
                EnvelopeSection::new, log, reports -> gradeAndReport(options, log, reports));
    }

    private static GoalResult gradeAndReport(GradeOptions options, GradeLog log, GoalReports reports) throws IOException {
        GoalSettings settings = options.settings();
        EnvelopeGoal.Measurement measured = options.measurement();
        long started = System.nanoTime();
        List<Path> oracles = new ArrayList<>(List.of(measured.envelope()));
        if (options.expectStdout() != null) {
            oracles.add(options.expectStdout());
        }
        OracleGuard guard = OracleGuard.snapshot(oracles);
        Envelope envelope = EnvelopeFile.read(measured.envelope(), log, settings.rerun("record-envelope"));
        List<String> command = measured.command() != null && !measured.command().isEmpty() ? measured.command() : envelope.cmd();
        if (command.isEmpty()) {
            throw new PatchgradeException(ErrorName.BAD_PARAMETER, "no command to grade: set " + settings.suggestions().setting(Setting.COMMAND)
                    + " or \"cmd\" in " + measured.envelope());
        }
        String caseName = EnvelopeGoal.display(command);
        if (measured.runs() < 1) {
            throw PatchgradeException.badParameter(Setting.RUNS, "must be at least 1 (found " + measured.runs() + ")");
        }
        String expectedSha = null;
        if (options.expectStdout() != null) {
            if (!Files.isRegularFile(options.expectStdout())) {
                throw new PatchgradeException(ErrorName.MISSING_EXPECTED_STDOUT, options.expectStdout() + ": no such file; fix "
                        + settings.suggestions().setting(Setting.EXPECT_STDOUT) + " or record the known-good stdout there");
            }
            expectedSha = Sha256.of(Files.readAllBytes(options.expectStdout()));
        }
        List<String> differences = hostDifferences(options, envelope, log);
        List<EnvelopeRun> runs = new ArrayList<>();
        LaunchRequest request = EnvelopeGoal.request(settings, command, envelope.timeoutSeconds()).keepingOutputAs(settings.streamsDirectory().resolve("run"));
        InstructionCounters.Choice counter = envelope.ceilings().containsKey(Ceiling.INSTRUCTIONS)
                ? instructionCounter(options, envelope, request) : null;
        InstructionCount count = null;
        try (Launcher launcher = settings.openLauncher(log, oracles, dev.patchgrade.core.grade.RunInputs.of(command))) {
            for (int i = 0; i < measured.runs(); i++) {
                // One child at a time: a quiet machine is part of the measurement.
                runs.add(EnvelopeRun.of(settings.mustHaveStarted(launcher.launch(request), "command", command)));
            }
            if (counter != null && runs.stream().allMatch(EnvelopeRun::clean)) {
                count = EnvelopeGoal.countInstructions(launcher, counter, request, settings, runs, expectedSha);
            }
        }
        guard.verifyUnchanged();
        EnvelopeVerdict verdict = EnvelopeGrader.grade(envelope, runs, expectedSha, differences, count);
        for (String disagreement : EnvelopeGrader.disagreements(envelope, runs)) {
            log.warn(caseName + ": the runs disagree, " + disagreement + ". A busy machine does that; so does a candidate that keeps its answer "
                    + "between runs in host kernel state no sandbox separates (the site's Security model page, \"Guarantees and their limits\"). runs=1 is out of its reach");
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        EnvelopeResult result = new EnvelopeResult(caseName, command, envelope, verdict, count, seconds);
        report(reports, settings, options.run().shard(), result, log);
        List<String> failures = verdict.accepted() ? List.of()
                : List.of(caseName + ": " + EnvelopeText.failureMessage(verdict, envelope)
                        + ". If the cost increase is intended, re-record with `" + settings.rerecord("record-envelope") + "`"
                        + " and commit the envelope with the patch");
        return new GoalResult(failures, null, result.worst());
    }

    /** Hands the one result to every reporter: the JUnit XML, the JSON report (no rows, a head), then the console. */
    static void report(GoalReports reports, GoalSettings settings, Shard shard, EnvelopeResult result, GradeLog log) {
        try (ExecutionReport report = reports.open(settings.suiteName(shard), null)) {
            Reporters<EnvelopeResult, EnvelopeResult> reporters = reports.reporters(report, result::seconds, r -> !r.verdict().accepted(),
                    new EnvelopeJUnit(settings, log), new EnvelopeHead(settings, shard), List.of(new EnvelopeConsole(settings, log)));
            reporters.row(result);
            reporters.finish(result);
        }
    }

    /**
     * The counter for an envelope with {@code max_instructions}: the recorded one where possible. A ceiling
     * nothing here can measure is error {@code unmeasurable_ceiling}; another counter than the recorded one,
     * error {@code counter_drift} (the two counters do not give the same count for the same run).
     */
    private static InstructionCounters.Choice instructionCounter(GradeOptions options, Envelope envelope, LaunchRequest request) {
        InstructionCounters.Choice choice = InstructionCounters.choose(options.measurement().instructionCounter(), envelope.instructionCounter(),
                request.environment().get("PATH"));
        if (!choice.available()) {
            throw new PatchgradeException(ErrorName.UNMEASURABLE_CEILING, envelope.file() + ": key \"max_instructions\" sets a ceiling on "
                    + "instructions, which cannot be counted here: " + choice.unavailable() + ". Grading it would be a guess, so nothing "
                    + "was graded. Install valgrind, allow perf_event_open, or remove the key if instructions are not to be graded");
        }
        if (envelope.instructionCounter() != null && !envelope.instructionCounter().equals(choice.method())) {
            throw new PatchgradeException(ErrorName.COUNTER_DRIFT, envelope.file() + ": max_instructions was counted with \""
                    + envelope.instructionCounter() + "\" but this grade would count with \"" + choice.method() + "\" (instructionCounter="
                    + options.measurement().instructionCounter().wireName() + "); the two counters disagree, so nothing was graded. Grade with "
                    + options.settings().suggestions().once(Setting.INSTRUCTION_COUNTER.is(envelope.instructionCounter()))
                    + ", or re-record the envelope with `" + options.settings().rerun("record-envelope", Setting.FORCE.is("true"),
                            Setting.INSTRUCTION_COUNTER.is(choice.method())) + "`");
        }
        return choice;
    }

    private static List<String> hostDifferences(GradeOptions options, Envelope envelope, GradeLog log) {
        if (options.hostCheck() == HostCheck.IGNORE) {
            return List.of();
        }
        if (envelope.host() == null) {
            log.warn(options.measurement().envelope() + " records no host class, so patchgrade cannot tell whether its ceilings were measured on a machine"
                    + " like this one; re-record it with `" + options.settings().rerecord("record-envelope") + "` to add one");
        }
        String toolchain = options.run().compiler() == null || options.run().compiler().isBlank() ? null : Toolchain.identify(options.run().compiler());
        List<String> differences = HostCheck.differences(envelope, HostInfo.detect(options.measurement().hostClass()), toolchain);
        if (!differences.isEmpty() && options.hostCheck() == HostCheck.WARN) {
            differences.forEach(d -> log.warn("host mismatch, " + d + "; the ceilings may not fit this machine (hostCheck=warn)"));
            return List.of();
        }
        return differences;
    }

}
