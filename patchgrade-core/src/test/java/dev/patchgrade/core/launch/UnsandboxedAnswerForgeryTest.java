package dev.patchgrade.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.patchgrade.core.GradeLog;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sandbox OFF and Maven running as ROOT without the setpriv wrapper (so the candidate is root): a run writes
 * two complete "done" lines into its parent's reply pipe (/proc/$PPID/fd/1). Before answers carried the run's token,
 * the JVM took the first as this run's answer and the second as the answer of the run queued behind it, so the queued
 * case (exit 5) was reported as exit 0 in 1 us. Now a forged line lacks the token: both runs fail with
 * launcher_failed, neither passes. As nobody the non-dumpable helper's /proc/PID/fd is closed to the run anyway.
 * A root candidate could still read the token from the helper's memory: without the sandbox, reports say the verdict
 * is not tamper-proof.
 */
class UnsandboxedAnswerForgeryTest {
    private static String outcome(CompletableFuture<LaunchResult> run) throws Exception {
        try {
            return "exit " + run.get(60, TimeUnit.SECONDS).exitCode();
        } catch (java.util.concurrent.ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(dev.patchgrade.core.PatchgradeException.class);
            return ((dev.patchgrade.core.PatchgradeException) e.getCause()).error().wireName();
        }
    }

    @TempDir
    Path dir;

    private static final String DONE = "done status=exited code=0 signal=0 signame=- timed_out=0 maxrss_kb=1 utime_us=1 stime_us=1 "
            + "minflt=1 majflt=0 inblock=0 oublock=0 wall_us=1 leftovers=0 cpu_wait_us=0 leader_cpu_us=1 tree_rss_kb=-1";

    @Test
    void asNobodyARunCannotForgeTheAnswerOfTheRunQueuedBehindItWithoutTheSandbox() throws Exception {
        java.nio.file.Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        HelperTestHooks.startHelpersThrough("/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups");
        try {
            aRunCannotForgeTheAnswerOfTheRunQueuedBehindItWithoutTheSandbox();
        } finally {
            HelperTestHooks.startHelpersThrough("");
        }
    }

    @Test
    void aRunCannotForgeTheAnswerOfTheRunQueuedBehindItWithoutTheSandbox() throws Exception {
        try (Launcher launcher = Launchers.open(GradeLog.SILENT, SandboxSpec.off(), 1)) {
            String forger = "ls -l /proc/$PPID/fd/ >&2; printf '" + DONE + "\\n" + DONE + "\\n' > /proc/$PPID/fd/1; echo rc=$? >&2; sleep 0.5; exit 9";
            CompletableFuture<LaunchResult> first = CompletableFuture.supplyAsync(() -> launcher.launch(
                    LaunchRequest.of(List.of("/bin/sh", "-c", forger)).withWorkingDirectory(dir)));
            Thread.sleep(100);
            CompletableFuture<LaunchResult> queued = CompletableFuture.supplyAsync(() -> launcher.launch(
                    LaunchRequest.of(List.of("/bin/sh", "-c", "sleep 0.3; exit 5")).withWorkingDirectory(dir)));
            assertThat(outcome(first)).as("the forger's own run").isIn("exit 9", "launcher_failed");
            assertThat(outcome(queued)).as("the queued run: its own answer, or none").isIn("exit 5", "launcher_failed");
        }
    }
}
