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
}
