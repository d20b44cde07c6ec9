package dev.benchplan.aiperf.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AiperfReleaseTest {
  private static AiperfRelease v(String s) {
    return AiperfRelease.parse(s, "test");
  }

  @Test
  @DisplayName("releases order numerically; post releases after, pre-releases before the plain one")
  void ordering() {
    assertThat(v("0.10.0")).isGreaterThan(v("0.9.0"));
    assertThat(v("0.6.0.post1")).isGreaterThan(v("0.6.0")).isLessThan(v("0.7.0"));
    assertThat(v("0.12.0rc1")).isLessThan(v("0.12.0")).isGreaterThan(v("0.11.0"));
    assertThat(v("0.6.0.post1").toString()).isEqualTo("0.6.0.post1");
    assertThat(v("0.12.0rc1").toString()).isEqualTo("0.12.0rc1");
  }

  @Test
  @DisplayName("native config from 0.11.0 on; older releases take flags")
  void nativeConfigBoundary() {
    assertThat(v("0.10.0").readsNativeConfig()).isFalse();
    assertThat(v("0.11.0rc1").readsNativeConfig()).isFalse();
    assertThat(v("0.11.0").readsNativeConfig()).isTrue();
    assertThat(v("0.13.0").readsNativeConfig()).isTrue();
  }

  @Test
  @DisplayName("anything else is invalid input naming the source")
  void invalid() {
    assertThatThrownBy(() -> AiperfRelease.parse("latest", "plan.json /aiperf/version"))
        .isInstanceOf(BenchplanException.class)
        .hasMessageContaining("plan.json /aiperf/version")
        .hasMessageContaining("'latest'");
  }
}
