package dev.kairos.protocol.start;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.redis.ReplicaWait;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.LiveJobs;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The start claim with {@code wait-replicas=1} on a real cluster with replicas: one WAIT per claim
 * call, acknowledged while the shard's replica runs; with the replica frozen the claim still starts
 * (a replica outage must not stop handlers), counted as unacknowledged.
 */
@RealInfra(redis = RedisMode.CLUSTER_WITH_REPLICAS)
class StartClaimWaitIT {

  private static final RedisKeys KEYS = new RedisKeys(RedisKeys.DEFAULT_SHARDS);

  @Test
  void startClaimsWaitForTheReplicaAndProceedWithoutIt(EmbeddedRedisCluster cluster) {
    String job = "job-" + UUID.randomUUID();
    try (KairosRedis redis =
        KairosRedis.connect(
            cluster.uris(),
            true,
            Duration.ofSeconds(5),
            new ReplicaWait.Policy(1, Duration.ofMillis(200)))) {
      TriggerRecords records = new TriggerRecords(redis, KEYS, Duration.ofMinutes(10), 10_000);
      long fireMs = System.currentTimeMillis();

      assertThat(records.claimStart(start(redis, job, fireMs)).started()).isTrue();
      assertThat(redis.replicaWait().waits()).isEqualTo(1);
      assertThat(redis.replicaWait().unacknowledged()).isZero();

      int replica = cluster.replicaOf(cluster.masterOwning(RedisKeys.events(KEYS.shardOf(job))));
      cluster.pauseNode(replica);
      try {
        assertThat(records.claimStart(start(redis, job, fireMs + 1000)).started()).isTrue();
        assertThat(redis.replicaWait().unacknowledged()).isEqualTo(1);
      } finally {
        cluster.resumeNode(replica);
      }
    }
  }

  /** A DISPATCHED record as a node writes it, and the executor's request to start it. */
  private static StartRequest start(KairosRedis redis, String job, long fireMs) {
    String id = job + ":" + fireMs;
    LiveJobs.put(redis, KEYS, job);
    redis
        .sync()
        .hset(
            RedisKeys.trigger(KEYS.shardOf(job), id),
            Map.of(
                "id",
                id,
                "jobId",
                job,
                "fireMs",
                Long.toString(fireMs),
                "state",
                "DISPATCHED",
                "scheduleVersion",
                LiveJobs.VERSION,
                "attempt",
                "1",
                "node",
                "node-1",
                "term",
                "3"));
    return new StartRequest(id, job, fireMs, 1, 0, "exec-1", 0, fireMs);
  }
}
