package dev.kairos.mq.start;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * On one Redis server the start claims and ends of different shards share script calls: each caller
 * must still get the answer of its own trigger, whatever the shard order in the call.
 */
@RealInfra(redis = RedisMode.STANDALONE)
class TriggerRecordsStandaloneIT {

  private static final Duration D = Duration.ofMinutes(10);
  private static final RedisKeys KEYS = new RedisKeys(RedisKeys.DEFAULT_SHARDS);
  private static final Pattern SCRIPT_CALLS =
      Pattern.compile("cmdstat_(?:evalsha|eval):calls=(\\d+)");

  private final KairosRedis redis;
  private final KairosRedis control;
  private final TriggerRecords records;

  TriggerRecordsStandaloneIT(EmbeddedRedis server) {
    redis = KairosRedis.connect(List.of(server.uri()), false, Duration.ofSeconds(5));
    control = KairosRedis.connect(List.of(server.uri()), false, Duration.ofSeconds(5));
    redis.sync().flushall();
    records = new TriggerRecords(redis, KEYS, D, 10_000);
  }

  @AfterEach
  void close() {
    redis.close();
    control.close();
  }

  @Test
  void claimsAndEndsOfManyShardsGoInOneCallAndEachGetsItsOwnAnswer() throws Exception {
    long now = redisNowMs();
    List<String> jobs = jobsInDistinctShards(12);
    // Two triggers already run on another executor, one has no record and is older than D.
    Set<Integer> runningElsewhere = Set.of(3, 7);
    int expired = 5;
    List<StartRequest> claims = new ArrayList<>();
    for (int i = 0; i < jobs.size(); i++) {
      String job = jobs.get(i);
      long fire = i == expired ? now - D.toMillis() - 60_000 : now - i;
      String id = job + ":" + fire;
      if (i != expired) {
        record(job, id, fire, runningElsewhere.contains(i) ? "RUNNING" : "DISPATCHED");
      }
      claims.add(new StartRequest(id, job, fire, 1, 0, "exec-1", i % 4));
    }
    warmUpScripts();

    List<StartOutcome> started = whilePaused(claims, records::claimStartAsync);

    for (int i = 0; i < jobs.size(); i++) {
      StartOutcome.Kind expected =
          runningElsewhere.contains(i)
              ? StartOutcome.Kind.DUPLICATE
              : i == expired ? StartOutcome.Kind.EXPIRED : StartOutcome.Kind.STARTED;
      assertThat(started.get(i).kind())
          .as("claim of %s", claims.get(i).triggerId())
          .isEqualTo(expected);
    }
    assertThat(started.get(3).executorFound()).isEqualTo("exec-other");
    for (int i = 0; i < jobs.size(); i++) {
      if (started.get(i).kind() == StartOutcome.Kind.STARTED) {
        assertThat(trigger(claims.get(i)))
            .containsEntry("state", "RUNNING")
            .containsEntry("executor", "exec-1")
            .containsEntry("slot", Integer.toString(i % 4));
      }
    }

    List<CompletionOutcome> ended =
        whilePaused(
            claims,
            claim ->
                records.completeAsync(
                    claim.triggerId(),
                    claim.jobId(),
                    claim.scheduledFireMs(),
                    "exec-1",
                    TriggerState.SUCCESS,
                    "ok " + claim.jobId()));

    for (int i = 0; i < jobs.size(); i++) {
      CompletionOutcome.Kind expected =
          runningElsewhere.contains(i)
              ? CompletionOutcome.Kind.NOT_OWNER
              : i == expired ? CompletionOutcome.Kind.RECREATED : CompletionOutcome.Kind.COMPLETED;
      assertThat(ended.get(i).kind())
          .as("end of %s", claims.get(i).triggerId())
          .isEqualTo(expected);
      if (expected == CompletionOutcome.Kind.COMPLETED) {
        assertThat(trigger(claims.get(i)))
            .containsEntry("state", "SUCCESS")
            .containsEntry("message", "ok " + claims.get(i).jobId());
      }
    }
  }

  /**
   * Submits every request while Redis holds its clients paused, so all but the first calls of the
   * lane queue behind them (no race with the answers), and checks they went in at most three script
   * calls: the two that found the lane free, then one with the rest, of every shard.
   */
  private <A> List<A> whilePaused(
      List<StartRequest> requests, Function<StartRequest, CompletionStage<A>> call)
      throws Exception {
    control.sync().configResetstat();
    control.sync().clientPause(300);
    List<CompletableFuture<A>> answers = new ArrayList<>();
    for (StartRequest request : requests) {
      answers.add(call.apply(request).toCompletableFuture());
    }
    List<A> out = new ArrayList<>();
    for (CompletableFuture<A> answer : answers) {
      out.add(answer.get(10, TimeUnit.SECONDS));
    }
    assertThat(scriptCalls()).isLessThanOrEqualTo(TriggerRecords.CALLS_PER_LANE + 1);
    return out;
  }

  /** Loads both scripts, so no call of the test falls back from EVALSHA to EVAL. */
  private void warmUpScripts() {
    String job = "warm";
    long now = redisNowMs();
    StartRequest warm = new StartRequest(job + ":" + now, job, now, 1, 0, "exec-1", 0);
    records.claimStart(warm);
    records.complete(warm.triggerId(), job, now, "exec-1", TriggerState.SUCCESS, "");
  }

  private long scriptCalls() {
    Matcher m = SCRIPT_CALLS.matcher(control.sync().info("commandstats"));
    long calls = 0;
    while (m.find()) {
      calls += Long.parseLong(m.group(1));
    }
    return calls;
  }

  private static List<String> jobsInDistinctShards(int n) {
    List<String> jobs = new ArrayList<>();
    Set<Integer> shards = new HashSet<>();
    for (int i = 0; jobs.size() < n; i++) {
      if (shards.add(KEYS.shardOf("job-" + i))) {
        jobs.add("job-" + i);
      }
    }
    return jobs;
  }

  private void record(String job, String id, long fire, String state) {
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
                Long.toString(fire),
                "state",
                state,
                "attempt",
                "1",
                "executor",
                "RUNNING".equals(state) ? "exec-other" : ""));
  }

  private Map<String, String> trigger(StartRequest claim) {
    return redis.sync().hgetall(RedisKeys.trigger(KEYS.shardOf(claim.jobId()), claim.triggerId()));
  }

  private long redisNowMs() {
    var time = redis.sync().time();
    return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
  }
}
