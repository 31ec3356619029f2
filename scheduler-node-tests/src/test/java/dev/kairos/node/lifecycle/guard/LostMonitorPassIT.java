package dev.kairos.node.lifecycle.guard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.JobHash;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.mq.slot.SlotLease;
import dev.kairos.mq.slot.SlotLeaseConfig;
import dev.kairos.mq.slot.SlotRegistry;
import dev.kairos.protocol.fence.ShardFence;
import dev.kairos.protocol.lost.OpenTriggerStore;
import io.lettuce.core.RedisFuture;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What one monitor pass costs over many open triggers on a 3-master Redis Cluster: a quiet pass
 * (every executor alive: read only) and a pass that marks every one LOST (one fenced call per shard
 * per batch). Prints the numbers with the load average; asserts only correctness.
 */
@RealInfra(redis = RedisMode.CLUSTER)
class LostMonitorPassIT {

  private static final int TRIGGERS = 20_000;

  @Test
  void onePassJudgesEveryOpenTriggerAndMarksTheLostOnesInBatches(EmbeddedRedisCluster cluster)
      throws Exception {
    try (KairosRedis redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(30))) {
      RedisKeys keys = new RedisKeys(ClusterMetadata.initialise(redis, RedisKeys.DEFAULT_SHARDS));
      String app = "pass-" + UUID.randomUUID().toString().substring(0, 8);
      SlotLease lease =
          new SlotLease(
              redis, SlotLeaseConfig.of(app, "busy-executor", "localhost", List.of("work")));
      lease.start();
      try {
        List<String> ids = seed(redis, keys, app, lease.slot());
        long term = new ShardFence(redis, keys, Duration.ofSeconds(30)).highestFence() + 1;
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        LostTriggerMonitor monitor =
            new LostTriggerMonitor(
                term,
                new OpenTriggerStore(
                    redis, Duration.ofMinutes(10), 1_000_000, Duration.ofSeconds(30), meters),
                keys,
                new SlotRegistry(redis)::liveSlots,
                (message, slot) -> {
                  throw new AssertionError("nothing is DISPATCHED here");
                },
                System::currentTimeMillis,
                new LostMonitorSettings(
                    Duration.ofSeconds(5), Duration.ofSeconds(60), Duration.ofMinutes(5), 500, 100),
                stale -> {},
                new GuardMeters(meters));

        long quietStart = System.nanoTime();
        LostTriggerMonitor.PassReport quiet = monitor.pass();
        long quietMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - quietStart);
        assertThat(quiet.lost).isZero();

        lapse(redis, app, lease.slot());
        long lostStart = System.nanoTime();
        LostTriggerMonitor.PassReport marked = monitor.pass();
        long lostMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lostStart);

        assertThat(marked.lost).isGreaterThanOrEqualTo(TRIGGERS);
        for (String id : List.of(ids.get(0), ids.get(TRIGGERS / 2), ids.get(TRIGGERS - 1))) {
          String jobId = id.substring(0, id.indexOf(':'));
          assertThat(redis.sync().hget(RedisKeys.trigger(keys.shardOf(jobId), id), "state"))
              .isEqualTo("LOST");
        }
        System.out.printf(
            "LOST-MONITOR %d open RUNNING triggers over %d shards: quiet pass %d ms (%.0f/s),"
                + " marking pass %d ms (%.0f/s); load average %.2f%n",
            TRIGGERS,
            keys.shards(),
            quietMs,
            TRIGGERS * 1000.0 / Math.max(1, quietMs),
            lostMs,
            TRIGGERS * 1000.0 / Math.max(1, lostMs),
            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      } finally {
        lease.close();
      }
    }
  }

  /** TRIGGERS RUNNING records on the lease's executor, over 200 jobs, pipelined. */
  private static List<String> seed(KairosRedis redis, RedisKeys keys, String app, int slot)
      throws Exception {
    long now = System.currentTimeMillis();
    List<String> ids = new ArrayList<>(TRIGGERS);
    List<RedisFuture<?>> writes = new ArrayList<>();
    for (int j = 0; j < 200; j++) {
      String jobId = app + "-job-" + j;
      int shard = keys.shardOf(jobId);
      JobDefinition job =
          JobDefinition.builder(jobId).app(app).handler("work").fixedRate(1_000).build();
      writes.add(redis.async().hset(RedisKeys.job(shard, jobId), JobHash.toHash(job)));
      for (int f = 0; f < TRIGGERS / 200; f++) {
        String id = jobId + ":" + (now - f * 1_000L);
        ids.add(id);
        writes.add(
            redis
                .async()
                .hset(
                    RedisKeys.trigger(shard, id),
                    Map.of(
                        "id",
                        id,
                        "jobId",
                        jobId,
                        "fireMs",
                        Long.toString(now - f * 1_000L),
                        "state",
                        "RUNNING",
                        "executor",
                        "busy-executor",
                        "slot",
                        Integer.toString(slot))));
        writes.add(redis.async().zadd(RedisKeys.openTriggers(shard), now, id));
      }
    }
    for (RedisFuture<?> write : writes) {
      write.get(60, TimeUnit.SECONDS);
    }
    return ids;
  }

  private static void lapse(KairosRedis redis, String app, int slot) throws Exception {
    ObjectMapper json = new ObjectMapper();
    ObjectNode lease =
        (ObjectNode) json.readTree(redis.sync().hget(RedisKeys.slots(app), Integer.toString(slot)));
    lease.put("expiresMs", 1);
    redis.sync().hset(RedisKeys.slots(app), Integer.toString(slot), json.writeValueAsString(lease));
  }
}
