package dev.kairos.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.TriggerId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DagStepTest {

  private static WorkflowRun run(List<WorkflowNode> nodes, List<WorkflowEdge> edges) {
    var w = new WorkflowDefinition("wf", "etl", "", null, true, 1, nodes, edges);
    return WorkflowRun.of("wf@100", w, 100, "API", 100);
  }

  private static WorkflowNode node(String name) {
    return new WorkflowNode(name, "job-" + name, false);
  }

  private static WorkflowEdge edge(String from, String to, EdgeCondition on) {
    return new WorkflowEdge(from, to, on);
  }

  private static TriggerId id(WorkflowRun r, String node) {
    return TriggerId.workflowNode("job-" + node, r.fireMs(), r.id(), node);
  }

  private static DagStep.Result end(DagStep.Result s, String node, boolean ok) {
    return DagStep.nodeEnded(s.run(), node, id(s.run(), node), ok, "out-" + node, 200);
  }

  private static Map<String, NodeState> states(DagStep.Result s) {
    var out = new java.util.LinkedHashMap<String, NodeState>();
    s.run().nodes().forEach((k, v) -> out.put(k, v.state()));
    return out;
  }

  private static List<String> ready(DagStep.Result s) {
    return s.ready().stream().map(DagStep.Ready::node).toList();
  }

  private final List<WorkflowEdge> diamond =
      List.of(
          edge("a", "b", null), edge("a", "c", null), edge("b", "d", null), edge("c", "d", null));

  @Test
  void aDiamondFansOutThenInAndSucceeds() {
    var s = DagStep.start(run(List.of(node("a"), node("b"), node("c"), node("d")), diamond), 100);
    assertThat(ready(s)).containsExactly("a");
    assertThat(s.ready().get(0).triggerId().value()).isEqualTo("job-a:100:wwf@100|a");

    s = end(s, "a", true);
    assertThat(ready(s)).containsExactly("b", "c");
    s = end(s, "b", true);
    assertThat(ready(s)).as("d waits for c (fan-in)").isEmpty();
    assertThat(states(s)).containsEntry("d", NodeState.PENDING);
    s = end(s, "c", true);
    assertThat(ready(s)).containsExactly("d");
    assertThat(s.run().state()).isEqualTo(RunState.RUNNING);
    s = end(s, "d", true);
    assertThat(s.run().state()).isEqualTo(RunState.SUCCEEDED);
    assertThat(s.run().endedMs()).isEqualTo(200);
  }

  @Test
  void aFailureSkipsItsSuccessChildrenTransitivelyAndFailsTheRun() {
    var s = DagStep.start(run(List.of(node("a"), node("b"), node("c"), node("d")), diamond), 100);
    s = end(s, "a", false);
    assertThat(ready(s)).isEmpty();
    assertThat(states(s))
        .containsEntry("a", NodeState.FAILED)
        .containsEntry("b", NodeState.SKIPPED)
        .containsEntry("c", NodeState.SKIPPED)
        .containsEntry("d", NodeState.SKIPPED);
    assertThat(s.run().state()).isEqualTo(RunState.FAILED);
  }

  @Test
  void aFailureEdgeRunsOnFailureAndIsSkippedOnSuccessAndAHandledFailureSucceeds() {
    List<WorkflowEdge> edges =
        List.of(edge("a", "ok", null), edge("a", "cleanup", EdgeCondition.FAILURE));
    var failed = DagStep.start(run(List.of(node("a"), node("ok"), node("cleanup")), edges), 100);
    failed = end(failed, "a", false);
    assertThat(ready(failed)).containsExactly("cleanup");
    assertThat(states(failed)).containsEntry("ok", NodeState.SKIPPED);
    failed = end(failed, "cleanup", true);
    assertThat(failed.run().state()).as("a's failure was handled").isEqualTo(RunState.SUCCEEDED);

    var succeeded = DagStep.start(run(List.of(node("a"), node("ok"), node("cleanup")), edges), 100);
    succeeded = end(succeeded, "a", true);
    assertThat(ready(succeeded)).containsExactly("ok");
    assertThat(states(succeeded)).containsEntry("cleanup", NodeState.SKIPPED);
    succeeded = end(succeeded, "ok", true);
    assertThat(succeeded.run().state()).isEqualTo(RunState.SUCCEEDED);
  }

  @Test
  void anAlwaysEdgeRunsEitherWayButNotAfterASkippedNode() {
    List<WorkflowEdge> edges =
        List.of(edge("a", "b", null), edge("b", "report", EdgeCondition.ALWAYS));
    var s = DagStep.start(run(List.of(node("a"), node("b"), node("report")), edges), 100);
    s = end(s, "a", true);
    s = end(s, "b", false);
    assertThat(ready(s)).containsExactly("report");

    var skipped = DagStep.start(run(List.of(node("a"), node("b"), node("report")), edges), 100);
    skipped = end(skipped, "a", false);
    assertThat(states(skipped))
        .containsEntry("b", NodeState.SKIPPED)
        .containsEntry("report", NodeState.SKIPPED);
  }

  @Test
  void aReplayedEndChangesNothingAndHandsBackTheTriggeredChildren() {
    var s = DagStep.start(run(List.of(node("a"), node("b"), node("c"), node("d")), diamond), 100);
    s = end(s, "a", true);
    var replay = end(s, "a", true);
    assertThat(replay.changed()).isFalse();
    assertThat(ready(replay)).containsExactly("b", "c");
    assertThat(replay.ready().get(0).triggerId()).isEqualTo(s.ready().get(0).triggerId());
  }

  @Test
  void passResultHandsTheMessageToTheChildrenAndRetriesAreListed() {
    var nodes = List.of(new WorkflowNode("a", "job-a", true), node("b"));
    var s = DagStep.start(run(nodes, List.of(edge("a", "b", null))), 100);
    TriggerId last = id(s.run(), "a").retry(2);
    s = DagStep.nodeEnded(s.run(), "a", last, true, "{\"rows\":7}", 150);
    assertThat(s.ready())
        .singleElement()
        .extracting(DagStep.Ready::params)
        .isEqualTo(Optional.of("{\"rows\":7}"));
    assertThat(s.run().nodes().get("a").triggerIds())
        .containsExactly(id(s.run(), "a").value(), id(s.run(), "a").retry(1).value(), last.value());
  }

  @Test
  void cancelSkipsPendingNodesAndStartsNothingMore() {
    var s = DagStep.start(run(List.of(node("a"), node("b"), node("c"), node("d")), diamond), 100);
    s = DagStep.cancel(s.run(), 150);
    assertThat(s.run().state()).isEqualTo(RunState.CANCELLED);
    assertThat(s.run().endedMs()).as("a still runs").isZero();
    s = end(s, "a", true);
    assertThat(ready(s)).isEmpty();
    assertThat(s.run().state()).isEqualTo(RunState.CANCELLED);
    assertThat(s.run().endedMs()).isEqualTo(200);
  }
}
