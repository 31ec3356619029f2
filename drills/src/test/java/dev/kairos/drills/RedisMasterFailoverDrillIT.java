package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@link RedisMasterFailoverDrill} with {@code kairos.redis.wait-replicas=1}: every claim and start
 * claim is on the replica before it counts, so the failover costs no fire and starts none twice.
 */
@ClusterArgs({"--kairos.redis.wait-replicas=1", "--kairos.redis.wait-timeout=100ms"})
class RedisMasterFailoverDrillIT extends RedisMasterFailoverDrill {

  @Test
  void aMasterFailoverWithWaitCostsNoFireAndNoDuplicate() throws Exception {
    StartLedger.Outcome outcome = killAMasterAndMeasure("redis-master-failover");
    assertThat(outcome.duplicates()).as("trigger ids started twice").isEmpty();
    assertThat(nodeWaits).as("WAITs the leader sent after its claim batches").isPositive();
  }
}
