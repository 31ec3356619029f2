package dev.kairos.sync;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.LuaScript;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import io.lettuce.core.ScriptOutputType;
import java.util.ArrayList;
import java.util.List;

/**
 * Produces stream events by calling the real scripts: core's JobStore for jobs, the coordinator's
 * claim_fires / ack_dispatched / record_no_executor and executor-mq's claim_start /
 * complete_trigger for triggers. Only preconditions that have no event of their own (putting a
 * claimed trigger into a node's inflight set) are written directly.
 */
final class ScriptedTraffic {

  static final long DEDUP_MS = 600_000;
  static final String MAXLEN = "1000000";

  private final KairosRedis redis;
  private final RedisKeys keys;
  final JobStore jobs;
  private final LuaScript claimFires = LuaScript.load(ScriptedTraffic.class, "claim_fires");
  private final LuaScript ackDispatched = LuaScript.load(ScriptedTraffic.class, "ack_dispatched");
  private final LuaScript noExecutor = LuaScript.load(ScriptedTraffic.class, "record_no_executor");
  private final LuaScript claimStart = LuaScript.load(ScriptedTraffic.class, "claim_start");
  private final LuaScript complete = LuaScript.load(ScriptedTraffic.class, "complete_trigger");

  record Trigger(String id, String jobId, long fireMs, String node) {}

  ScriptedTraffic(KairosRedis redis, RedisKeys keys) {
    this.redis = redis;
    this.keys = keys;
    this.jobs = new JobStore(redis, keys, System::currentTimeMillis, 1_000_000);
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
            .build());
  }

  /** Claims {@code fires} consecutive minutes of the job for {@code node} (term 1). */
  List<Trigger> claim(String jobId, int fires, String node) {
    int s = keys.shardOf(jobId);
    long due = jobs.dueScore(jobId).orElseThrow().longValue();
    String version = redis.sync().hget(RedisKeys.job(s, jobId), "scheduleVersion");
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            "1",
            Long.toString(System.currentTimeMillis()),
            Long.toString(DEDUP_MS),
            MAXLEN,
            RedisKeys.jobPrefix(s),
            RedisKeys.triggerPrefix(s),
            RedisKeys.wheel(s, ""),
            "1",
            jobId,
            Long.toString(due),
            Long.toString(due + fires * 60_000L),
            version,
            Integer.toString(fires)));
    List<Trigger> claimed = new ArrayList<>();
    for (int f = 0; f < fires; f++) {
      long fireMs = due + f * 60_000L;
      args.add(Long.toString(fireMs));
      args.add(node);
      claimed.add(new Trigger(jobId + ":" + fireMs, jobId, fireMs, node));
    }
    List<Object> reply =
        claimFires.eval(
            redis.sync(),
            ScriptOutputType.MULTI,
            new String[] {
              RedisKeys.fence(s), RedisKeys.due(s), RedisKeys.events(s), RedisKeys.nodes(s)
            },
            args.toArray(String[]::new));
    if (!Long.valueOf(fires).equals(reply.get(3))) {
      throw new IllegalStateException("claim of " + jobId + " returned " + reply);
    }
    return claimed;
  }

  void dispatch(Trigger t, String slot) {
    int s = keys.shardOf(t.jobId());
    long now = System.currentTimeMillis();
    redis.sync().zadd(RedisKeys.inflight(s, t.node()), now, t.id());
    List<Long> moved =
        ackDispatched.eval(
            redis.sync(),
            ScriptOutputType.MULTI,
            new String[] {
              RedisKeys.inflight(s, t.node()), RedisKeys.events(s), RedisKeys.openTriggers(s)
            },
            Long.toString(now),
            MAXLEN,
            RedisKeys.triggerPrefix(s),
            t.id(),
            slot);
    check(moved.equals(List.of(1L)), "ack_dispatched", t);
  }

  void noExecutor(Trigger t) {
    int s = keys.shardOf(t.jobId());
    long now = System.currentTimeMillis();
    redis.sync().zadd(RedisKeys.inflight(s, t.node()), now, t.id());
    Long done =
        noExecutor.eval(
            redis.sync(),
            ScriptOutputType.INTEGER,
            new String[] {
              RedisKeys.inflight(s, t.node()),
              RedisKeys.trigger(s, t.id()),
              RedisKeys.events(s),
              RedisKeys.due(s),
              RedisKeys.job(s, t.jobId()),
              RedisKeys.openTriggers(s)
            },
            t.id(),
            t.jobId(),
            Long.toString(now),
            "no live executor for billing",
            MAXLEN);
    check(done == 1, "record_no_executor", t);
  }

  void start(Trigger t, String executor, String slot) {
    int s = keys.shardOf(t.jobId());
    List<Object> replies =
        claimStart.eval(
            redis.sync(),
            ScriptOutputType.MULTI,
            new String[] {RedisKeys.events(s), RedisKeys.openTriggers(s)},
            Long.toString(DEDUP_MS),
            MAXLEN,
            RedisKeys.triggerPrefix(s),
            "1",
            t.id(),
            t.jobId(),
            Long.toString(t.fireMs()),
            executor,
            slot,
            "1",
            "0");
    List<?> reply = (List<?>) replies.get(0);
    check("STARTED".equals(reply.get(0)), "claim_start " + reply, t);
  }

  void complete(Trigger t, String executor, String finalState, String message) {
    int s = keys.shardOf(t.jobId());
    List<Object> replies =
        complete.eval(
            redis.sync(),
            ScriptOutputType.MULTI,
            new String[] {RedisKeys.events(s), RedisKeys.openTriggers(s)},
            Long.toString(DEDUP_MS),
            MAXLEN,
            RedisKeys.triggerPrefix(s),
            "1",
            t.id(),
            t.jobId(),
            Long.toString(t.fireMs()),
            executor,
            finalState,
            message);
    List<?> reply = (List<?>) replies.get(0);
    check("COMPLETED".equals(reply.get(0)), "complete_trigger " + reply, t);
  }

  /** Runs a trigger through its whole life: dispatched, started, ended (every 7th fails). */
  void runToEnd(Trigger t, int i) {
    String slot = Integer.toString(i % 4);
    dispatch(t, slot);
    start(t, "exec-" + (i % 3), slot);
    boolean fail = i % 7 == 0;
    complete(t, "exec-" + (i % 3), fail ? "FAIL" : "SUCCESS", fail ? "boom " + i : "ok");
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
