package dev.benchplan.run;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.InputErrors;
import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.render.JobContract;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.node.ObjectNode;

/**
 * A rendered {@code DEPLOY_ROOT/benchmark/perf.yaml}, checked against the render contract and read
 * into fabric8's typed {@link ConfigMap}s and {@link Job}: ConfigMap documents first, then exactly
 * one batch/v1 Job (last); every object labelled {@code app.kubernetes.io/managed-by: benchplan},
 * {@code benchplan.dev/series}, {@code benchplan.dev/plan-sha256} (12 hex) and {@code
 * benchplan.dev/run-id}; the Job annotated with plan-path, plan-sha256, endpoint, aiperf-version,
 * dgd and artifacts; a container named {@code aiperf} and a volume named {@code artifacts}.
 *
 * @param file the perf.yaml read
 * @param sha256 its SHA-256
 * @param configMaps the ConfigMaps, in file order (fabric8 objects are mutable: copy to change)
 * @param job the Job (copy to change)
 */
public record PerfYaml(Path file, String sha256, List<ConfigMap> configMaps, Job job) {
  static final Pattern RUN_ID_PATTERN = Pattern.compile("\\d{8}T\\d{6}Z-[0-9a-f]{4}");
  private static final Pattern DNS1123 = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  /** A required label or annotation and the values it takes. */
  private record Rule(String key, Pattern valid, String expected) {}

  private static final List<Rule> LABELS =
      List.of(
          new Rule(
              JobContract.MANAGED_BY,
              Pattern.compile(Pattern.quote(JobContract.MANAGED_BY_VALUE)),
              "expected '" + JobContract.MANAGED_BY_VALUE + "'"),
          new Rule(JobContract.SERIES, Pattern.compile(".+"), "expected the series id"),
          new Rule(
              JobContract.PLAN_SHA256,
              Pattern.compile("[0-9a-f]{12}"),
              "expected the first 12 hex characters of the plan SHA-256"),
          new Rule(
              JobContract.RUN_ID, RUN_ID_PATTERN, "expected a run-id YYYYMMDDTHHMMSSZ-<4 hex>"));

  private static final List<Rule> ANNOTATIONS =
      List.of(
          new Rule(
              JobContract.PLAN_PATH,
              Pattern.compile("[^\\\\]*[^\\\\\\s][^\\\\]*"),
              "expected the plan's path relative to DEPLOY_ROOT (written with '/') or an absolute"
                  + " path"),
          new Rule(
              JobContract.PLAN_SHA256,
              Pattern.compile("[0-9a-f]{64}"),
              "expected 64 lowercase hex characters"),
          new Rule(JobContract.ENDPOINT, Pattern.compile("https?://.*"), "expected an http(s) URL"),
          new Rule(JobContract.AIPERF_VERSION, Pattern.compile(".+"), "expected AIPerf's version"),
          new Rule(
              JobContract.DGD,
              Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?/[a-z0-9]([-a-z0-9.]*[a-z0-9])?"),
              "expected <namespace>/<dgd-name>"),
          new Rule(
              JobContract.ARTIFACTS,
              Pattern.compile("emptyDir|pvc:[a-z0-9]([-a-z0-9.]*[a-z0-9])?(/[^\\s]+)?"),
              "expected emptyDir or pvc:CLAIM[/SUBPATH]"));

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
    List<ConfigMap> configMaps = new ArrayList<>();
    Job job = null;
    ObjectMeta first = null;
    String namespace = null;
    for (int i = 0; i < docs.size(); i++) {
      ObjectNode d = docs.get(i);
      String kind = d.path("kind").asString("");
      String apiVersion = d.path("apiVersion").asString("");
      String where =
          file
              + ": document "
              + (i + 1)
              + " ("
              + (kind.isEmpty() ? "?" : kind)
              + " "
              + d.path("metadata").path("name").asString("")
              + ")";
      boolean isJob = kind.equals("Job");
      if (!isJob && !kind.equals("ConfigMap")) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, "/kind"),
            where + ": /kind: expected ConfigMap or Job, got '" + kind + "'");
      }
      String wantedVersion = isJob ? "batch/v1" : "v1";
      if (!apiVersion.equals(wantedVersion)) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, "/apiVersion"),
            where + ": /apiVersion: expected " + wantedVersion + ", got '" + apiVersion + "'");
      }
      if (isJob && i != docs.size() - 1) {
        throw BenchplanException.invalid(
            ErrorLocation.file(file),
            where + ": the Job must be the last document (exactly one Job, after the ConfigMaps)");
      }
      // the tree is checked where binding would coerce or fail: a label's type, the deadline's
      requireStrings(d.path("metadata").path("labels"), "/metadata/labels/", file, where);
      requireStrings(d.path("metadata").path("annotations"), "/metadata/annotations/", file, where);
      JsonNode deadline = d.path("spec").get("activeDeadlineSeconds");
      if (isJob
          && deadline != null
          && !deadline.isNull()
          && (!deadline.isIntegralNumber() || deadline.asLong() <= 0)) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, "/spec/activeDeadlineSeconds"),
            where + ": /spec/activeDeadlineSeconds: expected a positive integer");
      }
      HasMetadata object =
          isJob ? bind(d, Job.class, file, where) : bind(d, ConfigMap.class, file, where);
      ObjectMeta meta = object.getMetadata() == null ? new ObjectMeta() : object.getMetadata();
      String name = meta.getName() == null ? "" : meta.getName();
      if (!DNS1123_SUBDOMAIN.matcher(name).matches() || name.length() > (isJob ? 63 : 253)) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, "/metadata/name"),
            where
                + ": /metadata/name: expected a DNS-1123 name"
                + (isJob ? " of at most 63 characters" : "")
                + ", got '"
                + name
                + "'");
      }
      require(LABELS, meta.getLabels(), "/metadata/labels/", "label", file, where);
      if (first != null
          && (!label(first, JobContract.RUN_ID).equals(label(meta, JobContract.RUN_ID))
              || !label(first, JobContract.SERIES).equals(label(meta, JobContract.SERIES)))) {
        throw BenchplanException.invalid(
            ErrorLocation.file(file),
            where
                + ": run-id/series labels differ from the first document's ("
                + label(first, JobContract.RUN_ID)
                + ", "
                + label(first, JobContract.SERIES)
                + ")");
      }
      first = first == null ? meta : first;
      String ns = meta.getNamespace();
      if (ns != null && namespace != null && !ns.equals(namespace)) {
        throw BenchplanException.invalid(
            ErrorLocation.file(file),
            file + ": objects name different namespaces (" + namespace + ", " + ns + ")");
      }
      namespace = ns == null ? namespace : ns;
      if (object instanceof Job j) {
        require(
            ANNOTATIONS,
            meta.getAnnotations(),
            "/metadata/annotations/",
            "annotation",
            file,
            where);
        checkJob(j, file, where);
        job = j;
      } else {
        configMaps.add((ConfigMap) object);
      }
    }
    if (job == null) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          file + ": no batch/v1 Job: expected exactly one, as the last document");
    }
    if (namespace != null && !DNS1123.matcher(namespace).matches()) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, "/metadata/namespace"),
          file + ": /metadata/namespace: expected a DNS-1123 label, got '" + namespace + "'");
    }
    return new PerfYaml(file, sha, configMaps, job);
  }

  /** The plan label starts the plan annotation; the AIPerf container and artifacts volume exist. */
  private static void checkJob(Job job, Path file, String where) {
    String shaLabel = label(job.getMetadata(), JobContract.PLAN_SHA256);
    String planSha =
        Objects.requireNonNull(job.getMetadata().getAnnotations().get(JobContract.PLAN_SHA256));
    if (!planSha.startsWith(shaLabel)) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, pointer("/metadata/labels/", JobContract.PLAN_SHA256)),
          where
              + ": "
              + pointer("/metadata/labels/", JobContract.PLAN_SHA256)
              + " '"
              + shaLabel
              + "' is not the start of "
              + pointer("/metadata/annotations/", JobContract.PLAN_SHA256)
              + " '"
              + planSha
              + "'");
    }
    PodSpec pod =
        job.getSpec() == null || job.getSpec().getTemplate() == null
            ? null
            : job.getSpec().getTemplate().getSpec();
    if (pod == null
        || pod.getContainers() == null
        || pod.getContainers().stream().noneMatch(c -> JobContract.CONTAINER.equals(c.getName()))) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, "/spec/template/spec/containers"),
          where
              + ": /spec/template/spec/containers: expected a container named '"
              + JobContract.CONTAINER
              + "'");
    }
    if (pod.getVolumes() == null
        || pod.getVolumes().stream()
            .noneMatch(v -> JobContract.ARTIFACTS_VOLUME.equals(v.getName()))) {
      throw BenchplanException.invalid(
          ErrorLocation.pointer(file, "/spec/template/spec/volumes"),
          where + ": /spec/template/spec/volumes: expected a volume named 'artifacts'");
    }
  }

  /** A document as fabric8's typed object (its own model, as the client sends it). */
  private static <T extends HasMetadata> T bind(
      ObjectNode doc, Class<T> type, Path file, String where) {
    try {
      return Json.JSON.treeToValue(doc, type);
    } catch (JacksonException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file),
          where + ": not a " + type.getSimpleName() + ": " + e.getOriginalMessage(),
          e);
    }
  }

  /** Each rule's key present, non-blank and matching, else invalid at its pointer. */
  private static void require(
      List<Rule> rules,
      @Nullable Map<String, String> values,
      String prefix,
      String what,
      Path file,
      String where) {
    for (Rule r : rules) {
      String v = values == null ? null : values.get(r.key());
      String at = pointer(prefix, r.key());
      if (v == null || v.isBlank()) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, at), where + ": " + at + ": required " + what + " missing");
      }
      if (!r.valid().matcher(v).matches()) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, at),
            where + ": " + at + ": " + r.expected() + ", got '" + v + "'");
      }
    }
  }

  /**
   * Kubernetes takes only strings as label and annotation values: YAML must quote numeric-looking
   * ones.
   */
  private static void requireStrings(JsonNode map, String prefix, Path file, String where) {
    for (String key : map.propertyNames()) {
      JsonNode v = map.get(key);
      if (!v.isNull() && !v.isString()) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(file, pointer(prefix, key)),
            where
                + ": "
                + pointer(prefix, key)
                + ": expected a string, got the "
                + v.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)
                + " "
                + v
                + " (quote it in YAML)");
      }
    }
  }

  private static String pointer(String prefix, String key) {
    return prefix + key.replace("~", "~0").replace("/", "~1");
  }

  private static String label(ObjectMeta meta, String key) {
    return Objects.requireNonNull(meta.getLabels().get(key), key); // checked by LABELS
  }

  /** The Job's name. */
  public String jobName() {
    return job.getMetadata().getName();
  }

  /** The run-id label. */
  public String runId() {
    return label(job.getMetadata(), JobContract.RUN_ID);
  }

  /** The series label. */
  public String series() {
    return label(job.getMetadata(), JobContract.SERIES);
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

  /** A Job annotation read() requires (plan-path, plan-sha256, endpoint, aiperf-version, ...). */
  public String annotation(String key) {
    return Objects.requireNonNull(
        optionalAnnotation(key), () -> key + ": not a checked annotation");
  }

  /** A Job annotation render writes only sometimes (ledger, pair, measured runs), or null. */
  public @Nullable String optionalAnnotation(String key) {
    Map<String, String> a = job.getMetadata().getAnnotations();
    return a == null ? null : a.get(key);
  }

  /** The namespace the manifest names, or null. */
  public @Nullable String namespace() {
    String n = job.getMetadata().getNamespace();
    if (n != null) {
      return n;
    }
    return configMaps.stream()
        .map(c -> c.getMetadata().getNamespace())
        .filter(Objects::nonNull)
        .findFirst()
        .orElse(null);
  }

  /** The Job's activeDeadlineSeconds, or null. */
  public @Nullable Long activeDeadlineSeconds() {
    return job.getSpec() == null ? null : job.getSpec().getActiveDeadlineSeconds();
  }

  /** The AIPerf container's image. */
  public String image() {
    // read() has checked that the Job has the AIPerf container
    return job.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> JobContract.CONTAINER.equals(c.getName()))
        .findFirst()
        .orElseThrow()
        .getImage();
  }

  /** The ConfigMaps' names. */
  public List<String> configMapNames() {
    return configMaps.stream().map(c -> c.getMetadata().getName()).toList();
  }
}
