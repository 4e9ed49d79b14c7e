package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.cases.Shard;
import dev.patchgrade.core.classify.ThreeColumnGoal;
import dev.patchgrade.core.digest.DigestGoal;
import dev.patchgrade.core.envelope.EnvelopeGoal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settings every goal shares are set and defaulted once, so no goal can name or default one differently. */
class RunSettingsTest {
    @TempDir
    Path dir;

    private GoalSettings settings() {
        return new GoalSettings("digest", "e", dir, dir, dir, Map.of());
    }

    @Test
    void everyGoalHasTheSameDefaults() {
        RunSettings defaults = new RunSettings(null, Shard.ALL, Runtime.getRuntime().availableProcessors(), 5, null, false, false);
        assertThat(DigestGoal.Options.builder(settings()).build().run()).isEqualTo(defaults);
        assertThat(ThreeColumnGoal.builder(settings()).build().run()).isEqualTo(defaults);
        assertThat(EnvelopeGoal.recording(settings()).build().run()).isEqualTo(defaults);
        assertThat(EnvelopeGoal.grading(settings()).build().run()).isEqualTo(defaults);
    }

    @Test
    void whatIsSetInAnyOrderReachesEveryGoalAlike() {
        Shard shard = Shard.parse("2/3");
        RunSettings given = new RunSettings(dir.resolve("cases.txt"), shard, 3, 9, "g++", true, true);
        assertThat(DigestGoal.Options.builder(settings()).keepAll(true).cases(given.cases()).gold(dir).shard(shard).parallel(3)
                .sanitizer(null).timeoutSeconds(9).compiler("g++").force(true).build().run()).isEqualTo(given);
        assertThat(ThreeColumnGoal.builder(settings()).cases(given.cases()).reference(List.of("r")).shard(shard).parallel(3).timeoutSeconds(9)
                .compiler("g++").force(true).keepAll(true).build().run()).isEqualTo(given);
        assertThat(EnvelopeGoal.recording(settings()).cases(given.cases()).runs(2).shard(shard).parallel(3).timeoutSeconds(9).compiler("g++")
                .force(true).keepAll(true).build().run()).isEqualTo(given);
    }

    @Test
    void bothEnvelopeGoalsMeasureAlike() {
        EnvelopeGoal.Measurement recorded = EnvelopeGoal.recording(settings()).envelope(dir.resolve("e.json")).command(List.of("./a")).runs(3)
                .hostClass("ci").build().measurement();
        EnvelopeGoal.Measurement graded = EnvelopeGoal.grading(settings()).runs(3).command(List.of("./a")).hostClass("ci")
                .envelope(dir.resolve("e.json")).build().measurement();
        assertThat(graded).isEqualTo(recorded);
        assertThat(recorded.instructionCounter()).isEqualTo(dev.patchgrade.core.count.CounterMode.AUTO);
    }

    @Test
    void oneGoalsSharedSettingsCarryOverToAnother() {
        RunSettings given = new RunSettings(dir.resolve("cases.txt"), Shard.parse("1/2"), 2, 7, "clang", true, false);
        assertThat(ThreeColumnGoal.builder(settings()).run(given).build().run()).isEqualTo(given);
        assertThat(ThreeColumnGoal.builder(settings()).run(given).parallel(4).build().run().parallel()).as("set after, it wins").isEqualTo(4);
    }

    @Test
    void keepingAllChangesOnlyThat() {
        DigestGoal.Options options = DigestGoal.Options.builder(settings()).timeoutSeconds(9).build();
        assertThat(options.keepingAll(true).run()).isEqualTo(options.run().keepingAll(true));
        assertThat(options.keepingAll(true).run().timeoutSeconds()).isEqualTo(9);
        assertThat(options.keepingAll(true).run().keepAll()).isTrue();
    }
}
