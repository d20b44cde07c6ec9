package dev.benchplan.aiperf.version;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AiperfVersionTest {
  @Test
  @DisplayName("PEP 440 ordering: dev < a < b < rc < final < post; release segments numeric")
  void ordering() {
    List<String> ordered =
        List.of(
            "0.9.0",
            "0.10.0.dev1",
            "0.10.0a1",
            "0.10.0b2",
            "0.10.0rc1",
            "0.10.0",
            "0.10.0.post1",
            "0.10.1.dev0",
            "0.10.1",
            "1!0.1.0");
    List<AiperfVersion> shuffled =
        new ArrayList<>(ordered.stream().map(AiperfVersion::parse).toList());
    Collections.shuffle(shuffled, new java.util.Random(1));
    Collections.sort(shuffled);
    assertThat(shuffled).extracting(AiperfVersion::original).containsExactlyElementsOf(ordered);
  }

  @Test
  @DisplayName("spelling variants normalize and compare equal")
  void normalization() {
    assertThat(AiperfVersion.parse("1.0-RC1").normalized()).isEqualTo("1.0rc1");
    assertThat(AiperfVersion.parse("1.0.alpha.2").normalized()).isEqualTo("1.0a2");
    assertThat(AiperfVersion.parse("0.6.0-1").normalized()).isEqualTo("0.6.0.post1");
    assertThat(AiperfVersion.parse("v1.0")).isEqualTo(AiperfVersion.parse("1.0.0"));
    assertThat(AiperfVersion.parse("v1.0").hashCode())
        .isEqualTo(AiperfVersion.parse("1.0.0").hashCode());
  }

  @Test
  @DisplayName("classification: pre, dev, local are not stable; post is")
  void classification() {
    assertThat(AiperfVersion.parse("0.14.0rc1").isStable()).isFalse();
    assertThat(AiperfVersion.parse("0.14.0rc1").isPreRelease()).isTrue();
    assertThat(AiperfVersion.parse("0.14.0.dev3").isDevRelease()).isTrue();
    assertThat(AiperfVersion.parse("0.14.0.dev3").isStable()).isFalse();
    assertThat(AiperfVersion.parse("0.14.0+local").isStable()).isFalse();
    assertThat(AiperfVersion.parse("0.6.0.post1").isStable()).isTrue();
    assertThatThrownBy(() -> AiperfVersion.parse("latest"))
        .hasMessage("'latest' is not a PEP 440 version");
    assertThat(AiperfVersion.tryParse("nightly-2026")).isNull();
  }

  private static AiperfVersion v(String s) {
    return AiperfVersion.parse(s, "test");
  }

  @Test
  @DisplayName("a1 < b1 < rc1 < final < post1, and compareTo == 0 exactly when equals")
  void preReleasePhasesOrderAndAgreeWithEquals() {
    List<AiperfVersion> ordered =
        List.of(v("0.12.0a1"), v("0.12.0b1"), v("0.12.0rc1"), v("0.12.0"), v("0.12.0.post1"));
    for (int i = 0; i < ordered.size(); i++) {
      for (int j = 0; j < ordered.size(); j++) {
        AiperfVersion a = ordered.get(i);
        AiperfVersion b = ordered.get(j);
        assertThat(Integer.signum(a.compareTo(b)))
            .as(a + " vs " + b)
            .isEqualTo(Integer.compare(i, j));
        assertThat(a.equals(b)).as(a + " equals " + b).isEqualTo(i == j);
      }
    }
    // spelling variants of one version: equal, same hash, compareTo 0
    assertThat(v("0.12.0-rc1")).isEqualTo(v("0.12.0rc1")).hasSameHashCodeAs(v("0.12.0rc1"));
    assertThat(v("0.12.0-rc1").compareTo(v("0.12.0.rc1"))).isZero();
    assertThat(java.util.Set.of(v("0.12.0a1"), v("0.12.0rc1"))).hasSize(2);
  }

  @Test
  @DisplayName("plan versions order numerically and print normalized")
  void planVersions() {
    assertThat(v("0.10.0")).isGreaterThan(v("0.9.0"));
    assertThat(v("0.6.0.post1")).isGreaterThan(v("0.6.0")).isLessThan(v("0.7.0"));
    assertThat(v("0.12.0rc1")).isLessThan(v("0.12.0")).isGreaterThan(v("0.11.0"));
    assertThat(v("0.6.0.post1").toString()).isEqualTo("0.6.0.post1");
    assertThat(v("0.6.0-post1").toString()).isEqualTo("0.6.0.post1");
    assertThat(v("0.12.0rc1").toString()).isEqualTo("0.12.0rc1");
    assertThat(AiperfVersion.of(0, 11, 0)).isEqualTo(v("0.11.0"));
  }

  @Test
  @DisplayName("outside X.Y.Z[a|b|rc|post N] is invalid input naming the source (exit 2)")
  void notPlanForm() {
    for (String bad :
        new String[] {"latest", "0.11", "v0.11.0", "0.11.0.dev1", "0.11.0+local", ""}) {
      assertThatThrownBy(() -> AiperfVersion.parse(bad, "plan.json /aiperf/version"))
          .isInstanceOf(dev.benchplan.error.BenchplanException.class)
          .hasMessage(
              "plan.json /aiperf/version: '"
                  + bad
                  + "' is not an AIPerf version: expected e.g. 0.11.0 or 0.6.0.post1")
          .satisfies(
              e ->
                  assertThat(((dev.benchplan.error.BenchplanException) e).exitCode()).isEqualTo(2));
    }
    assertThat(AiperfVersion.isPlanForm("0.11.0")).isTrue();
    assertThat(AiperfVersion.isPlanForm("0.6.0.post1")).isTrue();
    assertThat(AiperfVersion.isPlanForm(" 0.11.0")).isFalse();
  }
}
