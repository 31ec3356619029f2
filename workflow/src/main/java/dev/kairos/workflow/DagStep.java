package dev.kairos.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kairos.core.model.TriggerId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The readiness rules of a run; pure, so every rule is unit-tested, and the store applies a step
 * with a compare-and-set on the run's revision.
 *
 * <ul>
 *   <li>A PENDING node whose incoming edges all come from ended nodes and all hold ({@link
 *       EdgeCondition#holds}) becomes TRIGGERED: it is ready. A node without incoming edges is
 *       ready at the start.
 *   <li>A PENDING node with an incoming edge from an ended node that does not hold becomes SKIPPED
 *       at once (it can never hold); a SKIPPED node holds no edge, so skipping propagates.
 *   <li>When no node is PENDING or TRIGGERED the run ends: FAILED if some node FAILED with no
 *       FAILURE or ALWAYS edge leaving it (a failure nobody handled), else SUCCEEDED.
 *   <li>A cancelled run starts nothing more: its PENDING nodes are SKIPPED, and it ends when its
 *       TRIGGERED nodes have.
 * </ul>
 */
public final class DagStep {

  private static final ObjectMapper JSON = new ObjectMapper();

  private DagStep() {}

  /**
   * @param run the run after the step
   * @param changed whether the run must be written
   * @param ready nodes to submit a trigger for (newly ready, or on a replay the TRIGGERED children
   *     of the node whose end is replayed: submitting again is a harmless duplicate)
   */
  public record Result(WorkflowRun run, boolean changed, List<Ready> ready) {}

  /** A node to trigger: its first attempt's id and the params its parents pass, if any. */
  public record Ready(String node, String jobId, TriggerId triggerId, Optional<String> params) {}

  /** The start of a run: its root nodes are ready. */
  public static Result start(WorkflowRun run, long nowMs) {
    Map<String, NodeRun> nodes = new LinkedHashMap<>(run.nodes());
    List<Ready> ready = new ArrayList<>();
    settle(run, nodes, ready);
    return finish(run, nodes, ready, nowMs);
  }

  /**
   * Node {@code node}'s trigger chain ended with {@code last} (its last attempt).
   *
   * @param message the result message, passed to the children of a passResult node on SUCCESS
   */
  public static Result nodeEnded(
      WorkflowRun run, String node, TriggerId last, boolean success, String message, long nowMs) {
    NodeRun current = run.nodes().get(node);
    if (current == null) {
      return new Result(run, false, List.of());
    }
    if (current.state().isEnded()) {
      // A replay: the end is recorded; its children may not have been submitted yet.
      return new Result(run, false, triggeredChildren(run, node));
    }
    Map<String, NodeRun> nodes = new LinkedHashMap<>(run.nodes());
    List<String> attempts = new ArrayList<>();
    TriggerId root = last.root();
    attempts.add(root.value());
    for (int r = 1; r <= last.retryNumber(); r++) {
      attempts.add(root.retry(r).value());
    }
    boolean passes = nodeOf(run, node).map(WorkflowNode::passResult).orElse(false);
    nodes.put(
        node,
        new NodeRun(
            success ? NodeState.SUCCESS : NodeState.FAILED,
            attempts,
            success && passes ? message : null));
    List<Ready> ready = new ArrayList<>();
    settle(run, nodes, ready);
    return finish(run, nodes, ready, nowMs);
  }

  /** Cancels a running run: PENDING nodes are SKIPPED, nothing more starts. */
  public static Result cancel(WorkflowRun run, long nowMs) {
    if (run.state().isEnded()) {
      return new Result(run, false, List.of());
    }
    Map<String, NodeRun> nodes = new LinkedHashMap<>(run.nodes());
    nodes.replaceAll(
        (k, v) ->
            v.state() == NodeState.PENDING ? new NodeRun(NodeState.SKIPPED, List.of(), null) : v);
    WorkflowRun cancelled = run.with(RunState.CANCELLED, 0, nodes);
    return finish(cancelled, nodes, List.of(), nowMs);
  }

  private static void settle(WorkflowRun run, Map<String, NodeRun> nodes, List<Ready> ready) {
    boolean moved = true;
    while (moved) {
      moved = false;
      for (WorkflowNode n : run.definition().nodes()) {
        if (nodes.get(n.name()).state() != NodeState.PENDING) {
          continue;
        }
        boolean allEnded = true;
        boolean blocked = false;
        for (WorkflowEdge e : run.definition().edges()) {
          if (!e.to().equals(n.name())) {
            continue;
          }
          NodeState up = nodes.get(e.from()).state();
          if (!up.isEnded()) {
            allEnded = false;
          } else if (!e.on().holds(up)) {
            blocked = true;
          }
        }
        if (blocked || (allEnded && run.state() == RunState.CANCELLED)) {
          nodes.put(n.name(), new NodeRun(NodeState.SKIPPED, List.of(), null));
          moved = true;
        } else if (allEnded) {
          TriggerId id = TriggerId.workflowNode(n.jobId(), run.fireMs(), run.id(), n.name());
          nodes.put(n.name(), new NodeRun(NodeState.TRIGGERED, List.of(id.value()), null));
          ready.add(new Ready(n.name(), n.jobId(), id, params(run, nodes, n.name())));
          moved = true;
        }
      }
    }
  }

  private static Result finish(
      WorkflowRun run, Map<String, NodeRun> nodes, List<Ready> ready, long nowMs) {
    boolean open =
        nodes.values().stream()
            .anyMatch(n -> n.state() == NodeState.PENDING || n.state() == NodeState.TRIGGERED);
    RunState state = run.state();
    long ended = run.endedMs();
    if (!open && ended == 0) {
      ended = nowMs;
      if (state == RunState.RUNNING) {
        state = unhandledFailure(run, nodes) ? RunState.FAILED : RunState.SUCCEEDED;
      }
    }
    return new Result(run.with(state, ended, nodes), true, List.copyOf(ready));
  }

  private static boolean unhandledFailure(WorkflowRun run, Map<String, NodeRun> nodes) {
    for (Map.Entry<String, NodeRun> n : nodes.entrySet()) {
      if (n.getValue().state() != NodeState.FAILED) {
        continue;
      }
      boolean handled =
          run.definition().edges().stream()
              .anyMatch(e -> e.from().equals(n.getKey()) && e.on() != EdgeCondition.SUCCESS);
      if (!handled) {
        return true;
      }
    }
    return false;
  }

  /**
   * What a node's passResult parents hand it: the one parent's message, or a JSON object of parent
   * name to message when several pass one.
   */
  private static Optional<String> params(WorkflowRun run, Map<String, NodeRun> nodes, String node) {
    Map<String, String> passed = new LinkedHashMap<>();
    for (WorkflowEdge e : run.definition().edges()) {
      if (e.to().equals(node)) {
        NodeRun up = nodes.get(e.from());
        if (up.state() == NodeState.SUCCESS
            && up.result() != null
            && nodeOf(run, e.from()).map(WorkflowNode::passResult).orElse(false)) {
          passed.put(e.from(), up.result());
        }
      }
    }
    if (passed.isEmpty()) {
      return Optional.empty();
    }
    if (passed.size() == 1) {
      return Optional.of(passed.values().iterator().next());
    }
    try {
      return Optional.of(JSON.writeValueAsString(passed));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<Ready> triggeredChildren(WorkflowRun run, String node) {
    List<Ready> out = new ArrayList<>();
    for (WorkflowEdge e : run.definition().edges()) {
      NodeRun child = run.nodes().get(e.to());
      if (e.from().equals(node) && child.state() == NodeState.TRIGGERED) {
        WorkflowNode n = nodeOf(run, e.to()).orElseThrow();
        out.add(
            new Ready(
                n.name(),
                n.jobId(),
                new TriggerId(child.triggerIds().get(0)),
                params(run, run.nodes(), n.name())));
      }
    }
    return out;
  }

  /** The TRIGGERED roots of a run: what a re-created scheduled run submits again. */
  public static List<Ready> triggeredRoots(WorkflowRun run) {
    List<Ready> out = new ArrayList<>();
    for (WorkflowNode n : run.definition().nodes()) {
      NodeRun r = run.nodes().get(n.name());
      boolean root = run.definition().edges().stream().noneMatch(e -> e.to().equals(n.name()));
      if (root && r.state() == NodeState.TRIGGERED) {
        out.add(
            new Ready(n.name(), n.jobId(), new TriggerId(r.triggerIds().get(0)), Optional.empty()));
      }
    }
    return out;
  }

  private static Optional<WorkflowNode> nodeOf(WorkflowRun run, String name) {
    return run.definition().nodes().stream().filter(n -> n.name().equals(name)).findFirst();
  }
}
