package dev.patchgrade.core.grade;

import dev.patchgrade.core.cases.Shard;
import java.nio.file.Path;

/**
 * How a goal runs what it grades or records, named and defaulted the same in every goal: which cases, which
 * shard, how many at once, for how long, and what may be replaced. A goal reads the ones it has a parameter
 * for (the envelope runs no cases file); the others keep their defaults.
 *
 * @param cases the cases file
 * @param shard the shard this execution runs, {@link Shard#ALL} by default
 * @param parallel cases run at once, by default one per core
 * @param timeoutSeconds the wall-clock cap of one run
 * @param compiler the compiler that built the binary, whose version is recorded with the oracle and compared when grading;
 *     {@code null} checks none
 * @param force replace an oracle that exists
 * @param keepAll keep the full streams of every case, not only of those worth looking at
 */
public record RunSettings(Path cases, Shard shard, int parallel, int timeoutSeconds, String compiler, boolean force, boolean keepAll) {
    public static final int DEFAULT_TIMEOUT_SECONDS = 5;

    public RunSettings {
        shard = shard == null ? Shard.ALL : shard;
    }

    /** The same, keeping the streams of every case or not. */
    public RunSettings keepingAll(boolean all) {
        return new RunSettings(cases, shard, parallel, timeoutSeconds, compiler, force, all);
    }

    /**
     * A goal's options builder: the setters every goal shares are here once, a goal's own in its subclass
     * ({@code B}), and each returns the subclass so the calls chain in any order.
     */
    public abstract static class Builder<B extends Builder<B>> {
        protected final GoalSettings settings;
        private Path cases;
        private Shard shard = Shard.ALL;
        private int parallel = Runtime.getRuntime().availableProcessors();
        private int timeoutSeconds = DEFAULT_TIMEOUT_SECONDS;
        private String compiler;
        private boolean force;
        private boolean keepAll;

        protected Builder(GoalSettings settings) {
            this.settings = settings;
        }

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }

        public B cases(Path value) {
            cases = value;
            return self();
        }

        public B shard(Shard value) {
            shard = value;
            return self();
        }

        public B parallel(int value) {
            parallel = value;
            return self();
        }

        public B timeoutSeconds(int value) {
            timeoutSeconds = value;
            return self();
        }

        public B compiler(String value) {
            compiler = value;
            return self();
        }

        public B force(boolean value) {
            force = value;
            return self();
        }

        public B keepAll(boolean value) {
            keepAll = value;
            return self();
        }

        /** All the shared settings at once, as another goal or execution has them. */
        public B run(RunSettings value) {
            cases = value.cases();
            shard = value.shard();
            parallel = value.parallel();
            timeoutSeconds = value.timeoutSeconds();
            compiler = value.compiler();
            force = value.force();
            keepAll = value.keepAll();
            return self();
        }

        /** The shared settings as given so far. */
        protected RunSettings run() {
            return new RunSettings(cases, shard, parallel, timeoutSeconds, compiler, force, keepAll);
        }
    }
}
