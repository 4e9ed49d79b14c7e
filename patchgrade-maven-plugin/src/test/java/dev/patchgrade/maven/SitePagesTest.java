package dev.patchgrade.maven;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.ErrorName;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The site's sources and the README against what the build runs, so that neither rots: the menu and the pages,
 * their links, the snippets they cut from the CMake IT, the error names, and the README's block and commands.
 * The built site's links and anchors are checked by .ci/check-site.py after `mvn site`.
 */
class SitePagesTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path SITE = Path.of("src/site").toAbsolutePath();
    private static final Path IT = ROOT.resolve("it/src/it/cmake-adoption");
    /** Pages the site's reports generate rather than a markdown source. */
    private static final Set<String> REPORT_PAGES = Set.of("plugin-info.html", "dependencies.html");

    private static Set<String> markdownPages() throws Exception {
        try (Stream<Path> files = Files.list(SITE.resolve("markdown"))) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".md"))
                    .map(n -> n.replaceFirst("\\.md$", ".html")).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static Set<String> goalPages() throws Exception {
        String descriptor = Files.readString(Path.of("target/classes/META-INF/maven/plugin.xml"));
        Set<String> pages = new TreeSet<>();
        Matcher goal = Pattern.compile("<goal>([a-z-]+)</goal>").matcher(descriptor);
        while (goal.find()) {
            pages.add(goal.group(1) + "-mojo.html");
        }
        return pages;
    }

    private static List<String> matches(String regex, String text) {
        List<String> found = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    @Test
    void everyMarkdownPageIsInTheMenuAndEveryMenuItemIsAPage() throws Exception {
        Set<String> menu = new TreeSet<>(matches("<item name=\"[^\"]+\" href=\"([^\"]+)\"", Files.readString(SITE.resolve("site.xml"))));
        Set<String> known = new TreeSet<>(markdownPages());
        known.addAll(REPORT_PAGES);
        assertThat(menu).as("menu items of site.xml").isSubsetOf(known).containsAll(markdownPages());
    }

    @Test
    void everyLocalLinkOfThePagesLeadsToAPageOfTheSite() throws Exception {
        Set<String> known = new TreeSet<>(markdownPages());
        known.addAll(REPORT_PAGES);
        known.addAll(goalPages());
        List<String> broken = new ArrayList<>();
        for (String page : markdownPages()) {
            String text = Files.readString(SITE.resolve("markdown").resolve(page.replaceFirst("\\.html$", ".md")));
            for (String link : matches("\\]\\(([^)#:]*)(?:#[^)]*)?\\)", text)) {
                if (!link.isEmpty() && !known.contains(link)) {
                    broken.add(page + ": " + link);
                }
            }
        }
        assertThat(broken).as("links to pages the site does not have").isEmpty();
        assertThat(goalPages()).as("goal pages").contains("digest-mojo.html", "check-mojo.html");
    }

    /** Doxia resolves a snippet's file from the reactor's root, where `mvn site` runs. */
    @Test
    void everySnippetNamesAFileAndAnIdThatExist() throws Exception {
        List<String> problems = new ArrayList<>();
        int snippets = 0;
        for (String page : markdownPages()) {
            String text = Files.readString(SITE.resolve("markdown").resolve(page.replaceFirst("\\.html$", ".md")));
            Matcher macro = Pattern.compile("<!-- MACRO\\{snippet\\|(?:id=([^|}]+)\\|)?file=([^|}]+)\\} -->").matcher(text);
            while (macro.find()) {
                snippets++;
                Path file = ROOT.resolve(macro.group(2));
                if (!Files.isRegularFile(file)) {
                    problems.add(page + ": no file " + macro.group(2));
                } else if (macro.group(1) != null) {
                    String source = Files.readString(file);
                    for (String marker : List.of("START SNIPPET: ", "END SNIPPET: ")) {
                        int count = matches("(" + Pattern.quote(marker + macro.group(1)) + ")\\b", source).size();
                        if (count != 1) {
                            problems.add(page + ": " + macro.group(2) + " has " + count + " '" + marker + macro.group(1) + "'");
                        }
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(snippets).as("snippet macros on the pages").isGreaterThanOrEqualTo(6);
    }

    @Test
    void theTroubleshootingPageExplainsEveryErrorName() throws Exception {
        String page = Files.readString(SITE.resolve("markdown/troubleshooting.md"));
        List<String> missing = Stream.of(ErrorName.values()).map(ErrorName::wireName)
                .filter(name -> !page.contains("| `" + name + "` |")).toList();
        assertThat(missing).as("error names without a row on troubleshooting.md").isEmpty();
    }

    @Test
    void theReadmeIsShortAndKeepsBothQuickStartCommands() throws Exception {
        String readme = Files.readString(ROOT.resolve("README.md"));
        assertThat(readme.lines().count()).as("README lines").isLessThanOrEqualTo(300);
        assertThat(readme).contains("```\n./mvnw -B verify -Pdemo\n./mvnw -B verify\n```");
        // CI runs both, and checks the demo's verdicts with .ci/check-demo.py.
        assertThat(Files.readString(ROOT.resolve(".ci/run"))).contains("\nmvn -B verify\n", "\n./mvnw -B verify -Pdemo\npython3 .ci/check-demo.py ");
    }

    /** The README's recording commands are the IT's invocations, which run in every build. */
    @Test
    void theReadmesRecordingCommandsAreTheCmakeItsSteps() throws Exception {
        Properties steps = new Properties();
        try (var in = Files.newInputStream(IT.resolve("invoker.properties"))) {
            steps.load(in);
        }
        String readme = Files.readString(ROOT.resolve("README.md"));
        String page = Files.readString(SITE.resolve("markdown/cmake.md"));
        for (String step : List.of("invoker.goals.1", "invoker.goals.2")) {
            assertThat(readme).contains("mvn -B " + steps.getProperty(step));
            assertThat(page).contains("mvn -B " + steps.getProperty(step));
        }
    }

    /** Every line of the README's plugin block stands, in the same order, in the CMake IT's plugin block. */
    @Test
    void theReadmesPluginBlockIsTheCmakeItsBlock() throws Exception {
        String readme = Files.readString(ROOT.resolve("README.md"));
        Matcher block = Pattern.compile("```xml\n(<plugin>\n  <groupId>dev.patchgrade</groupId>.*?</plugin>)\n```", Pattern.DOTALL).matcher(readme);
        assertThat(block.find()).as("the README's plugin block").isTrue();
        String pom = Files.readString(IT.resolve("pom.xml"));
        String it = pom.substring(pom.indexOf("START SNIPPET: patchgrade-block"), pom.indexOf("END SNIPPET: patchgrade-block"));
        List<String> itLines = it.lines().map(String::strip).toList();
        int at = 0;
        for (String line : block.group(1).lines().map(String::strip).toList()) {
            String expected = line.equals("<version>" + projectVersion() + "</version>") ? "<version>${patchgrade.version}</version>" : line;
            int found = itLines.subList(at, itLines.size()).indexOf(expected);
            assertThat(found).as("README line not in the IT's block (in order): " + line).isNotNegative();
            at += found + 1;
        }
    }

    /** The CMake page's POM skeleton is the IT's POM with its parts left out: each of its elements stands there, in order. */
    @Test
    void theCmakePagesPomSkeletonIsTheItsPomInOrder() throws Exception {
        String page = Files.readString(SITE.resolve("markdown/cmake.md"));
        Matcher skeleton = Pattern.compile("```xml\n(<project .*?</project>)\n```", Pattern.DOTALL).matcher(page);
        assertThat(skeleton.find()).as("the POM skeleton on cmake.md").isTrue();
        List<String> itLines = Files.readString(IT.resolve("pom.xml")).lines().map(String::strip).toList();
        int at = 0;
        int elements = 0;
        for (String line : skeleton.group(1).lines().map(String::strip).filter(l -> !l.startsWith("<!--")).toList()) {
            // The IT is given the version under test by the invoker's filtering.
            String expected = line.equals("<patchgrade.version>" + projectVersion() + "</patchgrade.version>")
                    ? "<patchgrade.version>@project.version@</patchgrade.version>" : line;
            int found = itLines.subList(at, itLines.size()).stream().map(l -> l.startsWith("<project ") ? "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">" : l)
                    .toList().indexOf(expected);
            assertThat(found).as("skeleton line not in the IT's POM (in order): " + line).isNotNegative();
            at += found + 1;
            elements++;
        }
        assertThat(elements).isGreaterThanOrEqualTo(15);
    }

    @Test
    void everyPluginVersionThePagesShowIsTheProjects() throws Exception {
        List<String> texts = new ArrayList<>(List.of(Files.readString(ROOT.resolve("README.md"))));
        for (String page : markdownPages()) {
            texts.add(Files.readString(SITE.resolve("markdown").resolve(page.replaceFirst("\\.html$", ".md"))));
        }
        for (String text : texts) {
            assertThat(matches("<artifactId>patchgrade-maven-plugin</artifactId>\\s*<version>([^<]+)</version>", text))
                    .allMatch(projectVersion()::equals);
            assertThat(text.toLowerCase(java.util.Locale.ROOT)).as("user pages cite no attack rounds").doesNotContain("red team");
        }
    }

    private static String projectVersion() throws Exception {
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        return matches("<artifactId>patchgrade-parent</artifactId>\\s*<version>([^<]+)</version>", pom).get(0);
    }
}
