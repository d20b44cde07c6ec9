package dev.benchplan.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** Version and git commit, filtered into the jar at build time. */
public final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() throws IOException {
    Properties p = new Properties();
    try (InputStream in =
        VersionProvider.class.getResourceAsStream("/benchplan-version.properties")) {
      if (in != null) {
        p.load(in);
      }
    }
    String commit = p.getProperty("commit", "unknown");
    if (commit.isEmpty() || commit.startsWith("${")) {
      commit = "unknown";
    }
    return new String[] {
      "benchplan " + p.getProperty("version", "unknown") + " (commit " + commit + ")",
      "Java " + System.getProperty("java.version") + " " + System.getProperty("java.vm.name")
    };
  }
}
