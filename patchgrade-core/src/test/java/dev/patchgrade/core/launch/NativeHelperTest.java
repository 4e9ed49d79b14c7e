package dev.patchgrade.core.launch;

import dev.patchgrade.core.Fixtures;
import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Suggestions;
import dev.patchgrade.core.hashing.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The helper's cache: built once under locks, verified before every use, rebuilt when anything about it changed. */
class NativeHelperTest {
    /** A cache with the helper built once for the class: a test about what happens to a built helper starts from a copy. */
    @TempDir
    static Path built;

    @TempDir
    Path dir;
    private Path cache;
    private String savedCacheDir;
    private final List<String> debug = Collections.synchronizedList(new ArrayList<>());
    private final GradeLog log = NativeHelperProbe.debugTo(debug::add);

    @BeforeEach
    void ownCache() {
        cache = dir.resolve("cache");
        savedCacheDir = System.getProperty("patchgrade.cacheDir");
        System.setProperty("patchgrade.cacheDir", cache.toString());
    }

    @BeforeAll
    static void buildOnce() {
        String saved = System.getProperty("patchgrade.cacheDir");
        System.setProperty("patchgrade.cacheDir", built.toString());
        try {
            assertThat(NativeHelper.locate(GradeLog.SILENT, Suggestions.PLAIN).problem()).isNull();
        } finally {
            if (saved == null) {
                System.clearProperty("patchgrade.cacheDir");
            } else {
                System.setProperty("patchgrade.cacheDir", saved);
            }
        }
    }

    /** This test's cache holds the class's built helper, its sidecar and lock, with their modes: no build of its own. */
    private void startFromTheBuiltCache() throws IOException {
        try (Stream<Path> tree = Files.walk(built)) {
            for (Path from : tree.toList()) {
                Path to = cache.resolve(built.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                    Files.setPosixFilePermissions(to, Files.getPosixFilePermissions(from));
                } else {
                    Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    @AfterEach
    void restoreCache() {
        if (savedCacheDir == null) {
            System.clearProperty("patchgrade.cacheDir");
        } else {
            System.setProperty("patchgrade.cacheDir", savedCacheDir);
        }
    }

    enum Tampering { APPEND_A_BYTE, FAKE_SCRIPT, SYMLINK_TO_FAKE, GROUP_WRITABLE }

    @ParameterizedTest
    @EnumSource(Tampering.class)
    void aTamperedHelperIsRebuiltAndNeverRun(Tampering tampering) throws Exception {
        startFromTheBuiltCache();
        Path binary = openAndCheck();
        String original = Sha256.of(Files.readAllBytes(binary));
        Path marker = dir.resolve("the-fake-ran");
        Path fake = dir.resolve("fake-helper");
        // Answers the launcher's probe like the real helper would, and leaves a trace if it ever runs.
        Files.writeString(fake, "#!/bin/sh\ntouch '" + marker + "'\necho 'pg-launch-helper 0.1'\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        switch (tampering) {
            case APPEND_A_BYTE -> Files.write(binary, new byte[] {0}, StandardOpenOption.APPEND);
            case FAKE_SCRIPT -> Files.copy(fake, binary, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            case SYMLINK_TO_FAKE -> {
                Files.delete(binary);
                Files.createSymbolicLink(binary, fake);
            }
            case GROUP_WRITABLE -> Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwxrwxr-x"));
        }
        debug.clear();

        assertThat(openAndCheck()).isEqualTo(binary);

        assertThat(marker).as("the tampered file was run").doesNotExist();
        assertThat(Files.isSymbolicLink(binary)).isFalse();
        assertThat(Sha256.of(Files.readAllBytes(binary))).as("rebuilt from the same source").isEqualTo(original);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(binary, LinkOption.NOFOLLOW_LINKS))).isEqualTo("rwxr-xr-x");
        String why = switch (tampering) {
            case APPEND_A_BYTE, FAKE_SCRIPT -> "modified after it was built";
            case SYMLINK_TO_FAKE -> "symbolic link";
            case GROUP_WRITABLE -> "writable by others";
        };
        assertThat(debug).anySatisfy(line -> assertThat(line).contains("not using the launch helper " + binary).contains(why));
    }

    @Test
    void aCacheDirectoryOthersCanWriteIsTakenBackAndTheHelperRebuilt() throws Exception {
        startFromTheBuiltCache();
        Path binary = openAndCheck();
        Files.setPosixFilePermissions(binary.getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));
        debug.clear();
        openAndCheck();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(binary.getParent()))).isEqualTo("rwxr-xr-x");
        assertThat(debug).anySatisfy(line -> assertThat(line).contains("writable by others").contains("rebuilding"));
    }

    @Test
    void aMissingSidecarMeansRebuild() throws Exception {
        startFromTheBuiltCache();
        Path binary = openAndCheck();
        Files.delete(binary.resolveSibling(HelperCache.DIGEST_NAME));
        debug.clear();
        openAndCheck();
        assertThat(binary.resolveSibling(HelperCache.DIGEST_NAME)).exists();
        assertThat(debug).anySatisfy(line -> assertThat(line).contains("no SHA-256 was recorded"));
    }

    @Test
    void threadsBuildingIntoAnEmptyCacheAtOnceBuildItOnce() throws Exception {
        int threads = 4;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<NativeHelper.Located>> found = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                found.add(pool.submit(() -> {
                    start.await();
                    return NativeHelper.locate(log, Suggestions.PLAIN);
                }));
            }
            start.countDown();
            Path first = null;
            for (Future<NativeHelper.Located> located : found) {
                NativeHelper.Located one = located.get(5, TimeUnit.MINUTES);
                assertThat(one.problem()).isNull();
                first = first == null ? one.binary() : first;
                assertThat(one.binary()).isEqualTo(first);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(debug.stream().filter(line -> line.startsWith("built the launch helper"))).hasSize(1);
        try (Stream<Path> left = Files.list(cache.resolve(debugBinary().getParent().getFileName()))) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
                    HelperCache.BINARY_NAME, HelperCache.DIGEST_NAME, HelperCache.LOCK_NAME);
        }
    }

    @Test
    void aRelativeCacheDirectoryWorks() {
        // -Dpatchgrade.cacheDir=helper-cache: relative to where Maven runs, not to where the compiler runs.
        Path relative = Path.of("").toAbsolutePath().relativize(cache);
        assertThat(relative.isAbsolute()).isFalse();
        NativeHelper.Located located = NativeHelper.locate(log, relative, "cc", NativeHelper.COMPILE_TIMEOUT, Suggestions.PLAIN);
        assertThat(located.problem()).isNull();
        assertThat(located.binary()).isAbsolute().startsWith(cache);
        System.setProperty("patchgrade.cacheDir", relative.toString());
        assertThat(NativeHelper.cacheRoot()).as("what the sandbox hides").isEqualTo(cache);
    }

    @Test
    @Timeout(300)
    void processesAndTheirThreadsBuildingAtOnceBuildItOnce() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> jvms = new ArrayList<>();
        List<Path> outputs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Path out = dir.resolve("probe-" + i + ".out");
            outputs.add(out);
            jvms.add(new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), NativeHelperProbe.class.getName(), cache.toString())
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start());
        }
        for (Process jvm : jvms) {
            assertThat(jvm.waitFor(240, TimeUnit.SECONDS)).isTrue();
        }
        List<String> lines = new ArrayList<>();
        for (Path out : outputs) {
            lines.addAll(Files.readAllLines(out));
        }
        assertThat(lines.stream().filter(l -> l.startsWith("located ")).distinct()).as(String.join("\n", lines)).hasSize(1);
        assertThat(lines.stream().filter(l -> l.startsWith("located "))).as(String.join("\n", lines)).hasSize(4);
        assertThat(lines.stream().filter(l -> l.startsWith("debug built the launch helper"))).as("one build over two JVMs").hasSize(1);
    }

    @Test
    @Timeout(120)
    void aCompilerThatHangsIsKilledAtTheDeadline() throws Exception {
        Path pidFile = dir.resolve("cc.pid");
        Path cc = script("hanging-cc", "if [ \"$1\" = -dumpmachine ]; then echo x86_64-linux-gnu; exit 0; fi\n"
                + "echo $$ > '" + pidFile + "'\nexec sleep 600\n");
        NativeHelper.Located located = NativeHelper.locate(log, cache, cc.toString(), Duration.ofSeconds(1), Suggestions.PLAIN);
        assertThat(located.binary()).isNull();
        assertThat(located.problem()).contains("could not build it").contains("did not finish in 1 s");
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("the hung compiler was killed").isFalse();
    }

    @Test
    @Timeout(120)
    void aCompilerThatHangsOnDumpmachineIsKilledToo() throws Exception {
        Path cc = script("mute-cc", "exec sleep 600\n");
        NativeHelper.Located located = NativeHelper.locate(log, cache, cc.toString(), Duration.ofSeconds(1), Suggestions.PLAIN);
        assertThat(located.problem()).contains("does not work").contains("did not finish in 1 s");
    }

    @Test
    void noCompilerSaysSo() {
        assertThat(NativeHelper.locate(log, cache, null, Duration.ofSeconds(1), Suggestions.PLAIN).problem()).contains("no C compiler found");
    }

    @Test
    void aCacheUnderAFileIsNotWritableAndSaysWhere() throws Exception {
        Path file = Files.writeString(dir.resolve("plain-file"), "x");
        assertThat(HelperCache.problem(file.resolve("cache"), Suggestions.PLAIN)).contains("is not writable")
                .contains("set the system property patchgrade.cacheDir or PATCHGRADE_CACHE to a writable directory");
        assertThat(HelperCache.problem(cache, Suggestions.PLAIN)).isNull();
    }

    /** Opens a launcher the way every goal does and checks it runs a real program through the helper. */
    private Path openAndCheck() throws IOException {
        try (Launcher launcher = Launchers.open(log)) {
            assertThat(launcher.measuresUsage()).as(launcher.description()).isTrue();
            LaunchResult result = launcher.launch(LaunchRequest.of(List.of(Fixtures.command("crash"), "exit:3")));
            assertThat(result.exitCode()).isEqualTo(3);
        }
        return debugBinary();
    }

    private Path debugBinary() throws IOException {
        try (Stream<Path> dirs = Files.list(cache)) {
            List<Path> helpers = dirs.filter(p -> p.getFileName().toString().startsWith("helper-")).toList();
            assertThat(helpers).hasSize(1);
            return helpers.get(0).resolve(HelperCache.BINARY_NAME);
        }
    }

    private Path script(String name, String body) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }
}
