package dev.patchgrade.core.launch;

import java.time.Duration;

/**
 * What tests change about how helpers start and how long the JVM waits for their answers. Not a setting: as system
 * properties, any {@code -D} or {@code .mvn/jvm.config} could have started the helper through a command of its
 * choosing, or shortened the wait for every answer.
 */
final class HelperTestHooks {
    /** Beyond a run's own timeout and grace, how long the JVM waits for the helper's answer. */
    private static final Duration ANSWER_MARGIN = Duration.ofSeconds(10);

    private static volatile String wrapper = "";
    private static volatile boolean denyUserNamespaces;
    private static volatile Duration answerMargin = ANSWER_MARGIN;

    private HelperTestHooks() {}

    /** New helpers start through {@code command} (e.g. {@code setpriv --reuid=65534 ...}, to see what a non-root user gets); blank: directly. */
    static void startHelpersThrough(String command) {
        wrapper = command == null ? "" : command;
    }

    static String wrapper() {
        return wrapper;
    }

    /** New helpers behave as on a kernel that refuses user namespaces. */
    static void denyUserNamespaces(boolean deny) {
        denyUserNamespaces = deny;
    }

    static boolean userNamespacesDenied() {
        return denyUserNamespaces;
    }

    /** How long past a run's timeout and grace the JVM waits for its answer; {@code null}: the default. */
    static void answerMargin(Duration margin) {
        answerMargin = margin == null ? ANSWER_MARGIN : margin;
    }

    static Duration answerMargin() {
        return answerMargin;
    }
}
