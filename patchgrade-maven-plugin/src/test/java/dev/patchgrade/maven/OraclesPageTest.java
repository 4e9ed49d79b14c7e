package dev.patchgrade.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The parameter tables of oracles.md against the plugin descriptor the build generates from the Mojos: every
 * parameter of every goal has a row naming that goal, with the descriptor's user property and default, and no
 * row names a parameter or a goal that is not there. A renamed parameter or a changed default fails here.
 */
class OraclesPageTest {
    private static final Path PAGE = Path.of("src/site/markdown/oracles.md");
    private static final Path DESCRIPTOR = Path.of("target/classes/META-INF/maven/plugin.xml");
    private static final String HEADER = "| Parameter | Goals | User property | Default | What it does |";
    private static final Pattern ROW = Pattern.compile("\\| `(\\w+)` \\| ([^|]*) \\| ([^|]*) \\| ([^|]*) \\| (.+) \\|");
    /** Maven's generated help goal documents itself. */
    private static final Set<String> UNDOCUMENTED_GOALS = Set.of("help");

    record Parameter(String property, String defaultValue) {}

    record Row(String name, List<String> goals, String property, String defaultValue, String what, int line) {}

    /** goal -> parameter name -> its user property and default, as the descriptor has them ("" for none). */
    static Map<String, Map<String, Parameter>> descriptor() throws Exception {
        Element plugin = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(DESCRIPTOR.toFile()).getDocumentElement();
        Map<String, Map<String, Parameter>> goals = new TreeMap<>();
        NodeList mojos = plugin.getElementsByTagName("mojo");
        for (int i = 0; i < mojos.getLength(); i++) {
            Element mojo = (Element) mojos.item(i);
            String goal = child(mojo, "goal").getTextContent();
            if (UNDOCUMENTED_GOALS.contains(goal)) {
                continue;
            }
            Map<String, String[]> configured = new TreeMap<>();
            Element configuration = child(mojo, "configuration");
            NodeList settings = configuration == null ? null : configuration.getChildNodes();
            for (int j = 0; settings != null && j < settings.getLength(); j++) {
                if (settings.item(j) instanceof Element setting) {
                    String expression = setting.getTextContent().strip();
                    configured.put(setting.getTagName(), new String[] {expression.replaceAll("^\\$\\{(.*)}$", "$1"), setting.getAttribute("default-value")});
                }
            }
            Map<String, Parameter> parameters = new TreeMap<>();
            NodeList declared = child(mojo, "parameters").getElementsByTagName("parameter");
            for (int j = 0; j < declared.getLength(); j++) {
                Element parameter = (Element) declared.item(j);
                if (!"true".equals(child(parameter, "editable").getTextContent())) {
                    continue;
                }
                String name = child(parameter, "name").getTextContent();
                String[] setting = configured.getOrDefault(name, new String[] {"", ""});
                parameters.put(name, new Parameter(setting[0], setting[1]));
            }
            goals.put(goal, parameters);
        }
        return goals;
    }

    private static Element child(Element parent, String tag) {
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i) instanceof Element e && e.getTagName().equals(tag)) {
                return e;
            }
        }
        return null;
    }

    /** Every row of every parameter table on the page; "every goal" stands for each goal of the descriptor. */
    static List<Row> rows(List<String> lines, Set<String> allGoals) {
        List<Row> rows = new ArrayList<>();
        boolean inTable = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.equals(HEADER)) {
                inTable = true;
                continue;
            }
            if (!line.startsWith("|")) {
                inTable = false;
                continue;
            }
            Matcher row = ROW.matcher(line);
            if (inTable && row.matches()) {
                String goals = row.group(2).strip();
                rows.add(new Row(row.group(1), goals.equals("every goal") ? List.copyOf(allGoals) : List.of(goals.split(",\\s*")),
                        unquoted(row.group(3)), unquoted(row.group(4)), row.group(5).strip(), i + 1));
            }
        }
        return rows;
    }

    private static String unquoted(String cell) {
        String value = cell.strip();
        return value.startsWith("`") && value.endsWith("`") && value.length() >= 2 ? value.substring(1, value.length() - 1) : value;
    }

    @Test
    void everyParameterOfEveryGoalHasARowWithTheDescriptorsPropertyAndDefault() throws Exception {
        Map<String, Map<String, Parameter>> goals = descriptor();
        List<Row> rows = rows(Files.readAllLines(PAGE), goals.keySet());
        Map<String, Row> documented = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (Row row : rows) {
            for (String goal : row.goals()) {
                Parameter parameter = goals.getOrDefault(goal, Map.of()).get(row.name());
                if (!goals.containsKey(goal)) {
                    problems.add("oracles.md:" + row.line() + ": no goal " + goal);
                } else if (parameter == null) {
                    problems.add("oracles.md:" + row.line() + ": " + goal + " has no parameter " + row.name());
                } else if (documented.put(goal + " " + row.name(), row) != null) {
                    problems.add("oracles.md:" + row.line() + ": a second row for " + goal + " " + row.name());
                } else {
                    if (!parameter.property().equals(row.property())) {
                        problems.add("oracles.md:" + row.line() + ": " + goal + " " + row.name() + " has user property '" + parameter.property()
                                + "', the page says '" + row.property() + "'");
                    }
                    if (!parameter.defaultValue().equals(row.defaultValue())) {
                        problems.add("oracles.md:" + row.line() + ": " + goal + " " + row.name() + " defaults to '" + parameter.defaultValue()
                                + "', the page says '" + row.defaultValue() + "'");
                    }
                }
            }
        }
        Set<String> missing = new TreeSet<>();
        goals.forEach((goal, parameters) -> parameters.keySet().stream().filter(name -> !documented.containsKey(goal + " " + name))
                .forEach(name -> missing.add(goal + " " + name)));
        assertThat(problems).as("rows that disagree with the plugin descriptor").isEmpty();
        assertThat(missing).as("parameters without a row on oracles.md").isEmpty();
        assertThat(goals).as("goals in the descriptor").containsKeys("record-envelope", "envelope", "digest", "differential", "patch-coverage", "check");
    }

    @Test
    void aRowWithAnotherDefaultOrAnUnknownParameterIsReported() throws Exception {
        Set<String> goals = new TreeSet<>(List.of("digest", "record-digest"));
        List<Row> rows = rows(List.of("text", HEADER, "|---|---|---|---|---|",
                "| `timeout` | record-digest, digest | `patchgrade.timeout` | `7` | Wall-clock cap. |",
                "| `colour` | every goal |  |  | Not a parameter. |", "", "| `outside` | digest | | | not in a table |"), goals);
        assertThat(rows).extracting(Row::name).containsExactly("timeout", "colour");
        assertThat(rows.get(0).goals()).containsExactly("record-digest", "digest");
        assertThat(rows.get(0).defaultValue()).isEqualTo("7");
        assertThat(rows.get(1).goals()).containsExactlyElementsOf(goals);
        assertThat(rows.get(1).line()).isEqualTo(5);
        assertThat(descriptor().get("digest").get("timeout").defaultValue()).as("what the first row would be held to").isEqualTo("5");
        assertThat(descriptor().get("digest")).doesNotContainKey("colour");
    }
}
