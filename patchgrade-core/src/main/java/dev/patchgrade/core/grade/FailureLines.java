package dev.patchgrade.core.grade;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** The first {@link GoalResult#LINES_KEPT} failure lines of an execution and how many failed in all: the build's message, in bounded memory. */
public final class FailureLines {
    private final List<String> kept = new ArrayList<>();
    private long count;

    /** One more failure; its line is made only while lines are still kept. */
    public void add(Supplier<String> line) {
        count++;
        if (kept.size() < GoalResult.LINES_KEPT) {
            kept.add(line.get());
        }
    }

    public List<String> kept() {
        return List.copyOf(kept);
    }

    public long count() {
        return count;
    }
}
