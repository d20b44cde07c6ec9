package dev.benchplan.kube.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.aiperf.export.ExportVariants;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.json.Json;
import dev.benchplan.json.SchemaValidator;
import dev.benchplan.kube.rbac.Permission;
import dev.benchplan.kube.rbac.Permissions;
import dev.benchplan.kube.rbac.RbacTargets;
import dev.benchplan.kubetest.AiperfPodLog;
import dev.benchplan.kubetest.FakeKubelet;
import dev.benchplan.kubetest.KubeTestContext;
import dev.benchplan.kubetest.KubeTestEnv;
import dev.benchplan.kubetest.PodScript;
import dev.benchplan.run.RunOutcome;
import dev.benchplan.run.RunRequest;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code run} end to end on the real control plane (kube-apiserver, the real Job controller and
 * garbage collector, real RBAC and watches): the kubelet stand-in replays a real AIPerf log — the
 * real profile_export_aiperf.json between the contract's markers — and the operator stand-in runs a
 * real DGD whose pods the isolation preflight inspects. After every run, no benchplan object is
 * left.
 */
@KubeTestEnv
class RunClusterIT {
  private static FakeKubelet kubelet;
  private static final List<Long> LATENCIES_MS = new ArrayList<>();
  private static final List<Long> CHILD_JVM_LATENCIES_MS = new ArrayList<>();

  @TempDir Path tmp;
  KubeTestContext kube;
  KubernetesClient client;
  final List<String> progress = new ArrayList<>();

  @BeforeAll
  static void cluster(KubeTestContext kube, KubernetesClient client) throws IOException {
    kubelet = RunCluster.start(kube, client);
  }

  @AfterAll
  static void report() throws IOException {
    if (!LATENCIES_MS.isEmpty() || !CHILD_JVM_LATENCIES_MS.isEmpty()) {
      String line =
          "pod completion -> verdict on disk (ms): in-process "
              + LATENCIES_MS
              + ", benchplan.jar in a fresh JVM "
              + CHILD_JVM_LATENCIES_MS;
      System.out.println("[RunClusterIT] " + line);
      Path out = Path.of("target", "run-latency.txt");
      Files.createDirectories(out.getParent());
      Files.writeString(out, line + "\n", StandardCharsets.UTF_8);
    }
  }

  @BeforeEach
  void inject(KubeTestContext kube, KubernetesClient client) {
    this.kube = kube;
    this.client = client;
  }

  private static String realSummary() {
    try {
      return Files.readString(ExportVariants.real(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private String jobName;

  private RunFixture fixture(double minThroughput, double maxTtft, String suffix) {
    jobName = RunFixture.JOB + "-" + suffix;
    return RunFixture.create(tmp, null, kube.namespace(), minThroughput, maxTtft)
        .withJobName(jobName);
  }

  private RunRequest request(
      RunFixture f, Duration timeout, Duration schedule, boolean keep, boolean replace) {
    return RunRequest.builder(f.deployRoot)
        .namespace(kube.namespace())
        .timeout(timeout)
        .scheduleTimeout(schedule)
        .keep(keep)
        .replace(replace)
        .build();
  }

  private RunOutcome run(KubernetesClient as, RunRequest r) {
    return KubeRunServices.using(as, action -> () -> {})
        .run(
            r,
            (phase, elapsed, detail) ->
                progress.add(
                    "["
                        + elapsed.toMillis()
                        + " ms] "
                        + phase
                        + (detail == null ? "" : ": " + detail)));
  }

  private void script(PodScript script) {
    kubelet.when(FakeKubelet.labelled("job-name", jobName), script);
  }

  /**
   * Records when the test itself sees the Job's pod Succeeded (the kubelet stand-in's final
   * status).
   */
  private SharedIndexInformer<Pod> watchCompletion(AtomicReference<Instant> completed) {
    return client
        .pods()
        .withLabel("job-name", jobName)
        .inform(
            new ResourceEventHandler<>() {
              @Override
              public void onAdd(Pod pod) {
                seen(pod);
              }

              @Override
              public void onUpdate(Pod oldPod, Pod pod) {
                seen(pod);
              }

              @Override
              public void onDelete(Pod pod, boolean unknown) {}

              private void seen(Pod pod) {
                if (pod.getStatus() != null && "Succeeded".equals(pod.getStatus().getPhase())) {
                  completed.compareAndSet(null, Instant.now());
                }
              }
            });
  }

  /** Nothing benchplan created is left: no Job, ConfigMap or pod of the run. */
  private void assertClean() {
    RunCluster.assertClean(client, kube.namespace(), jobName);
  }

  /**
   * Runs {@code benchplan run ARGS} in-process and appends the command, its stderr, stdout and exit
   * code to {@code transcript} (the README's capture).
   */
  private static dev.benchplan.testing.CommandHarness.Result runCli(
      StringBuilder transcript, String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "run";
    System.arraycopy(args, 0, all, 1, args.length);
    var r = dev.benchplan.testing.CommandHarness.run(all);
    transcript
        .append("$ benchplan run ")
        .append(String.join(" ", args))
        .append('\n')
        .append(r.err())
        .append(r.out())
        .append("(exit ")
        .append(r.exitCode())
        .append(")\n===\n");
    return r;
  }

  private static JsonNode json(Path p) throws IOException {
    return Json.JSON.readTree(Files.readAllBytes(p));
  }

  @RepeatedTest(value = 3, name = "{displayName} ({currentRepetition}/{totalRepetitions})")
  @DisplayName(
      "pass: real Job controller, replayed real AIPerf log, verdict on disk, nothing left; latency measured")
  void pass(RepetitionInfo repetition) throws Exception {
    RunFixture f = fixture(50, 35, "pass-" + repetition.getCurrentRepetition());
    script(
        PodScript.replayLog(AiperfPodLog.withSummary(realSummary(), 0), 0)
            .after(Duration.ofSeconds(2)));
    AtomicReference<Instant> completed = new AtomicReference<>();
    SharedIndexInformer<Pod> watch = watchCompletion(completed);
    try {
      RunOutcome o =
          run(client, request(f, Duration.ofMinutes(2), Duration.ofSeconds(60), false, false));
      assertThat(o.exitCode())
          .as(String.join("\n", progress) + "\n" + o.verdict().message())
          .isZero();
      // the run directory is renamed into place last: the runs/ folder's mtime is when the verdict
      // appeared
      Instant onDisk = Files.getLastModifiedTime(f.runDir().getParent()).toInstant();
      long ms = Duration.between(completed.get(), onDisk).toMillis();
      LATENCIES_MS.add(ms);
    } finally {
      watch.close();
    }
    JsonNode run = json(f.runDir().resolve("run.json"));
    assertThat(SchemaValidator.bundled("run-record.schema.json").validate(run)).isEmpty();
    assertThat(run.get("verdict").asString()).isEqualTo("pass");
    assertThat(run.get("job").get("conditions").toString()).doesNotContain("Failed");
    assertThat(run.get("pod").get("node").asString()).startsWith(kube.namespace());
    assertThat(run.get("isolation").get("dgd").get("serving_pods")).hasSizeGreaterThanOrEqualTo(2);
    assertThat(run.get("isolation").get("serving_nodes").get(0).get("name").asString())
        .isEqualTo(kube.namespace() + "-gpu");
    assertThat(Files.readString(f.runDir().resolve("profile_export_aiperf.json")).strip())
        .isEqualTo(realSummary().strip());
    assertThat(Files.readString(f.runDir().resolve("pod.log")))
        .contains(AiperfPodLog.SUMMARY_BEGIN);
    assertClean();
  }

  @Test
  @DisplayName("fail: the real numbers against AICR's thresholds -> exit 1, nothing left")
  void fail() throws Exception {
    RunFixture f = fixture(5000, 200, "fail");
    script(PodScript.replayLog(AiperfPodLog.withSummary(realSummary(), 0), 0));
    RunOutcome o =
        run(client, request(f, Duration.ofMinutes(2), Duration.ofSeconds(60), false, false));
    assertThat(o.exitCode()).as(o.verdict().message()).isEqualTo(1);
    assertThat(json(f.runDir().resolve("verdict.json")).get("verdict").asString())
        .isEqualTo("fail");
    assertClean();
  }

  @Test
  @DisplayName(
      "failed pod: AIPerf exits 1 without a summary -> the Job fails (BackoffLimitExceeded), error verdict with the log tail")
  void failedPod() throws Exception {
    RunFixture f = fixture(50, 35, "failed-pod");
    script(
        PodScript.replayLog(
            AiperfPodLog.withoutSummary(
                "aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host vllm-agg-frontend:8000",
                1),
            1));
    RunOutcome o =
        run(client, request(f, Duration.ofMinutes(2), Duration.ofSeconds(60), false, false));
    assertThat(o.exitCode()).isEqualTo(3);
    assertThat(o.exitReason()).isEqualTo("job-failed");
    assertThat(o.verdict().message())
        .contains("BackoffLimitExceeded")
        .contains("Cannot connect to host");
    JsonNode run = json(f.runDir().resolve("run.json"));
    assertThat(run.get("pod").get("exit_code").asInt()).as(run.toString()).isEqualTo(1);
    assertClean();
  }

  @Test
  @DisplayName(
      "unschedulable pod: reported with the pod's own reason after the scheduling bound, nothing left")
  void unschedulable() {
    RunFixture f = fixture(50, 35, "unsched");
    script(PodScript.stayPending("0/2 nodes are available: 2 Insufficient memory."));
    RunOutcome o =
        run(client, request(f, Duration.ofMinutes(2), Duration.ofSeconds(8), false, false));
    assertThat(o.exitCode()).isEqualTo(3);
    assertThat(o.exitReason())
        .as(o.verdict().message() + "\n" + String.join("\n", progress))
        .isEqualTo("unschedulable");
    assertThat(o.verdict().message())
        .contains("Unschedulable: 0/2 nodes are available: 2 Insufficient memory.");
    assertClean();
  }

  @Test
  @DisplayName(
      "deadline: activeDeadlineSeconds passes while AIPerf runs -> the Job controller's DeadlineExceeded, exit 3")
  void deadline() {
    RunFixture f = fixture(50, 35, "deadline");
    f.editJob(
        j ->
            ((tools.jackson.databind.node.ObjectNode) j.get("spec"))
                .put("activeDeadlineSeconds", 4));
    script(PodScript.runForever().withLog("Profiling: 1/64 |          | 1%\n"));
    RunOutcome o = run(client, request(f, null, Duration.ofSeconds(60), false, false));
    assertThat(o.exitCode()).isEqualTo(3);
    assertThat(o.exitReason()).isEqualTo("deadline-exceeded");
    assertThat(o.verdict().message()).contains("DeadlineExceeded");
    assertClean();
  }

  @Test
  @DisplayName(
      "Job-name conflict: an existing Job is refused (exit 2, nothing applied); --replace deletes it and runs")
  void jobNameConflict() throws Exception {
    RunFixture f = fixture(50, 35, "conflict");
    var existing =
        client
            .getKubernetesSerialization()
            .unmarshal(
                Json.JSON.writeValueAsString(f.job),
                io.fabric8.kubernetes.api.model.batch.v1.Job.class);
    existing.getMetadata().setNamespace(kube.namespace());
    script(PodScript.runForever());
    client.batch().v1().jobs().resource(existing).create();
    assertThatThrownBy(
            () ->
                run(
                    client,
                    request(f, Duration.ofMinutes(2), Duration.ofSeconds(60), false, false)))
        .isInstanceOf(BenchplanException.class)
        .hasMessage(
            "RUN_OBJECTS_EXIST: Job "
                + kube.namespace()
                + "/"
                + existing.getMetadata().getName()
                + " already exists (an earlier run of this perf.yaml, kept or still running): use"
                + " --replace to delete it and run again, or re-render for a new run-id (rule:"
                + " benchmarking/benchmark-isolation.md)")
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(2));
    assertThat(client.configMaps().withName(RunFixture.CONFIG_MAP).get()).isNull();

    script(PodScript.replayLog(AiperfPodLog.withSummary(realSummary(), 0), 0));
    RunOutcome o =
        run(client, request(f, Duration.ofMinutes(2), Duration.ofSeconds(60), false, true));
    assertThat(o.exitCode()).as(String.join("\n", progress)).isZero();
    assertClean();
  }

  @Test
  @DisplayName("--keep: the Job and ConfigMap stay after the run")
  void keep() {
    RunFixture f = fixture(50, 35, "keep");
    script(PodScript.replayLog(AiperfPodLog.withSummary(realSummary(), 0), 0));
    RunOutcome o =
        run(client, request(f, Duration.ofMinutes(2), Duration.ofSeconds(60), true, false));
    assertThat(o.exitCode()).isZero();
    assertThat(client.batch().v1().jobs().withName(jobName).get()).isNotNull();
    assertThat(client.configMaps().withName(RunFixture.CONFIG_MAP).get()).isNotNull();
    new Cleanup(
            dev.benchplan.kube.ClusterAccess.of(client),
            kube.namespace(),
            jobName,
            List.of(RunFixture.CONFIG_MAP),
            Duration.ofSeconds(60))
        .run();
    assertClean();
  }

  private RbacTargets targets() {
    return RbacTargets.run(kube.namespace(), kube.namespace());
  }

  /** run's refusal when the context's user lacks {@code missing}. */
  private String denied(RunFixture f, List<Permission> missing) {
    return "the API server denied the user of this context "
        + missing.size()
        + " permission(s) run needs, so nothing was created: "
        + missing.stream().map(Permission::describe).collect(Collectors.joining("; "))
        + ". Print the Role(s) to grant with: benchplan rbac run --deploy-root "
        + f.deployRoot
        + " --namespace "
        + kube.namespace();
  }

  @Test
  @DisplayName(
      "RBAC: no rights -> exit 3 naming every missing permission; a namespaced Role without 'create jobs' -> exit 3 naming it, nothing created")
  void rbacDenial() {
    RunFixture f = fixture(50, 35, "rbac");
    KubernetesClient nobody = kube.userClient();
    assertThatThrownBy(
            () ->
                run(
                    nobody,
                    request(f, Duration.ofMinutes(2), Duration.ofSeconds(60), false, false)))
        .isInstanceOf(BenchplanException.class)
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3))
        // asked of the API server before anything is created (issue 19): every missing permission
        // named, in the order of the call table
        .hasMessage(denied(f, Permissions.distinct(Permissions.required(targets()))));
    assertClean();

    client
        .rbac()
        .roles()
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName("runner-no-jobs")
                .endMetadata()
                .addNewRule()
                .withApiGroups("")
                .withResources("pods", "pods/log", "configmaps", "events")
                .withVerbs("get", "list", "watch", "create", "delete")
                .endRule()
                .addNewRule()
                .withApiGroups("batch")
                .withResources("jobs")
                .withVerbs("get", "list", "watch", "delete")
                .endRule()
                .build())
        .create();
    client
        .rbac()
        .roleBindings()
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName("runner-no-jobs")
                .endMetadata()
                .withNewRoleRef()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("Role")
                .withName("runner-no-jobs")
                .endRoleRef()
                .addNewSubject()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("User")
                .withName("benchplan-user")
                .endSubject()
                .build())
        .create();
    client
        .rbac()
        .roleBindings()
        .withName("runner-no-jobs")
        .waitUntilCondition(java.util.Objects::nonNull, 10, TimeUnit.SECONDS);
    assertThatThrownBy(
            () ->
                run(
                    nobody,
                    request(f, Duration.ofMinutes(2), Duration.ofSeconds(60), false, false)))
        .satisfies(e -> assertThat(((BenchplanException) e).exitCode()).isEqualTo(3))
        .hasMessage(
            denied(
                f,
                Permissions.distinct(Permissions.required(targets())).stream()
                    .filter(p -> p.verb().equals("create") && p.resource().equals("jobs"))
                    .toList()));
    assertClean();
  }

  @Test
  @DisplayName(
      "through the CLI: kubeconfig context, progress on stderr, text and JSON results (kept for docs/readme/run.md)")
  void cli() throws Exception {
    Path kubeconfig =
        kube.cluster()
            .writeKubeconfig(
                tmp.resolve("kubeconfig"), kube.cluster().adminToken(), kube.namespace());
    String previous = System.setProperty("kubeconfig", kubeconfig.toString());
    StringBuilder transcript = new StringBuilder();
    try {
      RunFixture f = fixture(50, 35, "cli");
      StringBuilder progressLines =
          new StringBuilder(
              "benchplan: waiting for 'Qwen/Qwen3-0.6B' at "
                  + RunFixture.ENDPOINT
                  + "/v1/models (listed: ['Qwen/Qwen3-0.6B'])\n");
      for (int i = 8; i <= 64; i += 8) {
        progressLines
            .append("Profiling: ")
            .append(i)
            .append("/64 |")
            .append("#".repeat(i / 8))
            .append(" ".repeat(8 - i / 8))
            .append("| ")
            .append(i * 100 / 64)
            .append("%\n");
      }
      // running for 12 s: the run's 10 s progress report shows the latest AIPerf line
      script(
          PodScript.replayLog(progressLines + AiperfPodLog.withSummary(realSummary(), 0), 0)
              .after(Duration.ofSeconds(12)));
      var pass =
          runCli(
              transcript, "--deploy-root", f.deployRoot.toString(), "--context", "benchplan-test");
      pass.expectOk();
      assertThat(pass.err())
          .contains("run [preflight] ")
          .contains(": namespace " + kube.namespace())
          .contains("run [done] ")
          .contains(": pass -> ");
      assertThat(pass.out()).startsWith("run " + RunFixture.RUN_ID + ": PASS (completed)");
      assertClean();

      RunFixture g =
          RunFixture.create(tmp.resolve("second"), null, kube.namespace(), 5000, 200)
              .withJobName(RunFixture.JOB + "-cli2");
      jobName = RunFixture.JOB + "-cli2";
      script(PodScript.replayLog(AiperfPodLog.withSummary(realSummary(), 0), 0));
      var fail =
          runCli(
              transcript,
              "--deploy-root",
              g.deployRoot.toString(),
              "--context",
              "benchplan-test",
              "--format",
              "json");
      fail.expectExit(1);
      assertThat(Json.JSON.readTree(fail.out()).get("verdict").get("verdict").asString())
          .isEqualTo("fail");
      assertClean();

      RunFixture h =
          RunFixture.create(tmp.resolve("third"), null, kube.namespace(), 50, 35)
              .withJobName(RunFixture.JOB + "-cli3");
      jobName = RunFixture.JOB + "-cli3";
      script(PodScript.stayPending("0/2 nodes are available: 2 Insufficient memory."));
      var pending =
          runCli(
              transcript,
              "--deploy-root",
              h.deployRoot.toString(),
              "--context",
              "benchplan-test",
              "--schedule-timeout",
              "10s");
      pending.expectExit(3);
      assertClean();

      var again =
          runCli(
              transcript, "--deploy-root", f.deployRoot.toString(), "--context", "benchplan-test");
      again.expectExit(2);
      transcript.append("$ ls ").append(f.runDir()).append("\n");
      try (var files = Files.list(f.runDir())) {
        files
            .map(p -> p.getFileName().toString())
            .sorted()
            .forEach(n -> transcript.append(n).append('\n'));
      }
      transcript.append("===\n").append(Files.readString(f.runDir().resolve("run.json")));
    } finally {
      if (previous == null) {
        System.clearProperty("kubeconfig");
      } else {
        System.setProperty("kubeconfig", previous);
      }
      Files.createDirectories(Path.of("target"));
      Files.writeString(
          Path.of("target", "run-cli-transcript.txt"),
          transcript.toString(),
          StandardCharsets.UTF_8);
    }
  }

  @RepeatedTest(value = 3, name = "{displayName} ({currentRepetition}/{totalRepetitions})")
  @DisplayName(
      "the packaged CLI (target/benchplan.jar, fresh JVM): pass, nothing left; latency measured")
  void packagedCli(RepetitionInfo repetition) throws Exception {
    Path jar = Path.of("target", "benchplan.jar").toAbsolutePath();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isRegularFile(jar), "no " + jar + " (run through mvn verify)");
    Path kubeconfig =
        kube.cluster()
            .writeKubeconfig(
                tmp.resolve("kubeconfig"), kube.cluster().adminToken(), kube.namespace());
    RunFixture f = fixture(50, 35, "jar-" + repetition.getCurrentRepetition());
    script(
        PodScript.replayLog(AiperfPodLog.withSummary(realSummary(), 0), 0)
            .after(Duration.ofSeconds(3)));
    AtomicReference<Instant> completed = new AtomicReference<>();
    SharedIndexInformer<Pod> watch = watchCompletion(completed);
    try {
      Path java = Path.of(System.getProperty("java.home"), "bin", "java");
      ProcessBuilder pb =
          new ProcessBuilder(
                  java.toString(),
                  "-XX:+UseSerialGC",
                  "-jar",
                  jar.toString(),
                  "run",
                  "--deploy-root",
                  f.deployRoot.toString(),
                  "--format",
                  "json")
              .redirectOutput(tmp.resolve("cli.out").toFile())
              .redirectError(tmp.resolve("cli.err").toFile());
      pb.environment().put("KUBECONFIG", kubeconfig.toString());
      Process p = pb.start();
      assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(Files.readString(tmp.resolve("cli.err"))).isZero();
      Instant onDisk = Files.getLastModifiedTime(f.runDir().getParent()).toInstant();
      CHILD_JVM_LATENCIES_MS.add(Duration.between(completed.get(), onDisk).toMillis());
    } finally {
      watch.close();
    }
    assertThat(
            Json.JSON
                .readTree(Files.readAllBytes(tmp.resolve("cli.out")))
                .get("verdict")
                .get("verdict")
                .asString())
        .isEqualTo("pass");
    assertClean();
  }

  @Test
  @DisplayName(
      "a perf.yaml rendered by the real plan + render commands runs end to end: the plan's four gates, real Job controller")
  void renderedPerfYaml() throws Exception {
    RenderedPerf r = RenderedPerf.create(tmp, kube.namespace());
    jobName = r.jobName();
    script(
        PodScript.replayLog(AiperfPodLog.withSummary(realSummary(), 0), 0)
            .after(Duration.ofSeconds(1)));
    RunOutcome o =
        run(
            client,
            RunRequest.builder(r.deployRoot())
                .timeout(Duration.ofMinutes(2))
                .scheduleTimeout(Duration.ofSeconds(60))
                .build());
    assertThat(o.runId()).isEqualTo(r.runId());
    assertThat(o.exitCode())
        .as(String.join("\n", progress) + "\n" + o.verdict().message())
        .isEqualTo(1);
    assertThat(o.verdict().constraints())
        .extracting(cr -> cr.name() + "=" + cr.status().json())
        .containsExactly(
            "time_to_first_token-p95=pass",
            "inter_token_latency-p95=pass",
            "inference-throughput=fail",
            "inference-ttft-p99=pass");
    JsonNode run = json(o.runDir().resolve("run.json"));
    assertThat(SchemaValidator.bundled("run-record.schema.json").validate(run)).isEmpty();
    assertThat(run.get("job").get("conditions").toString()).doesNotContain("Failed");
    assertThat(run.get("aiperf").get("image_match").asBoolean()).isTrue();
    assertClean();
  }

  @Test
  @DisplayName(
      "the packaged CLI gets SIGTERM mid-run: the shutdown hook deletes the Job and ConfigMap, exit 3, no run directory")
  void packagedCliTerminated() throws Exception {
    Path jar = Path.of("target", "benchplan.jar").toAbsolutePath();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isRegularFile(jar), "no " + jar + " (run through mvn verify)");
    Path kubeconfig =
        kube.cluster()
            .writeKubeconfig(
                tmp.resolve("kubeconfig"), kube.cluster().adminToken(), kube.namespace());
    RunFixture f = fixture(50, 35, "sigterm");
    script(PodScript.runForever().withLog("Profiling: 3/64 |          | 4%\n"));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ProcessBuilder pb =
        new ProcessBuilder(
                java.toString(),
                "-jar",
                jar.toString(),
                "run",
                "--deploy-root",
                f.deployRoot.toString())
            .redirectOutput(tmp.resolve("cli.out").toFile())
            .redirectError(tmp.resolve("cli.err").toFile());
    pb.environment().put("KUBECONFIG", kubeconfig.toString());
    Process p = pb.start();
    try {
      client
          .pods()
          .withLabel("job-name", jobName)
          .waitUntilCondition(
              pod ->
                  pod != null
                      && pod.getStatus() != null
                      && "Running".equals(pod.getStatus().getPhase()),
              60,
              TimeUnit.SECONDS);
      p.destroy(); // SIGTERM, as Ctrl-C or a CI cancel would
      assertThat(p.waitFor(90, TimeUnit.SECONDS)).isTrue();
    } finally {
      p.destroyForcibly();
    }
    String err = Files.readString(tmp.resolve("cli.err"));
    assertThat(p.exitValue()).as(err).isEqualTo(3);
    assertThat(err)
        .contains("run [interrupted]")
        .contains("cleaning up: [Job " + kube.namespace() + "/" + jobName + ": deleted");
    assertClean();
    assertThat(f.runDir().getParent())
        .satisfiesAnyOf(d -> assertThat(d).doesNotExist(), d -> assertThat(d).isEmptyDirectory());
  }
}
