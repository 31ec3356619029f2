package dev.kairos.node.api;

import static dev.kairos.node.api.ApiTestNode.ADMIN;
import static dev.kairos.node.api.ApiTestNode.VIEWER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.TriggerId;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.ClusterClock;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import dev.kairos.node.testing.InProcessExecutors;
import io.lettuce.core.Range;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator's brakes over HTTP against a full node (leader scan, wheel, RocketMQ, lifecycle,
 * persistence-sync) and an in-process executor running real handlers: cancel a running and a queued
 * trigger, pause and resume scheduling. Bad input and the auth matrix of these endpoints are in
 * {@link AdminApiInputIT}, where nothing else writes Redis.
 */
@RealInfra(
    redis = RedisMode.STANDALONE,
    zookeeper = ZkMode.STANDALONE,
    rocketMq = true,
    postgres = true)
class ControlApiIT {

  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final String APP = "control-" + RUN;
  private static final String EXECUTOR = "control-executor-" + RUN;
  private static final int QUEUES = 2;
  private static final Duration WAIT = Duration.ofSeconds(60);

  /**
   * Handler runs by trigger id: start (ms, local wall clock), and for "slow" whether interrupted.
   */
  private static final Map<String, Long> started = new ConcurrentHashMap<>();

  private static final Set<String> interrupted = ConcurrentHashMap.newKeySet();

  private static ApiTestNode node;
  private static KairosRedis redis;
  private static InProcessExecutors executors;
  private static RedisKeys keys;
  private static ClusterClock clock;
  private static MeterRegistry meters;

  @BeforeAll
  static void start(EmbeddedInfrastructure infra) throws Exception {
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("kairos.node.name", "control-it-" + RUN);
    overrides.put("kairos.zookeeper.root-path", "/kairos-control-it-" + RUN);
    overrides.put("kairos.cluster.secret", "control-it-secret");
    overrides.put("kairos.rocketmq.default-queue-count", Integer.toString(QUEUES));
    overrides.put("kairos.fire.broker-cluster", "kairos");
    node = ApiTestNode.start(infra, overrides);
    keys = node.context().getBean(RedisKeys.class);
    clock = node.context().getBean(ClusterClock.class);
    meters = node.context().getBean(MeterRegistry.class);
    // After the node: it initialises Redis (the shard layout) that an executor reads at start.
    executors =
        InProcessExecutors.builder(infra, APP)
            .slots(QUEUES)
            .name(EXECUTOR)
            .handler(
                "slow",
                ctx -> {
                  started.put(ctx.triggerId(), System.currentTimeMillis());
                  try {
                    Thread.sleep(120_000); // far longer than any test: only a cancel ends it
                  } catch (InterruptedException e) {
                    interrupted.add(ctx.triggerId());
                    throw e;
                  }
                })
            .handler("ok", ctx -> started.put(ctx.triggerId(), System.currentTimeMillis()))
            .start();
    redis = executors.redis();
  }

  /** The pause flag is shared by every class of this JVM: never leave it set. */
  @AfterEach
  void resume() {
    node.post("/api/v1/cluster/resume", null, ADMIN);
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.post("/api/v1/cluster/resume", null, ADMIN);
    }
    if (executors != null) {
      executors.close();
    }
    if (node != null) {
      node.close();
    }
  }

  private static void await(String what, BooleanSupplier condition) {
    Poll.until(WAIT, Duration.ofMillis(20), what, condition::getAsBoolean);
  }

  private static String createJob(String id, String handler, String type, String schedule) {
    Map<String, Object> job = new LinkedHashMap<>();
    job.put("id", id);
    job.put("app", APP);
    job.put("handler", handler);
    job.put("scheduleType", type);
    job.put("schedule", schedule);
    ApiTestNode.Response created = node.post("/api/v1/jobs", ApiTestNode.json(job), ADMIN);
    assertThat(created.status()).as(created.toString()).isEqualTo(201);
    return id;
  }

  private static String triggerNow(String jobId) {
    ApiTestNode.Response r = node.post("/api/v1/jobs/" + jobId + "/trigger", null, ADMIN);
    assertThat(r.status()).as(r.toString()).isEqualTo(202);
    return r.json().path("triggerId").asText();
  }

  private static ApiTestNode.Response cancel(String triggerId) {
    return node.post("/api/v1/triggers/" + triggerId + "/cancel", null, ADMIN);
  }

  private static Map<String, String> record(String triggerId) {
    String jobId = new TriggerId(triggerId).jobId();
    return redis.sync().hgetall(RedisKeys.trigger(keys.shardOf(jobId), triggerId));
  }

  /**
   * The trigger's state: its record's, or once persistence-sync has compacted a synced SUCCESS, its
   * tombstone's.
   */
  private static String state(String triggerId) {
    String state = record(triggerId).get("state");
    if (state != null) {
      return state;
    }
    TriggerId id = new TriggerId(triggerId);
    return redis.sync().hget(RedisKeys.ended(keys.shardOf(id.jobId()), id.fireMs()), triggerId);
  }

  /** The events of one trigger in its shard's stream (persistence-sync and lifecycle read them). */
  private static long eventsOf(String triggerId) {
    String stream = RedisKeys.events(keys.shardOf(new TriggerId(triggerId).jobId()));
    return redis.sync().xrange(stream, Range.create("-", "+")).stream()
        .filter(m -> triggerId.equals(m.getBody().get("triggerId")))
        .count();
  }

  /**
   * The job's scheduled triggers by fire time, from its trigger index (every claim enters it), each
   * with its state (a compacted SUCCESS reads from its tombstone).
   */
  private static TreeMap<Long, Map<String, String>> triggersOf(String jobId) {
    TreeMap<Long, Map<String, String>> byFire = new TreeMap<>();
    int shard = keys.shardOf(jobId);
    for (String id : redis.sync().zrange(RedisKeys.jobTriggers(shard, jobId), 0, -1)) {
      TriggerId trigger = new TriggerId(id);
      // Scheduled fires only: "<jobId>:<fireMs>"; manual triggers have a ":m<nonce>" suffix.
      if (trigger.isScheduled()) {
        Map<String, String> r = new java.util.HashMap<>(record(id));
        r.put("state", state(id));
        byFire.put(trigger.fireMs(), r);
      }
    }
    return byFire;
  }

  private static double counter(String name) {
    Counter c = meters.find(name).counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void cancelInterruptsARunningHandlerAndAQueuedTriggerNeverStarts() {
    String job = createJob("slow-" + RUN, "slow", "API", "");
    String running = triggerNow(job);
    await("the slow handler runs " + running, () -> started.containsKey(running));
    await("the record says RUNNING", () -> "RUNNING".equals(state(running)));
    // SERIAL_EXECUTION (the default): the executor holds a second trigger of the job until the
    // first ends, so it sits DISPATCHED, published but not started.
    String queued = triggerNow(job);
    await("the second trigger DISPATCHED", () -> "DISPATCHED".equals(state(queued)));

    ApiTestNode.Response cancelledQueued = cancel(queued);

    assertThat(cancelledQueued.status()).as(cancelledQueued.toString()).isEqualTo(200);
    assertThat(cancelledQueued.json().path("outcome").asText()).isEqualTo("CANCELLED");
    assertThat(cancelledQueued.json().path("previousState").asText()).isEqualTo("DISPATCHED");
    assertThat(cancelledQueued.json().has("executor")).isFalse();
    assertThat(state(queued)).isEqualTo("CANCELLED");

    long cancelAt = System.nanoTime();
    ApiTestNode.Response requested = cancel(running);

    assertThat(requested.status()).as(requested.toString()).isEqualTo(202);
    assertThat(requested.json().path("outcome").asText()).isEqualTo("CANCEL_REQUESTED");
    assertThat(requested.json().path("previousState").asText()).isEqualTo("RUNNING");
    assertThat(requested.json().path("executor").asText()).isEqualTo(EXECUTOR);
    assertThat(requested.headers().firstValue("Location")).hasValue("/api/v1/triggers/" + running);
    await("the running trigger ended CANCELLED", () -> "CANCELLED".equals(state(running)));
    long cancelMs = (System.nanoTime() - cancelAt) / 1_000_000;
    System.out.printf("CONTROL cancel of a running trigger: CANCELLED after %d ms%n", cancelMs);
    assertThat(interrupted).contains(running);
    Map<String, String> ended = record(running);
    assertThat(ended.get("message")).startsWith("cancelled by an operator");
    assertThat(ended).containsEntry("cancelledBy", "it-admin").containsEntry("executor", EXECUTOR);
    ApiTestNode.Response shown = node.get("/api/v1/triggers/" + running, VIEWER);
    assertThat(shown.json().path("state").asText()).isEqualTo("CANCELLED");

    // The queued copy reaches the executor once the slot is free, and its start claim refuses it.
    await(
        "the queued copy refused at start",
        () -> executors.executor(0).stats("slow").duplicates() >= 1);
    assertThat(started).doesNotContainKey(queued);
    assertThat(state(queued)).isEqualTo("CANCELLED");

    for (String ended2 : List.of(running, queued)) {
      Map<String, String> before = record(ended2);
      long eventsBefore = eventsOf(ended2);
      Double requestBefore = redis.sync().zscore(RedisKeys.cancels(APP), ended2);

      ApiTestNode.Response again = cancel(ended2);

      assertThat(again.status()).as(again.toString()).isEqualTo(409);
      assertThat(again.contentType()).startsWith("application/problem+json");
      assertThat(again.json().path("code").asText()).isEqualTo("trigger-final");
      assertThat(again.json().path("state").asText()).isEqualTo("CANCELLED");
      assertThat(record(ended2)).as("the record").isEqualTo(before);
      assertThat(eventsOf(ended2)).as("events").isEqualTo(eventsBefore);
      assertThat(redis.sync().zscore(RedisKeys.cancels(APP), ended2))
          .as("cancel requests")
          .isEqualTo(requestBefore);
    }
  }

  @Test
  void aTriggerCancelledWhileTheExecutorHoldsItAheadOfItsFireTimeNeverStarts() {
    // The node sends each fire its pre-dispatch lead (2.5 s) ahead; the executor holds it until
    // its fire time. A cancel in between must win over the held copy (docs/protocol.md).
    String job = createJob("held-" + RUN, "ok", "CRON", "*/5 * * * * *");
    long[] heldFire = new long[1];
    await(
        "a fire of " + job + " DISPATCHED at least 500 ms before its fire time",
        () -> {
          long now = clock.nowMs();
          for (var entry : triggersOf(job).entrySet()) {
            if (entry.getKey() - now >= 500 && "DISPATCHED".equals(entry.getValue().get("state"))) {
              heldFire[0] = entry.getKey();
              return true;
            }
          }
          return false;
        });
    String held = TriggerId.scheduled(job, heldFire[0]).value();
    long duplicatesBefore = executors.executor(0).stats("ok").duplicates();

    ApiTestNode.Response cancelled = cancel(held);

    assertThat(cancelled.status()).as(cancelled.toString()).isEqualTo(200);
    assertThat(cancelled.json().path("outcome").asText()).isEqualTo("CANCELLED");
    assertThat(cancelled.json().path("previousState").asText()).isEqualTo("DISPATCHED");
    assertThat(clock.nowMs()).as("cancelled ahead of the fire time").isLessThan(heldFire[0]);
    // At its fire time the held copy reaches the start claim, which refuses it.
    await(
        "the held copy released at its fire time and refused",
        () ->
            clock.nowMs() >= heldFire[0]
                && executors.executor(0).heldDeliveries() == 0
                && executors.executor(0).stats("ok").duplicates() > duplicatesBefore);
    // Only that fire: the job's next one runs (and by then the held copy is long judged).
    await(
        "a later fire of " + job + " ran",
        () ->
            triggersOf(job).tailMap(heldFire[0], false).values().stream()
                .anyMatch(r -> "SUCCESS".equals(r.get("state"))));
    assertThat(started).doesNotContainKey(held);
    assertThat(state(held)).isEqualTo("CANCELLED");
    assertThat(node.post("/api/v1/jobs/" + job + "/disable", null, ADMIN).status()).isEqualTo(200);
  }

  @Test
  void pauseShowsInTheApiHealthAndMetricsUntilResumed() {
    ApiTestNode.Response paused = node.post("/api/v1/cluster/pause", null, ADMIN);

    assertThat(paused.status()).as(paused.toString()).isEqualTo(200);
    assertThat(paused.json().path("paused").asBoolean()).isTrue();
    assertThat(paused.json().path("pausedBy").asText()).isEqualTo("it-admin");
    long since = paused.json().path("pausedSinceMs").asLong();
    assertThat(since).isPositive();
    ApiTestNode.Response again = node.post("/api/v1/cluster/pause", null, ADMIN);
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.json().path("pausedSinceMs").asLong()).as("first pause kept").isEqualTo(since);
    ApiTestNode.Response read = node.get("/api/v1/cluster/pause", VIEWER);
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.json().path("paused").asBoolean()).isTrue();
    assertThat(read.json().path("pausedSinceMs").asLong()).isEqualTo(since);
    ApiTestNode.Response health = node.get("/actuator/health", null);
    assertThat(health.json().at("/components/scheduling/status").asText()).isEqualTo("UP");
    assertThat(health.json().at("/components/scheduling/details/paused").asBoolean()).isTrue();
    assertThat(health.json().at("/components/scheduling/details/pausedBy").asText())
        .isEqualTo("it-admin");
    assertThat(node.get("/actuator/prometheus", ADMIN).body())
        .containsPattern("(?m)^kairos_cluster_paused(\\{[^}]*\\})? 1\\.0$");

    ApiTestNode.Response resumed = node.post("/api/v1/cluster/resume", null, ADMIN);

    assertThat(resumed.status()).isEqualTo(200);
    assertThat(resumed.json().path("paused").asBoolean()).isFalse();
    assertThat(resumed.json().has("pausedSinceMs")).isFalse();
    assertThat(node.post("/api/v1/cluster/resume", null, ADMIN).status())
        .as("resuming a running cluster")
        .isEqualTo(200);
    assertThat(node.get("/api/v1/cluster/pause", VIEWER).json().path("paused").asBoolean())
        .isFalse();
    assertThat(
            node.get("/actuator/health", null)
                .json()
                .at("/components/scheduling/details/paused")
                .asBoolean())
        .isFalse();
    assertThat(node.get("/actuator/prometheus", ADMIN).body())
        .containsPattern("(?m)^kairos_cluster_paused(\\{[^}]*\\})? 0\\.0$");
  }

  @Test
  void nothingIsClaimedWhilePausedAndResumeSkipsTheMissedFiresOfADoNothingJob() {
    String job = createJob("tick-" + RUN, "ok", "FIXED_RATE", "1000");
    int shard = keys.shardOf(job);
    try {
      await("the job runs", () -> triggersOf(job).values().stream().anyMatch(this::succeeded));

      double pausedPasses = counter("kairos.scan.paused.passes");
      ApiTestNode.Response paused = node.post("/api/v1/cluster/pause", null, ADMIN);
      assertThat(paused.status()).as(paused.toString()).isEqualTo(200);
      long pausedAt = paused.json().path("pausedSinceMs").asLong();
      // A pass reads the flag when it begins and passes run one at a time: once a paused pass
      // has been counted, no pass that started before the pause is still claiming.
      await("a paused scan pass", () -> counter("kairos.scan.paused.passes") > pausedPasses);
      Double due = redis.sync().zscore(RedisKeys.due(shard), job);
      TreeMap<Long, Map<String, String>> claimed = triggersOf(job);
      long lastClaimed = claimed.lastKey();
      assertThat(due).as("the next unclaimed fire").isEqualTo((double) (lastClaimed + 1_000));

      // Ad-hoc triggers wait while paused: there is no record to cancel yet.
      String manual = triggerNow(job);
      String request = RedisKeys.adhocRequest(shard, manual);
      Map<String, String> requestBefore = redis.sync().hgetall(request);
      ApiTestNode.Response waiting = cancel(manual);
      assertThat(waiting.status()).as(waiting.toString()).isEqualTo(409);
      assertThat(waiting.json().path("code").asText()).isEqualTo("trigger-waiting");
      assertThat(record(manual)).isEmpty();
      assertThat(redis.sync().hgetall(request)).isEqualTo(requestBefore);
      assertThat(redis.sync().zscore(RedisKeys.adhoc(shard), manual)).isNotNull();

      // Fires claimed before the pause (at most the pre-read window ahead) still run.
      await(
          "every fire claimed before the pause ran, while still paused",
          () ->
              claimed.keySet().stream().allMatch(fire -> "SUCCESS".equals(state(job + ":" + fire)))
                  && node.get("/api/v1/cluster/pause", VIEWER).json().path("paused").asBoolean());
      // Paused past the misfire threshold (5 s) of the first missed fire, so DO_NOTHING applies.
      await(
          "three more paused passes and the first missed fire older than the threshold",
          () ->
              counter("kairos.scan.paused.passes") >= pausedPasses + 3
                  && clock.nowMs() > due.longValue() + 5_500);
      assertThat(redis.sync().zscore(RedisKeys.due(shard), job)).as("due score").isEqualTo(due);
      assertThat(triggersOf(job).keySet()).as("claimed fires").isEqualTo(claimed.keySet());
      assertThat(started).doesNotContainKey(manual);

      double misfires = counter("kairos.scan.misfires");
      long resumeAt = clock.nowMs();
      ApiTestNode.Response resumed = node.post("/api/v1/cluster/resume", null, ADMIN);
      assertThat(resumed.status()).isEqualTo(200);

      await("the waiting manual trigger ran after the resume", () -> started.containsKey(manual));
      await(
          "a fire after the resume ran",
          () ->
              triggersOf(job).tailMap(lastClaimed, false).values().stream()
                  .anyMatch(this::succeeded));
      long firstAfter = triggersOf(job).higherKey(lastClaimed);
      System.out.printf(
          "CONTROL pause: paused %d ms; last fire claimed before it %d ms after the pause, first"
              + " fire after the resume %d ms after the resume%n",
          resumeAt - pausedAt, lastClaimed - pausedAt, firstAfter - resumeAt);
      assertThat(firstAfter)
          .as("DO_NOTHING: every fire missed while paused is skipped")
          .isGreaterThanOrEqualTo(resumeAt);
      assertThat(counter("kairos.scan.misfires")).isGreaterThan(misfires);
      assertThat(lastClaimed)
          .as("claimed at most the pre-read window (5 s) ahead of the pause")
          .isLessThanOrEqualTo(pausedAt + 5_000);
    } finally {
      node.post("/api/v1/jobs/" + job + "/disable", null, ADMIN);
    }
  }

  private boolean succeeded(Map<String, String> record) {
    return "SUCCESS".equals(record.get("state"));
  }
}
