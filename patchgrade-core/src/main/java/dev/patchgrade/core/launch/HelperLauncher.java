package dev.patchgrade.core.launch;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Launches through resident helper processes, one per concurrent caller: each launch is one request
 * on a pipe, so the per-launch cost is the helper's fork and exec, not a new JVM spawn.
 */
final class HelperLauncher implements Launcher {
    /** Set to {@code false} to make new helpers wait through SIGCHLD, the path of systems without pidfds. */
    static final String PIDFD_PROPERTY = "patchgrade.helper.pidfd";
    private static final int ENOENT = 2;
    private static final int ENOEXEC = 8;
    private static final int EACCES = 13;

    private final Path helperBinary;
    private final Path scratch;
    private final Duration grace;
    private final Deque<HelperProcess> idle = new ConcurrentLinkedDeque<>();
    private final Set<HelperProcess> all = ConcurrentHashMap.newKeySet();
    private final AtomicLong helpers = new AtomicLong();
    private volatile boolean closed;

    HelperLauncher(Path helperBinary, Path scratch, Duration grace) {
        this.helperBinary = helperBinary;
        this.scratch = scratch;
        this.grace = grace;
    }

    @Override
    public boolean measuresUsage() {
        return true;
    }

    @Override
    public String description() {
        return "launch helper " + helperBinary;
    }

    @Override
    public LaunchResult launch(LaunchRequest request) {
        if (closed) {
            throw new IllegalStateException("the launcher is closed");
        }
        ExecutableCheck.Resolution resolution = ExecutableCheck.resolve(
                request.command().get(0), request.workingDirectory(), request.environment());
        if (!resolution.ok()) {
            return LaunchResult.couldNotStart(resolution.failure());
        }
        for (String part : request.command()) {
            if (part.indexOf('\0') >= 0) {
                return LaunchResult.couldNotStart(new StartFailure(StartFailure.Kind.OTHER,
                        request.command().get(0), "an argument contains a NUL character, which no process can receive"));
            }
        }
        HelperProcess helper = idle.pollFirst();
        Map<String, String> reply;
        RunFiles files;
        try {
            if (helper == null) {
                helper = HelperProcess.start(helperBinary, scratch, "helper-" + helpers.incrementAndGet());
                all.add(helper);
            }
            files = RunFiles.create(scratch, helper.slot, request, true);
            try {
                reply = helper.run(encode(request, resolution.path(), files));
            } catch (IOException e) {
                files.discard();
                throw e;
            }
        } catch (IOException e) {
            if (helper != null) {
                all.remove(helper);
                helper.destroy();
            }
            throw new UncheckedIOException("the launch helper failed while running " + request.command().get(0), e);
        }
        try {
            if (reply.containsKey("nostart")) {
                files.discard();
                return LaunchResult.couldNotStart(startFailure(reply, request, resolution.path()));
            }
            boolean signaled = "signaled".equals(reply.get("status"));
            Usage usage = new Usage(number(reply, "maxrss_kb"), number(reply, "utime_us"), number(reply, "stime_us"),
                    number(reply, "minflt"), number(reply, "majflt"), number(reply, "inblock"), number(reply, "oublock"));
            return files.finish(request,
                    signaled ? null : Integer.valueOf(reply.get("code")),
                    signaled ? reply.get("signame") : null,
                    signaled ? Integer.valueOf(reply.get("signal")) : null,
                    "1".equals(reply.get("timed_out")),
                    usage,
                    number(reply, "wall_us"));
        } finally {
            // Only now: the helper's scratch files are this run's until they are hashed.
            idle.addFirst(helper);
        }
    }

    private static StartFailure startFailure(Map<String, String> reply, LaunchRequest request, Path resolved) {
        String stage = reply.getOrDefault("stage", "exec");
        int errno = Integer.parseInt(reply.getOrDefault("errno", "0"));
        String shown = request.command().get(0);
        if (!stage.equals("exec")) {
            String what = switch (stage) {
                case "chdir" -> "cannot enter the working directory " + request.workingDirectory();
                case "stdin", "stdout", "stderr" -> "cannot open the file for " + stage;
                default -> "failed while preparing the child (" + stage + ")";
            };
            return new StartFailure(StartFailure.Kind.OTHER, shown, what + ", errno " + errno);
        }
        return switch (errno) {
            case ENOENT -> new StartFailure(StartFailure.Kind.NOT_FOUND, shown,
                    Files.exists(resolved) ? "its #! interpreter or dynamic loader is missing" : "no file at " + resolved);
            case EACCES -> new StartFailure(StartFailure.Kind.NOT_EXECUTABLE, shown, "permission denied");
            case ENOEXEC -> new StartFailure(StartFailure.Kind.BAD_FORMAT, shown, "exec format error");
            default -> new StartFailure(StartFailure.Kind.OTHER, shown, "execve failed, errno " + errno);
        };
    }

    private byte[] encode(LaunchRequest request, Path executable, RunFiles files) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(512);
        field(body, Long.toString(request.timeout().toMillis()));
        field(body, Long.toString(grace.toMillis()));
        field(body, Long.toString(request.outputLimitBytes()));
        field(body, executable.toString());
        field(body, request.workingDirectory() == null ? "" : request.workingDirectory().toAbsolutePath().toString());
        field(body, files.stdin == null ? "" : files.stdin.toAbsolutePath().toString());
        field(body, files.stdout.toString());
        field(body, files.stderr.toString());
        List<String> command = request.command();
        field(body, Integer.toString(command.size()));
        for (String argument : command) {
            field(body, argument);
        }
        field(body, Integer.toString(request.environment().size()));
        request.environment().forEach((key, value) -> field(body, key + "=" + value));
        String length = Integer.toString(body.size());
        byte[] header = ("PGRUN1 " + "0".repeat(10 - length.length()) + length + "\n").getBytes(StandardCharsets.US_ASCII);
        ByteArrayOutputStream all = new ByteArrayOutputStream(header.length + body.size());
        all.writeBytes(header);
        all.writeBytes(body.toByteArray());
        return all.toByteArray();
    }

    private static void field(ByteArrayOutputStream out, String value) {
        out.writeBytes(value.getBytes(StandardCharsets.UTF_8));
        out.write(0);
    }

    private static Long number(Map<String, String> reply, String key) {
        String value = reply.get(key);
        return value == null ? null : Long.valueOf(value);
    }

    @Override
    public void close() {
        closed = true;
        for (HelperProcess helper : all) {
            helper.shutdown();
        }
        all.clear();
        idle.clear();
    }

    /** One resident helper and its pipes. Used by one thread at a time. */
    private static final class HelperProcess {
        private final Process process;
        private final OutputStream requests;
        private final BufferedReader replies;
        final String slot;
        private final Path pidFile;

        private HelperProcess(Process process, String slot, Path pidFile) {
            this.process = process;
            this.slot = slot;
            this.pidFile = pidFile;
            this.requests = process.getOutputStream();
            this.replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
        }

        static HelperProcess start(Path binary, Path scratch, String slot) throws IOException {
            Path pidFile = scratch.resolve(slot + ".pid");
            List<String> command = new java.util.ArrayList<>(List.of(binary.toString(), pidFile.toString()));
            if ("false".equals(System.getProperty(PIDFD_PROPERTY))) {
                command.add("--no-pidfd");
            }
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            builder.environment().clear();
            return new HelperProcess(builder.start(), slot, pidFile);
        }

        Map<String, String> run(byte[] request) throws IOException {
            requests.write(request);
            requests.flush();
            String line = replies.readLine();
            if (line == null) {
                // The helper died while its child ran: the child's group must not outlive it.
                PosixCalls.killGroup(lastChild());
                throw new IOException("the launch helper exited unexpectedly");
            }
            return parse(line);
        }

        private long lastChild() {
            try {
                String text = Files.readString(pidFile, StandardCharsets.US_ASCII).strip();
                return text.isEmpty() ? 0 : Long.parseLong(text);
            } catch (IOException | NumberFormatException e) {
                return 0;
            }
        }

        private static Map<String, String> parse(String line) {
            Map<String, String> fields = new HashMap<>();
            String[] words = line.strip().split(" ");
            fields.put(words[0], "");
            for (int i = 1; i < words.length; i++) {
                int eq = words[i].indexOf('=');
                if (eq > 0) {
                    fields.put(words[i].substring(0, eq), words[i].substring(eq + 1));
                }
            }
            return fields;
        }

        void shutdown() {
            try {
                requests.close();
            } catch (IOException e) {
                // closing the pipe is the signal; a broken pipe means the helper is gone already
            }
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }

        void destroy() {
            process.destroyForcibly();
        }
    }
}
