package dev.patchgrade.core.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.PatchgradeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15: a cases file is checked whole when it is opened and read again case by case as the grade takes
 * its cases. The errors are the ones a file read in one piece gave, naming the same file and line.
 */
class StreamedCasesTest {
    @TempDir
    Path dir;

    private Path file(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content);
    }

    private static List<Case> taken(CaseSource source) {
        List<Case> cases = new ArrayList<>();
        source.forEach(cases::add);
        return cases;
    }

    @Test
    void aMalformedLineIsNamedByFileAndLineEvenAfterADuplicateAbove() throws Exception {
        Path cases = file("cases.jsonl", """
                {"id":"a","args":[]}
                {"id":"a","args":[]}
                {"id":"b","args":[]}

                {"id":"c","args":["x"],
                """);
        assertThatThrownBy(() -> CasesFile.open(cases, false, Shard.ALL))
                .isInstanceOf(CasesFormatException.class)
                .hasMessage(cases + ":5: not valid JSON (Unexpected end-of-input within/between Object entries)");
    }

    @Test
    void aDuplicateIdNamesBothLinesWhenEveryLineIsWellFormed() throws Exception {
        Path plain = file("cases.txt", "1\n2\n\n3\n2\n1\n");
        assertThatThrownBy(() -> CasesFile.open(plain, false, Shard.ALL))
                .isInstanceOf(CasesFormatException.class)
                .hasMessage(plain + ":5: duplicate case id \"2\" (first on line 2); every id must be unique because reports and gold files "
                        + "are keyed by it");
        Path json = file("cases.jsonl", "{\"id\":\"x\",\"args\":[]}\n{\"id\":\"y\",\"args\":[]}\n{\"id\":\"x\",\"args\":[\"other\"]}\n");
        assertThatThrownBy(() -> CasesFile.open(json, false, Shard.ALL)).hasMessageContaining("cases.jsonl:3: duplicate case id \"x\" (first on line 1)");
    }

    @Test
    void encodingAndLineEndingsAreCheckedOverTheWholeFileFirst() throws Exception {
        // A bare CR on line 3 is reported before the malformed line 1, and bytes that are not UTF-8 on line 4 before both.
        Path cr = file("cr.jsonl", "{\n{\"id\":\"a\",\"args\":[]}\nx\ry\n");
        assertThatThrownBy(() -> CasesFile.open(cr, false, Shard.ALL)).hasMessageStartingWith(cr + ":3: ends with a bare CR");
        Path latin1 = dir.resolve("latin1.jsonl");
        Files.write(latin1, "{\n{\"id\":\"a\",\"args\":[]}\nx\ry\n\"caf\u00e9\"\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> CasesFile.open(latin1, false, Shard.ALL)).hasMessage(latin1 + ": is not valid UTF-8; save it as UTF-8");
        assertThatThrownBy(() -> CasesFile.open(dir.resolve("none.txt"), false, Shard.ALL)).hasMessageContaining("none.txt: no cases file");
    }

    @Test
    void theCasesTakenAreTheCasesReadWithTheirLinesAndOnlyTheShards() throws Exception {
        StringBuilder text = new StringBuilder("\uFEFF");
        IntStream.range(0, 300).forEach(i -> text.append(i % 7 == 0 ? "\r\n" : "").append("case ").append(i).append(i % 2 == 0 ? "\n" : "\r\n"));
        Path cases = file("cases.txt", text.toString().stripTrailing());
        List<Case> all = CasesFile.read(cases, false);
        assertThat(all).hasSize(300);
        assertThat(all.get(0).id()).isEqualTo("case 0");
        assertThat(all.get(299).id()).isEqualTo("case 299");
        IdSet ids = new IdSet();
        Shard shard = new Shard(2, 3);
        CaseSource source = CasesFile.open(cases, false, shard, ids);
        List<Case> expected = all.stream().filter(c -> shard.selects(c.id())).toList();
        assertThat(source).hasSize(expected.size());
        assertThat(taken(source)).containsExactlyElementsOf(expected);
        // Read again from the start by every iteration, and every id counted whatever the shard.
        assertThat(taken(source)).containsExactlyElementsOf(expected);
        assertThat(ids.size()).isEqualTo(300);
        assertThat(all).allSatisfy(c -> assertThat(ids.contains(c.id())).isTrue());
        assertThat(ids.contains("case 300")).isFalse();
        assertThat(CasesFile.ids(cases, false)).containsExactlyElementsOf(all.stream().map(Case::id).toList());
    }

    @Test
    void jsonLinesAreTakenWithEverySetting() throws Exception {
        Path cases = file("cases.jsonl", """
                {"id":"a","args":["1"],"stdin":"in","timeout_s":2.5,"cwd":"sub","env":{"K":"v"},"golden":"g","expect_exit":3}

                {"id":"b","args":[],"golden":"h"}
                """);
        assertThat(taken(CasesFile.open(cases, true, Shard.ALL))).containsExactlyElementsOf(CasesFile.read(cases, true))
                .first().isEqualTo(new Case("a", List.of("1"), "in", "g", 1, 2.5, "sub", java.util.Map.of("K", "v"), 3));
    }

    @Test
    void aFileChangedAfterItWasCheckedIsAnOracleChangeNotAMalformedFile() throws Exception {
        Path cases = file("cases.txt", "a\nb\nc\n");
        CaseSource source = CasesFile.open(cases, false, Shard.ALL);
        Files.writeString(cases, "a\nb\nc\nd\n");
        assertThatThrownBy(() -> taken(source)).isInstanceOf(PatchgradeException.class)
                .hasMessageContaining(cases + " changed while the goal ran (it holds more cases than when it was checked)")
                .extracting(e -> ((PatchgradeException) e).errorName()).isEqualTo("oracle_tampered");
        Files.writeString(cases, "a\n");
        assertThatThrownBy(() -> taken(source)).hasMessageContaining("it holds fewer cases");
    }

    @Test
    void theIteratorLetsTheFileGoWhenClosedEarly() throws Exception {
        Path cases = file("cases.txt", "a\nb\nc\n");
        try (CaseSource.Reading reading = CasesFile.open(cases, false, Shard.ALL).iterator()) {
            assertThat(reading.next().id()).isEqualTo("a");
        }
    }
}
