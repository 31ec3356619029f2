package dev.kairos.protocol.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.record.EndedCompaction.Ended;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

@RealInfra(redis = RedisMode.CLUSTER)
class EndedCompactionIT {

  private static final RedisKeys KEYS = new RedisKeys(RedisKeys.DEFAULT_SHARDS);
  private static final Duration D = Duration.ofMinutes(10);
  private static final long FIRE = 1_800_000_003_000L;

  private final KairosRedis redis;
  private final EndedCompaction compaction;
  private final String job = "job-" + UUID.randomUUID();
  private final int shard = KEYS.shardOf(job);

  EndedCompactionIT(EmbeddedRedisCluster cluster) {
    redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5));
    compaction = new EndedCompaction(redis, D);
  }

  @AfterEach
  void close() {
    redis.close();
  }

  private String record(long fireMs, String state, Map<String, String> extra) {
    String id = job + ":" + fireMs;
    redis
        .sync()
        .hset(
            RedisKeys.trigger(shard, id),
            Map.of("id", id, "jobId", job, "fireMs", Long.toString(fireMs), "state", state));
    if (!extra.isEmpty()) {
      redis.sync().hset(RedisKeys.trigger(shard, id), extra);
    }
    return id;
  }

  private long compact(List<Ended> ended) {
    return compaction.compact(shard, ended).stream()
        .map(CompletionStage::toCompletableFuture)
        .mapToLong(java.util.concurrent.CompletableFuture::join)
        .sum();
  }

  @Test
  void aSucceededScheduledFireBecomesATombstoneInItsFireTimesBucket() {
    String id = record(FIRE, "SUCCESS", Map.of());

    assertThat(compact(List.of(new Ended(id, FIRE)))).isEqualTo(1);

    assertThat(redis.sync().exists(RedisKeys.trigger(shard, id))).isZero();
    String bucket = RedisKeys.ended(shard, FIRE);
    assertThat(redis.sync().hget(bucket, id)).isEqualTo("SUCCESS");
    long bucketEnd = (FIRE / RedisKeys.ENDED_BUCKET_MS + 1) * RedisKeys.ENDED_BUCKET_MS;
    long expectedTtl = bucketEnd + D.toMillis() - System.currentTimeMillis();
    assertThat(redis.sync().pttl(bucket)).isBetween(expectedTtl - 5_000, expectedTtl + 5_000);
  }

  @Test
  void onlySuccessesOfScheduledFiresWithoutALateResultAreCompacted() {
    String failed = record(FIRE + 1, "FAIL", Map.of());
    String running = record(FIRE + 2, "RUNNING", Map.of());
    String retry = record(FIRE + 3, "SUCCESS", Map.of("kind", "RETRY"));
    String late = record(FIRE + 4, "SUCCESS", Map.of("lateResult", "FAIL|1|x"));
    String missing = job + ":" + (FIRE + 5);

    long compacted =
        compact(
            List.of(
                new Ended(failed, FIRE + 1),
                new Ended(running, FIRE + 2),
                new Ended(retry, FIRE + 3),
                new Ended(late, FIRE + 4),
                new Ended(missing, FIRE + 5)));

    assertThat(compacted).isZero();
    for (String id : List.of(failed, running, retry, late)) {
      assertThat(redis.sync().exists(RedisKeys.trigger(shard, id))).as(id).isOne();
    }
    // The bucket itself may exist: each test's job lands on a random shard, and another test of
    // this class may have compacted into the same shard's bucket. Only these ids must be absent.
    String bucket = RedisKeys.ended(shard, FIRE);
    for (String id : List.of(failed, running, retry, late, missing)) {
      assertThat(redis.sync().hexists(bucket, id)).as(id).isFalse();
    }
  }

  @Test
  void aReplayedCompactionChangesNothing() {
    String id = record(FIRE, "SUCCESS", Map.of());
    assertThat(compact(List.of(new Ended(id, FIRE)))).isEqualTo(1);
    assertThat(compact(List.of(new Ended(id, FIRE)))).isZero();
    assertThat(redis.sync().hget(RedisKeys.ended(shard, FIRE), id)).isEqualTo("SUCCESS");
  }
}
