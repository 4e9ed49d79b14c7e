package dev.patchgrade.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each goal's view draws its execution from the typed rows and head its reports were fed; the page puts the sections together. */
class HtmlSummaryGoalTest {
    @TempDir
    Path dir;

    @Test
    void aDigestIsDrawnByItsOwnViewWhateverOtherKeysItsHeadCarries() throws Exception {
        // A page that guessed the goal from the keys drew envelope bars for this digest, for its "ceilings".
        SummaryRecords.write(dir, "digest.plain", new DigestSection(), """
                {"goal":"digest","execution":"plain","verdict":"fail","worst":"exit","ceilings":{},"graded":2,"failing":1,"cases":[
                 {"case":"a","verdict":"pass","drift_fields":[],"gold":{"case":"a","exit":0},"candidate":{"case":"a","exit":0}},
                 {"case":"b","verdict":"fail","drift_fields":["exit"],"drift":["exit: 0 -> 1"],"gold":{"case":"b","exit":0},
                  "candidate":{"case":"b","exit":1}}]}
                """);
        String html = Files.readString(HtmlSummary.refresh(dir, "m"));
        assertThat(html).contains("<table class=\"grid\"><tr><th>case</th><th>verdict</th><th>exit</th>", "2 cases")
                .contains("0 &rarr; 1").doesNotContain("measured against ceiling");
    }

    @Test
    void aDriftFromAnEmptyStreamShowsBothShortHashesAndATimeDriftItsNote() throws Exception {
        String empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        String written = "15777c8ddd3911e34b5c3e3e1dd87fd9cfc4de360ebfe920b8906eb1c9ab6d5d";
        SummaryRecords.write(dir, "digest.streams", new DigestSection(), """
                {"goal":"digest","execution":"streams","verdict":"fail","worst":"stderr_sha256","graded":1,"failing":1,"cases":[
                 {"case":"a","verdict":"fail","drift_fields":["stderr_sha256","time_bucket"],
                  "drift":["stderr_sha256: EMPTY (empty) -> WRITTEN","time_bucket: lt_50ms -> lt_500ms (fastest of 3 runs 120 ms)"],
                  "gold":{"case":"a","stderr_sha256":"EMPTY","time_bucket":"lt_50ms"},
                  "candidate":{"case":"a","stderr_sha256":"WRITTEN","time_bucket":"lt_500ms"}}]}
                """.replace("EMPTY", empty).replace("WRITTEN", written));
        String html = Files.readString(HtmlSummary.refresh(dir, "m"));
        assertThat(html).contains("<td class=\"drift\">e3b0c44298fc (empty) &rarr; 15777c8ddd39</td>")
                .contains("lt_50ms &rarr; lt_500ms (fastest of 3 runs 120 ms)</td>").doesNotContain(written);
    }

    @Test
    void manyRowsArePassedOverWithACountWhileEveryFailingRowShowsUpToTheCap() throws Exception {
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            rows.append(i == 0 ? "" : ",").append("{\"id\":\"r").append(i).append("\",\"pattern\":\"")
                    .append(i == 1999 ? "golden_rot" : "pass_all_agree").append("\",\"reference\":{},\"candidate\":{},\"golden\":\"\"}");
        }
        SummaryRecords.write(dir, "three-column.t", new ThreeColumnSection(), "{\"goal\":\"three-column\",\"verdict\":\"fail\",\"worst\":\"golden_rot\","
                + "\"counts\":{\"golden_rot\":1,\"pass_all_agree\":1999},\"rows\":[" + rows + "]}");
        String html = Files.readString(HtmlSummary.refresh(dir, null));
        assertThat(html).contains(">r1999<", "2000 rows").contains("more row(s) not shown here");
        assertThat(html.split("<tr><td>r").length - 1).isLessThanOrEqualTo(SummaryReporter.ROWS_SHOWN);
        // The failing row, last in case order, comes first on the page, before the passing ones.
        assertThat(html.indexOf(">r1999<")).isLessThan(html.indexOf(">r0<")).isPositive();
    }

    @Test
    void aRecordWrittenAgainReplacesTheSectionAndAnUnchangedOneDrawsTheSamePage() throws Exception {
        SummaryRecords.write(dir, "digest.again", new DigestSection(), digestReport("alpha", 0));
        assertThat(Files.readString(HtmlSummary.refresh(dir, "m"))).contains(">alpha<");
        SummaryRecords.write(dir, "digest.again", new DigestSection(), digestReport("omega", 0));
        String page = Files.readString(HtmlSummary.refresh(dir, "m"));
        assertThat(page).contains(">omega<").doesNotContain(">alpha<");
        assertThat(Files.readString(HtmlSummary.refresh(dir, "m"))).isEqualTo(page);
    }

    @Test
    void anExecutionsRecordRemovedWithItsStaleReportsLeavesThePage() throws Exception {
        SummaryRecords.write(dir, "digest.gone", new DigestSection(), digestReport("alpha", 0));
        SummaryRecords.write(dir, "digest.kept", new DigestSection(), digestReport("beta", 0));
        ExecutionSummary.delete(dir, "digest.gone");
        assertThat(Files.readString(HtmlSummary.refresh(dir, "m"))).contains(">beta<", "digest.kept").doesNotContain("digest.gone");
    }

    @Test
    void aDamagedRecordIsAnErrorNamingItAndTheFix() throws Exception {
        Files.createDirectories(dir.resolve(ExecutionSummary.DIRECTORY));
        Files.writeString(dir.resolve(ExecutionSummary.DIRECTORY).resolve("digest.bad.json"), "{\"name\":\"digest.bad\"}");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HtmlSummary.refresh(dir, "m")).hasMessageContaining("digest.bad.json")
                .hasMessageContaining("delete it");
    }

    private static String digestReport(String caseId, int exit) {
        return "{\"goal\":\"digest\",\"execution\":\"again\",\"verdict\":\"pass\",\"graded\":1,\"failing\":0,\"cases\":["
                + "{\"case\":\"" + caseId + "\",\"verdict\":\"pass\",\"drift_fields\":[],\"gold\":{\"case\":\"" + caseId + "\",\"exit\":" + exit
                + "},\"candidate\":{\"case\":\"" + caseId + "\",\"exit\":" + exit + "}}]}\n";
    }

    static final String DIFFERENTIAL = """
            {"goal":"differential","execution":"fast","verdict":"fail","worst":"candidate_differs","seed":3420747,"seed_given":false,
             "count":200,"generated":3,"comparison":"trim","shrink":true,"counts":{"candidate_differs":1,"pass_agree":2},"graded":3,"failing":1,
             "cases":[
              {"id":"gen-0","args":["12"],"stdin":null,"pattern":"pass_agree","reference":{"exit":0,"stdout":"1\\n"},"candidate":{"exit":0,"stdout":"1\\n"},"shrunk":null},
              {"id":"gen-1","args":["-1237","note"],"stdin":null,"pattern":"candidate_differs","reference":{"exit":0,"stdout":"-124\\n"},
               "candidate":{"exit":0,"stdout":"-123\\n"},"shrunk":{"args":["7"],"stdin":null,"smaller":true,"reference":{"exit":0,"stdout":"1\\n"},
               "candidate":{"exit":3,"stdout":"0\\n"},"run_pairs":8,"budget_spent":false}},
              {"id":"gen-2","args":["x"],"stdin":"a\\n","pattern":"pass_agree","reference":{"exit":2,"stdout":""},"candidate":{"exit":2,"stdout":""},"shrunk":null}]}
            """;

    @Test
    void aDifferentialGradeShowsItsSeedItsCountsAndEachDifferingCasesSmallestInputBesideTheOriginal() throws Exception {
        SummaryRecords.write(dir, "differential.fast", new DifferentialSection(), DIFFERENTIAL);
        String html = Files.readString(HtmlSummary.refresh(dir, "m"));
        assertThat(html).contains("<code class=\"seed\">3420747</code> (drawn for this build)", "3 case(s) generated", "3 generated cases")
                .contains("candidate_differs: 1 of 3", "pass_agree: 2 of 3")
                .contains("<th>input</th>", "args [&quot;7&quot;] (shrunk from args [&quot;-1237&quot;,&quot;note&quot;])")
                .contains("<td><code>1</code></td><td><code>(exit 3) 0</code></td>")
                .contains("<td class=\"bad\">candidate_differs</td>");
        assertThat(HtmlSummary.cssClass("pass_agree")).isEqualTo("ok");
    }

    @Test
    void theReactorPageListsADifferentialGradeWithItsOutcomeAndCases() throws Exception {
        Path module = java.nio.file.Files.createDirectories(dir.resolve("billing/target/patchgrade-reports"));
        SummaryRecords.write(module, "differential.fast", new DifferentialSection(), DIFFERENTIAL);
        Path page = ReactorSummary.register(dir.resolve("target/patchgrade-reports"), "billing", module);
        assertThat(Files.readString(page)).contains("#differential.fast\">differential.fast</a>", "<td class=\"bad\">candidate_differs</td>",
                "<td>3 generated cases</td>");
    }
}
