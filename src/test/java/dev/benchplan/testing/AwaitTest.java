package dev.benchplan.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AwaitTest {
  @Test
  @DisplayName("until returns once the condition holds, reading it again until then")
  void untilHolds() {
    AtomicInteger reads = new AtomicInteger();
    Await.until("the third read", Duration.ofSeconds(30), () -> reads.incrementAndGet() >= 3);
    assertThat(reads).hasValue(3);
  }

  @Test
  @DisplayName("value returns the first value read that is done")
  void valueReturnsTheDoneValue() {
    AtomicInteger reads = new AtomicInteger();
    assertThat(
            Await.value("a read of 4", Duration.ofSeconds(30), reads::incrementAndGet, n -> n == 4))
        .isEqualTo(4);
  }

  @Test
  @DisplayName(
      "a condition that never holds fails naming what was awaited (and the last value read)")
  void timesOut() {
    assertThatThrownBy(() -> Await.until("the door to open", Duration.ZERO, () -> false))
        .isInstanceOf(AssertionError.class)
        .hasMessage("timed out after 0 ms waiting for the door to open");
    assertThatThrownBy(() -> Await.value("a read of 4", Duration.ZERO, () -> 7, n -> n == 4))
        .isInstanceOf(AssertionError.class)
        .hasMessage("timed out after 0 ms waiting for a read of 4; last: 7");
  }
}
