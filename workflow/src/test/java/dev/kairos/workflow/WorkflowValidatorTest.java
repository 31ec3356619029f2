package dev.kairos.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class WorkflowValidatorTest {

  private static final Map<String, String> JOBS =
      Map.of("ja", "etl", "jb", "etl", "jc", "etl", "other", "billing");
  private static final Function<String, Optional<String>> APPS =
      id -> Optional.ofNullable(JOBS.get(id));
  private final WorkflowValidator validator = new WorkflowValidator(3);

  private static WorkflowDefinition wf(List<WorkflowNode> nodes, List<WorkflowEdge> edges) {
    return new WorkflowDefinition("wf", "etl", "", null, true, 0, nodes, edges);
  }

  private static WorkflowNode node(String name, String job) {
    return new WorkflowNode(name, job, false);
  }

  @Test
  void aDiamondIsValid() {
    var w =
        wf(
            List.of(node("a", "ja"), node("b", "jb"), node("c", "jc")),
            List.of(
                new WorkflowEdge("a", "b", null),
                new WorkflowEdge("a", "c", EdgeCondition.FAILURE),
                new WorkflowEdge("b", "c", EdgeCondition.ALWAYS)));
    assertThat(validator.check(w, APPS)).isEmpty();
  }

  @Test
  void aCycleIsRefusedAndNamed() {
    var w =
        wf(
            List.of(node("a", "ja"), node("b", "jb"), node("c", "jc")),
            List.of(
                new WorkflowEdge("a", "b", null),
                new WorkflowEdge("b", "c", null),
                new WorkflowEdge("c", "b", null)));
    assertThat(validator.check(w, APPS))
        .containsExactly(new Violation("edges", "form a cycle: b -> c -> b"));
  }

  @Test
  void unknownNodesJobsAndJobsOfAnotherAppNameTheirField() {
    var w =
        wf(
            List.of(node("a", "ja"), node("b", "missing"), node("c", "other")),
            List.of(new WorkflowEdge("a", "x", null), new WorkflowEdge("y", "a", null)));
    assertThat(validator.check(w, APPS))
        .extracting(Violation::field)
        .containsExactly("nodes[1].jobId", "nodes[2].jobId", "edges[0].to", "edges[1].from");
  }

  @Test
  void duplicateNamesNoNodesTooManyNodesAndBadScheduleAreRefused() {
    assertThat(validator.check(wf(List.of(node("a", "ja"), node("a", "jb")), List.of()), APPS))
        .extracting(Violation::field)
        .containsExactly("nodes[1].name");
    assertThat(validator.check(wf(List.of(), List.of()), APPS))
        .extracting(Violation::field)
        .containsExactly("nodes");
    List<WorkflowNode> four =
        List.of(node("a", "ja"), node("b", "ja"), node("c", "ja"), node("d", "ja"));
    assertThat(validator.check(wf(four, List.of()), APPS))
        .extracting(Violation::field)
        .containsExactly("nodes");
    var badCron =
        new WorkflowDefinition(
            "wf",
            "etl",
            "",
            new WorkflowSchedule("not a cron", "UTC"),
            true,
            0,
            List.of(node("a", "ja")),
            List.of());
    assertThat(validator.check(badCron, APPS))
        .extracting(Violation::field)
        .containsExactly("schedule.cron");
    var badZone =
        new WorkflowDefinition(
            "wf",
            "etl",
            "",
            new WorkflowSchedule("*/2 * * * * *", "Mars/Olympus"),
            true,
            0,
            List.of(node("a", "ja")),
            List.of());
    assertThat(validator.check(badZone, APPS))
        .extracting(Violation::field)
        .containsExactly("schedule.zone");
  }
}
