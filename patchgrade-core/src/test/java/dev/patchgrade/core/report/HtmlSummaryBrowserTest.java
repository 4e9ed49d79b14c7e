package dev.patchgrade.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Renders the summary of three goal executions in headless Chromium, as Jenkins' HTML publisher would show it. */
class HtmlSummaryBrowserTest {
    private static final String ENVELOPE = """
            {"mode":"grade","goal":"envelope","execution":"cache","verdict":"reject","reasons":["rss"],"command":["bin/driver","cache"],
             "measured":{"returncode":0,"max_rss_kb":22172,"user_us":90000},"ceilings":{"max_rss_kb":5387,"max_user_us":181733},
             "figures":[{"ceiling_key":"max_rss_kb","unit":"KB","measured":22172,"ceiling":5387},
                        {"ceiling_key":"max_user_us","unit":"us","measured":90000,"ceiling":181733}],"runs":[{}]}""";
    private static final String DIGEST = """
            {"goal":"digest","execution":"warn","verdict":"fail","cases":[
              {"case":"1.005","verdict":"fail","drift":["stderr_sha256: aaa -> bbb"],"drift_fields":["stderr_sha256"],
               "gold":{"exit":0,"stdout_sha256":"x","stderr_sha256":"aaa","sanitizer":"clean","time_bucket":"lt_50ms"},
               "candidate":{"exit":0,"stdout_sha256":"x","stderr_sha256":"bbb","sanitizer":"clean","time_bucket":"lt_50ms"}},
              {"case":"1.00","verdict":"pass","drift":[],"drift_fields":[],
               "gold":{"exit":0,"stdout_sha256":"x","stderr_sha256":"aaa","sanitizer":"clean","time_bucket":"lt_50ms"},
               "candidate":{"exit":0,"stdout_sha256":"x","stderr_sha256":"aaa","sanitizer":"clean","time_bucket":"lt_50ms"}}]}""";
    private static final String THREE_COLUMN = """
            {"goal":"three-column","execution":"trunc","verdict":"fail","worst":"candidate_regression","comparison":"trim",
             "counts":{"candidate_regression":1,"pass_all_agree":1},"rows":[
              {"id":"tenths-15","pattern":"candidate_regression","reference":{"stdout":"2\\n"},"candidate":{"stdout":"1\\n"},"golden":"2"},
              {"id":"tenths-0","pattern":"pass_all_agree","reference":{"stdout":"0\\n"},"candidate":{"stdout":"0\\n"},"golden":"0"}]}""";

    @Test
    void chromiumRendersEveryVerdict(@TempDir Path dir) throws Exception {
        Path chromium = ExternalTools.chromium();
        ExternalTools.require(chromium != null, "chromium", "apt-get install chromium");
        Files.writeString(dir.resolve("patchgrade.envelope.cache.json"), ENVELOPE);
        Files.writeString(dir.resolve("patchgrade.digest.warn.json"), DIGEST);
        Files.writeString(dir.resolve("patchgrade.three-column.trunc.json"), THREE_COLUMN);
        Path index = HtmlSummary.refresh(dir);

        String dom = run(chromium, dir, "--dump-dom", index.toUri().toString());
        assertThat(dom).contains("envelope.cache").contains("reject").contains("22,172").contains("5,387").contains("over by 312%")
                .contains("50% left");
        assertThat(dom).contains("digest.warn").contains("aaa → bbb").contains("FAIL").contains("<th>time_bucket</th>");
        assertThat(dom).contains("three-column.trunc").contains("candidate_regression").contains("tenths-15");
        assertThat(dom).doesNotContain("http://").doesNotContain("https://");

        Path screenshot = dir.resolve("summary.png");
        run(chromium, dir, "--screenshot=" + screenshot, "--window-size=1200,1600", index.toUri().toString());
        byte[] png = Files.readAllBytes(screenshot);
        assertThat(png.length).as("a rendered page, not a blank one").isGreaterThan(20_000);
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
    }

    private static String run(Path chromium, Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + Files.createTempDirectory(dir, "profile")));
        command.addAll(List.of(args));
        // Output to a file, so a browser that hangs fails the test after 90 s instead of blocking a read forever.
        Path out = Files.createTempFile(dir, "chromium", ".out");
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectOutput(out.toFile()).start();
        boolean finished = process.waitFor(90, TimeUnit.SECONDS);
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        assertThat(finished).as("chromium finished within 90 s").isTrue();
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
