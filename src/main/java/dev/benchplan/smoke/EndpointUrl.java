package dev.benchplan.smoke;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.InputErrors;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;

/**
 * The base URL of an OpenAI-compatible endpoint: {@code http(s)://host[:port][/prefix]}, without a
 * trailing slash, query, fragment or credentials. API paths such as {@code /v1/models} are appended
 * to it. A trailing {@code /v1} is accepted and dropped, since users often copy the URL an SDK
 * wants.
 *
 * @param base the normalised base URL
 */
public record EndpointUrl(URI base) {
  public EndpointUrl {
    Objects.requireNonNull(base, "base");
    String scheme = base.getScheme();
    if (scheme == null || !(scheme.equals("http") || scheme.equals("https"))) {
      throw new IllegalArgumentException("scheme must be http or https: " + base);
    }
    if (base.getHost() == null
        || base.getRawUserInfo() != null
        || base.getRawQuery() != null
        || base.getRawFragment() != null
        || base.getRawPath().endsWith("/")) {
      throw new IllegalArgumentException("not a normalised base URL: " + base);
    }
  }

  /**
   * Parses and normalises a user-supplied URL.
   *
   * @throws BenchplanException invalid input (exit 2) naming {@code --url} and what was expected
   */
  public static EndpointUrl parse(String text) {
    String expected = "expected an absolute http(s) base URL such as http://127.0.0.1:8000";
    if (text == null || text.isBlank()) {
      throw BenchplanException.invalid(ErrorLocation.option("--url"), "--url: empty; " + expected);
    }
    if (!text.contains("://")) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--url"),
          "--url '" + text + "': no scheme; scheme must be http or https; " + expected);
    }
    URI uri;
    try {
      uri = new URI(text.trim());
    } catch (URISyntaxException e) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--url"),
          "--url '" + text + "': not a URL (" + InputErrors.describe(e) + "); " + expected);
    }
    String scheme = uri.getScheme() == null ? null : uri.getScheme().toLowerCase(Locale.ROOT);
    if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || uri.isOpaque()) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--url"),
          "--url '" + text + "': scheme must be http or https; " + expected);
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--url"), "--url '" + text + "': no host; " + expected);
    }
    if (uri.getRawUserInfo() != null) {
      // credentials in a URL would end up in the artifact; keys travel only via --api-key-env
      throw BenchplanException.invalid(
          ErrorLocation.option("--url"),
          "--url: credentials in the URL are not allowed (they would be recorded); pass a key with --api-key-env");
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--url"),
          "--url '" + text + "': query or fragment not allowed; " + expected);
    }
    if (uri.getPort() == 0 || uri.getPort() > 65535) {
      throw BenchplanException.invalid(
          ErrorLocation.option("--url"), "--url '" + text + "': port must be 1-65535; " + expected);
    }
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    if (path.endsWith("/v1")) {
      path = path.substring(0, path.length() - 3);
    }
    String authority = uri.getRawAuthority();
    return new EndpointUrl(URI.create(scheme + "://" + authority + path));
  }

  /** The URL of an API path such as {@code /v1/models}. */
  public URI resolve(String apiPath) {
    if (!apiPath.startsWith("/")) {
      throw new IllegalArgumentException("API path must start with '/': " + apiPath);
    }
    return URI.create(base + apiPath);
  }

  @Override
  public String toString() {
    return base.toString();
  }
}
