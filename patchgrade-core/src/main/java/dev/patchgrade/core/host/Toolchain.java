package dev.patchgrade.core.host;

import dev.patchgrade.core.PatchgradeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The identity of the compiler that built the graded binary: the first line of {@code --version}. */
public final class Toolchain {
    private Toolchain() {}

    public static String identify(String compiler) {
        try {
            Process process = new ProcessBuilder(List.of(compiler, "--version")).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new PatchgradeException("toolchain_unavailable", "`" + compiler + " --version` did not answer in 30 s");
            }
            if (process.exitValue() != 0) {
                throw new PatchgradeException("toolchain_unavailable", "`" + compiler + " --version` exited "
                        + process.exitValue() + "; check the <compiler> parameter");
            }
            return output.lines().findFirst().orElse("").strip();
        } catch (IOException e) {
            throw new PatchgradeException("toolchain_unavailable", "cannot run `" + compiler + " --version` (" + e.getMessage()
                    + "); set <compiler> to a compiler on the PATH, such as g++", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PatchgradeException("toolchain_unavailable", "interrupted while asking " + compiler + " for its version", e);
        }
    }
}
