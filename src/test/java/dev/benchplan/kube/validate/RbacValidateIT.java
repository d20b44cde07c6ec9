package dev.benchplan.kube.validate;

import static dev.benchplan.kubetest.RbacBindings.awaitAllowed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.benchplan.gate.Status;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.kube.rbac.Permission;
import dev.benchplan.kube.rbac.Permissions;
import dev.benchplan.kube.rbac.RbacManifest;
import dev.benchplan.kube.rbac.RbacManifests;
import dev.benchplan.kube.rbac.RbacTargets;
import dev.benchplan.kubetest.AiperfPodLog;
import dev.benchplan.kubetest.AuditLog;
import dev.benchplan.kubetest.FakeDynamoOperator;
import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.FakeNode;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.kubetest.PodScript;
import dev.benchplan.kubetest.RbacBindings;
import dev.benchplan.kubetest.RbacBindings.Identity;
import dev.benchplan.validate.ValidateOptions;
import dev.benchplan.validate.ValidateResult;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Least privilege for {@code validate} on the real control plane (issue 19), as a ServiceAccount
 * with no rights: what {@code benchplan rbac validate} prints is enough for an existing DGD and for
 * the auto-deployment; without any one required pair validate stops with exit 3 naming it before it
 * creates anything; without the isolation rules it passes and the run records the skipped checks.
 */
@KubeTestEnv
class RbacValidateIT {
  static String tag;
  static int counter;
  @TempDir Path dir;
  RbacBindings bindings;

  @BeforeAll
  static void setUp(KubeTestContext kube) {
    tag = kube.namespace();
    kube.startOperator(KubeTestContext.Scope.ALL_NAMESPACES, FakeDynamoOperator.Mode.AUTO);
  }

  @AfterEach
  void unbind() {
    if (bindings != null) {
      bindings.unbind();
    }
  }

  Identity identity(KubeTestContext kube) {
    return Identity.create(kube, "rbac-v-" + (++counter));
  }

  RbacManifest.Subject subject(KubeTestContext kube, Identity who) {
    return new RbacManifest.Subject("ServiceAccount", who.name(), kube.namespace());
  }

  /**
   * Creates the printed objects {@code keep} keeps, without {@code without}'s verb, unique to this
   * step.
   */
  void bind(KubeTestContext kube, RbacManifest m, Predicate<ObjectNode> keep, Permission without) {
    if (bindings == null) {
      bindings = new RbacBindings(kube.client());
    }
    bindings.bind(m, keep, without, "-v" + (++counter));
  }

  /**
   * A new identity bound to the rules of the manifest {@code rules} prints for it ({@code keep} and
   * {@code without} as in {@link #bind}), returned once the API server allows every pair of {@code
   * awaited}.
   */
  Identity bound(
      KubeTestContext kube,
      Function<RbacManifest.Subject, RbacManifest> rules,
      Predicate<ObjectNode> keep,
      Permission without,
      List<Permission> awaited) {
    Identity who = identity(kube);
    bind(kube, rules.apply(subject(kube, who)), keep, without);
    awaited.forEach(p -> awaitAllowed(who, p));
    return who;
  }

  /** Runs validate as {@code who} with {@code options}; exit 0 expected (stderr shown if not). */
  static ValidateResult validateOk(Identity who, ValidateOptions options) {
    StringWriter err = new StringWriter();
    ValidateResult r = ValidatePipelineIT.realService(who.client(), err).execute(options);
    assertThat(r.exitCode()).as(err.toString()).isZero();
    return r;
  }

  /**
   * A kubelet of one node with 2 GPUs for validate's auto-deploy (label {@code tag + suffix}), its
   * AIPerf pods replaying the real export.
   */
  FakeKubelet gpuKubelet(KubeTestContext kube, String suffix) throws Exception {
    return ValidatePipelineIT.kubelet(
        kube,
        tag + suffix,
        2,
        PodScript.replayLog(
            AiperfPodLog.withSummary(ValidatePipelineIT.export(6123.4, 150.5), 0), 0));
  }

  /** A DGD of its own namespace, successful, with a kubelet that runs AIPerf pods there. */
  String existingDgd(KubeTestContext kube, List<FakeKubelet> kubelets) throws Exception {
    String ns = kube.createNamespace("rbac-dgd");
    FakeKubelet k =
        FakeKubelet.start(
            kube.client(),
            null,
            kube.cluster().kubeletTls(),
            List.of(FakeNode.withGpus(ns + "-cpu", 0), FakeNode.withGpus(ns + "-gpu", 1)));
    kubelets.add(k);
    k.when(
        ValidatePipelineIT.aiperfPods(ns),
        PodScript.replayLog(
            AiperfPodLog.withSummary(ValidatePipelineIT.export(6123.4, 150.5), 0), 0));
    ValidateItSupport.createAggDgd(kube.client(), ns);
    return ns;
  }

  ValidateOptions dgdOptions(String ns, Path report) {
    return ValidateOptions.builder(report)
        .dgd(ns + "/vllm-agg")
        .namespace(ns)
        .aiperfVersion("0.4.0")
        .timeouts(ValidateItSupport.fast())
        .build();
  }

  static List<JsonNode> runJsons(Path report) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(report)) {
      for (Path p : s.filter(p -> p.getFileName().toString().equals("run.json")).toList()) {
        out.add(Json.JSON.readTree(Files.readAllBytes(p)));
      }
    }
    return out;
  }

  @Test
  @DisplayName(
      "validate --dgd: the printed rules suffice; each required pair missing -> exit 3 naming it, nothing created;"
          + " isolation rules missing -> passes, skipped checks recorded")
  void existingDgd(KubeTestContext kube) throws Exception {
    List<FakeKubelet> kubelets = new ArrayList<>();
    try {
      String ns = existingDgd(kube, kubelets);
      RbacTargets targets = RbacTargets.validateDgd(ns, ns);
      List<Permission> pairs = Permissions.distinct(Permissions.required(targets));

      // happy path with everything printed
      Identity who =
          bound(kube, s -> RbacManifests.validate(ns + "/vllm-agg", ns, s), o -> true, null, pairs);
      validateOk(who, dgdOptions(ns, dir.resolve("ok")));
      assertThat(runJsons(dir.resolve("ok")))
          .singleElement()
          .satisfies(
              run ->
                  assertThat(run.path("isolation").path("problems").toString())
                      .doesNotContain("403"));
      unbind();

      // without the isolation rules
      Identity bare =
          bound(
              kube,
              s -> RbacManifests.validate(ns + "/vllm-agg", ns, s),
              RbacBindings::required,
              null,
              pairs);
      validateOk(bare, dgdOptions(ns, dir.resolve("bare")));
      assertThat(runJsons(dir.resolve("bare")))
          .singleElement()
          .satisfies(
              run ->
                  assertThat(run.path("isolation").path("problems").toString())
                      .contains("403: list jobs.batch in all namespaces"));
      unbind();

      // each required pair removed
      int i = 0;
      for (Permission missing : pairs) {
        Identity one = identity(kube);
        bind(
            kube,
            RbacManifests.validate(ns + "/vllm-agg", ns, subject(kube, one)),
            RbacBindings::required,
            missing);
        pairs.stream()
            .filter(p -> !p.key().equals(missing.key()))
            .limit(1)
            .forEach(p -> awaitAllowed(one, p));
        StringWriter e = new StringWriter();
        ValidateResult x =
            ValidatePipelineIT.realService(one.client(), e)
                .execute(dgdOptions(ns, dir.resolve("m" + i++)));
        assertThat(x.exitCode()).as("without " + missing.describe() + "\n" + e).isEqualTo(3);
        assertThat(e.toString())
            .as("without " + missing.describe())
            .contains("permission(s)")
            .contains(missing.verb() + " " + missing.resourceRef())
            .contains("benchplan rbac validate");
        assertThat(kube.client().batch().v1().jobs().inNamespace(ns).list().getItems()).isEmpty();
        unbind();
      }
    } finally {
      kubelets.forEach(FakeKubelet::close);
    }
  }

  @Test
  @DisplayName(
      "validate auto-deploy without the model cache: the printed rules (rbac validate --no-model-cache)"
          + " suffice, none for the cache; a required pair missing -> exit 3, nothing created")
  void autoDeploy(KubeTestContext kube) throws Exception {
    try (FakeKubelet gpus = gpuKubelet(kube, "-rb")) {
      assertThat(gpus.nodes()).hasSize(1);
      // the options run without the model cache (the test control plane has no StorageClass)
      RbacTargets targets = RbacTargets.validateDeploy(kube.namespace(), false);
      List<Permission> pairs = Permissions.distinct(Permissions.required(targets));
      assertThat(pairs)
          .extracting(Permission::resource)
          .doesNotContain("persistentvolumeclaims", "storageclasses");
      Identity who =
          bound(
              kube,
              s -> RbacManifests.validate(null, kube.namespace(), s, false),
              o -> true,
              null,
              pairs);
      ValidateResult r =
          validateOk(
              who,
              ValidatePipelineIT.options(
                  kube, tag + "-rb", dir.resolve("ok"), ValidateItSupport.fast()));
      assertThat(r.verdict()).isEqualTo(Status.PASS);
      unbind();

      int i = 0;
      for (Permission missing : pairs) {
        if (pairs.stream()
            .anyMatch(p -> !p.key().equals(missing.key()) && Permissions.grants(p, missing))) {
          continue; // a broader pair of another step (e.g. a cluster-wide list) grants it as well
        }
        Identity one = identity(kube);
        bind(
            kube,
            RbacManifests.validate(null, kube.namespace(), subject(kube, one), false),
            RbacBindings::required,
            missing);
        pairs.stream()
            .filter(p -> !p.key().equals(missing.key()))
            .limit(1)
            .forEach(p -> awaitAllowed(one, p));
        StringWriter e = new StringWriter();
        ValidateResult x =
            ValidatePipelineIT.realService(one.client(), e)
                .execute(
                    ValidatePipelineIT.options(
                        kube, tag + "-rb", dir.resolve("m" + i++), ValidateItSupport.fast()));
        assertThat(x.exitCode()).as("without " + missing.describe() + "\n" + e).isEqualTo(3);
        assertThat(e.toString())
            .as("without " + missing.describe())
            .contains("permission(s)")
            .contains(missing.verb() + " " + missing.resourceRef());
        assertThat(
                kube
                    .client()
                    .namespaces()
                    .withLabel("app.kubernetes.io/component", "validate")
                    .list()
                    .getItems()
                    .stream()
                    .filter(n -> n.getMetadata().getDeletionTimestamp() == null)
                    .toList())
            .as("validate namespaces created without " + missing.describe())
            .isEmpty();
        unbind();
      }
    }
  }

  /**
   * The calls the identity made, as the API server's audit log recorded them, against the table:
   * none outside the rows of the command, and every required row exercised except those in {@code
   * idle} (rows whose step this happy path may not reach, each named with why).
   */
  static void assertAuditMatchesTable(
      KubeTestContext kube,
      Identity who,
      RbacTargets targets,
      Map<KubeCall, String> idle,
      Predicate<Set<AuditLog.Call>> done) {
    Path log = AuditLog.path();
    if (log == null) {
      System.out.println(
          "[RbacValidateIT] no audit log (BENCHPLAN_KUBE_AUDIT_LOG unset or missing): audit comparison"
              + " skipped; restart the env with the current scripts/kube-test-env.sh");
      return;
    }
    String user = "system:serviceaccount:" + kube.namespace() + ":" + who.name();
    Set<AuditLog.Call> seen = AuditLog.calls(log, user, done);
    assertThat(seen).as("audit log entries of " + user).isNotEmpty();
    AuditLog.Comparison c = AuditLog.compare(seen, targets);
    System.out.println(
        "[RbacValidateIT] audit "
            + targets.command()
            + ": "
            + seen.size()
            + " distinct calls: "
            + seen);
    System.out.println(
        "[RbacValidateIT] audit "
            + targets.command()
            + ": required rows not exercised: "
            + c.requiredUnexercised());
    assertThat(c.outsideTable())
        .as("calls of " + targets.command() + " the KubeCall table does not list")
        .isEmpty();
    assertThat(c.requiredUnexercised())
        .as(
            "required rows of "
                + targets.command()
                + " this run never used"
                + " (allowed only "
                + idle
                + ")")
        .isSubsetOf(idle.keySet());
  }

  static JsonNode verdictJson(Path report) throws Exception {
    JsonNode v = Json.JSON.readTree(Files.readAllBytes(report.resolve("verdict.json")));
    assertThat(SchemaValidator.bundled("validate-verdict.schema.json").validate(v))
        .as(v.toString())
        .isEmpty();
    return v;
  }

  @Test
  @DisplayName(
      "validate --dgd, audit log vs table: every call the identity made has its row, every required row"
          + " was used; without the isolation rules verdict.json lists each skipped check with its row")
  void auditExistingDgd(KubeTestContext kube) throws Exception {
    List<FakeKubelet> kubelets = new ArrayList<>();
    try {
      String ns = existingDgd(kube, kubelets);
      RbacTargets targets = RbacTargets.validateDgd(ns, ns);
      List<Permission> pairs = Permissions.distinct(Permissions.required(targets));
      Identity who =
          bound(kube, s -> RbacManifests.validate(ns + "/vllm-agg", ns, s), o -> true, null, pairs);
      validateOk(who, dgdOptions(ns, dir.resolve("a")));
      assertThat(verdictJson(dir.resolve("a")).has("isolation_skipped"))
          .as("every isolation rule was bound")
          .isFalse();
      assertAuditMatchesTable(
          kube,
          who,
          targets,
          Map.of(
              KubeCall.RUN_EVENTS_LIST, "read only when the Job's pod never starts",
              KubeCall.RUN_POD_GET,
                  "read only when the pod watch has not already delivered the pod's final status"),
          seen ->
              seen.stream()
                  .anyMatch(c -> c.verb().equals("delete") && c.resource().equals("configmaps")));
      unbind();

      Identity bare =
          bound(
              kube,
              s -> RbacManifests.validate(ns + "/vllm-agg", ns, s),
              RbacBindings::required,
              null,
              pairs);
      validateOk(bare, dgdOptions(ns, dir.resolve("b")));
      JsonNode skipped = verdictJson(dir.resolve("b")).path("isolation_skipped");
      List<String> rows = new ArrayList<>();
      skipped.forEach(x -> rows.add(x.path("row").asString()));
      System.out.println("[RbacValidateIT] isolation_skipped: " + skipped);
      List<String> isolationRows = new ArrayList<>();
      for (Permission p : Permissions.distinct(Permissions.isolation(targets))) {
        if (!isolationRows.contains(p.row().name())) {
          isolationRows.add(p.row().name());
        }
      }
      assertThat(rows)
          .as("every isolation row of validate --dgd, each once")
          .containsExactlyInAnyOrderElementsOf(isolationRows)
          .contains("RUN_JOBS_LIST_ALL", "RUN_NODE_GET", "VALIDATE_OPERATOR_DEPLOYMENTS_LIST");
      for (JsonNode x : skipped) {
        KubeCall row = KubeCall.valueOf(x.path("row").asString());
        assertThat(row.need()).isEqualTo(KubeCall.Need.ISOLATION);
        assertThat(x.path("check").asString()).isEqualTo(row.step());
        assertThat(x.path("permission").asString()).startsWith(row.verbs().get(0) + " ");
      }
      unbind();
    } finally {
      kubelets.forEach(FakeKubelet::close);
    }
  }

  @Test
  @DisplayName(
      "validate auto-deploy, audit log vs table: every call the identity made has its row, every required"
          + " row was used (the model-cache rows only with a cache)")
  void auditAutoDeploy(KubeTestContext kube) throws Exception {
    try (FakeKubelet gpus = gpuKubelet(kube, "-au")) {
      assertThat(gpus.nodes()).hasSize(1);
      RbacTargets targets = RbacTargets.validateDeploy(kube.namespace());
      List<Permission> pairs = Permissions.distinct(Permissions.required(targets));
      Identity who =
          bound(
              kube, s -> RbacManifests.validate(null, kube.namespace(), s), o -> true, null, pairs);
      validateOk(
          who,
          ValidatePipelineIT.options(
              kube, tag + "-au", dir.resolve("a"), ValidateItSupport.fast()));
      String cacheOff = "the model cache is off here (no StorageClass on the test control plane)";
      // (the cache Job's rows are create/list/watch jobs in validate's namespace: the AIPerf Job's
      // calls
      // there use them too, so the audit log cannot tell them apart)
      assertAuditMatchesTable(
          kube,
          who,
          targets,
          Map.of(
              KubeCall.RUN_EVENTS_LIST,
              "read only when the Job's pod never starts",
              KubeCall.RUN_POD_GET,
              "read only when the pod watch has not already delivered the pod's final status",
              KubeCall.VALIDATE_SERVICES_LIST,
              "discovery found no DGD, so it looked up no frontend Service",
              KubeCall.DEPLOY_STORAGECLASS_GET,
              cacheOff,
              KubeCall.DEPLOY_STORAGECLASSES_LIST,
              cacheOff,
              KubeCall.DEPLOY_PVC_CREATE,
              cacheOff),
          seen ->
              seen.stream()
                  .anyMatch(c -> c.verb().equals("delete") && c.resource().equals("namespaces")));
      unbind();
    }
  }

  @Test
  @DisplayName(
      "validate auto-deploy with the model cache on: the rules printed without it are not enough: exit 3"
          + " naming the cache's StorageClass and PVC rights, nothing created")
  void modelCacheNeedsItsRules(KubeTestContext kube) throws Exception {
    try (FakeKubelet gpus =
        ValidatePipelineIT.kubelet(kube, tag + "-rc", 1, PodScript.runForever())) {
      assertThat(gpus.nodes()).hasSize(1);
      Identity who = identity(kube);
      bind(
          kube,
          RbacManifests.validate(null, kube.namespace(), subject(kube, who), false),
          o -> true,
          null);
      Permissions.distinct(
              Permissions.required(RbacTargets.validateDeploy(kube.namespace(), false)))
          .forEach(p -> awaitAllowed(who, p));
      ValidateOptions noCache =
          ValidatePipelineIT.options(kube, tag + "-rc", dir.resolve("c"), ValidateItSupport.fast());
      ValidateOptions cache = noCache.toBuilder().modelCache(true, null, "bp-absent-class").build();
      StringWriter err = new StringWriter();
      ValidateResult r = ValidatePipelineIT.realService(who.client(), err).execute(cache);
      assertThat(r.exitCode()).as(err.toString()).isEqualTo(3);
      assertThat(err.toString())
          .contains("permission(s)")
          .contains("create persistentvolumeclaims")
          .contains("get storageclasses.storage.k8s.io")
          .contains("benchplan rbac validate --namespace " + kube.namespace())
          .doesNotContain("--no-model-cache");
      assertThat(
              kube
                  .client()
                  .namespaces()
                  .withLabel("app.kubernetes.io/component", "validate")
                  .list()
                  .getItems()
                  .stream()
                  .filter(n -> n.getMetadata().getDeletionTimestamp() == null)
                  .toList())
          .isEmpty();
    }
  }
}
