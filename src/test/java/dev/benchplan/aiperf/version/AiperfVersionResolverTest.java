package dev.benchplan.aiperf.version;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.benchplan.json.Sha256;
import dev.benchplan.rules.Blocker;
import dev.benchplan.rules.RuleLog;
import dev.benchplan.testing.SharedData;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Version resolution against a real HTTP server on 127.0.0.1 serving package-index JSON. */
class AiperfVersionResolverTest {
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T12:00:00Z"), ZoneOffset.UTC);

  /** An index document shaped like the JSON API: releases -> files with yanked flags. */
  static final String INDEX =
      """
      {"info": {"name": "aiperf", "version": "0.15.0"},
       "releases": {
         "0.12.0": [{"filename": "aiperf-0.12.0-py3-none-any.whl", "yanked": false}],
         "0.13.0": [{"filename": "aiperf-0.13.0-py3-none-any.whl", "yanked": false},
                    {"filename": "aiperf-0.13.0.tar.gz", "yanked": false}],
         "0.13.1": [{"filename": "aiperf-0.13.1-py3-none-any.whl", "yanked": true},
                    {"filename": "aiperf-0.13.1.tar.gz", "yanked": false}],
         "0.14.0rc1": [{"filename": "aiperf-0.14.0rc1-py3-none-any.whl", "yanked": false}],
         "0.14.0.dev3": [{"filename": "aiperf-0.14.0.dev3-py3-none-any.whl", "yanked": false}],
         "0.15.0": [{"filename": "aiperf-0.15.0-py3-none-any.whl", "yanked": true,
                     "yanked_reason": "broken CLI"}],
         "0.16.0": [],
         "0.6.0.post1": [{"filename": "aiperf-0.6.0.post1-py3-none-any.whl", "yanked": false}],
         "not-a-version": [{"filename": "x.whl", "yanked": false}]
       }}
      """;

  HttpServer server;
  final Map<String, String> bodies = new ConcurrentHashMap<>();
  final Map<String, Integer> statuses = new ConcurrentHashMap<>();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          byte[] body =
              bodies
                  .getOrDefault(path, "{\"message\": \"Not Found\"}")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(
              statuses.getOrDefault(path, bodies.containsKey(path) ? 200 : 404), body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    bodies.put("/index/aiperf/json", INDEX);
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  URI url(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  private Optional<VersionResolution> resolve(VersionRequest request, RuleLog log) {
    return new AiperfVersionResolver(new HttpIndexFetcher(), CLOCK).resolve(request, log);
  }

  @Test
  @DisplayName(
      "the latest release that is not pre, dev or yanked, with query, raw SHA-256, versions and date")
  void latestStable() {
    RuleLog log = new RuleLog();
    VersionResolution r =
        resolve(VersionRequest.index(url("/index/aiperf/json")), log).orElseThrow();
    assertThat(log.blockers()).isEmpty();
    // 0.16.0 has no files, 0.15.0 is yanked, 0.14.0rc1 is a pre-release, 0.14.0.dev3 a dev
    // release; 0.13.1 has one yanked file but one that is not, so it is not yanked
    assertThat(r.version()).isEqualTo("0.13.1");
    assertThat(r.mechanism()).isEqualTo("package_index");
    assertThat(r.query()).isEqualTo(url("/index/aiperf/json").toString());
    assertThat(r.outputSha256()).isEqualTo(Sha256.hex(INDEX.getBytes(StandardCharsets.UTF_8)));
    assertThat(r.versionsSeen())
        .containsExactly(
            "0.6.0.post1",
            "0.12.0",
            "0.13.0",
            "0.13.1",
            "0.14.0.dev3",
            "0.14.0rc1",
            "0.15.0",
            "0.16.0",
            "not-a-version");
    assertThat(r.excluded())
        .containsExactly(
            new VersionResolution.Excluded("0.14.0.dev3", "dev release"),
            new VersionResolution.Excluded("0.14.0rc1", "pre-release"),
            new VersionResolution.Excluded("0.15.0", "yanked"),
            new VersionResolution.Excluded("0.16.0", "no files uploaded"),
            new VersionResolution.Excluded("not-a-version", "not a PEP 440 version"));
    assertThat(r.date()).isEqualTo("2026-11-30T12:00:00Z");
    assertThat(r.image()).isEqualTo("nvcr.io/nvidia/ai-dynamo/aiperf:0.13.1");
    assertThat(log.decisions())
        .anyMatch(
            d ->
                d.rule().equals("benchmarking/tool-version.md")
                    && d.decision().contains("0.13.1 (package_index)"));
  }

  @Test
  @DisplayName("a post release counts as stable")
  void postRelease() {
    bodies.put(
        "/p/json",
        """
        {"releases": {"0.6.0": [{"yanked": false}], "0.6.0.post1": [{"yanked": false}],
                      "0.7.0rc2": [{"yanked": false}]}}""");
    assertThat(resolve(VersionRequest.index(url("/p/json")), new RuleLog()).orElseThrow().version())
        .isEqualTo("0.6.0.post1");
  }

  @Test
  @DisplayName("no pin and no index URL: AIPERF_VERSION_UNRESOLVED, never a version from memory")
  void unresolved() {
    RuleLog log = new RuleLog();
    assertThat(resolve(VersionRequest.none(), log)).isEmpty();
    assertThat(log.blockers())
        .extracting(Blocker::code)
        .containsExactly("AIPERF_VERSION_UNRESOLVED");
    assertThat(log.blockers().get(0).message())
        .contains("--aiperf-version")
        .contains("--aiperf-index-url")
        .contains("benchmarking/tool-version.md");
  }

  @Test
  @DisplayName("offline (nothing listening) without a pin: AIPERF_INDEX_UNAVAILABLE")
  void offline() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    RuleLog log = new RuleLog();
    assertThat(
            resolve(VersionRequest.index(URI.create("http://127.0.0.1:" + port + "/x/json")), log))
        .isEmpty();
    assertThat(log.blockers())
        .extracting(Blocker::code)
        .containsExactly("AIPERF_INDEX_UNAVAILABLE");
    assertThat(log.blockers().get(0).message()).contains("--aiperf-version");
  }

  @Test
  @DisplayName("HTTP errors, non-JSON, another project and no stable release are blockers")
  void badResponses() {
    RuleLog log = new RuleLog();
    assertThat(resolve(VersionRequest.index(url("/missing/json")), log)).isEmpty();
    bodies.put("/html", "<html>");
    assertThat(resolve(VersionRequest.index(url("/html")), log)).isEmpty();
    bodies.put("/other/json", "{\"info\": {\"name\": \"genai-perf\"}, \"releases\": {}}");
    assertThat(resolve(VersionRequest.index(url("/other/json")), log)).isEmpty();
    bodies.put("/pre/json", "{\"releases\": {\"1.0rc1\": [{\"yanked\": false}]}}");
    assertThat(resolve(VersionRequest.index(url("/pre/json")), log)).isEmpty();
    assertThat(resolve(VersionRequest.index(URI.create("ftp://127.0.0.1/x")), log)).isEmpty();
    assertThat(log.blockers())
        .extracting(Blocker::code)
        .containsExactly(
            "AIPERF_INDEX_UNAVAILABLE",
            "AIPERF_INDEX_INVALID",
            "AIPERF_INDEX_INVALID",
            "AIPERF_NO_STABLE_RELEASE",
            "AIPERF_INDEX_INVALID");
    assertThat(log.blockers().get(0).message()).contains("HTTP 404");
  }

  @Test
  @DisplayName("an operator pin wins, is recorded as such, and never touches the network")
  void operatorPin() {
    RuleLog log = new RuleLog();
    IndexFetcher failing =
        uri -> {
          throw new AssertionError("an operator pin must not query the index");
        };
    VersionResolution r =
        new AiperfVersionResolver(failing, CLOCK)
            .resolve(new VersionRequest("0.12.0", null, url("/index/aiperf/json"), null), log)
            .orElseThrow();
    assertThat(r.version()).isEqualTo("0.12.0");
    assertThat(r.mechanism()).isEqualTo("operator_pin");
    assertThat(r.query()).isNull();
    assertThat(r.outputSha256()).isNull();
    assertThat(log.blockers()).isEmpty();
    RuleLog bad = new RuleLog();
    assertThat(
            new AiperfVersionResolver(failing, CLOCK).resolve(VersionRequest.pinned("latest"), bad))
        .isEmpty();
    assertThat(bad.blockers()).extracting(Blocker::code).containsExactly("AIPERF_VERSION_INVALID");
  }

  @Test
  @DisplayName("a reference recipe's pip pin is used and recorded (real Dynamo recipe perf.yaml)")
  void referenceRecipe() {
    Path recipe =
        SharedData.require("dynamo/main-2026-08-21/recipes/llama-3-70b/vllm/agg/perf.yaml");
    RuleLog log = new RuleLog();
    VersionResolution r = resolve(new VersionRequest(null, recipe, null, null), log).orElseThrow();
    assertThat(r.version()).isEqualTo("0.10.0");
    assertThat(r.mechanism()).isEqualTo("reference_recipe");
    assertThat(r.query()).isEqualTo(recipe.toString());
    assertThat(r.outputSha256()).isEqualTo(Sha256.ofFile(recipe));
    assertThat(r.versionsSeen()).containsExactly("0.10.0");
  }

  @Test
  @DisplayName(
      "a recipe pinning only a source commit needs --aiperf-version; the commit is recorded")
  void referenceRecipeCommit() {
    Path recipe = SharedData.require("dynamo/v0.9.0/recipes/llama-3-70b/vllm/agg/perf.yaml");
    RuleLog log = new RuleLog();
    assertThat(resolve(new VersionRequest(null, recipe, null, null), log)).isEmpty();
    assertThat(log.blockers())
        .extracting(Blocker::code)
        .containsExactly("AIPERF_RECIPE_COMMIT_ONLY");
    assertThat(log.blockers().get(0).message())
        .contains("54cd6dc820bff8bfebc875da104e59d745e14f75");
    RuleLog pinned = new RuleLog();
    VersionResolution r =
        resolve(new VersionRequest("0.3.0", recipe, null, null), pinned).orElseThrow();
    assertThat(r.mechanism()).isEqualTo("operator_pin");
    assertThat(r.sourceCommit()).isEqualTo("54cd6dc820bff8bfebc875da104e59d745e14f75");
  }

  @Test
  @DisplayName("recipes with no pin or several pins are blockers")
  void recipeEdgeCases(@TempDir Path tmp) throws IOException {
    Path none = tmp.resolve("none.yaml");
    Files.writeString(none, "command: pip install genai-perf\n");
    Path two = tmp.resolve("two.yaml");
    Files.writeString(two, "a: pip install aiperf==0.9.0\nb: pip install \"aiperf==0.10.0\"\n");
    RuleLog log = new RuleLog();
    resolve(new VersionRequest(null, none, null, null), log);
    resolve(new VersionRequest(null, two, null, null), log);
    resolve(new VersionRequest(null, tmp.resolve("absent.yaml"), null, null), log);
    assertThat(log.blockers())
        .extracting(Blocker::code)
        .containsExactly(
            "AIPERF_RECIPE_NO_PIN", "AIPERF_RECIPE_AMBIGUOUS", "AIPERF_RECIPE_UNREADABLE");
    assertThat(ReferenceRecipePin.find("image: nvcr.io/nvidia/ai-dynamo/aiperf:0.13.0").versions())
        .containsExactly("0.13.0");
  }

  @Test
  @DisplayName("an image override must be pinned by tag or digest")
  void image() {
    RuleLog log = new RuleLog();
    assertThat(resolve(new VersionRequest("0.13.0", null, null, "repo/aiperf:latest"), log))
        .isEmpty();
    assertThat(resolve(new VersionRequest("0.13.0", null, null, "localhost:5000/aiperf"), log))
        .isEmpty();
    assertThat(log.blockers())
        .extracting(Blocker::code)
        .containsExactly("AIPERF_IMAGE_UNPINNED", "AIPERF_IMAGE_UNPINNED");
    VersionResolution r =
        resolve(
                new VersionRequest(
                    "0.13.0", null, null, "localhost:5000/aiperf@sha256:" + "a".repeat(64)),
                new RuleLog())
            .orElseThrow();
    assertThat(r.image()).startsWith("localhost:5000/aiperf@sha256:");
    assertThat(List.of(AiperfVersionResolver.imagePinned("python:3.12-slim")))
        .containsExactly(true);
  }
}
