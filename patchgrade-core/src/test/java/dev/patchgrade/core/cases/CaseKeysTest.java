package dev.patchgrade.core.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.PatchgradeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The case keys real test suites need, and the file-format mistakes that must be errors, not silence. */
class CaseKeysTest {
    @TempDir
    Path dir;

    private Path file(String name, String content) throws Exception {
        return Files.write(dir.resolve(name), content.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aCaseMayGiveItsOwnTimeoutDirectoryAndEnvironment() throws Exception {
        List<Case> cases = CasesFile.read(file("cases.jsonl", """
                {"id":"slow","args":["big.lua"],"timeout_s":60,"cwd":"tests","env":{"LUA_PATH":"./?.lua","LUA_INIT":""}}
                {"id":"fast","args":[]}
                """), false);
        assertThat(cases.get(0).timeoutSeconds()).isEqualTo(60.0);
        assertThat(cases.get(0).cwd()).isEqualTo("tests");
        assertThat(cases.get(0).env()).containsExactlyInAnyOrderEntriesOf(Map.of("LUA_PATH", "./?.lua", "LUA_INIT", ""));
        assertThat(cases.get(1).timeoutSeconds()).isNull();
        assertThat(cases.get(1).cwd()).isNull();
        assertThat(cases.get(1).env()).isEmpty();
        assertThat(cases.get(1).expectExit()).isZero();
    }

    @Test
    void threeColumnRowsMayExpectANonZeroExit() throws Exception {
        List<Case> cases = CasesFile.read(file("cases.jsonl", "{\"id\":\"syntax-error\",\"args\":[\"bad.lua\"],\"golden\":\"\",\"expect_exit\":1}\n"), true);
        assertThat(cases.get(0).expectExit()).isEqualTo(1);
    }

    @Test
    void aByteOrderMarkIsNotPartOfTheFirstId() throws Exception {
        assertThat(CasesFile.read(file("cases.txt", "\uFEFFfirst\nsecond\n"), false)).extracting(Case::id).containsExactly("first", "second");
        assertThat(CasesFile.read(file("cases.jsonl", "\uFEFF{\"id\":\"a\",\"args\":[]}\n"), false)).extracting(Case::id).containsExactly("a");
    }

    @Test
    void bareCarriageReturnsAreAnErrorNamingTheLine() throws Exception {
        Path cases = file("cases.txt", "one\ntwo\rthree\rfour\r");
        assertThatThrownBy(() -> CasesFile.read(cases, false))
                .isInstanceOf(CasesFormatException.class)
                .hasMessage(cases + ":2: ends with a bare CR (old Mac line endings), so the lines after it would run together into one case; "
                        + "save the file with LF (or CRLF) line endings");
    }

    @Test
    void windowsLineEndingsAreFine() throws Exception {
        assertThat(CasesFile.read(file("cases.txt", "one\r\ntwo\r\n"), false)).extracting(Case::id).containsExactly("one", "two");
    }

    @Test
    void aTypoedKeyIsAnErrorNamingTheKeyAndTheLine() throws Exception {
        Path cases = file("cases.jsonl", "{\"id\":\"a\",\"args\":[]}\n{\"id\":\"b\",\"args\":[],\"timeout\":1}\n");
        assertThatThrownBy(() -> CasesFile.read(cases, false))
                .isInstanceOf(CasesFormatException.class)
                .hasMessage(cases + ":2: unknown key \"timeout\" (did you mean \"timeout_s\"?); a case may give [args, cwd, env, id, stdin, "
                        + "timeout_s]. Remove or rename it, so that no setting is silently dropped");
    }

    @Test
    void aThreeColumnKeyInADigestFileSaysWhoReadsIt() throws Exception {
        Path cases = file("cases.jsonl", "{\"id\":\"a\",\"args\":[],\"expect_exit\":1}\n");
        assertThatThrownBy(() -> CasesFile.read(cases, false)).hasMessageContaining(":1: unknown key \"expect_exit\" (only the three-column grade reads it)");
    }

    @Test
    void aKeyGivenTwiceIsAnError() throws Exception {
        Path cases = file("cases.jsonl", "{\"id\":\"a\",\"args\":[],\"stdin\":\"x\",\"stdin\":\"y\"}\n");
        assertThatThrownBy(() -> CasesFile.read(cases, false))
                .hasMessage(cases + ":1: key \"stdin\" appears twice; keep one, since only one value can count");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "tiny timeout    | \"timeout_s\":0.0001        | key \"timeout_s\" must be a number of seconds from 0.001 to 86400 (one day) (found 1.0E-4); leave it out to use the timeout setting of the goal",
        "huge timeout    | \"timeout_s\":1e300         | key \"timeout_s\" must be a number of seconds from 0.001 to 86400 (one day) (found 1.0E300)",
        "text timeout    | \"timeout_s\":\"5\"         | key \"timeout_s\" must be a number of seconds from 0.001 to 86400 (one day) (found \"5\")",
        "absolute cwd    | \"cwd\":\"/tmp\"            | key \"cwd\" must be a directory relative to the workingDirectory setting (found \"/tmp\")",
        "env array       | \"env\":[\"A=1\"]           | key \"env\" must be an object of variable names to strings",
        "env number      | \"env\":{\"A\":1}           | key \"env\": variable \"A\" must be a string (found 1); quote numbers, e.g. \"1\"",
        "env bad name    | \"env\":{\"A=B\":\"1\"}     | key \"env\" holds the variable name \"A=B\", which no environment can hold",
        "exit too large  | \"expect_exit\":256         | key \"expect_exit\" must be an exit status from 0 to 255 (found 256)",
        "exit text       | \"expect_exit\":\"1\"       | key \"expect_exit\" must be an exit status from 0 to 255 (found \"1\")",
    })
    void badValuesNameTheKeyTheValueAndTheFix(String name, String key, String expected) throws Exception {
        Path cases = file("cases.jsonl", "{\"id\":\"a\",\"args\":[],\"golden\":\"\"," + key + "}\n");
        assertThatThrownBy(() -> CasesFile.read(cases, true))
                .isInstanceOf(CasesFormatException.class)
                .hasMessageStartingWith(cases + ":1: ")
                .hasMessageContaining(expected)
                .extracting(e -> ((PatchgradeException) e).errorName()).isEqualTo("malformed_cases");
    }
}
