package dev.kairos.core.model;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Identity of one trigger; everything downstream dedups on it.
 *
 * <ul>
 *   <li>scheduled fire: {@code <jobId>:<fireMs>}
 *   <li>one shard of a broadcast: {@code <jobId>:<fireMs>#<index>/<total>}
 *   <li>manual trigger: {@code <jobId>:<fireMs>:m<nonce>}
 *   <li>retry n of a trigger (attempt n + 1): {@code <rootId>/r<n>}, where the root is the first
 *       attempt's id: retries of a chain are siblings, never nested
 *   <li>child-job trigger of a parent's successful trigger: {@code
 *       <childJobId>:<parentFireMs>:c<parentRootId>} (the parent's broadcast suffix dropped), so a
 *       parent fire triggers each child once however often its SUCCESS is seen
 *   <li>the trigger of node {@code <node>} of workflow run {@code <runId>}: {@code
 *       <jobId>:<runFireMs>:w<runId>|<node>}, where the run id is {@code <workflowId>@<fireMs>} or
 *       {@code <workflowId>@<ms>m<nonce>}; deterministic, so re-submitting a node after a crash is
 *       a harmless duplicate and each node of a run starts once
 *   <li>backfill fire of a past fire time: {@code <jobId>:<fireMs>:b}, deterministic per job and
 *       historical fire time, so asking for the same fire twice submits it once; {@link #fireMs()}
 *       is the historical fire time, its retries are {@code <jobId>:<fireMs>:b/r<n>}
 * </ul>
 *
 * Job ids never contain {@code : # / @ |}, so the forms cannot collide.
 */
public record TriggerId(String value) {

  private static final Pattern SCHEDULED = Pattern.compile("[^:#/]+:\\d+");
  private static final Pattern RETRY_SUFFIX = Pattern.compile("/r(\\d+)$");
  private static final Pattern BACKFILL = Pattern.compile("[^:#/]+:\\d+:b(/r\\d+)?");

  public TriggerId {
    Objects.requireNonNull(value, "value");
    if (value.isEmpty() || value.indexOf(':') < 1) {
      throw new IllegalArgumentException("not a trigger id: " + value);
    }
  }

  public static TriggerId scheduled(String jobId, long fireMs) {
    return new TriggerId(jobId + ":" + fireMs);
  }

  public static TriggerId manual(String jobId, long requestedMs, String nonce) {
    return new TriggerId(jobId + ":" + requestedMs + ":m" + nonce);
  }

  /**
   * The first attempt of node {@code node} of workflow run {@code runId}, fired for {@code
   * runFireMs}. Neither the run id nor the node name may contain {@code : / |}.
   */
  public static TriggerId workflowNode(String jobId, long runFireMs, String runId, String node) {
    if (runId.indexOf(':') >= 0 || runId.indexOf('/') >= 0 || runId.indexOf('|') >= 0) {
      throw new IllegalArgumentException("not a workflow run id: " + runId);
    }
    if (node.isEmpty()
        || node.indexOf(':') >= 0
        || node.indexOf('/') >= 0
        || node.indexOf('|') >= 0) {
      throw new IllegalArgumentException("not a workflow node name: " + node);
    }
    return new TriggerId(jobId + ":" + runFireMs + ":w" + runId + "|" + node);
  }

  /**
   * Whether this is (an attempt of) a workflow node's trigger: a character test after the second
   * colon, cheap enough for every trigger end.
   */
  public boolean isWorkflowNode() {
    int first = value.indexOf(':');
    int second = value.indexOf(':', first + 1);
    return second > 0 && second + 1 < value.length() && value.charAt(second + 1) == 'w';
  }

  /** The workflow run of a workflow node's trigger ({@link #isWorkflowNode()}). */
  public String workflowRunId() {
    String root = workflowPart();
    return root.substring(0, root.lastIndexOf('|'));
  }

  /** The node name of a workflow node's trigger ({@link #isWorkflowNode()}). */
  public String workflowNodeName() {
    String root = workflowPart();
    return root.substring(root.lastIndexOf('|') + 1);
  }

  private String workflowPart() {
    if (!isWorkflowNode()) {
      throw new IllegalStateException("not a workflow node trigger: " + value);
    }
    String root = root().value;
    int second = root.indexOf(':', root.indexOf(':') + 1);
    return root.substring(second + 2);
  }

  /**
   * The backfill fire of {@code jobId} for the past fire time {@code fireMs}: {@code
   * <jobId>:<fireMs>:b}.
   */
  public static TriggerId backfill(String jobId, long fireMs) {
    if (fireMs < 0) {
      throw new IllegalArgumentException("fireMs must be >= 0 but was " + fireMs);
    }
    return new TriggerId(jobId + ":" + fireMs + ":b");
  }

  public TriggerId shard(int index, int total) {
    return new TriggerId(value + "#" + index + "/" + total);
  }

  /**
   * Retry {@code n} of this trigger's chain (attempt {@code n + 1}): {@code <root>/r<n>}.
   *
   * @throws IllegalArgumentException when {@code n < 1}
   */
  public TriggerId retry(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("retry number must be >= 1 but was " + n);
    }
    return new TriggerId(root().value + "/r" + n);
  }

  /** The first attempt of this trigger's retry chain: the id without its {@code /r<n>} suffix. */
  public TriggerId root() {
    var m = RETRY_SUFFIX.matcher(value);
    return m.find() ? new TriggerId(value.substring(0, m.start())) : this;
  }

  /** The retry number in the id ({@code /r<n>}), 0 for a first attempt. */
  public int retryNumber() {
    var m = RETRY_SUFFIX.matcher(value);
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  /**
   * The trigger of child job {@code childJobId} caused by this trigger's SUCCESS; deterministic, so
   * a replayed SUCCESS or a second successful broadcast shard triggers the child once.
   */
  public TriggerId child(String childJobId) {
    String root = root().value;
    int shard = root.indexOf('#');
    String fire = shard < 0 ? root : root.substring(0, shard);
    return new TriggerId(childJobId + ":" + fireMs() + ":c" + fire);
  }

  /** The job this trigger belongs to. */
  public String jobId() {
    return value.substring(0, value.indexOf(':'));
  }

  /**
   * The fire time the id was made for (scheduled, the manual request time, or a backfill's
   * historical fire time).
   */
  public long fireMs() {
    int start = value.indexOf(':') + 1;
    int end = start;
    while (end < value.length() && Character.isDigit(value.charAt(end))) {
      end++;
    }
    return Long.parseLong(value.substring(start, end));
  }

  public boolean isScheduled() {
    return SCHEDULED.matcher(value).matches();
  }

  /** Whether this is a backfill fire ({@code <jobId>:<fireMs>:b}) or one of its retries. */
  public boolean isBackfill() {
    return BACKFILL.matcher(value).matches();
  }

  @Override
  public String toString() {
    return value;
  }
}
