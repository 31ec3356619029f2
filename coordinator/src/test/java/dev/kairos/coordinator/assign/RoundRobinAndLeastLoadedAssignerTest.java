package dev.kairos.coordinator.assign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.coordinator.assign.FireAssigner.NodePicker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoundRobinAndLeastLoadedAssignerTest {

  @Test
  void roundRobinTakesNodesInTurnAcrossPasses() {
    RoundRobinAssigner assigner = new RoundRobinAssigner();
    List<String> picks = new ArrayList<>();
    NodePicker first = assigner.forPass(List.of("a", "b", "c"));
    picks.add(first.pick("j", 1));
    picks.add(first.pick("j", 2));
    NodePicker second = assigner.forPass(List.of("a", "b", "c"));
    picks.add(second.pick("j", 3));
    picks.add(second.pick("j", 4));
    assertThat(picks).containsExactly("a", "b", "c", "a");
  }

  @Test
  void leastLoadedFillsTheEmptiestNodeFirst() {
    WheelLoad load = nodes -> Map.of("a", 5L, "b", 2L);
    NodePicker picker = new LeastLoadedAssigner(load).forPass(List.of("a", "b", "c"));
    List<String> picks = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      picks.add(picker.pick("j" + i, i));
    }
    // c starts at 0, b at 2, a at 5; ties go to the earlier node in the list.
    assertThat(picks).containsExactly("c", "c", "b", "c", "b", "c", "b", "c");
  }
}
