package dev.patchgrade.maven;

import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.descriptor.Parameter;
import org.apache.maven.plugin.logging.Log;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/**
 * Maven gives a parameter set in the POM precedence over its {@code -D} user property, silently. This says so
 * for every {@code -Dpatchgrade.*} an execution's configuration overrides: a {@code -Dpatchgrade.gold} that loses
 * to the POM must not let {@code force} overwrite the committed gold unnoticed.
 */
final class OverriddenProperties {
    private OverriddenProperties() {}

    static void warn(MojoExecution execution, MavenSession session, String goal, Log log) {
        Xpp3Dom configuration = execution.getConfiguration();
        if (configuration == null || session == null || execution.getMojoDescriptor() == null
                || execution.getMojoDescriptor().getParameters() == null) {
            return;
        }
        for (Parameter parameter : execution.getMojoDescriptor().getParameters()) {
            String expression = parameter.getExpression();
            if (expression == null || !expression.startsWith("${patchgrade.") || !expression.endsWith("}")) {
                continue;
            }
            String property = expression.substring(2, expression.length() - 1);
            String given = session.getUserProperties().getProperty(property);
            Xpp3Dom element = configuration.getChild(parameter.getName());
            if (given == null || element == null) {
                continue;
            }
            String configured = element.getValue();
            if (element.getChildCount() == 0 && (configured == null || configured.equals(expression) || configured.equals(given))) {
                continue;
            }
            log.warn("-D" + property + "=" + given + " is ignored by patchgrade:" + goal + "@" + execution.getExecutionId()
                    + ": the POM configures <" + parameter.getName() + ">" + (configured == null ? "" : configured) + "</"
                    + parameter.getName() + "> for this execution, and Maven gives the POM precedence over -D. Remove <"
                    + parameter.getName() + "> from the execution's configuration (or write ${" + property + "} there) to choose it on "
                    + "the command line");
        }
    }
}
