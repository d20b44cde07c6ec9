package dev.benchplan.smoke;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A small OpenAI-shaped server on 127.0.0.1 (the JDK's HttpServer) whose chat-completion stream
 * each test scripts byte by byte, to exercise protocol edge cases a real server rarely shows. The
 * real server (llama-server) is the endpoint tier's job.
 */
final class ScriptedEndpoint implements AutoCloseable {
  /** What a test does with a chat completion request. */
  @FunctionalInterface
  interface ChatHandler {
    void handle(HttpExchange exchange) throws IOException, InterruptedException;
  }

  /** One request the server received. */
  record Received(String method, String path, String authorization, String body) {}

  static final String MODEL = "scripted-model";

  private final HttpServer server;
  private final ExecutorService executor =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "scripted-endpoint");
            t.setDaemon(true);
            return t;
          });
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile String modelsBody = modelList(MODEL, "other-model");
  private volatile int modelsStatus = 200;
  private volatile ChatHandler chat = ex -> sse(ex, 0, okStream("Hello there."));

  ScriptedEndpoint() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(executor);
    server.createContext("/", this::dispatch);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  ScriptedEndpoint models(int status, String body) {
    this.modelsStatus = status;
    this.modelsBody = body;
    return this;
  }

  ScriptedEndpoint chat(ChatHandler handler) {
    this.chat = handler;
    return this;
  }

  List<Received> received() {
    return List.copyOf(received);
  }

  /** A chat handler that never answers: it holds the request until the endpoint is closed. */
  ChatHandler neverAnswers() {
    return ex -> closed.await();
  }

  private void dispatch(HttpExchange ex) throws IOException {
    try (ex) {
      String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String path = ex.getRequestURI().getPath();
      received.add(
          new Received(
              ex.getRequestMethod(), path, ex.getRequestHeaders().getFirst("Authorization"), body));
      if (path.equals("/v1/models") && ex.getRequestMethod().equals("GET")) {
        send(ex, modelsStatus, "application/json", modelsBody);
      } else if (path.equals("/v1/chat/completions") && ex.getRequestMethod().equals("POST")) {
        chat.handle(ex);
      } else {
        send(ex, 404, "application/json", "{\"error\":{\"message\":\"no route " + path + "\"}}");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // the client went away (a timeout test closes the stream): nothing to do
    }
  }

  static void send(HttpExchange ex, int status, String contentType, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", contentType);
    ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      ex.getResponseBody().write(bytes);
    }
  }

  /**
   * Streams pieces as text/event-stream, flushing after each piece (one HTTP chunk, usually one TCP
   * segment) and pausing between them so the client reads them separately.
   */
  static void sse(HttpExchange ex, long pauseMillis, List<String> pieces)
      throws IOException, InterruptedException {
    ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
    ex.getResponseHeaders().set("Cache-Control", "no-cache");
    ex.sendResponseHeaders(200, 0);
    OutputStream out = ex.getResponseBody();
    for (String piece : pieces) {
      out.write(piece.getBytes(StandardCharsets.UTF_8));
      out.flush();
      if (pauseMillis > 0) {
        Thread.sleep(pauseMillis); // scripted time: a server that trickles its stream
      }
    }
  }

  /** {"object":"list","data":[{"id":...}, ...]} */
  static String modelList(String... ids) {
    StringBuilder sb = new StringBuilder("{\"object\":\"list\",\"data\":[");
    for (int i = 0; i < ids.length; i++) {
      sb.append(i == 0 ? "" : ",")
          .append("{\"id\":\"")
          .append(ids[i])
          .append("\",\"object\":\"model\"}");
    }
    return sb.append("]}").toString();
  }

  /**
   * A chat.completion.chunk with one content delta (or only a finish reason when content is null).
   */
  static String chunk(String content, String finishReason) {
    String delta = content == null ? "{}" : "{\"content\":\"" + content + "\"}";
    String finish = finishReason == null ? "null" : "\"" + finishReason + "\"";
    return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"model\":\""
        + MODEL
        + "\",\"choices\":[{\"index\":0,\"delta\":"
        + delta
        + ",\"finish_reason\":"
        + finish
        + "}]}";
  }

  static String usageChunk(int prompt, int completion) {
    return "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"model\":\""
        + MODEL
        + "\",\"choices\":[],\"usage\":{\"prompt_tokens\":"
        + prompt
        + ",\"completion_tokens\":"
        + completion
        + ",\"total_tokens\":"
        + (prompt + completion)
        + "}}";
  }

  /** A well-formed stream: role chunk, one content chunk per word, finish, usage, [DONE]. */
  static List<String> okStream(String text) {
    List<String> pieces = new java.util.ArrayList<>();
    pieces.add(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null},\"finish_reason\":null}]}\n\n");
    String[] words = text.split("(?<= )");
    for (String w : words) {
      pieces.add("data: " + chunk(w, null) + "\n\n");
    }
    pieces.add("data: " + chunk(null, "stop") + "\n\n");
    pieces.add("data: " + usageChunk(12, words.length) + "\n\n");
    pieces.add("data: [DONE]\n\n");
    return pieces;
  }

  @Override
  public void close() {
    closed.countDown();
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
