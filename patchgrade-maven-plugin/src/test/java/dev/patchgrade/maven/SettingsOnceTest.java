package dev.patchgrade.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.patchgrade.core.grade.GoalResult;
import dev.patchgrade.core.grade.GoalSettings;
import dev.patchgrade.core.grade.ReactorOracles;
import java.io.File;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A goal execution reads the reactor once, whatever the goal does with its settings: a grading goal that fails
 * asks for its reports' names again in its message, and each time used to read every module of the build again.
 */
class SettingsOnceTest {
    @TempDir
    Path project;

    /** A grading goal that uses its settings as the goals do (names, directories, the failure message), counting reactor reads. */
    static final class CountingGoal extends AbstractGradingMojo {
        final List<GoalSettings> given = new ArrayList<>();
        final ReactorOracles reactor;
        int reads;

        CountingGoal(ReactorOracles reactor) {
            this.reactor = reactor;
        }

        @Override
        protected String goal() {
            return "digest";
        }

        @Override
        ReactorOracles scanReactor() {
            reads++;
            return reactor;
        }

        @Override
        protected void executeGoal(GoalSettings settings) throws MojoExecutionException, MojoFailureException {
            given.add(settings);
            settings.streamsDirectory();
            conclude(settings, new GoalResult(List.of("case-1: stdout drifted"), null, "stdout"));
        }
    }

    /** The goal as Maven configures it: the parameters its annotations default. */
    private CountingGoal configured(String sandbox, ReactorOracles reactor) throws ReflectiveOperationException {
        CountingGoal goal = new CountingGoal(reactor);
        set(goal, "sandbox", sandbox);
        set(goal, "workingDirectory", project.toFile());
        set(goal, "reportsDirectory", project.resolve("target/patchgrade-reports").toFile());
        set(goal, "buildDirectory", project.resolve("target").toFile());
        set(goal, "executionId", "cases");
        set(goal, "artifactId", "billing");
        return goal;
    }

    private static void set(AbstractPatchgradeMojo goal, String name, Object value) throws ReflectiveOperationException {
        Field field = AbstractPatchgradeMojo.class.getDeclaredField(name);
        field.setAccessible(true);
        field.set(goal, value);
    }

    @Test
    void aFailingGradeReadsTheReactorOnceAndCreatesTheSiblingsOutputOnce() throws Exception {
        Path sibling = project.resolve("../scoring/target/patchgrade").normalize();
        CountingGoal goal = configured("auto", new ReactorOracles(List.of(sibling), List.of(sibling)));
        assertThatThrownBy(goal::execute).isInstanceOf(MojoFailureException.class)
                .hasMessageContaining("1 graded item(s) broke an oracle")
                .hasMessageContaining(project.resolve("target/patchgrade-reports/TEST-patchgrade.digest.cases.xml").toString());
        assertThat(goal.reads).as("reactor reads in one execution").isEqualTo(1);
        assertThat(goal.given).hasSize(1);
        assertThat(goal.given.get(0).sandbox().moduleOracles()).containsExactly(sibling);
        assertThat(goal.given.get(0).className()).isEqualTo("billing.patchgrade.digest.cases");
        assertThat(sibling).isDirectory();
    }

    @Test
    void withTheSandboxOffTheReactorIsNotRead() throws Exception {
        CountingGoal goal = configured("off", new ReactorOracles(List.of(), List.of()));
        assertThatThrownBy(goal::execute).isInstanceOf(MojoFailureException.class);
        assertThat(goal.reads).isZero();
    }

    @Test
    void anUnknownSandboxModeNamesThePomElementAndTheFlag() throws Exception {
        CountingGoal goal = configured("sometimes", new ReactorOracles(List.of(), List.of()));
        assertThatThrownBy(goal::execute).isInstanceOf(MojoExecutionException.class)
                .hasMessage("bad_parameter: <sandbox> must be auto, required or off (found \"sometimes\"); give one of them, as in "
                        + "-Dpatchgrade.sandbox=auto");
        assertThat(goal.given).as("the goal never starts with settings it cannot have").isEmpty();
        assertThat(goal.reads).isZero();
    }

    @Test
    void aGoalThatLaunchesNothingIsGivenNoSandboxAndReadsNoReactor() throws Exception {
        CheckMojo check = new CheckMojo();
        set(check, "sandbox", "sometimes");
        set(check, "workingDirectory", project.toFile());
        // Maven fills check's own reportsDirectory, not the one every goal shares.
        set(check, "buildDirectory", project.resolve("target").toFile());
        set(check, "executionId", "check");
        set(check, "artifactId", "billing");
        Field reports = CheckMojo.class.getDeclaredField("reportsDirectory");
        reports.setAccessible(true);
        reports.set(check, new File(project.resolve("target/patchgrade-reports").toString()));
        check.execute();
        assertThat(project.resolve("target/patchgrade")).as("check creates no directory to hide").doesNotExist();
    }
}
