package dev.benchplan.smoke;

/** The bytes received cannot be a server-sent-events stream (e.g. an endless line). */
public final class SseFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SseFormatException(String message) {
    super(message);
  }
}
