package dev.patchgrade.core.differential;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.cases.Case;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A generator's stdout read as cases, every problem named by its line. */
class GeneratorOutputTest {
    private static final String ORIGIN = "the generator `gen.sh` (seed 7, count 3)";

    private static List<Case> parse(String text) {
        return GeneratorOutput.parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), ORIGIN, "Fix it.");
    }

    private static PatchgradeException error(String text) {
        return catchThrowableOfType(PatchgradeException.class, () -> parse(text));
    }

    @Test
    void casesAreReadInOrderWithTheirArgumentsStdinAndLine() {
        List<Case> cases = parse("{\"id\":\"a\",\"args\":[\"1\",\"x y\"]}\n\n{\"id\":\"b\",\"args\":[],\"stdin\":\"3\\n\"}\r\n");
        assertThat(cases).extracting(Case::id).containsExactly("a", "b");
        assertThat(cases.get(0).args()).containsExactly("1", "x y");
        assertThat(cases.get(0).stdin()).isNull();
        assertThat(cases.get(1).stdin()).isEqualTo("3\n");
        assertThat(cases.get(1).line()).isEqualTo(3);
        assertThat(cases).allSatisfy(c -> assertThat(c.golden()).isNull());
    }

    @Test
    void badJsonNamesItsLineNumberAndTheGenerator() {
        PatchgradeException e = error("{\"id\":\"a\",\"args\":[]}\n{\"id\":\"b\",\"args\":[]}\n{\"id\": \"c\", args: []}\n");
        assertThat(e.errorName()).isEqualTo("malformed_generated_cases");
        assertThat(e.getMessage()).startsWith(ORIGIN + ": output line 3 is not valid JSON").contains("{\"id\": \"c\", args: []}").endsWith("Fix it.");
    }

    @Test
    void aLineThatIsNoObjectNamesItsLine() {
        assertThat(error("{\"id\":\"a\",\"args\":[]}\n[1,2]\n").getMessage()).contains("output line 2 is not a JSON object: [1,2]");
    }

    @Test
    void anIdGivenTwiceNamesBothLines() {
        PatchgradeException e = error("{\"id\":\"a\",\"args\":[]}\n{\"id\":\"b\",\"args\":[]}\n{\"id\":\"a\",\"args\":[\"2\"]}\n");
        assertThat(e.errorName()).isEqualTo("malformed_generated_cases");
        assertThat(e.getMessage()).contains("output line 3 repeats the id \"a\" of line 1");
    }

    @Test
    void everyKeyIsCheckedSoThatNoTypoDropsAnInput() {
        assertThat(error("{\"id\":\"a\",\"args\":[],\"sdtin\":\"1\"}").getMessage()).contains("output line 1 has the unknown key \"sdtin\"");
        assertThat(error("{\"id\":\"a\",\"args\":[],\"golden\":\"1\"}").getMessage()).contains("unknown key \"golden\"");
        assertThat(error("{\"id\":\"a\",\"id\":\"b\",\"args\":[]}").getMessage()).contains("gives the key \"id\" twice");
        assertThat(error("{\"args\":[]}").getMessage()).contains("has no key \"id\"");
        assertThat(error("{\"id\":3,\"args\":[]}").getMessage()).contains("an \"id\" that is no non-empty string (3)");
        assertThat(error("{\"id\":\"a\"}").getMessage()).contains("has no key \"args\"");
        assertThat(error("{\"id\":\"a\",\"args\":\"1\"}").getMessage()).contains("\"args\" that are no array");
        assertThat(error("{\"id\":\"a\",\"args\":[1]}").getMessage()).contains("an argument that is no string (1); quote numbers");
        assertThat(error("{\"id\":\"a\",\"args\":[\"a\\u0000b\"]}").getMessage()).contains("NUL character");
        assertThat(error("{\"id\":\"a\",\"args\":[],\"stdin\":5}").getMessage()).contains("a \"stdin\" that is no string (5)");
    }

    @Test
    void noCasesAtAllIsAnErrorSayingWhatToPrint() {
        PatchgradeException e = error("\n\n");
        assertThat(e.getMessage()).startsWith(ORIGIN + " printed no cases; print one JSON object a line on stdout");
    }

    @Test
    void bytesThatAreNoUtf8NameTheLine() {
        byte[] bytes = "{\"id\":\"a\",\"args\":[]}\n{\"id\":\"\u00e9\u00ff\",\"args\":[]}\n".getBytes(StandardCharsets.ISO_8859_1);
        PatchgradeException e = catchThrowableOfType(PatchgradeException.class,
                () -> GeneratorOutput.parse(new ByteArrayInputStream(bytes), ORIGIN, "Fix it."));
        assertThat(e.getMessage()).contains("output line 2 is not valid UTF-8");
    }

    @Test
    void twoRunsThatPrintTheSameCasesAreTheSameHoweverTheyAreSpelled() {
        List<Case> first = parse("{\"id\":\"a\",\"args\":[\"1\"]}\n{\"id\":\"b\",\"args\":[],\"stdin\":\"x\"}\n");
        List<Case> second = parse("{ \"args\" : [\"1\"], \"id\" : \"a\" }\n\n{\"stdin\":\"x\",\"id\":\"b\",\"args\":[]}\n");
        assertThat(GeneratorOutput.firstDifference(first, second)).isNull();
    }

    @Test
    void theFirstCaseThatDiffersIsNamedWithBothVersions() {
        List<Case> first = parse("{\"id\":\"a\",\"args\":[\"1\"]}\n{\"id\":\"b\",\"args\":[\"41\"]}\n");
        List<Case> second = parse("{\"id\":\"a\",\"args\":[\"1\"]}\n{\"id\":\"b\",\"args\":[\"17\"]}\n");
        assertThat(GeneratorOutput.firstDifference(first, second)).isEqualTo("case 2 differs: the first run printed \"b\" with args [41] (line 2), "
                + "the second \"b\" with args [17] (line 2)");
        List<Case> stdin = parse("{\"id\":\"a\",\"args\":[\"1\"],\"stdin\":\"9\"}\n");
        assertThat(GeneratorOutput.firstDifference(first.subList(0, 1), stdin)).contains("the second \"a\" with args [1] and stdin \"9\"");
    }

    @Test
    void aRunThatPrintsMoreOrFewerCasesIsNamedWithBothCounts() {
        List<Case> first = parse("{\"id\":\"a\",\"args\":[]}\n{\"id\":\"b\",\"args\":[]}\n");
        assertThat(GeneratorOutput.firstDifference(first, first.subList(0, 1))).isEqualTo("the first run printed 2 case(s), the second 1 (the first 1 the same)");
    }
}
