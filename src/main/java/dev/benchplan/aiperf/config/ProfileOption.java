package dev.benchplan.aiperf.config;

import dev.benchplan.aiperf.version.AiperfVersion;
import java.util.List;
import java.util.Optional;

/**
 * The {@code aiperf profile} flags benchplan renders, with the name each release accepts: the
 * per-version flag table. A flag absent from a release has no name there, and a rendering that
 * needs it is refused rather than sent to an AIPerf that would reject it.
 *
 * <p>Sources: ../shared/reference/aiperf.md (flag list, {@code --goodput} from 0.2.0, {@code
 * --export-level} from 0.3.0, the rename {@code --request-rate-mode} -> {@code --arrival-pattern});
 * AIPerf's CLI reference for the 0.8.0 docs lists {@code --arrival-pattern} with {@code
 * --request-rate-mode} as its alias, so the new name is rendered from 0.8.0 and the old one (still
 * accepted later) before it. {@code --benchmark-duration} and {@code --benchmark-grace-period}
 * merged before 0.1.1 (AIPerf PRs 240 and 255, 2025-09).
 */
public enum ProfileOption {
  MODEL(named("0.1.1", "--model")),
  URL(named("0.1.1", "--url")),
  ENDPOINT_TYPE(named("0.1.1", "--endpoint-type")),
  ENDPOINT_PATH(named("0.1.1", "--endpoint")),
  STREAMING(named("0.1.1", "--streaming")),
  TOKENIZER(named("0.1.1", "--tokenizer")),
  CONCURRENCY(named("0.1.1", "--concurrency")),
  REQUEST_RATE(named("0.1.1", "--request-rate")),
  ARRIVAL_PATTERN(named("0.1.1", "--request-rate-mode"), named("0.8.0", "--arrival-pattern")),
  REQUEST_COUNT(named("0.1.1", "--request-count")),
  BENCHMARK_DURATION(named("0.1.1", "--benchmark-duration")),
  BENCHMARK_GRACE_PERIOD(named("0.1.1", "--benchmark-grace-period")),
  WARMUP_REQUEST_COUNT(named("0.1.1", "--warmup-request-count")),
  ISL_MEAN(named("0.1.1", "--synthetic-input-tokens-mean")),
  ISL_STDDEV(named("0.1.1", "--synthetic-input-tokens-stddev")),
  OSL_MEAN(named("0.1.1", "--output-tokens-mean")),
  OSL_STDDEV(named("0.1.1", "--output-tokens-stddev")),
  NUM_DATASET_ENTRIES(named("0.1.1", "--num-dataset-entries")),
  RANDOM_SEED(named("0.1.1", "--random-seed")),
  INPUT_FILE(named("0.1.1", "--input-file")),
  CUSTOM_DATASET_TYPE(named("0.1.1", "--custom-dataset-type")),
  FIXED_SCHEDULE(named("0.1.1", "--fixed-schedule")),
  FIXED_SCHEDULE_AUTO_OFFSET(named("0.1.1", "--fixed-schedule-auto-offset")),
  FIXED_SCHEDULE_START_OFFSET(named("0.1.1", "--fixed-schedule-start-offset")),
  FIXED_SCHEDULE_END_OFFSET(named("0.1.1", "--fixed-schedule-end-offset")),
  GOODPUT(named("0.2.0", "--goodput")),
  ARTIFACT_DIR(named("0.1.1", "--artifact-dir")),
  EXPORT_LEVEL(named("0.3.0", "--export-level")),
  UI(named("0.1.1", "--ui")),
  REQUEST_TIMEOUT(named("0.1.1", "--request-timeout-seconds")),
  EXTRA_INPUTS(named("0.1.1", "--extra-inputs"));

  /**
   * Up to 0.7 a request count and a benchmark duration are mutually exclusive (aiperf.md); from
   * 0.8.0 both may bound one run, whichever is reached first.
   */
  public static final AiperfVersion COUNT_WITH_DURATION = AiperfVersion.of(0, 8, 0);

  /** One name, valid from {@code since} until the next entry's {@code since}. */
  record Naming(AiperfVersion since, String flag) {}

  @SuppressWarnings("ImmutableEnumChecker") // List.of: unmodifiable
  private final List<Naming> names;

  ProfileOption(Naming... names) {
    this.names = List.of(names);
  }

  private static Naming named(String since, String flag) {
    return new Naming(AiperfVersion.parse(since, "flag table"), flag);
  }

  /** The flag this release accepts for the option, or empty when the release lacks it. */
  public Optional<String> flagIn(AiperfVersion release) {
    String found = null;
    for (Naming n : names) {
      if (release.compareTo(n.since()) >= 0) {
        found = n.flag();
      }
    }
    return Optional.ofNullable(found);
  }

  /** The first release that has the option. */
  public AiperfVersion since() {
    return names.get(0).since();
  }

  /** True when {@code flag} is the name of some option in {@code release} (the table check). */
  public static boolean isValidFlag(String flag, AiperfVersion release) {
    for (ProfileOption o : values()) {
      if (o.flagIn(release).filter(flag::equals).isPresent()) {
        return true;
      }
    }
    return false;
  }
}
