package dev.patchgrade.core.classify;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.grade.RunInputs;
import dev.patchgrade.core.launch.ChildEnvironment;
import dev.patchgrade.core.launch.ExecutableCheck;
import dev.patchgrade.core.launch.SandboxSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The frozen reference: what lives under its home ({@code referenceHome}, default the executable's directory, or
 * its install prefix where that directory is {@code bin}). The home is shown to the reference's runs and hidden
 * from the candidate's; nothing is guessed from the command beyond the files it names inside the home.
 *
 * @param home the reference's directory
 * @param frozen what its sidecar holds: the executable first, then the files the command names inside the home
 * @param configured whether {@code referenceHome} named it (a default home that would hide the candidate's own files
 *     falls back to hiding the executable, with a warning; a configured one is an error)
 */
public record ReferenceHome(Path home, List<Path> frozen, boolean configured) {
    public ReferenceHome(Path home, List<Path> frozen) {
        this(home, frozen, true);
    }

    public ReferenceHome {
        frozen = List.copyOf(frozen);
    }

    /** The executable, its identity first in the sidecar. */
    public Path executable() {
        return frozen.get(0);
    }

    /**
     * @param executable the reference's executable, as the launcher finds it
     * @param configured {@code referenceHome}, or {@code null} for the default
     * @param workingDirectory where the runs start: the home may not hold it (the candidate could not see where it runs)
     */
    public static ReferenceHome of(Path executable, List<String> command, Path configured, Path workingDirectory) {
        Path home = configured != null ? real(configured.toAbsolutePath().normalize()) : defaultHome(executable);
        if (configured == null && system(home)) {
            throw PatchgradeException.badParameter(Setting.REFERENCE_HOME, "is needed: the reference's executable " + executable + " is a program of "
                    + "the system, so its directory (" + home + ") cannot be the reference's own. Install the reference into a prefix of its own "
                    + "(e.g. target/frozen/bin/ref, its script and data in target/frozen) and set the prefix as referenceHome");
        }
        if (system(home) || home.getNameCount() == 0) {
            throw PatchgradeException.badParameter(Setting.REFERENCE_HOME, "is " + home + ", a directory of the system: every run needs it, so it "
                    + "cannot be hidden from the candidate. Name the directory that holds the reference's own files (e.g. target/frozen)");
        }
        if (configured != null && workingDirectory != null && real(workingDirectory.toAbsolutePath().normalize()).startsWith(home)) {
            throw PatchgradeException.badParameter(Setting.REFERENCE_HOME, "is " + home + ", which holds the working directory " + workingDirectory
                    + ": the candidate would run in a directory hidden from it. Install the reference into a prefix of its own (e.g. "
                    + "target/frozen/bin/ref) and set that prefix as referenceHome");
        }
        List<Path> frozen = new ArrayList<>(List.of(executable));
        for (Path named : RunInputs.named(command.subList(1, command.size()), workingDirectory)) {
            Path file = real(named);
            if (file.startsWith(home) && Files.isRegularFile(file) && !frozen.contains(named)) {
                frozen.add(named);
            }
        }
        return new ReferenceHome(home, frozen, configured != null);
    }

    /**
     * What the candidate's runs must not see: the home, or where a default home also holds the candidate or the
     * directory the runs start in, the reference's executable alone (and a warning saying what stays readable);
     * nothing where the candidate is the reference's own executable itself, run with other arguments (not where both
     * are the system's interpreter).
     */
    public List<Path> hiddenFromCandidate(Path candidate, Path workingDirectory, dev.patchgrade.core.GradeLog log) {
        if (candidate != null && sameFile(candidate, executable()) && real(executable()).startsWith(home)) {
            return List.of();
        }
        boolean holdsCandidate = candidate != null && real(candidate.toAbsolutePath().normalize()).startsWith(home);
        boolean holdsWorkingDirectory = workingDirectory != null && real(workingDirectory.toAbsolutePath().normalize()).startsWith(home);
        if (!holdsCandidate && !holdsWorkingDirectory) {
            return List.of(home);
        }
        String shared = holdsCandidate ? "the candidate " + candidate : "the working directory " + workingDirectory;
        if (configured) {
            throw PatchgradeException.badParameter(Setting.REFERENCE_HOME, "is " + home + ", which holds " + shared + " too: hidden from the "
                    + "candidate's runs, the candidate could not run. Install the reference into a prefix of its own (e.g. target/frozen/bin/ref) "
                    + "and set that prefix as referenceHome");
        }
        log.warn("the reference's directory " + home + " holds " + shared + " too, so only the reference's executable " + executable()
                + " is hidden from the candidate: what lies beside it (its libraries, data) stays readable. Install the reference into a prefix "
                + "of its own (e.g. target/frozen/bin/ref, its libraries in target/frozen/lib), or set referenceHome");
        return List.of(executable());
    }

    /** The libraries the system's loader lists for the executable that lie neither in the system nor in the home: a candidate can read them. */
    public List<Path> librariesOutside(Path workingDirectory, java.util.Map<String, String> environment) {
        List<Path> outside = new ArrayList<>();
        for (Path library : dev.patchgrade.core.launch.LoadedLibraries.of(executable(), workingDirectory, environment)) {
            Path real = real(library);
            if (!system(real) && !real.startsWith(home) && !outside.contains(library)) {
                outside.add(library);
            }
        }
        return outside;
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * What of a reference the runs of every other execution must not see, read from its configuration alone (any of
     * them could run it and print its answers): its default home, or where that home holds the project, the
     * executable alone (the goal warns there); {@code null} for a program of the system (the goal itself asks for
     * {@code referenceHome}) or a bare name found nowhere.
     *
     * @param program the reference command's first word
     * @param environment the execution's {@code environment}: its {@code PATH} decides which program a bare name is
     */
    public static Path hiddenFromOtherRuns(String program, Path workingDirectory, Map<String, String> environment, Path projectBase) {
        ExecutableCheck.Resolution executable = ExecutableCheck.resolve(program, workingDirectory, ChildEnvironment.pinned(environment));
        // Not built yet: the home its path will have is hidden all the same.
        Path path = executable.path() != null ? executable.path() : program.contains("/") ? workingDirectory.resolve(program).normalize() : null;
        if (path == null) {
            return null;
        }
        Path home = defaultHome(path);
        if (home == null || system(home)) {
            return null;
        }
        return projectBase.toAbsolutePath().normalize().startsWith(home) ? path : home;
    }

    /** The executable's directory, or the prefix above a {@code bin} directory; links followed to where the file is. */
    public static Path defaultHome(Path executable) {
        Path directory = real(executable.toAbsolutePath().normalize()).getParent();
        if (directory != null && directory.getFileName() != null && directory.getFileName().toString().equals("bin") && directory.getParent() != null) {
            return directory.getParent();
        }
        return directory;
    }

    /** Whether {@code path} is, or lies in, a tree of the system (or is one of the system's parents, the root). */
    public static boolean system(Path path) {
        for (Path tree : SandboxSpec.SYSTEM) {
            Path real = real(tree);
            if (path.startsWith(tree) || path.startsWith(real) || tree.startsWith(path)) {
                return true;
            }
        }
        return false;
    }

    static Path real(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException | SecurityException e) {
            return path;
        }
    }
}
