package dev.benchplan.trace;

/** Receives progress of a scan, about every few megabytes, on the scanning thread. */
@FunctionalInterface
public interface ScanProgress {
  /** Ignores progress (a class, not a lambda: no lambda bootstrap at start-up). */
  ScanProgress NONE =
      new ScanProgress() {
        @Override
        public void update(long bytesDone, long totalBytes, long rows) {}
      };

  /**
   * Reports how far the scan is.
   *
   * @param bytesDone bytes parsed so far
   * @param totalBytes the file size when the scan started
   * @param rows rows parsed so far
   */
  void update(long bytesDone, long totalBytes, long rows);
}
