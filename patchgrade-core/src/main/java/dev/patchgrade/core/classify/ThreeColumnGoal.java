package dev.patchgrade.core.classify;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.ProjectPaths;
import dev.patchgrade.core.grade.RecordingTarget;
import dev.patchgrade.core.grade.RunSettings;
import dev.patchgrade.core.launch.ChildEnvironment;
import dev.patchgrade.core.launch.ExecutableCheck;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.report.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The {@code freeze-reference} and {@code three-column} goals, without Maven: their options and entry points. */
public final class ThreeColumnGoal {
    private static final String INTENDED = "after reviewing the new reference, and commit the sidecar";

    private ThreeColumnGoal() {}

    /**
     * What {@code three-column} is told; build it with {@link #builder}.
     *
     * @param run the cases, shard, parallelism, timeout and keepAll (the streams of every row; by default only of the rows that did not
     *     pass) every goal shares
     */
    public record Options(GoalSettings settings, RunSettings run, List<String> reference, List<String> candidate, Path referenceDigest,
            Comparison comparison, Path referenceHome) {}

    public static Builder builder(GoalSettings settings) {
        return new Builder(settings);
    }

    /** Options with the documented defaults; {@code cases}, {@code reference}, {@code candidate} and {@code referenceDigest} have none. */
    public static final class Builder extends RunSettings.Builder<Builder> {
        private List<String> reference;
        private List<String> candidate;
        private Path referenceDigest;
        private Comparison comparison = Comparison.parse("trim");
        private Path referenceHome;

        private Builder(GoalSettings settings) {
            super(settings);
        }

        public Builder reference(List<String> value) {
            reference = value;
            return this;
        }

        public Builder candidate(List<String> value) {
            candidate = value;
            return this;
        }

        public Builder referenceDigest(Path value) {
            referenceDigest = value;
            return this;
        }

        /** {@code referenceHome}: {@code null} for the executable's directory (its prefix where that is {@code bin}). */
        public Builder referenceHome(Path value) {
            referenceHome = value;
            return this;
        }

        public Builder comparison(Comparison value) {
            comparison = value;
            return this;
        }

        public Options build() {
            return new Options(settings, run(), reference, candidate, referenceDigest, comparison, referenceHome);
        }
    }

    public static String freeze(GoalSettings settings, List<String> reference, Path sidecar, boolean force, GradeLog log) {
        return freeze(settings, reference, null, sidecar, force, log);
    }

    public static String freeze(GoalSettings settings, List<String> reference, Path referenceHome, Path sidecar, boolean force, GradeLog log) {
        RecordingTarget.refuseOverwrite(settings, sidecar, force, false, "freeze-reference", INTENDED);
        ReferenceHome files = referenceHome(settings, reference, referenceHome);
        for (Path library : files.librariesOutside(settings.workingDirectory(), ChildEnvironment.pinned(settings.environment()))) {
            log.warn("the reference " + files.executable() + " loads " + library + ", which lies outside its home " + files.home()
                    + ": a candidate can read it. Install the reference with its libraries into a prefix of its own (e.g. `cmake --install "
                    + "build --prefix target/frozen`), or set referenceHome to a directory holding both");
        }
        StringBuilder lines = new StringBuilder();
        for (Path file : files.frozen()) {
            lines.append(ReferenceSidecar.line(ReferenceSidecar.sha256(file), ProjectPaths.portable(file, settings.projectDirectory())));
        }
        try {
            byte[] content = lines.toString().getBytes(StandardCharsets.UTF_8);
            if (force) {
                AtomicFiles.write(sidecar, content);
            } else {
                AtomicFiles.writeNew(sidecar, content);
            }
        } catch (java.nio.file.FileAlreadyExistsException e) {
            throw RecordingTarget.appeared(settings, sidecar, "freeze-reference", INTENDED);
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.WRITE_FAILED, "cannot write " + sidecar + ": " + e.getMessage(), e);
        }
        String sha = lines.substring(0, 64);
        log.info("Froze the reference " + String.join(", ", files.frozen().stream().map(Path::toString).toList()) + " (the executable as sha256 "
                + sha + ") in " + sidecar);
        return sha;
    }

    /** The reference's home, and what of it is frozen: the executable and the files its command names there. */
    public static ReferenceHome referenceHome(GoalSettings settings, List<String> reference, Path configured) {
        return ReferenceHome.of(referenceExecutable(settings, reference), reference, configured, settings.workingDirectory());
    }

    /**
     * Error {@code reference_identity_drift}, naming both digests, unless {@code files} are what {@code sidecar} froze:
     * the check every goal that runs a frozen reference makes before it runs anything.
     *
     * @param why what a changed reference would do to the goal's verdicts, for the message
     */
    public static void requireFrozen(GoalSettings settings, Path sidecar, ReferenceHome files, String why) {
        if (ThreeColumnGrading.identity(settings, sidecar, files) != null) {
            throw new PatchgradeException(ErrorName.REFERENCE_IDENTITY_DRIFT, ThreeColumnGrading.identityMessage(settings, sidecar, files, why));
        }
    }

    public static GoalResult grade(Options options, GradeLog log) {
        return new ThreeColumnGrading(options).grade(log);
    }

    static Path referenceExecutable(GoalSettings settings, List<String> reference) {
        if (reference == null || reference.isEmpty()) {
            throw PatchgradeException.badParameter(Setting.REFERENCE, "is required: the frozen reference binary, executable first");
        }
        ExecutableCheck.Resolution resolution = ExecutableCheck.resolve(reference.get(0), settings.workingDirectory(),
                ChildEnvironment.pinned(settings.environment()));
        if (!resolution.ok()) {
            settings.mustHaveStarted(LaunchResult.couldNotStart(resolution.failure()), "reference", reference);
        }
        return resolution.path();
    }

    /** The first line where the three outputs part; see {@link ThreeColumnText#firstDifferingLine}. */
    static String firstDifferingLine(String reference, String candidate, String golden) {
        return ThreeColumnText.firstDifferingLine(reference, candidate, golden);
    }

    public static Path feedbackFile(GoalSettings settings) {
        return settings.names().feedbackFile();
    }
}
