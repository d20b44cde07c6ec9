package dev.benchplan.validate;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A DGD seen during discovery, with its frontend (when one was found) and what keeps it from being
 * benchmarked.
 *
 * @param dgd the DGD
 * @param frontend its frontend Service, or null
 * @param problems why it cannot be benchmarked (empty when it can)
 */
public record DgdCandidate(DgdView dgd, @Nullable FrontendMatch frontend, List<String> problems) {
  public DgdCandidate {
    Objects.requireNonNull(dgd, "dgd");
    problems = List.copyOf(problems);
  }

  /** Successful and with a frontend Service: it can be benchmarked. */
  public boolean usable() {
    return dgd.successful() && frontend != null;
  }

  /** One line: namespace/DGD/Service/model and state. */
  public String describe() {
    String svc = frontend == null ? "-" : frontend.service().name() + ":" + frontend.port();
    String model = dgd.servedModels().isEmpty() ? "?" : String.join(",", dgd.servedModels());
    return dgd.namespace()
        + "/"
        + dgd.name()
        + "/"
        + svc
        + "/"
        + model
        + " (state "
        + (dgd.state() == null ? "unknown" : dgd.state())
        + ")";
  }
}
