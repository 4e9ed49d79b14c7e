package dev.patchgrade.core.coverage;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.SandboxSettings;
import dev.patchgrade.core.launch.SandboxSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * A small C project in a git repository of its own whose last commit changes three functions and an inline helper
 * of a header, built with gcc --coverage beside its sources (build/). Lines marked {@code R} are changed lines the
 * cases below run, lines marked {@code N} changed lines no case runs; {@code forked} runs only in a child process.
 */
final class CoverageProject {
    static final String HEADER_BEFORE = """
            static inline int helper(int x) {
                return x;
            }
            """;
    static final String HEADER_AFTER = """
            static inline int helper(int x) {
                return x + 0; /*R*/
            }
            """;
    static final String BEFORE = """
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>
            #include <unistd.h>
            #include <sys/wait.h>
            #include "calc.h"

            int scaled(int x) {
                return x * 2;
            }

            int clamped(int x) {
                return x;
            }

            int forked(int x) {
                return x;
            }

            int main(int argc, char **argv) {
                const char *mode = argc > 1 ? argv[1] : "scale";
                int v = argc > 2 ? atoi(argv[2]) : 1;
                if (strcmp(mode, "scale") == 0) {
                    printf("%d\\n", helper(scaled(v)));
                    return 0;
                }
                if (strcmp(mode, "clamp") == 0) {
                    printf("%d\\n", clamped(v));
                    return 0;
                }
                if (strcmp(mode, "fork") == 0) {
                    pid_t child = fork();
                    if (child == 0) {
                        printf("%d\\n", forked(v));
                        exit(0);
                    }
                    waitpid(child, NULL, 0);
                    return 0;
                }
                if (strcmp(mode, "sleep") == 0) {
                    sleep(60);
                }
                return 2;
            }
            """;
    static final String AFTER = BEFORE.replace("""
            int scaled(int x) {
                return x * 2;
            }
            """, """
            int scaled(int x) {
                int y = x * 3; /*R*/
                return y + 1; /*R*/
            }
            """).replace("""
            int clamped(int x) {
                return x;
            }
            """, """
            int clamped(int x) {
                if (x > 100) /*N*/
                    return 100; /*N*/
                return x; /*N*/
            }
            """).replace("""
            int forked(int x) {
                return x;
            }
            """, """
            int forked(int x) {
                return x - 1; /*R*/
            }
            """);

    final Path root;
    final Path binary;

    private CoverageProject(Path root) {
        this.root = root;
        this.binary = root.resolve("build/calc");
    }

    /** The project at {@code root}: two commits, the coverage build compiled from the second, and no case run yet. */
    static CoverageProject create(Path root) throws Exception {
        CoverageProject project = new CoverageProject(Files.createDirectories(root));
        project.write("src/calc.c", BEFORE);
        project.write("src/calc.h", HEADER_BEFORE);
        project.write("tools/unbuilt.c", "int unused(void) {\n    return 0;\n}\n");
        assumeTrue(git(project.root, "init", "-q", ".") && git(project.root, "add", ".") && commit(project.root, "before"),
                "git is needed to make the repository");
        project.write("src/calc.c", AFTER);
        project.write("src/calc.h", HEADER_AFTER);
        project.write("tools/unbuilt.c", "int unused(void) {\n    return 1;\n}\n");
        if (!git(project.root, "add", ".") || !commit(project.root, "patch")) {
            throw new IllegalStateException("cannot commit the patch");
        }
        project.compile("--coverage");
        return project;
    }

    void write(String path, String text) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** Compiles and links build/calc from its object build/calc.o, as a build system would. */
    void compile(String... flags) throws Exception {
        Files.createDirectories(root.resolve("build"));
        List<String> compile = new ArrayList<>(List.of("gcc", "-O0", "-c", "../src/calc.c", "-o", "calc.o"));
        compile.addAll(List.of(flags));
        run(root.resolve("build"), compile);
        List<String> link = new ArrayList<>(List.of("gcc", "calc.o", "-o", "calc"));
        link.addAll(List.of(flags));
        run(root.resolve("build"), link);
    }

    /** The lines of a file of the patched tree that carry {@code marker}. */
    TreeSet<Integer> marked(String path, String marker) throws IOException {
        TreeSet<Integer> lines = new TreeSet<>();
        List<String> text = Files.readAllLines(root.resolve(path));
        for (int i = 0; i < text.size(); i++) {
            if (text.get(i).contains("/*" + marker + "*/")) {
                lines.add(i + 1);
            }
        }
        return lines;
    }

    Path cases(String name, String... idArgs) throws IOException {
        StringBuilder text = new StringBuilder();
        for (String idAndArgs : idArgs) {
            String[] words = idAndArgs.split(" ");
            text.append("{\"id\": \"").append(words[0]).append("\", \"args\": [");
            for (int i = 1; i < words.length; i++) {
                text.append(i == 1 ? "" : ", ").append('"').append(words[i]).append('"');
            }
            text.append("]}\n");
        }
        Path file = root.resolve("src/test/patchgrade").resolve(name);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text.toString());
    }

    GoalSettings settings(String execution, SandboxSpec.Mode mode) {
        return new GoalSettings("patch-coverage", execution, root.resolve("target/patchgrade-reports"), root.resolve("target/patchgrade"), root,
                Map.of()).withSandbox(new SandboxSettings(mode, List.of(), root, List.of(), List.of(), List.of()));
    }

    static boolean git(Path directory, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(arguments));
        try {
            return exit(directory, command) == 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean commit(Path directory, String message) throws Exception {
        return git(directory, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message);
    }

    static void run(Path directory, List<String> command) throws Exception {
        if (exit(directory, command) != 0) {
            throw new IllegalStateException(command + " failed in " + directory);
        }
    }

    private static int exit(Path directory, List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        process.getInputStream().transferTo(System.err);
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(command + " did not end");
        }
        return process.exitValue();
    }
}
