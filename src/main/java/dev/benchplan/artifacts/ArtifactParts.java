package dev.benchplan.artifacts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The artifact block of a tree larger than one pod log, in parts: each collector pod prints the
 * chunks from its first one on and ends with the block's end line (the last part) or with {@code
 * ==== benchplan:artifacts:part-end next=<seq> ====} (see {@code ship-artifacts.py}). The parts,
 * part-end lines dropped, concatenate to the one block {@link ArtifactChannel#decode} verifies; a
 * part whose log does not end with one of the two lines was cut and is refused here.
 */
public final class ArtifactParts {
  /** The part-end line's prefix. */
  public static final String PART_END_PREFIX = "==== benchplan:artifacts:part-end next=";

  private static final Pattern PART_END =
      Pattern.compile(Pattern.quote(PART_END_PREFIX) + "(\\d{1,10}) ====");

  private ArtifactParts() {}

  /**
   * How a part ended.
   *
   * @param last true when the part carried the block's end line
   * @param next the first chunk of the next part (when not last)
   * @param chunks chunk lines in this part
   */
  public record Part(boolean last, long next, long chunks) {}

  /**
   * Checks the log of the part that starts at chunk {@code first} and appends its block lines to
   * {@code out}.
   *
   * @param what names the log in messages (e.g. {@code collector pod ns/name log})
   * @throws ArtifactChannelException when the log is cut or does not continue at {@code first}
   */
  public static Part append(String log, long first, Writer out, String what) {
    List<String> lines = new ArrayList<>(log.lines().toList());
    while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
      lines.remove(lines.size() - 1);
    }
    String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    Matcher m = PART_END.matcher(last);
    boolean end = last.startsWith(ArtifactChannel.END_PREFIX);
    if (!end && !m.matches()) {
      throw new ArtifactChannelException(
          what
              + ": the part from chunk "
              + first
              + " is cut (its last line is '"
              + abbreviate(last)
              + "', expected the end line or '"
              + PART_END_PREFIX
              + "<seq> ===='): the log is truncated");
    }
    if (first == 0 && lines.stream().noneMatch(l -> l.equals(ArtifactChannel.BEGIN))) {
      throw new ArtifactChannelException(
          what + ": the first part has no line '" + ArtifactChannel.BEGIN + "'");
    }
    long chunks = lines.stream().filter(l -> l.startsWith("C ")).count();
    @Nullable Long next = end ? null : Long.parseLong(m.group(1));
    if (next != null && next != first + chunks) {
      throw new ArtifactChannelException(
          what
              + ": the part from chunk "
              + first
              + " carries "
              + chunks
              + " chunk(s) but says the next part starts at "
              + next);
    }
    if (next != null && chunks == 0) {
      throw new ArtifactChannelException(
          what + ": the part from chunk " + first + " carries no chunk");
    }
    try {
      for (String line : end ? lines : lines.subList(0, lines.size() - 1)) {
        out.write(line);
        out.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Part(end, next == null ? first + chunks : next, chunks);
  }

  private static String abbreviate(String line) {
    return line.length() > 120 ? line.substring(0, 120) + "..." : line;
  }
}
