package dev.patchgrade.core.report;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Real consumers installed from Debian packages by .ci/run. On CI they must be there; on a
 * developer's machine without them the test is skipped with a note on how to install them.
 */
final class ExternalTools {
    private ExternalTools() {}

    static void require(boolean present, String what, String install) {
        if (!present && System.getenv("CI") != null) {
            throw new AssertionError(what + " is missing on CI; .ci/run should have installed it (" + install + ")");
        }
        assumeTrue(present, what + " is not installed here (" + install + ")");
    }

    static boolean junitparser() {
        try {
            Process process = new ProcessBuilder("/usr/bin/python3", "-c", "import junitparser").redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    static Path chromium() {
        for (String candidate : new String[] {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
            if (Files.isExecutable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        return null;
    }
}
