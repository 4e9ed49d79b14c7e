package dev.patchgrade.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.apache.maven.model.Build;
import org.apache.maven.model.Model;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.model.Resource;
import org.apache.maven.project.MavenProject;
import org.codehaus.plexus.util.xml.Xpp3Dom;
import org.junit.jupiter.api.Test;

class ModuleOraclesTest {
    private static final Path ROOT = Path.of("/work/shop");

    /** A module as Maven hands it over: paths interpolated to absolute ones, the plugin's executions configured. */
    private static MavenProject module(String name, Xpp3Dom executionConfiguration) {
        return module(ROOT, name, executionConfiguration);
    }

    private static MavenProject module(Path root, String name, Xpp3Dom executionConfiguration) {
        Path base = root.resolve(name);
        Build build = new Build();
        build.setDirectory(base.resolve("target").toString());
        build.setOutputDirectory(base.resolve("target/classes").toString());
        build.setTestOutputDirectory(base.resolve("target/test-classes").toString());
        Resource testResources = new Resource();
        testResources.setDirectory(base.resolve("src/test/resources").toString());
        build.addTestResource(testResources);
        Plugin plugin = new Plugin();
        plugin.setGroupId("dev.patchgrade");
        plugin.setArtifactId(PluginConfigurations.PLUGIN_ARTIFACT);
        PluginExecution execution = new PluginExecution();
        execution.setId("digest");
        execution.setConfiguration(executionConfiguration);
        plugin.addExecution(execution);
        build.addPlugin(plugin);
        Model model = new Model();
        model.setArtifactId(name);
        model.setBuild(build);
        MavenProject project = new MavenProject(model);
        project.setFile(new File(base.resolve("pom.xml").toString()));
        return project;
    }

    /** What one reading of the reactor hides from the runs of {@code module}, with no {@code -D} properties given. */
    private static List<Path> hiddenIn(MavenProject module, List<MavenProject> reactor) {
        return ModuleOracles.scan(module, reactor, new java.util.Properties()).oracles();
    }

    private static Xpp3Dom configuration(String... namesAndValues) {
        Xpp3Dom dom = new Xpp3Dom("configuration");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            Xpp3Dom child = new Xpp3Dom(namesAndValues[i]);
            child.setValue(namesAndValues[i + 1]);
            dom.addChild(child);
        }
        return dom;
    }

    @Test
    void aSiblingModulesOraclesReportsAndKeptStreamsAreHiddenToo() {
        MavenProject billing = module("billing", configuration("gold", "src/test/patchgrade/gold"));
        MavenProject scoring = module("scoring", configuration("cases", "golden/cases.jsonl", "reportsDirectory", "out/reports"));
        List<Path> hidden = hiddenIn(billing, List.of(billing, scoring));
        assertThat(hidden).contains(
                ROOT.resolve("billing/src/test/patchgrade/gold"),
                ROOT.resolve("scoring/src/test/patchgrade/cases.jsonl"),
                ROOT.resolve("scoring/golden/cases.jsonl"),
                ROOT.resolve("scoring/target/patchgrade"),
                ROOT.resolve("scoring/target/patchgrade-reports"),
                ROOT.resolve("scoring/out/reports"));
        // The module's own reports and streams are the goal's to hide (it knows its reportsDirectory); a sibling's
        // compiled classes are not oracles, nor is the directory holding the oracles (an input may lie beside them).
        assertThat(hidden).doesNotContain(ROOT.resolve("billing/src/test/patchgrade"), ROOT.resolve("scoring/src/test/patchgrade"),
                ROOT.resolve("billing/target/patchgrade-reports"), ROOT.resolve("scoring/target"),
                ROOT.resolve("scoring/target/classes"));
    }

    @Test
    void withoutASessionOnlyTheModulesOwnOraclesAreKnown() {
        MavenProject billing = module("billing", configuration("gold", "src/test/patchgrade/gold"));
        assertThat(hiddenIn(billing, null)).isEqualTo(ModuleOracles.of(billing));
    }

    @Test
    void anOracleKeptAsATestResourceIsHiddenWhereTheBuildCopiesIt() {
        MavenProject billing = module("billing", configuration("gold", "src/test/resources/gold", "cases", "src/test/resources/cases.jsonl"));
        assertThat(ModuleOracles.of(billing)).contains(ROOT.resolve("billing/target/test-classes/gold"),
                ROOT.resolve("billing/target/test-classes/cases.jsonl"));
    }

    @Test
    void aResourcesTargetPathIsFollowed() {
        MavenProject billing = module("billing", configuration("gold", "oracles/gold"));
        Resource oracles = new Resource();
        oracles.setDirectory(ROOT.resolve("billing/oracles").toString());
        oracles.setTargetPath("patchgrade-data");
        billing.getBuild().addResource(oracles);
        assertThat(ModuleOracles.of(billing)).contains(ROOT.resolve("billing/target/classes/patchgrade-data/gold"));
    }

    @Test
    void aSiblingsCopiedOraclesAreHiddenToo() {
        MavenProject billing = module("billing", configuration());
        MavenProject scoring = module("scoring", configuration("gold", "src/test/resources/gold"));
        assertThat(hiddenIn(billing, List.of(billing, scoring))).contains(ROOT.resolve("scoring/target/test-classes/gold"));
    }

    @Test
    void aThreeColumnReferenceIsAnOracleOfEveryOtherGoal() {
        Xpp3Dom threeColumn = configuration("referenceDigest", "src/test/patchgrade/reference.sha256");
        Xpp3Dom reference = new Xpp3Dom("reference");
        Xpp3Dom executable = new Xpp3Dom("arg");
        executable.setValue(ROOT.resolve("billing/target/bin/frozen/score_lookup").toString());
        Xpp3Dom argument = new Xpp3Dom("arg");
        argument.setValue("scan");
        reference.addChild(executable);
        reference.addChild(argument);
        threeColumn.addChild(reference);
        MavenProject billing = module("billing", threeColumn);
        MavenProject scoring = module("scoring", configuration());
        // The reference's home: its executable's directory (not built yet, the home it will have).
        assertThat(ModuleOracles.of(billing)).contains(ROOT.resolve("billing/target/bin/frozen"),
                ROOT.resolve("billing/src/test/patchgrade/reference.sha256")).doesNotContain(ROOT.resolve("billing/scan"));
        assertThat(hiddenIn(scoring, List.of(billing, scoring))).contains(ROOT.resolve("billing/target/bin/frozen"));
    }

    /** A reference run by an interpreter is its referenceHome: hidden; the system's interpreter never is, nor a home by default. */
    @Test
    void anInterpretedReferenceHidesItsHomeAndNotItsInterpreter(@org.junit.jupiter.api.io.TempDir Path root) throws Exception {
        Path script = root.resolve("billing/frozen/ref.sh");
        java.nio.file.Files.createDirectories(script.getParent());
        java.nio.file.Files.writeString(script, "echo answer\n");
        Xpp3Dom threeColumn = configuration("referenceHome", "${project.basedir}/frozen");
        threeColumn.addChild(list("reference", "/bin/sh", "frozen/ref.sh", "scan"));
        assertThat(ModuleOracles.of(module(root, "billing", threeColumn))).contains(root.resolve("billing/frozen"))
                .noneMatch(path -> path.startsWith("/bin") || path.startsWith("/usr")).doesNotContain(root.resolve("billing/scan"));
        Xpp3Dom unnamed = configuration();
        unnamed.addChild(list("reference", "/bin/sh", "frozen/ref.sh"));
        assertThat(ModuleOracles.of(module(root, "billing", unnamed))).as("the goal itself asks for referenceHome")
                .noneMatch(path -> path.startsWith("/bin") || path.startsWith("/usr"));
    }

    private static Xpp3Dom list(String name, String... words) {
        Xpp3Dom list = new Xpp3Dom(name);
        for (String word : words) {
            Xpp3Dom arg = new Xpp3Dom("arg");
            arg.setValue(word);
            list.addChild(arg);
        }
        return list;
    }

    /** An input kept beside the oracles is no oracle: only the oracle files are hidden, wherever the POM's expressions put them. */
    @Test
    void anInputBesideTheOraclesStaysVisibleAndExpressionsAreReplaced() {
        MavenProject billing = module("billing", configuration("cases", "${project.basedir}/src/test/patchgrade/tenths.jsonl",
                "gold", "${project.build.directory}/gold", "envelope", "${oracles}/envelope.json"));
        billing.getProperties().setProperty("oracles", "${project.basedir}/committed");
        assertThat(ModuleOracles.of(billing)).contains(ROOT.resolve("billing/src/test/patchgrade/tenths.jsonl"), ROOT.resolve("billing/target/gold"),
                ROOT.resolve("billing/committed/envelope.json")).doesNotContain(ROOT.resolve("billing/src/test/patchgrade"),
                ROOT.resolve("billing/src/test/patchgrade/workload"));
    }

    @Test
    void aReferenceFoundOnThePathIsNoFileOfTheProject() {
        Xpp3Dom threeColumn = configuration();
        Xpp3Dom reference = new Xpp3Dom("reference");
        Xpp3Dom executable = new Xpp3Dom("arg");
        executable.setValue("python3");
        reference.addChild(executable);
        threeColumn.addChild(reference);
        assertThat(ModuleOracles.of(module("billing", threeColumn))).doesNotContain(ROOT.resolve("billing/python3"));
    }

    /** A bare command name is looked up on the execution's own PATH (its {@code <environment>}), and its prefix is the home. */
    @Test
    void aBareCommandIsFoundOnTheExecutionsPathAndItsPrefixIsHidden(@org.junit.jupiter.api.io.TempDir Path root) throws Exception {
        Path installed = root.resolve("opt/ref/bin/ref");
        java.nio.file.Files.createDirectories(installed.getParent());
        java.nio.file.Files.copy(Path.of("/bin/cat"), installed);
        Xpp3Dom onPath = configuration();
        onPath.addChild(list("reference", "ref"));
        onPath.addChild(environment(installed.getParent() + ":/usr/bin:/bin"));
        assertThat(ModuleOracles.of(module(root, "billing", onPath))).as("a reference found on the PATH, with its prefix")
                .contains(root.resolve("opt/ref"));
        Xpp3Dom system = configuration();
        system.addChild(list("reference", "sort"));
        assertThat(ModuleOracles.of(module(root, "billing", system))).as("a program of the system every goal may run")
                .noneMatch(path -> path.startsWith("/usr") || path.startsWith("/bin"));
    }

    private static Xpp3Dom environment(String path) {
        Xpp3Dom environment = new Xpp3Dom("environment");
        Xpp3Dom variable = new Xpp3Dom("PATH");
        variable.setValue(path);
        environment.addChild(variable);
        return environment;
    }

    /** A second execution's candidate must not read every row's golden from the first execution's own reportsDirectory. */
    @Test
    void everyExecutionsReportsDirectoryIsHiddenAndCreatedFirst() {
        Xpp3Dom threeColumn = configuration("reportsDirectory", "target/tenths-reports");
        MavenProject billing = module("billing", threeColumn);
        assertThat(ModuleOracles.of(billing)).contains(ROOT.resolve("billing/target/tenths-reports"));
        MavenProject scoring = module("scoring", configuration());
        MavenProject plain = module("plain", configuration());
        plain.getBuild().setPlugins(new java.util.ArrayList<>());
        assertThat(ModuleOracles.scan(billing, List.of(billing, scoring, plain), new java.util.Properties()).outputDirectories()).contains(
                ROOT.resolve("billing/target/tenths-reports"), ROOT.resolve("billing/target/patchgrade"), ROOT.resolve("scoring/target/patchgrade-reports"),
                ROOT.resolve("scoring/target/patchgrade")).as("a module without the plugin gets no directory").noneMatch(p -> p.startsWith(ROOT.resolve("plain")));
    }

    @Test
    void anOracleSetThroughItsPropertyIsHiddenWithItsCopy() {
        MavenProject billing = module("billing", configuration());
        billing.getProperties().setProperty("patchgrade.gold", "src/test/resources/gold");
        java.util.Properties user = new java.util.Properties();
        user.setProperty("patchgrade.cases", ROOT.resolve("elsewhere/cases.jsonl").toString());
        MavenProject scoring = module("scoring", configuration());
        scoring.getProperties().setProperty("patchgrade.reportsDirectory", "build/reports");
        List<Path> hidden = ModuleOracles.scan(billing, List.of(billing, scoring), user).oracles();
        assertThat(hidden).contains(ROOT.resolve("billing/src/test/resources/gold"), ROOT.resolve("billing/target/test-classes/gold"),
                ROOT.resolve("elsewhere/cases.jsonl"), ROOT.resolve("scoring/build/reports"));
    }

    @Test
    void aProfileThisBuildLeavesOffStillHasItsOraclesHidden() {
        MavenProject billing = module("billing", configuration());
        org.apache.maven.model.Profile strict = new org.apache.maven.model.Profile();
        strict.setId("strict");
        org.apache.maven.model.BuildBase build = new org.apache.maven.model.BuildBase();
        Plugin plugin = new Plugin();
        plugin.setArtifactId(PluginConfigurations.PLUGIN_ARTIFACT);
        plugin.setConfiguration(configuration("gold", "strict/gold"));
        build.addPlugin(plugin);
        strict.setBuild(build);
        billing.getModel().addProfile(strict);
        assertThat(ModuleOracles.of(billing)).contains(ROOT.resolve("billing/strict/gold"));
    }

    /** A parent POM's profile (active or not) configures an oracle for its children: hidden too. */
    @Test
    void aParentsProfileNamesOraclesToo() {
        MavenProject parent = module("parent", configuration());
        org.apache.maven.model.Profile nightly = new org.apache.maven.model.Profile();
        nightly.setId("nightly");
        org.apache.maven.model.BuildBase build = new org.apache.maven.model.BuildBase();
        Plugin plugin = new Plugin();
        plugin.setArtifactId(PluginConfigurations.PLUGIN_ARTIFACT);
        PluginExecution execution = new PluginExecution();
        execution.setId("nightly-digest");
        execution.setConfiguration(configuration("gold", ROOT.resolve("billing/golden/nightly").toString()));
        plugin.addExecution(execution);
        build.addPlugin(plugin);
        nightly.setBuild(build);
        parent.getModel().addProfile(nightly);
        MavenProject child = module("billing", configuration("command", "/bin/true"));
        child.setParent(parent);
        assertThat(hiddenIn(child, List.of(child))).contains(ROOT.resolve("billing/golden/nightly"));
    }

    /** MAVEN_OPTS=-Dpatchgrade.gold=... names an oracle as much as -D on the command line (Maven reads both). */
    @Test
    void aJvmSystemPropertyNamesAnOracleToo() {
        System.setProperty("patchgrade.gold", ROOT.resolve("billing/jvm-gold").toString());
        try {
            assertThat(hiddenIn(module("billing", configuration()), List.of())).contains(ROOT.resolve("billing/jvm-gold"));
        } finally {
            System.clearProperty("patchgrade.gold");
        }
    }

    /** An inactive profile's property names an oracle (-Pnightly would set patchgrade.gold): hidden too. */
    @Test
    void anInactiveProfilesPropertyNamesAnOracleToo() {
        MavenProject billing = module("billing", configuration());
        org.apache.maven.model.Profile nightly = new org.apache.maven.model.Profile();
        nightly.setId("nightly");
        nightly.addProperty("patchgrade.gold", ROOT.resolve("billing/nightly-gold").toString());
        billing.getModel().addProfile(nightly);
        assertThat(hiddenIn(billing, List.of())).contains(ROOT.resolve("billing/nightly-gold"));
    }
}
