package dev.benchplan.kubetest;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

/**
 * The kubelet's read-only log endpoint, {@code GET /containerLogs/<ns>/<pod>/<container>}, over
 * HTTPS on 127.0.0.1 (an ephemeral port). The apiserver's {@code pods/log} proxies here. Supports
 * {@code follow}, {@code tailLines}, {@code limitBytes} and {@code timestamps} like the kubelet.
 * Requires a client certificate signed by the environment's CA: only the apiserver gets in.
 */
final class KubeletLogServer implements AutoCloseable {
  /** Finds a container's log. */
  interface Logs {
    Lookup find(String namespace, String pod, String container);
  }

  /** A log, or the HTTP status and message the kubelet would answer instead. */
  record Lookup(ContainerLog log, int status, String error) {
    static Lookup of(ContainerLog log) {
      return new Lookup(log, 200, null);
    }

    static Lookup error(int status, String error) {
      return new Lookup(null, status, error);
    }
  }

  private final HttpsServer server;
  private final ExecutorService executor;
  private volatile boolean closed;

  private KubeletLogServer(HttpsServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  static KubeletLogServer start(SSLContext ssl, Logs logs) throws IOException {
    HttpsServer server =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(
        new HttpsConfigurator(ssl) {
          @Override
          public void configure(HttpsParameters params) {
            params.setNeedClientAuth(true);
          }
        });
    ExecutorService executor =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "fake-kubelet-http");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(executor);
    KubeletLogServer s = new KubeletLogServer(server, executor);
    server.createContext("/", exchange -> s.handle(exchange, logs));
    server.start();
    return s;
  }

  int port() {
    return server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange, Logs logs) throws IOException {
    try (exchange) {
      String[] parts = exchange.getRequestURI().getRawPath().split("/");
      // "", "containerLogs", ns, pod, container
      if (!"GET".equals(exchange.getRequestMethod())
          || parts.length != 5
          || !"containerLogs".equals(parts[1])) {
        send(exchange, 404, "404 page not found\n");
        return;
      }
      Lookup lookup = logs.find(decode(parts[2]), decode(parts[3]), decode(parts[4]));
      if (lookup.log() == null) {
        send(exchange, lookup.status(), lookup.error() + "\n");
        return;
      }
      Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
      boolean follow = "true".equals(query.get("follow"));
      boolean timestamps = "true".equals(query.get("timestamps"));
      long limitBytes =
          query.containsKey("limitBytes")
              ? Long.parseLong(query.get("limitBytes"))
              : Long.MAX_VALUE;
      ContainerLog log = lookup.log();
      int from = 0;
      if (query.containsKey("tailLines")) {
        from = Math.max(0, log.size() - Integer.parseInt(query.get("tailLines")));
      }
      exchange.getResponseHeaders().set("Content-Type", "text/plain");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      long written = 0;
      while (!closed && written < limitBytes) {
        List<ContainerLog.Line> lines = log.linesFrom(from, follow ? 500 : 0);
        for (ContainerLog.Line line : lines) {
          byte[] bytes =
              ((timestamps ? line.time() + " " : "") + line.text())
                  .getBytes(StandardCharsets.UTF_8);
          int n = (int) Math.min(bytes.length, limitBytes - written);
          out.write(bytes, 0, n);
          written += n;
        }
        from += lines.size();
        out.flush();
        if (!follow || (log.finished() && from >= log.size())) {
          break;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // the client (apiserver) went away, e.g. a closed watchLog(): nothing to clean up
    }
  }

  private static void send(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw != null) {
      for (String kv : raw.split("&")) {
        int eq = kv.indexOf('=');
        if (eq > 0) {
          out.put(decode(kv.substring(0, eq)), decode(kv.substring(eq + 1)));
        }
      }
    }
    return out;
  }

  @Override
  public void close() {
    closed = true;
    server.stop(0);
    executor.shutdownNow();
  }
}
