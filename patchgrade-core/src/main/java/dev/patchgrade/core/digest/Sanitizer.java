package dev.patchgrade.core.digest;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import java.util.Arrays;
import java.util.Locale;

/** What the graded binary was built with. {@code asan+ubsan} gets both sets of options and both report markers. */
public enum Sanitizer {
    NONE("none"), UBSAN("ubsan"), ASAN("asan"), ASAN_UBSAN("asan+ubsan");

    private final String wireName;

    Sanitizer(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Sanitizer parse(String value) {
        String wanted = value == null ? "" : value.strip().toLowerCase(Locale.ROOT).replace("ubsan+asan", "asan+ubsan");
        return Arrays.stream(values()).filter(s -> s.wireName.equals(wanted)).findFirst()
                .orElseThrow(() -> new PatchgradeException(ErrorName.BAD_PARAMETER, shown -> shown.setting(Setting.SANITIZER) + " must be none, "
                        + "ubsan, asan or asan+ubsan (found \"" + value + "\"); give what the binary of " + shown.setting(Setting.COMMAND)
                        + " was built with"));
    }
}
