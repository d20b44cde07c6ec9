package dev.benchplan.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Finds secrets in an input document: values that look like credentials (Hugging Face, OpenAI,
 * GitHub, AWS, Slack tokens, JWTs, private keys, bearer headers) anywhere in the tree, and
 * non-empty values under keys that name a secret ({@code token}, {@code password}, {@code api_key},
 * kubeconfig credential data...). Findings name the JSON pointer and the kind, never the value.
 */
public final class SecretScanner {
  /** One secret found: where, and what it looks like (never the value itself). */
  public record Finding(String pointer, String kind) {}

  // checked in this order; the first match names the kind
  private static final List<Map.Entry<String, Pattern>> VALUE_PATTERNS =
      List.of(
          Map.entry(
              "a Hugging Face token (hf_...)",
              Pattern.compile("(?<![A-Za-z0-9])hf_[A-Za-z0-9]{20,}")),
          Map.entry(
              "an API key (sk-...)", Pattern.compile("(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{20,}")),
          Map.entry(
              "a GitHub token",
              Pattern.compile(
                  "(?<![A-Za-z0-9])(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,})")),
          Map.entry(
              "a JSON Web Token",
              Pattern.compile("eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}")),
          Map.entry(
              "an AWS access key",
              Pattern.compile("(?<![A-Z0-9])(AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])")),
          Map.entry("a Slack token", Pattern.compile("xox[abprs]-[A-Za-z0-9-]{10,}")),
          Map.entry("a private key", Pattern.compile("-----BEGIN [A-Z ]*PRIVATE KEY-----")),
          Map.entry(
              "a bearer credential", Pattern.compile("(?i)\\bbearer\\s+[A-Za-z0-9._~+/-]{16,}")));

  /** Key segments that name a credential (keys are split on '_', '-', '.' and camelCase). */
  private static final List<List<String>> SECRET_KEYS =
      List.of(
          List.of("token"),
          List.of("password"),
          List.of("passwd"),
          List.of("passphrase"),
          List.of("api", "key"),
          List.of("apikey"),
          List.of("access", "key"),
          List.of("secret", "key"),
          List.of("private", "key"),
          List.of("client", "secret"),
          List.of("credential"),
          List.of("credentials"),
          List.of("client", "key", "data"),
          List.of("client", "certificate", "data"),
          List.of("authorization"),
          List.of("bearer"),
          List.of("kubeconfig"));

  /** Key endings that reference a secret by name, which is what the rules ask for. */
  private static final List<String> REFERENCE_SUFFIXES =
      List.of("name", "names", "ref", "env", "file", "path");

  private SecretScanner() {}

  /** Every secret found in the tree, in document order. */
  public static List<Finding> scan(JsonNode tree) {
    List<Finding> findings = new ArrayList<>();
    walk(tree, "", null, findings);
    return findings;
  }

  private static void walk(JsonNode node, String pointer, @Nullable String key, List<Finding> out) {
    if (node.isObject()) {
      for (String name : node.propertyNames()) {
        walk(node.get(name), pointer + "/" + escape(name), name, out);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        walk(node.get(i), pointer + "/" + i, key, out);
      }
    } else if (node.isString()) {
      String value = node.asString();
      String kind = valueKind(value);
      if (kind != null) {
        out.add(new Finding(pointer, kind));
      } else if (key != null && !value.isBlank() && namesSecret(key)) {
        out.add(new Finding(pointer, "a value under the credential key '" + key + "'"));
      }
    } else if (node.isNumber() && key != null && namesSecret(key)) {
      out.add(new Finding(pointer, "a value under the credential key '" + key + "'"));
    }
  }

  /**
   * What a free text looks like when it holds a credential (e.g. "a Hugging Face token (hf_...)"),
   * or null when it does not. The same patterns as {@link #scan}; for texts given outside a
   * document (a command-line question, a rationale).
   */
  public static @Nullable String kindOf(String text) {
    return text == null ? null : valueKind(text);
  }

  static @Nullable String valueKind(String value) {
    for (Map.Entry<String, Pattern> e : VALUE_PATTERNS) {
      if (e.getValue().matcher(value).find()) {
        return e.getKey();
      }
    }
    return null;
  }

  /** True when the key names a credential and is not a reference to one by name. */
  static boolean namesSecret(String key) {
    List<String> segments = segments(key);
    if (segments.isEmpty() || REFERENCE_SUFFIXES.contains(segments.get(segments.size() - 1))) {
      return false;
    }
    for (List<String> pattern : SECRET_KEYS) {
      if (containsRun(segments, pattern)) {
        return true;
      }
    }
    return false;
  }

  private static boolean containsRun(List<String> segments, List<String> run) {
    for (int i = 0; i + run.size() <= segments.size(); i++) {
      if (segments.subList(i, i + run.size()).equals(run)) {
        return true;
      }
    }
    return false;
  }

  static List<String> segments(String key) {
    String spaced = key.replaceAll("([a-z0-9])([A-Z])", "$1_$2");
    List<String> out = new ArrayList<>();
    for (String s : spaced.toLowerCase(Locale.ROOT).split("[_\\-.\\s]+")) {
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }

  private static String escape(String name) {
    return name.replace("~", "~0").replace("/", "~1");
  }
}
