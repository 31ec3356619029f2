package dev.kairos.coordinator.scan;

import static dev.kairos.protocol.ClusterFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.coordinator.assign.ConsistentHashAssigner;
import dev.kairos.coordinator.assign.StaticLiveNodes;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.TriggerId;
import dev.kairos.core.model.TriggerKind;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.schedule.FireWindow;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.ClusterFixture;
import dev.kairos.protocol.adhoc.AdhocRequest;
import dev.kairos.protocol.adhoc.AdhocSubmission;
import dev.kairos.protocol.adhoc.AdhocTriggers;
import dev.kairos.protocol.fence.ShardFence;
import dev.kairos.protocol.fence.StaleTermException;
import dev.kairos.protocol.wheel.DueTrigger;
import dev.kairos.protocol.wheel.NodeWheelStore;
import dev.kairos.protocol.wheel.TakeResult;
import dev.kairos.protocol.wheel.WheelEntry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Ad-hoc triggers go through the leader's scan into node wheels like scheduled fires. */
@RealInfra(redis = RedisMode.CLUSTER)
class AdhocClaimIT {

  private static final int SHARDS = 8;

  private final EmbeddedRedisCluster cluster;
  private final SettableClock clock = new SettableClock(T0);
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private ClusterFixture fx;
  private AdhocTriggers adhoc;

  AdhocClaimIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeEach
  void connect() {
    fx = new ClusterFixture(cluster, SHARDS);
    adhoc = new AdhocTriggers(fx.redis, fx.keys, clock);
  }

  @AfterEach
  void disconnect() {
    fx.close();
  }

  private DueFireScanner scanner(
      KairosRedis redis, ScanConfig config, Map<String, List<WheelEntry>> notified, String node) {
    return new DueFireScanner(
        redis,
        fx.keys,
        config,
        clock,
        StaticLiveNodes.of(node),
        new ConsistentHashAssigner(),
        (n, entries) -> notified.computeIfAbsent(n, k -> new ArrayList<>()).addAll(entries),
        new FireWindow(),
        meters);
  }

  /** An API-only job: nothing in the due ZSET, so every claim in these tests is ad-hoc. */
  private JobDefinition apiJob(String id) {
    JobDefinition job =
        JobDefinition.builder(id)
            .app("billing")
            .handler("invoice")
            .params("{\"from\":\"job\"}")
            .createdMs(T0)
            .scheduleVersion(1)
            .build();
    fx.putJob(job, T0);
    return job;
  }

  private long waiting() {
    long n = 0;
    for (int s = 0; s < SHARDS; s++) {
      n += adhoc.waiting(s);
    }
    return n;
  }

  @Test
  void twoScannersRacingClaimEachDueAdhocTriggerOnce() throws Exception {
    Set<String> expected = new HashSet<>();
    for (int j = 0; j < 40; j++) {
      String job = apiJob("m-" + j).id();
      for (int k = 0; k < 5; k++) {
        expected.add(adhoc.triggerNow(job, "n" + k, Optional.empty()).value());
      }
    }
    // Due beyond the scan horizon (now + 5 s): it stays waiting.
    adhoc.submit(
        AdhocRequest.manual(TriggerId.manual("m-0", T0, "later"), T0 + 60_000, Optional.empty()));

    ScanConfig config = ScanConfig.builder().batchSize(16).build();
    Map<String, List<WheelEntry>> notified = new ConcurrentHashMap<>();
    DueFireScanner a = scanner(fx.newConnection(), config, notified, "node-a");
    DueFireScanner b = scanner(fx.newConnection(), config, notified, "node-b");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    int claimed = 0;
    try {
      for (int round = 0; round < 3; round++) {
        CountDownLatch go = new CountDownLatch(1);
        Future<ScanReport> ra = pool.submit(() -> awaitThen(go, a));
        Future<ScanReport> rb = pool.submit(() -> awaitThen(go, b));
        go.countDown();
        claimed += ra.get(30, TimeUnit.SECONDS).adhocClaimed();
        claimed += rb.get(30, TimeUnit.SECONDS).adhocClaimed();
      }
    } finally {
      pool.shutdownNow();
    }

    Map<String, Long> wheelA = fx.wheel("node-a");
    Map<String, Long> wheelB = fx.wheel("node-b");
    Set<String> both = new HashSet<>(wheelA.keySet());
    both.retainAll(wheelB.keySet());
    assertThat(both).as("ad-hoc triggers claimed by both scanners").isEmpty();
    Set<String> all = new HashSet<>(wheelA.keySet());
    all.addAll(wheelB.keySet());
    assertThat(all).isEqualTo(expected);
    assertThat(claimed).isEqualTo(expected.size());
    assertThat(meters.counter("kairos.claims.adhoc").count()).isEqualTo(expected.size());
    Set<String> notifiedIds = new HashSet<>();
    notified.values().forEach(l -> l.forEach(e -> notifiedIds.add(e.triggerId())));
    assertThat(notifiedIds).isEqualTo(expected);
    assertThat(waiting()).as("only the future trigger still waits").isEqualTo(1);
    for (String id : expected) {
      assertThat(fx.trigger(id))
          .containsEntry("state", "CLAIMED")
          .containsEntry("kind", "MANUAL")
          .containsEntry("attempt", "1")
          .containsEntry("fireMs", Long.toString(T0));
      assertThat(fx.redis.sync().exists(RedisKeys.adhocRequest(fx.keys.shardOf(id), id)))
          .as("request of %s deleted by the claim", id)
          .isZero();
    }
    // A claim writes no event; each claimed trigger is indexed under its job once.
    assertThat(fx.eventsOfJob("m-7")).isEmpty();
    assertThat(fx.redis.sync().zcard(RedisKeys.jobTriggers(fx.keys.shardOf("m-7"), "m-7")))
        .isEqualTo(5);
  }

  private static ScanReport awaitThen(CountDownLatch go, DueFireScanner scanner)
      throws InterruptedException {
    go.await();
    return scanner.scan(1);
  }

  @Test
  void takeDueHandsOutTheOverrideAndAttemptAndIgnoresAScheduleChange() {
    JobDefinition job = apiJob("take");
    TriggerId manual =
        adhoc.triggerNow(
            job.id(), "x", Optional.of("{\"from\":\"override\"}"), java.util.OptionalInt.of(3));
    TriggerId first = TriggerId.scheduled(job.id(), T0 - 5_000);
    AdhocSubmission retry =
        adhoc.submit(
            new AdhocRequest(
                first.retry(2),
                TriggerKind.RETRY,
                T0,
                3,
                Optional.empty(),
                Optional.of(first.retry(1)),
                0,
                OptionalLong.of(1)));
    assertThat(retry.outcome()).isEqualTo(AdhocSubmission.Outcome.ACCEPTED);
    scanner(fx.redis, ScanConfig.defaults(), new ConcurrentHashMap<>(), "node-a").scan(1);
    assertThat(fx.trigger(manual.value())).containsEntry("targetSlot", "3");
    assertThat(fx.trigger(first.retry(2).value()))
        .doesNotContainKey("targetSlot")
        .containsEntry("parentTriggerId", first.retry(1).value())
        .containsEntry("scheduleVersion", "1")
        .containsEntry("kind", "RETRY");

    // A schedule change drops scheduled fires claimed before it, not ad-hoc triggers.
    int shard = fx.keys.shardOf(job.id());
    fx.redis.sync().hset(RedisKeys.job(shard, job.id()), "scheduleVersion", "2");
    NodeWheelStore node =
        new NodeWheelStore(fx.redis, fx.keys, "node-a", 10_000, Duration.ofSeconds(5), meters);
    TakeResult taken = node.takeDue(shard, T0, 100, T0);

    assertThat(taken.staleDropped()).isZero();
    assertThat(taken.due())
        .extracting(
            DueTrigger::triggerId, DueTrigger::params, DueTrigger::attempt, DueTrigger::targetSlot)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(manual.value(), "{\"from\":\"override\"}", 1, 3),
            org.assertj.core.groups.Tuple.tuple(
                first.retry(2).value(), "{\"from\":\"job\"}", 3, DueTrigger.NO_TARGET_SLOT));
  }

  @Test
  void adhocTriggersOfADisabledOrDeletedJobAreDroppedAtFireTime() {
    JobDefinition off = apiJob("off");
    JobDefinition gone = apiJob("gone");
    TriggerId offId = adhoc.triggerNow(off.id(), "x", Optional.empty());
    TriggerId goneId = adhoc.triggerNow(gone.id(), "x", Optional.empty());
    scanner(fx.redis, ScanConfig.defaults(), new ConcurrentHashMap<>(), "node-a").scan(1);
    fx.redis.sync().hset(RedisKeys.job(fx.keys.shardOf(off.id()), off.id()), "enabled", "false");
    fx.deleteJob(gone.id());

    NodeWheelStore node =
        new NodeWheelStore(fx.redis, fx.keys, "node-a", 10_000, Duration.ofSeconds(5), meters);
    int dropped = 0;
    for (int s = 0; s < SHARDS; s++) {
      TakeResult taken = node.takeDue(s, T0, 100, T0);
      assertThat(taken.due()).isEmpty();
      dropped += taken.staleDropped();
    }
    assertThat(dropped).isEqualTo(2);
    assertThat(fx.trigger(offId.value())).containsEntry("state", "DROPPED_STALE");
    assertThat(fx.trigger(goneId.value())).containsEntry("state", "DROPPED_STALE");
  }

  @Test
  void aStaleTermClaimsNoAdhocTrigger() {
    apiJob("fenced");
    TriggerId id = adhoc.triggerNow("fenced", "x", Optional.empty());
    new ShardFence(fx.redis, fx.keys, Duration.ofSeconds(5)).raiseAll(2);
    DueFireScanner stale =
        scanner(fx.redis, ScanConfig.defaults(), new ConcurrentHashMap<>(), "node-a");

    assertThatThrownBy(() -> stale.scan(1)).isInstanceOf(StaleTermException.class);
    assertThat(fx.wheel("node-a")).isEmpty();
    assertThat(fx.trigger(id.value())).isEmpty();
    assertThat(waiting()).isEqualTo(1);
  }
}
