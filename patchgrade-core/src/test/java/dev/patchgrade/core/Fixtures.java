package dev.patchgrade.core;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** The C/C++ fixture programs the build compiled into target/fixtures. */
public final class Fixtures {
    private Fixtures() {}

    public static Path path(String name) {
        String root = System.getProperty("patchgrade.fixtures", "target/fixtures");
        Path binary = Path.of(root, name).toAbsolutePath();
        if (!Files.exists(binary)) {
            throw new IllegalStateException("fixture " + binary + " was not built; run the tests through Maven");
        }
        return binary;
    }

    public static String command(String name) {
        return path(name).toString();
    }

    /**
     * Output (stdout and stderr together) of the fixture run straight from the JVM in {@code directory}, no launcher
     * and no sandbox: the control an attack test compares the sandboxed run with.
     */
    public static String outputOutsideTheSandbox(String name, Path directory, String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(command(name)));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(command + " did not end within 30 s");
        }
        return out;
    }

    /** Live processes running the fixture binary (children and grandchildren keep its image). */
    public static List<ProcessHandle> alive(String name) {
        String binary = path(name).toString();
        return ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(handle -> handle.info().command().map(binary::equals).orElse(false))
                .collect(Collectors.toList());
    }

    /**
     * Waits for the kernel to finish reaping (up to a minute, which only a failure waits out in full:
     * a busy machine may take seconds), then lists what is still alive.
     */
    public static List<ProcessHandle> aliveAfterSettling(String name) throws InterruptedException {
        for (int i = 0; i < 3000; i++) {
            if (alive(name).isEmpty()) {
                return List.of();
            }
            Thread.sleep(20);
        }
        return alive(name);
    }
}
