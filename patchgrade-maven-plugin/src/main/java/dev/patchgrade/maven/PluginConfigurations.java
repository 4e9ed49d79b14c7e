package dev.patchgrade.maven;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.maven.model.Build;
import org.apache.maven.model.BuildBase;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.model.Profile;
import org.apache.maven.project.MavenProject;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/**
 * This plugin's configuration in a module's model, read without executing anything: every place a POM may
 * configure it, and a parameter's value with the expressions a POM commonly writes in a path replaced.
 */
final class PluginConfigurations {
    static final String PLUGIN_ARTIFACT = "patchgrade-maven-plugin";

    private PluginConfigurations() {}

    /**
     * The plugin's configurations and its executions', in the effective build, in its plugin management and in
     * every profile, active or not: a profile this build leaves off still has its oracles on the disk.
     */
    static List<Xpp3Dom> of(MavenProject project) {
        List<Xpp3Dom> configurations = new ArrayList<>();
        for (Plugin plugin : plugins(project)) {
            if (plugin.getConfiguration() instanceof Xpp3Dom dom) {
                configurations.add(dom);
            }
            for (PluginExecution execution : plugin.getExecutions()) {
                if (execution.getConfiguration() instanceof Xpp3Dom dom) {
                    configurations.add(dom);
                }
            }
        }
        return configurations;
    }

    /** Whether the module declares this plugin anywhere (a module without it keeps its target/ as it is). */
    static boolean declared(MavenProject project) {
        return !plugins(project).isEmpty();
    }

    private static List<Plugin> plugins(MavenProject project) {
        List<Plugin> plugins = new ArrayList<>(project.getBuildPlugins());
        Build build = project.getBuild();
        if (build != null && build.getPluginManagement() != null) {
            plugins.addAll(build.getPluginManagement().getPlugins());
        }
        // A parent's profiles are not in the child's model: each of the project's ancestors is read for its own.
        for (Profile profile : profiles(project)) {
            BuildBase profileBuild = profile.getBuild();
            if (profileBuild != null) {
                plugins.addAll(profileBuild.getPlugins());
                if (profileBuild.getPluginManagement() != null) {
                    plugins.addAll(profileBuild.getPluginManagement().getPlugins());
                }
            }
        }
        return plugins.stream().filter(plugin -> PLUGIN_ARTIFACT.equals(plugin.getArtifactId())).toList();
    }

    private static List<Profile> profiles(MavenProject project) {
        List<Profile> profiles = new ArrayList<>();
        for (MavenProject at = project; at != null; at = at.getParent()) {
            if (at.getModel() != null) {
                profiles.addAll(at.getModel().getProfiles());
            }
        }
        return profiles;
    }

    /**
     * Every value the parameter's property has: the user's ({@code -D}), the JVM's ({@code MAVEN_OPTS},
     * {@code .mvn/jvm.config}: Maven's evaluator reads those too), the project's and any profile's, active or not,
     * the project's and its parents'.
     */
    static List<String> property(String parameter, MavenProject project, Properties userProperties) {
        String name = "patchgrade." + parameter;
        List<String> candidates = new ArrayList<>(Arrays.asList(userProperties.getProperty(name), System.getProperty(name),
                project.getProperties().getProperty(name)));
        for (Profile profile : profiles(project)) {
            candidates.add(profile.getProperties().getProperty(name));
        }
        List<String> values = new ArrayList<>();
        for (String value : candidates) {
            if (value != null && !values.contains(value)) {
                values.add(value);
            }
        }
        return values;
    }

    static String value(Xpp3Dom element) {
        return element == null ? null : element.getValue();
    }

    /** The element's value with the expressions a POM commonly puts in a path replaced ({@code ${project.basedir}}, properties). */
    static String value(Xpp3Dom element, MavenProject project, Properties userProperties) {
        String raw = value(element);
        return raw == null ? null : Interpolation.of(project, userProperties).apply(raw);
    }

    /** A list parameter's values ({@code <reference><arg>...</arg></reference>}), each interpolated. */
    static List<String> words(Xpp3Dom list, MavenProject project, Properties userProperties) {
        List<String> words = new ArrayList<>();
        for (int i = 0; list != null && i < list.getChildCount(); i++) {
            words.add(value(list.getChild(i), project, userProperties));
        }
        return words;
    }

    /** Where an execution's commands run: its {@code workingDirectory}, relative to the project, or the project. */
    static Path workingDirectory(Xpp3Dom configuration, Path base) {
        String configured = value(configuration.getChild("workingDirectory"));
        return configured == null || configured.isBlank() || configured.contains("${") ? base : base.resolve(configured).normalize();
    }

    /** An execution's {@code <environment>}, the variables whose value is known without running the build. */
    static Map<String, String> environment(Xpp3Dom configuration) {
        Map<String, String> environment = new LinkedHashMap<>();
        Xpp3Dom configured = configuration.getChild("environment");
        for (int i = 0; configured != null && i < configured.getChildCount(); i++) {
            Xpp3Dom variable = configured.getChild(i);
            if (variable.getValue() != null && !variable.getValue().contains("${")) {
                environment.put(variable.getName(), variable.getValue());
            }
        }
        return environment;
    }
}
