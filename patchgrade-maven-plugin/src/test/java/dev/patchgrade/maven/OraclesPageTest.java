package dev.patchgrade.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

    /** What the rows get wrong against the descriptor's goals, and the goal/parameter pairs no row names. */
    static List<String> problems(List<Row> rows, Map<String, Map<String, Parameter>> goals) {
        Set<String> documented = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        for (Row row : rows) {
            for (String goal : row.goals()) {
                Parameter parameter = goals.getOrDefault(goal, Map.of()).get(row.name());
                String place = "oracles.md:" + row.line() + ": " + goal + " " + row.name();
                if (!goals.containsKey(goal)) {
                    problems.add("oracles.md:" + row.line() + ": no goal " + goal);
                } else if (parameter == null) {
                    problems.add(place + ": no such parameter");
                } else if (!documented.add(goal + " " + row.name())) {
                    problems.add(place + ": a second row");
                } else {
                    if (!parameter.property().equals(row.property())) {
                        problems.add(place + " has user property '" + parameter.property() + "', the page says '" + row.property() + "'");
                    }
                    if (!parameter.defaultValue().equals(row.defaultValue())) {
                        problems.add(place + " defaults to '" + parameter.defaultValue() + "', the page says '" + row.defaultValue() + "'");
                    }
                }
            }
        }
        goals.forEach((goal, parameters) -> parameters.keySet().stream().filter(name -> !documented.contains(goal + " " + name))
                .forEach(name -> problems.add(goal + " " + name + ": no row on oracles.md")));
        return problems;
    }

    @Test
    void everyParameterOfEveryGoalHasARowWithTheDescriptorsPropertyAndDefault() throws Exception {
        Map<String, Map<String, Parameter>> goals = descriptor();
        assertThat(problems(rows(Files.readAllLines(PAGE), goals.keySet()), goals)).as("oracles.md against the plugin descriptor").isEmpty();
        assertThat(goals).as("goals in the descriptor").containsKeys("record-envelope", "envelope", "digest", "differential", "patch-coverage", "check");
    }

    @Test
    void aWrongDefaultAnUnknownParameterAndAMissingRowAreEachReported() {
        Map<String, Map<String, Parameter>> goals = new TreeMap<>(Map.of(
                "digest", Map.of("timeout", new Parameter("patchgrade.timeout", "5"), "gold", new Parameter("patchgrade.gold", "g")),
                "record-digest", Map.of("timeout", new Parameter("patchgrade.timeout", "5"))));
        List<Row> rows = rows(List.of("text", HEADER, "|---|---|---|---|---|",
                "| `timeout` | record-digest, digest | `patchgrade.timeout` | `7` | Wall-clock cap. |",
                "| `colour` | every goal |  |  | Not a parameter. |", "", "| `gold` | digest | `patchgrade.gold` | `g` | outside any table |"), goals.keySet());
        assertThat(rows).extracting(Row::name).containsExactly("timeout", "colour");
        assertThat(problems(rows, goals)).containsExactlyInAnyOrder(
                "oracles.md:4: record-digest timeout defaults to '5', the page says '7'",
                "oracles.md:4: digest timeout defaults to '5', the page says '7'",
                "oracles.md:5: digest colour: no such parameter",
                "oracles.md:5: record-digest colour: no such parameter",
                "digest gold: no row on oracles.md");
    }
}
