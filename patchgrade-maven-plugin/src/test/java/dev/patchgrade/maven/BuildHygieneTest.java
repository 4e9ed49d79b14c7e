package dev.patchgrade.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Facts of the repository around the plugin that drift silently: pins, ignored caches, what the README promises. */
class BuildHygieneTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theItParentTakesEveryPluginVersionFromTheRootPom() throws Exception {
        String pom = Files.readString(ROOT.resolve("it/src/it/it-parent/pom.xml"));
        List<String> pinned = new ArrayList<>();
        Matcher plugin = Pattern.compile("<plugin>.*?</plugin>", Pattern.DOTALL).matcher(pom);
        while (plugin.find()) {
            Matcher version = Pattern.compile("<artifactId>([^<]+)</artifactId>\\s*<version>([^<]+)</version>").matcher(plugin.group());
            if (version.find() && !version.group(2).matches("@[A-Za-z.]+@|\\$\\{[A-Za-z.]+}")) {
                pinned.add(version.group(1) + " " + version.group(2));
            }
        }
        assertThat(pinned).as("plugin versions hard-coded in the IT parent instead of filtered from the root POM").isEmpty();
    }

    @Test
    void theJqwikDatabaseIsNotCommitted() throws Exception {
        Assumptions.assumeTrue(Files.exists(ROOT.resolve(".git")), "not a git checkout");
        Process git = new ProcessBuilder("git", "ls-files", "--", "patchgrade-core/.jqwik-database").directory(ROOT.toFile())
                .redirectErrorStream(true).start();
        String listed = new String(git.getInputStream().readAllBytes()).strip();
        git.waitFor();
        assertThat(listed).as("jqwik's local failure database is per machine").isEmpty();
        assertThat(Files.readAllLines(ROOT.resolve(".gitignore"))).contains(".jqwik-database");
    }

    /**
     * An ASCII-only terminal ({@code LC_ALL=C}, as Jenkins agents often run) shows an em dash or an arrow as {@code ?}:
     * what the plugin and the core print, and the comments beside it, are plain ASCII ({@code ->}, {@code -}, {@code x}).
     */
    @Test
    void theMainCodeOfBothModulesIsAscii() throws Exception {
        List<String> found = new ArrayList<>();
        for (String module : List.of("patchgrade-core", "patchgrade-maven-plugin")) {
            try (var files = Files.walk(ROOT.resolve(module).resolve("src/main"))) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    List<String> lines = Files.readAllLines(file, java.nio.charset.StandardCharsets.ISO_8859_1);
                    for (int i = 0; i < lines.size(); i++) {
                        if (lines.get(i).chars().anyMatch(c -> c > 0x7e || (c < 0x20 && c != '\t'))) {
                            found.add(ROOT.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
                        }
                    }
                }
            }
        }
        assertThat(found).as("lines with characters outside printable ASCII").isEmpty();
    }

    @Test
    void theReadmeDoesNotPromiseReportsFromTheRecordingGoals() throws Exception {
        String readme = Files.readString(ROOT.resolve("README.md")).replaceAll("\\s+", " ");
        assertThat(readme).doesNotContain("Every goal writes").contains("Every grading goal");
    }
}
