package dev.kairos.sync;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.schedule.NextDue;
import dev.kairos.core.store.JobStore;
import dev.kairos.protocol.claim.ClaimBatch;
import dev.kairos.protocol.claim.ClaimOutcome;
import dev.kairos.protocol.claim.Fire;
import dev.kairos.protocol.claim.JobClaim;
import dev.kairos.protocol.start.CompletionOutcome;
import dev.kairos.protocol.start.StartOutcome;
import dev.kairos.protocol.start.StartRequest;
import dev.kairos.protocol.start.TriggerRecords;
import dev.kairos.protocol.wheel.NodeWheelStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Produces stream events through the real scripts and their wrappers: core's JobStore for jobs,
 * protocol's claim, wheel and start-claim wrappers for triggers. Only preconditions that have no
 * script of their own (putting a claimed trigger into a node's inflight set) are written directly.
 */
final class ScriptedTraffic {

  static final long DEDUP_MS = 600_000;

  private final KairosRedis redis;
  private final RedisKeys keys;
  final JobStore jobs;
  private final TriggerRecords records;
  private final Map<String, NodeWheelStore> wheels = new HashMap<>();

  record Trigger(String id, String jobId, long fireMs, String node) {}

  ScriptedTraffic(KairosRedis redis, RedisKeys keys) {
    this.redis = redis;
    this.keys = keys;
    this.jobs = new JobStore(redis, keys, System::currentTimeMillis, 1_000_000);
    this.records = new TriggerRecords(redis, keys, Duration.ofMillis(DEDUP_MS), 1_000_000);
  }

  JobDefinition createJob(String id) {
    return jobs.create(
        JobDefinition.builder(id)
            .app("billing")
            .handler("report")
            .cron("0 * * * * *")
            .zone("UTC")
            .params("{\"n\":1}")
            // the job-feature columns round-trip too: two lines, non-ASCII, a URL with a comma
            .description("Monthly billing report for " + id + ".\nPages the owner — fails loudly.")
            .owner("Zoë Billing <billing-team>")
            .alarmEmails(List.of("owner@example.com", "team+alarms@example.org"))
            .alarmWebhooks(
                List.of("https://hooks.example.com/a?tags=x,y", "http://10.0.0.1:8080/b"))
            .calendars(List.of("maintenance"))
            .build());
  }

  /** Claims {@code fires} consecutive minutes of the job for {@code node} (term 1). */
  List<Trigger> claim(String jobId, int fires, String node) {
    int s = keys.shardOf(jobId);
    long due = jobs.dueScore(jobId).orElseThrow().longValue();
    long version = Long.parseLong(redis.sync().hget(RedisKeys.job(s, jobId), "scheduleVersion"));
    List<Fire> list = new ArrayList<>();
    List<Trigger> claimed = new ArrayList<>();
    for (int f = 0; f < fires; f++) {
      long fireMs = due + f * 60_000L;
      list.add(new Fire(fireMs, node));
      claimed.add(new Trigger(jobId + ":" + fireMs, jobId, fireMs, node));
    }
    ClaimOutcome outcome =
        new ClaimBatch(s, 1, System.currentTimeMillis(), DEDUP_MS)
            .add(new JobClaim(jobId, due, version, NextDue.at(due + fires * 60_000L), list))
            .send(redis.async())
            .toCompletableFuture()
            .join();
    if (outcome.perJob().get(0) != fires) {
      throw new IllegalStateException("claim of " + jobId + " returned " + outcome);
    }
    return claimed;
  }

  private NodeWheelStore wheel(String node) {
    return wheels.computeIfAbsent(
        node,
        n ->
            new NodeWheelStore(
                redis, keys, n, 1_000_000, Duration.ofSeconds(10), new SimpleMeterRegistry()));
  }

  /** Sends the trigger: in its node's inflight set, then the broker's ack recorded. */
  void dispatch(Trigger t, String slot) {
    int s = keys.shardOf(t.jobId());
    long now = System.currentTimeMillis();
    redis.sync().zadd(RedisKeys.inflight(s, t.node()), now, t.id());
    check(wheel(t.node()).ackDispatched(s, t.id(), slot, now), "ack_dispatched", t);
  }

  void noExecutor(Trigger t) {
    int s = keys.shardOf(t.jobId());
    long now = System.currentTimeMillis();
    redis.sync().zadd(RedisKeys.inflight(s, t.node()), now, t.id());
    check(
        wheel(t.node()).recordNoExecutor(s, t.id(), t.jobId(), "no live executor for billing", now),
        "record_no_executor",
        t);
  }

  void start(Trigger t, String executor, String slot) {
    StartOutcome outcome =
        records.claimStart(
            new StartRequest(
                t.id(), t.jobId(), t.fireMs(), 1, 0, executor, Integer.parseInt(slot), t.fireMs()));
    check(outcome.started(), "claim_start " + outcome, t);
  }

  void complete(Trigger t, String executor, TriggerState finalState, String message) {
    CompletionOutcome outcome =
        records.complete(t.id(), t.jobId(), t.fireMs(), executor, finalState, message);
    check(outcome.kind() == CompletionOutcome.Kind.COMPLETED, "complete_trigger " + outcome, t);
  }

  /**
   * Runs a trigger through its whole life: dispatched, started, ended (every 7th fails).
   *
   * @return how it ended
   */
  TriggerState runToEnd(Trigger t, int i) {
    String slot = Integer.toString(i % 4);
    dispatch(t, slot);
    start(t, "exec-" + (i % 3), slot);
    boolean fail = i % 7 == 0;
    TriggerState end = fail ? TriggerState.FAIL : TriggerState.SUCCESS;
    complete(t, "exec-" + (i % 3), end, fail ? "boom " + i : "ok");
    return end;
  }

  long streamEntries() {
    long total = 0;
    for (int s = 0; s < keys.shards(); s++) {
      total += redis.sync().xlen(RedisKeys.events(s));
    }
    return total;
  }

  private static void check(boolean ok, String what, Trigger t) {
    if (!ok) {
      throw new IllegalStateException(what + " failed for " + t);
    }
  }
}
