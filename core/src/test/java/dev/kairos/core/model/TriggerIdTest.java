package dev.kairos.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TriggerIdTest {

  @Test
  void retriesOfAChainAreSiblingsOfTheRoot() {
    TriggerId first = TriggerId.scheduled("job", 1_000);
    TriggerId r1 = first.retry(1);
    TriggerId r2 = r1.retry(2);

    assertThat(r1.value()).isEqualTo("job:1000/r1");
    assertThat(r2.value()).isEqualTo("job:1000/r2");
    assertThat(r2.root()).isEqualTo(first);
    assertThat(r2.retryNumber()).isEqualTo(2);
    assertThat(first.retryNumber()).isZero();
    assertThat(r2.jobId()).isEqualTo("job");
    assertThat(r2.fireMs()).isEqualTo(1_000);
    assertThatThrownBy(() -> first.retry(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void retriesOfManualAndBroadcastTriggersKeepTheirForm() {
    TriggerId manual = TriggerId.manual("job", 5, "ab12");
    assertThat(manual.retry(3).value()).isEqualTo("job:5:mab12/r3");
    assertThat(manual.retry(3).root()).isEqualTo(manual);

    TriggerId shard = TriggerId.scheduled("job", 5).shard(1, 4);
    assertThat(shard.root()).isEqualTo(shard); // "/4" is not a retry suffix
    assertThat(shard.retry(1).root()).isEqualTo(shard);
  }

  @Test
  void childIdIsDeterministicPerParentFireWhicheverAttemptOrShardSucceeded() {
    TriggerId parent = TriggerId.scheduled("parent", 7_000);
    TriggerId child = parent.child("kid");

    assertThat(child.value()).isEqualTo("kid:7000:cparent:7000");
    assertThat(child.jobId()).isEqualTo("kid");
    assertThat(child.fireMs()).isEqualTo(7_000);
    assertThat(parent.retry(2).child("kid")).isEqualTo(child);
    assertThat(parent.shard(2, 3).child("kid")).isEqualTo(child);
    assertThat(child.retry(1).root()).isEqualTo(child);
    assertThat(child.child("grandkid").value()).isEqualTo("grandkid:7000:ckid:7000:cparent:7000");
    assertThat(child.isScheduled()).isFalse();
  }

  @Test
  void backfillIdIsDeterministicPerJobAndHistoricalFireTime() {
    TriggerId fire = TriggerId.backfill("nightly", 1_700_000_000_000L);

    assertThat(fire.value()).isEqualTo("nightly:1700000000000:b");
    assertThat(fire).isEqualTo(TriggerId.backfill("nightly", 1_700_000_000_000L));
    assertThat(fire).isNotEqualTo(TriggerId.scheduled("nightly", 1_700_000_000_000L));
    assertThat(fire.jobId()).isEqualTo("nightly");
    assertThat(fire.fireMs()).isEqualTo(1_700_000_000_000L);
    assertThat(fire.isBackfill()).isTrue();
    assertThat(fire.isScheduled()).isFalse();
    assertThat(fire.root()).isEqualTo(fire);
    assertThat(fire.retryNumber()).isZero();
  }

  @Test
  void retriesOfABackfillFireKeepItsHistoricalFireTime() {
    TriggerId fire = TriggerId.backfill("nightly", 5_000);
    TriggerId r2 = fire.retry(1).retry(2);

    assertThat(r2.value()).isEqualTo("nightly:5000:b/r2");
    assertThat(r2.root()).isEqualTo(fire);
    assertThat(r2.retryNumber()).isEqualTo(2);
    assertThat(r2.fireMs()).isEqualTo(5_000);
    assertThat(r2.jobId()).isEqualTo("nightly");
    assertThat(r2.isBackfill()).isTrue();
  }

  @Test
  void otherFormsAreNotBackfills() {
    assertThat(TriggerId.scheduled("j", 1).isBackfill()).isFalse();
    assertThat(TriggerId.manual("j", 1, "b").isBackfill()).isFalse();
    assertThat(TriggerId.scheduled("p", 1).child("j").isBackfill()).isFalse();
    assertThat(TriggerId.scheduled("j", 1).shard(0, 2).isBackfill()).isFalse();
    assertThatThrownBy(() -> TriggerId.backfill("j", -1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
