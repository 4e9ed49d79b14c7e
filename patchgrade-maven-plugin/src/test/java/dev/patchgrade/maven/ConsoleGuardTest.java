package dev.patchgrade.maven;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.logging.Log;
import org.junit.jupiter.api.Test;

/** Whatever core code hands the console, Maven's log gets no byte a terminal or Jenkins' console would obey. */
class ConsoleGuardTest {
    /** Maven's log as it would reach the console: every line given to any level, in order. */
    private static Log recording(List<String> lines) {
        return (Log) Proxy.newProxyInstance(Log.class.getClassLoader(), new Class<?>[] {Log.class}, (proxy, method, arguments) -> {
            if (arguments != null && arguments.length >= 1 && arguments[0] instanceof CharSequence content) {
                lines.add(String.valueOf(content));
            }
            return method.getReturnType() == boolean.class ? Boolean.TRUE : null;
        });
    }

    @Test
    void theGradeLogEscapesWhatSlippedThroughCoreCode() {
        DigestMojo mojo = new DigestMojo();
        List<String> maven = new ArrayList<>();
        mojo.setLog(recording(maven));
        GradeLog log = mojo.gradeLog();
        log.info("a: drift \u001b[1A\u001b[2K\r[INFO] BUILD SUCCESS");
        log.warn("hint: /x\u009b2K\u202e\u2028[INFO] Tests run: 5, Failures: 0");
        log.debug("plain line\nsecond line");

        assertThat(maven).containsExactly(
                "a: drift \\x1b[1A\\x1b[2K\\x0d[INFO] BUILD SUCCESS",
                "hint: /x\\x9b2K\\u202e\\u2028[INFO] Tests run: 5, Failures: 0",
                "plain line\nsecond line");
    }
}
