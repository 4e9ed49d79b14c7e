package dev.patchgrade.maven;

import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.count.CounterMode;
import dev.patchgrade.core.envelope.EnvelopeGoal;
import dev.patchgrade.core.envelope.HostCheck;
import dev.patchgrade.core.grade.GoalSettings;
import java.io.File;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Grades one command against a committed resource envelope: peak RSS, CPU, wall time and the other
 * ceilings the file holds. A run over any ceiling fails the build even when its stdout is right.
 */
@Mojo(name = "envelope", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true)
public class EnvelopeMojo extends AbstractGradingMojo {

    /** The committed envelope file (JSON: cmd, timeout_s, max_rss_kb, max_user_us, notes, optional ceilings). */
    @Parameter(property = "patchgrade.envelope", defaultValue = "${project.basedir}/src/test/patchgrade/envelope.json", required = true)
    private File envelope;

    /** The command to grade, executable first: {@code <command><arg>path</arg><arg>mode</arg></command>}. Defaults to the envelope's cmd. */
    @Parameter
    private List<String> command;

    /** A file holding the exact stdout the command must print; a difference is reason {@code stdout}. */
    @Parameter(property = "patchgrade.expectStdout")
    private File expectStdout;

    /** How many times to run the command; each figure graded is the minimum over the runs. */
    @Parameter(property = "patchgrade.runs", defaultValue = "1")
    private int runs;

    /** What a different host class or toolchain than the recorded one does: fail, warn or ignore. */
    @Parameter(property = "patchgrade.hostCheck", defaultValue = "fail")
    private String hostCheck;

    /** A name for this machine's class that overrides the detected one (os, arch, CPU model, cores). */
    @Parameter(property = "patchgrade.hostClass")
    private String hostClass;

    /** The compiler that built the binary (e.g. g++); the first line of its --version is compared with the recorded toolchain. */
    @Parameter(property = "patchgrade.compiler")
    private String compiler;

    /** Form K/N: the envelope is graded on the one shard its execution id hashes to, so N agents grade it once. */
    @Parameter(property = "patchgrade.shard")
    private String shard;

    /**
     * What counts instructions when the envelope holds max_instructions: auto (the recorded counter where it is
     * available, else hardware counters, else valgrind), perf, valgrind or none. Another counter than the recorded
     * one is error counter_drift; a ceiling nothing here can count is an error, never a pass.
     */
    @Parameter(property = "patchgrade.instructionCounter", defaultValue = "auto")
    private String instructionCounter;

    @Override
    protected String goal() {
        return "envelope";
    }

    @Override
    protected void executeGoal(GoalSettings settings) throws MojoExecutionException, MojoFailureException {
        conclude(settings, EnvelopeGoal.grade(EnvelopeGoal.grading(settings)
                .envelope(path(envelope))
                .command(list("command", command))
                .expectStdout(path(expectStdout))
                .runs(runs)
                .hostCheck(HostCheck.parse(hostCheck))
                .hostClass(hostClass)
                .compiler(compiler)
                .shard(Shard.parse(shard))
                .instructionCounter(CounterMode.parse(instructionCounter))
                .build(), gradeLog()));
    }
}
