package dev.benchplan.kube.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.kube.KubeCall;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RbacTableTest {
  @Test
  @DisplayName(
      "docs/readme/rbac.md holds each command's permissions table exactly as the call table gives it")
  void readmeTablesMatchTheCode() throws Exception {
    String doc = Files.readString(Path.of("docs/readme/rbac.md"));
    for (KubeCall.Command c : KubeCall.Command.values()) {
      assertThat(doc)
          .as("table of " + c + " (regenerate it with RbacTable.markdown)")
          .contains(RbacTable.markdown(c));
    }
  }

  @Test
  @DisplayName(
      "every row names a step, no verb or resource is a wildcard, and each command has rows")
  void rows() {
    for (KubeCall row : KubeCall.values()) {
      assertThat(row.step()).isNotBlank();
      assertThat(row.verbs()).isNotEmpty().doesNotContain("*");
      assertThat(row.resource()).doesNotContain("*");
      assertThat(row.commands()).isNotEmpty();
    }
    for (KubeCall.Command c : KubeCall.Command.values()) {
      // the operator engine's run needs few rules: AIPerf's operator creates its own objects
      assertThat(RbacTable.markdown(c).lines().count())
          .isGreaterThan(c == KubeCall.Command.RUN_OPERATOR ? 6 : 10);
    }
  }
}
