package dev.benchplan.aiperf.config;

import dev.benchplan.aiperf.version.AiperfVersion;
import java.util.List;

/**
 * The {@code aiperf profile} arguments for one release, and what the flags could not express
 * (recorded for the reviewer in aiperf-config.yaml).
 */
public record FlagRendering(AiperfVersion release, List<String> args, List<String> notes) {
  public FlagRendering {
    args = List.copyOf(args);
    notes = List.copyOf(notes);
  }
}
