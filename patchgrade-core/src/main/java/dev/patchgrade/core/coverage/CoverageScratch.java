package dev.patchgrade.core.coverage;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.Launchers;
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
     * A launcher for this execution's children: sandboxed as every goal's, with {@link #runs()} writable.
     * Everything about the scratch's place in the sandbox is decided by {@link #writableThrough}.
     */
    Launcher openLauncher(GoalSettings settings, GradeLog log, List<Path> oracles, List<Path> executables, int concurrency) {
        SandboxSpec spec = writableThrough(settings.sandboxSpec(oracles, executables), runs());
        Launcher launcher = Launchers.open(log, spec, concurrency, settings.suggestions());
        settings.facts().observe(launcher, spec);
        settings.facts().warnCpuLimitation(log);
        return launcher;
    }

    /**
     * {@code spec} with {@code writable} made writable. The sandbox hides {@code target/patchgrade} (and any other
     * hidden area) after it binds the writable paths, which would cover a writable path inside; so a hidden area that
     * holds {@code writable} is hidden instead entry by entry, all but the way down to it: what it held stays hidden,
     * and {@code writable} is the one way in. Only what exists now is hidden, as the sandbox hides only what exists
     * when the launcher opens.
     */
    static SandboxSpec writableThrough(SandboxSpec spec, Path writable) {
        Path target = real(writable);
        List<Path> oracles = new ArrayList<>();
        for (Path oracle : spec.oracles()) {
            Path hidden = real(oracle);
            if (hidden != null && target != null && target.startsWith(hidden)) {
                oracles.addAll(around(hidden, target));
            } else {
                oracles.add(oracle);
            }
        }
        List<Path> writables = new ArrayList<>(spec.writable());
        writables.add(writable);
        return new SandboxSpec(spec.mode(), spec.hidden(), spec.shown(), oracles, spec.readOnly(), writables);
    }

    /** Every entry of {@code area} and of each directory below it on the way to {@code target}, but that way itself. */
    static List<Path> around(Path area, Path target) {
        List<Path> hidden = new ArrayList<>();
        Path at = area;
        for (Path name : area.relativize(target)) {
            Path next = at.resolve(name);
            try (Stream<Path> entries = Files.list(at)) {
                entries.filter(entry -> !entry.equals(next)).sorted().forEach(hidden::add);
            } catch (IOException e) {
                // An area that cannot be listed is hidden whole: the scratch is then not writable, and the runs write no data,
                // which the goal reports, rather than anything that was hidden showing.
                return List.of(area);
            }
            at = next;
        }
        return hidden;
    }

    private static Path real(Path path) {
        try {
            return Files.exists(path, LinkOption.NOFOLLOW_LINKS) ? path.toRealPath() : null;
        } catch (IOException e) {
            return null;
        }
    }
}
