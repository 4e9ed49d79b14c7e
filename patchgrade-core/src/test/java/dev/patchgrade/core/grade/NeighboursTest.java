package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Red team 16: on a grading farm that checks out each generation of a task beside the others, a candidate globbed
 * {@code ../*}{@code /src/test/patchgrade} and printed another checkout's goldens; an editor's copy beside an oracle
 * ({@code cases.jsonl.orig}) was as readable.
 */
class NeighboursTest {
    @TempDir
    Path tmp;

    /** Outside /tmp: each run gets a fresh /tmp, which would hide a farm laid out there whatever this class does. */
    private Path farm;

    private Path make(Path base, String relative, String text) throws Exception {
        Path file = base.resolve(relative);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    private Path layFarm(Path root) throws Exception {
        make(root, "task/gen-1/pom.xml", "<project/>");
        make(root, "task/gen-1/src/test/patchgrade/cases.jsonl", "{\"id\":\"q\",\"golden\":\"gen-1 golden\"}\n");
        make(root, "task/gen-3/.git/HEAD", "ref: refs/heads/main\n");
        make(root, "task/gen-3/cases.jsonl", "gen-3 golden\n");
        make(root, "task/gen-4/src/test/patchgrade/cases.jsonl", "gen-4 golden\n");
        make(root, "task/toolchain/lib/libx.txt", "a library\n");
        make(root, "task/build-gen-2/pom.xml", "<project/>");
        make(root, "task/build-gen-2/bin/cand", "#!/bin/sh\n");
        make(root, "other-task/pom.xml", "<project/>");
        make(root, "task/gen-2/pom.xml", "<project/>");
        return root.resolve("task/gen-2");
    }

    @Test
    void checkoutsBesideTheBuildAndItsAncestorsAreFoundUnlessTheyHoldWhatARunNeeds() throws Exception {
        Path top = layFarm(tmp.resolve("farm"));
        Path task = top.getParent();
        List<Path> found = Neighbours.checkoutsBeside(top, List.of(top, task.resolve("build-gen-2/bin/cand")), Path.of("/nonexistent-home"));
        assertThat(found).containsExactlyInAnyOrder(task.resolve("gen-1"), task.resolve("gen-3"), task.resolve("gen-4"),
                tmp.resolve("farm/other-task"));
        assertThat(Neighbours.checkoutsBeside(top, List.of(top), tmp.resolve("farm"))).as("nothing inside the home directory: hidden whole")
                .isEmpty();
        Path link = Files.createSymbolicLink(task.resolve("latest"), task.resolve("gen-1"));
        assertThat(Neighbours.checkoutsBeside(top, List.of(top), Path.of("/nonexistent-home"))).as("a link to a checkout is one").contains(link);
        assertThat(Neighbours.checkoutsBeside(Path.of("/tmp/x/project"), List.of(), null)).as("/tmp is every run's own").isEmpty();
    }

    @Test
    void anEditorsOrAMergesCopyBesideAnOracleFileIsFound() throws Exception {
        Path cases = make(tmp, "oracles/cases.jsonl", "golden\n");
        List<Path> copies = List.of(make(tmp, "oracles/cases.jsonl.orig", "golden\n"), make(tmp, "oracles/.cases.jsonl.swp", "golden\n"),
                make(tmp, "oracles/cases.jsonl~", "golden\n"), make(tmp, "oracles/#cases.jsonl#", "golden\n"));
        make(tmp, "oracles/cases.json", "not a copy\n");
        make(tmp, "oracles/input.txt", "an input\n");
        Path gold = Files.createDirectories(tmp.resolve("oracles/gold"));
        make(tmp, "oracles/gold.bak/a.json", "a directory's copy is not looked for\n");
        assertThat(Neighbours.copiesBeside(List.of(cases, gold))).containsExactlyInAnyOrderElementsOf(copies);
    }

    @Test
    void theTopOfABuildHoldsEveryModule() {
        assertThat(Neighbours.commonAncestor(List.of(Path.of("/b/task/gen-2/core"), Path.of("/b/task/gen-2/plugin"), Path.of("/b/task/gen-2"))))
                .isEqualTo(Path.of("/b/task/gen-2"));
        assertThat(Neighbours.commonAncestor(List.of(Path.of("/b/it/a"), Path.of("/b/it/b")))).isEqualTo(Path.of("/b/it"));
        assertThat(Neighbours.commonAncestor(List.of())).isNull();
    }

    @AfterEach
    void removeFarm() throws Exception {
        if (farm != null && Files.exists(farm)) {
            try (var walk = Files.walk(farm)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** End to end: a run in gen-2 reads gen-1's goldens and an oracle's copy with the sandbox off, and neither with it on. */
    @Test
    void aRunCannotReadAnotherCheckoutsGoldensOrAnOraclesCopy() throws Exception {
        dev.patchgrade.core.SandboxAvailability.assumeAvailable();
        farm = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "farm-");
        Path top = layFarm(farm);
        Path cases = make(top, "oracles/cases.jsonl", "own golden\n");
        make(top, "oracles/cases.jsonl.orig", "copy golden\n");
        String script = "cat ../gen-1/src/test/patchgrade/cases.jsonl oracles/cases.jsonl.orig ../toolchain/lib/libx.txt 2>/dev/null; echo end";
        for (SandboxSpec.Mode mode : List.of(SandboxSpec.Mode.OFF, SandboxSpec.Mode.REQUIRED)) {
            GoalSettings settings = new GoalSettings("digest", "farm", top.resolve("target/reports"), top.resolve("target/patchgrade"), top, Map.of())
                    .withSandbox(new SandboxSettings(mode, List.of(cases), top, List.of(), List.of(), List.of()));
            try (Launcher launcher = settings.openLauncher(GradeLog.SILENT, List.of(cases), List.of(Path.of("/bin/sh")))) {
                LaunchResult read = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", script)).withWorkingDirectory(top));
                if (mode == SandboxSpec.Mode.OFF) {
                    assertThat(read.stdout().excerpt()).as("unsandboxed, both copies are there to read")
                            .isEqualTo("{\"id\":\"q\",\"golden\":\"gen-1 golden\"}\ncopy golden\na library\nend\n");
                } else {
                    assertThat(read.stdout().excerpt()).as("sandboxed: a directory beside that is no checkout stays").isEqualTo("a library\nend\n");
                }
            }
        }
    }

    /** Red team 18: a clone made with --reference borrows its objects from another store; Sapling keeps .sl. */
    @Test
    void aGitDirectorysBorrowedObjectStoreAndSaplingsMetadataAreTheRepositorys() throws Exception {
        Path project = tmp.resolve("project");
        Path store = Files.createDirectories(tmp.resolve("mirror.git/objects"));
        make(project, ".git/objects/info/alternates", "# borrowed\n" + store + "\n");
        Files.createDirectories(project.resolve(".sl"));
        assertThat(GoalSettings.repositoryMetadata(project)).contains(project.resolve(".git"), store, project.resolve(".sl"));
    }

    /** Red team 19: checkouts of other build systems, and a farm whose generations hold their checkout one level down. */
    @Test
    void checkoutsOfAnyBuildSystemAndOneLevelDownAreFound() throws Exception {
        Path top = tmp.resolve("farm2/task/gen-2/checkout");
        make(top, "pom.xml", "<project/>");
        Path task = top.getParent().getParent();
        make(task, "gen-1/checkout/pom.xml", "<project/>");
        make(task, "reference-src/CMakeLists.txt", "project(ref C)\n");
        make(task, "gen-3/Makefile", "all:\n");
        make(task, "notes/readme.txt", "no checkout\n");
        assertThat(Neighbours.checkoutsBeside(top, List.of(top), Path.of("/nonexistent-home"))).contains(task.resolve("gen-1"),
                task.resolve("reference-src"), task.resolve("gen-3")).doesNotContain(task.resolve("notes"), top.getParent());
    }

    private void git(Path directory, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git", "-c", "user.name=r", "-c", "user.email=r@r", "-c", "init.defaultBranch=main"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(directory.toFile()).inheritIO().start();
        assertThat(process.waitFor()).isZero();
    }

    /** Red team 19: a worktree of a clone made with --reference borrows every object from the mirror through its common directory. */
    @Test
    void aWorktreeOfAReferenceClonesBorrowedStoreIsTheRepositorys() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/git")), "needs git");
        Path upstream = Files.createDirectories(tmp.resolve("upstream"));
        git(upstream, "init", "-q");
        make(upstream, "src/test/patchgrade/cases.jsonl", "{\"golden\":\"secret\"}\n");
        git(upstream, "add", "-A");
        git(upstream, "commit", "-q", "-m", "oracles");
        git(tmp, "clone", "-q", "--bare", upstream.toString(), tmp.resolve("mirror.git").toString());
        git(tmp, "clone", "-q", "--reference", tmp.resolve("mirror.git").toString(), upstream.toString(), tmp.resolve("main").toString());
        git(tmp.resolve("main"), "worktree", "add", "-q", "--detach", tmp.resolve("wt").toString());
        assertThat(GoalSettings.repositoryMetadata(tmp.resolve("wt"))).contains(tmp.resolve("main/.git"), tmp.resolve("mirror.git/objects"));
    }
}
