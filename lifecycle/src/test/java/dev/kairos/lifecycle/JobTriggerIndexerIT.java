package dev.kairos.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

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
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import dev.kairos.protocol.claim.AdhocClaim;
import dev.kairos.protocol.claim.ClaimBatch;
import dev.kairos.protocol.claim.ClaimOutcome;
import dev.kairos.protocol.claim.Fire;
import dev.kairos.protocol.claim.JobClaim;
import dev.kairos.protocol.start.StartOutcome;
import dev.kairos.protocol.start.StartRequest;
import dev.kairos.protocol.start.TriggerRecords;
import dev.kairos.protocol.wheel.NodeWheelStore;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.StreamMessage;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The jobs' recent-trigger index ({@link RedisKeys#jobTriggers}), written by the lifecycle worker
 * from the TRIGGER_CLAIMED events the real claim script appends: every new trigger of a job —
 * scheduled, retry, manual — scored by its fire time, bounded, expiring with its newest record.
 */
@RealInfra(redis = RedisMode.CLUSTER)
class JobTriggerIndexerIT {

  private static final int SHARDS = 4;
  private static final KairosClock CLOCK = System::currentTimeMillis;
  private static final Duration RETENTION = Duration.ofMinutes(10);
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final EmbeddedRedisCluster cluster;
  private KairosRedis redis;
  private RedisKeys keys;
  private JobStore jobs;
  private AdhocTriggers adhoc;
  private TriggerRecords records;
  private NodeWheelStore wheel;
  private SimpleMeterRegistry meters;
  private LifecycleWorker worker;

  JobTriggerIndexerIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeEach
  void setUp() {
    for (int i = 0; i < cluster.size(); i++) {
      cluster.flushNode(i);
    }
    redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(10));
    keys = new RedisKeys(ClusterMetadata.initialise(redis, SHARDS));
    jobs = new JobStore(redis, keys, CLOCK);
    adhoc = new AdhocTriggers(redis, keys, CLOCK);
    records = new TriggerRecords(redis, keys, RETENTION, 100_000);
    meters = new SimpleMeterRegistry();
    wheel = new NodeWheelStore(redis, keys, "node-a", 100_000, Duration.ofSeconds(5), meters);
  }

  @AfterEach
  void tearDown() {
    if (worker != null) {
      worker.close();
    }
    redis.close();
  }

  private void startWorker(int indexSize) {
    worker =
        new LifecycleWorker(
            redis,
            keys,
            adhoc,
            alarm -> true,
            CLOCK,
            LifecycleConfig.defaults("node-a")
                .withPollInterval(Duration.ofMillis(20))
                .withTriggerIndex(indexSize, RETENTION),
            meters);
    worker.start();
  }

  private JobDefinition create(JobDefinition.Builder builder) {
    return jobs.create(builder.app("billing").handler("report").build());
  }

  private static String newId(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private String index(String jobId) {
    return RedisKeys.jobTriggers(keys.shardOf(jobId), jobId);
  }

  private List<ScoredValue<String>> indexed(String jobId) {
    return redis.sync().zrangeWithScores(index(jobId), 0, -1);
  }

  private double indexedCount() {
    return meters.counter("kairos.lifecycle.triggers.indexed").count();
  }

  private static void await(String what, BooleanSupplier condition) {
    Poll.until(WAIT, Duration.ofMillis(20), what, condition::getAsBoolean);
  }

  /** The leader's claim of {@code fires} of the job (its due score moved an hour on). */
  private void claim(JobDefinition job, long... fires) {
    int shard = keys.shardOf(job.id());
    long due = jobs.dueScore(job.id()).orElseThrow().longValue();
    ClaimOutcome claimed =
        new ClaimBatch(shard, 1, CLOCK.nowMs(), RETENTION.toMillis(), 100_000)
            .add(
                new JobClaim(
                    job.id(),
                    due,
                    job.scheduleVersion(),
                    NextDue.at(fires[fires.length - 1] + 3_600_000),
                    LongStream.of(fires).mapToObj(f -> new Fire(f, "node-a")).toList()))
            .send(redis.async())
            .toCompletableFuture()
            .join();
    assertThat(claimed.claimedFires()).isEqualTo(fires.length);
  }

  /** The leader's claim of a waiting ad-hoc trigger (retry, manual, child). */
  private long claimAdhoc(TriggerId id) {
    long due = adhoc.waitingDueMs(id).orElseThrow();
    ClaimOutcome claimed =
        new ClaimBatch(keys.shardOf(id.jobId()), 1, CLOCK.nowMs(), RETENTION.toMillis(), 100_000)
            .add(new AdhocClaim(id.value(), id.jobId(), due, "node-a"))
            .send(redis.async())
            .toCompletableFuture()
            .join();
    assertThat(claimed.claimedAdhoc()).as("ad-hoc %s claimed", id).isEqualTo(1);
    return due;
  }

  /** Takes, dispatches, starts and ends a claimed fire through the real scripts. */
  private void finish(TriggerId id, long fireMs, TriggerState end) {
    int shard = keys.shardOf(id.jobId());
    assertThat(wheel.takeDue(shard, fireMs, 100, CLOCK.nowMs()).due())
        .anySatisfy(t -> assertThat(t.triggerId()).isEqualTo(id.value()));
    assertThat(wheel.ackDispatched(shard, id.value(), "0", CLOCK.nowMs())).isTrue();
    StartOutcome started =
        records.claimStart(new StartRequest(id.value(), id.jobId(), fireMs, 1, 0, "exec-1", 0));
    assertThat(started.kind()).isEqualTo(StartOutcome.Kind.STARTED);
    records.complete(id.value(), id.jobId(), fireMs, "exec-1", end, "handler said " + end);
  }

  @Test
  void everyNewTriggerOfAJobIsIndexedByFireTimeScheduledRetryAndManual() {
    startWorker(LifecycleConfig.DEFAULT_TRIGGER_INDEX_SIZE);
    JobDefinition job =
        create(
            JobDefinition.builder(newId("indexed"))
                .fixedRate(3_600_000)
                .retryCount(1)
                .retryBackoff(RetryBackoff.fixed(60_000)));
    long fireMs = CLOCK.nowMs();
    TriggerId scheduled = TriggerId.scheduled(job.id(), fireMs);
    claim(job, fireMs);
    finish(scheduled, fireMs, TriggerState.FAIL);

    TriggerId retry = scheduled.retry(1);
    await("retry " + retry + " submitted", () -> adhoc.waitingDueMs(retry).isPresent());
    long retryDue = claimAdhoc(retry);
    TriggerId manual = adhoc.triggerNow(job.id(), Optional.empty());
    long manualDue = claimAdhoc(manual);

    await("three triggers in the index", () -> indexed(job.id()).size() == 3);
    assertThat(indexed(job.id()))
        .as("every trigger once, scored by its fire time")
        .containsExactlyInAnyOrder(
            ScoredValue.just(fireMs, scheduled.value()),
            ScoredValue.just(retryDue, retry.value()),
            ScoredValue.just(manualDue, manual.value()));
    assertThat(retryDue).isGreaterThan(manualDue);
    assertThat(redis.sync().zrevrange(index(job.id()), 0, 0))
        .as("newest fire first, as the API lists it")
        .containsExactly(retry.value());
    assertThat(indexedCount()).isEqualTo(3);
  }

  @Test
  void theIndexKeepsTheNewestTriggersAndExpiresWithItsNewestRecord() {
    startWorker(3);
    JobDefinition job = create(JobDefinition.builder(newId("bounded")).fixedRate(3_600_000));
    long base = CLOCK.nowMs() + 60_000;
    long[] first = LongStream.range(0, 5).map(i -> base + i * 1_000).toArray();
    claim(job, first);

    await("the first five indexed", () -> indexedCount() == 5);
    assertThat(indexed(job.id()))
        .extracting(ScoredValue::getValue)
        .containsExactly(
            TriggerId.scheduled(job.id(), base + 2_000).value(),
            TriggerId.scheduled(job.id(), base + 3_000).value(),
            TriggerId.scheduled(job.id(), base + 4_000).value());
    long expireAt = base + 4_000 + RETENTION.toMillis();
    long before = System.currentTimeMillis();
    long ttl = redis.sync().pttl(index(job.id()));
    long after = System.currentTimeMillis();
    assertThat(ttl)
        .as("expires with the newest record: its fire time + retention")
        .isBetween(expireAt - after - 1_000, expireAt - before + 1_000);

    claim(job, base + 5_000, base + 6_000);
    await("two more indexed", () -> indexedCount() == 7);
    assertThat(indexed(job.id()))
        .extracting(ScoredValue::getValue)
        .containsExactly(
            TriggerId.scheduled(job.id(), base + 4_000).value(),
            TriggerId.scheduled(job.id(), base + 5_000).value(),
            TriggerId.scheduled(job.id(), base + 6_000).value());
  }

  @Test
  void aReplayedClaimEventChangesNothing() {
    startWorker(LifecycleConfig.DEFAULT_TRIGGER_INDEX_SIZE);
    JobDefinition job = create(JobDefinition.builder(newId("replay")).fixedRate(3_600_000));
    long fireMs = CLOCK.nowMs() + 60_000;
    claim(job, fireMs);
    await("indexed once", () -> indexedCount() == 1);

    String stream = RedisKeys.events(keys.shardOf(job.id()));
    StreamMessage<String, String> claimed =
        redis.sync().xrange(stream, Range.create("-", "+")).stream()
            .filter(m -> JobTriggerIndexer.CLAIMED.equals(m.getBody().get("type")))
            .filter(m -> job.id().equals(m.getBody().get("jobId")))
            .findFirst()
            .orElseThrow();
    redis.sync().xadd(stream, claimed.getBody());
    await("the replay handled", () -> indexedCount() == 2);

    assertThat(indexed(job.id()))
        .containsExactly(ScoredValue.just(fireMs, TriggerId.scheduled(job.id(), fireMs).value()));
  }
}
