package dev.patchgrade.core.host;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/** The identity of the compiler that built the graded binary: the first line of {@code --version}. */
public final class Toolchain {
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    private Toolchain() {}

    public static String identify(String compiler) {
        return identify(compiler, TIMEOUT);
    }

    static String identify(String compiler, Duration timeout) {
        BoundedCommand.Outcome outcome;
        try {
            outcome = BoundedCommand.run(List.of(compiler, "--version"), null, timeout);
        } catch (IOException e) {
            throw new PatchgradeException(ErrorName.TOOLCHAIN_UNAVAILABLE, "cannot run `" + compiler + " --version` (" + e.getMessage()
                    + "); set <compiler> to a compiler on the PATH, such as g++", e);
        }
        if (outcome.exitCode() != 0) {
            throw new PatchgradeException(ErrorName.TOOLCHAIN_UNAVAILABLE, "`" + compiler + " --version` exited "
                    + outcome.exitCode() + "; check the <compiler> parameter");
        }
        return outcome.output().lines().findFirst().orElse("").strip();
    }
}
