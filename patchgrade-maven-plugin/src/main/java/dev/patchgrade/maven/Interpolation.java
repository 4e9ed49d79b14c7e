package dev.patchgrade.maven;

import java.util.Properties;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.maven.project.MavenProject;

/**
 * Replaces the expressions a POM commonly writes in a path ({@code ${project.basedir}/src/test/patchgrade/gold},
 * {@code ${project.build.directory}}, properties) as Maven would for {@code project}: the raw configuration of
 * another execution or module holds them unreplaced, and its oracle must be hidden where it really is. An
 * expression it cannot replace is left as it is.
 */
final class Interpolation {
    private static final Pattern EXPRESSION = Pattern.compile("\\$\\{([^}]+)}");
    private static final int MOST_ROUNDS = 8;

    private Interpolation() {}

    static UnaryOperator<String> of(MavenProject project, Properties userProperties) {
        return text -> {
            String result = text;
            for (int round = 0; round < MOST_ROUNDS && result.contains("${"); round++) {
                Matcher matcher = EXPRESSION.matcher(result);
                StringBuilder replaced = new StringBuilder();
                boolean changed = false;
                while (matcher.find()) {
                    String value = lookUp(matcher.group(1), project, userProperties);
                    changed |= value != null;
                    matcher.appendReplacement(replaced, Matcher.quoteReplacement(value != null ? value : matcher.group()));
                }
                matcher.appendTail(replaced);
                result = replaced.toString();
                if (!changed) {
                    break;
                }
            }
            return result;
        };
    }

    private static String lookUp(String name, MavenProject project, Properties userProperties) {
        switch (name) {
            case "basedir", "project.basedir":
                return project.getBasedir() == null ? null : project.getBasedir().getPath();
            case "project.build.directory":
                return project.getBuild() == null ? null : project.getBuild().getDirectory();
            case "project.build.outputDirectory":
                return project.getBuild() == null ? null : project.getBuild().getOutputDirectory();
            case "project.build.testOutputDirectory":
                return project.getBuild() == null ? null : project.getBuild().getTestOutputDirectory();
            case "project.artifactId":
                return project.getArtifactId();
            case "project.groupId":
                return project.getGroupId();
            case "project.version":
                return project.getVersion();
            default:
                break;
        }
        if (name.startsWith("env.")) {
            return System.getenv(name.substring(4));
        }
        String value = userProperties.getProperty(name);
        if (value == null && project.getProperties() != null) {
            value = project.getProperties().getProperty(name);
        }
        return value != null ? value : System.getProperty(name);
    }
}
