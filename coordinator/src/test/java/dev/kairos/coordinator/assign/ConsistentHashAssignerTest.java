package dev.kairos.coordinator.assign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.coordinator.assign.FireAssigner.NodePicker;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsistentHashAssignerTest {

  private static final List<String> THREE = List.of("node-a", "node-b", "node-c");

  @Test
  void everyFireOfAJobGoesToTheSameNode() {
    NodePicker picker = new ConsistentHashAssigner().forPass(THREE);
    String first = picker.pick("job-42", 1_000);
    for (long fire = 2_000; fire < 100_000; fire += 1_000) {
      assertThat(picker.pick("job-42", fire)).isEqualTo(first);
    }
  }

  @Test
  void jobsSpreadRoughlyEvenlyOverNodes() {
    NodePicker picker = new ConsistentHashAssigner().forPass(THREE);
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < 30_000; i++) {
      counts.merge(picker.pick("job-" + i, 0), 1, Integer::sum);
    }
    assertThat(counts).containsOnlyKeys(THREE);
    // 160 virtual nodes each: every node gets its third within +-20 %.
    counts.values().forEach(n -> assertThat(n).isBetween(8_000, 12_000));
  }

  @Test
  void removingANodeMovesOnlyItsJobs() {
    ConsistentHashAssigner assigner = new ConsistentHashAssigner();
    NodePicker before = assigner.forPass(THREE);
    Map<String, String> owner = new HashMap<>();
    for (int i = 0; i < 10_000; i++) {
      owner.put("job-" + i, before.pick("job-" + i, 0));
    }
    NodePicker after = assigner.forPass(List.of("node-a", "node-c"));
    int moved = 0;
    for (var entry : owner.entrySet()) {
      String now = after.pick(entry.getKey(), 0);
      if (!entry.getValue().equals("node-b")) {
        assertThat(now).as(entry.getKey()).isEqualTo(entry.getValue());
      } else {
        moved++;
        assertThat(now).isIn("node-a", "node-c");
      }
    }
    assertThat(moved).isBetween(2_500, 4_200);
  }

  @Test
  void aSingleNodeGetsEverything() {
    NodePicker picker = new ConsistentHashAssigner(1).forPass(List.of("solo"));
    assertThat(picker.pick("x", 1)).isEqualTo("solo");
    assertThat(picker.pick("y", 2)).isEqualTo("solo");
  }
}
