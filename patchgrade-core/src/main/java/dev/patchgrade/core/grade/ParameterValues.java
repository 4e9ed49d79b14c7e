package dev.patchgrade.core.grade;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import java.util.List;
import java.util.Map;

/**
 * Values a build tool hands over as configured, checked where it passes {@code null}: an empty {@code <arg></arg>}
 * or an environment variable without a value would otherwise reach a child as something nobody wrote.
 */
public final class ParameterValues {
    private ParameterValues() {}

    /**
     * A command's arguments, every one given a value.
     *
     * @param parameter the POM parameter, e.g. {@code command}
     */
    public static List<String> command(String parameter, List<String> values) {
        if (values == null) {
            return List.of();
        }
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null || values.get(i).isEmpty()) {
                String which = "argument " + (i + 1) + " of " + values.size();
                throw new PatchgradeException(ErrorName.BAD_PARAMETER, shown -> shown.setting(Setting.parameter(parameter)) + " has an empty argument ("
                        + which + "); remove it, or give it a value: the build tool cannot pass an empty argument on");
            }
        }
        return List.copyOf(values);
    }

    /** The {@code environment} parameter, every variable given a value; {@code null} is none. */
    static Map<String, String> environment(Map<String, String> environment) {
        if (environment == null) {
            return Map.of();
        }
        environment.forEach((name, value) -> {
            if (value == null) {
                throw new PatchgradeException(ErrorName.BAD_PARAMETER, shown -> shown.setting(Setting.ENVIRONMENT) + " gives variable " + name
                        + " no value; give it one, as in " + shown.configured(Setting.parameter("environment." + name).is("value"))
                        + ", or remove it");
            }
        });
        return Map.copyOf(environment);
    }
}
