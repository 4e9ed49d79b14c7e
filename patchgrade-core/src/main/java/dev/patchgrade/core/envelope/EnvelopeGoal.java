package dev.patchgrade.core.envelope;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.count.CounterMode;
import dev.patchgrade.core.count.InstructionCount;
import dev.patchgrade.core.count.InstructionCounters;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.RunSettings;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.TimeoutRange;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The {@code record-envelope} and {@code envelope} goals, without Maven: their options, entry points and shared steps. */
public final class EnvelopeGoal {
    private EnvelopeGoal() {}

    /**
     * What {@code record-envelope} is told; build it with {@link #recording}.
     *
     * @param run the timeout, compiler and force every goal shares
     */
    public record RecordOptions(GoalSettings settings, RunSettings run, Measurement measurement, Slack slack, int instructionSlackPercent) {}

    /**
     * What {@code envelope} is told; build it with {@link #grading}.
     *
     * @param run the compiler and shard every goal shares: the envelope runs on the one shard its execution id hashes to, so N agents
     *     grade it once; its timeout is the envelope file's
     */
    public record GradeOptions(GoalSettings settings, RunSettings run, Measurement measurement, Path expectStdout, HostCheck hostCheck) {}

    /**
     * What both envelope goals measure, and how.
     *
     * @param envelope the envelope file
     * @param command the command, executable first
     * @param runs how many times it runs
     * @param hostClass a name for this machine's class instead of the detected one
     * @param instructionCounter what counts instructions for {@code max_instructions}
     */
    public record Measurement(Path envelope, List<String> command, int runs, String hostClass, CounterMode instructionCounter) {
        public Measurement {
            instructionCounter = instructionCounter == null ? CounterMode.AUTO : instructionCounter;
        }
    }

    public static RecordBuilder recording(GoalSettings settings) {
        return new RecordBuilder(settings);
    }

    public static GradeBuilder grading(GoalSettings settings) {
        return new GradeBuilder(settings);
    }

    /** The settings both envelope goals have, beside those every goal has. */
    public abstract static class Builder<B extends Builder<B>> extends RunSettings.Builder<B> {
        private Path envelope;
        private List<String> command;
        private int runs = 1;
        private String hostClass;
        private CounterMode instructionCounter = CounterMode.AUTO;

        Builder(GoalSettings settings) {
            super(settings);
        }

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }

        public B envelope(Path value) {
            envelope = value;
            return self();
        }

        public B command(List<String> value) {
            command = value;
            return self();
        }

        public B runs(int value) {
            runs = value;
            return self();
        }

        public B hostClass(String value) {
            hostClass = value;
            return self();
        }

        public B instructionCounter(CounterMode value) {
            instructionCounter = value;
            return self();
        }

        Measurement measurement() {
            return new Measurement(envelope, command, runs, hostClass, instructionCounter);
        }
    }

    /** Recording options with the documented defaults; {@code envelope} and {@code command} have none. */
    public static final class RecordBuilder extends Builder<RecordBuilder> {
        private Slack slack = Slack.DEFAULT;
        private int instructionSlackPercent = DEFAULT_INSTRUCTION_SLACK_PERCENT;

        private RecordBuilder(GoalSettings settings) {
            super(settings);
        }

        public RecordBuilder slack(Slack value) {
            slack = value;
            return this;
        }

        public RecordBuilder instructionSlackPercent(int value) {
            instructionSlackPercent = value;
            return this;
        }

        public RecordOptions build() {
            return new RecordOptions(settings, run(), measurement(), slack, instructionSlackPercent);
        }
    }

    /** Grading options with the documented defaults; {@code envelope} has none. */
    public static final class GradeBuilder extends Builder<GradeBuilder> {
        private Path expectStdout;
        private HostCheck hostCheck = HostCheck.FAIL;

        private GradeBuilder(GoalSettings settings) {
            super(settings);
        }

        public GradeBuilder expectStdout(Path value) {
            expectStdout = value;
            return this;
        }

        public GradeBuilder hostCheck(HostCheck value) {
            hostCheck = value;
            return this;
        }

        public GradeOptions build() {
            return new GradeOptions(settings, run(), measurement(), expectStdout, hostCheck);
        }
    }

    public static final int DEFAULT_INSTRUCTION_SLACK_PERCENT = 2;

    public static EnvelopeRecording record(RecordOptions options, GradeLog log) {
        return EnvelopeRecorder.record(options, log);
    }

    public static GoalResult grade(GradeOptions options, GradeLog log) {
        return EnvelopeGrading.grade(options, log);
    }

    /** The recorded {@code timeout_s}: the larger of {@code <timeout>} and 10x the slowest recorded wall time, in whole seconds. */
    static long recordedTimeout(int timeoutSeconds, long slowestWallMillis) {
        long tenfold = (slowestWallMillis * 10 + 999) / 1000;
        return Math.min((long) TimeoutRange.MAX_SECONDS, Math.max(timeoutSeconds, tenfold));
    }

    /**
     * One counting run of its own: Valgrind changes time and memory, so its run is never one of the graded runs.
     * Taken after the graded runs, and only when they all ended cleanly: see {@link #agreeing}.
     *
     * @param runs the graded runs, every one clean (exit 0)
     * @param expectedStdoutSha256 the stdout the graded runs must print, or {@code null} when none is known
     */
    static InstructionCount countInstructions(Launcher launcher, InstructionCounters.Choice counter, LaunchRequest request,
            GoalSettings settings, List<EnvelopeRun> runs, String expectedStdoutSha256) {
        long started = System.nanoTime();
        InstructionCount count = counter.counter().count(launcher, request.keepingOutputAs(settings.streamsDirectory().resolve("count")));
        return agreeing(count, runs, expectedStdoutSha256).timed((System.nanoTime() - started) / 1_000_000);
    }

    /** Above this many times the slowest native run's wall time, the counted run's cost is worth a warning. */
    static final int COSTLY_FACTOR = 10;
    /**
     * ... but only where it adds this much to the build: 40x of a 20 ms program costs nobody anything, and the bundled
     * example's 0.15 s took 5.8 s under Valgrind on a loaded machine.
     */
    static final long COSTLY_MILLIS = 10_000;

    /**
     * The counted run's wall time beside the native runs', one line for the console; {@code null} where the count
     * was not timed.
     */
    static String countedTime(InstructionCount count, List<EnvelopeRun> runs) {
        if (count == null || count.wallMillis() == null) {
            return null;
        }
        long slowest = runs.stream().mapToLong(EnvelopeRun::wallMillis).max().orElse(0);
        String factor = slowest <= 0 ? "" : String.format(Locale.ROOT, ", %.1fx the slowest", (double) count.wallMillis() / slowest);
        return String.format(Locale.ROOT, "wall time: counted run (%s) %.3f s; native run%s %s%s", count.method(), count.wallMillis() / 1000.0,
                runs.size() == 1 ? "" : "s", runs.stream().map(r -> String.format(Locale.ROOT, "%.3f s", r.wallMillis() / 1000.0))
                        .collect(java.util.stream.Collectors.joining(", ")), factor);
    }

    /**
     * Whether the counted run cost more than {@value #COSTLY_FACTOR} times the slowest native run and more than
     * {@value #COSTLY_MILLIS} ms: a Valgrind count of a workload of seconds takes minutes.
     */
    static boolean costly(InstructionCount count, List<EnvelopeRun> runs) {
        if (count == null || count.wallMillis() == null) {
            return false;
        }
        long slowest = runs.stream().mapToLong(EnvelopeRun::wallMillis).max().orElse(0);
        return count.wallMillis() > COSTLY_FACTOR * slowest && count.wallMillis() > COSTLY_MILLIS;
    }

    /** The warning for a {@link #costly} count, naming the switch that turns the counter off. */
    static String costWarning(GoalSettings settings, InstructionCount count, List<EnvelopeRun> runs, boolean recording) {
        long slowest = runs.stream().mapToLong(EnvelopeRun::wallMillis).max().orElse(0);
        String configured = settings.suggestions().configured(Setting.INSTRUCTION_COUNTER.is("none"));
        String once = settings.suggestions().once(Setting.INSTRUCTION_COUNTER.is("none"));
        String off = configured.equals(once) ? once : configured + " (or " + once + ")";
        return String.format(Locale.ROOT, "the instruction count (%s) took %.1f s, %.1fx the slowest native run (%.3f s): most of this %s's "
                + "time. Hardware counters (instructionCounter=perf, where the kernel has them) cost nothing; else ", count.method(),
                count.wallMillis() / 1000.0, slowest <= 0 ? 0.0 : (double) count.wallMillis() / slowest, slowest / 1000.0,
                recording ? "recording" : "grade")
                + (recording ? "set " + off + " to record no max_instructions and grade without the counted run"
                        : "re-record the envelope with " + off + " to drop max_instructions, and with it the counted run");
    }

    /**
     * The count, if the counting run did what the graded runs did; else a failed count. A counter counts only a
     * run that exited 0, as every graded run did; its stdout must also be theirs (where they agree among
     * themselves, else the expected stdout where there is one): a program that skips its work when it sees the
     * counter (Valgrind's preload library is in its environment and its maps) must not pass with a small count.
     */
    static InstructionCount agreeing(InstructionCount count, List<EnvelopeRun> runs, String expectedStdoutSha256) {
        if (!count.measured()) {
            return count;
        }
        List<String> printed = runs.stream().map(EnvelopeRun::stdoutSha256).distinct().toList();
        boolean runsAgree = printed.size() == 1 && printed.get(0) != null;
        String reference = runsAgree ? printed.get(0) : expectedStdoutSha256;
        if (reference == null || reference.equals(count.stdoutSha256())) {
            return count;
        }
        String problem = "the counted run (under " + count.method() + ") printed something else than the "
                + (runsAgree ? "graded runs" : "expected stdout") + " (stdout sha256 " + shortHash(count.stdoutSha256())
                + " instead of " + shortHash(reference) + "); a program that behaves differently under the counter cannot be counted";
        // Unknown output proves nothing either way: no count, and no verdict on it.
        return count.stdoutSha256() == null ? InstructionCount.failed(count.method(), problem) : count.divergedBecause(problem);
    }

    /**
     * The count, if a ceiling can be recorded from it: its run printed what every native run printed. Native runs that
     * disagree among themselves print output that changes from run to run (timings, dates), and a grade's counted run
     * would print other output again and be rejected, so no ceiling is recorded from such a count either.
     */
    static InstructionCount recordable(InstructionCount count, List<EnvelopeRun> runs) {
        if (!count.measured()) {
            return count;
        }
        List<String> printed = runs.stream().map(EnvelopeRun::stdoutSha256).distinct().toList();
        if (printed.size() == 1 && java.util.Objects.equals(printed.get(0), count.stdoutSha256())) {
            return count;
        }
        String problem = "the native runs printed different output from one another (stdout sha256 " + String.join(", ",
                printed.stream().map(EnvelopeGoal::shortHash).toList()) + ") and the counted run (under " + count.method() + ") "
                + shortHash(count.stdoutSha256()) + ": with output that changes from run to run (timings, dates) no counted run can be "
                + "shown to have done the graded runs' work";
        return count.stdoutSha256() == null || printed.contains(null) ? InstructionCount.failed(count.method(), problem) : count.divergedBecause(problem);
    }

    private static String shortHash(String sha256) {
        return sha256 == null ? "unknown" : sha256.substring(0, Math.min(12, sha256.length()));
    }

    static LaunchRequest request(GoalSettings settings, List<String> command, double timeoutSeconds) {
        return settings.launchRequest(command, Map.of(), Duration.ofMillis(Math.round(timeoutSeconds * 1000)));
    }

    static String display(List<String> command) {
        List<String> shown = new ArrayList<>(command);
        shown.set(0, Path.of(command.get(0)).getFileName().toString());
        return String.join(" ", shown);
    }

}
