package dev.kairos.drills;

import org.junit.jupiter.api.Test;

/**
 * {@link RedisMasterFailoverDrill} with {@code kairos.redis.wait-replicas=0} (the default):
 * replication is asynchronous, so the kill can take the last start claims with it; duplicates are
 * measured and reported, not asserted. Not part of {@code verify} (the drills' failsafe excludes
 * it): {@code drills/drill redis-master-failover-nowait}.
 */
@ClusterArgs({"--kairos.redis.wait-replicas=0"})
class RedisMasterFailoverNoWaitDrillIT extends RedisMasterFailoverDrill {

  @Test
  void aMasterFailoverWithoutWaitIsMeasured() throws Exception {
    StartLedger.Outcome outcome = killAMasterAndMeasure("redis-master-failover-nowait");
    log.info(
        "DRILL redis-master-failover-nowait: {} trigger ids started twice (async replication)",
        outcome.duplicates().size());
  }
}
