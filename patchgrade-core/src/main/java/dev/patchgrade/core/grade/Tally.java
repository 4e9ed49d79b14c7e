package dev.patchgrade.core.grade;

/**
 * What a goal counts of its rows as they finish: counters, the worst outcome and the first few failures, never
 * the rows; no formatting but the failure lines the build's message lists.
 *
 * @param <R> what grading one case gives
 * @param <T> the execution's result, which every reporter reads at the end
 */
public interface Tally<R, T extends Tally.Result> {
    void add(R row);

    /** What the rows added so far come to. */
    T result();

    /** A goal's result of one execution, which also tells the caller how the execution ended. */
    interface Result {
        GoalResult goalResult();
    }
}
