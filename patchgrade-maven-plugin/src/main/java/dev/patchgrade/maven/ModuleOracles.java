package dev.patchgrade.maven;

import static dev.patchgrade.maven.PluginConfigurations.environment;
import static dev.patchgrade.maven.PluginConfigurations.property;
import static dev.patchgrade.maven.PluginConfigurations.value;
import static dev.patchgrade.maven.PluginConfigurations.words;
import static dev.patchgrade.maven.PluginConfigurations.workingDirectory;

import dev.patchgrade.core.cases.CasesFile;
import dev.patchgrade.core.classify.ReferenceHome;
import dev.patchgrade.core.grade.ReactorOracles;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.maven.model.Build;
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
        for (Xpp3Dom configuration : PluginConfigurations.of(project)) {
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
                        .filter(word -> Files.isRegularFile(workingDirectory(configuration, base).resolve(word)))
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
                oracles.addAll(CasesFile.goldenFiles(cases));
            } catch (RuntimeException e) {
                // an unreadable cases file is the error of the goal that reads it
            }
        }
        oracles.addAll(copiedAsResources(project, oracles));
        return new ArrayList<>(oracles);
    }

    /** A three-column execution's {@code referenceHome}, or what its {@code reference} makes hidden by default; {@code null} for none. */
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
        return ReferenceHome.hiddenFromOtherRuns(words.get(0), workingDirectory(configuration, base), environment(configuration), base);
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
     * One reading of the reactor. The oracles: the module's and those of every other module, with the other
     * modules' reports and kept streams (a candidate graded in one module must not read the gold a sibling module
     * keeps). The output directories: where the goals of every module write what holds the goldens, kept streams and
     * candidate digests ({@code target/patchgrade}) and reports, the default and each execution's
     * {@code reportsDirectory}; a directory that is absent when a launcher opens cannot be hidden, and under
     * {@code mvn -T} another module writes there while this one's candidates run, so the goal creates them first.
     */
    static ReactorOracles scan(MavenProject project, List<MavenProject> reactor, Properties userProperties) {
        Set<Path> oracles = new LinkedHashSet<>(of(project, userProperties));
        Set<Path> outputs = new LinkedHashSet<>();
        if (project != null && project.getBasedir() != null) {
            outputs.addAll(outputDirectories(project, userProperties));
        }
        for (MavenProject other : reactor == null ? List.<MavenProject>of() : reactor) {
            if (other != project && other.getBasedir() != null) {
                oracles.addAll(of(other, userProperties));
                Set<Path> its = outputDirectories(other, userProperties);
                oracles.addAll(its);
                // Only where a goal of this plugin may write: a module without it keeps its target/ as it is.
                if (PluginConfigurations.declared(other)) {
                    outputs.addAll(its);
                }
            }
        }
        return new ReactorOracles(new ArrayList<>(oracles), new ArrayList<>(outputs));
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
        for (Xpp3Dom configuration : PluginConfigurations.of(module)) {
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
