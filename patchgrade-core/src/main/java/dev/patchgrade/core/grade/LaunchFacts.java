package dev.patchgrade.core.grade;

import dev.patchgrade.core.launch.Launcher;
import dev.patchgrade.core.launch.SandboxStatus;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What an execution's launchers turned out to be, for its reports: whether children ran in the
 * sandbox and how figures were measured. Filled when a launcher opens; an execution that stopped
 * before starting any child reports that none ran.
 */
public final class LaunchFacts {
    private final AtomicReference<SandboxStatus> sandbox = new AtomicReference<>();
    private final AtomicReference<String> method = new AtomicReference<>();
    private final java.util.Set<java.nio.file.Path> hidden = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.Set<String> hintsLogged = java.util.concurrent.ConcurrentHashMap.newKeySet();

    void observe(Launcher launcher, dev.patchgrade.core.launch.SandboxSpec spec) {
        hidden.addAll(spec.hidden());
        hidden.addAll(spec.oracles());
        SandboxStatus status = launcher.sandbox();
        // Of several launchers (reference and candidate), the report names the weakest.
        sandbox.accumulateAndGet(status, (old, now) -> old == null || old.active() ? now : old);
        method.compareAndSet(null, launcher.method());
    }

    public SandboxStatus sandbox() {
        SandboxStatus status = sandbox.get();
        return status == null ? SandboxStatus.off("no child was started") : status;
    }

    /** Hints for a failing run whose stderr shows the sandbox refused it something; none without the sandbox. */
    public java.util.List<String> hints(String stderr) {
        return sandbox().active() ? SandboxHints.forStderr(stderr, java.util.List.copyOf(hidden)) : java.util.List.of();
    }

    /** The hints, appended to a failure's details, and each logged once per execution as a warning. */
    public String hintText(String stderr, dev.patchgrade.core.GradeLog log) {
        StringBuilder text = new StringBuilder();
        for (String hint : hints(stderr)) {
            text.append("\nhint: ").append(hint);
            if (hintsLogged.add(hint)) {
                log.warn(hint);
            }
        }
        return text.toString();
    }

    public String method() {
        String value = method.get();
        return value == null ? "none" : value;
    }

    /** The report's {@code sandbox} object. */
    public Map<String, Object> sandboxJson() {
        SandboxStatus status = sandbox();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("mode", status.mode());
        json.put("reason", status.reason());
        json.put("tamper_proof", status.active());
        return json;
    }
}
