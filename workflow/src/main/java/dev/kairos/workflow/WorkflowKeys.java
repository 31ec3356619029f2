package dev.kairos.workflow;

/**
 * The workflows' Redis keys. Definitions, versions, the due ZSET and the run indexes share the hash
 * tag {@code {workflows}} (one script writes a definition and its due entry); each run has a tag of
 * its own, {@code {wfrun:<runId>}}, so one script updates a run atomically on Redis Cluster and
 * runs spread over the slots.
 */
public final class WorkflowKeys {

  public static final String DEFS = "kairos:{workflows}:defs";
  public static final String VERSIONS = "kairos:{workflows}:versions";
  public static final String DUE = "kairos:{workflows}:due";

  /**
   * Runs started through the API whose root triggers may not be submitted yet: run id → the time
   * after which the leader submits them (again). The starting node removes the entry once it has
   * submitted them; one left behind is a node that died in between.
   */
  public static final String STARTING = "kairos:{workflows}:starting";

  private WorkflowKeys() {}

  /** The newest runs of one workflow: run id → start ms. */
  public static String runs(String workflowId) {
    return "kairos:{workflows}:runs:" + workflowId;
  }

  public static String run(String runId) {
    return "kairos:{wfrun:" + runId + "}:run";
  }
}
