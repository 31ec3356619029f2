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
  void workflowNodeIdKeepsJobFireRootAndRetryRulesAndNamesItsRunAndNode() {
    TriggerId node = TriggerId.workflowNode("etl.load", 9_000, "nightly@9000", "load-b");

    assertThat(node.value()).isEqualTo("etl.load:9000:wnightly@9000|load-b");
    assertThat(node.jobId()).isEqualTo("etl.load");
    assertThat(node.fireMs()).isEqualTo(9_000);
    assertThat(node.isScheduled()).isFalse();
    assertThat(node.isWorkflowNode()).isTrue();
    assertThat(node.workflowRunId()).isEqualTo("nightly@9000");
    assertThat(node.workflowNodeName()).isEqualTo("load-b");
    assertThat(node.retryNumber()).isZero();

    TriggerId retry = node.retry(2);
    assertThat(retry.value()).isEqualTo("etl.load:9000:wnightly@9000|load-b/r2");
    assertThat(retry.root()).isEqualTo(node);
    assertThat(retry.retryNumber()).isEqualTo(2);
    assertThat(retry.isWorkflowNode()).isTrue();
    assertThat(retry.workflowRunId()).isEqualTo("nightly@9000");
    assertThat(retry.workflowNodeName()).isEqualTo("load-b");

    TriggerId apiRun = TriggerId.workflowNode("a", 5, "wf@5m1f2e", "n1");
    assertThat(apiRun.workflowRunId()).isEqualTo("wf@5m1f2e");
    assertThat(apiRun.fireMs()).isEqualTo(5);
  }

  @Test
  void onlyWorkflowFormsAreWorkflowNodes() {
    assertThat(TriggerId.scheduled("wjob", 5).isWorkflowNode()).isFalse();
    assertThat(TriggerId.manual("wjob", 5, "w1").isWorkflowNode()).isFalse();
    assertThat(TriggerId.scheduled("w", 5).shard(1, 2).isWorkflowNode()).isFalse();
    TriggerId node = TriggerId.workflowNode("a", 5, "wf@5", "n");
    assertThat(node.child("kid").isWorkflowNode()).as("a child of a node is no node").isFalse();
    assertThatThrownBy(() -> TriggerId.scheduled("a", 5).workflowRunId())
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> TriggerId.workflowNode("a", 5, "wf@5", "x|y"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TriggerId.workflowNode("a", 5, "wf:5", "n"))
        .isInstanceOf(IllegalArgumentException.class);
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
