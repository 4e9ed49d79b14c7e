package dev.patchgrade.core;

import java.util.Locale;

/**
 * Every error a goal can stop with, by the name reports and messages give it ({@code <error type=..>},
 * the JSON {@code error.type}, the first word of a build error). The names SPEC fixes are spelled as SPEC
 * spells them; one failure has one name.
 */
public enum ErrorName {
    /** A POM parameter that cannot be used as given. */
    BAD_PARAMETER,
    /** A case that cannot be run as written (its directory, its arguments). */
    BAD_CASE,
    /** The known-good command did not give a baseline to record. */
    BASELINE_FAILED,
    /** Another build of the project holds the lock. SPEC. */
    BUILD_IN_PROGRESS,
    /** Cases present on one side only. SPEC. */
    CASE_SET_DRIFT,
    /** A command that could not be started: missing, not executable, no recognised format. SPEC (Launcher). */
    COULD_NOT_START,
    /** The envelope's instructions were counted with another counter. SPEC. */
    COUNTER_DRIFT,
    COUNTER_UNAVAILABLE,
    /** A differential grade's generator could not start, failed or ran out of time. */
    GENERATOR_FAILED,
    /** The generator printed other cases when run again with the same seed. */
    GENERATOR_NOT_DETERMINISTIC,
    INTERRUPTED,
    /** The launcher stopped or died mid-run. SPEC. */
    LAUNCHER_FAILED,
    MALFORMED_CASES,
    MALFORMED_ENVELOPE,
    /** A line of a generator's output that is no case: bad JSON, a missing key, an id given twice. */
    MALFORMED_GENERATED_CASES,
    MALFORMED_GOLD,
    MALFORMED_SIDECAR,
    MISSING_CASES,
    MISSING_ENVELOPE,
    MISSING_EXPECTED_STDOUT,
    MISSING_GOLD,
    /** The coverage build left no coverage data: no {@code .gcda} from its runs, or no {@code .gcno} beside its objects. */
    NO_COVERAGE_DATA,
    /** gcov could not read the coverage data (another compiler's, another build's). */
    COVERAGE_UNREADABLE,
    /** {@code patch-coverage}'s sources are not in a git work tree. */
    NOT_A_WORK_TREE,
    NORMALIZE_DRIFT,
    /** An oracle file changed while the goal ran. SPEC. */
    ORACLE_TAMPERED,
    /** An oracle file (the reference binary among them) that cannot be read. */
    ORACLE_UNREADABLE,
    OUTPUT_TAMPERED,
    /** The reference binary is not the frozen one. SPEC. */
    REFERENCE_IDENTITY_DRIFT,
    /** A recording goal would overwrite an oracle without {@code force}. */
    REFUSED_OVERWRITE,
    /** {@code sandbox=required} where the kernel refuses it. SPEC. */
    SANDBOX_UNAVAILABLE,
    /** The gold was recorded with another compiler. SPEC. */
    TOOLCHAIN_DRIFT,
    TOOLCHAIN_UNAVAILABLE,
    /** A host tool a goal needs ({@code git}, {@code gcov}) cannot run. */
    TOOL_UNAVAILABLE,
    /** A defect of patchgrade's own. */
    UNEXPECTED_ERROR,
    /** {@code patch-coverage}'s {@code base} names no revision of the repository. */
    UNKNOWN_BASE,
    /** A ceiling that cannot be measured here. */
    UNMEASURABLE_CEILING,
    UNREADABLE_REPORT,
    /** A report, oracle, scratch or lock file that cannot be written. */
    WRITE_FAILED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return wireName();
    }
}
