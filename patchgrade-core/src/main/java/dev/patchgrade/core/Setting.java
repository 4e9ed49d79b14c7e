package dev.patchgrade.core;

/**
 * A setting of a goal as the core names it: the parameter, and the user property where it has one. How a
 * person gives it (a POM element, a {@code -D} flag) is the build tool's to say: see {@link Suggestions}.
 *
 * @param parameter the goal parameter, or {@code null} for a system property that no goal declares; a part of a
 *     structured parameter is its dotted path ({@code normalize.rule})
 * @param property the user property, or {@code null} for a parameter that has none
 */
public record Setting(String parameter, String property) {
    public static final Setting FORCE = new Setting("force", "patchgrade.force");
    public static final Setting VERBOSE = new Setting("verbose", "patchgrade.verbose");
    public static final Setting INSTRUCTION_COUNTER = new Setting("instructionCounter", "patchgrade.instructionCounter");
    public static final Setting PARALLEL = new Setting("parallel", "patchgrade.parallel");
    public static final Setting TIMEOUT = new Setting("timeout", "patchgrade.timeout");
    public static final Setting RUNS = new Setting("runs", "patchgrade.runs");
    public static final Setting RSS_SLACK_PERCENT = new Setting("rssSlackPercent", "patchgrade.rssSlackPercent");
    public static final Setting RSS_SLACK_KB = new Setting("rssSlackKb", "patchgrade.rssSlackKb");
    public static final Setting CPU_SLACK_PERCENT = new Setting("cpuSlackPercent", "patchgrade.cpuSlackPercent");
    public static final Setting CPU_SLACK_US = new Setting("cpuSlackUs", "patchgrade.cpuSlackUs");
    public static final Setting SHARD = new Setting("shard", "patchgrade.shard");
    public static final Setting CASES = new Setting("cases", "patchgrade.cases");
    public static final Setting GOLD = new Setting("gold", "patchgrade.gold");
    public static final Setting ENVELOPE = new Setting("envelope", "patchgrade.envelope");
    public static final Setting EXPECT_STDOUT = new Setting("expectStdout", "patchgrade.expectStdout");
    public static final Setting COMPARISON = new Setting("comparison", "patchgrade.comparison");
    public static final Setting SEED = new Setting("seed", "patchgrade.seed");
    public static final Setting COUNT = new Setting("count", "patchgrade.count");
    public static final Setting SHRINK = new Setting("shrink", "patchgrade.shrink");
    public static final Setting GENERATOR = parameter("generator");
    public static final Setting COMPILER = new Setting("compiler", "patchgrade.compiler");
    public static final Setting SANITIZER = new Setting("sanitizer", "patchgrade.sanitizer");
    public static final Setting HOST_CHECK = new Setting("hostCheck", "patchgrade.hostCheck");
    public static final Setting TIME_BUCKETS = new Setting("timeBuckets", "patchgrade.timeBuckets");
    public static final Setting TIME_BUCKET_SLACK = new Setting("timeBucketSlack", "patchgrade.timeBucketSlack");
    public static final Setting TIME_BUCKET_RERUNS = new Setting("timeBucketReruns", "patchgrade.timeBucketReruns");
    public static final Setting TIME_BASIS = new Setting("timeBasis", "patchgrade.timeBasis");
    public static final Setting TIME_SAMPLES = new Setting("timeSamples", "patchgrade.timeSamples");
    public static final Setting GOLD_EXCERPT_BYTES = new Setting("goldExcerptBytes", "patchgrade.goldExcerptBytes");
    public static final Setting INSTRUCTION_SLACK_PERCENT = new Setting("instructionSlackPercent", "patchgrade.instructionSlackPercent");
    public static final Setting BASE = new Setting("base", "patchgrade.base");
    public static final Setting MINIMUM_PERCENT = new Setting("minimumPercent", "patchgrade.minimumPercent");
    public static final Setting SOURCE_ROOT = parameter("sourceRoot");
    public static final Setting GCOV = parameter("gcov");
    public static final Setting COMMAND = parameter("command");
    public static final Setting REFERENCE = parameter("reference");
    public static final Setting CANDIDATE = parameter("candidate");
    public static final Setting REFERENCE_HOME = parameter("referenceHome");
    public static final Setting ENVIRONMENT = parameter("environment");
    public static final Setting WORKING_DIRECTORY = parameter("workingDirectory");
    public static final Setting NORMALIZE = parameter("normalize");
    public static final Setting NORMALIZE_RULE = parameter("normalize.rule");
    public static final Setting NORMALIZE_PATTERN = parameter("normalize.pattern");
    public static final Setting NORMALIZE_REPLACEMENT = parameter("normalize.replacement");
    public static final Setting HIDDEN_PATHS = parameter("hiddenPaths");
    public static final Setting READ_ONLY_PATHS = parameter("readOnlyPaths");
    public static final Setting WRITABLE_PATHS = parameter("writablePaths");
    public static final Setting SANDBOX = new Setting("sandbox", "patchgrade.sandbox");
    /** Read by the launcher from the JVM, not by a goal: every goal of the build shares the one cache. */
    public static final Setting CACHE_DIR = systemProperty("patchgrade.cacheDir");
    /** Read by the launcher from the JVM too: where its scratch directories for child output are made. */
    public static final Setting SCRATCH = systemProperty("patchgrade.scratch");

    /** A parameter given only in the build file ({@code command}, {@code reference}, ...). */
    public static Setting parameter(String name) {
        return new Setting(name, null);
    }

    /** A system property of the JVM that runs the goals, set on the command line only. */
    public static Setting systemProperty(String name) {
        return new Setting(null, name);
    }

    /** The name a person reads: the parameter, or for a system property the property. */
    public String name() {
        return parameter != null ? parameter : property;
    }

    /** This setting with a value, for a command to run. */
    public Value is(String value) {
        return new Value(this, value);
    }

    public record Value(Setting setting, String value) {}
}
