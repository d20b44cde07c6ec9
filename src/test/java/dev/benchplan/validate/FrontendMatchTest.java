package dev.benchplan.validate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FrontendMatchTest {
  static final DgdView DGD =
      new DgdView(
          "nvidia.com/v1alpha1",
          "ns-a",
          "vllm-agg",
          "uid-1",
          "successful",
          List.of(
              new DgdComponent("Frontend", DgdComponent.Role.FRONTEND, 1, 1, List.of(), null),
              new DgdComponent(
                  "VllmDecodeWorker",
                  DgdComponent.Role.WORKER,
                  2,
                  2,
                  List.of("Qwen/Qwen3-0.6B"),
                  null)));

  static ServiceInfo svc(
      String ns, String name, Map<String, String> labels, ServiceInfo.Port... ports) {
    return new ServiceInfo(ns, name, labels, List.of(), List.of(ports));
  }

  @Test
  @DisplayName("the operator's name <dgd>-frontend in the DGD's namespace, port named http")
  void byName() {
    List<String> problems = new ArrayList<>();
    var m =
        FrontendMatch.find(
            DGD,
            List.of(
                svc(
                    "ns-a",
                    "vllm-agg-frontend",
                    Map.of(),
                    new ServiceInfo.Port("metrics", 9090),
                    new ServiceInfo.Port("http", 8080))),
            problems);
    assertThat(m)
        .get()
        .satisfies(
            x -> {
              assertThat(x.port()).isEqualTo(8080);
              assertThat(x.matchedBy()).isEqualTo("name");
            });
  }

  @Test
  @DisplayName(
      "the operator's labels also identify the frontend (port 8000 when none is named http)")
  void byLabels() {
    var m =
        FrontendMatch.find(
            DGD,
            List.of(
                svc(
                    "ns-a",
                    "custom-fe",
                    Map.of(
                        ServiceInfo.COMPONENT_TYPE_LABEL,
                        "frontend",
                        ServiceInfo.DGD_NAME_LABEL,
                        "vllm-agg"),
                    new ServiceInfo.Port(null, 8000))),
            new ArrayList<>());
    assertThat(m)
        .get()
        .extracting(FrontendMatch::matchedBy, FrontendMatch::port)
        .containsExactly("labels", 8000);
  }

  @Test
  @DisplayName(
      "a Service in another namespace is never matched, even with the right name and labels")
  void otherNamespace() {
    List<String> problems = new ArrayList<>();
    var m =
        FrontendMatch.find(
            DGD,
            List.of(
                svc(
                    "default",
                    "vllm-agg-frontend",
                    Map.of(
                        ServiceInfo.COMPONENT_TYPE_LABEL,
                        "frontend",
                        ServiceInfo.DGD_NAME_LABEL,
                        "vllm-agg"),
                    new ServiceInfo.Port("http", 8000))),
            problems);
    assertThat(m).isEmpty();
    assertThat(problems)
        .singleElement()
        .asString()
        .contains("no frontend Service")
        .contains("ns-a");
  }

  @Test
  @DisplayName("a same-named Service labelled or owned for another DGD is refused")
  void otherDgd() {
    List<String> problems = new ArrayList<>();
    var labelled =
        svc(
            "ns-a",
            "vllm-agg-frontend",
            Map.of(ServiceInfo.DGD_NAME_LABEL, "other"),
            new ServiceInfo.Port("http", 8000));
    var owned =
        new ServiceInfo(
            "ns-a",
            "vllm-agg-frontend",
            Map.of(),
            List.of(new ServiceInfo.Owner("DynamoGraphDeployment", "other", "uid-9")),
            List.of(new ServiceInfo.Port("http", 8000)));
    assertThat(FrontendMatch.find(DGD, List.of(labelled), problems)).isEmpty();
    assertThat(FrontendMatch.find(DGD, List.of(owned), problems)).isEmpty();
    assertThat(problems)
        .anyMatch(p -> p.contains("labelled for DGD other"))
        .anyMatch(p -> p.contains("owned by another DGD"));
  }

  @Test
  @DisplayName("a frontend without port 8000 or a port named http is reported, not used")
  void noHttpPort() {
    List<String> problems = new ArrayList<>();
    assertThat(
            FrontendMatch.find(
                DGD,
                List.of(
                    svc("ns-a", "vllm-agg-frontend", Map.of(), new ServiceInfo.Port("grpc", 9000))),
                problems))
        .isEmpty();
    assertThat(problems).singleElement().asString().contains("no port named http and no port 8000");
  }

  @Test
  @DisplayName("owner reference plus name is the strongest match and is preferred")
  void preferOwned() {
    var byLabel =
        svc(
            "ns-a",
            "a-fe",
            Map.of(
                ServiceInfo.COMPONENT_TYPE_LABEL,
                "frontend",
                ServiceInfo.DGD_NAME_LABEL,
                "vllm-agg"),
            new ServiceInfo.Port("http", 8000));
    var owned =
        new ServiceInfo(
            "ns-a",
            "vllm-agg-frontend",
            Map.of(),
            List.of(new ServiceInfo.Owner("DynamoGraphDeployment", "vllm-agg", "uid-1")),
            List.of(new ServiceInfo.Port("http", 8000)));
    var m = FrontendMatch.find(DGD, List.of(byLabel, owned), new ArrayList<>());
    assertThat(m)
        .get()
        .satisfies(
            x -> {
              assertThat(x.service().name()).isEqualTo("vllm-agg-frontend");
              assertThat(x.ownedByDgd()).isTrue();
            });
  }
}
