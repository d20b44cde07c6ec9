package dev.benchplan.cli;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A directory option ({@code --exp-root}, {@code --report-dir}, {@code --deploy-root}): the folder
 * may be absent (commands that write create it), but the path and its nearest existing ancestor
 * must not be a regular file. A file there is invalid input (exit 2), found before anything runs.
 */
public final class DirectoryConverter implements ITypeConverter<Path> {
  @Override
  public Path convert(String value) {
    Path p;
    try {
      p = Path.of(value);
    } catch (InvalidPathException e) {
      throw new TypeConversionException("'" + value + "' is not a valid path: " + e.getReason());
    }
    for (Path cur = p.toAbsolutePath().normalize(); cur != null; cur = cur.getParent()) {
      if (Files.isDirectory(cur)) {
        return p;
      }
      if (Files.exists(cur)) {
        throw new TypeConversionException(
            "'"
                + value
                + "': not a directory ("
                + (cur.equals(p.toAbsolutePath().normalize())
                    ? "a file is there"
                    : cur + " is a file")
                + "); expected a directory");
      }
    }
    return p;
  }
}
