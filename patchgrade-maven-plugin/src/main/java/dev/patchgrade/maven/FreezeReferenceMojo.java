package dev.patchgrade.maven;

import dev.patchgrade.core.classify.ThreeColumnGoal;
import dev.patchgrade.core.grade.GoalSettings;
import java.io.File;
import java.util.List;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * Writes the reference binary's SHA-256 sidecar in sha256sum format. Run it when a person has
 * reviewed the reference; refuses to overwrite an existing sidecar unless {@code force}.
 */
@Mojo(name = "freeze-reference", threadSafe = true)
public class FreezeReferenceMojo extends AbstractPatchgradeMojo {

    /** The reference command; its executable is hashed. */
    @Parameter(required = true)
    private List<String> reference;

    /** The directory holding the reference's own files, as in three-column: the files its command names there are frozen too. */
    @Parameter
    private File referenceHome;

    /** The sidecar file to write. */
    @Parameter(property = "patchgrade.referenceDigest", defaultValue = "${project.basedir}/src/test/patchgrade/reference.sha256", required = true)
    private File referenceDigest;

    /** Overwrite an existing sidecar. */
    @Parameter(property = "patchgrade.force", defaultValue = "false")
    private boolean force;

    @Override
    protected String goal() {
        return "freeze-reference";
    }

    @Override
    protected void executeGoal(GoalSettings settings) {
        ThreeColumnGoal.freeze(settings, list("reference", reference), path(referenceHome), path(referenceDigest), force, gradeLog());
    }
}
