package dev.patchgrade.core.classify;

import dev.patchgrade.core.classify.ThreeColumnGoal.Options;
import dev.patchgrade.core.classify.ThreeColumnGrading.Row;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.grade.JsonView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the JSON report says of a three-column execution: each row's three sides and pattern, and the head's pattern counts. */
record ThreeColumnJson(Options options) implements JsonView<Row, ThreeColumnResult> {
    /** The JSON report's row. */
    record Json(String id, List<String> args, String pattern, SideJson reference, SideJson candidate, String golden) {}

    /** The JSON report's fields before the rows. */
    record Head(String goal, String execution, String verdict, String worst, String comparison, String shard, Map<String, Long> counts,
            Map<String, Object> sandbox, long graded, long failing) {}

    @Override
    public Json row(Row row) {
        boolean kept = row.keeps(options.run().keepAll());
        return new Json(row.testCase().id(), row.testCase().args(), row.pattern().wireName(), SideJson.of(row.reference(), kept),
                SideJson.of(row.candidate(), kept), row.testCase().golden());
    }

    @Override
    public Head head(ThreeColumnResult result) {
        Map<String, Long> counts = new LinkedHashMap<>();
        result.counts().forEach((pattern, n) -> counts.put(pattern.wireName(), n));
        DriftPattern worst = result.worst();
        return new Head("three-column", options.settings().executionId(), worst.passed() ? "pass" : "fail", worst.wireName(),
                options.comparison().toString(), options.run().shard().reported(), counts, GoalRun.sandboxJson(options.settings()), result.graded(), result.failed());
    }
}
