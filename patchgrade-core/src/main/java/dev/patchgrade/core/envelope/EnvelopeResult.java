package dev.patchgrade.core.envelope;

import dev.patchgrade.core.count.InstructionCount;
import java.util.List;

/**
 * What one envelope grade came to: the command's verdict against its ceilings, the one row its reports have.
 *
 * @param caseName the command as the reports show it
 * @param count the counted run's instructions, {@code null} where the envelope sets no such ceiling or the runs were not clean
 * @param seconds how long grading took, the case's and the suite's time
 */
record EnvelopeResult(String caseName, List<String> command, Envelope envelope, EnvelopeVerdict verdict, InstructionCount count, double seconds) {
    EnvelopeResult {
        command = List.copyOf(command);
    }

    /** The report's failure type: the first reason, not "reject". */
    String worst() {
        return verdict.accepted() ? verdict.verdict() : verdict.reasons().get(0);
    }
}
