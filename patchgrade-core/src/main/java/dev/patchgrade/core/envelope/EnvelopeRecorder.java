package dev.patchgrade.core.envelope;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.count.CounterMode;
import dev.patchgrade.core.count.InstructionCount;
import dev.patchgrade.core.count.InstructionCounters;
import dev.patchgrade.core.envelope.EnvelopeGoal.RecordOptions;
import dev.patchgrade.core.grade.BuildLock;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.ProjectPaths;
import dev.patchgrade.core.grade.RecordingTarget;
import dev.patchgrade.core.host.HostInfo;
import dev.patchgrade.core.host.Toolchain;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.report.AtomicFiles;
import dev.patchgrade.core.report.ConsoleTable;
import dev.patchgrade.core.report.JsonReports;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The {@code record-envelope} goal: a known-good command measured, its ceilings written with slack. */
final class EnvelopeRecorder {
    private static final String INTENDED = "and commit the envelope in the same commit as the patch that changed the cost";

    private EnvelopeRecorder() {}

    static EnvelopeRecording record(RecordOptions options, GradeLog log) {
        EnvelopeGoal.Measurement measured = options.measurement();
        Path file = measured.envelope();
        RecordingTarget.refuseOverwrite(options.settings(), file, options.run().force(), false, "record-envelope", INTENDED);
        if (measured.command() == null || measured.command().isEmpty()) {
            throw new PatchgradeException(ErrorName.BAD_PARAMETER, shown -> "record-envelope needs " + shown.setting(Setting.COMMAND)
                    + ": the known-good binary and its arguments");
        }
        if (options.run().timeoutSeconds() <= 0 || measured.runs() < 1) {
            throw new PatchgradeException(ErrorName.BAD_PARAMETER, shown -> shown.setting(Setting.TIMEOUT) + " must be positive and "
                    + shown.setting(Setting.RUNS) + " at least 1 (found " + options.run().timeoutSeconds() + " and " + measured.runs() + ")");
        }
        log.info("record-envelope " + options.settings().executionId() + ": writing envelope " + file);
        String toolchain = options.run().compiler() == null || options.run().compiler().isBlank() ? null : Toolchain.identify(options.run().compiler());
        HostInfo host = HostInfo.detect(measured.hostClass());
        List<EnvelopeRun> runs = new ArrayList<>();
        GoalSettings settings = options.settings();
        LaunchRequest request = EnvelopeGoal.request(settings, measured.command(), options.run().timeoutSeconds());
        InstructionCounters.Choice counter = InstructionCounters.require(measured.instructionCounter(),
                InstructionCounters.choose(measured.instructionCounter(), null, request.environment().get("PATH")));
        InstructionCount count = null;
        try (BuildLock lock = BuildLock.take(settings.outputDirectory());
                Launcher launcher = settings.openLauncher(log, List.of(file), dev.patchgrade.core.grade.RunInputs.of(measured.command()))) {
            for (int i = 0; i < measured.runs(); i++) {
                runs.add(EnvelopeRun.of(settings.mustHaveStarted(launcher.launch(request), "command", measured.command())));
            }
            if (counter.available() && runs.stream().allMatch(EnvelopeRun::clean)) {
                count = EnvelopeGoal.recordable(EnvelopeGoal.countInstructions(launcher, counter, request, options.settings(), runs, null), runs);
                if (!count.measured() && !count.diverged()) {
                    throw new PatchgradeException(ErrorName.BASELINE_FAILED, "the instructions of the known-good command " + String.join(" ", measured.command())
                            + " could not be counted with " + count.method() + ": " + count.problem() + ". Fix the command, or set "
                            + "instructionCounter=none to record no max_instructions");
                }
            }
        }
        long slowest = runs.stream().mapToLong(EnvelopeRun::wallMillis).max().orElse(0);
        long timeout = EnvelopeGoal.recordedTimeout(options.run().timeoutSeconds(), slowest);
        EnvelopeRecording recording = EnvelopeRecording.of(ProjectPaths.portableCommand(measured.command(), options.settings().projectDirectory()),
                timeout, runs, options.slack(), host, toolchain, stderr -> settings.facts().hintText(stderr, log, settings.suggestions()));
        if (count != null && count.diverged()) {
            // A program that prints its own timings prints other ones under the counter: its count is of other work, and
            // a ceiling recorded from it would reject the known-good build. The rest of the envelope holds all the same.
            recording = recording.withoutInstructions(count);
            log.warn("no max_instructions recorded in " + file + ": " + count.problem() + ". The other ceilings are recorded; to grade "
                    + "instructions, make the command print the same output every run (leave out timings, dates, addresses) and re-record "
                    + "with `" + settings.rerecord("record-envelope") + "`");
        } else if (count != null) {
            recording = recording.withInstructions(count, options.instructionSlackPercent());
        } else if (measured.instructionCounter() != CounterMode.NONE) {
            log.warn("no max_instructions recorded in " + file + ": " + counter.unavailable() + ". CPU time moves with the machine's load; "
                    + "instructions do not, so install valgrind (or allow perf_event_open) and re-record to grade them");
        }
        ObjectNode json = EnvelopeFile.recorded(recording);
        try {
            byte[] content = (JsonReports.MAPPER.writeValueAsString(json) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            if (options.run().force()) {
                AtomicFiles.write(file, content);
            } else {
                AtomicFiles.writeNew(file, content);
            }
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // Made while the command was measured: what is there now stays.
            throw RecordingTarget.appeared(options.settings(), file, "record-envelope", INTENDED);
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.WRITE_FAILED, "cannot write the envelope " + file + ": " + e.getMessage(), e);
        }
        ConsoleTable table = new ConsoleTable("figure", "measured", "ceiling", "slack");
        table.row("peak RSS", EnvelopeText.amount(recording.worst().get(Ceiling.RSS), Ceiling.RSS), EnvelopeText.amount(recording.ceilings().get(Ceiling.RSS), Ceiling.RSS),
                "+" + options.slack().rssPercent() + "% +" + options.slack().rssKb() + " KB");
        for (Ceiling cpu : List.of(Ceiling.USER_CPU, Ceiling.SYS_CPU)) {
            table.row(cpu.label(), EnvelopeText.amount(recording.worst().get(cpu), cpu), EnvelopeText.amount(recording.ceilings().get(cpu), cpu),
                    "+" + options.slack().cpuPercent() + "% +" + options.slack().cpuMicros() + " us");
        }
        if (count != null && count.measured()) {
            table.row("instructions", EnvelopeText.amount(count.value(), Ceiling.INSTRUCTIONS) + " (" + count.method() + ")",
                    EnvelopeText.amount(recording.ceilings().get(Ceiling.INSTRUCTIONS), Ceiling.INSTRUCTIONS), "+" + options.instructionSlackPercent() + "%");
        } else if (count != null) {
            table.row("instructions", "not recorded (" + count.method() + " run printed other output)", "-", "-");
        }
        log.info("Recorded " + file + " from " + runs.size() + " run(s) of " + String.join(" ", measured.command()) + " on " + host.className() + ":");
        table.lines().forEach(log::info);
        String countedTime = EnvelopeGoal.countedTime(count, runs);
        if (countedTime != null) {
            log.info(countedTime);
        }
        if (count != null && count.measured() && EnvelopeGoal.costly(count, runs)) {
            log.warn(EnvelopeGoal.costWarning(settings, count, runs, true));
        }
        List<String> advice = Spread.advice(recording, settings.suggestions());
        advice.forEach(log::info);
        if (runs.size() == 1) {
            log.info("one baseline run: the envelope records no spread; record with " + settings.suggestions().once(Setting.RUNS.is("5"))
                    + " to see how much the figures vary, and choose the slack from it");
        }
        log.info(String.format(Locale.ROOT, "timeout_s = %d s: the larger of %s (%d s) and 10x the slowest run (%.3f s), rounded up"
                + " to whole seconds, so that a loaded machine does not turn a good run into a timeout", timeout,
                options.settings().suggestions().setting(Setting.TIMEOUT), options.run().timeoutSeconds(), slowest / 1000.0));
        return recording;
    }
}
