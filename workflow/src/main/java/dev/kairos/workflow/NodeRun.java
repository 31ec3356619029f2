package dev.kairos.workflow;

import java.util.List;

/**
 * One node of a run.
 *
 * @param triggerIds the node's trigger ids, first attempt first (retries follow once it ended)
 * @param result the result message of a SUCCESS, kept only for a node that passes it on
 */
public record NodeRun(NodeState state, List<String> triggerIds, String result) {

  public NodeRun {
    triggerIds = triggerIds == null ? List.of() : List.copyOf(triggerIds);
  }

  static final NodeRun PENDING = new NodeRun(NodeState.PENDING, List.of(), null);
}
