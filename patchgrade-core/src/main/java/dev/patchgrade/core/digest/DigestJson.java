package dev.patchgrade.core.digest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.patchgrade.core.digest.DigestGoal.Options;
import dev.patchgrade.core.grade.GoalRun;
import dev.patchgrade.core.grade.JsonView;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** What the JSON report says of a digest execution: each case's drifts and tuples, and the head's counts and settings. */
record DigestJson(Options options) implements JsonView<DigestRow, DigestResult> {
    /** The JSON report's row of one case. */
    record Json(@JsonProperty("case") String caseId, String verdict, List<String> drift, @JsonProperty("drift_fields") List<String> driftFields,
            @JsonProperty("time_bucket_reruns") int timeBucketReruns, @JsonProperty("first_difference") List<Difference> firstDifference,
            ObjectNode gold, ObjectNode candidate, @JsonProperty("wall_ms") long wallMs, @JsonProperty("kept_files") List<String> keptFiles) {}

    record Difference(String stream, int line, String gold, String candidate, String text) {}

    /** The JSON report's fields before the cases. */
    record Head(String goal, String execution, String verdict, String worst, String shard, String sanitizer, String gold,
            @JsonProperty("candidate_digests") String candidateDigests, @JsonProperty("time_basis") String timeBasis, Map<String, Object> sandbox,
            long graded, long failing) {}

    @Override
    public Json row(DigestRow row) {
        List<Difference> differences = row.lines().stream()
                .map(l -> new Difference(l.stream(), l.number(), l.gold(), l.candidate(), l.describe())).toList();
        List<String> kept = row.keptStreams().stream().map(Path::toString).toList();
        return new Json(row.testCase().id(), row.failed() ? "fail" : "pass", row.drifts().stream().map(DigestTuple.Drift::describe).toList(),
                row.drifts().stream().map(d -> d.field().wireName()).toList(), row.reruns(), differences,
                GoldFile.json(row.gold(), null, List.of()), GoldFile.json(row.candidate(), null, List.of()), row.launch().wallMillis(), kept);
    }

    @Override
    public Head head(DigestResult result) {
        return new Head("digest", options.settings().executionId(), result.failed() > 0 ? "fail" : "pass", result.worstName(),
                options.run().shard().reported(), options.sanitizer().wireName(),
                options.gold().toString(), DigestGoal.candidateDirectory(options.settings()).toString(),
                result.timeBasis() == null ? null : result.timeBasis().wireName(), GoalRun.sandboxJson(options.settings()), result.graded(), result.failed());
    }
}
