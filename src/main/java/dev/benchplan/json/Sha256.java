package dev.benchplan.json;

import dev.benchplan.error.BenchplanException;
import dev.benchplan.error.ErrorLocation;
import dev.benchplan.error.InputErrors;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apache.commons.codec.binary.Hex;

/** SHA-256 of exact bytes, as lowercase hex. */
public final class Sha256 {
  private Sha256() {}

  /** A fresh SHA-256 digest. */
  public static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  public static String hex(byte[] bytes) {
    return Hex.encodeHexString(newDigest().digest(bytes));
  }

  public static String hex(MessageDigest digest) {
    return Hex.encodeHexString(digest.digest());
  }

  /** Hashes a file's bytes; a missing or unreadable file is invalid input (exit 2). */
  public static String ofFile(Path file) {
    MessageDigest digest = newDigest();
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      int n;
      while ((n = in.read(buffer)) > 0) {
        digest.update(buffer, 0, n);
      }
    } catch (IOException e) {
      throw BenchplanException.invalid(
          ErrorLocation.file(file), file + ": cannot read file: " + describe(e), e);
    }
    return hex(digest);
  }

  /** True when s is 64 lowercase or uppercase hex characters. */
  public static boolean isSha256(String s) {
    return s != null && s.matches("[0-9a-fA-F]{64}");
  }

  /** The user's words for an I/O failure ("no such file", "is a directory, expected a file"). */
  static String describe(IOException e) {
    return InputErrors.describe(e);
  }
}
