package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandbox off, helper wrapped to run as nobody under a root JVM:
 * with a wrapper the scratch directory is made writable by everyone (HelperProcess.start: setWritable(true, false)),
 * without the sticky bit. The run learns its slot name from /proc/$$/fd/1 and plants a symlink named
 * {@code <slot>.stdin} there pointing at a root-only file. The slot is given back after the run; the next run with a
 * stdin gets the same slot, and RunFiles.create writes its stdin with Files.write (which follows symlinks) as root:
 * the root-only file is overwritten with the case's input. Fails if the victim file changes.
 */
class ScratchSymlinkTest {
    @TempDir
    Path dir;
    @TempDir
    Path rootOnly;

    @Test
    void aRunCannotMakeTheRootJvmWriteThroughASymlinkInTheScratchDirectory() throws Exception {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setPosixFilePermissions(rootOnly, PosixFilePermissions.fromString("rwx------"));
        Path victim = rootOnly.resolve("victim");
        Files.writeString(victim, "root only\n");
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-------"));
        HelperTestHooks.startHelpersThrough("/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups");
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off(), 1)) {
            String plant = "exec 2>" + dir.resolve("log") + "; out=$(readlink /proc/$$/fd/1); base=${out%.stdout}; echo $out >&2; ln -s " + victim + " $base.stdin; ls -la $(dirname $out) >&2";
            LaunchResult first = launcher.launch(LaunchRequest.of(List.of("/bin/sh", "-c", plant)).withWorkingDirectory(dir));
            System.out.println("RED-SCRATCH plant exit=" + first.exitCode() + " " + first.stderr().excerpt());
            try {
                LaunchResult second = launcher.launch(LaunchRequest.of(List.of("/bin/cat")).withWorkingDirectory(dir)
                        .withStdin("the next case's input\n".getBytes(StandardCharsets.UTF_8)));
                System.out.println("RED-SCRATCH next exit=" + second.exitCode() + " " + second.stdout().excerpt());
            } catch (RuntimeException e) {
                System.out.println("RED-SCRATCH next failed: " + e.getMessage());
            }
        } finally {
            HelperTestHooks.startHelpersThrough("");
        }
        String now = Files.readString(victim);
        System.out.println("RED-SCRATCH victim now: " + now + " log " + Files.readString(dir.resolve("log")));
        assertThat(now).as("a root-only file the run named through a symlink in the scratch directory").isEqualTo("root only\n");
    }
}
