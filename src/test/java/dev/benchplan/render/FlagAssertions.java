package dev.benchplan.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.aiperf.config.ProfileOption;
import dev.benchplan.aiperf.version.AiperfVersion;
import java.util.List;

/** Checks rendered {@code aiperf profile} flags against the pinned release's flag table. */
final class FlagAssertions {
  private FlagAssertions() {}

  static void assertFlagsValidFor(List<String> args, String version) {
    AiperfVersion release = AiperfVersion.parse(version, "test");
    for (String a : args) {
      if (a.startsWith("--")) {
        assertThat(ProfileOption.isValidFlag(a, release))
            .as("flag %s exists in AIPerf %s's flag table", a, version)
            .isTrue();
      }
    }
    // facts from aiperf.md, restated independently of the table
    if (release.compareTo(AiperfVersion.of(0, 2, 0)) < 0) {
      assertThat(args).doesNotContain("--goodput");
    }
    if (release.compareTo(AiperfVersion.of(0, 3, 0)) < 0) {
      assertThat(args).doesNotContain("--export-level");
    }
    if (release.compareTo(AiperfVersion.of(0, 8, 0)) < 0) {
      assertThat(args.contains("--request-count") && args.contains("--benchmark-duration"))
          .as("AIPerf %s refuses a request count together with a duration", version)
          .isFalse();
      assertThat(args).doesNotContain("--arrival-pattern");
    } else {
      assertThat(args).doesNotContain("--request-rate-mode");
    }
    if (args.contains("--benchmark-grace-period")) {
      assertThat(args).contains("--benchmark-duration");
    }
  }
}
