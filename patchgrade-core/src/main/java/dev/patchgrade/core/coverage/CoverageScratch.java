package dev.patchgrade.core.coverage;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
import dev.patchgrade.core.grade.RunInputs;
import dev.patchgrade.core.launch.SandboxSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where one {@code patch-coverage} execution's coverage data go: {@code target/patchgrade/coverage/<executionId>/},
 * with {@code runs/} (each case's own directory, the one place its runs may write) and {@code gcov/} (patchgrade's
 * copies for gcov, which no run sees). Nothing goes into the source tree or beside the build's objects.
 */
final class CoverageScratch {
    private final Path directory;

    private CoverageScratch(Path directory) {
        this.directory = directory;
    }

    /** This execution's scratch, emptied of what an earlier build left. */
    static CoverageScratch fresh(GoalSettings settings) {
        CoverageScratch scratch = new CoverageScratch(settings.outputDirectory().resolve("coverage").resolve(settings.executionId())
                .toAbsolutePath().normalize());
        CaseData.delete(scratch.directory);
        try {
            Files.createDirectories(scratch.runs());
            Files.createDirectories(scratch.gcov());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the coverage scratch " + scratch.directory, e);
        }
        return scratch;
    }

    Path directory() {
        return directory;
    }

    /** Where the runs write: writable in the sandbox. */
    Path runs() {
        return directory.resolve("runs");
    }

    /** Where gcov reads patchgrade's copies. */
    Path gcov() {
        return directory.resolve("gcov");
    }

    void delete() {
        CaseData.delete(directory);
    }

    /**
     * A launcher for this execution's children: sandboxed as every goal's, with {@link #runs()} writable. The scratch
     * lies in the hidden {@code target/patchgrade}: a writable path inside a hidden one is its one way in.
     */
    Launcher openLauncher(GoalSettings settings, GradeLog log, List<Path> oracles, RunInputs inputs, int concurrency) {
        SandboxSpec spec = settings.sandboxSpec(oracles, inputs);
        if (spec.mode() != SandboxSpec.Mode.OFF) {
            spec = spec.writingAlso(List.of(runs()));
        }
        Launcher launcher = Launchers.open(log, spec, concurrency, settings.suggestions());
        settings.facts().observe(launcher, spec, settings.workingDirectory());
        settings.facts().warnCpuLimitation(log);
        return launcher;
    }

    private static Path real(Path path) {
        try {
            return Files.exists(path, LinkOption.NOFOLLOW_LINKS) ? path.toRealPath() : null;
        } catch (IOException e) {
            return null;
        }
    }
}
