package dev.benchplan.smoke;

import static dev.benchplan.smoke.ScriptedEndpoint.chunk;
import static dev.benchplan.smoke.ScriptedEndpoint.okStream;
import static dev.benchplan.smoke.ScriptedEndpoint.send;
import static dev.benchplan.smoke.ScriptedEndpoint.sse;
import static dev.benchplan.smoke.ScriptedEndpoint.usageChunk;
import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.json.Sha256;
import dev.benchplan.testing.CommandHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code benchplan smoke} against a scripted server on 127.0.0.1: the protocol edge cases (split
 * packets, comments, truncated streams, error bodies, malformed data, timeouts). Every artifact
 * written is validated against schemas/smoke-artifact.schema.json.
 */
class SmokeProtocolTest {
  @TempDir Path dir;
  private ScriptedEndpoint endpoint;
  private Path out;

  @BeforeEach
  void start() throws IOException {
    endpoint = new ScriptedEndpoint();
    out = dir.resolve("artifacts/smoke.json");
  }

  @AfterEach
  void stop() {
    endpoint.close();
  }

  private CommandHarness.Result smoke(String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "smoke",
                "--url",
                endpoint.url(),
                "--model",
                ScriptedEndpoint.MODEL,
                "--out",
                out.toString()));
    args.addAll(List.of(extra));
    if (!args.contains("--timeout")) {
      args.addAll(List.of("--timeout", "10s"));
    }
    return CommandHarness.run(args.toArray(String[]::new));
  }

  /** The artifact, after checking it against the schema and the printed SHA-256. */
  private JsonNode artifact(CommandHarness.Result r) throws IOException {
    assertThat(out).exists();
    JsonNode node = Json.JSON.readTree(Files.readString(out));
    assertThat(SchemaValidator.bundled("smoke-artifact.schema.json").validate(node)).isEmpty();
    assertThat(r.out()).contains(Sha256.ofFile(out)).contains(out.toAbsolutePath().toString());
    return node;
  }

  @Test
  @DisplayName(
      "SSE split across packets mid-line and mid-character: content, usage and [DONE] are all seen")
  void splitAcrossPackets() throws IOException {
    String whole = String.join("", okStream("Smoke \u00e9t\u00e9 \u4e16\u754c ok."));
    byte[] bytes = whole.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    endpoint.chat(
        ex -> {
          ex.getResponseHeaders().set("Content-Type", "text/event-stream");
          ex.sendResponseHeaders(200, 0);
          // 7-byte pieces cut lines, JSON and multi-byte characters; each is flushed as its own
          // HTTP chunk (how the client's reads fall is the network's: SseParserTest feeds every
          // split point deterministically)
          for (int i = 0; i < bytes.length; i += 7) {
            ex.getResponseBody().write(bytes, i, Math.min(7, bytes.length - i));
            ex.getResponseBody().flush();
          }
        });
    var r = smoke().expectOk();
    JsonNode a = artifact(r);
    assertThat(a.get("success").asBoolean()).isTrue();
    assertThat(a.get("reason").isNull()).isTrue();
    assertThat(a.at("/response/content_preview").asString())
        .isEqualTo("Smoke \u00e9t\u00e9 \u4e16\u754c ok.");
    assertThat(a.at("/response/finish_reason").asString()).isEqualTo("stop");
    assertThat(a.at("/response/usage/completion_tokens").asInt()).isEqualTo(4);
    assertThat(a.at("/response/done_seen").asBoolean()).isTrue();
    assertThat(a.at("/response/chunks").asInt()).isEqualTo(7); // role + 4 words + finish + usage
    assertThat(a.at("/http_status/models").asInt()).isEqualTo(200);
    assertThat(a.at("/http_status/chat_completions").asInt()).isEqualTo(200);
    assertThat(a.at("/timings/ttft_ms").asDouble())
        .isPositive()
        .isLessThanOrEqualTo(a.at("/timings/total_ms").asDouble());
    assertThat(a.at("/models/served").toString()).contains(ScriptedEndpoint.MODEL, "other-model");
    assertThat(r.out()).contains("success:  true");
  }

  @Test
  @DisplayName(
      "the request sent is the one recorded: streaming with include_usage, small max_tokens")
  void requestRecorded() throws IOException {
    var r = smoke().expectOk();
    JsonNode a = artifact(r);
    var chat =
        endpoint.received().stream()
            .filter(x -> x.path().equals("/v1/chat/completions"))
            .findFirst()
            .orElseThrow();
    JsonNode sent = Json.JSON.readTree(chat.body());
    assertThat(a.at("/request/body")).isEqualTo(sent);
    assertThat(sent.get("stream").asBoolean()).isTrue();
    assertThat(sent.at("/stream_options/include_usage").asBoolean()).isTrue();
    assertThat(sent.get("max_tokens").asInt()).isBetween(1, 64);
    assertThat(sent.get("model").asString()).isEqualTo(ScriptedEndpoint.MODEL);
    assertThat(a.at("/request/sent").asBoolean()).isTrue();
    assertThat(chat.authorization()).isNull();
    assertThat(endpoint.received())
        .extracting(ScriptedEndpoint.Received::path)
        .containsExactly("/v1/models", "/v1/chat/completions");
  }

  @Test
  @DisplayName(
      "comments (keep-alives), blank lines, CRLF and multi-line data do not disturb the stream")
  void commentsAndBlankLines() throws IOException {
    endpoint.chat(
        ex ->
            sse(
                ex,
                5,
                List.of(
                    ": connected\r\n\r\n",
                    "\r\n\r\n",
                    "data: " + chunk("Hel", null) + "\r\n\r\n",
                    ": ping\r\n",
                    ": ping\r\n\r\n\r\n",
                    // one JSON document over two data lines is legal SSE: the lines join with LF
                    "data: {\"choices\":[{\"index\":0,\r\ndata: \"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}\r\n\r\n",
                    "data: " + usageChunk(3, 2) + "\r\n\r\n",
                    "data: [DONE]\r\n\r\n")));
    var r = smoke("--format", "json").expectOk();
    JsonNode a = artifact(r);
    assertThat(a.at("/response/content_preview").asString()).isEqualTo("Hello");
    assertThat(a.at("/response/sse_comments").asInt()).isEqualTo(3);
    assertThat(a.at("/response/chunks").asInt()).isEqualTo(3);
    JsonNode printed = Json.JSON.readTree(r.out());
    assertThat(printed.propertyNames())
        .containsExactly("artifact", "sha256", "success", "reason", "ttft_ms", "total_ms");
    assertThat(printed.get("sha256").asString()).isEqualTo(Sha256.ofFile(out));
    assertThat(printed.get("success").asBoolean()).isTrue();
    assertThat(printed.get("ttft_ms").asDouble()).isEqualTo(a.at("/timings/ttft_ms").asDouble());
  }

  @Test
  @DisplayName("a stream that finishes but ends without [DONE] passes, with a warning")
  void noDoneAfterFinish() throws IOException {
    endpoint.chat(
        ex ->
            sse(
                ex,
                0,
                List.of(
                    "data: " + chunk("hi", null) + "\n\n",
                    "data: " + chunk(null, "length") + "\n\n",
                    "data: " + usageChunk(1, 1) + "\n\n")));
    JsonNode a = artifact(smoke().expectOk());
    assertThat(a.at("/response/done_seen").asBoolean()).isFalse();
    assertThat(a.get("warnings").toString()).contains("without data: [DONE]");
  }

  @Test
  @DisplayName("a stream cut off before finishing (no finish_reason, no [DONE]) fails with exit 3")
  void truncatedStream() throws IOException {
    endpoint.chat(
        ex -> sse(ex, 0, List.of("data: " + chunk("hi", null) + "\n\n", "data: {\"choi")));
    var r = smoke().expectExit(3);
    JsonNode a = artifact(r);
    assertThat(a.get("success").asBoolean()).isFalse();
    assertThat(a.get("reason").asString()).contains("ended early").contains("no finish_reason");
    assertThat(a.get("warnings").toString()).contains("middle of an event");
    assertThat(r.err()).contains("benchplan: smoke test failed: ").contains("ended early");
  }

  @Test
  @DisplayName("a 500 with a JSON error body: exit 3, the server's message in the reason")
  void serverError() throws IOException {
    endpoint.chat(
        ex ->
            send(
                ex,
                500,
                "application/json",
                "{\"error\":{\"code\":500,\"message\":\"CUDA out of memory while loading\",\"type\":\"server_error\"}}"));
    var r = smoke().expectExit(3);
    JsonNode a = artifact(r);
    assertThat(a.get("reason").asString())
        .contains("returned HTTP 500")
        .contains("CUDA out of memory while loading (server_error)");
    assertThat(a.at("/http_status/chat_completions").asInt()).isEqualTo(500);
    assertThat(a.get("response").isNull()).isTrue();
    assertThat(a.at("/timings/total_ms").isNumber()).isTrue();
  }

  @Test
  @DisplayName("a 401 on /v1/models: exit 3 before any chat request, message surfaced")
  void unauthorizedModels() throws IOException {
    endpoint.models(401, "{\"detail\":\"missing bearer token\"}");
    var r = smoke().expectExit(3);
    JsonNode a = artifact(r);
    assertThat(a.get("reason").asString())
        .contains("GET ")
        .contains("HTTP 401")
        .contains("missing bearer token");
    assertThat(a.at("/request/sent").asBoolean()).isFalse();
    assertThat(endpoint.received())
        .extracting(ScriptedEndpoint.Received::path)
        .containsExactly("/v1/models");
  }

  @Test
  @DisplayName("a model missing from /v1/models: 'model not served', listing what is served")
  void modelNotServed() throws IOException {
    endpoint.models(200, ScriptedEndpoint.modelList("Qwen/Qwen3-0.6B", "meta-llama/Llama-3.1-8B"));
    var r = smoke().expectExit(3);
    JsonNode a = artifact(r);
    assertThat(a.get("reason").asString())
        .startsWith("model not served: 'scripted-model'")
        .endsWith("served: Qwen/Qwen3-0.6B, meta-llama/Llama-3.1-8B");
    assertThat(a.at("/models/served").size()).isEqualTo(2);
  }

  @Test
  @DisplayName("a /v1/models answer that is not a model list fails with what was expected")
  void notAModelList() throws IOException {
    endpoint.models(200, "{\"models\":[\"a\"]}");
    var r = smoke().expectExit(3);
    assertThat(artifact(r).get("reason").asString())
        .contains("/data is missing or not an array")
        .contains("expected an OpenAI model list");
  }

  @Test
  @DisplayName("a stream that finishes without any content: 'empty content', exit 3")
  void emptyContent() throws IOException {
    endpoint.chat(
        ex ->
            sse(
                ex,
                0,
                List.of(
                    "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n",
                    "data: " + chunk(null, "stop") + "\n\n",
                    "data: " + usageChunk(5, 0) + "\n\n",
                    "data: [DONE]\n\n")));
    var r = smoke().expectExit(3);
    JsonNode a = artifact(r);
    assertThat(a.get("reason").asString())
        .startsWith("empty content")
        .contains("finish_reason stop");
    assertThat(a.at("/response/content_chars").asInt()).isZero();
    assertThat(a.at("/timings/ttft_ms").isNull()).isTrue();
  }

  @Test
  @DisplayName("reasoning deltas count as generated output (reasoning models think first)")
  void reasoningOnly() throws IOException {
    endpoint.chat(
        ex ->
            sse(
                ex,
                0,
                List.of(
                    "data: {\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"Let me think\"},\"finish_reason\":null}]}\n\n",
                    "data: " + chunk(null, "length") + "\n\n",
                    "data: [DONE]\n\n")));
    JsonNode a = artifact(smoke().expectOk());
    assertThat(a.at("/response/reasoning_chars").asInt()).isEqualTo(12);
    assertThat(a.at("/response/content_chars").asInt()).isZero();
    assertThat(a.get("warnings").toString()).contains("no usage chunk");
  }

  @Test
  @DisplayName("data that is not JSON: 'malformed SSE' naming the event and line, exit 3")
  void nonJsonData() throws IOException {
    endpoint.chat(
        ex ->
            sse(
                ex,
                0,
                List.of(
                    "data: " + chunk("a", null) + "\n\n",
                    "data: <html>oops</html>\n\n",
                    "data: [DONE]\n\n")));
    var r = smoke().expectExit(3);
    assertThat(artifact(r).get("reason").asString())
        .startsWith("malformed SSE: event 2 (line 4): data is not JSON: <html>oops</html>");
  }

  @Test
  @DisplayName("a non-streaming JSON answer to a streaming request is malformed SSE")
  void wrongContentType() throws IOException {
    endpoint.chat(
        ex ->
            send(
                ex, 200, "application/json", "{\"choices\":[{\"message\":{\"content\":\"hi\"}}]}"));
    var r = smoke().expectExit(3);
    assertThat(artifact(r).get("reason").asString())
        .contains("malformed SSE")
        .contains("Content-Type application/json, expected text/event-stream");
  }

  @Test
  @DisplayName("an error event inside the stream surfaces the server's message")
  void errorInStream() throws IOException {
    endpoint.chat(
        ex ->
            sse(
                ex,
                0,
                List.of(
                    "data: {\"error\":{\"message\":\"context length exceeded\",\"type\":\"invalid_request_error\"}}\n\n")));
    var r = smoke().expectExit(3);
    assertThat(artifact(r).get("reason").asString())
        .isEqualTo(
            "the server reported an error in the stream: context length exceeded (invalid_request_error)");
  }

  @Test
  @DisplayName(
      "a server that trickles the stream past --timeout: exit 3 'timed out' soon after the limit")
  void trickleTimeout() throws IOException {
    endpoint.chat(
        ex -> {
          List<String> slow = new ArrayList<>();
          for (int i = 0; i < 100; i++) {
            slow.add("data: " + chunk("t" + i + " ", null) + "\n\n");
          }
          sse(ex, 100, slow);
        });
    long t0 = System.nanoTime();
    var r = smoke("--timeout", "800ms").expectExit(3);
    long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
    JsonNode a = artifact(r);
    assertThat(a.get("reason").asString())
        .startsWith("timed out after 800ms (--timeout) while reading the stream");
    assertThat(a.at("/response/chunks").asInt()).isBetween(1, 20);
    assertThat(a.at("/timings/ttft_ms").isNumber()).isTrue();
    assertThat(a.get("timeout_ms").asInt()).isEqualTo(800);
    assertThat(elapsedMs).isLessThan(5_000);
  }

  @Test
  @DisplayName("a server that never answers: exit 3 'timed out ... waiting for the response'")
  void silentServer() throws IOException {
    endpoint.chat(endpoint.neverAnswers());
    long t0 = System.nanoTime();
    var r = smoke("--timeout", "700ms").expectExit(3);
    assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(5_000);
    JsonNode a = artifact(r);
    assertThat(a.get("reason").asString())
        .startsWith("timed out after 700ms (--timeout) waiting for the response: POST ");
    assertThat(a.at("/http_status/chat_completions").isNull()).isTrue();
  }

  @Test
  @DisplayName("a trailing /v1 on --url is accepted: the calls go to /v1/models, not /v1/v1/models")
  void trailingV1() throws IOException {
    var r =
        CommandHarness.run(
                "smoke",
                "--url",
                endpoint.url() + "/v1/",
                "--model",
                ScriptedEndpoint.MODEL,
                "--out",
                out.toString())
            .expectOk();
    assertThat(artifact(r).get("url").asString()).isEqualTo(endpoint.url());
  }

  @Test
  @DisplayName("re-running replaces the artifact atomically (no temporary files left)")
  void replacesArtifact() throws IOException {
    smoke().expectOk();
    String first = Sha256.ofFile(out);
    endpoint.chat(ex -> sse(ex, 0, okStream("Different words.")));
    smoke().expectOk();
    assertThat(Sha256.ofFile(out)).isNotEqualTo(first);
    try (var files = Files.list(out.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("smoke.json");
    }
  }
}
