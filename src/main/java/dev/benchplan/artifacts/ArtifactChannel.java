package dev.benchplan.artifacts;

import dev.benchplan.json.Json;
import dev.benchplan.json.Sha256;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import tools.jackson.databind.JsonNode;

/**
 * Decodes and verifies the artifact block {@code ship-artifacts.py} prints (see that file for the
 * format): the manifest lines, then the gzip stream in numbered chunks each carrying its SHA-256,
 * then the end line with the counts and the manifest's and stream's SHA-256. Every chunk, the
 * stream, and every restored file is checked; any gap, repeat, flipped byte or cut is an {@link
 * ArtifactChannelException} naming the chunk or file. Memory stays bounded: the stream is spooled
 * to a scratch file beside the target, then unpacked file by file.
 */
public final class ArtifactChannel {
  /** The line that opens the block. */
  public static final String BEGIN = "==== benchplan:artifacts:begin v1 ====";

  /** The end line's prefix. */
  public static final String END_PREFIX = "==== benchplan:artifacts:end ";

  /** Raw bytes per chunk the encoder emits (4 KiB of base64 per log line). */
  public static final int CHUNK_BYTES = 3 * 1024;

  /** The line that says a tree is larger than the log bound and stayed on the artifact volume. */
  public static final String TOO_LARGE_PREFIX = "==== benchplan:artifacts:too-large ";

  /** The line that closes the manifest printed after the too-large line. */
  public static final String MANIFEST_PREFIX = "==== benchplan:artifacts:manifest ";

  private static final Pattern MANIFEST_END =
      Pattern.compile(
          Pattern.quote(MANIFEST_PREFIX)
              + "files=(\\d+) bytes=(\\d+) manifest_sha256=([0-9a-f]{64}) ====");
  private static final Pattern END =
      Pattern.compile(
          Pattern.quote(END_PREFIX)
              + "files=(\\d+) bytes=(\\d+) chunks=(\\d+) manifest_sha256=([0-9a-f]{64})"
              + " gzip_sha256=([0-9a-f]{64}) ====");
  private static final Pattern CHUNK =
      Pattern.compile("C (\\d{1,10}) ([0-9a-f]{64}) ([A-Za-z0-9+/=]*)");

  private ArtifactChannel() {}

  /** The encoder's Python text (run as {@code python3 -c TEXT DIR} in the pod). */
  public static String encoderScript() {
    try (InputStream in = ArtifactChannel.class.getResourceAsStream("ship-artifacts.py")) {
      if (in == null) {
        throw new IllegalStateException("ship-artifacts.py missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** True when the log holds the begin line of an artifact block. */
  public static boolean present(String log) {
    return log.contains(BEGIN + "\n") || log.contains(BEGIN + "\r\n") || log.endsWith(BEGIN);
  }

  /** True when the log says the tree stayed on the artifact volume (larger than the log bound). */
  public static boolean tooLarge(String log) {
    return log.startsWith(TOO_LARGE_PREFIX) || log.contains("\n" + TOO_LARGE_PREFIX);
  }

  /**
   * The manifest the pod printed after its too-large line (every file it left on the volume, each
   * with its size and SHA-256): what a collector's copy must equal.
   *
   * @throws ArtifactChannelException when it is absent, cut or does not hash to its closing line
   */
  public static ArtifactManifest volumeManifest(String log, String what) {
    List<ArtifactFile> files = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    MessageDigest listing = Sha256.newDigest();
    boolean begun = false;
    for (String raw : log.lines().toList()) {
      String line = strip(raw);
      if (!begun) {
        begun = line.startsWith(TOO_LARGE_PREFIX);
        continue;
      }
      if (line.startsWith("F ")) {
        ArtifactFile f = manifestLine(line, what);
        if (!seen.add(f.path())) {
          throw new ArtifactChannelException(what + ": the manifest names " + f.path() + " twice");
        }
        files.add(f);
        listing.update((line + "\n").getBytes(StandardCharsets.UTF_8));
        continue;
      }
      Matcher m = MANIFEST_END.matcher(line);
      if (!m.matches()) {
        throw new ArtifactChannelException(
            what
                + ": unexpected line in the manifest of the tree left on the volume: '"
                + abbreviate(line)
                + "'");
      }
      ArtifactManifest manifest = new ArtifactManifest(files);
      if (Long.parseLong(m.group(1)) != files.size()
          || Long.parseLong(m.group(2)) != manifest.totalBytes()
          || !Sha256.hex(listing).equals(m.group(3))) {
        throw new ArtifactChannelException(
            what
                + ": the manifest of the tree left on the volume does not match its"
                + " closing line (files, bytes or manifest_sha256)");
      }
      return manifest;
    }
    throw new ArtifactChannelException(
        what
            + (begun
                ? ": the manifest of the tree left on the volume is cut (no line '"
                    + MANIFEST_PREFIX
                    + "...')"
                : ": no line '" + TOO_LARGE_PREFIX + "...'"));
  }

  /**
   * Reads the log up to and including the (first) artifact block and restores the tree into {@code
   * target} (created; must not exist). On failure what was restored stays in {@code target} for the
   * caller to set aside.
   *
   * @param what names the log in messages (e.g. {@code pod ns/name log})
   */
  public static ArtifactManifest decode(BufferedReader log, Path target, String what) {
    try {
      return decodeChecked(log, target, what);
    } catch (IOException e) {
      throw new ArtifactChannelException(
          what + ": cannot restore artifacts into " + target + ": " + e, e);
    }
  }

  private static String cut(String what, long chunks, int manifestLines) {
    return what
        + ": the artifact block is cut after "
        + chunks
        + " chunk(s) and "
        + manifestLines
        + " manifest line(s) (no line '"
        + END_PREFIX
        + "...'): the log is truncated";
  }

  private static ArtifactManifest decodeChecked(BufferedReader log, Path target, String what)
      throws IOException {
    String line;
    boolean begun = false;
    while ((line = log.readLine()) != null) {
      if (strip(line).equals(BEGIN)) {
        begun = true;
        break;
      }
    }
    if (!begun) {
      throw new ArtifactChannelException(what + ": no artifact block (no line '" + BEGIN + "')");
    }
    Files.createDirectories(target.getParent());
    Files.createDirectory(target);
    List<ArtifactFile> files = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    MessageDigest listing = Sha256.newDigest();
    MessageDigest stream = Sha256.newDigest();
    Path spool = Files.createTempFile(target.getParent(), "." + target.getFileName() + "-", ".gz");
    try {
      long nextChunk = 0;
      Matcher end = null;
      try (OutputStream out = Files.newOutputStream(spool)) {
        while ((line = log.readLine()) != null) {
          line = strip(line);
          if (line.startsWith("F ")) {
            if (nextChunk > 0) {
              throw new ArtifactChannelException(
                  what + ": a manifest line after chunk " + (nextChunk - 1));
            }
            ArtifactFile f = manifestLine(line, what);
            if (!seen.add(f.path())) {
              throw new ArtifactChannelException(
                  what + ": the manifest names " + f.path() + " twice");
            }
            files.add(f);
            listing.update((line + "\n").getBytes(StandardCharsets.UTF_8));
          } else if (line.startsWith("C ")) {
            Matcher m = CHUNK.matcher(line);
            if (!m.matches()) {
              throw new ArtifactChannelException(
                  what
                      + ": artifact chunk line malformed after chunk "
                      + (nextChunk - 1)
                      + ": expected 'C <seq> <sha256> <base64>'");
            }
            long seq = Long.parseLong(m.group(1));
            if (seq < nextChunk) {
              throw new ArtifactChannelException(
                  what + ": artifact chunk " + seq + " appears twice");
            }
            if (seq > nextChunk) {
              throw new ArtifactChannelException(
                  what + ": artifact chunk " + nextChunk + " is missing (next seen: " + seq + ")");
            }
            byte[] bytes;
            try {
              bytes = Base64.getDecoder().decode(m.group(3));
            } catch (IllegalArgumentException e) {
              throw new ArtifactChannelException(
                  what + ": artifact chunk " + seq + " is not base64");
            }
            String actual = Sha256.hex(bytes);
            if (!actual.equals(m.group(2))) {
              if (log.readLine() == null) {
                // the log ends inside this line: cut, not corrupted
                throw new ArtifactChannelException(cut(what, nextChunk, files.size()));
              }
              throw new ArtifactChannelException(
                  what
                      + ": artifact chunk "
                      + seq
                      + " has SHA-256 "
                      + actual
                      + ", its line says "
                      + m.group(2)
                      + " (corrupted in transit)");
            }
            stream.update(bytes);
            out.write(bytes);
            nextChunk++;
          } else if (line.startsWith(END_PREFIX)) {
            end = END.matcher(line);
            if (!end.matches()) {
              throw new ArtifactChannelException(what + ": malformed artifact end line: " + line);
            }
            break;
          } else {
            throw new ArtifactChannelException(
                what
                    + ": unexpected line inside the artifact block after chunk "
                    + (nextChunk - 1)
                    + ": '"
                    + abbreviate(line)
                    + "'");
          }
        }
      }
      if (end == null) {
        throw new ArtifactChannelException(cut(what, nextChunk, files.size()));
      }
      long endFiles = Long.parseLong(end.group(1));
      long endBytes = Long.parseLong(end.group(2));
      long endChunks = Long.parseLong(end.group(3));
      if (endChunks != nextChunk) {
        throw new ArtifactChannelException(
            what
                + ": the end line counts "
                + endChunks
                + " chunks, "
                + nextChunk
                + " arrived (chunk "
                + nextChunk
                + " onwards is missing)");
      }
      if (!Sha256.hex(listing).equals(end.group(4))) {
        throw new ArtifactChannelException(
            what
                + ": the manifest lines do not hash to the end line's manifest_sha256 (corrupted)");
      }
      if (endFiles != files.size()) {
        throw new ArtifactChannelException(
            what
                + ": the end line counts "
                + endFiles
                + " files, the manifest lists "
                + files.size());
      }
      ArtifactManifest manifest = new ArtifactManifest(files);
      if (endBytes != manifest.totalBytes()) {
        throw new ArtifactChannelException(
            what
                + ": the end line counts "
                + endBytes
                + " bytes, the manifest "
                + manifest.totalBytes());
      }
      if (!Sha256.hex(stream).equals(end.group(5))) {
        throw new ArtifactChannelException(
            what + ": the artifact stream does not hash to the end line's gzip_sha256 (corrupted)");
      }
      unpack(spool, files, target, what);
      return manifest;
    } finally {
      Files.deleteIfExists(spool);
    }
  }

  private static void unpack(Path spool, List<ArtifactFile> files, Path target, String what)
      throws IOException {
    byte[] buffer = new byte[1 << 16];
    try (InputStream raw = Files.newInputStream(spool);
        InputStream in =
            files.isEmpty() && Files.size(spool) == 0 ? raw : new GZIPInputStream(raw, 1 << 16)) {
      for (ArtifactFile f : files) {
        Path out = target.resolve(f.path());
        if (!out.normalize().startsWith(target)) {
          throw new ArtifactChannelException(
              what + ": artifact path " + f.path() + " leaves the tree");
        }
        Files.createDirectories(out.getParent());
        MessageDigest digest = Sha256.newDigest();
        long left = f.size();
        try (OutputStream o = Files.newOutputStream(out)) {
          while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
              throw new ArtifactChannelException(
                  what
                      + ": artifact "
                      + f.path()
                      + " is truncated: "
                      + (f.size() - left)
                      + " of "
                      + f.size()
                      + " bytes arrived");
            }
            digest.update(buffer, 0, n);
            o.write(buffer, 0, n);
            left -= n;
          }
        }
        String actual = Sha256.hex(digest);
        if (!actual.equals(f.sha256())) {
          throw new ArtifactChannelException(
              what
                  + ": artifact "
                  + f.path()
                  + " has SHA-256 "
                  + actual
                  + ", the pod's manifest says "
                  + f.sha256()
                  + " (the file changed while it was shipped)");
        }
      }
      if (in.read() >= 0) {
        throw new ArtifactChannelException(
            what + ": the artifact stream holds more bytes than the manifest's files");
      }
    } catch (ZipException | EOFException e) {
      throw new ArtifactChannelException(
          what + ": the artifact stream is not valid gzip: " + e.getMessage(), e);
    }
  }

  private static ArtifactFile manifestLine(String line, String what) {
    try {
      JsonNode n = Json.JSON.readTree(line.substring(2));
      return new ArtifactFile(
          n.path("path").asString(), n.path("size").asLong(-1), n.path("sha256").asString(""));
    } catch (RuntimeException e) {
      throw new ArtifactChannelException(
          what
              + ": malformed artifact manifest line '"
              + abbreviate(line)
              + "': "
              + e.getMessage());
    }
  }

  private static String strip(String line) {
    return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
  }

  private static String abbreviate(String line) {
    return line.length() > 120 ? line.substring(0, 120) + "..." : line;
  }
}
