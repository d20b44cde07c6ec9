package dev.benchplan.render.manifest;

import dev.benchplan.artifacts.ArtifactChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The Job program's files as the config ConfigMap mounts them, written to a local folder. */
public final class JobProgramFiles {
  private JobProgramFiles() {}

  /** Writes the program and the encoder into {@code dir}; returns the program's path. */
  public static Path install(Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(JobProgram.ENCODER_FILE), ArtifactChannel.encoderScript());
    return Files.writeString(dir.resolve(JobProgram.FILE), JobProgram.text());
  }
}
