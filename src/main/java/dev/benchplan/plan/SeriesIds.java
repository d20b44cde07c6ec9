package dev.benchplan.plan;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Pattern;

/** Series IDs: filesystem-safe, at most 80 characters, {@code [a-z0-9][a-z0-9._-]{0,79}}. */
public final class SeriesIds {
  /** What a series ID must match. */
  public static final Pattern PATTERN = Pattern.compile("[a-z0-9][a-z0-9._-]{0,79}");

  private static final int MAX_SLUG = 80 - 1 - 8 - 1 - 8;

  private SeriesIds() {}

  public static boolean valid(String id) {
    return id != null && PATTERN.matcher(id).matches();
  }

  /**
   * The default ID: {@code <profile-slug>-<yyyymmdd>-<first 8 hex of the identity hash>}, so equal
   * requests on one day name the same series (and the second finds it exists).
   */
  public static String derive(String profileName, LocalDate date, String identitySha256) {
    String slug =
        profileName
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9._-]+", "-")
            .replaceAll("-{2,}", "-")
            .replaceAll("^[^a-z0-9]+", "")
            .replaceAll("[-._]+$", "");
    if (slug.length() > MAX_SLUG) {
      slug = slug.substring(0, MAX_SLUG).replaceAll("[-._]+$", "");
    }
    if (slug.isEmpty()) {
      slug = "series";
    }
    return slug
        + "-"
        + date.format(DateTimeFormatter.BASIC_ISO_DATE)
        + "-"
        + identitySha256.substring(0, 8);
  }
}
