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
