package dev.patchgrade.core.grade;

import dev.patchgrade.core.GradeLog;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The log of launchers opened beside the reading of the oracles: what they say (the sandbox refused, CPU figures
 * incomplete) is held until the grade goes on to run cases, and dropped if it stops before, as it was never said
 * when the launchers opened after the oracles were read. Once released, messages pass straight through.
 */
final class DeferredLog implements GradeLog {
    private final GradeLog target;
    private final List<Consumer<GradeLog>> held = new ArrayList<>();
    private boolean released;

    DeferredLog(GradeLog target) {
        this.target = target;
    }

    @Override
    public void info(String message) {
        say(log -> log.info(message));
    }

    @Override
    public void warn(String message) {
        say(log -> log.warn(message));
    }

    @Override
    public void debug(String message) {
        say(log -> log.debug(message));
    }

    @Override
    public boolean verbose() {
        return target.verbose();
    }

    private synchronized void say(Consumer<GradeLog> message) {
        if (released) {
            message.accept(target);
        } else {
            held.add(message);
        }
    }

    /** Says what was held, in order; from now on messages go straight to the target. */
    synchronized void release() {
        released = true;
        held.forEach(message -> message.accept(target));
        held.clear();
    }
}
