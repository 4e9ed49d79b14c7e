package dev.patchgrade.core.classify;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What of a three-column reference is frozen and hidden. Its executable is not always its code: a reference run
 * by an interpreter ({@code /bin/sh frozen/ref.sh}) is the script, and a binary linked against a library beside
 * it ({@code $ORIGIN} rpath) runs that library's code. A candidate that can read either prints the reference's
 * answers (red team 13), so the files the command names are frozen and hidden with the executable, and the
 * candidate does not see the executable's own directory either. System directories (the interpreter itself) are
 * never hidden: every candidate's {@code system()} needs {@code /bin/sh}.
 *
 * @param frozen the executable first, then each other file the command names outside the system directories
 */
public record ReferenceFiles(List<Path> frozen) {
    private static final List<Path> SYSTEM = List.of("/bin", "/sbin", "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/etc").stream()
            .map(Path::of).toList();

    /**
     * @param executable the resolved executable (the command's first word)
     * @param reference the reference command as configured
     * @param workingDirectory where relative words resolve
     */
    public static ReferenceFiles of(Path executable, List<String> reference, Path workingDirectory) {
        Set<Path> frozen = new LinkedHashSet<>();
        frozen.add(executable.toAbsolutePath().normalize());
        frozen.addAll(namedFiles(reference, workingDirectory));
        return new ReferenceFiles(List.copyOf(frozen));
    }

    /** The words after the first that name an existing regular file outside the system directories, absolute. */
    public static List<Path> namedFiles(List<String> command, Path workingDirectory) {
        List<Path> files = new ArrayList<>();
        for (int i = 1; command != null && i < command.size(); i++) {
            String word = command.get(i);
            if (word == null || word.isEmpty() || word.startsWith("-") || word.indexOf('\0') >= 0) {
                continue;
            }
            Path file;
            try {
                file = workingDirectory.resolve(word).toAbsolutePath().normalize();
            } catch (java.nio.file.InvalidPathException e) {
                continue;
            }
            if (Files.isRegularFile(file) && !system(file)) {
                files.add(file);
            }
        }
        return files;
    }

    /** Whether a path lies in a directory of the operating system's own (an interpreter, a shared tool). */
    public static boolean system(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        return SYSTEM.stream().anyMatch(absolute::startsWith);
    }

    /** What every candidate of the module must not see: the frozen files outside the system directories. */
    public List<Path> hiddenFromCandidates() {
        return frozen.stream().filter(file -> !system(file)).toList();
    }

    /**
     * What the candidate of this grade must not see: {@link #hiddenFromCandidates()}, and the executable's directory
     * (libraries beside it) where that directory holds nothing the candidate needs: not the project or working
     * directory or one above them, not a system directory, and none of the candidate's own files.
     */
    public List<Path> hiddenFrom(List<Path> candidateFiles, Path projectDirectory, Path workingDirectory) {
        List<Path> hidden = new ArrayList<>(hiddenFromCandidates());
        hidden.removeIf(file -> candidateFiles.stream().anyMatch(own -> own.toAbsolutePath().normalize().equals(file)));
        Path directory = frozen.get(0).getParent();
        Path project = projectDirectory.toAbsolutePath().normalize();
        Path working = workingDirectory.toAbsolutePath().normalize();
        boolean own = directory != null && !system(directory) && directory.startsWith(project) && !project.startsWith(directory)
                && !working.startsWith(directory)
                && candidateFiles.stream().noneMatch(file -> file.toAbsolutePath().normalize().startsWith(directory));
        if (own) {
            hidden.add(directory);
        }
        return hidden;
    }
}
