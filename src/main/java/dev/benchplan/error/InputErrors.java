package dev.benchplan.error;

import java.io.CharConversionException;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.dataformat.yaml.JacksonYAMLParseException;

/**
 * The one mapper from parser and I/O exceptions to one-line messages in the user's terms: {@code
 * <what> <file>:<line>:<column>: not valid JSON: <what was expected>}. No Jackson class names,
 * feature names or multi-line parser dumps reach the user.
 */
public final class InputErrors {
  private static final Pattern UNEXPECTED_CHAR =
      Pattern.compile(
          "Unexpected character \\((?:'(.)' \\(code (\\d+)\\)|\\(CTRL-CHAR, code (\\d+)\\))\\):?\\s*(.*)");
  private static final Pattern UNRECOGNIZED = Pattern.compile("Unrecognized token '([^']*)'.*");
  private static final Pattern OUT_OF_RANGE =
      Pattern.compile("Numeric value \\((.*)\\) out of range of `(\\w+)` \\((\\S+) - (\\S+)\\).*");
  private static final Pattern CANNOT_DESERIALIZE =
      Pattern.compile(
          "Cannot deserialize value of type `([^`]+)` from (\\w+)(?: (?:value )?(\"[^\"]*\"|\\S+))?.*",
          Pattern.DOTALL);
  private static final Pattern BACKTICKED = Pattern.compile("`(?:[\\w$]+\\.)*([\\w$]+)`");

  private InputErrors() {}

  /**
   * A document that does not parse (exit 2).
   *
   * @param what what the document is, e.g. "user workload"; null to name only the file
   * @param file the file or other source, as the user named it
   */
  public static BenchplanException unparsable(
      @Nullable String what, Object file, JacksonException e) {
    ErrorLocation where = locate(e, String.valueOf(file));
    String format = e instanceof JacksonYAMLParseException ? "YAML" : "JSON";
    return new BenchplanException(
        ExitCode.INVALID,
        (what == null ? "" : what + " ")
            + where.prefix()
            + ": not valid "
            + format
            + ": "
            + describe(e),
        e,
        where);
  }

  /** A file that cannot be read (exit 2): not found, a folder, no permission. */
  public static BenchplanException unreadable(@Nullable String what, Object file, IOException e) {
    ErrorLocation where = new ErrorLocation(String.valueOf(file), null, null, null, null);
    return new BenchplanException(
        ExitCode.INVALID,
        (what == null ? "" : what + " ") + file + ": cannot read: " + describe(e),
        e,
        where);
  }

  /** Where a parser stopped: the YAML problem mark when there is one, else Jackson's location. */
  public static ErrorLocation locate(JacksonException e, String file) {
    if (e.getCause() instanceof MarkedYamlEngineException m && m.getProblemMark().isPresent()) {
      Mark mark = m.getProblemMark().get();
      return ErrorLocation.file(file, mark.getLine() + 1, mark.getColumn() + 1);
    }
    TokenStreamLocation loc = e.getLocation();
    return loc == null
        ? ErrorLocation.file(file, 0, 0)
        : ErrorLocation.file(file, loc.getLineNr(), loc.getColumnNr());
  }

  /** One line saying what was wrong and what was expected. */
  public static String describe(Throwable e) {
    if (e instanceof JacksonException j) {
      // parser messages may quote the offending token; never echo something that could be a secret
      return describeJackson(j)
          .replaceAll("'[^']{9,}'", "'...'")
          .replaceAll("\"[^\"]{9,}\"", "\"...\"");
    }
    if (e instanceof URISyntaxException u) {
      return uriProblem(u);
    }
    if (e instanceof CharConversionException) {
      return "not UTF-8, UTF-16 or UTF-32 text ("
          + oneLine(e.getMessage())
          + "); is this a binary file?";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason().toLowerCase(Locale.ROOT);
    }
    if (e instanceof IOException
        && e.getMessage() != null
        && e.getMessage().endsWith("Is a directory")) {
      return "is a directory, expected a file";
    }
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : oneLine(m);
  }

  /** "illegal character in authority: a space at character 11" from Java's URI parser. */
  private static String uriProblem(URISyntaxException e) {
    String reason = e.getReason();
    String what =
        reason.isEmpty()
            ? "malformed"
            : reason.substring(0, 1).toLowerCase(Locale.ROOT) + reason.substring(1);
    String input = e.getInput();
    for (int i = 0; i < input.length(); i++) {
      char c = input.charAt(i);
      if (Character.isWhitespace(c) || Character.isISOControl(c)) {
        return what
            + ": "
            + (c == ' ' ? "a space" : "a control character")
            + " at character "
            + (i + 1);
      }
    }
    // for a bad authority Java points at where the authority starts, not at the character
    int at = e.getIndex();
    return at < 0 || reason.contains("authority") ? what : what + " at character " + (at + 1);
  }

  private static String describeJackson(JacksonException e) {
    Throwable cause = e.getCause();
    if (cause instanceof CharConversionException) {
      return describe(cause);
    }
    if (cause instanceof MarkedYamlEngineException m) {
      String problem = m.getProblem() == null ? oneLine(m.getMessage()) : m.getProblem().trim();
      if (m.getContext() == null) {
        return problem;
      }
      String context = m.getContext().trim();
      return problem
          + " ("
          + context
          + m.getContextMark()
              .map(
                  c ->
                      " that starts at line "
                          + (c.getLine() + 1)
                          + ", column "
                          + (c.getColumn() + 1))
              .orElse("")
          + ")";
    }
    if (cause instanceof org.snakeyaml.engine.v2.exceptions.ReaderException r) {
      return "unacceptable character (code point 0x"
          + Integer.toHexString(r.getCodePoint())
          + "); expected text, is this a binary file?";
    }
    String m = oneLine(e.getOriginalMessage());
    if (e instanceof MismatchedInputException && m.startsWith("No content to map")) {
      return "no document (the file is empty, blank or only comments)";
    }
    if (e instanceof MismatchedInputException && m.startsWith("Trailing token")) {
      return "unexpected content after the end of the first value; expected exactly one document";
    }
    if (e instanceof UnexpectedEndOfInputException) {
      if (m.contains("close marker for Object")) {
        return "unexpected end of input; an object is not closed with '}'";
      }
      if (m.contains("close marker for Array")) {
        return "unexpected end of input; an array is not closed with ']'";
      }
      return "unexpected end of input; the document is cut short";
    }
    Matcher c = UNEXPECTED_CHAR.matcher(m);
    if (c.matches()) {
      String expected = expected(c.group(4));
      if (c.group(3) != null) {
        return "unexpected control character (code "
            + c.group(3)
            + ")"
            + expected
            + "; is this a binary file?";
      }
      return "unexpected character '" + c.group(1) + "'" + expected;
    }
    Matcher u = UNRECOGNIZED.matcher(m);
    if (u.matches()) {
      return "unrecognized token '" + u.group(1) + "'" + expected("expected a valid value");
    }
    if (e instanceof InputCoercionException) {
      Matcher r = OUT_OF_RANGE.matcher(m);
      if (r.matches()) {
        return "number "
            + r.group(1)
            + " is out of range; expected "
            + r.group(3)
            + " to "
            + r.group(4);
      }
    }
    Matcher d = CANNOT_DESERIALIZE.matcher(m);
    if (d.matches()) {
      String type = d.group(1).replaceAll(".*\\.", "");
      return "expected "
          + article(type)
          + ", found "
          + d.group(2).toLowerCase(Locale.ROOT)
          + (d.group(3) == null ? "" : " " + d.group(3));
    }
    // whatever is left: no class names, no feature names
    String cleaned =
        BACKTICKED
            .matcher(m)
            .replaceAll("$1")
            .replaceAll("\\s*\\(bound as [^)]*\\)", "")
            .replaceAll(":?\\s*not allowed as per \\S+", "")
            .replace("was expecting", "expected");
    return cleaned.isEmpty()
        ? "cannot be parsed"
        : Character.toLowerCase(cleaned.charAt(0)) + cleaned.substring(1);
  }

  private static String expected(String rest) {
    String r = rest == null ? "" : rest.trim();
    if (r.isEmpty()) {
      return "";
    }
    if (r.contains("valid value")
        || r.equals("expected a value")
        || r.contains("JSON String, Number")) {
      return "; expected a JSON value (object, array, string, number, true, false or null)";
    }
    if (r.contains("double-quote to start property name")
        || r.contains("double-quote to start field name")) {
      return "; expected a property name in double quotes";
    }
    return "; " + r.replace("was expecting", "expected");
  }

  private static String article(String type) {
    return switch (type) {
      case "int", "Integer", "long", "Long", "short", "BigInteger" -> "an integer";
      case "double", "Double", "float", "Float", "BigDecimal" -> "a number";
      case "boolean", "Boolean" -> "true or false";
      case "String" -> "a string";
      default ->
          type.endsWith("[]") || type.startsWith("List") ? "an array" : "an object (" + type + ")";
    };
  }

  private static String oneLine(@Nullable String s) {
    if (s == null) {
      return "";
    }
    return s.lines().map(String::trim).filter(l -> !l.isEmpty()).findFirst().orElse("");
  }
}
