package dev.patchgrade.core.classify;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.patchgrade.core.launch.LaunchResult;

/** One binary's run on a case in a JSON report of the three-column and differential goals (SPEC: report files). */
public record SideJson(Integer exit, String signal, @JsonProperty("timed_out") boolean timedOut, String stdout,
        @JsonProperty("stdout_complete") boolean stdoutComplete, String stderr, @JsonProperty("stdout_file") String stdoutFile) {
    /** @param kept whether the run's full stdout is kept as a file for people to look at */
    public static SideJson of(LaunchResult result, boolean kept) {
        return new SideJson(result.exitCode(), result.signal(), result.timedOut(), result.stdout().excerpt(), result.stdout().complete(),
                result.stderr().excerpt(), kept && result.stdout().file() != null ? result.stdout().file().toString() : null);
    }
}
