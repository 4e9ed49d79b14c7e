package dev.patchgrade.maven;

import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.classify.Comparison;
import dev.patchgrade.core.differential.DifferentialGoal;
import dev.patchgrade.core.differential.Seed;
import dev.patchgrade.core.grade.CaseRunner;
import dev.patchgrade.core.grade.GoalSettings;
import java.io.File;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Grades the candidate against the frozen reference on inputs a generator makes for this build: the seed is new
 * for every build unless given, printed and kept in the reports. Only stdout and the exit status are compared;
 * every differing case is cut down by delta debugging before it is reported. For patches that must not change
 * behaviour (refactors, "make it faster"): a candidate that answers only the committed cases fails here.
 */
@Mojo(name = "differential", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class DifferentialMojo extends AbstractGradingMojo {

    /** The frozen reference command, executable first. */
    @Parameter(required = true)
    private List<String> reference;

    /** The candidate command, executable first. */
    @Parameter(required = true)
    private List<String> candidate;

    /** The reference's SHA-256 sidecar, in sha256sum format (see freeze-reference); checked before anything runs. */
    @Parameter(property = "patchgrade.referenceDigest", defaultValue = "${project.basedir}/src/test/patchgrade/reference.sha256", required = true)
    private File referenceDigest;

    /**
     * Where the reference lives: shown to its runs, hidden from the candidate's and the generator's. By default its
     * executable's directory, or the install prefix above it where that directory is {@code bin}.
     */
    @Parameter
    private File referenceHome;

    /**
     * The command that prints the cases, executable first: JSON Lines of id, args and optional stdin on stdout, the
     * same for the same PATCHGRADE_SEED; PATCHGRADE_COUNT says how many.
     */
    @Parameter(required = true)
    private List<String> generator;

    /** How many cases to ask the generator for (PATCHGRADE_COUNT). */
    @Parameter(property = "patchgrade.count", defaultValue = "200")
    private int count;

    /**
     * The seed (PATCHGRADE_SEED): by default a new one for every build, shared by its differential executions and
     * printed, so that -Dpatchgrade.seed=N grades the same cases again.
     */
    @Parameter(property = "patchgrade.seed")
    private String seed;

    /** The equality rule for stdout: trim, exact, ulp:N or abs:EPS. */
    @Parameter(property = "patchgrade.comparison", defaultValue = "trim")
    private String comparison;

    /** Wall-clock cap per binary and case, in seconds. */
    @Parameter(property = "patchgrade.timeout", defaultValue = "5")
    private int timeout;

    /** Cases run at once; defaults to the number of cores. */
    @Parameter(property = "patchgrade.parallel")
    private Integer parallel;

    /** Cut each differing case down (arguments and stdin, by delta debugging) while the two still differ: at most 200 extra run pairs a case. */
    @Parameter(property = "patchgrade.shrink", defaultValue = "true")
    private boolean shrink;

    /** Run only shard K of N (form K/N): the generated cases whose id hashes to K. Give every shard the same seed. */
    @Parameter(property = "patchgrade.shard")
    private String shard;

    /** Keep the full output streams of every case under target/patchgrade/streams, not only of the cases that did not pass. */
    @Parameter(property = "patchgrade.keepAll", defaultValue = "false")
    private boolean keepAll;

    @Parameter(defaultValue = "${session}", readonly = true)
    private MavenSession session;

    /**
     * The seed each build drew, by build: every differential execution of a build (every module of a reactor) grades
     * with the same seed, so that the one flag the console prints reproduces all of them.
     */
    private static final Map<Object, Seed> DRAWN = Collections.synchronizedMap(new WeakHashMap<>());

    @Override
    protected String goal() {
        return "differential";
    }

    /** The configured seed, or the one this build drew. */
    private Seed seed() {
        Seed configured = Seed.parse(seed);
        if (configured != null || session == null || session.getRequest() == null) {
            return configured;
        }
        return DRAWN.computeIfAbsent(session.getRequest(), build -> Seed.draw());
    }

    @Override
    protected void executeGoal(GoalSettings settings) throws MojoExecutionException, MojoFailureException {
        conclude(settings, DifferentialGoal.grade(DifferentialGoal.builder(settings)
                .reference(list("reference", reference))
                .candidate(list("candidate", candidate))
                .referenceDigest(path(referenceDigest))
                .referenceHome(path(referenceHome))
                .generator(list("generator", generator))
                .count(count)
                .seed(seed())
                .comparison(Comparison.parse(comparison))
                .timeoutSeconds(timeout)
                .parallel(CaseRunner.workers(parallel))
                .shrink(shrink)
                .shard(Shard.parse(shard))
                .keepAll(keepAll)
                .build(), gradeLog()));
    }
}
