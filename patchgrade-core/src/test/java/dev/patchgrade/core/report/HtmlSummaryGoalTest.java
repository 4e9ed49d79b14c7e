package dev.patchgrade.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The page draws each report by the goal it names, never by guessing from which keys it has. */
class HtmlSummaryGoalTest {
    @TempDir
    Path dir;

    @Test
    void aReportIsDrawnByItsGoalWhateverOtherKeysItCarries() throws Exception {
        // "ceilings" made the old page draw envelope bars for this digest.
        Files.writeString(dir.resolve("patchgrade.digest.plain.json"), """
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
    void manyRowsArePassedOverWithACountWhileEveryFailingRowShowsUpToTheCap() throws Exception {
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            rows.append(i == 0 ? "" : ",").append("{\"id\":\"r").append(i).append("\",\"pattern\":\"")
                    .append(i == 1999 ? "golden_rot" : "pass_all_agree").append("\",\"reference\":{},\"candidate\":{},\"golden\":\"\"}");
        }
        Files.writeString(dir.resolve("patchgrade.three-column.t.json"), "{\"goal\":\"three-column\",\"verdict\":\"fail\",\"worst\":\"golden_rot\","
                + "\"counts\":{\"golden_rot\":1,\"pass_all_agree\":1999},\"rows\":[" + rows + "]}");
        String html = Files.readString(HtmlSummary.refresh(dir, null));
        assertThat(html).contains(">r1999<", "2000 rows").contains("more row(s) not shown here");
        assertThat(html.split("<tr><td>r").length - 1).isLessThanOrEqualTo(HtmlSummary.ROWS_SHOWN);
        // The failing row, last in case order, comes first on the page, before the passing ones.
        assertThat(html.indexOf(">r1999<")).isLessThan(html.indexOf(">r0<")).isPositive();
    }

    @Test
    void aReportReplacedSinceTheLastPageIsReadAgainEvenAtTheSameSize() throws Exception {
        Path report = dir.resolve("patchgrade.digest.again.json");
        Files.writeString(report, digestReport("alpha", 0));
        assertThat(Files.readString(HtmlSummary.refresh(dir, "m"))).contains(">alpha<");
        // A later execution replaces it as reports are replaced (a new file renamed over it), same length, other case.
        Path next = dir.resolve("next.tmp");
        Files.writeString(next, digestReport("omega", 0));
        assertThat(Files.size(next)).isEqualTo(Files.size(report));
        Files.move(next, report, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        String page = Files.readString(HtmlSummary.refresh(dir, "m"));
        assertThat(page).contains(">omega<").doesNotContain(">alpha<");
        // Unchanged, the report draws the same page again (from the section kept of it).
        assertThat(Files.readString(HtmlSummary.refresh(dir, "m"))).isEqualTo(page);
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
        Files.writeString(dir.resolve("patchgrade.differential.fast.json"), DIFFERENTIAL);
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
        Files.writeString(module.resolve("patchgrade.differential.fast.json"), DIFFERENTIAL);
        Path page = ReactorSummary.register(dir.resolve("target/patchgrade-reports"), "billing", module);
        assertThat(Files.readString(page)).contains("#differential.fast\">differential.fast</a>", "<td class=\"bad\">candidate_differs</td>",
                "<td>3 generated cases</td>");
    }
}
