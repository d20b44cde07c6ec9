package dev.benchplan.aiperf.version;

import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import dev.benchplan.rules.BlockerCode;
import dev.benchplan.rules.RuleFile;
import dev.benchplan.rules.RuleLog;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Resolves the AIPerf version of a new series (agent-docs/rules/benchmarking/tool-version.md): an
 * operator pin wins; else the pin of a reference recipe being reproduced; else the latest release
 * of project {@code aiperf} in the package index's JSON API that is not a pre-release, dev release
 * or yanked. No pin and no reachable index is a blocker: a version is never taken from memory.
 */
public final class AiperfVersionResolver {
  /** The image repository AIPerf releases are published to. */
  public static final String IMAGE_REPOSITORY = "nvcr.io/nvidia/ai-dynamo/aiperf";

  /**
   * Environment variable naming the index JSON document when {@code --aiperf-index-url} is absent.
   */
  public static final String INDEX_URL_ENV = "BENCHPLAN_AIPERF_INDEX_URL";

  private static final RuleFile RULE = RuleFile.TOOL_VERSION;

  private final IndexFetcher fetcher;
  private final Clock clock;

  public AiperfVersionResolver(IndexFetcher fetcher, Clock clock) {
    this.fetcher = fetcher;
    this.clock = clock;
  }

  /**
   * Resolves; logs the decision, or blockers: AIPERF_VERSION_INVALID, AIPERF_VERSION_UNRESOLVED,
   * AIPERF_INDEX_UNAVAILABLE, AIPERF_INDEX_INVALID, AIPERF_NO_STABLE_RELEASE,
   * AIPERF_RECIPE_UNREADABLE, AIPERF_RECIPE_NO_PIN, AIPERF_RECIPE_AMBIGUOUS,
   * AIPERF_RECIPE_COMMIT_ONLY, AIPERF_IMAGE_UNPINNED.
   */
  public Optional<VersionResolution> resolve(VersionRequest request, RuleLog log) {
    String date = Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
    if (request.image() != null && !imagePinned(request.image())) {
      log.block(
          BlockerCode.AIPERF_IMAGE_UNPINNED,
          "--aiperf-image '"
              + request.image()
              + "': expected an image pinned by tag or digest (never :latest), e.g. "
              + IMAGE_REPOSITORY
              + ":<version>");
      return Optional.empty();
    }
    Recipe recipe =
        request.referenceRecipe() == null ? null : readRecipe(request.referenceRecipe(), log);
    if (request.referenceRecipe() != null && recipe == null) {
      return Optional.empty();
    }
    if (request.pinnedVersion() != null) {
      return operatorPin(request, recipe, date, log);
    }
    if (recipe != null) {
      return referenceRecipe(request, recipe, date, log);
    }
    return packageIndex(request, date, log);
  }

  private Optional<VersionResolution> operatorPin(
      VersionRequest request, @Nullable Recipe recipe, String date, RuleLog log) {
    String pinned = request.pinnedVersion();
    AiperfVersion v = pinned == null ? null : AiperfVersion.tryParse(pinned);
    if (v == null || !AiperfVersion.isPlanForm(v.normalized())) {
      log.block(
          BlockerCode.AIPERF_VERSION_INVALID,
          "--aiperf-version '"
              + request.pinnedVersion()
              + "': expected a release version X.Y.Z (optionally .postN, aN, bN or rcN)");
      return Optional.empty();
    }
    String version = v.normalized();
    String note =
        "operator pin --aiperf-version "
            + request.pinnedVersion()
            + " (wins over any"
            + " other mechanism)";
    if (!v.isStable()) {
      log.warn(RULE, "the operator pinned AIPerf " + version + ", a pre-release");
    }
    if (recipe != null && !recipe.pin().versions().contains(version)) {
      log.warn(
          RULE,
          "the operator pin "
              + version
              + " differs from the reference recipe's pin "
              + recipe.pin().versions()
              + " ("
              + recipe.path()
              + "); the pin wins");
    }
    log.decide(RULE, "aiperf.version = " + version + " (operator_pin)", note);
    return Optional.of(
        new VersionResolution(
            version,
            image(request, version),
            "operator_pin",
            null,
            null,
            List.of(),
            List.of(),
            date,
            recipe == null ? null : firstCommit(recipe),
            note));
  }

  private Optional<VersionResolution> referenceRecipe(
      VersionRequest request, Recipe recipe, String date, RuleLog log) {
    ReferenceRecipePin pin = recipe.pin();
    if (pin.versions().size() > 1) {
      log.block(
          BlockerCode.AIPERF_RECIPE_AMBIGUOUS,
          "reference recipe "
              + recipe.path()
              + ": pins several AIPerf versions "
              + pin.versions()
              + "; pass --aiperf-version");
      return Optional.empty();
    }
    if (pin.versions().isEmpty()) {
      if (!pin.commits().isEmpty()) {
        log.block(
            BlockerCode.AIPERF_RECIPE_COMMIT_ONLY,
            "reference recipe "
                + recipe.path()
                + ": pins AIPerf by source commit "
                + pin.commits()
                + ", not by release; pass"
                + " --aiperf-version with the release that contains it (the commit is recorded)");
      } else {
        log.block(
            BlockerCode.AIPERF_RECIPE_NO_PIN,
            "reference recipe "
                + recipe.path()
                + ": no AIPerf pin found (expected aiperf==X.Y.Z, an ai-dynamo/aiperf:X.Y.Z image or"
                + " aiperf.git@<commit>)");
      }
      return Optional.empty();
    }
    String listed = pin.versions().get(0);
    AiperfVersion v = AiperfVersion.tryParse(listed);
    if (v == null || !AiperfVersion.isPlanForm(v.normalized())) {
      log.block(
          BlockerCode.AIPERF_VERSION_INVALID,
          "reference recipe "
              + recipe.path()
              + ": pins AIPerf '"
              + listed
              + "', expected a release version X.Y.Z");
      return Optional.empty();
    }
    String version = v.normalized();
    String note = "reproducing reference recipe " + recipe.path() + ", which pins aiperf " + listed;
    log.decide(RULE, "aiperf.version = " + version + " (reference_recipe)", note);
    return Optional.of(
        new VersionResolution(
            version,
            image(request, version),
            "reference_recipe",
            recipe.path().toString(),
            recipe.sha256(),
            pin.versions(),
            List.of(),
            date,
            firstCommit(recipe),
            note));
  }

  private Optional<VersionResolution> packageIndex(
      VersionRequest request, String date, RuleLog log) {
    URI url = request.indexUrl();
    if (url == null) {
      log.block(
          BlockerCode.AIPERF_VERSION_UNRESOLVED,
          "no AIPerf version: pass --aiperf-version X.Y.Z"
              + " (operator pin), --reference-recipe PERF_YAML, or --aiperf-index-url URL (the package"
              + " index's JSON document for project aiperf; or set "
              + INDEX_URL_ENV
              + ");"
              + " a version is never taken from memory");
      return Optional.empty();
    }
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      log.block(
          BlockerCode.AIPERF_INDEX_INVALID,
          "--aiperf-index-url '" + url + "': expected an http or https URL");
      return Optional.empty();
    }
    IndexFetcher.Response response;
    try {
      response = fetcher.fetch(url);
    } catch (IOException | RuntimeException e) {
      log.block(
          BlockerCode.AIPERF_INDEX_UNAVAILABLE,
          "package index "
              + url
              + ": cannot fetch ("
              + describe(e)
              + "); without a reachable index, pin the version with --aiperf-version"
              + " X.Y.Z");
      return Optional.empty();
    }
    if (response.status() != 200) {
      log.block(
          BlockerCode.AIPERF_INDEX_UNAVAILABLE,
          "package index "
              + url
              + ": HTTP "
              + response.status()
              + "; pin the version with --aiperf-version X.Y.Z");
      return Optional.empty();
    }
    byte[] body = response.body();
    PackageIndexListing listing;
    try {
      JsonNode doc = Json.JSON.readTree(body);
      String name = doc.at("/info/name").isString() ? doc.at("/info/name").asString() : null;
      if (name != null
          && !name.toLowerCase(Locale.ROOT).replaceAll("[-_.]+", "-").equals("aiperf")) {
        log.block(
            BlockerCode.AIPERF_INDEX_INVALID,
            "package index "
                + url
                + " /info/name: '"
                + name
                + "', expected the document of project aiperf");
        return Optional.empty();
      }
      listing = PackageIndexListing.parse(doc);
    } catch (JacksonException | IllegalArgumentException e) {
      log.block(
          BlockerCode.AIPERF_INDEX_INVALID,
          "package index "
              + url
              + ": not the JSON API"
              + " document of a project ("
              + (e instanceof JacksonException j
                  ? "invalid JSON at line "
                      + (j.getLocation() == null ? "?" : j.getLocation().getLineNr())
                  : e.getMessage())
              + ")");
      return Optional.empty();
    }
    List<VersionResolution.Excluded> excluded = new ArrayList<>();
    for (PackageIndexListing.Release r : listing.releases()) {
      if (r.exclusion() != null) {
        excluded.add(new VersionResolution.Excluded(r.version(), r.exclusion()));
      }
    }
    Optional<PackageIndexListing.Release> latest = listing.latestStable();
    if (latest.isEmpty()) {
      log.block(
          BlockerCode.AIPERF_NO_STABLE_RELEASE,
          "package index "
              + url
              + ": none of the "
              + listing.releases().size()
              + " listed versions is a stable, non-yanked release; pin the"
              + " version with --aiperf-version X.Y.Z");
      return Optional.empty();
    }
    // a stable release has a parsed version (exclusion() is null only then)
    String version = Objects.requireNonNull(latest.get().parsed(), "parsed").normalized();
    if (!AiperfVersion.isPlanForm(version)) {
      log.block(
          BlockerCode.AIPERF_VERSION_INVALID,
          "package index "
              + url
              + ": the latest stable"
              + " release '"
              + latest.get().version()
              + "' is not of the form X.Y.Z; pin the version"
              + " with --aiperf-version");
      return Optional.empty();
    }
    String note =
        "latest stable release of "
            + listing.releases().size()
            + " listed by the"
            + " package index JSON API (pre-releases, dev releases and yanked releases skipped)";
    log.decide(
        RULE,
        "aiperf.version = " + version + " (package_index)",
        note + "; queried " + url + " at " + date);
    return Optional.of(
        new VersionResolution(
            version,
            image(request, version),
            "package_index",
            url.toString(),
            Sha256.hex(body),
            listing.versions(),
            excluded,
            date,
            null,
            note));
  }

  private record Recipe(Path path, String sha256, ReferenceRecipePin pin) {}

  private @Nullable Recipe readRecipe(Path file, RuleLog log) {
    Path abs = file.toAbsolutePath().normalize();
    try {
      byte[] bytes = Files.readAllBytes(abs);
      return new Recipe(
          abs,
          Sha256.hex(bytes),
          ReferenceRecipePin.find(new String(bytes, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      log.block(
          BlockerCode.AIPERF_RECIPE_UNREADABLE,
          "--reference-recipe " + abs + ": cannot read (" + describe(e) + ")");
      return null;
    }
  }

  private static @Nullable String firstCommit(Recipe recipe) {
    return recipe.pin().commits().isEmpty() ? null : recipe.pin().commits().get(0);
  }

  private static String image(VersionRequest request, String version) {
    return request.image() != null ? request.image() : IMAGE_REPOSITORY + ":" + version;
  }

  /** True when the image names a tag other than latest, or a digest. */
  static boolean imagePinned(String image) {
    if (image.contains("@sha256:")) {
      return true;
    }
    int slash = image.lastIndexOf('/');
    int colon = image.lastIndexOf(':');
    return colon > slash
        && colon < image.length() - 1
        && !image.substring(colon + 1).equals("latest");
  }

  private static String describe(Exception e) {
    String name = e.getClass().getSimpleName();
    return e.getMessage() == null ? name : name + ": " + e.getMessage();
  }
}
