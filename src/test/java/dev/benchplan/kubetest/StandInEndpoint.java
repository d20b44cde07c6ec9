package dev.benchplan.kubetest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.benchplan.testing.ColdStart;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A local OpenAI-style endpoint on 127.0.0.1 for an executed AIPerf pod: {@code GET /v1/models}
 * lists the one served model, {@code POST /v1/chat/completions} answers "OK". Just enough for the
 * Job's readiness wait; the stand-in aiperf sends no requests.
 *
 * <p>With a first-completion time, it behaves like a fresh worker that compiles and warms up on its
 * first inference ({@link ColdStart}): the first chat completion is answered only after that time,
 * and a client that gives up and sends another request before then loses the warm-up (the earlier
 * request is dropped and the time starts over).
 */
final class StandInEndpoint implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService executor;

  private StandInEndpoint(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Starts serving {@code model}, every completion at once. */
  static StandInEndpoint serve(String model) {
    return serve(model, Duration.ZERO);
  }

  /**
   * Starts serving {@code model}; the first completion takes {@code firstCompletion} (see above).
   */
  static StandInEndpoint serve(String model, Duration firstCompletion) {
    ColdStart coldStart = new ColdStart(firstCompletion);
    ExecutorService executor =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "stand-in-endpoint");
              t.setDaemon(true);
              return t;
            });
    try {
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.setExecutor(executor);
      String quoted = "\"" + model.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
      server.createContext(
          "/v1/models",
          ex ->
              answer(
                  ex,
                  200,
                  "{\"object\": \"list\", \"data\": [{\"id\": "
                      + quoted
                      + ", \"object\": \"model\"}]}"));
      server.createContext(
          "/v1/chat/completions",
          ex -> {
            ex.getRequestBody().readAllBytes();
            try {
              if (!coldStart.await()) {
                ex.close(); // the client gave up and retried: this warm-up is lost
                return;
              }
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              ex.close();
              return;
            }
            answer(
                ex,
                200,
                "{\"model\": "
                    + quoted
                    + ", \"choices\": [{\"index\": 0, \"message\":"
                    + " {\"role\": \"assistant\", \"content\": \"OK\"}, \"finish_reason\": \"stop\"}]}");
          });
      server.start();
      return new StandInEndpoint(server, executor);
    } catch (IOException e) {
      executor.shutdownNow();
      throw new UncheckedIOException("cannot start the stand-in model endpoint", e);
    }
  }

  /** {@code http://127.0.0.1:<port>}. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private static void answer(HttpExchange ex, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(code, bytes.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
