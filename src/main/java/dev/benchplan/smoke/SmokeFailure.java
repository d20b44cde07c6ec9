package dev.benchplan.smoke;

import org.jspecify.annotations.Nullable;

/**
 * Why a smoke test failed: the endpoint's fault (exit 3), recorded in the artifact as {@code
 * reason}. Never escapes the package: {@link SmokeTest} turns it into a failed artifact.
 */
final class SmokeFailure extends Exception {
  private static final long serialVersionUID = 1L;

  private final String reason;

  SmokeFailure(String reason) {
    this(reason, null);
  }

  SmokeFailure(String reason, @Nullable Throwable cause) {
    super(reason, cause, false, false);
    this.reason = reason;
  }

  String reason() {
    return reason;
  }
}
