package dev.patchgrade.core.grade;

import dev.patchgrade.core.cases.Case;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What one launcher's runs are given, from which the sandbox builds their view: the command, the cases whose
 * arguments, directories and variables it runs with, and any directory shown besides (a reference's home to its
 * own launcher).
 *
 * @param command the command, executable first
 * @param cases the cases the command runs, or {@code null} for the command alone
 * @param alsoShown directories shown to these runs besides what they are given
 */
public record RunInputs(List<String> command, Supplier<? extends Iterable<Case>> cases, List<Path> alsoShown) {
    /** Variables whose absolute directories are the run's toolchain: shown, as the system is. */
    static final List<String> SEARCH_PATHS = List.of("PATH", "LD_LIBRARY_PATH");

    public RunInputs {
        command = command == null ? List.of() : List.copyOf(command);
        alsoShown = alsoShown == null ? List.of() : List.copyOf(alsoShown);
    }

    public static RunInputs of(List<String> command) {
        return new RunInputs(command, null, List.of());
    }

    public static RunInputs of(List<String> command, Supplier<? extends Iterable<Case>> cases) {
        return new RunInputs(command, cases, List.of());
    }

    public RunInputs showingAlso(List<Path> more) {
        List<Path> all = new ArrayList<>(alsoShown);
        all.addAll(more);
        return new RunInputs(command, cases, all);
    }

    /**
     * Every existing file or directory that {@code words} name, read from {@code directory}: each word, and
     * the value of a {@code name=value} word.
     */
    public static List<Path> named(List<String> words, Path directory) {
        Set<Path> found = new LinkedHashSet<>();
        for (String word : words) {
            if (word == null || word.isEmpty()) {
                continue;
            }
            addIfExists(word, directory, found);
            int equals = word.indexOf('=');
            if (equals >= 0 && equals + 1 < word.length()) {
                addIfExists(word.substring(equals + 1), directory, found);
            }
        }
        return List.copyOf(found);
    }

    /** The absolute directories of {@code environment}'s search paths ({@code PATH}, {@code LD_LIBRARY_PATH}). */
    public static List<Path> searchPaths(Map<String, String> environment) {
        Set<Path> found = new LinkedHashSet<>();
        for (String variable : SEARCH_PATHS) {
            String value = environment.get(variable);
            for (String entry : value == null ? new String[0] : value.split(":")) {
                if (entry.startsWith("/") && entry.indexOf('\0') < 0) {
                    try {
                        Path path = Path.of(entry).normalize();
                        if (Files.isDirectory(path)) {
                            found.add(path);
                        }
                    } catch (InvalidPathException e) {
                        // no directory of that name
                    }
                }
            }
        }
        return List.copyOf(found);
    }

    private static void addIfExists(String text, Path directory, Set<Path> found) {
        if (text.indexOf('\0') >= 0) {
            return;
        }
        try {
            Path path = directory == null ? Path.of(text) : directory.resolve(text);
            if (path.isAbsolute() && Files.exists(path)) {
                found.add(path.normalize());
            }
        } catch (InvalidPathException e) {
            // a word that names no file
        }
    }
}
