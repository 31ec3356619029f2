package dev.kairos.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmKind;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.RetryBackoff;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerState;
import dev.kairos.core.redis.ClusterMetadata;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.schedule.NextDue;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.KairosClock;
import dev.kairos.devinfra.Poll;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import dev.kairos.protocol.claim.ClaimBatch;
import dev.kairos.protocol.claim.ClaimOutcome;
import dev.kairos.protocol.claim.Fire;
import dev.kairos.protocol.claim.JobClaim;
import dev.kairos.protocol.start.StartOutcome;
import dev.kairos.protocol.start.StartRequest;
import dev.kairos.protocol.start.TriggerRecords;
import dev.kairos.protocol.wheel.NodeWheelStore;
import io.lettuce.core.Consumer;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lifecycle worker on real Redis, fed by the real scripts: the leader's claim, the node's take
 * and ack, the executor's start claim and completion. Run on a Redis Cluster ({@link
 * LifecycleWorkerIT}: one read per shard) and on one server ({@link LifecycleWorkerStandaloneIT}:
 * one read over every shard).
 */
abstract class LifecycleWorkerScenarios {

  private static final int SHARDS = 4;
  private static final KairosClock CLOCK = System::currentTimeMillis;

  private final List<Alarm> alarms = new CopyOnWriteArrayList<>();
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private KairosRedis redis;
  private RedisKeys keys;
  private JobStore jobs;
  private AdhocTriggers adhoc;
  private TriggerRecords records;
  private NodeWheelStore wheel;
  private SimpleMeterRegistry meters;

  /** Empties the Redis under test and connects to it. */
  abstract KairosRedis connectToEmptyRedis();

  @BeforeEach
  void setUp() {
    redis = connectToEmptyRedis();
    keys = new RedisKeys(ClusterMetadata.initialise(redis, SHARDS));
    jobs = new JobStore(redis, keys, CLOCK);
    adhoc = new AdhocTriggers(redis, keys, CLOCK);
    records = new TriggerRecords(redis, keys, Duration.ofMinutes(10), 100_000);
    meters = new SimpleMeterRegistry();
    wheel = new NodeWheelStore(redis, keys, "node-a", 100_000, Duration.ofSeconds(5), meters);
  }

  @AfterEach
  void tearDown() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    redis.close();
  }

  private LifecycleWorker worker(String consumer, LifecycleConfig config) {
    LifecycleWorker worker =
        new LifecycleWorker(redis, keys, adhoc, alarms::add, CLOCK, config, meters);
    closeables.add(worker);
    return worker;
  }

  private LifecycleWorker startWorker(String consumer) {
    LifecycleWorker worker =
        worker(
            consumer,
            LifecycleConfig.builder(consumer).pollInterval(Duration.ofMillis(20)).build());
    worker.start();
    return worker;
  }

  private static String newId(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private JobDefinition create(JobDefinition.Builder builder) {
    return jobs.create(builder.app("billing").handler("report").build());
  }

  /**
   * Runs one scheduled fire of {@code job} through the real scripts to {@code end}: claim (fire at
   * now, the job's due score moved to {@code next}), take, ack, start claim, completion.
   */
  private TriggerId runFire(JobDefinition job, NextDue next, TriggerState end) {
    int shard = keys.shardOf(job.id());
    long due = jobs.dueScore(job.id()).orElseThrow().longValue();
    long fireMs = CLOCK.nowMs();
    ClaimOutcome claimed =
        new ClaimBatch(shard, 1, fireMs, 600_000)
            .add(
                new JobClaim(
                    job.id(),
                    due,
                    job.scheduleVersion(),
                    next,
                    List.of(new Fire(fireMs, "node-a"))))
            .send(redis.async())
            .toCompletableFuture()
            .join();
    assertThat(claimed.claimedFires()).isEqualTo(1);
    TriggerId id = TriggerId.scheduled(job.id(), fireMs);
    finish(shard, id, fireMs, 1, end);
    return id;
  }

  private void finish(int shard, TriggerId id, long fireMs, int attempt, TriggerState end) {
    assertThat(wheel.takeDue(shard, fireMs, 100, CLOCK.nowMs()).due())
        .anySatisfy(t -> assertThat(t.triggerId()).isEqualTo(id.value()));
    assertThat(wheel.ackDispatched(shard, id.value(), "0", CLOCK.nowMs())).isTrue();
    StartOutcome started =
        records.claimStart(
            new StartRequest(id.value(), id.jobId(), fireMs, attempt, 0, "exec-1", 0, fireMs));
    assertThat(started.kind()).isEqualTo(StartOutcome.Kind.STARTED);
    records.complete(id.value(), id.jobId(), fireMs, "exec-1", end, "handler said " + end);
  }

  private Map<String, String> request(TriggerId id) {
    return redis.sync().hgetall(RedisKeys.adhocRequest(keys.shardOf(id.jobId()), id.value()));
  }

  private Double adhocScore(TriggerId id) {
    return redis.sync().zscore(RedisKeys.adhoc(keys.shardOf(id.jobId())), id.value());
  }

  private long adhocEntriesOf(String jobId) {
    return redis.sync().zrange(RedisKeys.adhoc(keys.shardOf(jobId)), 0, -1).stream()
        .filter(id -> id.startsWith(jobId + ":"))
        .count();
  }

  private double counter(String name) {
    return meters.counter(name).count();
  }

  private static void await(Duration timeout, String what, BooleanSupplier condition) {
    Poll.until(timeout, Duration.ofMillis(20), what, condition::getAsBoolean);
  }

  /** Appends a copy of the trigger's final-state event again: at-least-once delivery. */
  private void replayFinalEvent(TriggerId id) {
    String stream = RedisKeys.events(keys.shardOf(id.jobId()));
    StreamMessage<String, String> last =
        redis.sync().xrange(stream, Range.create("-", "+")).stream()
            .filter(m -> id.value().equals(m.getBody().get("triggerId")))
            .filter(m -> "TRIGGER_ENDED".equals(m.getBody().get("type")))
            .reduce((a, b) -> b)
            .orElseThrow();
    redis.sync().xadd(stream, last.getBody());
  }

  @Test
  void aFailedAttemptBecomesOneLinkedRetryEvenWhenItsFinalEventIsReplayed() {
    startWorker("node-a");
    JobDefinition job =
        create(
            JobDefinition.builder(newId("retry"))
                .fixedRate(3_600_000)
                .retryCount(2)
                .retryBackoff(RetryBackoff.fixed(60_000)));
    TriggerId first = runFire(job, NextDue.at(CLOCK.nowMs() + 3_600_000), TriggerState.FAIL);
    TriggerId retry = first.retry(1);

    await(Duration.ofSeconds(30), "retry " + retry + " submitted", () -> adhocScore(retry) != null);
    long endedMs =
        Long.parseLong(
            redis.sync().hget(RedisKeys.trigger(keys.shardOf(job.id()), first.value()), "endedMs"));
    assertThat(adhocScore(retry)).isEqualTo((double) (endedMs + 60_000));
    assertThat(request(retry))
        .containsEntry("attempt", "2")
        .containsEntry("kind", "RETRY")
        .containsEntry("parentTriggerId", first.value())
        .containsEntry("scheduleVersion", Long.toString(job.scheduleVersion()));

    double duplicatesBefore = counter("kairos.lifecycle.duplicates");
    replayFinalEvent(first);
    await(
        Duration.ofSeconds(30),
        "the replayed event handled",
        () -> counter("kairos.lifecycle.duplicates") > duplicatesBefore);
    assertThat(adhocEntriesOf(job.id())).isEqualTo(1);
    assertThat(counter("kairos.lifecycle.retries")).isEqualTo(1);
    assertThat(alarms).isEmpty();
  }

  @Test
  void aFailureWithNoRetryLeftRaisesATriggerFailedAlarmAndNoRetry() {
    startWorker("node-a");
    JobDefinition job = create(JobDefinition.builder(newId("noretry")).fixedRate(3_600_000));
    TriggerId id = runFire(job, NextDue.at(CLOCK.nowMs() + 3_600_000), TriggerState.TIMEOUT);

    await(Duration.ofSeconds(30), "an alarm", () -> !alarms.isEmpty());
    assertThat(alarms).hasSize(1);
    assertThat(alarms.get(0).kind()).isEqualTo(AlarmKind.TRIGGER_FAILED);
    assertThat(alarms.get(0).subject()).isEqualTo(job.id());
    assertThat(alarms.get(0).details())
        .containsEntry("triggerId", id.value())
        .containsEntry("state", "TIMEOUT");
    assertThat(adhocEntriesOf(job.id())).isZero();
  }

  @Test
  void aSuccessOfAJobWithNoChildrenEndsQuietlyWithItsStartRecordedAndItsFailureIsReadInFull() {
    startWorker("node-a");
    JobDefinition job = create(JobDefinition.builder(newId("plain")).fixedRate(3_600_000));

    runFire(job, NextDue.at(CLOCK.nowMs() + 3_600_000), TriggerState.SUCCESS);
    await(
        Duration.ofSeconds(30),
        "the quiet success counted",
        () -> counter("kairos.lifecycle.final.quiet") == 1);
    assertThat(counter("kairos.lifecycle.final.events")).isEqualTo(1);
    assertThat(meters.get("kairos.triggers.start.lateness").timer().count()).isEqualTo(1);
    assertThat(meters.get("kairos.triggers.claim.to.start").timer().count()).isEqualTo(1);

    runFire(job, NextDue.at(CLOCK.nowMs() + 7_200_000), TriggerState.FAIL);
    // retryCount 0: the failure is read in full and judged final, so it raises an alarm.
    await(Duration.ofSeconds(30), "the failure's alarm", () -> alarms.size() == 1);
    assertThat(counter("kairos.lifecycle.final.events")).isEqualTo(2);
    assertThat(counter("kairos.lifecycle.final.quiet")).isEqualTo(1);
  }

  @Test
  void successTriggersEachChildOnceAndAFailureTriggersNone() {
    startWorker("node-a");
    JobDefinition child = create(JobDefinition.builder(newId("child")));
    JobDefinition parent =
        create(
            JobDefinition.builder(newId("parent"))
                .fixedRate(3_600_000)
                .childJobIds(List.of(child.id(), "not-created-yet")));

    TriggerId failed = runFire(parent, NextDue.at(CLOCK.nowMs() + 3_600_000), TriggerState.FAIL);
    TriggerId ok = runFire(parent, NextDue.at(CLOCK.nowMs() + 7_200_000), TriggerState.SUCCESS);

    TriggerId childTrigger = ok.child(child.id());
    await(Duration.ofSeconds(30), "child trigger", () -> adhocScore(childTrigger) != null);
    assertThat(request(childTrigger))
        .containsEntry("kind", "CHILD")
        .containsEntry("depth", "1")
        .containsEntry("parentTriggerId", ok.value());
    await(
        Duration.ofSeconds(30),
        "the unknown child counted",
        () -> counter("kairos.lifecycle.children.missing") == 1);
    assertThat(adhocScore(failed.child(child.id()))).isNull();
    assertThat(adhocEntriesOf(child.id())).isEqualTo(1);
    assertThat(counter("kairos.lifecycle.final.quiet")).isZero();

    replayFinalEvent(ok);
    double dup = counter("kairos.lifecycle.duplicates");
    await(
        Duration.ofSeconds(30),
        "the replayed SUCCESS handled",
        () -> counter("kairos.lifecycle.duplicates") > dup);
    assertThat(adhocEntriesOf(child.id())).isEqualTo(1);
  }

  @Test
  void aParkedFixedDelayJobIsReArmedAtEndPlusDelayOnceAndNotByAReplay() {
    startWorker("node-a");
    JobDefinition job = create(JobDefinition.builder(newId("delay")).fixedDelay(2_000));
    TriggerId first = runFire(job, NextDue.PARK, TriggerState.SUCCESS);
    long endedMs =
        Long.parseLong(
            redis.sync().hget(RedisKeys.trigger(keys.shardOf(job.id()), first.value()), "endedMs"));

    await(
        Duration.ofSeconds(30),
        "the job re-armed",
        () -> jobs.dueScore(job.id()).orElseThrow() != Double.POSITIVE_INFINITY);
    assertThat(jobs.dueScore(job.id())).contains((double) (endedMs + 2_000));

    // The next fire is claimed and parks the job; a replay of the first end must not release it.
    runFireParkedOnly(job);
    double rearms = counter("kairos.lifecycle.rearms");
    replayFinalEvent(first);
    await(
        Duration.ofSeconds(30),
        "the replay handled",
        () -> counter("kairos.lifecycle.final.events") >= 2);
    assertThat(jobs.dueScore(job.id())).contains(Double.POSITIVE_INFINITY);
    assertThat(counter("kairos.lifecycle.rearms")).isEqualTo(rearms);
  }

  /** Claims the job's next fire (parking it) without ending it. */
  private void runFireParkedOnly(JobDefinition job) {
    int shard = keys.shardOf(job.id());
    long due = jobs.dueScore(job.id()).orElseThrow().longValue();
    ClaimOutcome claimed =
        new ClaimBatch(shard, 1, CLOCK.nowMs(), 600_000)
            .add(
                new JobClaim(
                    job.id(),
                    due,
                    job.scheduleVersion(),
                    NextDue.PARK,
                    List.of(new Fire(due, "node-a"))))
            .send(redis.async())
            .toCompletableFuture()
            .join();
    assertThat(claimed.claimedFires()).isEqualTo(1);
  }

  @Test
  void entriesADeadNodeReadAndNeverAcknowledgedAreTakenOver() {
    JobDefinition job =
        create(
            JobDefinition.builder(newId("takeover"))
                .fixedRate(3_600_000)
                .retryCount(1)
                .retryBackoff(RetryBackoff.fixed(60_000)));
    // The group exists before the dead node reads (as it would on a running cluster).
    LifecycleWorker live =
        worker(
            "node-b",
            LifecycleConfig.builder("node-b")
                .pollInterval(Duration.ofMillis(20))
                .claimIdle(Duration.ofMillis(500))
                .claimInterval(Duration.ofMillis(200))
                .build());
    for (int s = 0; s < SHARDS; s++) {
      redis
          .sync()
          .xgroupCreate(
              XReadArgs.StreamOffset.from(RedisKeys.events(s), "0"),
              LifecycleConfig.DEFAULT_GROUP,
              io.lettuce.core.XGroupCreateArgs.Builder.mkstream());
    }
    TriggerId first = runFire(job, NextDue.at(CLOCK.nowMs() + 3_600_000), TriggerState.FAIL);
    // node-a reads everything of the shard and dies before acknowledging.
    List<StreamMessage<String, String>> read =
        redis
            .sync()
            .xreadgroup(
                Consumer.from(LifecycleConfig.DEFAULT_GROUP, "node-a"),
                XReadArgs.Builder.count(1_000),
                XReadArgs.StreamOffset.lastConsumed(RedisKeys.events(keys.shardOf(job.id()))));
    assertThat(read).anySatisfy(m -> assertThat(m.getBody()).containsEntry("state", "FAIL"));

    live.start();
    await(
        Duration.ofSeconds(30),
        "the retry submitted by the live node",
        () -> adhocScore(first.retry(1)) != null);
    assertThat(counter("kairos.lifecycle.entries.claimed")).isGreaterThan(0);
    await(
        Duration.ofSeconds(30),
        "nothing pending in the group",
        () ->
            redis
                    .sync()
                    .xpending(
                        RedisKeys.events(keys.shardOf(job.id())), LifecycleConfig.DEFAULT_GROUP)
                    .getCount()
                == 0);
  }

  @Test
  void theChainEndListenerHearsOnlyAcceptedFinalEndsAfterWhichNoRetryFollows() {
    List<String> heard = new CopyOnWriteArrayList<>();
    ChainEndListener listener =
        new ChainEndListener() {
          @Override
          public boolean accepts(TriggerId id) {
            return id.jobId().startsWith("heard-");
          }

          @Override
          public void chainEnded(TriggerId id, TriggerState state, Map<String, String> record) {
            heard.add(id.jobId() + " " + state + " " + record.get("message"));
          }
        };
    LifecycleWorker worker =
        new LifecycleWorker(
            redis,
            keys,
            adhoc,
            alarms::add,
            CLOCK,
            LifecycleConfig.builder("node-a").pollInterval(Duration.ofMillis(20)).build(),
            meters,
            listener);
    closeables.add(worker);
    worker.start();
    long later = CLOCK.nowMs() + 3_600_000;
    JobDefinition quiet = create(JobDefinition.builder(newId("heard-ok")).fixedRate(3_600_000));
    JobDefinition retried =
        create(
            JobDefinition.builder(newId("heard-retry"))
                .fixedRate(3_600_000)
                .retryCount(1)
                .retryBackoff(RetryBackoff.fixed(60_000)));
    JobDefinition failed = create(JobDefinition.builder(newId("heard-fail")).fixedRate(3_600_000));
    JobDefinition other = create(JobDefinition.builder(newId("other")).fixedRate(3_600_000));

    runFire(quiet, NextDue.at(later), TriggerState.SUCCESS);
    TriggerId first = runFire(retried, NextDue.at(later), TriggerState.FAIL);
    runFire(failed, NextDue.at(later), TriggerState.FAIL);
    runFire(other, NextDue.at(later), TriggerState.FAIL);

    // Each is told (or not) in the same reaction that writes the retry or raises the alarm.
    await(
        Duration.ofSeconds(30),
        "every end reacted to",
        () ->
            adhocScore(first.retry(1)) != null
                && alarms.stream().anyMatch(a -> a.key().endsWith(":" + failed.id()))
                && alarms.stream().anyMatch(a -> a.key().endsWith(":" + other.id()))
                && heard.size() >= 2);
    assertThat(heard)
        .as("the quiet SUCCESS and the final FAIL; not the attempt a retry follows, not other ids")
        .containsExactlyInAnyOrder(
            quiet.id() + " SUCCESS handler said SUCCESS", failed.id() + " FAIL handler said FAIL");
  }
}
