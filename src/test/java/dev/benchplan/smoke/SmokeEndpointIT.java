package dev.benchplan.smoke;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.CommandHarness;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code benchplan smoke} against a real OpenAI-compatible server: llama-server (Debian's
 * llama.cpp-tools) on 127.0.0.1 serving a tiny model the tests write. Uses BENCHPLAN_ENDPOINT_URL
 * (scripts/test.sh starts the server) or starts scripts/endpoint-test-env.sh itself; fails instead
 * of skipping when CI=true.
 */
@Tag("endpoint")
class SmokeEndpointIT {
  private static final SchemaValidator SCHEMA =
      SchemaValidator.bundled("smoke-artifact.schema.json");
  private static String baseUrl;
  private static EndpointTestEnv startedHere;

  @TempDir Path dir;

  @BeforeAll
  static void endpoint() {
    String url = System.getenv("BENCHPLAN_ENDPOINT_URL");
    if (url == null || url.isBlank()) {
      EndpointTestEnv env = new EndpointTestEnv(Path.of("target/endpoint-test-env"));
      url = env.up();
      startedHere = env; // stopped after the class only when this class started it
    }
    baseUrl = url.strip();
  }

  @AfterAll
  static void stopOwnServer() {
    if (startedHere != null) {
      startedHere.down();
    }
  }

  private JsonNode validArtifact(Path out) throws IOException {
    JsonNode node = Json.JSON.readTree(Files.readString(out));
    assertThat(SCHEMA.validate(node)).isEmpty();
    return node;
  }

  @Test
  @DisplayName(
      "the real llama-server passes: model listed, streamed content, usage, [DONE], ttft <= total")
  void success() throws IOException {
    Path out = dir.resolve("smoke_test_artifact.json");
    var r =
        CommandHarness.run(
                "smoke",
                "--url",
                baseUrl,
                "--model",
                EndpointTestEnv.MODEL,
                "--out",
                out.toString(),
                "--timeout",
                "60s",
                "--format",
                "json")
            .expectOk();
    JsonNode a = validArtifact(out);
    assertThat(a.get("success").asBoolean()).isTrue();
    assertThat(a.get("reason").isNull()).isTrue();
    assertThat(a.get("url").asString()).isEqualTo(baseUrl);
    assertThat(a.at("/models/served").toString()).contains(EndpointTestEnv.MODEL);
    assertThat(a.at("/http_status/models").asInt()).isEqualTo(200);
    assertThat(a.at("/http_status/chat_completions").asInt()).isEqualTo(200);
    assertThat(a.at("/response/content_type").asString()).startsWith("text/event-stream");
    assertThat(a.at("/response/content_chars").asInt()).isPositive();
    assertThat(a.at("/response/content_preview").asString()).isNotEmpty();
    assertThat(a.at("/response/done_seen").asBoolean()).isTrue();
    assertThat(a.at("/response/finish_reason").asString()).isIn("length", "stop");
    assertThat(a.at("/response/model").asString()).isEqualTo(EndpointTestEnv.MODEL);
    assertThat(a.at("/response/usage/prompt_tokens").asInt()).isPositive();
    assertThat(a.at("/response/usage/completion_tokens").asInt())
        .isBetween(1, SmokeTest.MAX_TOKENS);
    assertThat(a.at("/response/chunks").asInt()).isGreaterThan(2);
    double ttft = a.at("/timings/ttft_ms").asDouble();
    double total = a.at("/timings/total_ms").asDouble();
    assertThat(ttft).isPositive().isLessThanOrEqualTo(total);
    assertThat(a.get("warnings").isEmpty()).as("warnings %s", a.get("warnings")).isTrue();
    JsonNode printed = Json.JSON.readTree(r.out());
    assertThat(printed.get("sha256").asString()).isEqualTo(Sha256.ofFile(out));
    assertThat(printed.get("artifact").asString()).isEqualTo(out.toAbsolutePath().toString());
    assertThat(printed.get("total_ms").asDouble()).isEqualTo(total);
  }

  @Test
  @DisplayName(
      "a model the server does not serve: exit 3, 'model not served', listing tiny-test-model")
  void wrongModel() throws IOException {
    Path out = dir.resolve("a.json");
    var r =
        CommandHarness.run(
                "smoke", "--url", baseUrl, "--model", "Qwen/Qwen3-0.6B", "--out", out.toString())
            .expectExit(3);
    JsonNode a = validArtifact(out);
    assertThat(a.get("success").asBoolean()).isFalse();
    assertThat(a.get("reason").asString())
        .startsWith("model not served: 'Qwen/Qwen3-0.6B'")
        .endsWith("served: " + EndpointTestEnv.MODEL);
    assertThat(a.at("/request/sent").asBoolean()).isFalse();
    assertThat(r.err()).contains("benchplan: smoke test failed: model not served");
  }

  @Test
  @DisplayName(
      "nothing listening (a closed loopback port): exit 3, connection refused, artifact written")
  void connectionRefused() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Path out = dir.resolve("a.json");
    long t0 = System.nanoTime();
    CommandHarness.run(
            "smoke",
            "--url",
            "http://127.0.0.1:" + port,
            "--model",
            EndpointTestEnv.MODEL,
            "--out",
            out.toString())
        .expectExit(3);
    assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(10_000);
    JsonNode a = validArtifact(out);
    assertThat(a.get("reason").asString())
        .startsWith(
            "GET http://127.0.0.1:" + port + "/v1/models: cannot connect to 127.0.0.1:" + port)
        .containsIgnoringCase("connection refused");
    assertThat(a.at("/http_status/models").isNull()).isTrue();
  }

  @Test
  @DisplayName(
      "a server that was stopped with 'down': passes before, connection refused after; down is idempotent")
  void serverStopped() throws IOException {
    EndpointTestEnv own = new EndpointTestEnv(dir.resolve("own-endpoint"));
    String url = own.up();
    try {
      assertThat(url).isNotEqualTo(baseUrl);
      CommandHarness.run(
              "smoke",
              "--url",
              url,
              "--model",
              EndpointTestEnv.MODEL,
              "--out",
              dir.resolve("before.json").toString())
          .expectOk();
    } finally {
      assertThat(own.down()).isZero();
    }
    Path out = dir.resolve("after.json");
    CommandHarness.run(
            "smoke", "--url", url, "--model", EndpointTestEnv.MODEL, "--out", out.toString())
        .expectExit(3);
    assertThat(validArtifact(out).get("reason").asString())
        .containsIgnoringCase("connection refused");
    assertThat(own.down()).as("a second down").isZero();
  }

  @Test
  @DisplayName(
      "the real server behind a trickling proxy and --timeout 2s: exit 3 'timed out' within the bound")
  void slowServerTimeout() throws IOException {
    URI upstream = URI.create(baseUrl);
    InetSocketAddress address = new InetSocketAddress(upstream.getHost(), upstream.getPort());
    // first the proxy without delay: it passes, so the timeout below is the delay's doing
    try (SlowProxy fast = new SlowProxy(address, 0)) {
      CommandHarness.run(
              "smoke",
              "--url",
              fast.url(),
              "--model",
              EndpointTestEnv.MODEL,
              "--out",
              dir.resolve("fast.json").toString(),
              "--timeout",
              "30s")
          .expectOk();
    }
    Path out = dir.resolve("slow.json");
    String slowUrl;
    try (SlowProxy slow = new SlowProxy(address, 150)) {
      slowUrl = slow.url();
      long t0 = System.nanoTime();
      CommandHarness.run(
              "smoke",
              "--url",
              slow.url(),
              "--model",
              EndpointTestEnv.MODEL,
              "--out",
              out.toString(),
              "--timeout",
              "2s")
          .expectExit(3);
      long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
      assertThat(elapsedMs).isBetween(1_900L, 6_000L);
    }
    JsonNode a = validArtifact(out);
    assertThat(a.get("reason").asString())
        .startsWith("timed out after 2s (--timeout) while reading the stream of POST " + slowUrl);
    assertThat(a.at("/response/done_seen").asBoolean()).isFalse();
    assertThat(a.at("/http_status/models").asInt()).isEqualTo(200);
    assertThat(a.get("timeout_ms").asInt()).isEqualTo(2000);
  }
}
