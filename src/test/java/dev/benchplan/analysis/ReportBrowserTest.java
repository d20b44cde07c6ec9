package dev.benchplan.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.testing.CommandHarness;
import dev.benchplan.testing.SharedData;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * report.html in a real headless browser (Debian's chromium, installed by scripts/test.sh): it
 * renders, the screenshot is not blank, and the network log shows no request leaving the file.
 */
class ReportBrowserTest {
  @TempDir Path tmp;

  static Path chromium() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
      Path p = Path.of(dir, "chromium");
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    Assumptions.abort(
        "skipped: Debian's chromium is not installed (scripts/test.sh installs it: apt-get install chromium)");
    return null;
  }

  /** Opens the page headless; returns the URLs the page requested. */
  List<String> open(Path chromium, Path html, Path png, Path netlog) throws Exception {
    Path profile = Files.createTempDirectory(tmp, "profile");
    Process p =
        new ProcessBuilder(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-default-apps",
                "--user-data-dir=" + profile,
                "--hide-scrollbars",
                "--window-size=1280,2400",
                "--log-net-log=" + netlog,
                "--net-log-capture-mode=Everything",
                "--screenshot=" + png,
                html.toUri().toString())
            .redirectErrorStream(true)
            .redirectOutput(tmp.resolve("chromium.log").toFile())
            .start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(
          "chromium did not finish in 120 s; log: "
              + Files.readString(tmp.resolve("chromium.log")));
    }
    return pageRequests(netlog);
  }

  /**
   * URLs the page itself requested: URL_REQUEST_START_JOB events whose network isolation key is the
   * file page (the browser's own background requests carry another key and are not the page's).
   */
  static List<String> pageRequests(Path netlog) throws Exception {
    String text = Files.readString(netlog, StandardCharsets.UTF_8).strip();
    JsonNode log;
    try {
      log = Json.JSON.readTree(text);
    } catch (tools.jackson.core.JacksonException e) {
      log =
          Json.JSON.readTree(
              text.replaceAll(",\\s*$", "") + "]}"); // a log cut at exit lacks its end
    }
    int start = log.path("constants").path("logEventTypes").path("URL_REQUEST_START_JOB").asInt(-1);
    List<String> urls = new ArrayList<>();
    for (JsonNode e : log.path("events")) {
      JsonNode p = e.path("params");
      if (e.path("type").asInt() == start
          && p.path("network_isolation_key").asString("").startsWith("file://")) {
        urls.add(p.path("url").asString());
      }
    }
    return urls;
  }

  static double inkShare(Path png) throws Exception {
    BufferedImage img = ImageIO.read(png.toFile());
    long ink = 0;
    for (int y = 0; y < img.getHeight(); y += 2) {
      for (int x = 0; x < img.getWidth(); x += 2) {
        int rgb = img.getRGB(x, y) & 0xffffff;
        if (rgb != 0xffffff) {
          ink++;
        }
      }
    }
    return ink / (double) ((img.getWidth() / 2) * (img.getHeight() / 2));
  }

  @Test
  @DisplayName(
      "the analyze report of the real sweep renders in chromium, is not blank, fetches nothing")
  void analyzeReport() throws Exception {
    Path chromium = chromium();
    Path sweep = SharedData.require("aiperf/sweep-qwen3-0.6b");
    CommandHarness.run(
            "analyze",
            sweep.toString(),
            "--exp-root",
            tmp.resolve("exp").toString(),
            "--report-dir",
            tmp.resolve("out").toString())
        .expectOk();
    Path png = tmp.resolve("shot.png");
    List<String> urls =
        open(chromium, tmp.resolve("out/report.html"), png, tmp.resolve("net.json"));
    assertThat(png).exists();
    assertThat(inkShare(png)).as("share of non-white pixels").isGreaterThan(0.02);
    assertThat(Files.size(tmp.resolve("net.json"))).isPositive();
    assertThat(urls)
        .as("requests made by the page")
        .allMatch(u -> u.startsWith("file:") || u.startsWith("data:"));
  }

  @Test
  @DisplayName("control: the same check sees a page that does fetch from the network")
  void controlDetectsAFetch() throws Exception {
    Path chromium = chromium();
    Path html = tmp.resolve("control.html");
    Files.writeString(
        html,
        "<!DOCTYPE html><html><body><h1>control</h1><img src=\"http://127.0.0.1:9/x.png\"></body></html>");
    List<String> urls = open(chromium, html, tmp.resolve("c.png"), tmp.resolve("c.json"));
    assertThat(urls).contains("http://127.0.0.1:9/x.png");
  }
}
