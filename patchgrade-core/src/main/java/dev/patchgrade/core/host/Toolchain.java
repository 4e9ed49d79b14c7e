package dev.patchgrade.core.host;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
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
            throw new PatchgradeException(ErrorName.TOOLCHAIN_UNAVAILABLE, shown -> "cannot run `" + compiler + " --version` (" + e.getMessage()
                    + "); set " + shown.setting(Setting.COMPILER) + " to a compiler on the PATH, such as g++", e);
        }
        if (outcome.exitCode() != 0) {
            int exit = outcome.exitCode();
            throw new PatchgradeException(ErrorName.TOOLCHAIN_UNAVAILABLE, shown -> "`" + compiler + " --version` exited " + exit + "; check "
                    + shown.setting(Setting.COMPILER));
        }
        return outcome.output().lines().findFirst().orElse("").strip();
    }
}
