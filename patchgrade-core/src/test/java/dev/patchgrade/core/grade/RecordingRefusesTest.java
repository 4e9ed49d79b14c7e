package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.classify.ThreeColumnGoal;
import dev.patchgrade.core.count.CounterMode;
import dev.patchgrade.core.digest.DigestGoal;
import dev.patchgrade.core.digest.DigestTuple;
import dev.patchgrade.core.digest.GoldWriter;
import dev.patchgrade.core.digest.SanitizerClass;
import dev.patchgrade.core.digest.TimeBuckets;
import dev.patchgrade.core.envelope.EnvelopeGoal;
import dev.patchgrade.core.report.AtomicFiles;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * No recording goal removes or replaces anything without force, whatever is where its output goes: a
 * file, a directory, a symbolic link (to a file, to a directory, to nothing). The refusal names the
 * path and the flag, and leaves what was there byte for byte as it was.
 */
class RecordingRefusesTest {
    @TempDir
    Path dir;

    /** What can be where a recording writes, made at {@code path}; {@code dir} holds whatever a link points at. */
    enum Occupant {
        FILE(path -> write(path, "{\"kept\": true}\n")),
        DIRECTORY(path -> {
            mkdirs(path);
            write(path.resolve("hand.json"), "{\"case\": \"hand\"}\n");
        }),
        EMPTY_DIRECTORY_FOR_A_FILE(RecordingRefusesTest::mkdirs),
        LINK_TO_A_FILE(path -> {
            write(path.resolveSibling("elsewhere.json"), "{\"elsewhere\": true}\n");
            link(path, path.resolveSibling("elsewhere.json"));
        }),
        LINK_TO_A_DIRECTORY(path -> {
            mkdirs(path.resolveSibling("elsewhere"));
            link(path, path.resolveSibling("elsewhere"));
        }),
        LINK_TO_NOTHING(path -> link(path, path.resolveSibling("nowhere")));

        private final Consumer<Path> make;

        Occupant(Consumer<Path> make) {
            this.make = make;
        }
    }

    private GoalSettings settings(String goal) {
        return new GoalSettings(goal, "refuse", dir.resolve("reports"), dir.resolve("out"), dir, Map.of());
    }

    private void recordEnvelope(Path envelope) {
        EnvelopeGoal.record(EnvelopeGoal.recording(settings("record-envelope")).envelope(envelope)
                .command(List.of(Fixtures.command("burn_cpu"), "1")).timeoutSeconds(5).instructionCounter(CounterMode.NONE).build(),
                GradeLog.SILENT);
    }

    private void recordDigest(Path gold) {
        Path cases = write(dir.resolve("cases.txt"), "exit:0\n");
        DigestGoal.record(DigestGoal.Options.builder(settings("record-digest")).cases(cases).gold(gold)
                .command(List.of(Fixtures.command("crash"))).timeoutSeconds(5).buckets(TimeBuckets.OFF).parallel(1).build(), GradeLog.SILENT);
    }

    private void freezeReference(Path sidecar) {
        ThreeColumnGoal.freeze(settings("freeze-reference"), List.of(Fixtures.command("crash")), sidecar, false, GradeLog.SILENT);
    }

    @ParameterizedTest
    @EnumSource(Occupant.class)
    void recordEnvelopeLeavesWhatIsThere(Occupant occupant) throws Exception {
        assertRefused(dir.resolve("oracles/envelope.json"), occupant, this::recordEnvelope);
    }

    @ParameterizedTest
    @EnumSource(value = Occupant.class, names = "EMPTY_DIRECTORY_FOR_A_FILE", mode = EnumSource.Mode.EXCLUDE)
    void recordDigestLeavesWhatIsThere(Occupant occupant) throws Exception {
        assertRefused(dir.resolve("oracles/gold"), occupant, this::recordDigest);
    }

    @ParameterizedTest
    @EnumSource(Occupant.class)
    void freezeReferenceLeavesWhatIsThere(Occupant occupant) throws Exception {
        assertRefused(dir.resolve("oracles/reference.sha256"), occupant, this::freezeReference);
    }

    private void assertRefused(Path target, Occupant occupant, Consumer<Path> record) throws Exception {
        occupant.make.accept(target);
        Map<String, String> before = snapshot(dir.resolve("oracles"));
        assertThatThrownBy(() -> record.accept(target))
                .isInstanceOfSatisfying(PatchgradeException.class, e -> assertThat(e.errorName()).isEqualTo("refused_overwrite"))
                .hasMessageContaining(target.toString()).hasMessageContaining("force=true");
        assertThat(snapshot(dir.resolve("oracles"))).as("everything under the oracles' directory, links not followed").isEqualTo(before);
    }

    @Test
    void anEmptyGoldDirectoryIsFilledAndAMissingOneMade() throws Exception {
        Path gold = mkdirs(dir.resolve("oracles/gold"));
        recordDigest(gold);
        assertThat(gold).isDirectory();
        assertThat(gold.toFile().list()).hasSize(1);
        Path fresh = dir.resolve("oracles/fresh-gold");
        recordDigest(fresh);
        assertThat(fresh.toFile().list()).hasSize(1);
    }

    @Test
    void withForceAFileWhereTheGoldGoesIsReplaced() throws Exception {
        Path gold = write(dir.resolve("oracles/gold"), "not a directory\n");
        Path cases = write(dir.resolve("cases.txt"), "exit:0\n");
        DigestGoal.record(DigestGoal.Options.builder(settings("record-digest")).cases(cases).gold(gold).command(List.of(Fixtures.command("crash")))
                .timeoutSeconds(5).buckets(TimeBuckets.OFF).parallel(1).force(true).build(), GradeLog.SILENT);
        assertThat(gold).isDirectory();
        assertThat(gold.toFile().list()).hasSize(1);
    }

    /** Without the sandbox, so that the measured command can write where the recording goes. */
    private GoalSettings unsandboxed(String goal) {
        return settings(goal).withSandbox(SandboxSettings.auto().withMode(dev.patchgrade.core.launch.SandboxSpec.Mode.OFF));
    }

    @Test
    void anEnvelopeMadeWhileTheCommandWasMeasuredIsLeftAsItIs() throws Exception {
        Path envelope = dir.resolve("oracles/envelope.json");
        Files.createDirectories(envelope.getParent());
        List<String> command = List.of("/bin/sh", "-c", "[ -e \"$0\" ] || echo made meanwhile > \"$0\"", envelope.toString());
        assertThatThrownBy(() -> EnvelopeGoal.record(EnvelopeGoal.recording(unsandboxed("record-envelope")).envelope(envelope).command(command)
                .timeoutSeconds(5).instructionCounter(CounterMode.NONE).build(), GradeLog.SILENT))
                .isInstanceOfSatisfying(PatchgradeException.class, e -> assertThat(e.errorName()).isEqualTo("refused_overwrite"))
                .hasMessageContaining(envelope + " exists (made while record-envelope ran)").hasMessageContaining("force=true");
        assertThat(Files.readString(envelope)).isEqualTo("made meanwhile\n");
        try (Stream<Path> left = Files.list(envelope.getParent())) {
            assertThat(left.map(p -> p.getFileName().toString())).as("no temporary file left").containsExactly("envelope.json");
        }
    }

    @Test
    void aGoldMadeWhileTheCasesRanIsLeftAsItIs() throws Exception {
        Path gold = dir.resolve("oracles/gold");
        Path cases = write(dir.resolve("cases.txt"), gold + "\n");
        List<String> command = List.of("/bin/sh", "-c", "mkdir -p \"$1\" && echo mine > \"$1/hand.json\" && echo made", "case");
        assertThatThrownBy(() -> DigestGoal.record(DigestGoal.Options.builder(unsandboxed("record-digest")).cases(cases).gold(gold).command(command)
                .timeoutSeconds(5).buckets(TimeBuckets.OFF).timeSamples(1).parallel(1).build(), GradeLog.SILENT))
                .isInstanceOfSatisfying(PatchgradeException.class, e -> assertThat(e.errorName()).isEqualTo("refused_overwrite"))
                .hasMessageContaining(gold + " exists (made while record-digest ran)");
        assertThat(gold.toFile().list()).containsExactly("hand.json");
        try (Stream<Path> left = Files.list(gold.getParent())) {
            assertThat(left.map(p -> p.getFileName().toString())).as("the recording's own directory removed").containsExactly("gold");
        }
    }

    @Test
    void aGoldMadeWhileTheRecordingRanIsLeftAndTheRecordingRemoved() throws Exception {
        Path gold = dir.resolve("gold");
        try (GoldWriter writer = GoldWriter.open(gold, null, List.of())) {
            writer.write(new DigestTuple("a", 0, null, null, SanitizerClass.CLEAN, null), null);
            write(gold, "made meanwhile\n");
            assertThat(writer.commit(false)).isFalse();
        }
        assertThat(Files.readString(gold)).isEqualTo("made meanwhile\n");
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("gold");
        }
    }

    @Test
    void aNewFileIsNotWrittenThroughALinkThatAppeared() throws Exception {
        Path sidecar = dir.resolve("reference.sha256");
        link(sidecar, dir.resolve("nowhere"));
        assertThatThrownBy(() -> AtomicFiles.writeNew(sidecar, new byte[] {1})).isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.isSymbolicLink(sidecar)).isTrue();
        assertThat(dir.resolve("nowhere")).doesNotExist();
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("no temporary file left").containsExactly("reference.sha256");
        }
        AtomicFiles.writeNew(dir.resolve("new.sha256"), new byte[] {1, 2});
        assertThat(Files.readAllBytes(dir.resolve("new.sha256"))).containsExactly(1, 2);
    }

    /** Every path under {@code root}, links not followed: its kind, and a file's bytes or a link's target. */
    private static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> seen = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path path : all.toList()) {
                String name = root.relativize(path).toString();
                if (Files.isSymbolicLink(path)) {
                    seen.put(name, "link -> " + Files.readSymbolicLink(path));
                } else if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                    seen.put(name, "directory");
                } else {
                    seen.put(name, "file " + java.util.HexFormat.of().formatHex(Files.readAllBytes(path)));
                }
            }
        }
        return seen;
    }

    private static Path write(Path path, String text) {
        try {
            Files.createDirectories(path.getParent());
            return Files.writeString(path, text);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Path mkdirs(Path path) {
        try {
            return Files.createDirectories(path);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void link(Path path, Path to) {
        try {
            Files.createDirectories(path.getParent());
            Files.createSymbolicLink(path, to);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
