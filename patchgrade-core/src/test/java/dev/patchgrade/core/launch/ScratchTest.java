package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Found by bench/stress-verify.sh: another build removed a running launcher's scratch directory. */
class ScratchTest {

    /** Whether another process can take the directory's lock (python's lockf is the same POSIX record lock). */
    private static boolean lockableFromOutside(Path directory) throws Exception {
        Process python = new ProcessBuilder("python3", "-c",
                "import fcntl,sys; f=open(sys.argv[1],'a'); fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)",
                directory.resolve(".lock").toString()).redirectErrorStream(true).start();
        assertThat(python.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return python.exitValue() == 0;
    }

    @Test
    void aSweepInTheSameJvmLeavesItsOwnLiveDirectoryLocked() throws Exception {
        Scratch scratch = Scratch.create();
        try {
            assertThat(lockableFromOutside(scratch.directory())).as("locked while in use").isFalse();
            Scratch.sweepAbandoned(scratch.directory().getParent());
            assertThat(scratch.directory()).exists();
            assertThat(lockableFromOutside(scratch.directory())).as("still locked after this JVM's own sweep").isFalse();
        } finally {
            scratch.delete();
        }
        assertThat(Files.exists(scratch.directory())).isFalse();
    }

    @Test
    void scratchGoesWhereThePropertySaysAndElseNeverToASmallOrDiskBackedShm(@TempDir Path chosen) throws Exception {
        System.setProperty(Scratch.BASE_PROPERTY, chosen.toString());
        try {
            Scratch scratch = Scratch.create();
            try {
                assertThat(scratch.directory().getParent()).isEqualTo(chosen);
            } finally {
                scratch.delete();
            }
        } finally {
            System.clearProperty(Scratch.BASE_PROPERTY);
        }
        Path base = Scratch.base();
        if (base.equals(Path.of("/dev/shm"))) {
            // Chosen only as a tmpfs with room: a small one (Docker's 64 MB) would fail a large output the disk would take.
            assertThat(Files.getFileStore(base).type()).isEqualTo("tmpfs");
            assertThat(Files.getFileStore(base).getUsableSpace()).isGreaterThanOrEqualTo(2L << 30);
        } else {
            assertThat(base).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
        }
    }
}
