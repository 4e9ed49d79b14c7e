package dev.patchgrade.core.envelope;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.util.NameTransformer;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The envelope goal's JSON report as Jackson writes it. The key order is the contract's (SPEC, the ITs
 * and the HTML summary read it), so each record names it; keys that only sometimes say something are
 * left out rather than written as null, the others are written even when null.
 */
final class EnvelopeJson {
    private EnvelopeJson() {}

    @JsonPropertyOrder({"mode", "goal", "execution", "verdict", "worst", "shard", "reasons", "command", "measured", "ceilings", "figures", "timeout_s", "runs",
            "host_differences", "envelope", "sandbox"})
    record Head(String mode, String goal, String execution, String verdict, String worst, String shard, List<String> reasons, List<String> command,
            Measured measured,
            PerCeiling ceilings, List<Figure> figures, @JsonProperty("timeout_s") double timeoutSeconds, List<Run> runs,
            @JsonProperty("host_differences") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> hostDifferences, String envelope,
            Map<String, Object> sandbox) {}

    /**
     * What was measured over all runs: the figure graded for each ceiling, else the smallest any run had.
     *
     * @param countedWallMillis the counted run's wall time, beside the native runs' {@code wall_ms}: what the count cost
     */
    @JsonPropertyOrder({"returncode", "signal", "timed_out", "leftovers", "method", "figures", "instruction_counter", "counted_wall_ms",
            "instructions_problem", "counter_limitation", "cpu_limitation"})
    record Measured(Integer returncode, String signal, @JsonProperty("timed_out") boolean timedOut, int leftovers, String method,
            @JsonUnwrapped PerCeiling figures,
            @JsonProperty("instruction_counter") @JsonInclude(JsonInclude.Include.NON_NULL) String instructionCounter,
            @JsonProperty("counted_wall_ms") @JsonInclude(JsonInclude.Include.NON_NULL) Long countedWallMillis,
            @JsonProperty("instructions_problem") @JsonInclude(JsonInclude.Include.NON_NULL) String instructionsProblem,
            @JsonProperty("counter_limitation") @JsonInclude(JsonInclude.Include.NON_NULL) String counterLimitation,
            @JsonProperty("cpu_limitation") @JsonInclude(JsonInclude.Include.NON_NULL) String cpuLimitation) {}

    /** A graded figure beside its ceiling, so readers (the HTML summary) need not know the key pairs. */
    @JsonPropertyOrder({"ceiling_key", "unit", "measured", "ceiling"})
    record Figure(@JsonProperty("ceiling_key") String ceilingKey, String unit, long measured, Long ceiling) {}

    @JsonPropertyOrder({"returncode", "signal", "timed_out", "output_limit", "leftovers", "figures", "stdout_sha256"})
    record Run(Integer returncode, String signal, @JsonProperty("timed_out") boolean timedOut, @JsonProperty("output_limit") boolean outputLimit,
            int leftovers, @JsonUnwrapped PerCeiling figures, @JsonProperty("stdout_sha256") String stdoutSha256) {}

    /**
     * A figure per ceiling, one key each in {@link Ceiling} order (a null figure written as null), named by
     * {@code name}: the envelope file's keys for ceilings, the measured keys for figures.
     *
     * @param values in {@link Ceiling} order (an {@link java.util.EnumMap})
     */
    @JsonSerialize(using = PerCeilingWriter.class)
    record PerCeiling(Map<Ceiling, Long> values, Function<Ceiling, String> name) {}

    /** Writes a {@link PerCeiling} as an object, or inside its owner's object where the owner unwraps it. */
    static final class PerCeilingWriter extends StdSerializer<PerCeiling> {
        private final boolean unwrapping;

        PerCeilingWriter() {
            this(false);
        }

        private PerCeilingWriter(boolean unwrapping) {
            super(PerCeiling.class);
            this.unwrapping = unwrapping;
        }

        @Override
        public void serialize(PerCeiling figures, JsonGenerator json, SerializerProvider provider) throws IOException {
            if (!unwrapping) {
                json.writeStartObject(figures);
            }
            for (Map.Entry<Ceiling, Long> entry : figures.values().entrySet()) {
                json.writeFieldName(figures.name().apply(entry.getKey()));
                if (entry.getValue() == null) {
                    json.writeNull();
                } else {
                    json.writeNumber(entry.getValue());
                }
            }
            if (!unwrapping) {
                json.writeEndObject();
            }
        }

        @Override
        public boolean isUnwrappingSerializer() {
            return unwrapping;
        }

        @Override
        public JsonSerializer<PerCeiling> unwrappingSerializer(NameTransformer unwrapper) {
            return new PerCeilingWriter(true);
        }
    }
}
