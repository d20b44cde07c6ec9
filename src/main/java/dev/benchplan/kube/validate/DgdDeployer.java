package dev.benchplan.kube.validate;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.kube.ApiErrors;
import dev.benchplan.kube.ClusterAccess;
import dev.benchplan.kube.KubeCall;
import dev.benchplan.progress.ProgressRenderer;
import dev.benchplan.progress.ProgressSink;
import dev.benchplan.validate.CreatedObject;
import dev.benchplan.validate.CreatedObjects;
import dev.benchplan.validate.DgdApi;
import dev.benchplan.validate.DgdCandidate;
import dev.benchplan.validate.DgdView;
import dev.benchplan.validate.FrontendMatch;
import dev.benchplan.validate.ServiceInfo;
import dev.benchplan.validate.ValidateRun;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import tools.jackson.databind.node.ObjectNode;

/** Creates the default DGD and waits, watching, until it and its frontend Service are ready. */
final class DgdDeployer {
  private DgdDeployer() {}

  static DgdView create(
      ClusterAccess client, DgdApi api, ObjectNode manifest, CreatedObjects ledger) {
    GenericKubernetesResource r = KubeDocuments.generic(client, manifest);
    String ns = r.getMetadata().getNamespace();
    String name = r.getMetadata().getName();
    String runId = r.getMetadata().getLabels().get(ValidateRun.RUN_LABEL);
    if (!ledger.record(
        new CreatedObject(api.apiVersion(), DgdApi.KIND, ns, name, ValidateRun.RUN_LABEL, runId))) {
      throw BenchplanException.runtime("interrupted before creating DGD " + ns + "/" + name);
    }
    GenericKubernetesResource created;
    var ctx = KubeDocuments.dgdContext(api);
    try {
      created = client.createCustom(KubeCall.DEPLOY_DGD_CREATE, ctx, ns, r);
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("creating DynamoGraphDeployment " + ns + "/" + name, e);
    }
    if (ledger.closed()) {
      client.deleteCustom(KubeCall.DEPLOY_DGD_CLEANUP, ctx, ns, name);
      throw BenchplanException.runtime("interrupted while creating DGD " + ns + "/" + name);
    }
    return KubeDocuments.dgd(client, created);
  }

  /**
   * Watches the DGD until it is successful with every component (Frontend included) at ready
   * replicas >= its spec; a component still short after {@code bound} is an error naming it.
   */
  static DgdView awaitComponents(
      ClusterAccess client,
      KubeCall row,
      DgdApi api,
      String ns,
      String name,
      Duration bound,
      ProgressSink progress) {
    AtomicReference<DgdView> last = new AtomicReference<>();
    AtomicBoolean deleted = new AtomicBoolean(false);
    boolean done;
    try {
      done =
          client.awaitCustom(
              row,
              KubeDocuments.dgdContext(api),
              ns,
              name,
              r -> {
                if (r == null) {
                  deleted.set(last.get() != null);
                  return deleted.get();
                }
                DgdView v = KubeDocuments.dgd(client, r);
                last.set(v);
                progress.update(v.readiness());
                return v.ready();
              },
              bound.toMillis());
    } catch (KubernetesClientException e) {
      throw ApiErrors.map("watching DGD " + ns + "/" + name, e);
    }
    if (!done) {
      DgdView v = last.get();
      String notReady =
          "DGD " + ns + "/" + name + " not ready after " + ProgressRenderer.format(bound);
      if (v == null) {
        throw BenchplanException.runtime(notReady + ": not found");
      }
      List<String> shortOnes = v.shortComponents();
      throw BenchplanException.runtime(
          notReady
              + ": "
              + (shortOnes.isEmpty()
                  ? ""
                  : "component"
                      + (shortOnes.size() == 1 ? " " : "s ")
                      + String.join(", ", shortOnes)
                      + " ready (ready/spec); ")
              + v.readiness());
    }
    if (deleted.get()) {
      throw BenchplanException.runtime(
          "DGD " + ns + "/" + name + " was deleted while validate waited for it");
    }
    return Objects.requireNonNull(last.get()); // done and not deleted: the last view was ready
  }

  static DgdCandidate awaitReady(
      ClusterAccess client,
      DgdApi api,
      String ns,
      String name,
      Duration bound,
      ProgressSink progress) {
    Instant deadline = Instant.now().plus(bound);
    DgdView dgd =
        awaitComponents(client, KubeCall.DEPLOY_DGD_WATCH, api, ns, name, bound, progress);
    progress.update("DGD successful; waiting for its frontend Service");
    List<String> problems = new ArrayList<>();
    long remaining = Math.max(1, Duration.between(Instant.now(), deadline).toMillis());
    AtomicReference<FrontendMatch> match = new AtomicReference<>();
    try {
      client
          .awaitServices(
              KubeCall.DEPLOY_SERVICES_WATCH,
              ns,
              list -> {
                List<ServiceInfo> infos = list.stream().map(KubeDocuments::service).toList();
                List<String> p = new ArrayList<>();
                FrontendMatch m = FrontendMatch.find(dgd, infos, p).orElse(null);
                synchronized (problems) {
                  problems.clear();
                  problems.addAll(p);
                }
                match.set(m);
                return m != null;
              })
          .get(remaining, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      String why;
      synchronized (problems) {
        why = String.join("; ", problems);
      }
      throw BenchplanException.runtime(
          "DGD "
              + ns
              + "/"
              + name
              + " is successful but has no usable"
              + " frontend Service after "
              + ProgressRenderer.format(bound)
              + ": "
              + why);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BenchplanException.runtime(
          "interrupted while waiting for the frontend Service of " + ns + "/" + name);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof KubernetesClientException k) {
        throw ApiErrors.map("watching Services in namespace " + ns, k);
      }
      throw BenchplanException.runtime("watching Services in namespace " + ns + " failed: " + c, c);
    }
    return new DgdCandidate(dgd, match.get(), List.of());
  }
}
