package dev.patchgrade.core.classify;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.cases.Case;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.RunInputs;
import dev.patchgrade.core.launch.Launcher;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The two launchers of a goal that runs a frozen reference beside a candidate ({@code three-column},
 * {@code differential}): the reference's is shown its home, the candidate's loses it. Each is shown what its own
 * command and the cases name, and neither sees {@code oracles}.
 */
public final class ReferenceLaunchers implements AutoCloseable {
    private final Launcher reference;
    private final Launcher candidate;

    private ReferenceLaunchers(Launcher reference, Launcher candidate) {
        this.reference = reference;
        this.candidate = candidate;
    }

    /**
     * @param hiddenFromCandidate what the candidate loses besides the reference's home and {@code oracles} (a generator's files)
     * @param concurrency the most children of each launcher at once
     */
    public static ReferenceLaunchers open(GoalSettings settings, GradeLog log, ReferenceHome home, List<String> referenceCommand,
            List<String> candidateCommand, Supplier<? extends Iterable<Case>> cases, List<Path> oracles, List<Path> hiddenFromCandidate,
            int concurrency) {
        List<Path> candidateHidden = new ArrayList<>(oracles);
        Path program = settings.executablesOf(candidateCommand).stream().findFirst().orElse(null);
        candidateHidden.addAll(home.hiddenFromCandidate(program, settings.workingDirectory(), log));
        candidateHidden.addAll(hiddenFromCandidate);
        Launcher reference = settings.openLauncher(log, oracles, new RunInputs(referenceCommand, cases, List.of(home.home())), concurrency);
        try {
            return new ReferenceLaunchers(reference, settings.openLauncher(log, candidateHidden, RunInputs.of(candidateCommand, cases), concurrency));
        } catch (RuntimeException e) {
            reference.close();
            throw e;
        }
    }

    public Launcher reference() {
        return reference;
    }

    public Launcher candidate() {
        return candidate;
    }

    /** Both closed, the candidate's first. */
    @Override
    public void close() {
        try (Launcher first = reference; Launcher second = candidate) {
            // closed by the try
        }
    }
}
