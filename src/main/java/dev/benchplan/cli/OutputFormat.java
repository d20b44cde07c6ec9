package dev.benchplan.cli;

/** How a command prints its result on stdout. */
public enum OutputFormat {
  text,
  json
}
