package dev.benchplan.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.json.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SecretScannerTest {
  @Test
  @DisplayName("token-looking values are recognized by kind")
  void values() {
    assertThat(SecretScanner.valueKind("hf_" + "a".repeat(34))).contains("Hugging Face");
    assertThat(SecretScanner.valueKind("sk-proj-" + "Ab3".repeat(10))).contains("API key");
    assertThat(SecretScanner.valueKind("ghp_" + "x".repeat(36))).contains("GitHub");
    assertThat(SecretScanner.valueKind("AKIAIOSFODNN7EXAMPLE")).contains("AWS");
    assertThat(SecretScanner.valueKind("-----BEGIN RSA PRIVATE KEY-----")).contains("private key");
    assertThat(SecretScanner.valueKind("Authorization: Bearer abcdefghijklmnopqrstuvwxyz"))
        .contains("bearer");
    // names of secrets and ordinary text are fine
    assertThat(SecretScanner.valueKind("hf-token-secret")).isNull();
    assertThat(SecretScanner.valueKind("Qwen/Qwen3-0.6B")).isNull();
    assertThat(SecretScanner.valueKind("ask-me-anything")).isNull();
  }

  @Test
  @DisplayName("credential keys are recognized; references by name and token counts are not")
  void keys() {
    assertThat(SecretScanner.namesSecret("token")).isTrue();
    assertThat(SecretScanner.namesSecret("hf_token")).isTrue();
    assertThat(SecretScanner.namesSecret("apiKey")).isTrue();
    assertThat(SecretScanner.namesSecret("api-key")).isTrue();
    assertThat(SecretScanner.namesSecret("password")).isTrue();
    assertThat(SecretScanner.namesSecret("client-key-data")).isTrue();
    assertThat(SecretScanner.namesSecret("hf_token_secret_name")).isFalse();
    assertThat(SecretScanner.namesSecret("token_secret_ref")).isFalse();
    assertThat(SecretScanner.namesSecret("input_tokens")).isFalse();
    assertThat(SecretScanner.namesSecret("max_tokens")).isFalse();
  }

  @Test
  @DisplayName("findings carry pointers, escape special characters and never the value")
  void scan() {
    var tree = Json.JSON.createObjectNode();
    tree.putObject("a/b").put("token", "abc");
    tree.putArray("list").add("x").add("sk-" + "Q".repeat(30));
    var findings = SecretScanner.scan(tree);
    assertThat(findings)
        .extracting(SecretScanner.Finding::pointer)
        .containsExactly("/a~1b/token", "/list/1");
    assertThat(findings.toString()).doesNotContain("abc").doesNotContain("QQQQ");
  }
}
