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
