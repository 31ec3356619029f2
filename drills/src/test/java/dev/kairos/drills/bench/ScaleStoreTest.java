package dev.kairos.drills.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScaleStoreTest {

  private static final long LEVEL_START = 1_790_000_123_456L;

  @Test
  void theBurstIsEveryHundredthJobAtTheWholeMinute() {
    ScaleStore store = stored(1_000);
    long minute = 1_790_000_160_000L;
    assertThat(store.minuteBurst(minute))
        .hasSize(10)
        .startsWith("scale-0000000:" + minute)
        .endsWith("scale-0000900:" + minute);
    assertThat(store.expectedFires(minute - 30_000, minute + 30_000))
        .containsAll(store.minuteBurst(minute));
    assertThatThrownBy(() -> store.minuteBurst(minute + 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aFixedRateJobWithoutItsStoredCreationTimeIsAnError() {
    ScaleStore store = new ScaleStore(new ScaleMix(33));
    store.added(0, 100, LEVEL_START);
    assertThatThrownBy(() -> store.expectedFires(LEVEL_START, LEVEL_START + 3_600_000))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("scale-0000001");
  }

  @Test
  void levelsFollowEachOther() {
    ScaleStore store = stored(200);
    assertThat(store.size()).isEqualTo(200);
    assertThatThrownBy(() -> store.added(100, 300, LEVEL_START))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(ScaleStore.fixedRateIds(100, 200))
        .containsExactly("scale-0000101", "scale-0000102", "scale-0000103");
  }

  private static ScaleStore stored(long jobs) {
    ScaleStore store = new ScaleStore(new ScaleMix(33));
    store.added(0, jobs, LEVEL_START);
    Map<String, Long> created = new HashMap<>();
    ScaleStore.fixedRateIds(0, jobs).forEach(id -> created.put(id, LEVEL_START + 500));
    store.anchors(created);
    return store;
  }
}
