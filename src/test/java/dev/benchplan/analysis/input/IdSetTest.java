package dev.benchplan.analysis.input;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link IdSet} says "seen" exactly when a set of the ids as Strings would. */
class IdSetTest {
  @Test
  @DisplayName("ids added as bytes or as Strings are duplicates exactly when the Strings are equal")
  void sameAsStringSet() {
    SplittableRandom r = new SplittableRandom(5);
    String[] alphabet = {"a", "b", "é", "中", "\uD83D\uDE00", "\uD800", "\uDC00", "?", ""};
    IdSet ids = new IdSet();
    Set<String> oracle = new HashSet<>();
    for (int i = 0; i < 200_000; i++) {
      StringBuilder sb = new StringBuilder(i % 3 == 0 ? "req-" + r.nextInt(150_000) : "");
      for (int k = r.nextInt(4); k > 0; k--) {
        sb.append(alphabet[r.nextInt(alphabet.length)]);
      }
      String id = sb.toString();
      boolean expected = oracle.add(id);
      boolean wellFormed =
          id.equals(new String(id.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
      boolean added;
      if (wellFormed && r.nextBoolean()) {
        // as the byte-level parser gives it: the UTF-8 bytes, somewhere inside a larger array
        byte[] utf8 = id.getBytes(StandardCharsets.UTF_8);
        byte[] line = new byte[utf8.length + 7];
        System.arraycopy(utf8, 0, line, 3, utf8.length);
        added = ids.add(line, 3, 3 + utf8.length);
      } else {
        added = ids.add(id);
      }
      assertThat(added).as("id #%d %s", i, id).isEqualTo(expected);
    }
  }

  @Test
  @DisplayName("making room (expect) keeps every id: duplicates are found before and after it")
  void expectKeepsIds() {
    IdSet ids = new IdSet();
    for (int i = 0; i < 3_000; i++) {
      assertThat(ids.add("req-" + i)).isTrue();
    }
    ids.expect(100_000); // one rehash to the final size, and room for the ids' bytes
    ids.expect(10); // smaller than what it holds: nothing changes
    for (int i = 0; i < 3_000; i++) {
      assertThat(ids.add("req-" + i)).as("req-%d again", i).isFalse();
    }
    for (int i = 3_000; i < 120_000; i++) { // past what was expected: it still grows
      assertThat(ids.add("req-" + i)).as("req-%d", i).isTrue();
    }
    assertThat(ids.add("req-119999")).isFalse();
    assertThat(ids.add("req-0")).isFalse();
  }

  @Test
  @DisplayName("a lone surrogate is not the '?' UTF-8 would turn it into")
  void loneSurrogate() {
    IdSet ids = new IdSet();
    assertThat(ids.add("x\uD800")).isTrue();
    assertThat(ids.add("x?")).isTrue();
    byte[] q = "x?".getBytes(StandardCharsets.UTF_8);
    assertThat(ids.add(q, 0, q.length)).isFalse();
    assertThat(ids.add("x\uD800")).isFalse();
    assertThat(ids.add("x\uDC00")).isTrue();
  }
}
