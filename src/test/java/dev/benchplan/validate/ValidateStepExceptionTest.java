package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.error.BenchplanException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ValidateStepExceptionTest {
  @Test
  @DisplayName(
      "an unexpected exception in a step is a bug (exit 4), as in every command; known failures keep their code")
  void exitCodes() {
    assertThat(
            ValidateStepException.of(ValidateStep.DISCOVERY, new IllegalStateException("boom"))
                .exitCode())
        .isEqualTo(4);
    assertThat(
            ValidateStepException.of(ValidateStep.DISCOVERY, BenchplanException.runtime("api down"))
                .exitCode())
        .isEqualTo(3);
    assertThat(
            ValidateStepException.of(ValidateStep.DISCOVERY, BenchplanException.invalid("bad"))
                .exitCode())
        .isEqualTo(2);
  }
}
