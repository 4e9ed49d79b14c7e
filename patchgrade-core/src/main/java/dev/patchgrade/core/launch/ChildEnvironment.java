package dev.patchgrade.core.launch;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The environment graded children get. Nothing of the grader's own environment leaks in except
 * {@code PATH}: a candidate that reads its environment finds no oracle path and no golden text.
 */
public final class ChildEnvironment {
    private ChildEnvironment() {}

    public static Map<String, String> pinned(Map<String, String> extra) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("LC_ALL", "C");
        env.put("TZ", "UTC");
        String path = System.getenv("PATH");
        env.put("PATH", path == null ? "/usr/local/bin:/usr/bin:/bin" : path);
        if (extra != null) {
            env.putAll(extra);
        }
        return env;
    }
}
