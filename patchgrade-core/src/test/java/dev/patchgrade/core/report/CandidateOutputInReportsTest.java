package dev.patchgrade.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.RecordingLog;
import dev.patchgrade.core.SandboxAvailability;
import dev.patchgrade.core.classify.Comparison;
import dev.patchgrade.core.classify.ThreeColumnGoal;
import dev.patchgrade.core.digest.DigestGoal;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * A candidate that cannot pass tries to make the verdict read as something else. Its output
 * (through the {@code spoof_output} fixture, byte for byte) carries terminal escapes, C1 controls, bidi
 * overrides, invisible characters, line separators, XML and HTML markup. Every failing case must still
 * be a failure to a strict XML parser and to junitparser, and no line patchgrade shows a person (console,
 * failure message, HTML) may hold a character that moves the cursor, reorders or hides text, or starts a
 * new line.
 */
class CandidateOutputInReportsTest {
    /** Every test reads its report with junitparser: without it none of them can hold, so none starts a grade. */
    @BeforeAll
    static void junitparserIsInstalled() {
        ExternalTools.require(ExternalTools.junitparser(), "python3-junitparser", "apt-get install python3-junitparser");
    }

    private static final String GOLD = "total: 41\\n";

    /** What each failing case prints instead of {@code total: 41}; the escapes are decoded by the fixture. */
    private static final Map<String, String> SPOOFS = new LinkedHashMap<>();

    static {
        SPOOFS.put("ansi", "total: 4\\x1b[2K\\x0d[INFO] BUILD SUCCESS\\x1b[8m\\n");
        SPOOFS.put("c1", "total: 4\\xc2\\x9b2K\\xc2\\x9b1G[INFO] BUILD SUCCESS\\xc2\\x9d0;ok\\x07\\n");
        // RLO then the gold reversed: shown right to left it reads "total: 41", and everything after it on the line too.
        SPOOFS.put("bidi", "\\xe2\\x80\\xae14 :latot\\n");
        SPOOFS.put("invisible", "total: 41\\xe2\\x80\\x8b\\n");
        SPOOFS.put("tag", "total: 41\\xf3\\xa0\\x80\\x81\\n");
        SPOOFS.put("lsep", "total: 4\\xe2\\x80\\xa8[INFO] Tests run: 5, Failures: 0\\n");
        SPOOFS.put("nel", "total: 4\\xc2\\x85[INFO] BUILD SUCCESS\\n");
        SPOOFS.put("xml", "total: 4]]></failure></testcase><testcase name=\"fake\"/>\\x00\\x0b\\xef\\xbf\\xbf\\xed\\xa0\\x80\\xff\"'&\\n");
        // Closes its own quote and forges the rest of the line: "candidate <total: 41> | candidate <total: 41>".
        SPOOFS.put("quote", "total: 41> golden=<total: 41> | candidate <total: 41\\n");
        // Jenkins' JUnit Attachments plugin would copy this file of the agent into the build for anyone to download.
        SPOOFS.put("attach", "[[ATTACHMENT|/etc/passwd]]\\n[[ATTACHMENT|/etc/hostname|x]]\\n");
        SPOOFS.put("html", "<script>alert(1)</script>\"><img src=x onerror=alert(1)><a href=\"javascript:alert(1)\">x</a>\\n");
    }

    @TempDir
    Path dir;

    private GoalSettings settings(String goal, Map<String, String> env) {
        return new GoalSettings(goal, "spoof", dir.resolve("reports"), dir.resolve("out"), dir, env);
    }

    private Path digestCases(Map<String, String> candidateStdout, Map<String, String> candidateStderr) throws Exception {
        StringBuilder lines = new StringBuilder();
        for (String id : candidateStdout.keySet()) {
            ObjectNode line = JsonReports.MAPPER.createObjectNode().put("id", id);
            line.putArray("args").add("env").add(GOLD).add("").add(candidateStdout.get(id)).add(candidateStderr.getOrDefault(id, ""));
            lines.append(line.toString().replace("\n", "")).append('\n');
        }
        return Files.writeString(dir.resolve("cases.jsonl"), lines);
    }

    private DigestGoal.Options digest(GoalSettings settings, Path cases) {
        return DigestGoal.Options.builder(settings)
                .cases(cases)
                .gold(dir.resolve("gold"))
                .command(List.of(Fixtures.command("spoof_output")))
                .timeoutSeconds(10)
                .buckets(TimeBuckets.parse("60000"))
                .timeBucketReruns(0)
                .parallel(2)
                .force(true)
                .build();
    }

    private GoalResult gradeDigest(Map<String, String> stdout, Map<String, String> stderr, GradeLog console) throws Exception {
        Path cases = digestCases(stdout, stderr);
        DigestGoal.record(digest(settings("digest", Map.of()), cases), GradeLog.SILENT);
        return DigestGoal.grade(digest(settings("digest", Map.of("SPOOF", "1")), cases), console);
    }

    /**
     * Every spoof failed, and every place a person or Jenkins reads that verdict holds it: the reports count every
     * failure, and the console, the build failure message, the JUnit messages and the page obey none of its bytes.
     */
    private void everyViewOfTheVerdictIsHonest(GoalResult result, GoalSettings settings, RecordingLog console) throws Exception {
        assertThat(result.error()).as("%s", result.error()).isNull();
        assertThat(result.failureCount()).isEqualTo(SPOOFS.size());
        reportsHoldEveryFailure(settings, SPOOFS.size());
        displaySafe("console", console.lines);
        displaySafe("build failure message", result.failures());
        displaySafe("JUnit failure messages", failureMessages(settings.xmlReport()));
        htmlIsInert(settings);
        assertThat(Files.readString(settings.xmlReport())).as("the directive is still there to read").contains("[[ATTACHMENT\\|/etc/passwd]]");
    }

    @Test
    void aDigestCandidatesOutputCannotReshapeTheVerdictItIsShownIn() throws Exception {
        RecordingLog console = new RecordingLog();
        GoalResult result = gradeDigest(SPOOFS, Map.of(), console);

        everyViewOfTheVerdictIsHonest(result, settings("digest", Map.of()), console);
        // The difference is still shown, readably: the override is named rather than obeyed.
        assertThat(String.join("\n", result.failures())).contains("\\u202e14 :latot").contains("total: 41\\u200b").contains("\\x9b2K")
                .contains("quote: stdout_sha256").contains("candidate <total: 41\\> golden=<total: 41\\> | candidate <total: 41>");
    }

    @Test
    void aThreeColumnCandidatesOutputCannotReshapeTheVerdictItIsShownIn() throws Exception {
        GoalSettings settings = settings("three-column", Map.of());
        Path sidecar = dir.resolve("reference.sha256");
        ThreeColumnGoal.freeze(settings, List.of(Fixtures.command("spoof_output")), sidecar, false, GradeLog.SILENT);
        StringBuilder rows = new StringBuilder();
        for (Map.Entry<String, String> spoof : SPOOFS.entrySet()) {
            ObjectNode row = JsonReports.MAPPER.createObjectNode().put("id", spoof.getKey()).put("golden", "total: 41\n");
            row.putArray("args").add(GOLD).add("").add(spoof.getValue()).add("");
            rows.append(row.toString()).append('\n');
        }
        Path cases = Files.writeString(dir.resolve("rows.jsonl"), rows);
        RecordingLog console = new RecordingLog();
        GoalResult result = ThreeColumnGoal.grade(ThreeColumnGoal.builder(settings)
                .cases(cases)
                .reference(List.of(Fixtures.command("spoof_output"), "gold"))
                .candidate(List.of(Fixtures.command("spoof_output"), "cand"))
                .referenceDigest(sidecar)
                .comparison(Comparison.parse("exact"))
                .timeoutSeconds(10)
                .parallel(2)
                .build(), console);

        everyViewOfTheVerdictIsHonest(result, settings, console);
        assertThat(String.join("\n", result.failures())).contains("candidate=<\\u202e14 :latot>")
                .contains("candidate=<total: 41\\> golden=<total: 41\\> | candidate <total: 41> golden=<total: 41>");
    }

    /**
     * The sandbox hints read paths out of the candidate's stderr and log them: a "path" made of escape
     * sequences must not reach the console raw, and one with a NUL must not turn the failures into a
     * single error blamed on patchgrade.
     */
    @Test
    void pathsInStderrCannotSpoofTheConsoleNorHideTheFailures() throws Exception {
        SandboxAvailability.assumeAvailable();
        Map<String, String> stdout = new LinkedHashMap<>();
        Map<String, String> stderr = new LinkedHashMap<>();
        stdout.put("escapes", "total: 40\\n");
        stderr.put("escapes", "/x\\x1b[2K\\x1b[1G[INFO]\\x1b[1CBUILD\\x1b[1CSUCCESS\\xc2\\x9b1A\\xe2\\x80\\xae: Read-only file system\\n");
        stdout.put("nul", "total: 40\\n");
        stderr.put("nul", "/tmp/a\\x00b: Permission denied\\n");
        stdout.put("plain", "total: 40\\n");
        RecordingLog console = new RecordingLog();
        GoalResult result = gradeDigest(stdout, stderr, console);

        assertThat(result.error()).as("%s", result.error()).isNull();
        assertThat(result.failureCount()).isEqualTo(3);
        reportsHoldEveryFailure(settings("digest", Map.of()), 3);
        displaySafe("console", console.lines);
        assertThat(console.lines).anyMatch(line -> line.contains("the sandbox refused a write to /x\\x1b[2K"));
    }

    /** Fake "Read-only file system" lines, three new paths a case, cannot flood the console with sandbox hints. */
    @Test
    void hintsChosenByTheCandidateCannotFloodTheConsole() throws Exception {
        SandboxAvailability.assumeAvailable();
        Map<String, String> stdout = new LinkedHashMap<>();
        Map<String, String> stderr = new LinkedHashMap<>();
        for (int i = 0; i < 6; i++) {
            stdout.put("flood" + i, "total: 40\\n");
            stderr.put("flood" + i, ("/ro/" + i + "/a: Read-only file system\\n/ro/" + i + "/b: Read-only file system\\n/ro/" + i
                    + "/c: Read-only file system\\n"));
        }
        RecordingLog console = new RecordingLog();
        GoalResult result = gradeDigest(stdout, stderr, console);

        assertThat(result.failureCount()).isEqualTo(6);
        GoalSettings settings = settings("digest", Map.of());
        reportsHoldEveryFailure(settings, 6);
        assertThat(console.warnings.stream().filter(w -> w.startsWith("the sandbox refused a write to /ro/"))).hasSize(5);
        assertThat(console.warnings).filteredOn(w -> w.startsWith("more sandbox hints")).hasSize(1);
        // Every hint is still in its own failure's body.
        String xml = Files.readString(settings.xmlReport());
        for (int i = 0; i < 6; i++) {
            assertThat(xml).contains("hint: the sandbox refused a write to /ro/" + i + "/c ");
        }
    }

    // ---- what a reader sees

    /** Jenkins' two parsers and the JSON report all count every failing case as a failure. */
    private void reportsHoldEveryFailure(GoalSettings settings, int failures) throws Exception {
        var document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(settings.xmlReport().toFile());
        Element suite = document.getDocumentElement();
        assertThat(suite.getAttribute("failures")).isEqualTo(Integer.toString(failures));
        assertThat(suite.getElementsByTagName("testcase").getLength()).isEqualTo(failures);
        assertThat(suite.getElementsByTagName("failure").getLength()).isEqualTo(failures);
        assertThat(suite.getAttribute("errors")).isEqualTo("0");

        Path script = dir.resolve("junitparser_counts.py");
        if (!Files.exists(script)) {
            try (InputStream in = CandidateOutputInReportsTest.class.getResourceAsStream("/junitparser_counts.py")) {
                Files.copy(in, script);
            }
        }
        Process process = new ProcessBuilder("/usr/bin/python3", script.toString(), settings.xmlReport().toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        JsonNode seen = JsonReports.MAPPER.readTree(output);
        assertThat(seen.path("tests").asInt()).isEqualTo(failures);
        assertThat(seen.path("failures").asInt()).isEqualTo(failures);
        assertThat(seen.path("errors").asInt()).isZero();

        // The JUnit Attachments plugin's own pattern, over every text of the report (system-out, system-err, bodies).
        assertThat(java.util.regex.Pattern.compile("\\[\\[ATTACHMENT\\|.+\\]\\]").matcher(suite.getTextContent()).find())
                .as("an attachment directive Jenkins would obey").isFalse();

        JsonNode json = JsonReports.MAPPER.readTree(settings.jsonReport().toFile());
        assertThat(json.path("verdict").asText()).isEqualTo("fail");
        assertThat(json.path("failing").asLong()).isEqualTo(failures);
        JsonNode rows = json.has("cases") ? json.path("cases") : json.path("rows");
        assertThat(rows).hasSize(failures);
        List<String> keys = new ArrayList<>();
        json.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).doesNotContain("fake").allMatch(key -> key.matches("[a-z_]+"));
    }

    private static List<String> failureMessages(Path xml) throws Exception {
        NodeList failures = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile()).getElementsByTagName("failure");
        List<String> messages = new ArrayList<>();
        for (int i = 0; i < failures.getLength(); i++) {
            messages.add(((Element) failures.item(i)).getAttribute("message"));
        }
        return messages;
    }

    /** No line holds a control, format (bidi, zero-width, tag) or separator character, a lone surrogate or a noncharacter. */
    static void displaySafe(String where, List<String> lines) {
        assertThat(lines).as(where).isNotEmpty();
        for (String line : lines) {
            line.codePoints().forEach(c -> assertThat(displayable(c))
                    .as("%s shows U+%04X raw in: %s", where, c, line.replaceAll("[^\\x20-\\x7e]", "?"))
                    .isTrue());
        }
    }

    static boolean displayable(int c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SURROGATE -> false;
            default -> (c & 0xFFFE) != 0xFFFE && !(c >= 0xFDD0 && c <= 0xFDEF);
        };
    }

    /** The summary page shows the markup as text: no element or attribute of the candidate's, no raw controls. */
    private static void htmlIsInert(GoalSettings settings) throws Exception {
        String html = Files.readString(settings.reportsDirectory().resolve(HtmlSummary.FILE), StandardCharsets.UTF_8);
        assertThat(html).doesNotContainIgnoringCase("<script").doesNotContainIgnoringCase("<img").doesNotContain("href=\"javascript:")
                .doesNotContain("<testcase").contains("&lt;script");
        displaySafe("HTML summary", html.lines().toList());
    }
}
