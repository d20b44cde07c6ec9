package dev.benchplan.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ColdStartTest {
  @Test
  @DisplayName("with no warm-up every request is answered at once")
  void warmFromTheStart() throws Exception {
    ColdStart worker = new ColdStart(Duration.ZERO);
    assertThat(worker.warm()).isTrue();
    assertThat(worker.await()).isTrue();
    assertThat(worker.lost()).isZero();
  }

  @Test
  @DisplayName("a newer request takes the warm-up over: the older one is dropped at once")
  void newerRequestWins() throws Exception {
    ColdStart worker = new ColdStart(Duration.ofMinutes(10));
    List<Thread> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
    CompletableFuture<Boolean> first = request(worker, threads);
    CompletableFuture<Boolean> second = request(worker, threads);
    // whichever arrived first loses, long before the ten-minute warm-up
    CompletableFuture<Object> loser = CompletableFuture.anyOf(first, second);
    assertThat(loser.get(30, TimeUnit.SECONDS)).isEqualTo(false);
    assertThat(worker.lost()).isEqualTo(1);
    assertThat(worker.warm()).isFalse();
    assertThat(first.isDone() && second.isDone()).as("the newer one still warming up").isFalse();
    threads.forEach(Thread::interrupt);
  }

  @Test
  @DisplayName("a warm-up waited out makes the worker warm: later requests are answered at once")
  void warmUpWaitedOut() throws Exception {
    ColdStart worker = new ColdStart(Duration.ofMillis(20));
    assertThat(worker.await()).isTrue();
    assertThat(worker.warm()).isTrue();
    assertThat(worker.await()).isTrue();
    assertThat(worker.lost()).isZero();
  }

  private static CompletableFuture<Boolean> request(ColdStart worker, List<Thread> threads) {
    CompletableFuture<Boolean> f = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                f.complete(worker.await());
              } catch (InterruptedException e) {
                f.completeExceptionally(new CompletionException(e));
              }
            });
    t.setDaemon(true);
    threads.add(t);
    t.start();
    return f;
  }
}
