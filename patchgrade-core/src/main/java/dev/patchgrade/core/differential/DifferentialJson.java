package dev.patchgrade.core.differential;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.patchgrade.core.launch.LaunchResult;
import java.util.List;
import java.util.Map;

/** The shapes a differential grade writes: its JSON report's head and rows, and its feedback lines (SPEC: report files). */
final class DifferentialJson {
    private DifferentialJson() {}

    /** One side of a run in the JSON report. */
    record Side(Integer exit, String signal, @JsonProperty("timed_out") boolean timedOut, String stdout,
            @JsonProperty("stdout_complete") boolean stdoutComplete, String stderr, @JsonProperty("stdout_file") String stdoutFile) {
        static Side of(LaunchResult result, boolean kept) {
            return new Side(result.exitCode(), result.signal(), result.timedOut(), result.stdout().excerpt(), result.stdout().complete(),
                    result.stderr().excerpt(), kept && result.stdout().file() != null ? result.stdout().file().toString() : null);
        }
    }

    /** A differing case cut down, in the JSON report: the smallest input and both runs on it. */
    record ShrunkJson(List<String> args, String stdin, boolean smaller, Side reference, Side candidate, @JsonProperty("run_pairs") int runPairs,
            @JsonProperty("budget_spent") boolean budgetSpent) {}

    /** The JSON report's row: the generated case as printed, both runs on it, and where it differed, its smallest input. */
    record Json(String id, List<String> args, String stdin, String pattern, Side reference, Side candidate, ShrunkJson shrunk) {}

    /** The input a feedback line was cut down from. */
    record Original(List<String> args, String stdin) {}

    /** A line of the feedback file: the smallest input that differs, both outputs on it, and the case it came from. */
    record Feedback(String id, List<String> args, String stdin, String reference, String candidate,
            @JsonProperty("reference_exit") Integer referenceExit, @JsonProperty("candidate_exit") Integer candidateExit, String pattern,
            long seed, Original original) {}

    /** The JSON report's fields before the cases. */
    record Head(String goal, String execution, String verdict, String worst, long seed, @JsonProperty("seed_given") boolean seedGiven, int count,
            long generated, String comparison, boolean shrink, String shard, Map<String, Long> counts, Map<String, Object> sandbox, long graded,
            long failing) {}
}
