package dev.kairos.protocol.start;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.LiveJobs;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * On one Redis server a script call carries the claims and ends of every shard that queued behind
 * the calls in flight ({@link ShardedCall}): each caller must still get its own trigger's outcome,
 * and each write must land in its own shard's record, stream and open-trigger index.
 */
@RealInfra(redis = RedisMode.STANDALONE)
class TriggerRecordsStandaloneIT {

  private static final Duration D = Duration.ofMinutes(10);
  private static final RedisKeys KEYS = new RedisKeys(RedisKeys.DEFAULT_SHARDS);

  private final KairosRedis redis;
  private final TriggerRecords records;
  private final String run = UUID.randomUUID().toString().substring(0, 8);

  TriggerRecordsStandaloneIT(EmbeddedRedis server) {
    redis = KairosRedis.connect(List.of(server.uri()), false, Duration.ofSeconds(5));
    records = new TriggerRecords(redis, KEYS, D, 10_000);
  }

  @AfterEach
  void close() {
    redis.close();
  }

  private long redisNowMs() {
    return redis.sync().time().get(0).transform(s -> Long.parseLong(s) * 1000);
  }

  private String job(int i) {
    return "job-" + run + "-" + i;
  }

  private String triggerKey(int i, String triggerId) {
    return RedisKeys.trigger(KEYS.shardOf(job(i)), triggerId);
  }

  /** Writes the record the way a scheduler node does before it publishes. */
  private String dispatched(int i, long fireMs, String state) {
    String id = job(i) + ":" + fireMs;
    LiveJobs.put(redis, KEYS, job(i));
    redis
        .sync()
        .hset(
            triggerKey(i, id),
            Map.of(
                "id",
                id,
                "jobId",
                job(i),
                "fireMs",
                Long.toString(fireMs),
                "state",
                state,
                "scheduleVersion",
                LiveJobs.VERSION,
                "attempt",
                "1"));
    return id;
  }

  @Test
  void aBurstOverEveryShardGetsEachItsOwnAnswerAndWritesEachShardsOwnKeys() throws Exception {
    long now = redisNowMs();
    int burst = 600;
    List<String> ids = new ArrayList<>();
    Set<Integer> shards = new HashSet<>();
    for (int i = 0; i < burst; i++) {
      ids.add(dispatched(i, now - i, i % 5 == 0 ? "SUCCESS" : "DISPATCHED"));
      shards.add(KEYS.shardOf(job(i)));
    }
    assertThat(shards).as("the burst spans every shard").hasSize(KEYS.shards());

    List<CompletableFuture<StartOutcome>> claims = new ArrayList<>();
    for (int i = 0; i < burst; i++) {
      claims.add(
          records
              .claimStartAsync(
                  new StartRequest(ids.get(i), job(i), now - i, 1, 0, "exec-" + i, 0, now - i))
              .toCompletableFuture());
    }
    for (int i = 0; i < burst; i++) {
      StartOutcome outcome = claims.get(i).get(10, TimeUnit.SECONDS);
      String open = RedisKeys.openTriggers(KEYS.shardOf(job(i)));
      if (i % 5 == 0) {
        assertThat(outcome.kind()).as(ids.get(i)).isEqualTo(StartOutcome.Kind.DUPLICATE);
        assertThat(outcome.stateFound()).isEqualTo("SUCCESS");
        assertThat(redis.sync().zscore(open, ids.get(i))).isNull();
      } else {
        assertThat(outcome.kind()).as(ids.get(i)).isEqualTo(StartOutcome.Kind.STARTED);
        assertThat(redis.sync().hget(triggerKey(i, ids.get(i)), "executor")).isEqualTo("exec-" + i);
        assertThat(redis.sync().zscore(open, ids.get(i)))
            .as("in its shard's open index")
            .isNotNull();
      }
    }

    List<CompletableFuture<CompletionOutcome>> ends = new ArrayList<>();
    for (int i = 0; i < burst; i++) {
      ends.add(
          records
              .completeAsync(
                  ids.get(i), job(i), now - i, "exec-" + i, TriggerState.FAIL, "end " + i)
              .toCompletableFuture());
    }
    for (int i = 0; i < burst; i++) {
      CompletionOutcome outcome = ends.get(i).get(10, TimeUnit.SECONDS);
      Map<String, String> record = redis.sync().hgetall(triggerKey(i, ids.get(i)));
      if (i % 5 == 0) {
        assertThat(outcome.kind()).as(ids.get(i)).isEqualTo(CompletionOutcome.Kind.NOT_OWNER);
        assertThat(record).containsEntry("state", "SUCCESS");
      } else {
        assertThat(outcome.kind()).as(ids.get(i)).isEqualTo(CompletionOutcome.Kind.COMPLETED);
        assertThat(record).containsEntry("state", "FAIL").containsEntry("message", "end " + i);
        assertThat(redis.sync().zscore(RedisKeys.openTriggers(KEYS.shardOf(job(i))), ids.get(i)))
            .as("left its shard's open index")
            .isNull();
      }
    }

    // Every event is in its own trigger's shard stream: one TRIGGER_ENDED per started trigger.
    long written = 0;
    for (int s = 0; s < KEYS.shards(); s++) {
      for (StreamMessage<String, String> event :
          redis.sync().xrange(RedisKeys.events(s), Range.create("-", "+"))) {
        String jobId = event.getBody().get("jobId");
        if (jobId != null && jobId.startsWith("job-" + run + "-")) {
          assertThat(KEYS.shardOf(jobId)).as(event.getBody().toString()).isEqualTo(s);
          written++;
        }
      }
    }
    assertThat(written).isEqualTo((long) burst - burst / 5);
  }
}
