package dev.benchplan.aiperf.export;

/** Which summary layout an AIPerf export uses. */
public enum ExportLayout {
  /** AIPerf 0.1.x: metrics nested under {@code records.<tag>} (each with tag and header). */
  RECORDS("records"),
  /** AIPerf 0.2+: each metric tag is a top-level key. */
  TOP_LEVEL("top_level"),
  /** Newer files: top-level tags plus {@code schema_version} and {@code aiperf_version}. */
  VERSIONED("versioned");

  private final String jsonName;

  ExportLayout(String jsonName) {
    this.jsonName = jsonName;
  }

  /** The name used in verdicts and run records. */
  public String jsonName() {
    return jsonName;
  }
}
