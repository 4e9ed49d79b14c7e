package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The helper's seccomp program where it is generated: its seccomp block (between the markers, in whichever
 * helper source holds it) compiled with src/test/cpp/seccomp/program_check.c, which checks the program's
 * shape, runs it as the kernel would on the calls given, and loads it into the kernel.
 */
class SeccompProgramTest {
    private static final Path HELPER_SOURCES = Path.of("src/main/resources/dev/patchgrade/core/launch");
    private static final String BEGIN = "/* ==== seccomp: begin ==== */";
    private static final String END = "/* ==== seccomp: end ==== */";
    private static final int BPF_MAXINSNS = 4096;

    @TempDir
    static Path dir;

    private static Path checker;

    @BeforeAll
    static void compileTheChecker() throws Exception {
        Assumptions.assumeTrue("amd64".equals(System.getProperty("os.arch")), "the probes below are x86_64 and i386 numbers");
        Files.writeString(dir.resolve("seccomp_block.c"), block());
        Files.copy(Path.of("src/test/cpp/seccomp/program_check.c"), dir.resolve("program_check.c"));
        checker = dir.resolve("program_check");
        // -Werror: the block must build cleanly on its own, as it will in a file of its own.
        String out = run(List.of("cc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-o", checker.toString(),
                dir.resolve("program_check.c").toString()), "");
        assertThat(Files.isExecutable(checker)).as(out).isTrue();
    }

    /** The seccomp block of the helper's sources: exactly one file holds it, once. */
    private static String block() throws IOException {
        List<String> blocks = new ArrayList<>();
        try (Stream<Path> files = Files.list(HELPER_SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".c")).toList()) {
                String text = Files.readString(file);
                int begin = text.indexOf(BEGIN);
                if (begin >= 0) {
                    int end = text.indexOf(END, begin);
                    assertThat(end).as(file + ": " + END + " after " + BEGIN).isPositive();
                    assertThat(text.indexOf(BEGIN, begin + 1)).as(file + ": one seccomp block").isNegative();
                    blocks.add(text.substring(begin, end + END.length()) + "\n");
                }
            }
        }
        assertThat(blocks).as("helper sources in " + HELPER_SOURCES + " holding " + BEGIN).hasSize(1);
        return blocks.get(0);
    }

    private static String run(List<String> command, String input) throws Exception {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(command + " ended").isTrue();
        assertThat(process.exitValue()).as(command + ": " + out).isZero();
        return out;
    }

    @Test
    void theProgramFitsTheKernelsLimitAndEveryJumpLandsInsideIt() throws Exception {
        String shape = run(List.of(checker.toString(), "shape"), "").strip();
        Matcher m = Pattern.compile("length=(\\d+) longest_jump=(\\d+)").matcher(shape);
        assertThat(m.matches()).as(shape).isTrue();
        int length = Integer.parseInt(m.group(1));
        assertThat(length).isLessThanOrEqualTo(BPF_MAXINSNS);
        // Past 255 a jump must be BPF_JA: the checker would have named a conditional one that reached past the end.
        assertThat(Integer.parseInt(m.group(2))).as("some jumps cross more than a conditional's 8 bits").isGreaterThan(255)
                .isLessThan(length);
    }

    @Test
    void theKernelTakesTheProgramAndAnUnlistedCallFailsWithEnosys() throws Exception {
        assertThat(run(List.of(checker.toString(), "kernel"), "")).isEqualTo("kernel nr1000 errno=38 getpid ok\n");
    }

    /** Each call as the program answers it: "arch nr args...", then the verdict expected. */
    @Test
    void eachTableAllowsItsCallsChecksTheirArgumentsAndRefusesTheRest() throws Exception {
        String[][] cases = {
            {"native 39", "ALLOW"}, // getpid
            {"native 0", "ALLOW"}, // read
            {"native 1000", "ERRNO=38"},
            {"native 450", "ERRNO=38"}, // set_mempolicy_home_node: no table lists it
            {"native 444", "ERRNO=38"}, // landlock_create_ruleset
            {"native 246", "ERRNO=38"}, // kexec_load
            {"native 250", "ERRNO=38"}, // keyctl
            {"native 425", "ERRNO=38"}, // io_uring_setup
            {"native 435", "ERRNO=38"}, // clone3: glibc falls back to clone
            {"native 298", "ERRNO=38"}, // perf_event_open
            {"native 209", "ERRNO=38"}, // io_submit
            {"native 323", "ERRNO=38"}, // userfaultfd
            {"native 311", "ERRNO=38"}, // process_vm_writev
            {"native 27", "ERRNO=38"}, // mincore
            {"native 0x40000027", "ERRNO=38"}, // x32 getpid
            {"native 0x40000029 1 1 0", "ERRNO=38"}, // x32 socket(AF_UNIX)
            {"native 41 1 1 0", "ERRNO=13"}, // socket(AF_UNIX)
            {"native 41 2 1 0", "ALLOW"}, // socket(AF_INET, SOCK_STREAM)
            {"native 41 0x100000002 0x80801 6", "ALLOW"}, // high bits ignored, SOCK_NONBLOCK|SOCK_CLOEXEC, IPPROTO_TCP
            {"native 41 10 2 0", "ERRNO=13"}, // socket(AF_INET6, SOCK_DGRAM)
            {"native 41 2 1 262", "ERRNO=93"}, // MPTCP
            {"native 41 16 3 0", "ERRNO=97"}, // netlink
            {"native 53 1 5 0", "ALLOW"}, // socketpair(AF_UNIX, SOCK_SEQPACKET)
            {"native 53 1 2 0", "ERRNO=13"}, // socketpair(AF_UNIX, SOCK_DGRAM)
            {"native 54 3 1 8", "ERRNO=0"}, // setsockopt(SOL_SOCKET, SO_RCVBUF) does nothing
            {"native 54 3 6 1", "ALLOW"}, // setsockopt(IPPROTO_TCP, TCP_NODELAY)
            {"native 56 0x1011", "ERRNO=1"}, // clone with CLONE_PIDFD
            {"native 56 0x3d0f00", "ALLOW"}, // clone of a thread
            {"native 72 3 1024", "ERRNO=1"}, // fcntl(F_SETLEASE)
            {"native 72 3 3", "ALLOW"}, // fcntl(F_GETFL)
            {"native 285 3 0", "ALLOW"}, // fallocate(mode 0)
            {"native 285 3 1", "ERRNO=95"}, // fallocate(FALLOC_FL_KEEP_SIZE)
            {"native 91 3 04755", "ERRNO=1"}, // fchmod with set-user-ID
            {"native 268 -100 0 0644", "ALLOW"}, // fchmodat
            {"native 452 -100 0 02755", "ERRNO=1"}, // fchmodat2 with set-group-ID
            {"native 221 3 0 0 4", "ERRNO=0"}, // fadvise64(DONTNEED)
            {"native 28 0 4096 21", "ERRNO=0"}, // madvise(MADV_PAGEOUT)
            {"native 28 0 4096 4", "ALLOW"}, // madvise(MADV_DONTNEED): the program's own memory
            {"native 327 3 0 1 0 0 8", "ERRNO=95"}, // preadv2(RWF_NOWAIT)
            {"native 302 1 7 0 0", "ERRNO=1"}, // prlimit64 of pid 1
            {"native 302 0 7 0 0", "ALLOW"}, // prlimit64 of itself
            {"native 141 2 0 5", "ERRNO=1"}, // setpriority(PRIO_USER)
            {"native 141 0 1 5", "ERRNO=1"}, // setpriority(PRIO_PROCESS, 1)
            {"native 141 0 0 5", "ALLOW"}, // setpriority of itself
            {"native 251 1 1 0", "ERRNO=1"}, // ioprio_set(IOPRIO_WHO_PROCESS, 1)
            {"native 251 3 0 0", "ERRNO=1"}, // ioprio_set(IOPRIO_WHO_USER)
            {"native 157 41 1", "ERRNO=0"}, // prctl(PR_SET_THP_DISABLE)
            {"native 157 15 0", "ALLOW"}, // prctl(PR_SET_NAME)
            {"native 101 5 2", "ERRNO=1"}, // ptrace(PTRACE_POKEDATA)
            {"native 101 16 2", "ALLOW"}, // ptrace(PTRACE_ATTACH): LeakSanitizer's
            {"compat 20", "ALLOW"}, // getpid
            {"compat 1000", "ERRNO=38"},
            {"compat 444", "ERRNO=38"}, // landlock_create_ruleset
            {"compat 102 1 0", "ERRNO=38"}, // socketcall
            {"compat 288", "ERRNO=38"}, // keyctl
            {"compat 359 1 1 0", "ERRNO=13"}, // socket(AF_UNIX)
            {"compat 360 1 1 0", "ALLOW"}, // socketpair(AF_UNIX, SOCK_STREAM)
            {"compat 250 3 0 0 4", "ERRNO=0"}, // fadvise64: nothing done
            {"compat 221 3 1024", "ERRNO=1"}, // fcntl64(F_SETLEASE)
            {"compat 120 0x1011", "ERRNO=1"}, // clone with CLONE_PIDFD
            {"0x40000028 20", "KILL"}, // 32-bit ARM
            {"0xc00000b7 172", "KILL"}, // aarch64 on an x86_64 helper
        };
        StringBuilder input = new StringBuilder();
        for (String[] c : cases) {
            input.append(c[0]).append('\n');
        }
        List<String> answers = run(List.of(checker.toString(), "verdicts"), input.toString()).lines().toList();
        assertThat(answers).hasSize(cases.length);
        for (int i = 0; i < cases.length; i++) {
            assertThat(answers.get(i)).as(cases[i][0]).isEqualTo(cases[i][1]);
        }
    }

    /** i386's numbers are written out (a 64-bit build has no names for them): each must be i386's for its name. */
    @Test
    void theI386TableNumbersAreI386s() throws Exception {
        Path headers = Path.of("/usr/include/x86_64-linux-gnu/asm/unistd_32.h");
        Assumptions.assumeTrue(Files.isReadable(headers), "no i386 syscall header here");
        Map<String, Integer> i386 = new HashMap<>();
        Matcher defined = Pattern.compile("#define __NR_(\\w+) (\\d+)").matcher(Files.readString(headers));
        while (defined.find()) {
            i386.put(defined.group(1), Integer.parseInt(defined.group(2)));
        }
        Matcher entry = Pattern.compile("(?:ALLOW32|CHECK32)\\((\\d+), (\\w+)").matcher(block());
        int checked = 0;
        while (entry.find()) {
            int number = Integer.parseInt(entry.group(1));
            String name = entry.group(2);
            if (name.equals("nr")) {
                continue; // the macro's own definition
            }
            Integer expected = i386.get(name);
            if (expected == null) {
                // Newer than these headers: from Linux 5.1 on every architecture numbers a call alike.
                assertThat(number).as(name + " is not in " + headers).isGreaterThan(i386.values().stream().max(Integer::compare).orElseThrow());
            } else {
                assertThat(number).as(name).isEqualTo(expected);
            }
            checked++;
        }
        assertThat(checked).as("the i386 table's entries").isGreaterThan(200);
    }
}
