package dev.patchgrade.core.digest;

import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.digest.DigestGoal.Options;
import dev.patchgrade.core.grade.CaseReporter;
import dev.patchgrade.core.report.JsonReports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The candidate digests of a digest execution ({@code cand/<executionId>/}): the candidate's tuple of each case
 * worth looking at (a failing one, or every one with keepAll), in the gold's own format, to compare or to adopt.
 */
final class CandidateDigests implements CaseReporter<DigestRow, DigestResult> {
    private final Options options;
    private final Path directory;
    private final String toolchain;
    private final TimeBasis timeBasis;

    private CandidateDigests(Options options, String toolchain, TimeBasis timeBasis) {
        this.options = options;
        this.directory = DigestGoal.candidateDirectory(options.settings());
        this.toolchain = toolchain;
        this.timeBasis = timeBasis;
    }

    /**
     * Before the first case runs: the candidate digests and kept streams of an earlier grade go, so only this grade's are there.
     *
     * @param toolchain the gold's, which the digests name
     * @param timeBasis what the gold's times measure, {@code null} where time buckets are off
     */
    static CandidateDigests cleared(Options options, String toolchain, TimeBasis timeBasis) {
        CandidateDigests digests = new CandidateDigests(options, toolchain, timeBasis);
        for (Path old : List.of(digests.directory, options.settings().streamsDirectory())) {
            try {
                if (Files.exists(old)) {
                    GoldStore.deleteTree(old);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot clear " + old, e);
            }
        }
        return digests;
    }

    @Override
    public void row(DigestRow row) {
        if (!row.keeps(options.run().keepAll())) {
            return;
        }
        DigestTuple tuple = row.candidate();
        try {
            Files.createDirectories(directory);
            Files.writeString(directory.resolve(SafeNames.jsonFile(tuple.caseId())),
                    JsonReports.MAPPER.writeValueAsString(GoldFile.json(tuple, toolchain, options.normalize(), null, timeBasis)) + "\n",
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the candidate digest of " + CasesFile.printable(tuple.caseId()) + " in " + directory, e);
        }
    }

    @Override
    public void finish(DigestResult result) {}
}
