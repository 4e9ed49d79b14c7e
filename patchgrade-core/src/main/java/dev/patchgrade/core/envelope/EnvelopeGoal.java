package dev.patchgrade.core.envelope;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.count.CounterMode;
import dev.patchgrade.core.count.InstructionCount;
import dev.patchgrade.core.count.InstructionCounters;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.ProjectPaths;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.TimeoutRange;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The {@code record-envelope} and {@code envelope} goals, without Maven: their options, entry points and shared steps. */
public final class EnvelopeGoal {
    private EnvelopeGoal() {}

    /** What {@code record-envelope} is told; build it with {@link #recording}. */
    public record RecordOptions(GoalSettings settings, Path envelope, List<String> command, int timeoutSeconds,
            Slack slack, boolean force, String compiler, int runs, String hostClass, CounterMode instructionCounter,
            int instructionSlackPercent) {}

    /**
     * What {@code envelope} is told; build it with {@link #grading}.
     *
     * @param shard the envelope runs on the one shard its execution id hashes to, so N agents grade it once
     */
    public record GradeOptions(GoalSettings settings, Path envelope, List<String> command, Path expectStdout,
            int runs, HostCheck hostCheck, String hostClass, String compiler, Shard shard, CounterMode instructionCounter) {
        public GradeOptions {
            shard = shard == null ? Shard.ALL : shard;
            instructionCounter = instructionCounter == null ? CounterMode.AUTO : instructionCounter;
        }
    }

    public static RecordBuilder recording(GoalSettings settings) {
        return new RecordBuilder(settings);
    }

    public static GradeBuilder grading(GoalSettings settings) {
        return new GradeBuilder(settings);
    }

    /** Recording options with the documented defaults; {@code envelope} and {@code command} have none. */
    public static final class RecordBuilder {
        private final GoalSettings settings;
        private Path envelope;
        private List<String> command;
        private int timeoutSeconds = 5;
        private Slack slack = Slack.DEFAULT;
        private boolean force;
        private String compiler;
        private int runs = 1;
        private String hostClass;
        private CounterMode instructionCounter = CounterMode.AUTO;
        private int instructionSlackPercent = DEFAULT_INSTRUCTION_SLACK_PERCENT;

        private RecordBuilder(GoalSettings settings) {
            this.settings = settings;
        }

        public RecordBuilder envelope(Path value) {
            envelope = value;
            return this;
        }

        public RecordBuilder command(List<String> value) {
            command = value;
            return this;
        }

        public RecordBuilder timeoutSeconds(int value) {
            timeoutSeconds = value;
            return this;
        }

        public RecordBuilder slack(Slack value) {
            slack = value;
            return this;
        }

        public RecordBuilder force(boolean value) {
            force = value;
            return this;
        }

        public RecordBuilder compiler(String value) {
            compiler = value;
            return this;
        }

        public RecordBuilder runs(int value) {
            runs = value;
            return this;
        }

        public RecordBuilder hostClass(String value) {
            hostClass = value;
            return this;
        }

        public RecordBuilder instructionCounter(CounterMode value) {
            instructionCounter = value;
            return this;
        }

        public RecordBuilder instructionSlackPercent(int value) {
            instructionSlackPercent = value;
            return this;
        }

        public RecordOptions build() {
            return new RecordOptions(settings, envelope, command, timeoutSeconds, slack, force, compiler, runs, hostClass, instructionCounter, instructionSlackPercent);
        }
    }

    /** Grading options with the documented defaults; {@code envelope} has none. */
    public static final class GradeBuilder {
        private final GoalSettings settings;
        private Path envelope;
        private List<String> command;
        private Path expectStdout;
        private int runs = 1;
        private HostCheck hostCheck = HostCheck.FAIL;
        private String hostClass;
        private String compiler;
        private Shard shard = Shard.ALL;
        private CounterMode instructionCounter = CounterMode.AUTO;

        private GradeBuilder(GoalSettings settings) {
            this.settings = settings;
        }

        public GradeBuilder envelope(Path value) {
            envelope = value;
            return this;
        }

        public GradeBuilder command(List<String> value) {
            command = value;
            return this;
        }

        public GradeBuilder expectStdout(Path value) {
            expectStdout = value;
            return this;
        }

        public GradeBuilder runs(int value) {
            runs = value;
            return this;
        }

        public GradeBuilder hostCheck(HostCheck value) {
            hostCheck = value;
            return this;
        }

        public GradeBuilder hostClass(String value) {
            hostClass = value;
            return this;
        }

        public GradeBuilder compiler(String value) {
            compiler = value;
            return this;
        }

        public GradeBuilder shard(Shard value) {
            shard = value;
            return this;
        }

        public GradeBuilder instructionCounter(CounterMode value) {
            instructionCounter = value;
            return this;
        }

        public GradeOptions build() {
            return new GradeOptions(settings, envelope, command, expectStdout, runs, hostCheck, hostClass, compiler, shard, instructionCounter);
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

    /** One counting run of its own: Valgrind changes time and memory, so its run is never one of the graded runs. */
    static InstructionCount countInstructions(Launcher launcher, InstructionCounters.Choice counter, LaunchRequest request,
            GoalSettings settings) {
        return counter.counter().count(launcher, request.keepingOutputAs(settings.streamsDirectory().resolve("count")));
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

}
