package dev.kairos.coordinator.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.coordinator.scan.DueFireScanner.DueJob;
import dev.kairos.core.redis.JobFields;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DueFireScannerStillDueTest {

  private static final DueJob LIVE = new DueJob("live", 1_000, Map.of(JobFields.ENABLED, "true"));
  private static final DueJob DELETED = new DueJob("deleted", 1_000, Map.of());
  private static final DueJob DISABLED =
      new DueJob("disabled", 1_000, Map.of(JobFields.ENABLED, "false"));
  private static final DueJob BROKEN = new DueJob("broken", 1_000, Map.of());

  @Test
  void onlyJobsWithoutAHashOrDisabledAreSuspects() {
    assertThat(LIVE.lacksJobOrIsDisabled()).isFalse();
    assertThat(DELETED.lacksJobOrIsDisabled()).isTrue();
    assertThat(DISABLED.lacksJobOrIsDisabled()).isTrue();
    assertThat(new DueJob("z", 1, Map.of(JobFields.ENABLED, "0")).lacksJobOrIsDisabled()).isTrue();
  }

  @Test
  void aSuspectWhoseDueEntryVanishedOrMovedIsDroppedAndOneStillThereIsKept() {
    Map<String, Double> rechecked = new HashMap<>();
    rechecked.put("deleted", null); // deleted between the due read and the hash read
    rechecked.put("disabled", Double.POSITIVE_INFINITY); // parked by the disable meanwhile
    rechecked.put("broken", 1_000.0); // still due, unchanged, and no hash: a real inconsistency

    assertThat(
            DueFireScanner.stillDue(List.of(LIVE, DELETED, DISABLED, BROKEN), rechecked).stream()
                .map(DueJob::id))
        .containsExactly("live", "broken");
  }

  @Test
  void withoutSuspectsEveryJobIsKept() {
    assertThat(DueFireScanner.stillDue(List.of(LIVE), Map.of())).containsExactly(LIVE);
  }
}
