package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.error.BenchplanException;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DiscoveryDecisionTest {
  static DgdCandidate candidate(String ns, String name, String state, boolean frontend) {
    DgdView v =
        new DgdView(
            "nvidia.com/v1alpha1",
            ns,
            name,
            "uid-" + name,
            state,
            List.of(
                new DgdComponent("Frontend", DgdComponent.Role.FRONTEND, 1, 1, List.of(), null),
                new DgdComponent("W", DgdComponent.Role.WORKER, 2, 2, List.of("m/" + name), null)));
    FrontendMatch f =
        frontend
            ? new FrontendMatch(
                new ServiceInfo(
                    ns,
                    name + "-frontend",
                    null,
                    null,
                    List.of(new ServiceInfo.Port("http", 8000))),
                8000,
                "name",
                true)
            : null;
    return new DgdCandidate(v, f, frontend ? List.of() : List.of("no frontend Service"));
  }

  @Test
  @DisplayName("exactly one successful DGD with a frontend is used; pending ones are ignored")
  void one() {
    var d =
        DiscoveryDecision.decide(
            List.of(candidate("a", "x", "successful", true), candidate("b", "y", "pending", true)),
            null,
            "all namespaces");
    assertThat(d).isInstanceOf(DiscoveryDecision.Use.class);
    assertThat(((DiscoveryDecision.Use) d).candidate().dgd().ref()).isEqualTo("a/x");
  }

  @Test
  @DisplayName("two usable DGDs are ambiguous: the message lists namespace/DGD/Service/model")
  void ambiguous() {
    var d =
        DiscoveryDecision.decide(
            List.of(
                candidate("a", "x", "successful", true), candidate("b", "y", "successful", true)),
            null,
            "all namespaces");
    assertThat(d).isInstanceOf(DiscoveryDecision.Ambiguous.class);
    assertThat(((DiscoveryDecision.Ambiguous) d).message())
        .contains("a/x/x-frontend:8000/m/x")
        .contains("b/y/y-frontend:8000/m/y")
        .contains("--dgd");
  }

  @Test
  @DisplayName(
      "--dgd picks one (by name or namespace/name); a name in two namespaces stays ambiguous")
  void named() {
    var seen =
        List.of(
            candidate("a", "x", "successful", true),
            candidate("b", "x", "successful", true),
            candidate("b", "y", "successful", true));
    assertThat(DiscoveryDecision.decide(seen, "y", "all namespaces"))
        .isInstanceOf(DiscoveryDecision.Use.class);
    assertThat(DiscoveryDecision.decide(seen, "x", "all namespaces"))
        .isInstanceOf(DiscoveryDecision.Ambiguous.class);
    var d = DiscoveryDecision.decide(seen, "b/x", "all namespaces");
    assertThat(((DiscoveryDecision.Use) d).candidate().dgd().ref()).isEqualTo("b/x");
  }

  @Test
  @DisplayName(
      "--dgd naming nothing is invalid (exit 2); naming a pending DGD is an error (exit 3)")
  void namedProblems() {
    var seen = List.of(candidate("a", "x", "pending", true));
    assertThatThrownBy(() -> DiscoveryDecision.decide(seen, "zzz", "all namespaces"))
        .isInstanceOf(BenchplanException.class)
        .hasMessage("option --dgd: no DynamoGraphDeployment zzz in all namespaces (found: a/x)")
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(2);
    assertThatThrownBy(() -> DiscoveryDecision.decide(seen, "x", "all namespaces"))
        .hasMessage(
            "DynamoGraphDeployment a/x is in state pending, not successful: it cannot be"
                + " benchmarked now")
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(3);
  }

  @Test
  @DisplayName("none usable -> deploy, with the reason naming each DGD seen")
  void deploy() {
    var d =
        DiscoveryDecision.decide(
            List.of(candidate("a", "x", "pending", true), candidate("b", "y", "successful", false)),
            null,
            "all namespaces");
    assertThat(d).isInstanceOf(DiscoveryDecision.Deploy.class);
    assertThat(((DiscoveryDecision.Deploy) d).reason())
        .contains("a/x is pending")
        .contains("b/y: no frontend Service");
    assertThat(
            ((DiscoveryDecision.Deploy) DiscoveryDecision.decide(List.of(), null, "namespace q"))
                .reason())
        .isEqualTo("no DynamoGraphDeployment in namespace q");
  }

  @Test
  @DisplayName(
      "the served model comes from the DGD; --model must match it; the target records both")
  void servedModel() {
    DgdCandidate c = candidate("a", "x", "successful", true);
    FrontendTarget t = FrontendTarget.discovered(c, null);
    assertThat(t.model()).isEqualTo("m/x");
    assertThat(t.modelSource()).isEqualTo("dgd:W");
    assertThat(t.workers()).isEqualTo(2);
    assertThat(t.endpointUrl()).isEqualTo("http://x-frontend.a.svc.cluster.local:8000");
    assertThat(FrontendTarget.discovered(c, "m/x").modelSource()).contains("matching the DGD");
    assertThatThrownBy(() -> FrontendTarget.discovered(c, "other/model"))
        .hasMessage("option --model: DynamoGraphDeployment a/x serves m/x, not other/model")
        .extracting(e -> ((BenchplanException) e).exitCode())
        .isEqualTo(2);
  }
}
