package dev.benchplan.artifacts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchplan.testing.SharedData;
import dev.benchplan.testing.TestFiles;
import java.io.BufferedReader;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector's transport: a tree past one log shipped in parts (the real encoder with a chunk
 * range, as each collector pod runs it), joined and decoded byte for byte; a cut or skipped part is
 * refused; the manifest the Job prints after its too-large line is what the copy is checked
 * against.
 */
class ArtifactPartsTest {
  @TempDir Path tmp;

  private Path tree() throws Exception {
    Path t = tmp.resolve("tree");
    TestFiles.copyTree(SharedData.require("aiperf/sweep-qwen3-0.6b"), t.resolve("sweep"));
    byte[] noise = new byte[200_000];
    new Random(7).nextBytes(noise);
    Files.createDirectories(t.resolve("with space"));
    Files.write(t.resolve("with space/telemetry.bin"), noise);
    Files.write(t.resolve("empty.json"), new byte[0]);
    return t;
  }

  /** Every part's log, as collector pods with {@code perPart} chunks each print them. */
  private static List<String> parts(Path tree, int perPart) throws Exception {
    List<String> logs = new ArrayList<>();
    long first = 0;
    while (true) {
      String log = ShippedTree.encode(tree, "0", Long.toString(first), Integer.toString(perPart));
      logs.add(log);
      if (!log.contains(ArtifactParts.PART_END_PREFIX)) {
        return logs;
      }
      first += perPart;
    }
  }

  private static String join(List<String> logs, int perPart) {
    StringWriter out = new StringWriter();
    long first = 0;
    for (String log : logs) {
      ArtifactParts.Part p = ArtifactParts.append(log, first, out, "part log");
      first = p.next();
      assertThat(p.last()).isEqualTo(log == logs.get(logs.size() - 1));
    }
    return out.toString();
  }

  @Test
  @DisplayName(
      "a tree shipped in parts joins to exactly the one-log block and is restored byte for byte")
  void partsRestore() throws Exception {
    Path tree = tree();
    String whole = ShippedTree.encode(tree);
    List<String> logs = parts(tree, 20);
    assertThat(logs).hasSizeGreaterThan(2);
    String joined = join(logs, 20);
    assertThat(joined).isEqualTo(whole);
    Path out = tmp.resolve("out");
    ArtifactManifest m =
        ArtifactChannel.decode(new BufferedReader(new StringReader(joined)), out, "joined");
    assertThat(ShippedTree.files(out)).containsExactlyInAnyOrderEntriesOf(ShippedTree.files(tree));
    assertThat(m.files()).hasSize(ShippedTree.files(tree).size());
  }

  @Test
  @DisplayName(
      "a cut part, a part that does not continue where the last stopped, a skipped part: each refused, named")
  void badParts() throws Exception {
    Path tree = tree();
    List<String> logs = parts(tree, 20);
    String second = logs.get(1);
    assertThatThrownBy(
            () ->
                ArtifactParts.append(
                    second.substring(0, second.length() / 2), 20, new StringWriter(), "pod x log"))
        .isInstanceOf(ArtifactChannelException.class)
        .hasMessage(
            "pod x log: the part from chunk 20 is cut (its last line is 'C 30 145ce4ba2ee8a4c1c2',"
                + " expected the end line or '==== benchplan:artifacts:part-end next=<seq> ===='):"
                + " the log is truncated");
    assertThatThrownBy(() -> ArtifactParts.append(second, 25, new StringWriter(), "pod x log"))
        .isInstanceOf(ArtifactChannelException.class)
        .hasMessage(
            "pod x log: the part from chunk 25 carries 20 chunk(s) but says the next part starts at"
                + " 40");
    assertThatThrownBy(() -> ArtifactParts.append(second, 0, new StringWriter(), "pod x log"))
        .isInstanceOf(ArtifactChannelException.class)
        .hasMessage(
            "pod x log: the first part has no line '==== benchplan:artifacts:begin v1 ===='");
    // part 1 skipped: the decoder names the missing chunk
    StringWriter out = new StringWriter();
    ArtifactParts.append(logs.get(0), 0, out, "p0");
    ArtifactParts.append(logs.get(2), 40, out, "p2");
    assertThatThrownBy(
            () ->
                ArtifactChannel.decode(
                    new BufferedReader(new StringReader(out.toString())),
                    tmp.resolve("skipped"),
                    "joined"))
        .isInstanceOf(ArtifactChannelException.class)
        .hasMessage("joined: artifact chunk 20 is missing (next seen: 40)");
  }

  @Test
  @DisplayName(
      "past the bound the pod prints its manifest; the copy must equal it: a changed, missing or extra file is named")
  void volumeManifest() throws Exception {
    Path tree = tree();
    String log =
        "AIPerf output\n"
            + ShippedTree.encode(tree, "1000")
            + "==== benchplan:aiperf-exit:0 ====\n";
    assertThat(ArtifactChannel.tooLarge(log)).isTrue();
    assertThat(ArtifactChannel.present(log)).isFalse();
    ArtifactManifest expected = ArtifactChannel.volumeManifest(log, "job log");
    ArtifactManifest copied =
        ArtifactChannel.decode(
            new BufferedReader(new StringReader(ShippedTree.encode(tree))),
            tmp.resolve("copy"),
            "copy");
    assertThat(copied.firstDifference(expected)).isNull();
    Files.write(tree.resolve("empty.json"), new byte[] {'x'});
    Files.write(tree.resolve("late.txt"), new byte[] {'y'});
    ArtifactManifest changed =
        ArtifactChannel.decode(
            new BufferedReader(new StringReader(ShippedTree.encode(tree))),
            tmp.resolve("copy2"),
            "copy2");
    assertThat(changed.firstDifference(expected)).startsWith("empty.json has 1 bytes");
    Files.delete(tree.resolve("empty.json"));
    ArtifactManifest missing =
        ArtifactChannel.decode(
            new BufferedReader(new StringReader(ShippedTree.encode(tree))),
            tmp.resolve("copy3"),
            "copy3");
    assertThat(missing.firstDifference(expected)).startsWith("empty.json is missing");
    Files.write(tree.resolve("empty.json"), new byte[0]);
    ArtifactManifest extra =
        ArtifactChannel.decode(
            new BufferedReader(new StringReader(ShippedTree.encode(tree))),
            tmp.resolve("copy4"),
            "copy4");
    assertThat(extra.firstDifference(expected)).startsWith("late.txt is not in the pod's manifest");
    // a manifest line edited in the log, or the manifest cut
    String edited = log.replaceFirst("\"size\": 0", "\"size\": 1");
    assertThatThrownBy(() -> ArtifactChannel.volumeManifest(edited, "job log"))
        .isInstanceOf(ArtifactChannelException.class)
        .hasMessage(
            "job log: the manifest of the tree left on the volume does not match its closing line"
                + " (files, bytes or manifest_sha256)");
    String cut = log.substring(0, log.indexOf("==== benchplan:artifacts:manifest"));
    assertThatThrownBy(() -> ArtifactChannel.volumeManifest(cut, "job log"))
        .isInstanceOf(ArtifactChannelException.class)
        .hasMessage(
            "job log: the manifest of the tree left on the volume is cut (no line"
                + " '==== benchplan:artifacts:manifest ...')");
  }
}
