package dev.kairos.protocol.start;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.LiveJobs;
import dev.kairos.protocol.start.CompletionOutcome.Kind;
import io.lettuce.core.StreamMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

@RealInfra(redis = RedisMode.CLUSTER)
class TriggerRecordsIT {

  private static final Duration D = Duration.ofMinutes(10);
  private static final RedisKeys KEYS = new RedisKeys(RedisKeys.DEFAULT_SHARDS);

  private final KairosRedis redis;
  private final TriggerRecords records;
  private final String job = "job-" + UUID.randomUUID();

  TriggerRecordsIT(EmbeddedRedisCluster cluster) {
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

  private String triggerKey(String triggerId) {
    return RedisKeys.trigger(KEYS.shardOf(job), triggerId);
  }

  /** Writes the record the way a scheduler node does before it publishes. */
  private String dispatched(long fireMs, String state) {
    String id = job + ":" + fireMs;
    LiveJobs.put(redis, KEYS, job);
    redis
        .sync()
        .hset(
            triggerKey(id),
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
                LiveJobs.VERSION,
                "attempt",
                "1",
                "node",
                "node-1",
                "term",
                "3"));
    return id;
  }

  private StartRequest start(String triggerId, long fireMs, String executor) {
    return new StartRequest(triggerId, job, fireMs, 1, 0, executor, 0, fireMs);
  }

  @Test
  void concurrentClaimsOfOneTriggerStartItExactlyOnce() throws Exception {
    long now = redisNowMs();
    int triggers = 30;
    int claimers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(claimers);
    try {
      for (int t = 0; t < triggers; t++) {
        long fire = now - t;
        String id = dispatched(fire, t % 2 == 0 ? "DISPATCHED" : "CLAIMED");
        CountDownLatch go = new CountDownLatch(1);
        List<Future<StartOutcome>> answers = new ArrayList<>();
        for (int c = 0; c < claimers; c++) {
          String executor = "exec-" + c;
          answers.add(
              pool.submit(
                  () -> {
                    go.await();
                    return records.claimStart(start(id, fire, executor));
                  }));
        }
        go.countDown();
        List<StartOutcome.Kind> kinds = new ArrayList<>();
        for (Future<StartOutcome> answer : answers) {
          kinds.add(answer.get(10, TimeUnit.SECONDS).kind());
        }
        assertThat(kinds).filteredOn(k -> k == StartOutcome.Kind.STARTED).hasSize(1);
        assertThat(kinds).filteredOn(k -> k == StartOutcome.Kind.DUPLICATE).hasSize(claimers - 1);
        assertThat(redis.sync().hget(triggerKey(id), "state")).isEqualTo("RUNNING");
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aBurstOfClaimsAndEndsOfOneShardGetsEachItsOwnAnswer() throws Exception {
    // Submitted together, the claims and ends of one shard share script calls; every caller must
    // still get the outcome of its own trigger, in a group where some start and some do not.
    long now = redisNowMs();
    int burst = 400;
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < burst; i++) {
      ids.add(dispatched(now - i, i % 4 == 0 ? "SUCCESS" : "DISPATCHED"));
    }
    List<java.util.concurrent.CompletableFuture<StartOutcome>> claims = new ArrayList<>();
    for (int i = 0; i < burst; i++) {
      claims.add(
          records.claimStartAsync(start(ids.get(i), now - i, "exec-" + i)).toCompletableFuture());
    }
    for (int i = 0; i < burst; i++) {
      StartOutcome outcome = claims.get(i).get(10, TimeUnit.SECONDS);
      if (i % 4 == 0) {
        assertThat(outcome.kind()).as(ids.get(i)).isEqualTo(StartOutcome.Kind.DUPLICATE);
        assertThat(outcome.stateFound()).isEqualTo("SUCCESS");
      } else {
        assertThat(outcome.kind()).as(ids.get(i)).isEqualTo(StartOutcome.Kind.STARTED);
      }
    }
    List<java.util.concurrent.CompletableFuture<CompletionOutcome>> ends = new ArrayList<>();
    for (int i = 0; i < burst; i++) {
      ends.add(
          records
              .completeAsync(ids.get(i), job, now - i, "exec-" + i, TriggerState.FAIL, "end " + i)
              .toCompletableFuture());
    }
    for (int i = 0; i < burst; i++) {
      CompletionOutcome outcome = ends.get(i).get(10, TimeUnit.SECONDS);
      Map<String, String> record = redis.sync().hgetall(triggerKey(ids.get(i)));
      if (i % 4 == 0) {
        assertThat(outcome.kind()).as(ids.get(i)).isEqualTo(CompletionOutcome.Kind.NOT_OWNER);
        assertThat(record).containsEntry("state", "SUCCESS");
      } else {
        assertThat(outcome.kind()).as(ids.get(i)).isEqualTo(CompletionOutcome.Kind.COMPLETED);
        assertThat(record)
            .containsEntry("state", "FAIL")
            .containsEntry("executor", "exec-" + i)
            .containsEntry("message", "end " + i);
      }
    }
  }

  @Test
  void startRecordsExecutorSlotAndTimeWithoutAnEvent() {
    long fire = redisNowMs() - 5;
    String id = dispatched(fire, "DISPATCHED");
    StartOutcome outcome =
        records.claimStart(new StartRequest(id, job, fire, 2, 0, "exec-9", 3, fire));
    assertThat(outcome.kind()).isEqualTo(StartOutcome.Kind.STARTED);
    assertThat(outcome.stateFound()).isEqualTo("DISPATCHED");
    Map<String, String> record = redis.sync().hgetall(triggerKey(id));
    assertThat(record)
        .containsEntry("state", "RUNNING")
        .containsEntry("executor", "exec-9")
        .containsEntry("slot", "3")
        .containsEntry("attempt", "2")
        .containsEntry("startedMs", Long.toString(outcome.startedMs()))
        .containsEntry("node", "node-1");
    // A trigger's history is its one TRIGGER_ENDED event: a start writes none.
    assertThat(eventsOf(id)).isEmpty();
    // The record lives until fire + D, so memory stays bounded.
    long pttl = redis.sync().pttl(triggerKey(id));
    assertThat(pttl).isBetween(D.toMillis() - 5_000, D.toMillis() + 1_000);
  }

  @Test
  void aReplayedMessageIsADuplicateAndChangesNothing() {
    long fire = redisNowMs();
    String id = dispatched(fire, "DISPATCHED");
    assertThat(records.claimStart(start(id, fire, "exec-1")).kind())
        .isEqualTo(StartOutcome.Kind.STARTED);
    Map<String, String> before = redis.sync().hgetall(triggerKey(id));
    StartOutcome replay = records.claimStart(start(id, fire, "exec-2"));
    assertThat(replay.kind()).isEqualTo(StartOutcome.Kind.DUPLICATE);
    assertThat(replay.executorFound()).isEqualTo("exec-1");
    assertThat(redis.sync().hgetall(triggerKey(id))).isEqualTo(before);

    records.complete(id, job, fire, "exec-1", TriggerState.SUCCESS, "ok");
    assertThat(records.claimStart(start(id, fire, "exec-1")).kind())
        .isEqualTo(StartOutcome.Kind.DUPLICATE);
  }

  @Test
  void aTriggerOlderThanTheWindowThatNeverStartedExpires() {
    long fire = redisNowMs() - D.toMillis() - 1_000;
    String id = dispatched(fire, "DISPATCHED");
    assertThat(records.claimStart(start(id, fire, "exec-1")).kind())
        .isEqualTo(StartOutcome.Kind.EXPIRED);
    assertThat(redis.sync().hget(triggerKey(id), "state")).isEqualTo("EXPIRED");
    assertThat(lastEventOf(id))
        .containsEntry("type", "TRIGGER_ENDED")
        .containsEntry("state", "EXPIRED");
    assertThat(records.claimStart(start(id, fire, "exec-2")).kind())
        .isEqualTo(StartOutcome.Kind.EXPIRED);
  }

  @Test
  void aMissingRecordWithinTheWindowIsRecreatedRunning() {
    long fire = redisNowMs() - 1_000;
    String id = job + ":" + fire;
    StartOutcome first = records.claimStart(start(id, fire, "exec-1"));
    assertThat(first.kind()).isEqualTo(StartOutcome.Kind.STARTED);
    assertThat(first.stateFound()).isEmpty();
    assertThat(redis.sync().hgetall(triggerKey(id)))
        .containsEntry("state", "RUNNING")
        .containsEntry("recreated", "1")
        .containsEntry("fireMs", Long.toString(fire));
    assertThat(records.claimStart(start(id, fire, "exec-2")).kind())
        .isEqualTo(StartOutcome.Kind.DUPLICATE);
  }

  @Test
  void aMissingRecordOlderThanTheWindowIsExpiredAndNotWritten() {
    long fire = redisNowMs() - D.toMillis() - 1;
    String id = job + ":" + fire;
    assertThat(records.claimStart(start(id, fire, "exec-1")).kind())
        .isEqualTo(StartOutcome.Kind.EXPIRED);
    assertThat(redis.sync().exists(triggerKey(id))).isZero();
  }

  @Test
  void completionByTheOwnerRecordsTheFinalStateOnce() {
    long fire = redisNowMs();
    String id = dispatched(fire, "DISPATCHED");
    records.claimStart(start(id, fire, "exec-1"));
    assertThat(records.complete(id, job, fire, "exec-2", TriggerState.SUCCESS, "").kind())
        .isEqualTo(Kind.NOT_OWNER);
    assertThat(records.complete(id, job, fire, "exec-1", TriggerState.FAIL, "boom").kind())
        .isEqualTo(Kind.COMPLETED);
    assertThat(records.complete(id, job, fire, "exec-1", TriggerState.FAIL, "boom").kind())
        .isEqualTo(Kind.ALREADY);
    assertThat(redis.sync().hgetall(triggerKey(id)))
        .containsEntry("state", "FAIL")
        .containsEntry("message", "boom")
        .containsKey("endedMs");
    // The one event carries every stage the record holds: claim, start and end.
    assertThat(eventsOf(id)).hasSize(1);
    assertThat(lastEventOf(id))
        .containsEntry("type", "TRIGGER_ENDED")
        .containsEntry("state", "FAIL")
        .containsEntry("message", "boom")
        .containsEntry("executor", "exec-1")
        .containsEntry("node", "node-1")
        .containsEntry("term", "3")
        .containsKey("startedMs")
        .containsKey("endedMs");
  }

  @Test
  void aLateResultAfterLostNeverRegressesTheTrigger() {
    long fire = redisNowMs();
    String id = dispatched(fire, "DISPATCHED");
    records.claimStart(start(id, fire, "exec-1"));
    redis.sync().hset(triggerKey(id), "state", "LOST"); // the lost-trigger monitor's verdict
    CompletionOutcome late = records.complete(id, job, fire, "exec-1", TriggerState.SUCCESS, "ok");
    assertThat(late.kind()).isEqualTo(Kind.LATE);
    Map<String, String> record = redis.sync().hgetall(triggerKey(id));
    assertThat(record.get("state")).isEqualTo("LOST");
    assertThat(record.get("lateResult")).startsWith("SUCCESS|").endsWith("|ok");
  }

  @Test
  void aLateResultIsRecordedOnceWhenItsCompletionIsRepeated() {
    long fire = redisNowMs();
    String id = dispatched(fire, "DISPATCHED");
    records.claimStart(start(id, fire, "exec-1"));
    redis.sync().hset(triggerKey(id), "state", "LOST"); // the lost-trigger monitor's verdict
    assertThat(records.complete(id, job, fire, "exec-1", TriggerState.SUCCESS, "ok").kind())
        .isEqualTo(Kind.LATE);
    String first = redis.sync().hget(triggerKey(id), "lateResult");
    // The scheduler's result consumer completes the same result again, as the same executor.
    assertThat(records.complete(id, job, fire, "exec-1", TriggerState.SUCCESS, "ok").kind())
        .isEqualTo(Kind.LATE);
    Map<String, String> record = redis.sync().hgetall(triggerKey(id));
    assertThat(record.get("state")).isEqualTo("LOST");
    assertThat(record.get("lateResult")).isEqualTo(first);
    assertThat(eventsOf(id).stream().filter(e -> "TRIGGER_LATE".equals(e.get("type"))))
        .as("late-result events")
        .singleElement()
        .satisfies(
            e ->
                assertThat(e)
                    .containsEntry("state", "SUCCESS")
                    .containsEntry("executor", "exec-1")
                    .containsEntry("message", "ok"));
  }

  @Test
  void aTriggerWhoseJobWasDisabledAfterItsDispatchIsDroppedAtItsStart() {
    long fire = redisNowMs();
    String id = dispatched(fire, "DISPATCHED");
    redis.sync().hset(RedisKeys.job(KEYS.shardOf(job), job), "enabled", "false");

    StartOutcome outcome = records.claimStart(start(id, fire, "exec-1"));

    assertThat(outcome.kind()).isEqualTo(StartOutcome.Kind.DROPPED);
    assertThat(redis.sync().hgetall(triggerKey(id)))
        .containsEntry("state", "DROPPED_STALE")
        .containsEntry("message", "job disabled")
        .doesNotContainKey("startedMs");
    assertThat(lastEventOf(id))
        .containsEntry("type", "TRIGGER_ENDED")
        .containsEntry("state", "DROPPED_STALE");
    assertThat(records.claimStart(start(id, fire, "exec-2")).kind())
        .isEqualTo(StartOutcome.Kind.DUPLICATE);
  }

  @Test
  void aRescheduledJobDropsItsScheduledFireButNotAnAdhocOne() {
    long fire = redisNowMs();
    String scheduled = dispatched(fire, "DISPATCHED");
    String manual = dispatched(fire + 1, "DISPATCHED");
    redis.sync().hset(triggerKey(manual), "kind", "MANUAL");
    redis.sync().hset(RedisKeys.job(KEYS.shardOf(job), job), "scheduleVersion", "2");

    assertThat(records.claimStart(start(scheduled, fire, "exec-1")).kind())
        .isEqualTo(StartOutcome.Kind.DROPPED);
    assertThat(redis.sync().hget(triggerKey(scheduled), "message"))
        .isEqualTo("schedule version 1 is now 2");
    assertThat(records.claimStart(start(manual, fire + 1, "exec-1")).kind())
        .isEqualTo(StartOutcome.Kind.STARTED);
  }

  @Test
  void aDeletedJobDropsItsTriggerAtItsStart() {
    long fire = redisNowMs();
    String id = dispatched(fire, "CLAIMED");
    redis.sync().del(RedisKeys.job(KEYS.shardOf(job), job));

    assertThat(records.claimStart(start(id, fire, "exec-1")).kind())
        .isEqualTo(StartOutcome.Kind.DROPPED);
    assertThat(redis.sync().hget(triggerKey(id), "message")).isEqualTo("job deleted");
  }

  @Test
  void aTriggerKnownOnlyByItsTombstoneIsADuplicateAndItsEndIsAlreadyRecorded() {
    long fire = redisNowMs();
    String id = job + ":" + fire;
    int shard = KEYS.shardOf(job);
    redis.sync().hset(RedisKeys.ended(shard, fire), id, "SUCCESS");

    StartOutcome copy = records.claimStart(start(id, fire, "exec-2"));
    assertThat(copy.kind()).isEqualTo(StartOutcome.Kind.DUPLICATE);
    assertThat(copy.stateFound()).isEqualTo("SUCCESS");
    assertThat(records.complete(id, job, fire, "exec-1", TriggerState.SUCCESS, "ok").kind())
        .isEqualTo(Kind.ALREADY);
    assertThat(redis.sync().exists(triggerKey(id))).as("no record recreated").isZero();
  }

  @Test
  void onlyDiscardedMayEndATriggerThatNeverStarted() {
    long fire = redisNowMs();
    String id = dispatched(fire, "DISPATCHED");
    assertThat(records.complete(id, job, fire, "exec-1", TriggerState.SUCCESS, "").kind())
        .isEqualTo(Kind.NOT_STARTED);
    assertThat(records.complete(id, job, fire, "exec-1", TriggerState.DISCARDED, "busy").kind())
        .isEqualTo(Kind.COMPLETED);
    assertThat(records.claimStart(start(id, fire, "exec-2")).kind())
        .isEqualTo(StartOutcome.Kind.DUPLICATE);
  }

  private List<Map<String, String>> eventsOf(String triggerId) {
    return redis
        .sync()
        .xrange(RedisKeys.events(KEYS.shardOf(job)), io.lettuce.core.Range.create("-", "+"))
        .stream()
        .map(StreamMessage::getBody)
        .filter(body -> triggerId.equals(body.get("triggerId")))
        .toList();
  }

  private Map<String, String> lastEventOf(String triggerId) {
    List<StreamMessage<String, String>> events =
        redis
            .sync()
            .xrevrange(RedisKeys.events(KEYS.shardOf(job)), io.lettuce.core.Range.create("-", "+"));
    return events.stream()
        .map(StreamMessage::getBody)
        .filter(body -> triggerId.equals(body.get("triggerId")))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no event for " + triggerId));
  }
}
