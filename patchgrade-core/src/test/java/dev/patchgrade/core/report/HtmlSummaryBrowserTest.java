package dev.patchgrade.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders the summary of three goal executions, and a reactor's page, in headless Chromium, served the
 * way Jenkins serves archived reports: with its default Content Security Policy.
 */
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

    /** Jenkins' default policy for archived files (hudson.model.DirectoryBrowserSupport.CSP). */
    static final String JENKINS_CSP = "sandbox; default-src 'none'; img-src 'self'; style-src 'self';";

    @Test
    void chromiumRendersEveryVerdictUnderJenkinsPolicy(@TempDir Path dir) throws Exception {
        Path chromium = ExternalTools.chromium();
        ExternalTools.require(chromium != null, "chromium", "apt-get install chromium");
        Path reports = Files.createDirectories(dir.resolve("billing/target/patchgrade-reports"));
        SummaryRecords.write(reports, "envelope.cache", new EnvelopeSection(), ENVELOPE);
        SummaryRecords.write(reports, "digest.warn", new DigestSection(), DIGEST);
        SummaryRecords.write(reports, "three-column.trunc", new ThreeColumnSection(), THREE_COLUMN);
        HtmlSummary.refresh(reports, "billing");
        // The same inline styles the page used to have: the policy must really be in force for this test to mean anything.
        Files.writeString(reports.resolve("control.html"), "<!DOCTYPE html><html><head><style>body { background: #123456; }</style></head>"
                + "<body><div style=\"width:400px;height:300px;background:#654321\">inline</div></body></html>");

        HttpServer server = serve(dir);
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/billing/target/patchgrade-reports/";
            String dom = run(chromium, dir, "--dump-dom", base + "index.html");
            assertThat(dom).contains("<title>patchgrade: billing</title>").contains("href=\"patchgrade.css\"");
            assertThat(dom).contains("envelope.cache").contains("reject").contains("22,172").contains("5,387").contains("over by 312%")
                    .contains("50% left");
            assertThat(dom).contains("digest.warn").contains("aaa → bbb").contains("FAIL").contains("<th>time_bucket</th>");
            assertThat(dom).contains("three-column.trunc").contains("candidate_regression").contains("tenths-15");
            assertThat(dom).doesNotContain("http://").doesNotContain("https://").doesNotContain("style=").doesNotContain("<style")
                    .doesNotContain("<script");

            BufferedImage page = screenshot(chromium, dir, base + "index.html", "summary.png");
            assertThat(count(page, 0xe53935)).as("red bars, drawn by SVG attributes").isGreaterThan(500);
            assertThat(count(page, 0x4caf50)).as("green bars").isGreaterThan(500);
            assertThat(count(page, 0xfde7e7)).as("the drifting digest cell's background, from patchgrade.css").isGreaterThan(200);
            assertThat(count(page, 0xf4f4f4)).as("table headers, from patchgrade.css").isGreaterThan(200);

            BufferedImage control = screenshot(chromium, dir, base + "control.html", "control.png");
            assertThat(count(control, 0x123456) + count(control, 0x654321)).as("inline styles blocked by the policy").isZero();
        } finally {
            server.stop(0);
        }
    }

    @Test
    void theReactorPageListsEveryModuleAndLinksToItsPage(@TempDir Path dir) throws Exception {
        Path chromium = ExternalTools.chromium();
        ExternalTools.require(chromium != null, "chromium", "apt-get install chromium");
        Path top = dir.resolve("target/patchgrade-reports");
        Path billing = Files.createDirectories(dir.resolve("billing/target/patchgrade-reports"));
        Path scoring = Files.createDirectories(dir.resolve("scoring/target/patchgrade-reports"));
        SummaryRecords.write(billing, "envelope.cache", new EnvelopeSection(), ENVELOPE);
        SummaryRecords.write(scoring, "three-column.trunc", new ThreeColumnSection(), THREE_COLUMN);
        HtmlSummary.refresh(billing, "billing");
        HtmlSummary.refresh(scoring, "scoring");
        ReactorSummary.register(top, "billing", billing);
        Path page = ReactorSummary.register(top, "scoring", scoring);
        assertThat(page).isEqualTo(top.resolve("index.html").toAbsolutePath());

        HttpServer server = serve(dir);
        try {
            String dom = run(chromium, dir, "--dump-dom", "http://127.0.0.1:" + server.getAddress().getPort() + "/target/patchgrade-reports/index.html");
            assertThat(dom).contains("<title>patchgrade: every module</title>")
                    .contains("href=\"../../billing/target/patchgrade-reports/index.html\">billing</a>")
                    .contains("href=\"../../billing/target/patchgrade-reports/index.html#envelope.cache\">envelope.cache</a>")
                    .contains("href=\"../../scoring/target/patchgrade-reports/index.html#three-column.trunc\">three-column.trunc</a>")
                    .contains("candidate_regression").contains("over 2 module(s)");
        } finally {
            server.stop(0);
        }
    }

    /** Serves {@code root} as Jenkins serves archived files: with its default Content Security Policy. */
    private static HttpServer serve(Path root) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            Path file = root.resolve(exchange.getRequestURI().getPath().substring(1)).normalize();
            byte[] body = file.startsWith(root) && Files.isRegularFile(file) ? Files.readAllBytes(file) : new byte[0];
            String name = file.getFileName().toString();
            exchange.getResponseHeaders().add("Content-Type", name.endsWith(".css") ? "text/css" : name.endsWith(".html") ? "text/html; charset=utf-8"
                    : "application/octet-stream");
            exchange.getResponseHeaders().add("Content-Security-Policy", JENKINS_CSP);
            exchange.sendResponseHeaders(body.length == 0 ? 404 : 200, body.length == 0 ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }

    private static BufferedImage screenshot(Path chromium, Path dir, String url, String name) throws Exception {
        Path png = dir.resolve(name);
        run(chromium, dir, "--screenshot=" + png, "--window-size=1200,1600", "--hide-scrollbars", url);
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).as("a PNG from chromium").isNotNull();
        Path keep = Path.of(System.getProperty("patchgrade.screenshots", "target/screenshots"));
        Files.createDirectories(keep);
        Files.copy(png, keep.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return image;
    }

    /** Pixels within a small distance of {@code rgb}, so anti-aliasing and colour management do not matter. */
    private static int count(BufferedImage image, int rgb) {
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int p = image.getRGB(x, y);
                if (Math.abs(((p >> 16) & 0xff) - ((rgb >> 16) & 0xff)) <= 6 && Math.abs(((p >> 8) & 0xff) - ((rgb >> 8) & 0xff)) <= 6
                        && Math.abs((p & 0xff) - (rgb & 0xff)) <= 6) {
                    n++;
                }
            }
        }
        return n;
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
