package dev.patchgrade.maven;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.project.MavenProject;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/**
 * The oracle files of every patchgrade execution of a module, read from the project model: a
 * candidate graded by one execution must not read the gold of another.
 */
final class ModuleOracles {
    static final String PLUGIN_ARTIFACT = "patchgrade-maven-plugin";
    private static final List<String> ORACLE_PARAMETERS = List.of("envelope", "cases", "gold", "referenceDigest", "expectStdout");

    private ModuleOracles() {}

    static List<Path> of(MavenProject project) {
        if (project == null) {
            return List.of();
        }
        Path base = project.getBasedir().toPath();
        Set<Path> oracles = new LinkedHashSet<>();
        // Where the parameters' defaults put oracles, configured or not.
        oracles.add(base.resolve("src/test/patchgrade"));
        for (Plugin plugin : project.getBuildPlugins()) {
            if (!PLUGIN_ARTIFACT.equals(plugin.getArtifactId())) {
                continue;
            }
            collect(plugin.getConfiguration(), base, oracles);
            for (PluginExecution execution : plugin.getExecutions()) {
                collect(execution.getConfiguration(), base, oracles);
            }
        }
        return new ArrayList<>(oracles);
    }

    private static void collect(Object configuration, Path base, Set<Path> oracles) {
        if (!(configuration instanceof Xpp3Dom dom)) {
            return;
        }
        for (String name : ORACLE_PARAMETERS) {
            Xpp3Dom child = dom.getChild(name);
            String value = child == null ? null : child.getValue();
            if (value == null || value.isBlank() || value.contains("${")) {
                continue;
            }
            File file = new File(value.strip());
            oracles.add(file.isAbsolute() ? file.toPath() : base.resolve(file.toPath()));
        }
    }
}
