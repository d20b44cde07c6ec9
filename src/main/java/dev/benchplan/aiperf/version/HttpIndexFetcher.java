package dev.benchplan.aiperf.version;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Fetches index documents with the JDK HTTP client (redirects followed, bounded timeouts). */
public final class HttpIndexFetcher implements IndexFetcher {
  private final Duration timeout;

  /** A fetcher with a 10 s connect timeout and the given request timeout. */
  public HttpIndexFetcher(Duration timeout) {
    this.timeout = timeout;
  }

  /** A fetcher with a 30 s request timeout. */
  public HttpIndexFetcher() {
    this(Duration.ofSeconds(30));
  }

  @Override
  public Response fetch(URI uri) throws IOException {
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .timeout(timeout)
            .header("Accept", "application/json")
            .header("User-Agent", "benchplan")
            .GET()
            .build();
    // built per fetch: most plans never query the index, and a client starts threads
    HttpClient client =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build();
    try {
      HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
      return new Response(response.statusCode(), response.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while fetching " + uri, e);
    }
  }
}
