package dev.benchplan.aiperf.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.aiperf.version.AiperfVersion;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NativeConfigBoundaryTest {
  private static boolean nativeConfig(String version) {
    return AiperfInvocation.readsNativeConfig(AiperfVersion.parse(version, "test"));
  }

  @Test
  @DisplayName("native config from 0.11.0 on; older releases and 0.11.0's pre-releases take flags")
  void nativeConfigBoundary() {
    assertThat(nativeConfig("0.10.0")).isFalse();
    assertThat(nativeConfig("0.10.0.post1")).isFalse();
    assertThat(nativeConfig("0.11.0a1")).isFalse();
    assertThat(nativeConfig("0.11.0rc1")).isFalse();
    assertThat(nativeConfig("0.11.0")).isTrue();
    assertThat(nativeConfig("0.11.0.post1")).isTrue();
    assertThat(nativeConfig("0.13.0")).isTrue();
  }
}
