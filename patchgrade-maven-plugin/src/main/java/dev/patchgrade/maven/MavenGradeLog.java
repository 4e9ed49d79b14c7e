package dev.patchgrade.maven;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.report.ConsoleText;
import org.apache.maven.plugin.logging.Log;

/**
 * The console as core code sees it. Every line goes through {@link ConsoleText#safe}: excerpts of a candidate's
 * output are escaped where they are cut, and this catches any that reach a message some other way, before a
 * terminal or Jenkins' console obeys them.
 */
record MavenGradeLog(Log log, boolean verbose) implements GradeLog {
    @Override
    public void info(String message) {
        log.info(ConsoleText.safe(message));
    }

    @Override
    public void warn(String message) {
        log.warn(ConsoleText.safe(message));
    }

    @Override
    public void debug(String message) {
        log.debug(ConsoleText.safe(message));
    }
}
