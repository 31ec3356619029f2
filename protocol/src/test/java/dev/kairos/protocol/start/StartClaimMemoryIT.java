package dev.kairos.protocol.start;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.LiveJobs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures what the start claim costs in Redis memory: 100k triggers written the way a node writes
 * them, then started, over a real 3-master cluster.
 */
@RealInfra(redis = RedisMode.CLUSTER)
class StartClaimMemoryIT {

  private static final Logger log = LoggerFactory.getLogger(StartClaimMemoryIT.class);
  private static final int TRIGGERS = 100_000;
  private static final int JOBS = 1_000;
  private static final int WINDOW = 2_000; // in-flight async calls
  private static final Duration D = Duration.ofMinutes(10);
  private static final RedisKeys KEYS = new RedisKeys(RedisKeys.DEFAULT_SHARDS);

  private final EmbeddedRedisCluster cluster;

  StartClaimMemoryIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @Test
  void aStartedTriggerCostsUnderOneKilobyteOfRedisMemory() throws Exception {
    String run = UUID.randomUUID().toString().substring(0, 8);
    long fire = System.currentTimeMillis() - 1_000;
    List<String> ids = new ArrayList<>(TRIGGERS);
    for (int i = 0; i < TRIGGERS; i++) {
      ids.add("job-" + run + "-" + (i % JOBS) + ":" + (fire + i / JOBS * 1_000));
    }
    try (KairosRedis redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(10))) {
      TriggerRecords records = new TriggerRecords(redis, KEYS, D, 10_000_000);
      long before = usedMemory();

      long began = System.nanoTime();
      List<CompletableFuture<?>> inFlight = new ArrayList<>();
      for (String id : ids) {
        String job = id.substring(0, id.indexOf(':'));
        long fireMs = Long.parseLong(id.substring(id.indexOf(':') + 1));
        String key = RedisKeys.trigger(KEYS.shardOf(job), id);
        LiveJobs.put(redis, KEYS, job);
        RedisFuture<Long> write =
            redis
                .async()
                .hset(
                    key,
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
                        "1",
                        "attempt",
                        "1",
                        "node",
                        "node-1",
                        "term",
                        "7",
                        "claimedMs",
                        Long.toString(fireMs - 900),
                        "dispatchedMs",
                        Long.toString(fireMs)));
        inFlight.add(write.toCompletableFuture());
        inFlight.add(
            records
                .claimStartAsync(new StartRequest(id, job, fireMs, 1, 0, "exec-" + run, 0, fireMs))
                .toCompletableFuture()
                .thenAccept(o -> assertThat(o.kind()).isEqualTo(StartOutcome.Kind.STARTED)));
        if (inFlight.size() >= WINDOW) {
          drain(inFlight);
        }
      }
      drain(inFlight);
      long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);

      long after = usedMemory();
      double perTrigger = (after - before) / (double) TRIGGERS;
      long sampled = 0;
      for (int i = 0; i < 100; i++) {
        String id = ids.get(i * (TRIGGERS / 100));
        String job = id.substring(0, id.indexOf(':'));
        sampled += redis.sync().memoryUsage(RedisKeys.trigger(KEYS.shardOf(job), id));
      }
      double perRecord = sampled / 100.0;
      double projectedGb = perTrigger * 10_000 * D.toSeconds() / 1e9;
      log.info(
          "start claims: {} triggers written and started in {} ms ({} per s); used_memory delta"
              + " {} B per trigger (record + its event); MEMORY USAGE of a record {} B;"
              + " at 10k fires/s x D={} that is {} GB",
          TRIGGERS,
          elapsedMs,
          TRIGGERS * 1000L / Math.max(1, elapsedMs),
          Math.round(perTrigger),
          Math.round(perRecord),
          D,
          String.format("%.1f", projectedGb));
      assertThat(perTrigger).isBetween(50.0, 1024.0);

      for (String id : ids) {
        String job = id.substring(0, id.indexOf(':'));
        inFlight.add(
            redis.async().del(RedisKeys.trigger(KEYS.shardOf(job), id)).toCompletableFuture());
        if (inFlight.size() >= WINDOW) {
          drain(inFlight);
        }
      }
      drain(inFlight);
    }
  }

  private static void drain(List<CompletableFuture<?>> inFlight) throws Exception {
    CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    inFlight.clear();
  }

  /** Sum of used_memory over every master. */
  private long usedMemory() {
    long total = 0;
    for (String uri : cluster.uris()) {
      RedisClient client = RedisClient.create(uri);
      try (StatefulRedisConnection<String, String> c = client.connect()) {
        String info = c.sync().info("memory");
        for (String line : info.split("\r\n")) {
          if (line.startsWith("used_memory:")) {
            total += Long.parseLong(line.substring("used_memory:".length()).trim());
          }
        }
      } finally {
        client.shutdown();
      }
    }
    return total;
  }
}
