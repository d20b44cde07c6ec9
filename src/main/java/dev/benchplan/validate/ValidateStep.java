package dev.benchplan.validate;

/** The steps of a validate run, in order; the verdict names the one that failed. */
public enum ValidateStep {
  CONSTRAINTS("constraints"),
  CONNECT("connect"),
  CRD_CHECK("crd-check"),
  DISCOVERY("discovery"),
  OLD_NAMESPACES("old-namespaces"),
  NODE_SELECTION("node-selection"),
  /**
   * The model cache: its StorageClass resolved (before anything is created), then PVC + populate
   * Job.
   */
  MODEL_CACHE("model-cache"),
  NAMESPACE("namespace"),
  DEPLOY("deploy"),
  READINESS("readiness"),
  PLAN("plan"),
  RENDER("render"),
  RUN("run"),
  GATE("gate"),
  CLEANUP("cleanup");

  private final String id;

  ValidateStep(String id) {
    this.id = id;
  }

  /** The name used in progress lines and in the verdict. */
  public String id() {
    return id;
  }
}
