package dev.patchgrade.core.grade;

import dev.patchgrade.core.Suggestions;
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
    private final AtomicReference<String> cpuLimitation = new AtomicReference<>();
    private final java.util.Set<java.nio.file.Path> hidden = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final java.util.Set<String> hintsLogged = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final java.util.List<dev.patchgrade.core.launch.SandboxSpec> views = new java.util.concurrent.CopyOnWriteArrayList<>();

    private final AtomicReference<java.nio.file.Path> workingDirectory = new AtomicReference<>();

    public void observe(Launcher launcher, dev.patchgrade.core.launch.SandboxSpec spec, java.nio.file.Path directory) {
        hidden.addAll(spec.hidden());
        views.add(spec);
        if (directory != null) {
            workingDirectory.compareAndSet(null, directory);
        }
        SandboxStatus status = launcher.sandbox();
        // Of several launchers (reference and candidate), the report names the weakest.
        sandbox.accumulateAndGet(status, (old, now) -> old == null || old.active() ? now : old);
        method.compareAndSet(null, launcher.method());
        if (launcher.measuresUsage() && launcher.cpuLimitation() != null) {
            cpuLimitation.compareAndSet(null, launcher.cpuLimitation());
        }
    }

    /** What has been observed so far; {@link #forgetSince} puts it back. */
    Seen seen() {
        return new Seen(sandbox.get(), method.get(), cpuLimitation.get(), java.util.Set.copyOf(hidden));
    }

    /** The facts at one moment. */
    record Seen(SandboxStatus sandbox, String method, String cpuLimitation, java.util.Set<java.nio.file.Path> hidden) {}

    /**
     * Forgets the launchers observed since {@code seen}: they were opened beside the reading of the oracles and closed
     * when that failed, before any child ran, so the report says that none ran.
     */
    void forgetSince(Seen seen) {
        sandbox.set(seen.sandbox());
        method.set(seen.method());
        cpuLimitation.set(seen.cpuLimitation());
        hidden.retainAll(seen.hidden());
    }

    /** What this execution's CPU figures miss, or {@code null} when they cover the whole tree (or were not measured). */
    public String cpuLimitation() {
        return cpuLimitation.get();
    }

    /** The CPU figures' coverage in one line, for the XML report's {@code patchgrade.cpu} property. */
    public String cpuDescription() {
        String limitation = cpuLimitation();
        return limitation == null ? "whole tree (" + method() + ")" : "incomplete: " + limitation;
    }

    /** Says once per execution, as a warning, what the CPU figures miss; nothing when they miss nothing. */
    public void warnCpuLimitation(dev.patchgrade.core.GradeLog log) {
        String limitation = cpuLimitation();
        if (limitation != null && hintsLogged.add(limitation)) {
            log.warn(limitation);
        }
    }

    public SandboxStatus sandbox() {
        SandboxStatus status = sandbox.get();
        return status == null ? SandboxStatus.off("no child was started") : status;
    }

    /** Hints for a failing run whose stderr shows the sandbox refused it something; none without the sandbox. */
    public java.util.List<String> hints(String stderr, Suggestions shown) {
        return sandbox().active() ? SandboxHints.forStderr(stderr, java.util.List.copyOf(hidden), java.util.List.copyOf(views),
                workingDirectory.get(), shown)
                : java.util.List.of();
    }

    /**
     * At most this many hints are logged per execution. A hint quotes a path out of the run's stderr, so a failing
     * candidate chooses them: three new ones a case would bury the build's summary under warnings it wrote.
     */
    static final int HINTS_LOGGED = 5;
    private final java.util.concurrent.atomic.AtomicInteger hintsWarned = new java.util.concurrent.atomic.AtomicInteger();

    /** The hints, appended to a failure's details, and each logged once per execution as a warning (the first few). */
    public String hintText(String stderr, dev.patchgrade.core.GradeLog log, Suggestions shown) {
        StringBuilder text = new StringBuilder();
        for (String hint : hints(stderr, shown)) {
            text.append("\nhint: ").append(hint);
            if (hintsLogged.add(hint)) {
                int warned = hintsWarned.incrementAndGet();
                if (warned <= HINTS_LOGGED) {
                    log.warn(hint);
                } else if (warned == HINTS_LOGGED + 1) {
                    log.warn("more sandbox hints than the " + HINTS_LOGGED + " above: each is in its failure's body in the JUnit report");
                }
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
        // Beside the sandbox's facts because every goal's report carries this object; false names a figure a candidate can shrink.
        json.put("cpu_complete", cpuLimitation() == null);
        if (cpuLimitation() != null) {
            json.put("cpu_limitation", cpuLimitation());
        }
        return json;
    }
}
