package dev.benchplan.smoke;

import dev.benchplan.json.AtomicFiles;
import dev.benchplan.json.CanonicalJson;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code benchplan smoke}: proves that an OpenAI-compatible endpoint serves a model, with two calls
 * bounded by one timeout: {@code GET /v1/models} must list the model, then one streaming {@code
 * POST /v1/chat/completions} must deliver non-empty content over server-sent events. The artifact
 * is written (atomically) whether the endpoint passed or not; only the endpoint's failures are
 * recorded in it, bad arguments are rejected before anything is sent.
 */
public final class SmokeTest {
  /** The fixed prompt: short, so any model answers within {@link #MAX_TOKENS}. */
  public static final String PROMPT =
      "Reply with one short sentence: what does a smoke test check?";

  /** Enough tokens to see a stream, few enough to finish fast on any hardware. */
  public static final int MAX_TOKENS = 16;

  private static final int MAX_MODELS_BYTES = 4 << 20;
  private static final int MAX_STREAM_BYTES = 8 << 20;
  private static final int MAX_ERROR_BYTES = 64 << 10;
  private static final int MAX_LISTED_MODELS = 20;

  private final SmokeOptions options;
  private final Deadline deadline;
  private final HttpClient client;
  private final List<String> warnings = new ArrayList<>();
  private @Nullable Integer modelsStatus;
  private @Nullable List<String> servedModels;
  private @Nullable Long modelsNanos;
  private @Nullable Integer chatStatus;
  private @Nullable String contentType;
  private @Nullable ChatCompletionStream stream;
  private long sseComments;
  private @Nullable Long totalNanos;

  private SmokeTest(SmokeOptions options, long startNanos) {
    this.options = options;
    this.deadline = new Deadline(options.timeout(), startNanos);
    this.client =
        HttpClient.newBuilder()
            // plain HTTP/1.1: the default HTTP/2 attempt sends an h2c upgrade some servers reject
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(options.timeout())
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /**
   * Runs the smoke test and writes the artifact to {@code options.out()}.
   *
   * @return where the artifact is, its SHA-256 and what it says; a failed endpoint is an outcome
   *     with {@code success == false}, not an exception
   */
  public static SmokeOutcome run(SmokeOptions options) {
    SmokeArtifact artifact = probe(options);
    String text = new String(CanonicalJson.bytes(artifact.toJson()), StandardCharsets.UTF_8);
    // the key is never put in the artifact; this catches a server that echoes it back
    byte[] bytes = options.redact(text).getBytes(StandardCharsets.UTF_8);
    Path target = options.out().toAbsolutePath().normalize();
    AtomicFiles.write(target, bytes);
    return new SmokeOutcome(target, Sha256.hex(bytes), artifact);
  }

  /** Runs the smoke test without writing anything. */
  public static SmokeArtifact probe(SmokeOptions options) {
    Instant timestamp = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    SmokeTest test = new SmokeTest(options, System.nanoTime());
    String reason = null;
    try {
      test.checkModelServed();
      test.streamChatCompletion();
    } catch (SmokeFailure failure) {
      reason = options.redact(failure.reason());
    } finally {
      test.deadline.close();
    }
    return new SmokeArtifact(
        options.url(),
        options.model(),
        timestamp,
        reason == null,
        reason,
        options.timeout(),
        options.apiKeyEnv(),
        test.modelsStatus,
        test.servedModels,
        test.chatUrl(),
        requestBody(options.model()),
        test.chatStatus,
        test.contentType,
        test.stream == null ? null : test.stream.summary(),
        test.sseComments,
        test.modelsNanos,
        test.totalNanos,
        test.allWarnings());
  }

  /** The chat completion request every smoke test sends. */
  public static ObjectNode requestBody(String model) {
    ObjectNode body = Json.JSON.createObjectNode();
    body.put("model", model);
    ObjectNode message = body.putArray("messages").addObject();
    message.put("role", "user");
    message.put("content", PROMPT);
    body.put("max_tokens", MAX_TOKENS);
    body.put("stream", true);
    body.putObject("stream_options").put("include_usage", true);
    return body;
  }

  private URI chatUrl() {
    return options.url().resolve("/v1/chat/completions");
  }

  private List<String> allWarnings() {
    List<String> all = new ArrayList<>(warnings);
    if (stream != null) {
      all.addAll(stream.warnings());
    }
    return all;
  }

  private void checkModelServed() throws SmokeFailure {
    URI uri = options.url().resolve("/v1/models");
    String what = "GET " + uri;
    long t0 = System.nanoTime();
    HttpResponse<InputStream> response =
        send(request(uri).header("Accept", "application/json").GET(), what);
    modelsStatus = response.statusCode();
    if (modelsStatus / 100 != 2) {
      throw httpError(what, response);
    }
    byte[] body = readAll(response.body(), MAX_MODELS_BYTES, what);
    modelsNanos = System.nanoTime() - t0;
    servedModels = ModelList.parse(body);
    if (!servedModels.contains(options.model())) {
      throw new SmokeFailure(
          "model not served: '"
              + options.model()
              + "' is not listed by "
              + what
              + "; served: "
              + describeServed(servedModels));
    }
  }

  private static String describeServed(List<String> served) {
    if (served.isEmpty()) {
      return "(none)";
    }
    List<String> shown = served.subList(0, Math.min(served.size(), MAX_LISTED_MODELS));
    String more =
        served.size() > shown.size() ? " and " + (served.size() - shown.size()) + " more" : "";
    return String.join(", ", shown) + more;
  }

  private void streamChatCompletion() throws SmokeFailure {
    URI uri = chatUrl();
    String what = "POST " + uri;
    String body = Json.JSON.writeValueAsString(requestBody(options.model()));
    HttpRequest.Builder builder =
        request(uri)
            .header("Accept", "text/event-stream")
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    long sent = System.nanoTime();
    try {
      readStream(builder, what, sent);
    } finally {
      totalNanos = System.nanoTime() - sent;
    }
    StreamSummary summary = Objects.requireNonNull(stream, "readStream sets the stream").summary();
    if (!summary.doneSeen()) {
      if (summary.finishReason() == null) {
        throw new SmokeFailure(
            "the stream of "
                + what
                + " ended early: no finish_reason and no"
                + " data: [DONE] after "
                + summary.chunks()
                + " chunk(s)");
      }
      warnings.add(
          "the stream ended without data: [DONE] (finish_reason " + summary.finishReason() + ")");
    }
    if (summary.contentChars() == 0 && summary.reasoningChars() == 0) {
      throw new SmokeFailure(
          "empty content: "
              + what
              + " streamed "
              + summary.chunks()
              + " chunk(s) without any content (finish_reason "
              + summary.finishReason()
              + ")");
    }
    if (summary.usage() == null) {
      warnings.add("no usage chunk although stream_options.include_usage was requested");
    }
  }

  private void readStream(HttpRequest.Builder builder, String what, long sent) throws SmokeFailure {
    HttpResponse<InputStream> response = send(builder, what);
    chatStatus = response.statusCode();
    if (chatStatus / 100 != 2) {
      throw httpError(what, response);
    }
    contentType = response.headers().firstValue("Content-Type").orElse(null);
    String mediaType =
        contentType == null ? "" : contentType.split(";")[0].strip().toLowerCase(Locale.ROOT);
    if (!mediaType.equals("text/event-stream")) {
      byte[] body = readAll(response.body(), MAX_ERROR_BYTES, what);
      throw new SmokeFailure(
          "malformed SSE: "
              + what
              + " answered with Content-Type "
              + (contentType == null ? "(none)" : contentType)
              + ", expected text/event-stream: "
              + ServerMessage.excerpt(new String(body, StandardCharsets.UTF_8)));
    }
    stream = new ChatCompletionStream(sent);
    List<SseEvent> arrived = new ArrayList<>();
    SseParser parser = new SseParser(arrived::add);
    byte[] buffer = new byte[16 << 10];
    InputStream in = response.body();
    try (in;
        Deadline.Guard guard = deadline.guard(in)) {
      try {
        int n;
        while (!stream.doneSeen() && (n = in.read(buffer)) >= 0) {
          long now = System.nanoTime();
          parser.feed(buffer, 0, n);
          for (SseEvent event : arrived) {
            stream.accept(event, now);
          }
          arrived.clear();
          if (parser.bytes() > MAX_STREAM_BYTES) {
            throw new SmokeFailure(
                "malformed SSE: "
                    + what
                    + " sent more than "
                    + MAX_STREAM_BYTES
                    + " bytes for "
                    + MAX_TOKENS
                    + " tokens");
          }
        }
      } catch (IOException e) {
        if (!guard.fired()) {
          throw new SmokeFailure(
              what + ": the connection failed while reading the stream: " + describe(e), e);
        }
      } catch (SseFormatException e) {
        throw new SmokeFailure("malformed SSE: " + what + ": " + e.getMessage());
      }
      if (guard.fired()) {
        throw new SmokeFailure(
            "timed out after "
                + describe(deadline.timeout())
                + " (--timeout) while"
                + " reading the stream of "
                + what
                + " ("
                + stream.summary().chunks()
                + " chunk(s) so far)");
      }
    } catch (IOException e) {
      // closing the body failed after a complete read: nothing was lost
    }
    sseComments = parser.comments();
    String discarded = parser.finish();
    if (discarded != null && !stream.doneSeen()) {
      warnings.add(
          "the stream ended in the middle of an event (no blank line after it); its data was"
              + " discarded: "
              + ServerMessage.excerpt(discarded));
    }
  }

  private HttpRequest.Builder request(URI uri) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(uri).header("User-Agent", "benchplan-smoke");
    if (options.hasApiKey()) {
      builder.header("Authorization", "Bearer " + options.apiKey());
    }
    return builder;
  }

  private HttpResponse<InputStream> send(HttpRequest.Builder builder, String what)
      throws SmokeFailure {
    if (deadline.expired()) {
      throw timedOut(what, "before it was sent");
    }
    HttpRequest request = builder.timeout(deadline.remaining()).build();
    CompletableFuture<HttpResponse<InputStream>> future =
        client.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
    try {
      return future.get(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw timedOut(what, "waiting for the response");
    } catch (ExecutionException e) {
      throw transportFailure(what, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      future.cancel(true);
      throw new SmokeFailure(what + ": interrupted");
    }
  }

  private SmokeFailure transportFailure(String what, @Nullable Throwable cause) {
    if (cause instanceof HttpConnectTimeoutException) {
      return timedOut(what, "connecting");
    }
    if (cause instanceof HttpTimeoutException) {
      return timedOut(what, "waiting for the response");
    }
    if (cause instanceof ConnectException) {
      return new SmokeFailure(
          what
              + ": cannot connect to "
              + options.url().base().getAuthority()
              + ": "
              + rootMessage(cause, "connection refused"),
          cause);
    }
    if (hasCause(cause, UnresolvedAddressException.class)) {
      return new SmokeFailure(
          what + ": cannot resolve host " + options.url().base().getHost(), cause);
    }
    return new SmokeFailure(what + ": " + describe(cause), cause);
  }

  private SmokeFailure timedOut(String what, String phase) {
    return new SmokeFailure(
        "timed out after " + describe(deadline.timeout()) + " (--timeout) " + phase + ": " + what);
  }

  private SmokeFailure httpError(String what, HttpResponse<InputStream> response) {
    byte[] body;
    try {
      body = readAll(response.body(), MAX_ERROR_BYTES, what);
    } catch (SmokeFailure e) {
      body = new byte[0]; // the status alone says enough
    }
    String location =
        response.headers().firstValue("Location").map(l -> " (Location: " + l + ")").orElse("");
    return new SmokeFailure(
        what
            + " returned HTTP "
            + response.statusCode()
            + location
            + ": "
            + ServerMessage.fromBody(body));
  }

  /** Reads a whole body, at most limit bytes, within the deadline. */
  private byte[] readAll(InputStream in, int limit, String what) throws SmokeFailure {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[16 << 10];
    try (in;
        Deadline.Guard guard = deadline.guard(in)) {
      try {
        int n;
        while ((n = in.read(buffer)) >= 0) {
          out.write(buffer, 0, n);
          if (out.size() > limit) {
            throw new SmokeFailure(what + ": the response is larger than " + limit + " bytes");
          }
        }
      } catch (IOException e) {
        if (!guard.fired()) {
          throw new SmokeFailure(
              what + ": the connection failed while reading the response: " + describe(e), e);
        }
      }
      if (guard.fired()) {
        throw timedOut(what, "while reading the response");
      }
    } catch (IOException e) {
      // closing after a complete read failed: the bytes are all here
    }
    return out.toByteArray();
  }

  private static boolean hasCause(@Nullable Throwable t, Class<? extends Throwable> type) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }

  private static @Nullable String rootMessage(@Nullable Throwable t, @Nullable String fallback) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c.getMessage() != null && !c.getMessage().isBlank()) {
        return c.getMessage();
      }
    }
    return fallback;
  }

  private static String describe(@Nullable Throwable t) {
    if (t == null) {
      return "no cause given";
    }
    String message = rootMessage(t, null);
    return message == null
        ? t.getClass().getSimpleName()
        : t.getClass().getSimpleName() + " (" + message + ")";
  }

  /** 30s, 1500ms, 5m: the way the user wrote it, roughly. */
  static String describe(Duration d) {
    long ms = d.toMillis();
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }
}
