package dev.patchgrade.core.coverage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** gcov's output as gcc 12's gcov and llvm-cov gcov write it (samples taken from real runs), read to line counts. */
class GcovOutputTest {
    /** Two data files, one JSON document a line; the second's template is listed once per instantiation. */
    private static final String JSON = """
            {"gcc_version": "12.2.0", "files": [{"lines": [{"branches": [], "count": 1, "line_number": 6, "unexecuted_block": false, "function_name": "twice"}, {"branches": [], "count": 0, "line_number": 9, "unexecuted_block": true, "function_name": "thrice"}], "functions": [], "file": "../src/a.c"}, {"lines": [{"branches": [], "count": 3, "line_number": 2, "unexecuted_block": false, "function_name": "inc"}], "functions": [], "file": "/usr/include/b.h"}], "format_version": "1", "current_working_directory": "/work/build", "data_file": "/s/work/build/a.gcda"}
            {"gcc_version": "12.2.0", "files": [{"lines": [{"count": 1, "line_number": 2, "function_name": "_Z5twiceIdET_S0_"}, {"count": 1, "line_number": 3, "function_name": "_Z5twiceIdET_S0_"}, {"count": 1, "line_number": 2, "function_name": "_Z5twiceIiET_S0_"}, {"count": 1, "line_number": 3, "function_name": "_Z5twiceIiET_S0_"}, {"count": 0, "line_number": 9, "function_name": "main"}], "file": "t.cpp"}], "format_version": "1", "current_working_directory": "/tpl", "data_file": "/s/tpl/t.gcda"}
            """;

    private static List<GcovOutput.Data> json(String text, Path directory) throws Exception {
        List<GcovOutput.Data> all = new ArrayList<>();
        GcovOutput.readJson(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), directory, all::add);
        return all;
    }

    @Test
    void eachDocumentIsOneDataFileWithItsSourcesResolvedFromTheCompilersDirectory() throws Exception {
        List<GcovOutput.Data> data = json(JSON, Path.of("/elsewhere"));
        assertThat(data).extracting(GcovOutput.Data::dataFile).containsExactly("/s/work/build/a.gcda", "/s/tpl/t.gcda");
        GcovOutput.Data first = data.get(0);
        assertThat(first.sources()).extracting(GcovOutput.Source::file).containsExactly(Path.of("/work/src/a.c"), Path.of("/usr/include/b.h"));
        assertThat(first.sources().get(0).counts()).containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of(6, 1L, 9, 0L)));
        assertThat(first.sources().get(1).counts()).containsExactlyEntriesOf(Map.of(2, 3L));
    }

    @Test
    void aLineListedOncePerInstantiationRanAsOftenAsAllOfThem() throws Exception {
        GcovOutput.Source template = json(JSON, Path.of("/")).get(1).sources().get(0);
        assertThat(template.file()).isEqualTo(Path.of("/tpl/t.cpp"));
        assertThat(template.counts()).containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of(2, 2L, 3, 2L, 9, 0L)));
    }

    @Test
    void withoutTheCompilersDirectoryRelativeNamesResolveAgainstTheGivenOne() throws Exception {
        String document = "{\"files\": [{\"file\": \"src/x.c\", \"lines\": [{\"line_number\": 1, \"count\": 5}]}], \"current_working_directory\": \"\"}";
        assertThat(json(document, Path.of("/build/obj")).get(0).sources().get(0).file()).isEqualTo(Path.of("/build/obj/src/x.c"));
    }

    @Test
    void aDocumentWithoutFilesIsStillADataFileWithNoSources() throws Exception {
        List<GcovOutput.Data> data = json("{\"gcc_version\": \"12.2.0\", \"files\": [], \"data_file\": \"x.gcda\"}", Path.of("/"));
        assertThat(data).singleElement().satisfies(d -> assertThat(d.sources()).isEmpty());
    }

    @Test
    void outputThatIsNotGcovsJsonIsAnError() {
        assertThatThrownBy(() -> json("x.gcno:cannot open notes file", Path.of("/"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not gcov's JSON");
        assertThatThrownBy(() -> json("{\"gcc_version\": \"12\"}", Path.of("/"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("without a \"files\" array");
        assertThatThrownBy(() -> json("{\"files\": [{\"lines\": []}]}", Path.of("/"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("without a \"file\" name");
        assertThatThrownBy(() -> json("{\"files\": [{\"file\": \"a.c\", \"lines\": [{\"line_number\": \"x\", \"count\": 1}]}]}", Path.of("/")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("numeric line_number and count");
    }

    /** gcc 12's gcov -t of a template used for int and double, and a line never run. */
    private static final String LISTING = """
                    -:    0:Source:t.cpp
                    -:    0:Graph:t.gcno
                    -:    0:Data:t.gcda
                    -:    0:Runs:1
                    -:    1:template <typename T>
                    2:    2:T twice(T x) {
                    2:    3:    return 2 * x;
                    -:    4:}
            ------------------
            _Z5twiceIdET_S0_:
                    1:    2:T twice(T x) {
                    1:    3:    return 2 * x;
                    -:    4:}
            ------------------
            _Z5twiceIiET_S0_:
                    1:    2:T twice(T x) {
                    1:    3:    return 2 * x;
                    -:    4:}
            ------------------
                    1:    5:int main(int argc, char **) {
                    1:    6:    int a = twice(argc);
                    1*:   7:    if (argc > 5 && a: 1)
                #####:    9:        return 1;
                =====:   10:    throw;
                    1:   11:    return a + (int) b > 100;
                    -:   12:}
                    -:    0:Source:/usr/include/inc.h
                    3:    1:static inline int inc(int x) { return x + 1; }
            """;

    @Test
    void theTextListingGivesTheSameCountsAndCountsNoInstantiationTwice() throws Exception {
        List<GcovOutput.Data> all = new ArrayList<>();
        GcovOutput.readText(new ByteArrayInputStream(LISTING.getBytes(StandardCharsets.UTF_8)), Path.of("/tpl"), all::add);
        assertThat(all).hasSize(1);
        List<GcovOutput.Source> sources = all.get(0).sources();
        assertThat(sources).extracting(GcovOutput.Source::file).containsExactly(Path.of("/tpl/t.cpp"), Path.of("/usr/include/inc.h"));
        assertThat(sources.get(0).counts()).containsExactlyEntriesOf(
                new java.util.TreeMap<>(Map.of(2, 2L, 3, 2L, 5, 1L, 6, 1L, 7, 1L, 9, 0L, 10, 0L, 11, 1L)));
        assertThat(sources.get(1).counts()).containsExactlyEntriesOf(Map.of(1, 3L));
    }

    @Test
    void aListingLineWhoseCountIsNoNumberIsAnError() {
        String listing = "        -:    0:Source:a.c\n     1.2k:    3:x();\n";
        assertThatThrownBy(() -> GcovOutput.readText(new ByteArrayInputStream(listing.getBytes(StandardCharsets.UTF_8)), Path.of("/"), d -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("count is not a number");
    }
}
