package dev.benchplan.aiperf.version;

import java.io.IOException;
import java.net.URI;

/** Fetches one document from the package index's JSON API (a seam for tests and offline use). */
@FunctionalInterface
public interface IndexFetcher {
  /**
   * GETs the URI.
   *
   * @throws IOException when the index cannot be reached
   */
  Response fetch(URI uri) throws IOException;

  /**
   * An HTTP response.
   *
   * @param status the HTTP status code
   * @param body the raw body bytes, exactly as received
   */
  @SuppressWarnings("ArrayRecordComponent") // a raw HTTP body, read once; never compared
  record Response(int status, byte[] body) {
    public Response {
      body = body.clone();
    }

    @Override
    public byte[] body() {
      return body.clone();
    }
  }
}
