package dev.patchgrade.maven;

import dev.patchgrade.core.classify.ReferenceHome;
import dev.patchgrade.core.launch.ChildEnvironment;
import dev.patchgrade.core.launch.ExecutableCheck;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.maven.model.Build;
import org.apache.maven.model.BuildBase;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.model.Profile;
import org.apache.maven.model.Resource;
import org.apache.maven.project.MavenProject;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/**
 * The oracle files of every patchgrade execution of a module, read from the project model: a candidate graded
 * by one execution must not read the gold of another. The sandbox shows a run only what it is given; this names
 * what stays hidden inside that: the oracle files themselves (not the directories holding them, so an input kept
 * beside them stays visible), and each frozen reference's home, which only that reference's runs see.
 */
final class ModuleOracles {
    static final String PLUGIN_ARTIFACT = "patchgrade-maven-plugin";
    private static final List<String> ORACLE_PARAMETERS = List.of("envelope", "cases", "gold", "referenceDigest", "expectStdout");
    /** Where the goals' defaults put oracles, configured or not. */
    private static final List<String> DEFAULT_ORACLES = List.of("src/test/patchgrade/envelope.json", "src/test/patchgrade/cases.txt",
            "src/test/patchgrade/cases.jsonl", "src/test/patchgrade/gold", "src/test/patchgrade/reference.sha256");

    private ModuleOracles() {}

    static List<Path> of(MavenProject project) {
        return of(project, new Properties());
    }

    /**
     * @param userProperties the build's {@code -D} properties: a parameter set through its property
     *     ({@code -Dpatchgrade.gold=...}) names an oracle as much as the POM does
     */
    static List<Path> of(MavenProject project, Properties userProperties) {
        if (project == null) {
            return List.of();
        }
        Path base = project.getBasedir().toPath();
        Set<Path> oracles = new LinkedHashSet<>();
        DEFAULT_ORACLES.forEach(name -> oracles.add(base.resolve(name)));
        for (Xpp3Dom configuration : configurations(project)) {
            for (String name : ORACLE_PARAMETERS) {
                add(value(configuration.getChild(name), project, userProperties), base, oracles);
            }
            // Another execution's reports hold every row's golden.
            add(value(configuration.getChild("reportsDirectory"), project, userProperties), base, oracles);
            // A frozen reference: any other goal's candidate could run it and print its answers.
            Path home = referenceHome(configuration, project, userProperties);
            if (home != null) {
                oracles.add(home);
            }
            // A differential generator decides what is graded: its script, as the cases file.
            List<String> generator = words(configuration.getChild("generator"), project, userProperties);
            if (generator.size() > 1) {
                generator.subList(1, generator.size()).stream().filter(word -> word != null && !word.contains("${") && !word.startsWith("-"))
                        .filter(word -> java.nio.file.Files.isRegularFile(workingDirectory(configuration, base).resolve(word)))
                        .forEach(word -> oracles.add(workingDirectory(configuration, base).resolve(word).normalize()));
            }
        }
        for (String name : ORACLE_PARAMETERS) {
            for (String value : property(name, project, userProperties)) {
                add(value, base, oracles);
            }
        }
        // A three-column cases file's golden_files are goldens as much as the inline ones.
        for (Path cases : List.copyOf(oracles)) {
            try {
                oracles.addAll(dev.patchgrade.core.cases.CasesFile.goldenFiles(cases));
            } catch (RuntimeException e) {
                // an unreadable cases file is the error of the goal that reads it
            }
        }
        oracles.addAll(copiedAsResources(project, oracles));
        return new ArrayList<>(oracles);
    }

    /** A three-column execution's {@code referenceHome}, or the default its {@code reference} gives; {@code null} for none. */
    private static Path referenceHome(Xpp3Dom configuration, MavenProject project, Properties userProperties) {
        Path base = project.getBasedir().toPath();
        String configured = value(configuration.getChild("referenceHome"), project, userProperties);
        if (configured != null && !configured.isBlank() && !configured.contains("${")) {
            return resolve(configured, base);
        }
        List<String> words = words(configuration.getChild("reference"), project, userProperties);
        if (words.isEmpty() || words.get(0) == null || words.get(0).contains("${")) {
            return null;
        }
        Path workingDirectory = workingDirectory(configuration, base);
        ExecutableCheck.Resolution executable = ExecutableCheck.resolve(words.get(0), workingDirectory,
                ChildEnvironment.pinned(environment(configuration)));
        // Not built yet: the home its path will have is hidden all the same.
        Path program = executable.path() != null ? executable.path()
                : words.get(0).contains("/") ? workingDirectory.resolve(words.get(0)).normalize() : null;
        if (program == null) {
            return null;
        }
        Path home = ReferenceHome.defaultHome(program);
        // A system program's directory is no reference's own (the goal itself says to set referenceHome); in one holding the
        // project, the executable alone is the reference's (the goal warns).
        if (home == null || ReferenceHome.system(home)) {
            return null;
        }
        return base.toAbsolutePath().normalize().startsWith(home) ? program : home;
    }

    private static List<String> words(Xpp3Dom list, MavenProject project, Properties userProperties) {
        List<String> words = new ArrayList<>();
        for (int i = 0; list != null && i < list.getChildCount(); i++) {
            words.add(value(list.getChild(i), project, userProperties));
        }
        return words;
    }

    /** Where an execution's commands run: its {@code workingDirectory}, relative to the project, or the project. */
    private static Path workingDirectory(Xpp3Dom configuration, Path base) {
        String configured = value(configuration.getChild("workingDirectory"));
        return configured == null || configured.isBlank() || configured.contains("${") ? base : base.resolve(configured).normalize();
    }

    /** An execution's {@code <environment>}: its {@code PATH} decides which program a bare command name is. */
    private static Map<String, String> environment(Xpp3Dom configuration) {
        Map<String, String> environment = new java.util.LinkedHashMap<>();
        Xpp3Dom configured = configuration.getChild("environment");
        for (int i = 0; configured != null && i < configured.getChildCount(); i++) {
            Xpp3Dom variable = configured.getChild(i);
            if (variable.getValue() != null && !variable.getValue().contains("${")) {
                environment.put(variable.getName(), variable.getValue());
            }
        }
        return environment;
    }

    /**
     * The plugin's configurations and its executions', in the effective build, in its plugin management and in
     * every profile, active or not: a profile this build leaves off still has its oracles on the disk.
     */
    private static List<Xpp3Dom> configurations(MavenProject project) {
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

    /**
     * Every value the parameter's property has: the user's ({@code -D}), the JVM's ({@code MAVEN_OPTS},
     * {@code .mvn/jvm.config}: Maven's evaluator reads those too) and the project's.
     */
    private static List<String> property(String parameter, MavenProject project, Properties userProperties) {
        String name = "patchgrade." + parameter;
        List<String> values = new ArrayList<>();
        List<String> candidates = new ArrayList<>(java.util.Arrays.asList(userProperties.getProperty(name), System.getProperty(name),
                project.getProperties().getProperty(name)));
        // A profile's properties, active or not, the project's and its parents'.
        for (MavenProject at = project; at != null; at = at.getParent()) {
            if (at.getModel() != null) {
                for (Profile profile : at.getModel().getProfiles()) {
                    candidates.add(profile.getProperties().getProperty(name));
                }
            }
        }
        for (String value : candidates) {
            if (value != null && !values.contains(value)) {
                values.add(value);
            }
        }
        return values;
    }

    private static String value(Xpp3Dom element) {
        return element == null ? null : element.getValue();
    }

    /** The element's value with the expressions a POM commonly puts in a path replaced ({@code ${project.basedir}}, properties). */
    private static String value(Xpp3Dom element, MavenProject project, Properties userProperties) {
        String raw = value(element);
        return raw == null ? null : Interpolation.of(project, userProperties).apply(raw);
    }

    private static List<Plugin> plugins(MavenProject project) {
        List<Plugin> plugins = new ArrayList<>(project.getBuildPlugins());
        Build build = project.getBuild();
        if (build != null && build.getPluginManagement() != null) {
            plugins.addAll(build.getPluginManagement().getPlugins());
        }
        // The project's profiles and its parents' (a profile a parent declares is not in the child's model).
        List<Profile> profiles = new ArrayList<>();
        for (MavenProject at = project; at != null; at = at.getParent()) {
            if (at.getModel() != null) {
                profiles.addAll(at.getModel().getProfiles());
            }
        }
        {
            for (Profile profile : profiles) {
                BuildBase profileBuild = profile.getBuild();
                if (profileBuild != null) {
                    plugins.addAll(profileBuild.getPlugins());
                    if (profileBuild.getPluginManagement() != null) {
                        plugins.addAll(profileBuild.getPluginManagement().getPlugins());
                    }
                }
            }
        }
        return plugins.stream().filter(plugin -> PLUGIN_ARTIFACT.equals(plugin.getArtifactId())).toList();
    }

    /**
     * Where the build copies oracles kept under a resource directory ({@code src/test/resources/gold} lands in
     * {@code target/test-classes/gold}): the copy is the oracle as much as the file.
     */
    private static List<Path> copiedAsResources(MavenProject project, Set<Path> oracles) {
        Build build = project.getBuild();
        if (build == null) {
            return List.of();
        }
        Path base = project.getBasedir().toPath();
        List<Path> copies = new ArrayList<>();
        copies.addAll(copies(base, build.getResources(), build.getOutputDirectory(), oracles));
        copies.addAll(copies(base, build.getTestResources(), build.getTestOutputDirectory(), oracles));
        return copies;
    }

    private static List<Path> copies(Path base, List<Resource> resources, String outputDirectory, Set<Path> oracles) {
        if (resources == null || outputDirectory == null) {
            return List.of();
        }
        List<Path> copies = new ArrayList<>();
        Path output = base.resolve(outputDirectory).normalize();
        for (Resource resource : resources) {
            if (resource.getDirectory() == null) {
                continue;
            }
            Path from = base.resolve(resource.getDirectory()).normalize();
            Path to = resource.getTargetPath() == null ? output : output.resolve(resource.getTargetPath()).normalize();
            for (Path oracle : oracles) {
                Path normal = oracle.normalize();
                if (normal.startsWith(from)) {
                    copies.add(to.resolve(from.relativize(normal)));
                }
            }
        }
        return copies;
    }

    /**
     * The module's oracles and those of every other module of the reactor, with the other modules' reports and
     * kept streams: a candidate graded in one module must not read the gold a sibling module keeps.
     */
    static List<Path> ofReactor(MavenProject project, List<MavenProject> reactor) {
        return ofReactor(project, reactor, new Properties());
    }

    static List<Path> ofReactor(MavenProject project, List<MavenProject> reactor, Properties userProperties) {
        Set<Path> oracles = new LinkedHashSet<>(of(project, userProperties));
        for (MavenProject other : reactor == null ? List.<MavenProject>of() : reactor) {
            if (other != project && other.getBasedir() != null) {
                oracles.addAll(of(other, userProperties));
                oracles.addAll(outputDirectories(other, userProperties));
            }
        }
        return new ArrayList<>(oracles);
    }

    /**
     * Where the goals of every module of the reactor write what holds the goldens: kept streams and candidate digests
     * ({@code target/patchgrade}) and reports, the default and each execution's {@code reportsDirectory}. A directory
     * that is absent when a launcher opens cannot be hidden, and under {@code mvn -T} another module writes there while
     * this one's candidates run: the goal creates them first.
     */
    static List<Path> outputDirectories(MavenProject project, List<MavenProject> reactor, Properties userProperties) {
        Set<Path> directories = new LinkedHashSet<>();
        if (project != null && project.getBasedir() != null) {
            directories.addAll(outputDirectories(project, userProperties));
        }
        for (MavenProject other : reactor == null ? List.<MavenProject>of() : reactor) {
            // Only where a goal of this plugin may write: a module without it keeps its target/ as it is.
            if (other != project && other.getBasedir() != null && !plugins(other).isEmpty()) {
                directories.addAll(outputDirectories(other, userProperties));
            }
        }
        return new ArrayList<>(directories);
    }

    private static Set<Path> outputDirectories(MavenProject module, Properties userProperties) {
        Set<Path> directories = new LinkedHashSet<>();
        Path base = module.getBasedir().toPath();
        String directory = module.getBuild() == null ? null : module.getBuild().getDirectory();
        Path build = directory == null ? base.resolve("target") : base.resolve(directory);
        directories.add(build.resolve("patchgrade"));
        directories.add(build.resolve("patchgrade-reports"));
        for (String value : property("reportsDirectory", module, userProperties)) {
            add(value, base, directories);
        }
        for (Xpp3Dom configuration : configurations(module)) {
            add(value(configuration.getChild("reportsDirectory"), module, userProperties), base, directories);
        }
        return directories;
    }

    private static void add(String value, Path base, Set<Path> oracles) {
        if (value == null || value.isBlank() || value.contains("${")) {
            return;
        }
        oracles.add(resolve(value, base));
    }

    private static Path resolve(String value, Path base) {
        File file = new File(value.strip());
        return (file.isAbsolute() ? file.toPath() : base.resolve(file.toPath())).normalize();
    }
}
