package dev.benchplan.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.benchplan.testing.SharedData;
import dev.benchplan.testing.TestFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The artifact channel end to end: the real python encoder, the Java decoder, every corruption. */
class ArtifactChannelTest {
  @TempDir Path tmp;

  private Map<String, byte[]> roundTrip(Path tree) throws Exception {
    Path log = ShippedTree.encode(tree, tmp.resolve("pod.log"));
    Path target = tmp.resolve("restored");
    ArtifactManifest manifest;
    try (BufferedReader r = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
      manifest = ArtifactChannel.decode(r, target, "pod.log");
    }
    Map<String, byte[]> expected = ShippedTree.files(tree);
    Map<String, byte[]> restored = ShippedTree.files(target);
    assertThat(restored.keySet()).containsExactlyElementsOf(expected.keySet());
    expected.forEach((k, v) -> assertThat(restored.get(k)).as(k).isEqualTo(v));
    assertThat(manifest.paths()).containsExactlyElementsOf(expected.keySet());
    return restored;
  }

  @Test
  @DisplayName(
      "the real AIPerf sweep (three concurrencies) is restored byte for byte and sha256sum -c accepts it")
  void realSweep() throws Exception {
    Path sweep = SharedData.require("aiperf/sweep-qwen3-0.6b");
    Path tree = tmp.resolve("tree");
    TestFiles.copyTree(sweep, tree);
    Map<String, byte[]> restored = roundTrip(tree);
    assertThat(restored)
        .containsKeys(
            "concurrency1/profile_export_aiperf.json", "concurrency4/gpu_telemetry_export.jsonl");

    // the manifest in sha256sum format verifies with coreutils alone
    Path runDir = tmp.resolve("run");
    Files.createDirectories(runDir);
    Files.move(tmp.resolve("restored"), runDir.resolve("aiperf"));
    ArtifactManifest manifest = manifestOf(runDir.resolve("aiperf"));
    Files.write(runDir.resolve(ArtifactManifest.FILE_NAME), manifest.sha256sumText("aiperf/"));
    assumeTrue(onPath("sha256sum"), "sha256sum not on PATH");
    Process p =
        new ProcessBuilder("sha256sum", "--strict", "-c", ArtifactManifest.FILE_NAME)
            .directory(runDir.toFile())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("aiperf/concurrency2/profile_export.jsonl: OK");
  }

  @Test
  @DisplayName("empty files, binary telemetry and names with spaces survive")
  void oddFiles() throws Exception {
    Path tree = tmp.resolve("tree");
    Files.createDirectories(tree.resolve("profile_runs/run 0001/gpu telemetry"));
    Files.write(tree.resolve("empty.json"), new byte[0]);
    Files.write(tree.resolve("profile_runs/run 0001/empty too"), new byte[0]);
    byte[] binary = new byte[200_003];
    new Random(7).nextBytes(binary);
    Files.write(tree.resolve("profile_runs/run 0001/gpu telemetry/telemetry.bin"), binary);
    Files.writeString(tree.resolve("naïve ünïcode.txt"), "x\r\ny\n");
    Map<String, byte[]> restored = roundTrip(tree);
    assertThat(restored.get("empty.json")).isEmpty();
    assertThat(restored.get("profile_runs/run 0001/gpu telemetry/telemetry.bin")).isEqualTo(binary);
  }

  @Test
  @DisplayName("a tree without a file is a valid, empty block")
  void emptyTree() throws Exception {
    Path tree = Files.createDirectories(tmp.resolve("tree"));
    Path log = ShippedTree.encode(tree, tmp.resolve("pod.log"));
    ArtifactManifest m;
    try (BufferedReader r = Files.newBufferedReader(log)) {
      m = ArtifactChannel.decode(r, tmp.resolve("restored"), "pod.log");
    }
    assertThat(m.files()).isEmpty();
    assertThat(m.sha256sumText("aiperf/")).isEmpty();
  }

  @Test
  @DisplayName("a 50 MB tree is restored byte for byte")
  void fiftyMegabytes() throws Exception {
    Path tree = Files.createDirectories(tmp.resolve("tree/profile_runs/run_0001"));
    Random random = new Random(50);
    byte[] record = new byte[1024];
    try (var out = Files.newOutputStream(tree.resolve("profile_export.jsonl"))) {
      for (int i = 0; i < 40 * 1024; i++) {
        // half text-like, half random: compresses like real records, not to nothing
        for (int j = 0; j < record.length; j++) {
          record[j] = j % 2 == 0 ? (byte) ('a' + random.nextInt(26)) : (byte) '"';
        }
        out.write(record);
      }
    }
    byte[] binary = new byte[10 * 1024 * 1024];
    random.nextBytes(binary);
    Files.write(tree.resolve("gpu_telemetry.bin"), binary);
    roundTrip(tmp.resolve("tree"));
  }

  @Test
  @DisplayName("a flipped byte in a chunk names that chunk")
  void flippedByte() throws Exception {
    List<String> lines = realLog();
    int i = firstChunk(lines) + 1;
    String line = lines.get(i);
    int at = line.length() - 10;
    char c = line.charAt(at);
    lines.set(i, line.substring(0, at) + (c == 'A' ? 'B' : 'A') + line.substring(at + 1));
    assertFails(lines, corruptedChunk(lines.get(i)));
  }

  @Test
  @DisplayName(
      "a missing chunk, a chunk twice, a truncated log, a cut stream end, a changed manifest line")
  void corruptions() throws Exception {
    List<String> good = realLog();
    int first = firstChunk(good);

    List<String> missing = new ArrayList<>(good);
    missing.remove(first + 2);
    assertFails(missing, "artifact chunk 2 is missing (next seen: 3)");

    List<String> twice = new ArrayList<>(good);
    twice.add(first + 3, good.get(first + 2));
    assertFails(twice, "artifact chunk 2 appears twice");

    List<String> truncated = new ArrayList<>(good.subList(0, first + 4));
    long manifestLines = good.stream().filter(l -> l.startsWith("F ")).count();
    assertFails(
        truncated,
        "the artifact block is cut after 4 chunk(s) and "
            + manifestLines
            + " manifest line(s) (no line '==== benchplan:artifacts:end ...'): the log is"
            + " truncated");

    // the last chunk lost and the log ends with the end line: the count says so
    List<String> lastLost = new ArrayList<>(good);
    lastLost.remove(lastLost.size() - 2);
    assertFails(
        lastLost, "the end line counts 16 chunks, 15 arrived (chunk 15 onwards is missing)");

    List<String> manifestEdit = new ArrayList<>(good);
    manifestEdit.set(1, manifestEdit.get(1).replace("\"size\": ", "\"size\": 1"));
    assertFails(
        manifestEdit,
        "the manifest lines do not hash to the end line's manifest_sha256 (corrupted)");

    List<String> cutInLine = new ArrayList<>(good.subList(0, first + 3));
    cutInLine.add(good.get(first + 3).substring(0, 100));
    assertFails(cutInLine, corruptedChunk(cutInLine.get(first + 3)));

    assertFails(
        good.subList(0, 0), "no artifact block (no line '==== benchplan:artifacts:begin v1 ====')");
  }

  @Test
  @DisplayName("a file that changed between hashing and shipping is named")
  void fileChangedWhileShipped() throws Exception {
    // the manifest and stream are consistent but the manifest's hash for one file is wrong:
    // re-derive the end line so only the file check can catch it
    List<String> lines = realLog();
    String f = lines.get(2);
    String sha = f.replaceAll(".*\"sha256\": \"([0-9a-f]{64})\".*", "$1");
    String other = (sha.charAt(0) == '0' ? "1" : "0") + sha.substring(1);
    lines.set(2, f.replace(sha, other));
    var listing = dev.benchplan.json.Sha256.newDigest();
    for (String l : lines) {
      if (l.startsWith("F ")) {
        listing.update((l + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
    String end = lines.get(lines.size() - 1);
    lines.set(
        lines.size() - 1,
        end.replaceAll(
            "manifest_sha256=[0-9a-f]{64}",
            "manifest_sha256=" + dev.benchplan.json.Sha256.hex(listing)));
    String path = f.replaceAll(".*\"path\": \"([^\"]*)\".*", "$1");
    assertFails(
        lines,
        "artifact "
            + path
            + " has SHA-256 "
            + sha
            + ", the pod's manifest says "
            + other
            + " (the file changed while it was shipped)");
  }

  @Test
  @DisplayName("a manifest path that leaves the tree is refused")
  void pathEscape() {
    assertThat(ArtifactFile.pathProblem("../etc/passwd")).isNotNull();
    assertThat(ArtifactFile.pathProblem("/abs")).isNotNull();
    assertThat(ArtifactFile.pathProblem("a//b")).isNotNull();
    assertThat(ArtifactFile.pathProblem("run 1/x.json")).isNull();
    List<String> lines =
        List.of(
            ArtifactChannel.BEGIN,
            "F {\"path\": \"../x\", \"size\": 0, \"sha256\": \"" + "0".repeat(64) + "\"}");
    assertThatThrownBy(() -> decode(lines))
        .isInstanceOf(ArtifactChannelException.class)
        .hasMessage(
            "pod.log: malformed artifact manifest line '"
                + lines.get(1)
                + "': artifact path '../x': expected no empty, '.' or '..' segment");
  }

  private List<String> realLog() throws Exception {
    Path tree = tmp.resolve("real");
    TestFiles.copyTree(SharedData.require("aiperf/sweep-qwen3-0.6b"), tree);
    Path log = ShippedTree.encode(tree, tmp.resolve("real.log"));
    List<String> lines = new ArrayList<>(Files.readAllLines(log));
    assertThat(lines.stream().filter(l -> l.startsWith("C ")).count()).isGreaterThan(5);
    return lines;
  }

  private static int firstChunk(List<String> lines) {
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("C ")) {
        return i;
      }
    }
    throw new AssertionError("no chunk");
  }

  private void assertFails(List<String> lines, String message) {
    assertThatThrownBy(() -> decode(lines))
        .isInstanceOf(ArtifactChannelException.class)
        .hasMessage("pod.log: " + message);
  }

  /** The decoder's words for a chunk line whose data does not hash to the SHA-256 it carries. */
  private static String corruptedChunk(String line) {
    String[] parts = line.split(" ");
    return "artifact chunk "
        + parts[1]
        + " has SHA-256 "
        + dev.benchplan.json.Sha256.hex(java.util.Base64.getDecoder().decode(parts[3]))
        + ", its line says "
        + parts[2]
        + " (corrupted in transit)";
  }

  private int decodes;

  private ArtifactManifest decode(List<String> lines) {
    String text = String.join("\n", lines) + (lines.isEmpty() ? "" : "\n");
    return ArtifactChannel.decode(
        new BufferedReader(new StringReader("aiperf says hi\n" + text)),
        tmp.resolve("out-" + decodes++),
        "pod.log");
  }

  private static ArtifactManifest manifestOf(Path dir) throws IOException {
    List<ArtifactFile> files = new ArrayList<>();
    for (var e : ShippedTree.files(dir).entrySet()) {
      files.add(
          new ArtifactFile(
              e.getKey(), e.getValue().length, dev.benchplan.json.Sha256.hex(e.getValue())));
    }
    return new ArtifactManifest(files);
  }

  private static boolean onPath(String tool) {
    try {
      return new ProcessBuilder(tool, "--version").start().waitFor(10, TimeUnit.SECONDS);
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }
}
