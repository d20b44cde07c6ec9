package dev.benchplan.kubetest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A local OpenAI-style endpoint on 127.0.0.1 for an executed AIPerf pod: {@code GET /v1/models}
 * lists the one served model, {@code POST /v1/chat/completions} answers "OK". Just enough for the
 * Job's readiness wait; the stand-in aiperf sends no requests.
 */
final class StandInEndpoint implements AutoCloseable {
  private final HttpServer server;

  private StandInEndpoint(HttpServer server) {
    this.server = server;
  }

  /** Starts serving {@code model}. */
  static StandInEndpoint serve(String model) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      String quoted = "\"" + model.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
      server.createContext("/v1/models", ex -> answer(ex, 200,
          "{\"object\": \"list\", \"data\": [{\"id\": " + quoted + ", \"object\": \"model\"}]}"));
      server.createContext("/v1/chat/completions", ex -> {
        ex.getRequestBody().readAllBytes();
        answer(ex, 200, "{\"model\": " + quoted + ", \"choices\": [{\"index\": 0, \"message\":"
            + " {\"role\": \"assistant\", \"content\": \"OK\"}, \"finish_reason\": \"stop\"}]}");
      });
      server.start();
      return new StandInEndpoint(server);
    } catch (IOException e) {
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
  }
}
