package dev.patchgrade.maven;

import dev.patchgrade.core.count.CounterMode;
import dev.patchgrade.core.envelope.EnvelopeGoal;
import dev.patchgrade.core.envelope.Slack;
import dev.patchgrade.core.grade.GoalSettings;
import java.io.File;
import java.util.List;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Measures a known-good command and writes the envelope: each ceiling is the measured figure plus
 * the slack, all of it written into the file. Refuses to overwrite an existing envelope unless
 * {@code force} is set.
 */
@Mojo(name = "record-envelope", threadSafe = true)
public class RecordEnvelopeMojo extends AbstractPatchgradeMojo {

    /** The envelope file to write. */
    @Parameter(property = "patchgrade.envelope", defaultValue = "${project.basedir}/src/test/patchgrade/envelope.json", required = true)
    private File envelope;

    /** The known-good command, executable first. */
    @Parameter(required = true)
    private List<String> command;

    /** Wall-clock cap per run in seconds; written as the envelope's timeout_s. */
    @Parameter(property = "patchgrade.timeout", defaultValue = "5")
    private int timeout;

    /** Baseline runs; the worst figure of each is recorded. */
    @Parameter(property = "patchgrade.runs", defaultValue = "1")
    private int runs;

    /** Percent added to the measured peak RSS. */
    @Parameter(property = "patchgrade.rssSlackPercent", defaultValue = "30")
    private int rssSlackPercent;

    /** Kilobytes added to the peak RSS after the percentage. */
    @Parameter(property = "patchgrade.rssSlackKb", defaultValue = "1024")
    private long rssSlackKb;

    /** Percent added to the measured user CPU time and to the measured system CPU time. */
    @Parameter(property = "patchgrade.cpuSlackPercent", defaultValue = "50")
    private int cpuSlackPercent;

    /** Microseconds added to the user and to the system CPU time after the percentage. */
    @Parameter(property = "patchgrade.cpuSlackUs", defaultValue = "50000")
    private long cpuSlackUs;

    /** Overwrite an existing envelope. */
    @Parameter(property = "patchgrade.force", defaultValue = "false")
    private boolean force;

    /** The compiler that built the binary (e.g. g++); the first line of its --version is written as the toolchain. */
    @Parameter(property = "patchgrade.compiler")
    private String compiler;

    /** A name for this machine's class that overrides the detected one. */
    @Parameter(property = "patchgrade.hostClass")
    private String hostClass;

    /**
     * What counts instructions for {@code max_instructions}: auto (hardware counters where the kernel allows, else
     * valgrind when it is on PATH, else none is recorded), perf, valgrind or none.
     */
    @Parameter(property = "patchgrade.instructionCounter", defaultValue = "auto")
    private String instructionCounter;

    /** Percent added to the counted instructions: max_instructions = measured * (1 + percent/100). */
    @Parameter(property = "patchgrade.instructionSlackPercent", defaultValue = "2")
    private int instructionSlackPercent;

    @Override
    protected String goal() {
        return "record-envelope";
    }

    @Override
    protected void executeGoal(GoalSettings settings) {
        EnvelopeGoal.record(EnvelopeGoal.recording(settings)
                .envelope(path(envelope))
                .command(list("command", command))
                .timeoutSeconds(timeout)
                .slack(new Slack(rssSlackPercent, rssSlackKb, cpuSlackPercent, cpuSlackUs))
                .force(force)
                .compiler(compiler)
                .runs(runs)
                .hostClass(hostClass)
                .instructionCounter(CounterMode.parse(instructionCounter))
                .instructionSlackPercent(instructionSlackPercent)
                .build(), gradeLog());
    }
}
