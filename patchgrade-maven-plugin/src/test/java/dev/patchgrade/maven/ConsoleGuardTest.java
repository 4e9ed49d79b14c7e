package dev.patchgrade.maven;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.junit.jupiter.api.Test;

/** Whatever core code hands the console, Maven's log gets no byte a terminal or Jenkins' console would obey. */
class ConsoleGuardTest {
    /** Maven's log as it would reach the console: the lines, in order (gradeLog uses these three levels). */
    static final class Lines extends SystemStreamLog {
        final List<String> lines = new ArrayList<>();

        @Override
        public void debug(CharSequence content) {
            lines.add(String.valueOf(content));
        }

        @Override
        public void info(CharSequence content) {
            lines.add(String.valueOf(content));
        }

        @Override
        public void warn(CharSequence content) {
            lines.add(String.valueOf(content));
        }
    }

    @Test
    void theGradeLogEscapesWhatSlippedThroughCoreCode() {
        DigestMojo mojo = new DigestMojo();
        Lines maven = new Lines();
        mojo.setLog(maven);
        GradeLog log = mojo.gradeLog();
        log.info("a: drift \u001b[1A\u001b[2K\r[INFO] BUILD SUCCESS");
        log.warn("hint: /x\u009b2K\u202e\u2028[INFO] Tests run: 5, Failures: 0");
        log.debug("plain line\nsecond line");

        assertThat(maven.lines).containsExactly(
                "a: drift \\x1b[1A\\x1b[2K\\x0d[INFO] BUILD SUCCESS",
                "hint: /x\\x9b2K\\u202e\\u2028[INFO] Tests run: 5, Failures: 0",
                "plain line\nsecond line");
    }
}
