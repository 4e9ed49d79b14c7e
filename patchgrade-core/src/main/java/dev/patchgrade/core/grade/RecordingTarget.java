package dev.patchgrade.core.grade;

import dev.patchgrade.core.ErrorName;
import dev.patchgrade.core.PatchgradeException;
import dev.patchgrade.core.Setting;
import dev.patchgrade.core.report.AtomicFiles;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Where a recording goal writes its oracle (an envelope, a sidecar, a gold directory). Without {@code force}
 * nothing there is removed or replaced, whatever it is: a file, a directory, a symbolic link, one that points
 * nowhere included. A recording measures for a while, so the goal looks before it starts and its write refuses
 * again should something appear meanwhile.
 */
public final class RecordingTarget {
    private RecordingTarget() {}

    /**
     * Fails with {@code refused_overwrite} where something is at {@code path} and {@code force} is off.
     *
     * @param directory the output is a directory: an empty one holds nothing to lose, and is filled
     * @param goal the recording goal, as the message names it
     * @param intended what to do when the new recording is intended, after the command that forces it: "and commit ..."
     */
    public static void refuseOverwrite(GoalSettings settings, Path path, boolean force, boolean directory, String goal, String intended) {
        if (force) {
            return;
        }
        String occupant;
        try {
            occupant = AtomicFiles.occupant(path, directory);
        } catch (IOException e) {
            occupant = "something that cannot be read: " + e.getMessage();
        }
        if (occupant != null) {
            throw refused(settings, path, occupant, goal, intended);
        }
    }

    /** The refusal of a write that found {@code path} taken after the goal had looked. */
    public static PatchgradeException appeared(GoalSettings settings, Path path, String goal, String intended) {
        return refused(settings, path, "made while " + goal + " ran", goal, intended);
    }

    private static PatchgradeException refused(GoalSettings settings, Path path, String occupant, String goal, String intended) {
        return new PatchgradeException(ErrorName.REFUSED_OVERWRITE, path + " exists (" + occupant + ") and " + goal + " does not remove or "
                + "replace anything without " + settings.suggestions().configured(Setting.FORCE.is("true")) + "; it was left as it was. "
                + "If the new recording is intended, re-run as `" + settings.rerecord(goal) + "` " + intended);
    }
}
