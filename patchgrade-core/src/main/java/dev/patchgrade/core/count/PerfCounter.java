package dev.patchgrade.core.count;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.patchgrade.core.launch.LaunchRequest;
import dev.patchgrade.core.launch.LaunchResult;
import dev.patchgrade.core.launch.Launcher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

/**
 * Counts user-mode instructions with the kernel's hardware counters ({@code perf_event_open}, through
 * JNA), inherited by every child the command starts. The command runs behind a one-line shell that
 * stops itself before it execs the command; patchgrade finds the stopped shell by a unique marker in
 * its arguments, attaches a disabled counter that the exec enables, and lets it go on. Whatever the
 * tree retires in user mode from the exec on is counted; the kernel, the shell and the launcher are not.
 */
public final class PerfCounter implements InstructionCounter {
    static final int PERF_TYPE_HARDWARE = 0;
    static final long PERF_COUNT_HW_INSTRUCTIONS = 1;
    static final long DISABLED = 1L;
    static final long INHERIT = 1L << 1;
    static final long EXCLUDE_KERNEL = 1L << 5;
    static final long EXCLUDE_HV = 1L << 6;
    static final long ENABLE_ON_EXEC = 1L << 12;
    static final long PERF_FLAG_FD_CLOEXEC = 1L << 3;
    static final int ATTR_SIZE = 128;
    static final int SIGCONT = 18;
    private static final long ATTACH_DEADLINE_NANOS = 10_000_000_000L;

    private interface LibC extends Library {
        long syscall(long number, Pointer attr, int pid, int cpu, int groupFd, long flags) throws LastErrorException;

        long read(int fd, Pointer buffer, long count) throws LastErrorException;

        int close(int fd);

        int kill(int pid, int signal);
    }

    private static final LibC LIBC = load();

    /** Whether this machine lets a process count its own user-mode instructions, and if not, why. */
    public record Probe(boolean available, String problem) {}

    private static LibC load() {
        try {
            return Native.load("c", LibC.class);
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            return null;
        }
    }

    /** Opens (and closes) an instruction counter on the calling thread: the kernel's answer decides. */
    public static Probe probe() {
        long syscall = syscallNumber();
        if (LIBC == null || syscall < 0) {
            return new Probe(false, "perf_event_open is a Linux x86_64/aarch64 system call, not available on "
                    + System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        }
        try (Memory attr = attributes(EXCLUDE_KERNEL | EXCLUDE_HV | DISABLED)) {
            int fd = (int) LIBC.syscall(syscall, attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
            LIBC.close(fd);
            return new Probe(true, null);
        } catch (LastErrorException e) {
            return new Probe(false, explain(e.getErrorCode()));
        }
    }

    static String explain(int errno) {
        return switch (errno) {
            case 2, 19, 95 -> "perf_event_open has no hardware instruction counter here (errno " + errno
                    + "; usual in a virtual machine without a virtual PMU)";
            case 1, 13 -> "perf_event_open was refused (errno " + errno + "): kernel.perf_event_paranoid is " + paranoia()
                    + "; user-mode counting of one's own processes needs 2 or less (sysctl kernel.perf_event_paranoid=2), and a"
                    + " container may also need the perf_event_open system call allowed by its seccomp profile";
            case 38 -> "this kernel has no perf_event_open system call (errno 38)";
            default -> "perf_event_open failed with errno " + errno;
        };
    }

    private static String paranoia() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    static long syscallNumber() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux")) {
            return -1;
        }
        return switch (System.getProperty("os.arch", "")) {
            case "amd64", "x86_64" -> 298;
            case "aarch64" -> 241;
            default -> -1;
        };
    }

    private static Memory attributes(long flags) {
        Memory attr = new Memory(ATTR_SIZE);
        attr.clear();
        attr.setInt(0, PERF_TYPE_HARDWARE);
        attr.setInt(4, ATTR_SIZE);
        attr.setLong(8, PERF_COUNT_HW_INSTRUCTIONS);
        attr.setLong(40, flags);
        return attr;
    }

    @Override
    public String method() {
        return "perf";
    }

    @Override
    public InstructionCount count(Launcher launcher, LaunchRequest request) {
        String marker = "patchgrade-count-" + UUID.randomUUID();
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "kill -STOP $$ && exec \"$@\"", marker));
        command.addAll(request.command());
        LaunchRequest stopped = new LaunchRequest(command, request.workingDirectory(), request.environment(), request.stdin(),
                request.timeout(), request.outputLimitBytes(), request.keepOutputAs(), request.holdOutput());
        CompletableFuture<LaunchResult> run = CompletableFuture.supplyAsync(() -> launcher.launch(stopped));
        int pid = awaitStopped(marker, run);
        if (pid < 0) {
            LaunchResult result = join(run);
            return InstructionCount.failed(method(), "the counting run ended (" + (result == null ? "unknown" : result.outcome())
                    + ") before a counter could be attached");
        }
        int fd = -1;
        String problem = null;
        try (Memory attr = attributes(DISABLED | INHERIT | EXCLUDE_KERNEL | EXCLUDE_HV | ENABLE_ON_EXEC)) {
            fd = (int) LIBC.syscall(syscallNumber(), attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
        } catch (LastErrorException e) {
            problem = explain(e.getErrorCode());
        } finally {
            LIBC.kill(pid, SIGCONT);
        }
        LaunchResult result = join(run);
        if (fd < 0) {
            return InstructionCount.failed(method(), problem);
        }
        try (Memory value = new Memory(8)) {
            long read = LIBC.read(fd, value, 8);
            if (read != 8) {
                return InstructionCount.failed(method(), "the counter gave " + read + " bytes instead of 8");
            }
            if (result == null || !result.exitedZero() || result.outputLimited()) {
                return InstructionCount.failed(method(), "the counting run ended with " + (result == null ? "an error" : result.outcome())
                        + ", so no count was taken");
            }
            return InstructionCount.of(value.getLong(0), method(), result.stdout().sha256());
        } catch (LastErrorException e) {
            return InstructionCount.failed(method(), "reading the counter failed with errno " + e.getErrorCode());
        } finally {
            LIBC.close(fd);
        }
    }

    private static LaunchResult join(CompletableFuture<LaunchResult> run) {
        try {
            return run.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException e) {
            return null;
        }
    }

    /** The host pid of the stopped shell carrying {@code marker}, or -1 once the run has ended or the deadline passed. */
    private static int awaitStopped(String marker, CompletableFuture<LaunchResult> run) {
        byte[] needle = marker.getBytes(StandardCharsets.US_ASCII);
        long deadline = System.nanoTime() + ATTACH_DEADLINE_NANOS;
        while (!run.isDone() && System.nanoTime() < deadline) {
            try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
                for (Path process : processes.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).toList()) {
                    if (carries(process, needle) && stopped(process)) {
                        return Integer.parseInt(process.getFileName().toString());
                    }
                }
            } catch (IOException e) {
                return -1;
            }
            Thread.onSpinWait();
        }
        return -1;
    }

    private static boolean carries(Path process, byte[] needle) {
        try {
            byte[] cmdline = Files.readAllBytes(process.resolve("cmdline"));
            outer:
            for (int i = 0; i + needle.length <= cmdline.length; i++) {
                for (int j = 0; j < needle.length; j++) {
                    if (cmdline[i + j] != needle[j]) {
                        continue outer;
                    }
                }
                return true;
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean stopped(Path process) {
        try {
            String stat = Files.readString(process.resolve("stat"));
            int end = stat.lastIndexOf(')');
            return end > 0 && end + 2 < stat.length() && stat.charAt(end + 2) == 'T';
        } catch (IOException e) {
            return false;
        }
    }
}
