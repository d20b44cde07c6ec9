package dev.benchplan.run;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.InputErrors;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.render.JobContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.node.ObjectNode;

/**
 * A rendered {@code DEPLOY_ROOT/benchmark/perf.yaml}, checked against the render contract:
 * ConfigMap documents first, then exactly one batch/v1 Job (last); every object labelled {@code
 * app.kubernetes.io/managed-by: benchplan}, {@code benchplan.dev/series}, {@code
 * benchplan.dev/plan-sha256} (12 hex) and {@code benchplan.dev/run-id}; the Job annotated with
 * plan-path, plan-sha256, endpoint, aiperf-version, dgd and artifacts; a container named {@code
 * aiperf} and a volume named {@code artifacts}.
 *
 * @param file the perf.yaml read
 * @param sha256 its SHA-256
 * @param configMaps the ConfigMap documents, in file order
 * @param job the Job document
 */
public record PerfYaml(Path file, String sha256, List<ObjectNode> configMaps, ObjectNode job) {
  static final Pattern RUN_ID_PATTERN = Pattern.compile("\\d{8}T\\d{6}Z-[0-9a-f]{4}");
  private static final Pattern DNS1123 = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern HEX12 = Pattern.compile("[0-9a-f]{12}");
  private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern DGD_REF =
      Pattern.compile("([a-z0-9]([-a-z0-9]*[a-z0-9])?)/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)");
  private static final Pattern ARTIFACTS_REF =
      Pattern.compile("emptyDir|pvc:[a-z0-9]([-a-z0-9.]*[a-z0-9])?(/[^\\s]+)?");

  public PerfYaml {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(sha256, "sha256");
    configMaps = List.copyOf(configMaps);
    Objects.requireNonNull(job, "job");
  }

  /** Reads and checks perf.yaml; every problem is invalid input naming the document and pointer. */
  public static PerfYaml read(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file + ": perf.yaml not found; run 'benchplan render' first",
          e);
    } catch (IOException e) {
      throw InputErrors.unreadable(null, file, e);
    }
    List<ObjectNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it = Json.YAML.readerFor(JsonNode.class).readValues(bytes)) {
      int index = 0;
      while (it.hasNextValue()) {
        JsonNode doc = it.nextValue();
        index++;
        if (doc == null || doc.isNull() || doc.isMissingNode()) {
          continue; // an empty document between '---' separators
        }
        if (!doc.isObject()) {
          throw BenchplanException.invalid(
              ErrorLocation.file(file),
              file + ": document " + index + ": expected a Kubernetes object (a mapping)");
        }
        docs.add((ObjectNode) doc);
      }
    } catch (JacksonException e) {
      throw InputErrors.unparsable(null, file, e);
    }
    return check(file, Sha256.hex(bytes), docs);
  }

  private static PerfYaml check(Path file, String sha, List<ObjectNode> docs) {
    if (docs.isEmpty()) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file + ": no documents: expected ConfigMap(s) and one batch/v1 Job");
    }
    List<ObjectNode> configMaps = new ArrayList<>();
    ObjectNode job = null;
    String runId = null;
    String series = null;
    for (int i = 0; i < docs.size(); i++) {
      ObjectNode d = docs.get(i);
      String kind = d.path("kind").asString("");
      String apiVersion = d.path("apiVersion").asString("");
      String name = d.path("metadata").path("name").asString("");
      String where =
          file + ": document " + (i + 1) + " (" + (kind.isEmpty() ? "?" : kind) + " " + name + ")";
      boolean last = i == docs.size() - 1;
      if (kind.equals("Job")) {
        if (!apiVersion.equals("batch/v1")) {
          throw BenchplanException.invalid(
              ErrorLocation.pointer(file, "/apiVersion"),
              where + ": /apiVersion: expected batch/v1, got '" + apiVersion + "'");
        }
        if (!last) {
          throw BenchplanException.invalid(
              ErrorLocation.file(file),
              where
                  + ": the Job must be the last document (exactly one Job, after the ConfigMaps)");
        }
        job = d;
      } else if (kind.equals("ConfigMap")) {
        if (!apiVersion.equals("v1")) {
          throw BenchplanException.invalid(
              ErrorLocation.pointer(file, "/apiVersion"),
              where + ": /apiVersion: expected v1, got '" + apiVersion + "'");
        }
        configMaps.add(d);
      } else {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, "/kind"),
            where + ": /kind: expected ConfigMap or Job, got '" + kind + "'");
      }
      if (!DNS1123_SUBDOMAIN.matcher(name).matches()
          || name.length() > (kind.equals("Job") ? 63 : 253)) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, "/metadata/name"),
            where
                + ": /metadata/name: expected a DNS-1123 name"
                + (kind.equals("Job") ? " of at most 63 characters" : "")
                + ", got '"
                + name
                + "'");
      }
      JsonNode labels = d.path("metadata").path("labels");
      requireLabel(labels, JobContract.MANAGED_BY, where, file);
      if (!labels.path(JobContract.MANAGED_BY).asString("").equals(JobContract.MANAGED_BY_VALUE)) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, labelPointer(JobContract.MANAGED_BY)),
            where
                + ": "
                + labelPointer(JobContract.MANAGED_BY)
                + ": expected '"
                + JobContract.MANAGED_BY_VALUE
                + "'");
      }
      String s = requireLabel(labels, JobContract.SERIES, where, file);
      String shaLabel = requireLabel(labels, JobContract.PLAN_SHA256, where, file);
      if (!HEX12.matcher(shaLabel).matches()) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, labelPointer(JobContract.PLAN_SHA256)),
            where
                + ": "
                + labelPointer(JobContract.PLAN_SHA256)
                + ": expected the first 12 hex characters of the plan SHA-256, got '"
                + shaLabel
                + "'");
      }
      String r = requireLabel(labels, JobContract.RUN_ID, where, file);
      if (!RUN_ID_PATTERN.matcher(r).matches()) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, labelPointer(JobContract.RUN_ID)),
            where
                + ": "
                + labelPointer(JobContract.RUN_ID)
                + ": expected a run-id YYYYMMDDTHHMMSSZ-<4 hex>, got '"
                + r
                + "'");
      }
      if (runId != null && (!runId.equals(r) || !s.equals(series))) {
        throw BenchplanException.invalid(
            ErrorLocation.file(file),
            where
                + ": run-id/series labels differ from the first document's ("
                + runId
                + ", "
                + series
                + ")");
      }
      runId = r;
      series = s;
    }
    if (job == null) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file + ": no batch/v1 Job: expected exactly one, as the last document");
    }
    String where =
        file
            + ": document "
            + docs.size()
            + " (Job "
            + job.path("metadata").path("name").asString()
            + ")";
    JsonNode ann = job.path("metadata").path("annotations");
    String planPath = requireAnnotation(ann, JobContract.PLAN_PATH, where, file);
    if (planPath.isBlank() || planPath.contains("\\")) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, annotationPointer(JobContract.PLAN_PATH)),
          where
              + ": "
              + annotationPointer(JobContract.PLAN_PATH)
              + ": expected the plan's path relative to DEPLOY_ROOT (written with '/') or an absolute path, got '"
              + planPath
              + "'");
    }
    String planSha = requireAnnotation(ann, JobContract.PLAN_SHA256, where, file);
    if (!HEX64.matcher(planSha).matches()) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, annotationPointer(JobContract.PLAN_SHA256)),
          where
              + ": "
              + annotationPointer(JobContract.PLAN_SHA256)
              + ": expected 64 lowercase hex characters");
    }
    String shaLabel = job.path("metadata").path("labels").path(JobContract.PLAN_SHA256).asString();
    if (!planSha.startsWith(shaLabel)) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, labelPointer(JobContract.PLAN_SHA256)),
          where
              + ": "
              + labelPointer(JobContract.PLAN_SHA256)
              + " '"
              + shaLabel
              + "' is not the start of "
              + annotationPointer(JobContract.PLAN_SHA256)
              + " '"
              + planSha
              + "'");
    }
    String endpoint = requireAnnotation(ann, JobContract.ENDPOINT, where, file);
    if (!endpoint.startsWith("http://") && !endpoint.startsWith("https://")) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, annotationPointer(JobContract.ENDPOINT)),
          where
              + ": "
              + annotationPointer(JobContract.ENDPOINT)
              + ": expected an http(s) URL, got '"
              + endpoint
              + "'");
    }
    requireAnnotation(ann, JobContract.AIPERF_VERSION, where, file);
    String dgd = requireAnnotation(ann, JobContract.DGD, where, file);
    if (!DGD_REF.matcher(dgd).matches()) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, annotationPointer(JobContract.DGD)),
          where
              + ": "
              + annotationPointer(JobContract.DGD)
              + ": expected <namespace>/<dgd-name>, got '"
              + dgd
              + "'");
    }
    String artifacts = requireAnnotation(ann, JobContract.ARTIFACTS, where, file);
    if (!ARTIFACTS_REF.matcher(artifacts).matches()) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, annotationPointer(JobContract.ARTIFACTS)),
          where
              + ": "
              + annotationPointer(JobContract.ARTIFACTS)
              + ": expected emptyDir or pvc:CLAIM[/SUBPATH], got '"
              + artifacts
              + "'");
    }
    JsonNode podSpec = job.path("spec").path("template").path("spec");
    if (findNamed(podSpec.path("containers"), JobContract.CONTAINER) == null) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, "/spec/template/spec/containers"),
          where
              + ": /spec/template/spec/containers: expected a container named '"
              + JobContract.CONTAINER
              + "'");
    }
    if (findNamed(podSpec.path("volumes"), JobContract.ARTIFACTS_VOLUME) == null) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, "/spec/template/spec/volumes"),
          where + ": /spec/template/spec/volumes: expected a volume named 'artifacts'");
    }
    JsonNode deadline = job.path("spec").get("activeDeadlineSeconds");
    if (deadline != null
        && !deadline.isNull()
        && (!deadline.isIntegralNumber() || deadline.asLong() <= 0)) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, "/spec/activeDeadlineSeconds"),
          where + ": /spec/activeDeadlineSeconds: expected a positive integer");
    }
    String ns = null;
    for (ObjectNode d : docs) {
      String n = d.path("metadata").path("namespace").asString(null);
      if (n != null && ns != null && !n.equals(ns)) {
        throw BenchplanException.invalid(
            ErrorLocation.file(file),
            file + ": objects name different namespaces (" + ns + ", " + n + ")");
      }
      ns = n == null ? ns : n;
    }
    if (ns != null && !DNS1123.matcher(ns).matches()) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, "/metadata/namespace"),
          file + ": /metadata/namespace: expected a DNS-1123 label, got '" + ns + "'");
    }
    return new PerfYaml(file, sha, configMaps, job);
  }

  static @Nullable JsonNode findNamed(JsonNode array, String name) {
    if (array == null || !array.isArray()) {
      return null;
    }
    for (JsonNode n : array) {
      if (name.equals(n.path("name").asString(null))) {
        return n;
      }
    }
    return null;
  }

  private static String requireLabel(JsonNode labels, String key, String where, Object file) {
    ErrorLocation at = ErrorLocation.pointer(file, labelPointer(key));
    requireString(labels.get(key), where + ": " + labelPointer(key), at);
    String v = labels.path(key).asString("");
    if (v.isBlank()) {
      throw BenchplanException.invalid(
          at, where + ": " + labelPointer(key) + ": required label missing");
    }
    return v;
  }

  private static String requireAnnotation(JsonNode ann, String key, String where, Object file) {
    ErrorLocation at = ErrorLocation.pointer(file, annotationPointer(key));
    requireString(ann.get(key), where + ": " + annotationPointer(key), at);
    String v = ann.path(key).asString("");
    if (v.isBlank()) {
      throw BenchplanException.invalid(
          at, where + ": " + annotationPointer(key) + ": required annotation missing");
    }
    return v;
  }

  /**
   * Kubernetes takes only strings as label and annotation values: YAML must quote numeric-looking
   * ones.
   */
  private static void requireString(JsonNode v, String where, ErrorLocation at) {
    if (v != null && !v.isNull() && !v.isString()) {
      throw BenchplanException.invalid(
          at,
          where
              + ": expected a string, got the "
              + v.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)
              + " "
              + v
              + " (quote it in YAML)");
    }
  }

  private static String labelPointer(String key) {
    return "/metadata/labels/" + key.replace("~", "~0").replace("/", "~1");
  }

  private static String annotationPointer(String key) {
    return "/metadata/annotations/" + key.replace("~", "~0").replace("/", "~1");
  }

  /** The Job's name. */
  public String jobName() {
    return job.path("metadata").path("name").asString();
  }

  /** The run-id label. */
  public String runId() {
    return job.path("metadata").path("labels").path(JobContract.RUN_ID).asString();
  }

  /** The series label. */
  public String series() {
    return job.path("metadata").path("labels").path(JobContract.SERIES).asString();
  }

  /**
   * The plan file the Job's {@code benchplan.dev/plan-path} names: relative to DEPLOY_ROOT (the
   * folder above {@code benchmark/}), as render writes it; an absolute path (older renders) as is.
   */
  public Path planPath() {
    String recorded = annotation(JobContract.PLAN_PATH);
    Path p = Path.of(recorded);
    return p.isAbsolute() ? p : deployRoot().resolve(recorded).normalize();
  }

  /** The DEPLOY_ROOT this perf.yaml lies in ({@code DEPLOY_ROOT/benchmark/perf.yaml}). */
  public Path deployRoot() {
    Path abs = file.toAbsolutePath().normalize();
    Path benchmark = Objects.requireNonNull(abs.getParent()); // a file has a parent
    return benchmark.getParent() == null ? benchmark : benchmark.getParent();
  }

  /** A Job annotation (one of the keys above). */
  public String annotation(String key) {
    return job.path("metadata").path("annotations").path(key).asString(null);
  }

  /** The namespace the manifest names, or null. */
  public @Nullable String namespace() {
    String n = job.path("metadata").path("namespace").asString(null);
    if (n != null) {
      return n;
    }
    return configMaps.stream()
        .map(c -> c.path("metadata").path("namespace").asString(null))
        .filter(Objects::nonNull)
        .findFirst()
        .orElse(null);
  }

  /** The Job's activeDeadlineSeconds, or null. */
  public @Nullable Long activeDeadlineSeconds() {
    JsonNode d = job.path("spec").get("activeDeadlineSeconds");
    return d == null || d.isNull() ? null : d.asLong();
  }

  /** The AIPerf container's image. */
  public String image() {
    // read() has checked that the Job has the AIPerf container
    return Objects.requireNonNull(
            findNamed(
                job.path("spec").path("template").path("spec").path("containers"),
                JobContract.CONTAINER),
            JobContract.CONTAINER)
        .path("image")
        .asString(null);
  }

  /** The ConfigMaps' names. */
  public List<String> configMapNames() {
    return configMaps.stream().map(c -> c.path("metadata").path("name").asString()).toList();
  }
}
