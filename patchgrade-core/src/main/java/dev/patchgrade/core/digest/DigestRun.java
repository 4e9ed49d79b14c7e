package dev.patchgrade.core.digest;

import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** One run of one digest case and the tuple it measured: the step recording and grading share. */
record DigestRun(DigestTuple tuple, LaunchResult launch) {
    static final String UBSAN_OPTIONS = "print_stacktrace=1:halt_on_error=1";
    static final String ASAN_OPTIONS = "halt_on_error=1:detect_leaks=1";

    /**
     * @param keep where the streams are kept, or {@code null} to have the launcher hold them: the caller then keeps or
     *     releases the result's output ({@link LaunchResult#keepOutputAs}, {@link LaunchResult#released})
     * @param basis what the time bucket measures: the recording's basis, or the gold's when grading
     */
    static DigestRun measure(Launcher launcher, DigestGoal.Options options, Normalizer normalizer, Case c, Path keep, TimeBasis basis) {
        // Set in <environment>, the user's sanitizer options win over these.
        Map<String, String> sanitizerOptions = options.sanitizer() == Sanitizer.NONE ? Map.of()
                : Map.of("UBSAN_OPTIONS", UBSAN_OPTIONS, "ASAN_OPTIONS", ASAN_OPTIONS);
        Duration timeout = Duration.ofSeconds(options.run().timeoutSeconds());
        LaunchRequest base = c.applyTo(options.settings().launchRequest(options.command(), sanitizerOptions, timeout),
                options.settings().workingDirectory(), timeout);
        LaunchRequest request = keep == null ? base.holdingOutput() : base.keepingOutputAs(keep);
        LaunchResult result = launcher.launch(request);
        if (!result.started()) {
            if (options.sanitizer() == Sanitizer.NONE) {
                options.settings().mustHaveStarted(result, "command", options.command());
            }
            // A sanitizer build that is missing or cannot run proves nothing, and must never look clean.
            return new DigestRun(new DigestTuple(c.id(), null, null, null, SanitizerClass.UNAVAILABLE, options.buckets().bucket(0)), result);
        }
        if (result.timedOut()) {
            return new DigestRun(new DigestTuple(c.id(), null, null, null, SanitizerClass.TIMEOUT, options.buckets().last()), result);
        }
        SanitizerClass.Markers markers = options.sanitizer() == Sanitizer.NONE ? SanitizerClass.Markers.NONE
                : SanitizerClass.Markers.scan(result.stderr().file());
        Integer exit = result.exitCode() != null ? result.exitCode() : result.signalNumber() != null ? -result.signalNumber() : null;
        String stdoutSha = normalizer.active() ? normalizer.sha256(result.stdout().file()) : result.stdout().sha256();
        String stderrSha = normalizer.active() ? normalizer.sha256(result.stderr().file()) : result.stderr().sha256();
        long millis = time(result, basis);
        return new DigestRun(new DigestTuple(c.id(), exit, stdoutSha, stderrSha, SanitizerClass.classify(result, markers),
                options.buckets().bucket(millis), options.buckets().enabled() ? millis : null), result);
    }

    /**
     * A run's time on {@code basis}. The goals ask for CPU time only of a launcher that measures it (else they warn and
     * take wall time); a run without CPU figures all the same has its wall time, never a CPU time of zero.
     */
    static long time(LaunchResult run, TimeBasis basis) {
        return basis.measured(run) ? basis.millis(run) : TimeBasis.WALL.millis(run);
    }

    /** Where a case's full streams go: {@code <prefix>.stdout} and {@code <prefix>.stderr}. */
    static Path streamPrefix(GoalSettings settings, Case c) {
        return settings.streamsDirectory().resolve(SafeNames.stem(c.id()));
    }
}
