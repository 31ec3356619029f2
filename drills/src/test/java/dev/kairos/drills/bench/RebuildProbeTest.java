package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RebuildProbeTest {

  @Test
  void dueScoresAfterTheRebuildAreComparedWithThoseBefore() {
    Map<String, Double> before = new HashMap<>();
    before.put("same", 1000.0);
    before.put("fired-or-skipped", 1000.0);
    before.put("earlier", 1000.0);
    before.put("lost", 1000.0);
    before.put("one-shot-done", null);
    Map<String, Double> after = new HashMap<>();
    after.put("same", 1000.0);
    after.put("fired-or-skipped", 4600.0);
    after.put("earlier", 900.0);
    after.put("lost", null);
    after.put("one-shot-done", null);
    assertThat(RebuildProbe.compare(before, after)).isEqualTo(new RebuildProbe.Scores(2, 1, 1, 1));
  }
}
