package dev.benchplan.diagnostics;

import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;

/**
 * Closed- and open-loop runs simulated request by request with a seeded RNG, so each test knows its
 * answer by construction: a slot (closed loop) sends its next request when the previous one ends.
 */
public final class SimulatedRun {
  static final long T0 = 1_762_551_940_000_000_000L;

  /**
   * How a request's TTFT is drawn, given the Dynamo worker it lands on (round robin over {@code
   * workers}).
   */
  public interface Ttft {
    double draw(int worker, SplittableRandom r);
  }

  /**
   * A closed loop: {@code slots} requests in flight at all times, {@code requests} in total.
   *
   * @param decodeMs time from first token to the end of a request
   * @param holdFromS/holdToS completions due in this window (seconds into the run) are held to its
   *     end
   */
  public static RequestTimeline closedLoop(
      long seed,
      int slots,
      int requests,
      int workers,
      Ttft ttft,
      double decodeMs,
      double holdFromS,
      double holdToS) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] free = new long[slots];
    java.util.Arrays.fill(free, T0);
    RequestTimeline.Builder b = new RequestTimeline.Builder();
    for (int i = 0; i < requests; i++) {
      int slot = 0;
      for (int s = 1; s < slots; s++) {
        if (free[s] < free[slot]) {
          slot = s;
        }
      }
      long start = free[slot] + (long) (r.nextDouble() * 2e6); // up to 2 ms of client jitter
      double t = ttft.draw(i % workers, r);
      double latency = t + decodeMs * (0.9 + 0.2 * r.nextDouble());
      long end = start + (long) (latency * 1e6);
      double endS = (end - T0) / 1e9;
      if (endS >= holdFromS && endS < holdToS) {
        end = T0 + (long) (holdToS * 1e9) + (long) (r.nextDouble() * 50e6);
      }
      b.add(start, end, t, true);
      free[slot] = end;
    }
    return b.build();
  }

  public static RequestTimeline closedLoop(
      long seed, int slots, int requests, int workers, Ttft ttft) {
    return closedLoop(seed, slots, requests, workers, ttft, 2000, -1, -1);
  }

  /**
   * An open loop: Poisson arrivals at {@code rate} per second, each request {@code latencyMs} long.
   */
  static RequestTimeline openLoop(long seed, double rate, int requests, double latencyMs) {
    SplittableRandom r = new SplittableRandom(seed);
    RequestTimeline.Builder b = new RequestTimeline.Builder();
    double t = 0;
    for (int i = 0; i < requests; i++) {
      t += -Math.log(1 - r.nextDouble()) / rate;
      long start = T0 + (long) (t * 1e9);
      double lat = latencyMs * (0.8 + 0.4 * r.nextDouble());
      b.add(start, start + (long) (lat * 1e6), lat / 10, true);
    }
    return b.build();
  }

  static double gaussian(SplittableRandom r) {
    // Box-Muller: SplittableRandom has no nextGaussian on Java 17
    double u = 1 - r.nextDouble();
    double v = r.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  static DoubleSupplier unused() {
    return () -> 0;
  }

  private SimulatedRun() {}
}
