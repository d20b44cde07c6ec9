package dev.benchplan.aiperf.config;

import dev.benchplan.aiperf.version.AiperfVersion;
import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Renders {@link AiperfSettings} as {@code aiperf profile} flags valid for one release, using the
 * names of {@link ProfileOption}. A setting the release cannot express is a blocker (exit 2),
 * except where a weaker form keeps the measurement valid; those cases are returned as notes.
 */
public final class ProfileFlags {
  private ProfileFlags() {}

  /**
   * The flags for {@code release}.
   *
   * @param source names the plan in error messages (e.g. its path)
   */
  public static FlagRendering render(AiperfSettings s, AiperfVersion release, String source) {
    Builder b = new Builder(release, source);
    List<String> notes = new ArrayList<>();
    b.add(ProfileOption.MODEL, s.model());
    b.add(ProfileOption.URL, s.endpoint().url());
    b.add(ProfileOption.ENDPOINT_TYPE, s.endpoint().type().name());
    b.add(ProfileOption.ENDPOINT_PATH, s.endpoint().path());
    if (s.endpoint().streaming()) {
      b.add(ProfileOption.STREAMING);
    }
    b.add(ProfileOption.TOKENIZER, s.tokenizer());
    b.add(ProfileOption.REQUEST_TIMEOUT, Integer.toString(s.endpoint().timeoutSeconds()));

    if (s.dataset() instanceof Dataset.Synthetic syn) {
      b.add(ProfileOption.ISL_MEAN, Integer.toString(syn.islMean()));
      b.add(ProfileOption.ISL_STDDEV, Integer.toString(syn.islStddev()));
      b.add(ProfileOption.OSL_MEAN, Integer.toString(syn.oslMean()));
      b.add(ProfileOption.OSL_STDDEV, Integer.toString(syn.oslStddev()));
      b.add(ProfileOption.NUM_DATASET_ENTRIES, Long.toString(syn.entries()));
    } else if (s.dataset() instanceof Dataset.MooncakeTrace trace) {
      b.add(ProfileOption.INPUT_FILE, trace.path());
      b.add(ProfileOption.CUSTOM_DATASET_TYPE, "mooncake_trace");
    }
    if (s.ignoreEos()) {
      b.add(ProfileOption.EXTRA_INPUTS, "ignore_eos:true");
    }
    if (s.temperature() != null) {
      b.add(ProfileOption.EXTRA_INPUTS, "temperature:" + s.temperature().toPlainString());
    }

    Phase p = s.profiling();
    switch (p.type()) {
      case CONCURRENCY ->
          b.add(
              ProfileOption.CONCURRENCY,
              Integer.toString(
                  Objects.requireNonNull(p.concurrency(), "concurrency of a concurrency phase")));
      case POISSON, CONSTANT -> {
        b.add(
            ProfileOption.REQUEST_RATE,
            plain(Objects.requireNonNull(p.rate(), "rate of a rate phase")));
        b.add(ProfileOption.ARRIVAL_PATTERN, p.type().configName());
      }
      case FIXED_SCHEDULE -> {
        b.add(ProfileOption.FIXED_SCHEDULE);
        if (p.window() == null) {
          b.add(ProfileOption.FIXED_SCHEDULE_AUTO_OFFSET);
        } else {
          b.add(ProfileOption.FIXED_SCHEDULE_START_OFFSET, Long.toString(p.window().startMs()));
          b.add(ProfileOption.FIXED_SCHEDULE_END_OFFSET, Long.toString(p.window().endMs()));
        }
      }
    }
    Integer duration = p.durationSeconds();
    if (p.requests() != null
        && duration != null
        && release.compareTo(ProfileOption.COUNT_WITH_DURATION) < 0) {
      notes.add(
          "AIPerf "
              + release
              + " refuses --request-count together with --benchmark-duration (allowed from "
              + ProfileOption.COUNT_WITH_DURATION
              + "): the run is bounded by its request count ("
              + p.requests()
              + "); the "
              + duration
              + " s time bound is enforced only by the Job's activeDeadlineSeconds");
      duration = null;
    }
    if (p.requests() != null) {
      b.add(ProfileOption.REQUEST_COUNT, Long.toString(p.requests()));
    }
    if (duration != null) {
      b.add(ProfileOption.BENCHMARK_DURATION, Integer.toString(duration));
      if (p.gracePeriodSeconds() != null) {
        b.add(ProfileOption.BENCHMARK_GRACE_PERIOD, Integer.toString(p.gracePeriodSeconds()));
      }
    }

    Phase w = s.warmup();
    if (w != null) {
      if (w.requests() == null) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(source, "/experiment/warmup_requests"),
            source
                + ": a warmup bounded only by time cannot be rendered as flags for AIPerf "
                + release
                + ": expected /experiment/warmup_requests >= 1");
      }
      b.add(ProfileOption.WARMUP_REQUEST_COUNT, Long.toString(w.requests()));
      notes.add(
          "warmup: "
              + w.requests()
              + " requests at the load AIPerf "
              + release
              + " picks for its warmup (flags cannot set a separate warmup load or time bound)");
    }

    if (!s.slos().isEmpty()) {
      if (ProfileOption.GOODPUT.flagIn(release).isEmpty()) {
        throw BenchplanException.invalid(
            ErrorLocation.pointer(source, "/objectives/goodput"),
            source
                + ": /objectives/goodput: AIPerf "
                + release
                + " has no --goodput (it appeared in "
                + ProfileOption.GOODPUT.since()
                + "): expected no goodput SLOs, or an AIPerf pin >= "
                + ProfileOption.GOODPUT.since());
      }
      StringBuilder goodput = new StringBuilder();
      for (Map.Entry<String, BigDecimal> e : s.slos().entrySet()) {
        if (goodput.length() > 0) {
          goodput.append(' ');
        }
        goodput.append(e.getKey()).append(':').append(plain(e.getValue()));
      }
      b.add(ProfileOption.GOODPUT, goodput.toString());
    }
    b.add(ProfileOption.RANDOM_SEED, Long.toString(s.randomSeed()));
    b.add(ProfileOption.ARTIFACT_DIR, s.artifactDir());
    if (ProfileOption.EXPORT_LEVEL.flagIn(release).isPresent()) {
      b.add(ProfileOption.EXPORT_LEVEL, "records");
    } else {
      notes.add("AIPerf " + release + " has no --export-level: it writes its default export files");
    }
    b.add(ProfileOption.UI, "none");
    return new FlagRendering(release, b.args, notes);
  }

  /** A number without exponent or trailing zeros: 2.50 -> 2.5, 4.0 -> 4. */
  static String plain(BigDecimal value) {
    BigDecimal v = value.stripTrailingZeros();
    if (v.scale() < 0) {
      v = v.setScale(0);
    }
    return v.toPlainString();
  }

  private static final class Builder {
    private final AiperfVersion release;
    private final String source;
    private final List<String> args = new ArrayList<>();

    Builder(AiperfVersion release, String source) {
      this.release = release;
      this.source = source;
    }

    void add(ProfileOption option, String... values) {
      String flag =
          option
              .flagIn(release)
              .orElseThrow(
                  () ->
                      BenchplanException.invalid(
                          ErrorLocation.file(source),
                          source
                              + ": AIPerf "
                              + release
                              + " has no flag for "
                              + option
                              + " (first in "
                              + option.since()
                              + "): expected an AIPerf pin that supports it"));
      args.add(flag);
      args.addAll(List.of(values));
    }
  }
}
