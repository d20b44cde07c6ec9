package dev.benchplan.kubetest;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One container's log as the kubelet stand-in serves it: lines appended while the container runs,
 * then finished when it terminates. Readers that follow block until new lines or the end arrive.
 * Thread-safe.
 */
final class ContainerLog {
  /** One log line (with its trailing newline, if it had one) and when it was written. */
  record Line(Instant time, String text) {}

  private final List<Line> lines = new ArrayList<>();
  private boolean finished;

  /** Splits {@code text} into lines, each keeping its newline. */
  static List<String> split(String text) {
    List<String> out = new ArrayList<>();
    int from = 0;
    while (from < text.length()) {
      int nl = text.indexOf('\n', from);
      int to = nl < 0 ? text.length() : nl + 1;
      out.add(text.substring(from, to));
      from = to;
    }
    return out;
  }

  synchronized void append(String line) {
    if (!finished) {
      lines.add(new Line(Instant.now(), line));
      notifyAll();
    }
  }

  synchronized void finish() {
    finished = true;
    notifyAll();
  }

  synchronized int size() {
    return lines.size();
  }

  synchronized boolean finished() {
    return finished;
  }

  /**
   * Lines from index {@code from} on, waiting up to {@code waitMillis} for at least one when there
   * are none yet and the log is not finished.
   */
  synchronized List<Line> linesFrom(int from, long waitMillis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + waitMillis;
    while (lines.size() <= from && !finished) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        break;
      }
      wait(left);
    }
    return from < lines.size() ? List.copyOf(lines.subList(from, lines.size())) : List.of();
  }
}
