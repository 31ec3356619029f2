package dev.kairos.protocol.start;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.LiveJobs;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The executor side of the open-trigger index ({@link RedisKeys#openTriggers}) and of a cancel
 * before start: a start re-scores the trigger, every final state removes it, and a CANCELLED
 * trigger never starts.
 */
@RealInfra(redis = RedisMode.CLUSTER)
class OpenTriggerIndexIT {

  private static final Duration D = Duration.ofMinutes(10);
  private static final RedisKeys KEYS = new RedisKeys(RedisKeys.DEFAULT_SHARDS);

  private final KairosRedis redis;
  private final TriggerRecords records;
  private final String job = "job-" + UUID.randomUUID();
  private final int shard = KEYS.shardOf(job);

  OpenTriggerIndexIT(EmbeddedRedisCluster cluster) {
    redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5));
    records = new TriggerRecords(redis, KEYS, D, 10_000);
  }

  @AfterEach
  void close() {
    redis.close();
  }

  private long redisNowMs() {
    return redis.sync().time().get(0).transform(s -> Long.parseLong(s) * 1000);
  }

  /** A DISPATCHED record in the open index, as ack_dispatched leaves it. */
  private String dispatched(long fireMs, String state) {
    String id = job + ":" + fireMs;
    LiveJobs.put(redis, KEYS, job);
    redis
        .sync()
        .hset(
            RedisKeys.trigger(shard, id),
            Map.of(
                "id",
                id,
                "jobId",
                job,
                "fireMs",
                Long.toString(fireMs),
                "state",
                state,
                "scheduleVersion",
                LiveJobs.VERSION));
    redis.sync().zadd(RedisKeys.openTriggers(shard), fireMs, id);
    return id;
  }

  private Double openScore(String triggerId) {
    return redis.sync().zscore(RedisKeys.openTriggers(shard), triggerId);
  }

  private StartRequest start(String triggerId, long fireMs, String executor) {
    return new StartRequest(triggerId, job, fireMs, 1, 0, executor, 0, fireMs);
  }

  @Test
  void aStartReScoresTheTriggerAtItsStartTime() {
    long fire = redisNowMs() - 1_000;
    String id = dispatched(fire, "DISPATCHED");

    StartOutcome outcome = records.claimStart(start(id, fire, "exec-1"));

    assertThat(outcome.started()).isTrue();
    assertThat(openScore(id)).isEqualTo((double) outcome.startedMs());
  }

  @Test
  void aRecreatedStartEntersTheIndex() {
    long fire = redisNowMs();
    String id = job + ":" + fire;

    StartOutcome outcome = records.claimStart(start(id, fire, "exec-1"));

    assertThat(outcome.started()).isTrue();
    assertThat(openScore(id)).isEqualTo((double) outcome.startedMs());
  }

  @Test
  void everyExecutorFinalStateRemovesTheTrigger() {
    long fire = redisNowMs() - 1_000;
    for (TriggerState state : TriggerRecords.EXECUTOR_FINAL_STATES) {
      String id = dispatched(fire - state.ordinal(), "DISPATCHED");
      records.claimStart(start(id, fire, "exec-1"));

      CompletionOutcome outcome =
          records.complete(id, job, fire, "exec-1", state, "ended " + state);

      assertThat(outcome.kind()).as(state.name()).isEqualTo(CompletionOutcome.Kind.COMPLETED);
      assertThat(redis.sync().hget(RedisKeys.trigger(shard, id), "state")).isEqualTo(state.name());
      assertThat(openScore(id)).as(state.name()).isNull();
    }
  }

  @Test
  void anExpiredDeliveryRemovesTheTrigger() {
    long fire = redisNowMs() - D.toMillis() - 1_000;
    String id = dispatched(fire, "DISPATCHED");

    assertThat(records.claimStart(start(id, fire, "exec-1")).kind())
        .isEqualTo(StartOutcome.Kind.EXPIRED);
    assertThat(openScore(id)).isNull();
  }

  @Test
  void aTriggerCancelledBeforeItStartedNeverStarts() {
    long fire = redisNowMs() - 100;
    String id = dispatched(fire, "CANCELLED");
    redis.sync().zrem(RedisKeys.openTriggers(shard), id); // cancel_trigger removed it

    StartOutcome outcome = records.claimStart(start(id, fire, "exec-1"));

    assertThat(outcome.kind()).isEqualTo(StartOutcome.Kind.DUPLICATE);
    assertThat(outcome.stateFound()).isEqualTo("CANCELLED");
    assertThat(redis.sync().hgetall(RedisKeys.trigger(shard, id)))
        .containsEntry("state", "CANCELLED")
        .doesNotContainKey("startedMs")
        .doesNotContainKey("executor");
    assertThat(openScore(id)).isNull();
  }
}
