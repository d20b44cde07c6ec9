package dev.benchplan.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --deploy-root} of the commands that read what {@code render} wrote ({@code run}, {@code
 * rbac run}): an existing folder holding {@code benchmark/perf.yaml}.
 */
public final class PerfYamlRootMixin {
  @Option(
      names = "--deploy-root",
      required = true,
      paramLabel = "DIR",
      converter = DirectoryConverter.class,
      description = "DEPLOY_ROOT holding benchmark/perf.yaml (from 'benchplan render').")
  Path deployRoot;

  /** The folder given. */
  public Path deployRoot() {
    return deployRoot;
  }
}
