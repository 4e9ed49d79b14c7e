package dev.patchgrade.core.launch;

import dev.patchgrade.core.Setting;
import dev.patchgrade.core.Suggestions;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The helper's wire format (see the comment at the top of pg-main.c): a request is a length-prefixed
 * run of NUL-terminated fields, an answer one line of key=value words. An answer that is not exactly what the
 * helper writes is garbled, and the helper that wrote it is not trusted again.
 */
final class HelperProtocol {
    private static final int ENOENT = 2;
    private static final int ENOEXEC = 8;
    private static final int EACCES = 13;
    private static final int ENOSPC = 28;
    private static final Set<String> DONE_KEYS = Set.of("status", "code", "signal", "signame", "timed_out", "maxrss_kb",
            "utime_us", "stime_us", "minflt", "majflt", "inblock", "oublock", "wall_us", "leftovers", "cpu_wait_us", "leader_cpu_us",
            "tree_rss_kb", "unwaited_cpu_us", "init_cpu_us", "tasks");

    private HelperProtocol() {}

    /**
     * A run's token: the helper ends its answer with it, so a line a child wrote into the helper's stdout (possible
     * without the sandbox, for a child as powerful as the helper) cannot pass for the answer to a run it never saw.
     */
    static String token() {
        return Long.toHexString(ThreadLocalRandom.current().nextLong());
    }

    static byte[] encode(String token, LaunchRequest request, Path executable, RunFiles files, Duration grace) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(512);
        field(body, token);
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

    static Long number(Map<String, String> reply, String key) {
        String value = reply.get(key);
        return value == null ? null : Long.valueOf(value);
    }

    /** Whether {@code reply} is a whole answer to the run with {@code token}. */
    static boolean valid(Map<String, String> reply, String token) {
        if (!token.equals(reply.get("run"))) {
            return false;
        }
        try {
            if (reply.containsKey("nostart")) {
                return reply.size() == 4 && reply.containsKey("stage") && Integer.parseInt(reply.get("errno")) >= 0;
            }
            // Exactly the figures, the word "done" and the run's token: no key of a child's making.
            if (!reply.containsKey("done") || !reply.keySet().containsAll(DONE_KEYS) || reply.size() != DONE_KEYS.size() + 2) {
                return false;
            }
            for (String key : DONE_KEYS) {
                if (!key.equals("status") && !key.equals("signame")) {
                    Long.parseLong(reply.get(key));
                }
            }
            return Set.of("exited", "signaled").contains(reply.get("status"));
        } catch (RuntimeException e) {
            return false;
        }
    }

    static Map<String, String> parse(String line) {
        String[] words = line.strip().split(" ");
        Map<String, String> fields = new HashMap<>(words.length * 2);
        fields.put(words[0], "");
        for (int i = 1; i < words.length; i++) {
            int eq = words[i].indexOf('=');
            if (eq > 0) {
                fields.put(words[i].substring(0, eq), words[i].substring(eq + 1));
            } else {
                fields.put("garbled", words[i]);
            }
        }
        return fields;
    }

    static StartFailure startFailure(Map<String, String> reply, LaunchRequest request, Path resolved, Suggestions suggestions) {
        String showIt = "show it with " + suggestions.setting(Setting.READ_ONLY_PATHS);
        String stage = reply.getOrDefault("stage", "exec");
        int errno = Integer.parseInt(reply.getOrDefault("errno", "0"));
        String shown = request.command().get(0);
        if (!stage.equals("exec")) {
            String what = switch (stage) {
                case "chdir" -> "cannot enter the working directory " + request.workingDirectory()
                        + (errno == EACCES || errno == ENOENT ? " (hidden by the sandbox? " + showIt + ")" : "");
                case "stdin", "stdout", "stderr" -> "cannot open the file for " + stage;
                case "sandbox_tmp", "sandbox_ipc" -> "the sandbox could not give the run its own "
                        + (stage.equals("sandbox_tmp") ? "/tmp and /dev/shm (a tmpfs mount" : "IPC namespace (unshare(CLONE_NEWIPC)")
                        + " was refused inside the run's user namespace; a seccomp profile or LSM of the agent's container can do that: "
                        + "allow it there, as the site's Security model page, \"Docker and Kubernetes\", says)";
                case "sandbox_net" -> "the sandbox could not make the run its own network namespace (unshare(CLONE_NEWNET)"
                        + (errno == ENOSPC ? ": the quota of network namespaces (sysctl user.max_net_namespaces) is used up, or the kernel frees used "
                                + "ones more slowly than runs end"
                                : " was refused inside the launcher's user namespace; a seccomp profile or LSM of the agent's container can "
                                        + "do that: allow it there, as the site's Security model page, \"Docker and Kubernetes\", says")
                        + ")";
                default -> "failed while preparing the child (" + stage + ")";
            };
            return new StartFailure(StartFailure.Kind.OTHER, shown, what + ", errno " + errno);
        }
        return switch (errno) {
            case ENOENT -> new StartFailure(StartFailure.Kind.NOT_FOUND, shown,
                    Files.exists(resolved) ? "its #! interpreter or dynamic loader is missing (or hidden by the sandbox: "
                            + showIt + ")" : "no file at " + resolved);
            case EACCES -> new StartFailure(StartFailure.Kind.NOT_EXECUTABLE, shown, "permission denied"
                    + (Files.isExecutable(resolved) ? " (inside the sandbox: is it under a hidden path? " + showIt + ")" : ""));
            case ENOEXEC -> new StartFailure(StartFailure.Kind.BAD_FORMAT, shown, "exec format error");
            default -> new StartFailure(StartFailure.Kind.OTHER, shown, "execve failed, errno " + errno);
        };
    }
}
