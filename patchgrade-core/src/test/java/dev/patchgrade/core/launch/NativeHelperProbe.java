package dev.patchgrade.core.launch;

import dev.patchgrade.core.GradeLog;
import dev.patchgrade.core.Suggestions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Run in separate JVMs by {@link NativeHelperTest}: two threads locate the helper in the given cache and print what they got. */
public final class NativeHelperProbe {
    private NativeHelperProbe() {}

    /** A log that passes only its debug lines on. */
    static GradeLog debugTo(Consumer<String> lines) {
        return new GradeLog() {
            @Override
            public void info(String message) {}

            @Override
            public void warn(String message) {}

            @Override
            public void debug(String message) {
                lines.accept(message);
            }
        };
    }

    public static void main(String[] args) throws Exception {
        GradeLog log = debugTo(line -> System.out.println("debug " + line));
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Thread thread = new Thread(() -> {
                NativeHelper.Located located = NativeHelper.locate(log, Path.of(args[0]), "cc", NativeHelper.COMPILE_TIMEOUT, Suggestions.PLAIN);
                System.out.println(located.binary() != null ? "located " + located.binary() : "problem " + located.problem());
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }
}
