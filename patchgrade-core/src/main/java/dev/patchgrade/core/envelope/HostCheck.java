package dev.patchgrade.core.envelope;

import dev.patchgrade.core.host.HostInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What to do when the grading host is not the class the envelope was recorded on. */
public enum HostCheck {
    FAIL, WARN, IGNORE;

    public static HostCheck parse(String value) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw dev.patchgrade.core.PatchgradeException.badParameter(dev.patchgrade.core.Setting.HOST_CHECK,
                    "must be fail, warn or ignore (found \"" + value + "\")");
        }
    }

    /**
     * The differences between the recorded host class and toolchain and this one, each one sentence.
     * A missing recorded toolchain, or no configured compiler, is not a difference.
     */
    public static List<String> differences(Envelope envelope, HostInfo current, String currentToolchain) {
        List<String> differences = new ArrayList<>();
        HostInfo recorded = envelope.host();
        if (recorded != null && !recorded.className().equals(current.className())) {
            differences.add("host class: recorded \"" + recorded.className() + "\", this host is \"" + current.className() + "\"");
        }
        if (envelope.toolchain() != null && currentToolchain != null && !envelope.toolchain().equals(currentToolchain)) {
            differences.add("toolchain: recorded \"" + envelope.toolchain() + "\", configured compiler is \"" + currentToolchain + "\"");
        }
        return differences;
    }
}
