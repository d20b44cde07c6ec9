package dev.benchplan.aiperf.version;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class Pep440VersionTest {
  @Test
  @DisplayName("PEP 440 ordering: dev < a < b < rc < final < post; release segments numeric")
  void ordering() {
    List<String> ordered = List.of("0.9.0", "0.10.0.dev1", "0.10.0a1", "0.10.0b2", "0.10.0rc1",
        "0.10.0", "0.10.0.post1", "0.10.1.dev0", "0.10.1", "1!0.1.0");
    List<Pep440Version> shuffled = new ArrayList<>(ordered.stream().map(Pep440Version::parse).toList());
    Collections.shuffle(shuffled, new java.util.Random(1));
    Collections.sort(shuffled);
    assertThat(shuffled).extracting(Pep440Version::original).containsExactlyElementsOf(ordered);
  }

  @Test
  @DisplayName("spelling variants normalize and compare equal")
  void normalization() {
    assertThat(Pep440Version.parse("1.0-RC1").normalized()).isEqualTo("1.0rc1");
    assertThat(Pep440Version.parse("1.0.alpha.2").normalized()).isEqualTo("1.0a2");
    assertThat(Pep440Version.parse("0.6.0-1").normalized()).isEqualTo("0.6.0.post1");
    assertThat(Pep440Version.parse("v1.0")).isEqualTo(Pep440Version.parse("1.0.0"));
    assertThat(Pep440Version.parse("v1.0").hashCode()).isEqualTo(Pep440Version.parse("1.0.0").hashCode());
  }

  @Test
  @DisplayName("classification: pre, dev, local are not stable; post is")
  void classification() {
    assertThat(Pep440Version.parse("0.14.0rc1").isStable()).isFalse();
    assertThat(Pep440Version.parse("0.14.0rc1").isPreRelease()).isTrue();
    assertThat(Pep440Version.parse("0.14.0.dev3").isDevRelease()).isTrue();
    assertThat(Pep440Version.parse("0.14.0.dev3").isStable()).isFalse();
    assertThat(Pep440Version.parse("0.14.0+local").isStable()).isFalse();
    assertThat(Pep440Version.parse("0.6.0.post1").isStable()).isTrue();
    assertThatThrownBy(() -> Pep440Version.parse("latest")).hasMessageContaining("not a PEP 440");
    assertThat(Pep440Version.tryParse("nightly-2026")).isNull();
  }
}
