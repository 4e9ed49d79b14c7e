package dev.patchgrade.maven;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** What the built plugin descriptor promises users, IDEs and the contract. */
class PluginDescriptorTest {
    private static Document read(String resource) throws Exception {
        try (InputStream in = PluginDescriptorTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource + " on the class path").isNotNull();
            return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
        }
    }

    private static List<String> texts(Document doc, String tag) {
        List<String> values = new ArrayList<>();
        NodeList nodes = doc.getElementsByTagName(tag);
        for (int i = 0; i < nodes.getLength(); i++) {
            values.add(nodes.item(i).getTextContent().strip());
        }
        return values;
    }

    private static Element mojo(Document plugin, String goal) {
        NodeList mojos = plugin.getElementsByTagName("mojo");
        for (int i = 0; i < mojos.getLength(); i++) {
            Element mojo = (Element) mojos.item(i);
            if (mojo.getElementsByTagName("goal").item(0).getTextContent().equals(goal)) {
                return mojo;
            }
        }
        throw new AssertionError("no goal " + goal);
    }

    @Test
    void m2eMetadataCoversEveryGoal() throws Exception {
        Document plugin = read("/META-INF/maven/plugin.xml");
        List<String> goals = new ArrayList<>();
        NodeList mojos = plugin.getElementsByTagName("mojo");
        for (int i = 0; i < mojos.getLength(); i++) {
            goals.add(((Element) mojos.item(i)).getElementsByTagName("goal").item(0).getTextContent());
        }
        assertThat(goals).contains("check", "envelope", "digest", "three-column", "differential");
        Document m2e = read("/META-INF/m2e/lifecycle-mapping-metadata.xml");
        assertThat(texts(m2e, "goal")).containsExactlyInAnyOrderElementsOf(goals);
        assertThat(m2e.getElementsByTagName("ignore").getLength()).isEqualTo(1);
    }

    /**
     * Maven 3.9 warns "Parameter 'skipTests' (user property 'skipTests') is read-only, must not be used in configuration"
     * in every project that defines the common {@code <skipTests>} property when a plugin declares the switch read-only;
     * Failsafe declares these switches as ordinary parameters, and so does every goal here.
     */
    @Test
    void mavensSharedSwitchesAreOrdinaryParametersOfEveryGoal() throws Exception {
        Document plugin = read("/META-INF/maven/plugin.xml");
        List<String> switches = List.of("skipTests", "maven.test.skip", "skipITs", "maven.test.failure.ignore");
        NodeList mojos = plugin.getElementsByTagName("mojo");
        List<String> readOnly = new ArrayList<>();
        List<String> declared = new ArrayList<>();
        for (int i = 0; i < mojos.getLength(); i++) {
            Element mojo = (Element) mojos.item(i);
            String goal = mojo.getElementsByTagName("goal").item(0).getTextContent();
            NodeList parameters = mojo.getElementsByTagName("parameter");
            for (int j = 0; j < parameters.getLength(); j++) {
                Element parameter = (Element) parameters.item(j);
                String name = parameter.getElementsByTagName("name").item(0).getTextContent();
                String editable = parameter.getElementsByTagName("editable").item(0).getTextContent();
                NodeList configuration = ((Element) mojo.getElementsByTagName("configuration").item(0)).getElementsByTagName(name);
                String expression = configuration.getLength() == 0 ? "" : configuration.item(0).getTextContent();
                for (String property : switches) {
                    if (expression.equals("${" + property + "}")) {
                        declared.add(goal + " " + property);
                        if (!editable.equals("true")) {
                            readOnly.add(goal + ": " + name + " (" + property + ")");
                        }
                    }
                }
            }
        }
        assertThat(declared).contains("envelope skipTests", "digest maven.test.skip", "three-column skipITs", "check maven.test.failure.ignore");
        assertThat(readOnly).as("read-only parameters bound to Maven's shared switches").isEmpty();
    }

    @Test
    void checkRunsInVerifyAndTheExecutionIdComesInAsAString() throws Exception {
        Document plugin = read("/META-INF/maven/plugin.xml");
        assertThat(mojo(plugin, "check").getElementsByTagName("phase").item(0).getTextContent()).isEqualTo("verify");
        // MojoExecution is still injected, for its configuration (which -Dpatchgrade.* the POM overrides);
        // the execution id itself comes in as a String.
        NodeList parameters = mojo(plugin, "envelope").getElementsByTagName("parameter");
        boolean found = false;
        for (int i = 0; i < parameters.getLength(); i++) {
            Element parameter = (Element) parameters.item(i);
            if (parameter.getElementsByTagName("name").item(0).getTextContent().equals("executionId")) {
                assertThat(parameter.getElementsByTagName("type").item(0).getTextContent()).isEqualTo("java.lang.String");
                found = true;
            }
        }
        assertThat(found).as("executionId among the envelope goal's parameters").isTrue();
    }
}
