package dev.patchgrade.core.grade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.LoadedLibraries;
import dev.patchgrade.core.launch.SandboxSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the allow-list shows a hostile candidate, and an honest project reached through links: the listing of the
 * candidate's own libraries cannot widen the view, and a linked working directory works wherever the link is.
 */
class AllowListGapsTest extends ReferenceAttack {
    /**
     * The libraries shown with the program are read from the system loader's listing of the candidate's own file,
     * one per line. A directory name holding a newline, in the candidate's RUNPATH, puts a line of its choosing in that
     * listing: any host path, here a copy of the answers kept beside the project, is then bound into the view.
     */
    @Test
    void aNewlineInTheCandidatesRunpathShowsAnyHostDirectory() throws Exception {
        Path project = Files.createDirectories(dir.resolve("project"));
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("answers.txt"), "secret-answer\n");
        Path bin = Files.createDirectories(project.resolve("target/bin"));
        String odd = "a\n\t" + elsewhere + " (0x0)\nb";
        Path libDir = Files.createDirectories(bin.resolve("lib").resolve(odd.substring(0, odd.indexOf('/')))
                .resolve(odd.substring(odd.indexOf('/') + 1)));
        Path libSource = Files.writeString(dir.resolve("l.c"), "int helper(void) { return 0; }\n");
        Path mainSource = Files.writeString(dir.resolve("m.c"), "#include <stdio.h>\nint helper(void);\n"
                + "int main(void) { char b[64] = {0}; FILE *f = fopen(ANSWERS, \"r\"); if (!f) { perror(ANSWERS); return 3; }\n"
                + "  fgets(b, sizeof b, f); fputs(b, stdout); return helper(); }\n");
        run(List.of("gcc", "-shared", "-fPIC", "-o", libDir.resolve("libhelper.so").toString(), libSource.toString(), "-Wl,-soname,libhelper.so"));
        Path cheat = bin.resolve("cand");
        run(List.of("gcc", "-DANSWERS=\"" + elsewhere.resolve("answers.txt") + "\"", "-o", cheat.toString(), mainSource.toString(),
                "-L" + libDir, "-lhelper", "-Wl,-rpath,$ORIGIN/" + bin.relativize(libDir)));
        Path plainDir = Files.createDirectories(bin.resolve("lib/plain"));
        run(List.of("gcc", "-shared", "-fPIC", "-o", plainDir.resolve("libhelper.so").toString(), libSource.toString(), "-Wl,-soname,libhelper.so"));
        Path honest = bin.resolve("honest");
        run(List.of("gcc", "-DANSWERS=\"" + elsewhere.resolve("answers.txt") + "\"", "-o", honest.toString(), mainSource.toString(),
                "-L" + plainDir, "-lhelper", "-Wl,-rpath,$ORIGIN/lib/plain"));

        assertThat(LoadedLibraries.of(cheat, project, Map.of())).as("a line of the listing that names no library is not believed")
                .doesNotContain(elsewhere);
        assertThat(runIn(project, SandboxSpec.Mode.OFF, List.of(cheat.toString())).stdout().excerpt()).as("the cheat works unsandboxed")
                .contains("secret-answer");
        LaunchResult control = runIn(project, SandboxSpec.Mode.REQUIRED, List.of(honest.toString()));
        assertThat(control.stdout().excerpt()).as("control: without the line, the answers beside the project are out of the view")
                .doesNotContain("secret-answer");
        LaunchResult boxed = runIn(project, SandboxSpec.Mode.REQUIRED, List.of(cheat.toString()));
        assertThat(boxed.stdout().excerpt()).as("the sandbox shows only what the run is given").doesNotContain("secret-answer");
    }

    /**
     * An honest project reached through a symbolic link (a workspace linked into the agent's home), run by a relative
     * program path, reading /etc/passwd, the locale list and /dev/urandom, and compiling in /tmp.
     */
    @Test
    void anHonestProjectThroughALinkWithARelativeProgramRuns() throws Exception {
        Path links = Files.createDirectories(Path.of("target/allow-list-links").toAbsolutePath());
        Path link = links.resolve(dir.getFileName().toString());
        Files.deleteIfExists(link);
        try {
            assertThat(honestRunThrough(Files.createSymbolicLink(link, dir.resolve("real")))).isEqualTo("ok\n");
        } finally {
            Files.deleteIfExists(link);
        }
    }

    /** The same, with the link under /tmp: each run's fresh /tmp brings back the link with the bound project. */
    @Test
    void anHonestProjectThroughALinkUnderTmpRuns() throws Exception {
        assertThat(dir.toString()).startsWith("/tmp/");
        assertThat(honestRunThrough(Files.createSymbolicLink(dir.resolve("linked"), dir.resolve("real")))).isEqualTo("ok\n");
    }

    private String honestRunThrough(Path linked) throws Exception {
        Path real = Files.createDirectories(dir.resolve("real/project"));
        Path project = linked.resolve("project");
        Files.createDirectories(real.resolve("target/bin"));
        Files.writeString(real.resolve("target/bin/prog"), "#!/bin/sh\ngetent passwd root >/dev/null && locale -a >/dev/null"
                + " && head -c4 /dev/urandom | od -An >/dev/null && printf 'int main(void){return 0;}' > /tmp/a.c && cc -o /tmp/a /tmp/a.c"
                + " && /tmp/a && echo ok\n");
        sh("chmod +x real/project/target/bin/prog");
        LaunchResult boxed = runIn(project, SandboxSpec.Mode.REQUIRED, List.of("target/bin/prog"));
        assertThat(boxed.started()).as(String.valueOf(boxed.startFailure())).isTrue();
        assertThat(boxed.stderr().excerpt()).isEmpty();
        return boxed.stdout().excerpt();
    }

    /** One run of {@code command} through a launcher built as a digest execution in {@code project} builds it. */
    private LaunchResult runIn(Path project, SandboxSpec.Mode mode, List<String> command) {
        GoalSettings settings = new GoalSettings("digest", "gaps", project.resolve("target/reports"), project.resolve("target/patchgrade"), project,
                Map.of()).withSandbox(new SandboxSettings(mode, List.of(), project, List.of(), List.of(), List.of()));
        try (Launcher launcher = settings.openLauncher(GradeLog.SILENT, List.of(), RunInputs.of(command))) {
            return launcher.launch(LaunchRequest.of(command).withWorkingDirectory(project));
        }
    }

    /** Runs a command without a shell, so that names holding newlines pass as they are. */
    private void run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile()).inheritIO().start();
        assertThat(process.waitFor()).as(String.join(" ", command)).isZero();
    }
}
