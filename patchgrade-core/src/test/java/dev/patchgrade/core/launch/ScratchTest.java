package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

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
}
