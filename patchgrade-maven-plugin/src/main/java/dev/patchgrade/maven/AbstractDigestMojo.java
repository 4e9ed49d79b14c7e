package dev.patchgrade.maven;

import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.digest.DigestGoal;
import dev.patchgrade.core.digest.NormalizeRule;
import dev.patchgrade.core.digest.Sanitizer;
import dev.patchgrade.core.digest.TimeBasis;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.grade.CaseRunner;
import dev.patchgrade.core.grade.GoalSettings;
import java.io.File;
import java.util.List;
import org.apache.maven.plugins.annotations.Parameter;

/** The parameters {@code record-digest} and {@code digest} share: the same cases must be run the same way. */
public abstract class AbstractDigestMojo extends AbstractPatchgradeMojo {

    /** The cases: plain text (one argument a line) or JSON Lines ({@code .jsonl}: id, args, optional stdin). */
    @Parameter(property = "patchgrade.cases", defaultValue = "${project.basedir}/src/test/patchgrade/cases.txt", required = true)
    private File cases;

    /** The gold digest directory, one JSON file per case. Use one directory per binary (plain, ubsan, asan). */
    @Parameter(property = "patchgrade.gold", defaultValue = "${project.basedir}/src/test/patchgrade/gold", required = true)
    private File gold;

    /** The binary to run for every case, executable first; the case arguments are appended. */
    @Parameter(required = true)
    private List<String> command;

    /** What the binary was built with: none, ubsan, asan or asan+ubsan. Sanitizer runs get UBSAN_OPTIONS/ASAN_OPTIONS unless set. */
    @Parameter(property = "patchgrade.sanitizer", defaultValue = "none")
    private String sanitizer;

    /** Wall-clock cap per case, in seconds. */
    @Parameter(property = "patchgrade.timeout", defaultValue = "5")
    private int timeout;

    /**
     * Increasing millisecond cutoffs of the time buckets: 50,500,5000 gives lt_50ms, lt_500ms, lt_5s, gt_5s;
     * {@code off} records and grades no time at all.
     */
    @Parameter(property = "patchgrade.timeBuckets", defaultValue = TimeBuckets.DEFAULT)
    private String timeBuckets;

    /**
     * What a time bucket measures: {@code cpu} (user + system CPU time of the case's whole process tree, which a busy
     * machine hardly moves) or {@code wall}. record-digest writes it with the gold as {@code time_basis}; digest grades
     * a gold's times on the basis they were recorded on, and warns where that is not this one. The timeout is wall time.
     */
    @Parameter(property = "patchgrade.timeBasis", defaultValue = TimeBasis.DEFAULT)
    private String timeBasis;

    /** Reruns of a case whose only drift is its time bucket; it fails only if it stays shifted. */
    @Parameter(property = "patchgrade.timeBucketReruns", defaultValue = "3")
    private int timeBucketReruns;

    /** The compiler that built the binary (e.g. g++): its --version is recorded with the gold and must match when grading. */
    @Parameter(property = "patchgrade.compiler")
    private String compiler;

    /**
     * Regex rules applied line by line to stdout and stderr before hashing, for output that churns (addresses, timestamps);
     * {@code <rule>basedir</rule>} replaces the project's absolute base directory with {@code ${basedir}}.
     */
    @Parameter
    private List<Normalize> normalize;

    /** Bytes kept from the start and the end of each recorded stream in the gold, to show a drift as its first differing line (0: none). */
    @Parameter(property = "patchgrade.goldExcerptBytes", defaultValue = "1024")
    private int goldExcerptBytes;

    /** Cases run at once; defaults to the number of cores. */
    @Parameter(property = "patchgrade.parallel")
    private Integer parallel;

    protected DigestGoal.Options options(GoalSettings settings, Shard shard, boolean force) {
        List<NormalizeRule> rules = normalize == null ? List.of()
                : normalize.stream().map(n -> n.getName() == null ? new NormalizeRule(n.getPattern(), n.getReplacement())
                        : NormalizeRule.BASEDIR.equals(n.getName()) ? NormalizeRule.basedir(basedir()) : NormalizeRule.named(n.getName())).toList();
        return DigestGoal.Options.builder(settings)
                .cases(path(cases))
                .gold(path(gold))
                .command(list("command", command))
                .sanitizer(Sanitizer.parse(sanitizer))
                .timeoutSeconds(timeout)
                .buckets(TimeBuckets.parse(timeBuckets))
                .timeBasis(TimeBasis.parse(timeBasis))
                .timeBucketReruns(timeBucketReruns)
                .compiler(compiler)
                .normalize(rules)
                .parallel(CaseRunner.workers(parallel))
                .shard(shard)
                .force(force)
                .timeSamples(timeSamples())
                .timeBucketSlack(timeBucketSlack())
                .goldExcerptBytes(goldExcerptBytes)
                .build();
    }

    /** How many times record-digest times each case; the goals that do not record keep the default. */
    protected int timeSamples() {
        return DigestGoal.DEFAULT_TIME_SAMPLES;
    }

    /** The factor that widens the gold bucket when grading; the goals that do not grade keep the default. */
    protected double timeBucketSlack() {
        return TimeBuckets.DEFAULT_SLACK;
    }
}
