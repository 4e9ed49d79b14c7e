package dev.patchgrade.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core is a plain library: no Maven or Plexus type reaches it, so another build tool can drive it, and its
 * packages depend on each other one way only, so each can be read (and changed) without the ones that use it.
 * Read from the main sources as text: what a class imports and every fully qualified name its code spells.
 */
class PackageStructureTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final String CORE = "dev.patchgrade.core";
    private static final Pattern IMPORT = Pattern.compile("(?m)^import\\s+(?:static\\s+)?([\\w.]+)\\s*;");
    private static final Pattern QUALIFIED = Pattern.compile("\\bdev\\.patchgrade\\.core(?:\\.[a-z]\\w*)*\\.[A-Z]");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");

    @Test
    void noCoreClassImportsMavenOrPlexus() {
        List<String> offenders = new ArrayList<>();
        for (Path file : mainSources()) {
            String code = code(read(file));
            for (String forbidden : List.of("org.apache.maven", "org.codehaus.plexus")) {
                if (code.contains(forbidden)) {
                    offenders.add(SOURCES.relativize(file) + " names " + forbidden);
                }
            }
        }
        assertThat(offenders).as("core must stay free of build-tool types: translate them in patchgrade-maven-plugin").isEmpty();
    }

    @Test
    void corePackagesFormNoCycle() {
        Map<String, Set<String>> graph = packageGraph();
        // Every feature package is read: an empty graph would pass without looking.
        assertThat(graph.keySet()).contains(CORE + ".launch", CORE + ".grade", CORE + ".digest", CORE + ".report");
        List<String> cycles = cycles(graph).stream().map(component -> describe(component, graph)).toList();
        assertThat(cycles).as("packages that depend on each other: move the shared type to the package both may use").isEmpty();
    }

    @Test
    void aCycleAmongPackagesIsFoundAndNamed() {
        Map<String, Set<String>> graph = new TreeMap<>(Map.of(
                "a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d", Set.of("a"), "e", Set.of("e")));
        List<List<String>> cycles = cycles(graph);
        assertThat(cycles).hasSize(1);
        assertThat(describe(cycles.get(0), graph)).isEqualTo("a -> b, b -> c, c -> a");
    }

    /** Each core package and the other core packages its classes refer to. */
    private static Map<String, Set<String>> packageGraph() {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (Path file : mainSources()) {
            String text = read(file);
            Matcher declared = PACKAGE.matcher(text);
            assertThat(declared.find()).as(file + " declares its package").isTrue();
            String from = declared.group(1);
            Set<String> to = graph.computeIfAbsent(from, name -> new TreeSet<>());
            Matcher imported = IMPORT.matcher(text);
            while (imported.find()) {
                String target = packageOf(imported.group(1));
                if (target.startsWith(CORE)) {
                    to.add(target);
                }
            }
            Matcher qualified = QUALIFIED.matcher(code(text));
            while (qualified.find()) {
                to.add(packageOf(qualified.group()));
            }
            to.remove(from);
        }
        return graph;
    }

    /** The package of a qualified name: its leading lower-case parts (a nested or static member follows the class). */
    private static String packageOf(String name) {
        List<String> parts = new ArrayList<>();
        for (String part : name.split("\\.")) {
            if (part.isEmpty() || !Character.isLowerCase(part.charAt(0))) {
                break;
            }
            parts.add(part);
        }
        return String.join(".", parts);
    }

    /** Tarjan's strongly connected components of more than one package (a package never counts as its own cycle). */
    private static List<List<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        List<List<String>> found = new ArrayList<>();
        for (String start : graph.keySet()) {
            if (!index.containsKey(start)) {
                connect(start, graph, index, low, stack, found);
            }
        }
        return found;
    }

    private static void connect(String node, Map<String, Set<String>> graph, Map<String, Integer> index, Map<String, Integer> low,
            Deque<String> stack, List<List<String>> found) {
        index.put(node, index.size());
        low.put(node, index.get(node));
        stack.push(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            if (!index.containsKey(next)) {
                connect(next, graph, index, low, stack, found);
                low.put(node, Math.min(low.get(node), low.get(next)));
            } else if (stack.contains(next)) {
                low.put(node, Math.min(low.get(node), index.get(next)));
            }
        }
        if (low.get(node).equals(index.get(node))) {
            List<String> component = new ArrayList<>();
            String member;
            do {
                member = stack.pop();
                component.add(member);
            } while (!member.equals(node));
            if (component.size() > 1) {
                found.add(component.stream().sorted().toList());
            }
        }
    }

    /** The edges inside one cycle, {@code from -> to}, so that the failure says which imports to undo. */
    private static String describe(List<String> component, Map<String, Set<String>> graph) {
        List<String> edges = new ArrayList<>();
        for (String from : component) {
            graph.getOrDefault(from, Set.of()).stream().filter(component::contains).sorted().forEach(to -> edges.add(from + " -> " + to));
        }
        return String.join(", ", edges);
    }

    private static List<Path> mainSources() {
        assertThat(SOURCES.resolve("dev/patchgrade/core")).as("the tests run in patchgrade-core").isDirectory();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            return files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The source without its comments and string literals: a name a comment or a message mentions is no dependency. */
    static String code(String source) {
        StringBuilder code = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            if (source.startsWith("//", i)) {
                i = end(source, "\n", i + 2) - 1;
            } else if (source.startsWith("/*", i)) {
                i = end(source, "*/", i + 2);
            } else if (source.startsWith("\"\"\"", i)) {
                i = end(source, "\"\"\"", i + 3);
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                char quote = source.charAt(i++);
                while (i < source.length() && source.charAt(i) != quote) {
                    i += source.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
            } else {
                code.append(source.charAt(i++));
            }
        }
        return code.toString();
    }

    /** Where the text after {@code closing} starts, searching from {@code from}; the end of the source where it is missing. */
    private static int end(String source, String closing, int from) {
        int at = source.indexOf(closing, from);
        return at < 0 ? source.length() : at + closing.length();
    }
}
