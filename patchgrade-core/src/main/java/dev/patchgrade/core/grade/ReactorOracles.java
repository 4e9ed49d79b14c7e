package dev.patchgrade.core.grade;

import java.nio.file.Path;
import java.util.List;

/**
 * What one reading of the build's modules found that a run must not see.
 *
 * @param oracles the oracle files of every execution of this module and of every other module, with the other
 *     modules' reports and kept streams
 * @param outputDirectories where the goals of every module write what holds the goldens: created before a
 *     launcher opens, since the sandbox can hide only what exists
 */
public record ReactorOracles(List<Path> oracles, List<Path> outputDirectories) {
    public ReactorOracles {
        oracles = oracles == null ? List.of() : List.copyOf(oracles);
        outputDirectories = outputDirectories == null ? List.of() : List.copyOf(outputDirectories);
    }
}
