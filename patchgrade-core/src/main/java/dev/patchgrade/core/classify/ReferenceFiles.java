package dev.patchgrade.core.classify;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.grade.Setting;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What of a three-column reference is frozen and hidden. Its executable is not always its code: a reference run
 * by an interpreter ({@code /bin/sh frozen/ref.sh}) is its script, and a binary loads libraries and data beside it
 * ({@code $ORIGIN} rpath). A candidate that can read them prints the reference's answers (red teams 13 and 14).
 * Frozen: the executable and every file its command names (an interpreter's or a wrapper's script, its inputs).
 * Hidden from the candidate: those but the files the candidate names too, where a symbolic link
 * leads, and the directory of the reference's own file, wherever it is, unless that directory holds the project,
 * the working directory or the candidate. The system's own interpreters are frozen where they run the reference
 * but never hidden: every candidate's {@code system()} needs {@code /bin/sh}.
 *
 * @param root the reference's own file: its executable, or an interpreter's script
 * @param frozen the executable first, then the script, then the other files the command names
 * @param directory the reference's directory, or {@code null} where it is not the reference's own
 */
public record ReferenceFiles(Path root, List<Path> frozen, Path directory) {
    /** Directories of the distribution's own packages (not {@code /usr/local}, not {@code /opt}: what a user installs there is no interpreter of the system). */
    private static final List<Path> SYSTEM = Stream.of("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/usr/bin", "/usr/sbin",
            "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libx32", "/usr/libexec").map(Path::of).toList();
    private static final Pattern INTERPRETER = Pattern.compile(
            "(ba|da|z|k|c|tc|fi)?sh|python[0-9.]*|pypy[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node(js)?|lua[0-9.]*|luajit|php[0-9.]*|tclsh[0-9.]*"
                    + "|[gm]?awk|Rscript|java|env|busybox");

    /**
     * @param executable the resolved executable (the command's first word)
     * @param reference the reference command as configured
     * @param workingDirectory where relative words resolve, and a directory the reference must not take
     * @param keep files the reference's directory must not take from a candidate (the candidate's executable)
     * @param projectDirectory the project, which no reference directory may hold
     */
    public static ReferenceFiles of(Path executable, List<String> reference, Path workingDirectory, List<Path> keep, Path projectDirectory) {
        Path exe = executable.toAbsolutePath().normalize();
        List<Path> named = namedFiles(reference, workingDirectory);
        Path root = exe;
        if (runner(exe)) {
            // The system's own executable runs the reference's code: an interpreter, or a wrapper (timeout, stdbuf, the
            // dynamic loader). The first file it names is the reference's own; an interpreter that names none has no
            // code anyone could freeze or hide (red team 14: -c ". frozen/ref.sh").
            if (!named.isEmpty()) {
                root = named.get(0);
            } else if (interpreter(exe)) {
                throw PatchgradeException.badParameter(Setting.REFERENCE, "runs " + exe + ", an interpreter of the system, and names no file of its "
                        + "own: its code could neither be frozen nor hidden from the candidate. Name its script as a word of its own (e.g. <arg>"
                        + exe + "</arg><arg>frozen/ref.sh</arg>), in a directory of its own");
            }
        }
        Path directory = ownDirectory(root, workingDirectory, keep, projectDirectory);
        Set<Path> frozen = new LinkedHashSet<>();
        frozen.add(exe);
        frozen.add(root);
        frozen.addAll(named);
        return new ReferenceFiles(root, List.copyOf(frozen), directory);
    }

    /** For grading without a candidate in view (freezing, and the module's other goals): the project and working directory kept. */
    public static ReferenceFiles of(Path executable, List<String> reference, Path workingDirectory, Path projectDirectory) {
        return of(executable, reference, workingDirectory, List.of(), projectDirectory);
    }

    /** Whether the executable is an interpreter of the operating system's own (its code is the script it runs). */
    public static boolean interpreter(Path executable) {
        Path real = real(executable);
        return system(real) && (INTERPRETER.matcher(String.valueOf(real.getFileName())).matches()
                || INTERPRETER.matcher(String.valueOf(executable.getFileName())).matches());
    }

    /**
     * Whether the executable is the distribution's own, where it really is (a virtualenv's python3 links to
     * /usr/bin/python3.11): such a program runs the reference's code (red team 15) and is never hidden when it does.
     */
    public static boolean runner(Path executable) {
        return system(real(executable));
    }

    private static Path real(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        try {
            return absolute.toRealPath();
        } catch (IOException e) {
            return absolute;
        }
    }

    /**
     * The words after the first that name an existing regular file outside the system's directories, absolute: the
     * word itself, the value of an option spelled {@code --name=file}, or a response file {@code @file}.
     */
    public static List<Path> namedFiles(List<String> command, Path workingDirectory) {
        Set<Path> files = new LinkedHashSet<>();
        for (int i = 1; command != null && i < command.size(); i++) {
            String word = command.get(i);
            if (word == null || word.isEmpty() || word.indexOf('\0') >= 0) {
                continue;
            }
            List<String> spellings = new ArrayList<>(List.of(word));
            int equals = word.indexOf('=');
            if (equals > 0 && equals < word.length() - 1) {
                spellings.add(word.substring(equals + 1));
            }
            if (word.startsWith("@") && word.length() > 1) {
                spellings.add(word.substring(1));
            }
            for (String spelling : spellings) {
                Path file;
                try {
                    file = workingDirectory.resolve(spelling).toAbsolutePath().normalize();
                } catch (java.nio.file.InvalidPathException e) {
                    continue;
                }
                if (Files.isRegularFile(file) && !system(file)) {
                    files.add(file);
                }
            }
        }
        return List.copyOf(files);
    }

    /** Whether a path lies in a directory of the distribution's own packages. */
    public static boolean system(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        return SYSTEM.stream().anyMatch(absolute::startsWith);
    }

    /**
     * The directory of the reference's own file (its real location, past a symbolic link) where it is the
     * reference's own: not a system directory, and holding none of the project, the working directory and
     * {@code keep}.
     */
    private static Path ownDirectory(Path root, Path workingDirectory, List<Path> keep, Path projectDirectory) {
        Path directory;
        try {
            directory = root.toRealPath().getParent();
        } catch (IOException e) {
            directory = root.getParent();
        }
        if (directory == null || system(directory) || directory.getParent() == null) {
            return null;
        }
        List<Path> held = new ArrayList<>(List.of(projectDirectory, workingDirectory));
        held.addAll(keep);
        for (Path path : held) {
            Path absolute = path.toAbsolutePath().normalize();
            Path real = absolute;
            try {
                real = absolute.toRealPath();
            } catch (IOException e) {
                // not there: its spelled path is all there is to compare
            }
            if (absolute.startsWith(directory) || real.startsWith(directory)) {
                return null;
            }
        }
        return directory;
    }

    /**
     * What every candidate of the module must not see: the reference's own file (and where a symbolic link leads),
     * the other files its command names, and the executable unless it is the system's own running a file of the
     * reference's. Not its directory: another goal's candidate may live there.
     */
    public List<Path> hiddenFromModule() {
        Set<Path> hidden = new LinkedHashSet<>();
        Path exe = frozen.get(0);
        if (!runner(exe) || root.equals(exe)) {
            hidden.add(exe);
        }
        hidden.addAll(frozen.subList(1, frozen.size()));
        try {
            hidden.add(root.toRealPath());
        } catch (IOException e) {
            // gone: nothing to hide where it led
        }
        return List.copyOf(hidden);
    }

    /**
     * What this grade's candidate must not see: {@link #hiddenFromModule()} and the reference's directory. A file
     * the candidate runs itself ({@code keep}) stays visible.
     */
    public List<Path> hidden(List<Path> keep) {
        Set<Path> hidden = new LinkedHashSet<>(hiddenFromModule());
        if (directory != null) {
            hidden.add(directory);
        }
        for (Path own : keep) {
            hidden.remove(own.toAbsolutePath().normalize());
        }
        return List.copyOf(hidden);
    }
}
