package dev.patchgrade.core.differential;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.patchgrade.core.classify.SideJson;
import dev.patchgrade.core.differential.DifferentialGoal.Options;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.grade.JsonView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the JSON report says of a differential execution (SPEC: report files): each case's runs and smallest input, the head's seed and counts. */
record DifferentialJson(Options options, Seed seed) implements JsonView<DifferentialRow, DifferentialResult> {
    /** A differing case cut down, in the JSON report: the smallest input and both runs on it. */
    record ShrunkJson(List<String> args, String stdin, boolean smaller, SideJson reference, SideJson candidate, @JsonProperty("run_pairs") int runPairs,
            @JsonProperty("budget_spent") boolean budgetSpent) {}

    /** The JSON report's row: the generated case as printed, both runs on it, and where it differed, its smallest input. */
    record Json(String id, List<String> args, String stdin, String pattern, SideJson reference, SideJson candidate, ShrunkJson shrunk) {}

    /** The JSON report's fields before the cases. */
    record Head(String goal, String execution, String verdict, String worst, long seed, @JsonProperty("seed_given") boolean seedGiven, int count,
            long generated, String comparison, boolean shrink, String shard, Map<String, Long> counts, Map<String, Object> sandbox, long graded,
            long failing) {}

    @Override
    public Json row(DifferentialRow row) {
        boolean kept = row.keeps(options.run().keepAll());
        DifferentialRow.Shrunk shrunk = row.shrunk();
        ShrunkJson cut = shrunk == null ? null : new ShrunkJson(shrunk.smallest().args(), shrunk.smallest().stdin(), shrunk.smaller(row.testCase()),
                SideJson.of(shrunk.reference(), kept), SideJson.of(shrunk.candidate(), kept), shrunk.runPairs(), shrunk.budgetSpent());
        return new Json(row.testCase().id(), row.testCase().args(), row.testCase().stdin(), row.pattern().wireName(), SideJson.of(row.reference(), kept),
                SideJson.of(row.candidate(), kept), cut);
    }

    @Override
    public Head head(DifferentialResult result) {
        Map<String, Long> counts = new LinkedHashMap<>();
        result.counts().forEach((pattern, n) -> counts.put(pattern.wireName(), n));
        DifferentialPattern worst = result.worst();
        return new Head("differential", options.settings().executionId(), worst.passed() ? "pass" : "fail", worst.wireName(), seed.value(), seed.given(),
                options.count(), result.generated(), options.comparison().toString(), options.shrink(), options.run().shard().reported(), counts,
                GoalRun.sandboxJson(options.settings()), result.graded(), result.failed());
    }
}
