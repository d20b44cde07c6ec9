package dev.benchplan.smoke;

/**
 * Why a smoke test failed: the endpoint's fault (exit 3), recorded in the artifact as
 * {@code reason}. Never escapes the package: {@link SmokeTest} turns it into a failed artifact.
 */
final class SmokeFailure extends Exception {
  private static final long serialVersionUID = 1L;

  SmokeFailure(String reason) {
    super(reason, null, false, false);
  }

  SmokeFailure(String reason, Throwable cause) {
    super(reason, cause, false, false);
  }

  String reason() {
    return getMessage();
  }
}
