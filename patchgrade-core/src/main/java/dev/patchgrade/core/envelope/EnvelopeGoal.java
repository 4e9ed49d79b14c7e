package dev.patchgrade.core.envelope;

import dev.patchgrade.core.hashing.Sha256;

import dev.patchgrade.core.ErrorName;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.grade.BuildLock;
import dev.patchgrade.core.count.CounterMode;
import dev.patchgrade.core.count.InstructionCount;
import dev.patchgrade.core.count.InstructionCounters;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.OracleGuard;
import dev.patchgrade.core.grade.ProjectPaths;
import dev.patchgrade.core.grade.Setting;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.host.HostInfo;
import dev.patchgrade.core.host.Toolchain;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.TimeoutRange;
import dev.patchgrade.core.report.AtomicFiles;
import dev.patchgrade.core.report.ConsoleTable;
import dev.patchgrade.core.report.ExecutionReport;
import dev.patchgrade.core.report.JsonReports;
import dev.patchgrade.core.report.CaseOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The {@code record-envelope} and {@code envelope} goals, without Maven. */
public final class EnvelopeGoal {
    /** What the other figures of a timed-out run show: cut short, they are neither within nor over a ceiling. */
    static final String NOT_GRADED = "not graded (timed out)";

    private EnvelopeGoal() {}

    public record RecordOptions(GoalSettings settings, Path envelope, List<String> command, int timeoutSeconds,
            Slack slack, boolean force, String compiler, int runs, String hostClass, CounterMode instructionCounter,
            int instructionSlackPercent) {
        public RecordOptions(GoalSettings settings, Path envelope, List<String> command, int timeoutSeconds, Slack slack, boolean force,
                String compiler, int runs, String hostClass) {
            this(settings, envelope, command, timeoutSeconds, slack, force, compiler, runs, hostClass, CounterMode.AUTO,
                    DEFAULT_INSTRUCTION_SLACK_PERCENT);
        }
    }

    /** @param shard the envelope runs on the one shard its execution id hashes to, so N agents grade it once */
    public record GradeOptions(GoalSettings settings, Path envelope, List<String> command, Path expectStdout,
            int runs, HostCheck hostCheck, String hostClass, String compiler, Shard shard, CounterMode instructionCounter) {
        public GradeOptions {
            shard = shard == null ? Shard.ALL : shard;
            instructionCounter = instructionCounter == null ? CounterMode.AUTO : instructionCounter;
        }

        public GradeOptions(GoalSettings settings, Path envelope, List<String> command, Path expectStdout,
                int runs, HostCheck hostCheck, String hostClass, String compiler) {
            this(settings, envelope, command, expectStdout, runs, hostCheck, hostClass, compiler, Shard.ALL, CounterMode.AUTO);
        }

        public GradeOptions(GoalSettings settings, Path envelope, List<String> command, Path expectStdout,
                int runs, HostCheck hostCheck, String hostClass, String compiler, Shard shard) {
            this(settings, envelope, command, expectStdout, runs, hostCheck, hostClass, compiler, shard, CounterMode.AUTO);
        }

        public GradeOptions(GoalSettings settings, Path envelope, List<String> command, Path expectStdout,
                int runs, HostCheck hostCheck, String hostClass, String compiler, CounterMode instructionCounter) {
            this(settings, envelope, command, expectStdout, runs, hostCheck, hostClass, compiler, Shard.ALL, instructionCounter);
        }
    }

    public static final int DEFAULT_INSTRUCTION_SLACK_PERCENT = 2;


    public static EnvelopeRecording record(RecordOptions options, GradeLog log) {
        Path file = options.envelope();
        if (Files.exists(file) && !options.force()) {
            throw new PatchgradeException(ErrorName.REFUSED_OVERWRITE, file + " exists and record-envelope does not overwrite it. If the new "
                    + "baseline is intended, re-run as `" + options.settings().rerecord("record-envelope")
                    + "` (or set " + options.settings().suggestions().configured(Setting.FORCE.is("true")) + ") and commit the envelope in the same "
                    + "commit as the patch that changed the cost");
        }
        if (options.command() == null || options.command().isEmpty()) {
            throw new PatchgradeException(ErrorName.BAD_PARAMETER, "record-envelope needs <command>: the known-good binary and its arguments");
        }
        if (options.timeoutSeconds() <= 0 || options.runs() < 1) {
            throw new PatchgradeException(ErrorName.BAD_PARAMETER, "<timeout> must be positive and <runs> at least 1 (found "
                    + options.timeoutSeconds() + " and " + options.runs() + ")");
        }
        log.info("record-envelope " + options.settings().executionId() + ": writing envelope " + file);
        String toolchain = options.compiler() == null || options.compiler().isBlank() ? null : Toolchain.identify(options.compiler());
        HostInfo host = HostInfo.detect(options.hostClass());
        List<EnvelopeRun> runs = new ArrayList<>();
        GoalSettings settings = options.settings();
        LaunchRequest request = request(settings, options.command(), options.timeoutSeconds());
        InstructionCounters.Choice counter = InstructionCounters.require(options.instructionCounter(),
                InstructionCounters.choose(options.instructionCounter(), null, request.environment().get("PATH")));
        InstructionCount count = null;
        try (BuildLock lock = BuildLock.take(settings.outputDirectory());
                Launcher launcher = settings.openLauncher(log, List.of(file), settings.executablesOf(options.command()))) {
            for (int i = 0; i < options.runs(); i++) {
                runs.add(EnvelopeRun.of(settings.mustHaveStarted(launcher.launch(request), "command", options.command())));
            }
            if (counter.available() && runs.stream().allMatch(EnvelopeRun::clean)) {
                count = countInstructions(launcher, counter, request, options.settings());
                if (!count.measured()) {
                    throw new PatchgradeException(ErrorName.BASELINE_FAILED, "the instructions of the known-good command " + String.join(" ", options.command())
                            + " could not be counted with " + count.method() + ": " + count.problem() + ". Fix the command, or set "
                            + "instructionCounter=none to record no max_instructions");
                }
            }
        }
        long slowest = runs.stream().mapToLong(EnvelopeRun::wallMillis).max().orElse(0);
        long timeout = recordedTimeout(options.timeoutSeconds(), slowest);
        EnvelopeRecording recording = EnvelopeRecording.of(portable(options.command(), options.settings().projectDirectory()),
                timeout, runs, options.slack(), host, toolchain);
        if (count != null) {
            recording = recording.withInstructions(count, options.instructionSlackPercent());
        } else if (options.instructionCounter() != CounterMode.NONE) {
            log.warn("no max_instructions recorded in " + file + ": " + counter.unavailable() + ". CPU time moves with the machine's load; "
                    + "instructions do not, so install valgrind (or allow perf_event_open) and re-record to grade them");
        }
        ObjectNode json = EnvelopeFile.recorded(recording);
        try {
            AtomicFiles.write(file, (JsonReports.MAPPER.writeValueAsString(json) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.WRITE_FAILED, "cannot write the envelope " + file + ": " + e.getMessage(), e);
        }
        ConsoleTable table = new ConsoleTable("figure", "measured", "ceiling", "slack");
        table.row("peak RSS", amount(recording.worst().get(Ceiling.RSS), Ceiling.RSS), amount(recording.ceilings().get(Ceiling.RSS), Ceiling.RSS),
                "+" + options.slack().rssPercent() + "% +" + options.slack().rssKb() + " KB");
        table.row("user CPU", amount(recording.worst().get(Ceiling.USER_CPU), Ceiling.USER_CPU), amount(recording.ceilings().get(Ceiling.USER_CPU), Ceiling.USER_CPU),
                "+" + options.slack().cpuPercent() + "% +" + options.slack().cpuMicros() + " us");
        if (count != null) {
            table.row("instructions", amount(count.value(), Ceiling.INSTRUCTIONS) + " (" + count.method() + ")",
                    amount(recording.ceilings().get(Ceiling.INSTRUCTIONS), Ceiling.INSTRUCTIONS), "+" + options.instructionSlackPercent() + "%");
        }
        log.info("Recorded " + file + " from " + runs.size() + " run(s) of " + String.join(" ", options.command()) + " on " + host.className() + ":");
        table.lines().forEach(log::info);
        log.info(String.format(Locale.ROOT, "timeout_s = %d s: the larger of <timeout> (%d s) and 10x the slowest run (%.3f s), rounded up"
                + " to whole seconds, so that a loaded machine does not turn a good run into a timeout", timeout, options.timeoutSeconds(),
                slowest / 1000.0));
        return recording;
    }

    /** The recorded {@code timeout_s}: the larger of {@code <timeout>} and 10x the slowest recorded wall time, in whole seconds. */
    static long recordedTimeout(int timeoutSeconds, long slowestWallMillis) {
        long tenfold = (slowestWallMillis * 10 + 999) / 1000;
        return Math.min((long) TimeoutRange.MAX_SECONDS, Math.max(timeoutSeconds, tenfold));
    }

    public static GoalResult grade(GradeOptions options, GradeLog log) {
        GoalSettings settings = options.settings();
        Shard shard = options.shard();
        if (!shard.selects(settings.executionId())) {
            int home = 1;
            while (!new Shard(home, shard.count()).selects(settings.executionId())) {
                home++;
            }
            log.info("envelope (" + settings.executionId() + ") runs on shard " + home + "/" + shard.count()
                    + ", where its execution id hashes to; this is shard " + shard.index() + "/" + shard.count() + ": not graded here");
            return new GoalResult(List.of(), null, "not_on_this_shard");
        }
        log.info("envelope " + settings.executionId() + ": envelope " + options.envelope()
                + (options.expectStdout() == null ? "" : ", expected stdout " + options.expectStdout()));
        return GoalRun.grade(settings, options.command() == null || options.command().isEmpty() ? options.envelope().getFileName().toString() : display(options.command()), e -> Map.of("mode", "grade", "goal", "envelope", "execution", settings.executionId(), "verdict", "error"), log, () -> gradeAndReport(options, log));
    }

    private static GoalResult gradeAndReport(GradeOptions options, GradeLog log) throws IOException {
        GoalSettings settings = options.settings();
        long started = System.nanoTime();
        List<Path> oracles = new ArrayList<>(List.of(options.envelope()));
        if (options.expectStdout() != null) {
            oracles.add(options.expectStdout());
        }
        OracleGuard guard = OracleGuard.snapshot(oracles);
        Envelope envelope = EnvelopeFile.read(options.envelope(), log, settings.rerun("record-envelope"));
        List<String> command = options.command() != null && !options.command().isEmpty() ? options.command() : envelope.cmd();
        if (command.isEmpty()) {
            throw new PatchgradeException(ErrorName.BAD_PARAMETER, "no command to grade: set <command> in the POM or \"cmd\" in " + options.envelope());
        }
        String caseName = display(command);
        if (options.runs() < 1) {
            throw new PatchgradeException(ErrorName.BAD_PARAMETER, "<runs> must be at least 1 (found " + options.runs() + ")");
        }
        String expectedSha = null;
        if (options.expectStdout() != null) {
            if (!Files.isRegularFile(options.expectStdout())) {
                throw new PatchgradeException(ErrorName.MISSING_EXPECTED_STDOUT, options.expectStdout() + ": no such file; fix <expectStdout> or record the known-good stdout there");
            }
            expectedSha = Sha256.of(Files.readAllBytes(options.expectStdout()));
        }
        List<String> differences = hostDifferences(options, envelope, log);
        List<EnvelopeRun> runs = new ArrayList<>();
        LaunchRequest request = request(settings, command, envelope.timeoutSeconds()).keepingOutputAs(settings.streamsDirectory().resolve("run"));
        InstructionCounters.Choice counter = envelope.ceilings().containsKey(Ceiling.INSTRUCTIONS)
                ? instructionCounter(options, envelope, request) : null;
        InstructionCount count = null;
        try (Launcher launcher = settings.openLauncher(log, oracles, settings.executablesOf(command))) {
            for (int i = 0; i < options.runs(); i++) {
                // One child at a time: a quiet machine is part of the measurement.
                runs.add(EnvelopeRun.of(settings.mustHaveStarted(launcher.launch(request), "command", command)));
            }
            if (counter != null && runs.stream().allMatch(EnvelopeRun::clean)) {
                count = countInstructions(launcher, counter, request, settings);
            }
        }
        guard.verifyUnchanged();
        EnvelopeVerdict verdict = EnvelopeGrader.grade(envelope, runs, expectedSha, differences, count);
        double seconds = (System.nanoTime() - started) / 1e9;
        writeReports(settings, options.shard(), caseName, command, envelope, verdict, count, seconds, log);
        printTable(log, caseName, envelope, verdict);
        List<String> failures = verdict.accepted() ? List.of()
                : List.of(caseName + ": " + String.join(", ", verdict.reasons()) + " — " + failureMessage(verdict, envelope)
                        + ". If the cost increase is intended, re-record with `" + settings.rerecord("record-envelope") + "`"
                        + " and commit the envelope with the patch");
        // The worst is what the report's failure type says: the first reason, not "reject".
        return new GoalResult(failures, null, verdict.accepted() ? verdict.verdict() : verdict.reasons().get(0));
    }

    /**
     * The counter for an envelope with {@code max_instructions}: the recorded one where possible. A ceiling
     * nothing here can measure is error {@code unmeasurable_ceiling}; another counter than the recorded one,
     * error {@code counter_drift} (the two counters do not give the same count for the same run).
     */
    private static InstructionCounters.Choice instructionCounter(GradeOptions options, Envelope envelope, LaunchRequest request) {
        InstructionCounters.Choice choice = InstructionCounters.choose(options.instructionCounter(), envelope.instructionCounter(),
                request.environment().get("PATH"));
        if (!choice.available()) {
            throw new PatchgradeException(ErrorName.UNMEASURABLE_CEILING, envelope.file() + ": key \"max_instructions\" sets a ceiling on "
                    + "instructions, which cannot be counted here: " + choice.unavailable() + ". Grading it would be a guess, so nothing "
                    + "was graded. Install valgrind, allow perf_event_open, or remove the key if instructions are not to be graded");
        }
        if (envelope.instructionCounter() != null && !envelope.instructionCounter().equals(choice.method())) {
            throw new PatchgradeException(ErrorName.COUNTER_DRIFT, envelope.file() + ": max_instructions was counted with \""
                    + envelope.instructionCounter() + "\" but this grade would count with \"" + choice.method() + "\" (instructionCounter="
                    + options.instructionCounter().wireName() + "); the two counters disagree, so nothing was graded. Grade with "
                    + options.settings().suggestions().once(Setting.INSTRUCTION_COUNTER.is(envelope.instructionCounter()))
                    + ", or re-record the envelope with `" + options.settings().rerun("record-envelope", Setting.FORCE.is("true"),
                            Setting.INSTRUCTION_COUNTER.is(choice.method())) + "`");
        }
        return choice;
    }

    /** One counting run of its own: Valgrind changes time and memory, so its run is never one of the graded runs. */
    private static InstructionCount countInstructions(Launcher launcher, InstructionCounters.Choice counter, LaunchRequest request,
            GoalSettings settings) {
        return counter.counter().count(launcher, request.keepingOutputAs(settings.streamsDirectory().resolve("count")));
    }

    private static List<String> hostDifferences(GradeOptions options, Envelope envelope, GradeLog log) {
        if (options.hostCheck() == HostCheck.IGNORE) {
            return List.of();
        }
        if (envelope.host() == null) {
            log.warn(options.envelope() + " records no host class, so patchgrade cannot tell whether its ceilings were measured on a machine"
                    + " like this one; re-record it with `" + options.settings().rerecord("record-envelope") + "` to add one");
        }
        String toolchain = options.compiler() == null || options.compiler().isBlank() ? null : Toolchain.identify(options.compiler());
        List<String> differences = HostCheck.differences(envelope, HostInfo.detect(options.hostClass()), toolchain);
        if (!differences.isEmpty() && options.hostCheck() == HostCheck.WARN) {
            differences.forEach(d -> log.warn("host mismatch, " + d + "; the ceilings may not fit this machine (hostCheck=warn)"));
            return List.of();
        }
        return differences;
    }

    /** The command as committed: every absolute path inside the project is written relative to it, so the file works in any checkout. */
    static List<String> portable(List<String> command, Path projectDirectory) {
        List<String> portable = new ArrayList<>();
        for (String part : command) {
            boolean path = part.startsWith("/") && part.indexOf('\0') < 0;
            String written = path ? ProjectPaths.portable(Path.of(part), projectDirectory) : part;
            portable.add(written.isEmpty() ? "." : written);
        }
        return portable;
    }

    static LaunchRequest request(GoalSettings settings, List<String> command, double timeoutSeconds) {
        return settings.launchRequest(command, Map.of(), Duration.ofMillis(Math.round(timeoutSeconds * 1000)));
    }

    static String display(List<String> command) {
        List<String> shown = new ArrayList<>(command);
        shown.set(0, Path.of(command.get(0)).getFileName().toString());
        return String.join(" ", shown);
    }

    static String failureMessage(EnvelopeVerdict verdict, Envelope envelope) {
        List<String> parts = new ArrayList<>();
        for (String reason : verdict.reasons()) {
            String detail = switch (reason) {
                case "timeout" -> String.format(Locale.ROOT, "timeout: no exit within %s s", trim(envelope.timeoutSeconds()));
                case "stdout" -> "stdout: differs from the expected output";
                case "output_limit" -> "output_limit: a stream reached the output cap";
                case "host_mismatch" -> "host_mismatch: " + String.join("; ", verdict.hostDifferences());
                default -> verdict.breaches().stream().filter(b -> b.ceiling().reason().equals(reason))
                        .map(EnvelopeVerdict.Breach::describe).findFirst().orElse(reason);
            };
            parts.add(detail);
        }
        return String.join("; ", parts);
    }

    private static String trim(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }

    private static void writeReports(GoalSettings settings, Shard shard, String caseName, List<String> command, Envelope envelope,
            EnvelopeVerdict verdict, InstructionCount count, double seconds, GradeLog log) {
        EnvelopeRun first = verdict.runs().get(0);
        String details = detailText(verdict, envelope, settings) + (verdict.accepted() ? "" : settings.facts().hintText(first.stderrExcerpt(), log));
        CaseOutcome test = verdict.accepted()
                ? CaseOutcome.passed(caseName, seconds, first.stdoutExcerpt(), first.stderrExcerpt())
                : CaseOutcome.failed(caseName, seconds, verdict.reasons().get(0), failureMessage(verdict, envelope), details,
                        first.stdoutExcerpt(), first.stderrExcerpt());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("mode", "grade");
        json.put("goal", "envelope");
        json.put("execution", settings.executionId());
        json.put("verdict", verdict.verdict());
        json.put("reasons", verdict.reasons());
        json.put("command", command);
        Map<String, Object> measuredJson = measured(verdict, settings.facts().method());
        if (count != null) {
            measuredJson.put("instruction_counter", count.method());
            if (!count.measured()) {
                measuredJson.put("instructions_problem", count.problem());
            }
        }
        json.put("measured", measuredJson);
        Map<String, Long> ceilings = new LinkedHashMap<>();
        envelope.ceilings().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> ceilings.put(e.getKey().key(), e.getValue()));
        json.put("ceilings", ceilings);
        // Each graded figure beside its ceiling, so readers (the HTML summary) need not know the key pairs.
        List<Map<String, Object>> figures = new ArrayList<>();
        verdict.graded().forEach((ceiling, measured) -> {
            Map<String, Object> figure = new LinkedHashMap<>();
            figure.put("ceiling_key", ceiling.key());
            figure.put("unit", ceiling.unit());
            figure.put("measured", measured);
            figure.put("ceiling", envelope.ceilings().get(ceiling));
            figures.add(figure);
        });
        json.put("figures", figures);
        json.put("timeout_s", envelope.timeoutSeconds());
        json.put("runs", verdict.runs().stream().map(EnvelopeGoal::runJson).toList());
        if (!verdict.hostDifferences().isEmpty()) {
            json.put("host_differences", verdict.hostDifferences());
        }
        json.put("envelope", envelope.file().toString());
        json.put("sandbox", GoalRun.sandboxJson(settings));
        try (ExecutionReport report = GoalRun.openReport(settings, settings.suiteName(shard), null)) {
            report.add(test, null);
            GoalRun.finish(settings, report, seconds, json);
        }
    }

    private static Map<String, Object> measured(EnvelopeVerdict verdict, String method) {
        EnvelopeRun first = verdict.runs().get(0);
        Map<String, Object> measured = new LinkedHashMap<>();
        measured.put("returncode", first.timedOut() ? null : first.exitCode());
        measured.put("signal", first.signal());
        measured.put("timed_out", verdict.runs().stream().anyMatch(EnvelopeRun::timedOut));
        measured.put("leftovers", verdict.runs().stream().mapToInt(EnvelopeRun::leftovers).max().orElse(0));
        measured.put("method", method);
        for (Ceiling ceiling : Ceiling.values()) {
            Long value = verdict.graded().get(ceiling);
            if (value == null) {
                value = verdict.runs().stream().map(ceiling::figure).filter(java.util.Objects::nonNull).min(Long::compare).orElse(null);
            }
            measured.put(ceiling.measuredKey(), value);
        }
        return measured;
    }

    private static Map<String, Object> runJson(EnvelopeRun run) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("returncode", run.timedOut() ? null : run.exitCode());
        one.put("signal", run.signal());
        one.put("timed_out", run.timedOut());
        one.put("output_limit", run.outputLimited());
        one.put("leftovers", run.leftovers());
        for (Ceiling ceiling : Ceiling.values()) {
            if (ceiling != Ceiling.INSTRUCTIONS) {
                one.put(ceiling.measuredKey(), ceiling.figure(run));
            }
        }
        one.put("stdout_sha256", run.stdoutSha256());
        return one;
    }

    private static String detailText(EnvelopeVerdict verdict, Envelope envelope, GoalSettings settings) {
        StringBuilder text = new StringBuilder();
        text.append("reasons: ").append(String.join(", ", verdict.reasons())).append('\n');
        for (EnvelopeVerdict.Breach breach : verdict.breaches()) {
            text.append("  ").append(breach.describe()).append('\n');
        }
        boolean timedOut = verdict.runs().stream().anyMatch(EnvelopeRun::timedOut);
        for (Map.Entry<Ceiling, Long> entry : verdict.graded().entrySet()) {
            text.append(String.format(Locale.ROOT, "%s: measured %,d, ceiling %,d%s%n", entry.getKey().key(), entry.getValue(),
                    envelope.ceilings().get(entry.getKey()), timedOut ? ", " + NOT_GRADED : ""));
        }
        text.append("runs: ").append(verdict.runs().size()).append(" (each figure graded is the minimum over the runs)\n");
        text.append("full output of the last run: ").append(settings.streamsDirectory().resolve("run.stdout")).append(" and .stderr\n");
        text.append("if the cost increase is intended: ").append(settings.rerecord("record-envelope")).append(", and commit ")
                .append(envelope.file().getFileName()).append(" with the patch\n");
        return text.toString();
    }

    private static void printTable(GradeLog log, String caseName, Envelope envelope, EnvelopeVerdict verdict) {
        ConsoleTable table = new ConsoleTable("figure", "measured", "ceiling", "headroom", "");
        boolean timedOut = verdict.runs().stream().anyMatch(EnvelopeRun::timedOut);
        for (Map.Entry<Ceiling, Long> entry : verdict.graded().entrySet()) {
            Ceiling ceiling = entry.getKey();
            long measured = entry.getValue();
            long limit = envelope.ceilings().get(ceiling);
            if (timedOut) {
                // The figures of a run cut short say nothing about the ceiling either way.
                table.row(ceiling.label(), amount(measured, ceiling), amount(limit, ceiling), NOT_GRADED, "");
                continue;
            }
            String headroom = limit == 0 ? "-" : measured > limit
                    ? String.format(Locale.ROOT, "over by %.0f%%", (measured - limit) * 100.0 / limit)
                    : String.format(Locale.ROOT, "%.0f%% left", (limit - measured) * 100.0 / limit);
            boolean broken = verdict.breaches().stream().anyMatch(b -> b.ceiling() == ceiling);
            table.row(ceiling.label(), amount(measured, ceiling), amount(limit, ceiling), headroom, broken ? "BROKEN" : "ok");
        }
        EnvelopeRun first = verdict.runs().get(0);
        table.row("exit", first.timedOut() ? "timeout" : first.signal() != null ? first.signal() : String.valueOf(first.exitCode()), "0", "",
                first.clean() ? "ok" : "BROKEN");
        log.info("envelope " + caseName + " against " + envelope.file().getFileName() + ":");
        table.lines().forEach(log::info);
        log.info("verdict: " + verdict.verdict().toUpperCase(Locale.ROOT) + (verdict.accepted() ? "" : " (" + String.join(", ", verdict.reasons()) + ")"));
    }

    private static String amount(long value, Ceiling ceiling) {
        return String.format(Locale.ROOT, "%,d%s", value, ceiling.unit().isEmpty() ? "" : " " + ceiling.unit());
    }
}
