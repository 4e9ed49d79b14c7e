package dev.patchgrade.core.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.PatchgradeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CasesFileTest {
    @TempDir
    Path dir;

    private Path file(String name, String content) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file;
    }

    @Test
    void plainTextIsOneArgumentALineAndSkipsBlankLines() throws Exception {
        List<Case> cases = CasesFile.read(file("cases.txt", "1.00\n\n1.005\r\n  \nnot a number\n"), false);
        assertThat(cases).extracting(Case::id).containsExactly("1.00", "1.005", "not a number");
        assertThat(cases.get(2).args()).containsExactly("not a number");
        assertThat(cases.get(1).line()).isEqualTo(3);
    }

    @Test
    void jsonLinesCarryArgsStdinAndGolden() throws Exception {
        List<Case> cases = CasesFile.read(file("cases.jsonl", """
                {"id":"tenths-15","args":["15"],"golden":"2"}

                {"id":"stdin","args":[],"stdin":"1 2\\n","golden":"3"}
                """), true);
        assertThat(cases).hasSize(2);
        assertThat(cases.get(0).golden()).isEqualTo("2");
        assertThat(cases.get(1).stdin()).isEqualTo("1 2\n");
        assertThat(cases.get(1).args()).isEmpty();
        assertThat(cases.get(1).line()).isEqualTo(3);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "bad json      | {\"id\":\"a\",\"args\":[]}\\n{\"id\":\"b\",        | cases.jsonl:2: not valid JSON",
        "no id         | {\"args\":[]}                                      | cases.jsonl:1: key \"id\" is missing",
        "numeric id    | {\"id\":7,\"args\":[]}                             | cases.jsonl:1: key \"id\" is not a non-empty string (found 7)",
        "no args       | {\"id\":\"a\"}                                     | cases.jsonl:1: key \"args\" is missing",
        "args string   | {\"id\":\"a\",\"args\":\"x\"}                      | cases.jsonl:1: key \"args\" is not an array",
        "args number   | {\"id\":\"a\",\"args\":[1]}                        | cases.jsonl:1: key \"args\" must hold only strings (found 1)",
        "stdin number  | {\"id\":\"a\",\"args\":[],\"stdin\":1}             | cases.jsonl:1: key \"stdin\" must be a string",
        "array line    | [1,2]                                              | cases.jsonl:1: each line must be one JSON object",
        "duplicate     | {\"id\":\"a\",\"args\":[]}\\n{\"id\":\"a\",\"args\":[]} | cases.jsonl:2: duplicate case id \"a\" (first on line 1)",
        "nul argument  | {\"id\":\"a\",\"args\":[\"x\\u0000y\"]}            | cases.jsonl:1: an argument contains a NUL character",
    })
    void malformedJsonLinesNameTheLine(String name, String content, String expected) throws Exception {
        Path cases = file("cases.jsonl", content.replace("\\n", "\n"));
        assertThatThrownBy(() -> CasesFile.read(cases, false))
                .isInstanceOf(CasesFormatException.class)
                .hasMessageContaining(expected)
                .extracting(e -> ((PatchgradeException) e).errorName()).isEqualTo("malformed_cases");
    }

    @Test
    void theThreeColumnGradeNeedsAGoldenOnEveryLine() throws Exception {
        Path cases = file("cases.jsonl", "{\"id\":\"a\",\"args\":[],\"golden\":\"1\"}\n{\"id\":\"b\",\"args\":[]}\n");
        assertThatThrownBy(() -> CasesFile.read(cases, true)).hasMessageContaining("cases.jsonl:2: key \"golden\" is missing");
        Path plain = file("cases.txt", "1\n");
        assertThatThrownBy(() -> CasesFile.read(plain, true)).hasMessageContaining("needs a .jsonl cases file");
    }

    @Test
    void emptyFilesAndDuplicatePlainLinesAreErrors() throws Exception {
        assertThatThrownBy(() -> CasesFile.read(file("empty.txt", "\n  \n"), false)).hasMessageContaining("holds no cases");
        assertThatThrownBy(() -> CasesFile.read(file("dup.txt", "1\n2\n1\n"), false)).hasMessageContaining("dup.txt:3: duplicate case id \"1\"");
    }

    @Test
    void missingFileAndInvalidUtf8AreClearErrors() throws Exception {
        assertThatThrownBy(() -> CasesFile.read(dir.resolve("nope.txt"), false)).hasMessageContaining("nope.txt: no cases file");
        Path latin1 = dir.resolve("latin1.txt");
        Files.write(latin1, "caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> CasesFile.read(latin1, false)).hasMessageContaining("not valid UTF-8");
    }

    @Test
    void printableEscapesControlsAndShortensLongIds() {
        assertThat(CasesFile.printable("a\u0000b\nc")).isEqualTo("a\\x00b\\x0ac");
        assertThat(CasesFile.printable("x".repeat(4000))).endsWith("...(4000 characters)").hasSizeLessThan(160);
    }
}
