package dev.kairos.protocol.wheel;

import static dev.kairos.protocol.ClusterFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.BlockStrategy;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.RoutingStrategy;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.Claims;
import dev.kairos.protocol.ClusterFixture;
import dev.kairos.protocol.failover.NodeEntryMover;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RealInfra(redis = RedisMode.CLUSTER)
class NodeWheelStoreIT {

  private final EmbeddedRedisCluster cluster;
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private ClusterFixture fx;
  private NodeWheelStore nodeA;
  private NodeWheelStore nodeB;

  NodeWheelStoreIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeEach
  void connect() {
    fx = new ClusterFixture(cluster, 4);
    nodeA = new NodeWheelStore(fx.redis, fx.keys, "node-a", 10_000, Duration.ofSeconds(5), meters);
    nodeB = new NodeWheelStore(fx.redis, fx.keys, "node-b", 10_000, Duration.ofSeconds(5), meters);
  }

  @AfterEach
  void disconnect() {
    fx.close();
  }

  private static JobDefinition job(String id) {
    return JobDefinition.builder(id)
        .app("billing")
        .handler("invoice")
        .fixedRate(1_000)
        .params("{\"v\":1}")
        .routing(RoutingStrategy.ROUND)
        .block(BlockStrategy.DISCARD_LATER)
        .timeoutMs(30_000)
        .createdMs(T0)
        .scheduleVersion(1)
        .build();
  }

  private JobDefinition claimed(String id, long fireMs, String node) {
    JobDefinition job = job(id);
    fx.putJob(job, T0);
    Claims.claim(fx, 1, job, T0, fireMs, node);
    return job;
  }

  private int shard(String jobId) {
    return fx.keys.shardOf(jobId);
  }

  @Test
  void takeDueMovesDueEntriesToInflightWithTheCurrentParams() {
    JobDefinition job = claimed("p", T0, "node-a");
    Claims.claim(fx, 1, job, T0, T0 + 9_000, "node-a");
    fx.putJob(job.toBuilder().params("{\"v\":2}").build(), T0); // params-only: same version

    TakeResult taken = nodeA.takeDue(shard("p"), T0 + 1_000, 100, T0 + 1);

    assertThat(taken.due())
        .containsExactly(
            new DueTrigger(
                shard("p"),
                "p:" + T0,
                "p",
                T0,
                "billing",
                "invoice",
                "{\"v\":2}",
                RoutingStrategy.ROUND,
                BlockStrategy.DISCARD_LATER,
                30_000,
                1));
    assertThat(fx.wheel("node-a")).containsOnlyKeys("p:" + (T0 + 9_000));
    assertThat(fx.inflight("node-a")).containsExactly("p:" + T0);
    assertThat(fx.trigger("p:" + T0)).containsEntry("quietSuccess", "1");
  }

  @Test
  void theClaimMarksWhetherASuccessNeedsALifecycleReaction() {
    JobDefinition parent = job("parent").toBuilder().childJobIds(List.of("p")).build();
    fx.putJob(parent, T0);
    Claims.claim(fx, 1, parent, T0, T0, "node-a");
    JobDefinition delay = job("delay").toBuilder().fixedDelay(5_000).build();
    fx.putJob(delay, T0);
    Claims.claim(fx, 1, delay, T0, T0, "node-a");
    claimed("plain", T0, "node-a");

    assertThat(fx.trigger("parent:" + T0)).containsEntry("quietSuccess", "0");
    assertThat(fx.trigger("delay:" + T0)).containsEntry("quietSuccess", "0");
    assertThat(fx.trigger("plain:" + T0)).containsEntry("quietSuccess", "1");
  }

  @Test
  void aFireClaimedBeforeADisableAndDueAfterTheReEnableIsTaken() {
    // The job store's own disable and enable (set_job_enabled.lua), as job-batches calls them.
    JobStore jobs = new JobStore(fx.redis, fx.keys, new SettableClock(T0));
    JobDefinition job =
        jobs.create(
            JobDefinition.builder("again")
                .app("billing")
                .handler("invoice")
                .fixedRate(1_000)
                .build());
    long due = jobs.dueScore("again").orElseThrow().longValue();
    Claims.claim(fx, 1, job, due, due, "node-a");

    jobs.disable("again");
    jobs.enable("again");

    TakeResult taken = nodeA.takeDue(shard("again"), due, 100, due);
    assertThat(taken.staleDropped()).as("dropped as stale").isZero();
    assertThat(taken.due()).extracting(DueTrigger::triggerId).containsExactly("again:" + due);
  }

  @Test
  void aFireDueWhileItsJobIsDisabledIsDroppedAndTheReEnabledJobFiresAgain() {
    JobStore jobs = new JobStore(fx.redis, fx.keys, new SettableClock(T0));
    JobDefinition job =
        jobs.create(
            JobDefinition.builder("paused")
                .app("billing")
                .handler("invoice")
                .fixedRate(1_000)
                .build());
    long due = jobs.dueScore("paused").orElseThrow().longValue();
    Claims.claim(fx, 1, job, due, due, "node-a");

    jobs.disable("paused");
    TakeResult taken = nodeA.takeDue(shard("paused"), due, 100, due);
    assertThat(taken.due()).isEmpty();
    assertThat(fx.trigger("paused:" + due)).containsEntry("message", "job disabled");
    jobs.enable("paused");
    assertThat(jobs.dueScore("paused")).as("back on its schedule").isPresent();
  }

  @Test
  void takeDueDropsFiresOfDisabledDeletedAndRescheduledJobs() {
    JobDefinition disabled = claimed("off", T0, "node-a");
    claimed("gone", T0, "node-a");
    JobDefinition moved = claimed("moved", T0, "node-a");
    claimed("fine", T0, "node-a");
    fx.putJob(disabled.toBuilder().enabled(false).scheduleVersion(2).build(), T0);
    fx.deleteJob("gone");
    fx.putJob(moved.toBuilder().fixedRate(7_000).scheduleVersion(2).build(), T0 + 7_000);

    int stale = 0;
    List<DueTrigger> due = new ArrayList<>();
    for (int shard = 0; shard < fx.keys.shards(); shard++) {
      TakeResult taken = nodeA.takeDue(shard, T0, 100, T0);
      stale += taken.staleDropped();
      due.addAll(taken.due());
    }

    assertThat(stale).isEqualTo(3);
    assertThat(due).extracting(DueTrigger::triggerId).containsExactly("fine:" + T0);
    for (String jobId : List.of("off", "gone", "moved")) {
      assertThat(fx.trigger(jobId + ":" + T0)).containsEntry("state", "DROPPED_STALE");
      assertThat(fx.eventsOfJob(jobId))
          .anySatisfy(e -> assertThat(e).containsEntry("state", "DROPPED_STALE"));
    }
    assertThat(fx.trigger("off:" + T0)).containsEntry("message", "job disabled");
    assertThat(fx.trigger("gone:" + T0)).containsEntry("message", "job deleted");
    assertThat(fx.trigger("moved:" + T0)).containsEntry("message", "schedule version 1 is now 2");
    assertThat(fx.inflight("node-a")).containsExactly("fine:" + T0);
    assertThat(meters.counter("kairos.wheel.stale.drops", "node", "node-a").count()).isEqualTo(3);
  }

  @Test
  void takeDueOnOneNodeNeverTouchesAnotherNodesKeys() {
    claimed("x", T0, "node-a");
    JobDefinition y = claimed("y", T0, "node-b");
    Map<String, Long> wheelB = fx.wheel("node-b");

    for (int shard = 0; shard < fx.keys.shards(); shard++) {
      nodeA.takeDue(shard, T0 + 60_000, 100, T0);
    }

    assertThat(fx.wheel("node-b")).isEqualTo(wheelB).containsKey("y:" + T0);
    assertThat(fx.inflight("node-b")).isEmpty();
    assertThat(fx.inflight("node-a")).containsExactly("x:" + T0);
    assertThat(y.id()).isEqualTo("y");
  }

  @Test
  void anEntryMovedAwayByTheLeaderIsNotReturnedToItsOldNode() {
    claimed("m", T0, "node-a");
    new NodeEntryMover(fx.redis, fx.keys, 100, 10_000, WheelNotifier.NONE, meters)
        .moveAll(1, "node-a", List.of("node-b"), T0);

    assertThat(nodeA.takeDue(shard("m"), T0, 100, T0).due()).isEmpty();
    assertThat(nodeB.takeDue(shard("m"), T0, 100, T0).due())
        .extracting(DueTrigger::triggerId)
        .containsExactly("m:" + T0);
  }

  @Test
  void ackMarksDispatchedOnceAndNeverRegressesALaterState() {
    claimed("ack", T0, "node-a");
    claimed("run", T0, "node-a");
    int s1 = shard("ack");
    int s2 = shard("run");
    nodeA.takeDue(s1, T0, 100, T0);
    nodeA.takeDue(s2, T0, 100, T0);

    assertThat(nodeA.ackDispatched(s1, "ack:" + T0, "3", T0 + 5)).isTrue();
    assertThat(fx.trigger("ack:" + T0))
        .containsEntry("state", "DISPATCHED")
        .containsEntry("slot", "3")
        .containsEntry("dispatchedMs", Long.toString(T0 + 5));
    assertThat(nodeA.ackDispatched(s1, "ack:" + T0, "3", T0 + 6)).isFalse();

    fx.redis.sync().hset(RedisKeys.trigger(s2, "run:" + T0), "state", "RUNNING");
    assertThat(nodeA.ackDispatched(s2, "run:" + T0, "1", T0 + 7)).isTrue();
    assertThat(fx.trigger("run:" + T0)).containsEntry("state", "RUNNING");
    assertThat(fx.inflight("node-a")).isEmpty();
  }

  @Test
  void noExecutorEndsTheTriggerAndReArmsAParkedFixedDelayJob() {
    JobDefinition delay = job("delay").toBuilder().fixedDelay(2_000).build();
    fx.putJob(delay, T0);
    Claims.claim(fx, 1, delay, T0, T0, "node-a");
    int shard = shard("delay");
    fx.redis.sync().zadd(RedisKeys.due(shard), Double.POSITIVE_INFINITY, "delay"); // parked
    nodeA.takeDue(shard, T0, 100, T0);

    assertThat(nodeA.recordNoExecutor(shard, "delay:" + T0, "delay", "no live executor", T0 + 10))
        .isTrue();
    assertThat(fx.trigger("delay:" + T0))
        .containsEntry("state", "NO_EXECUTOR")
        .containsEntry("message", "no live executor");
    assertThat(fx.dueScore("delay")).isEqualTo((double) (T0 + 10 + 2_000));
    assertThat(nodeA.recordNoExecutor(shard, "delay:" + T0, "delay", "again", T0 + 20)).isFalse();
  }

  @Test
  void noExecutorLeavesAFixedDelayJobParkedWhenARetryFollows() {
    JobDefinition delay = job("delayr").toBuilder().fixedDelay(2_000).retryCount(1).build();
    fx.putJob(delay, T0);
    Claims.claim(fx, 1, delay, T0, T0, "node-a");
    int shard = shard("delayr");
    fx.redis.sync().zadd(RedisKeys.due(shard), Double.POSITIVE_INFINITY, "delayr"); // parked
    nodeA.takeDue(shard, T0, 100, T0);

    assertThat(nodeA.recordNoExecutor(shard, "delayr:" + T0, "delayr", "none", T0 + 10)).isTrue();
    assertThat(fx.trigger("delayr:" + T0)).containsEntry("state", "NO_EXECUTOR");
    // attempt 1 <= retryCount 1: the lifecycle retries and re-arms when the chain ends
    assertThat(fx.dueScore("delayr")).isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void requeuedInflightEntriesAreTakenAgainWithTheSameTriggerId() {
    claimed("rq", T0, "node-a");
    int shard = shard("rq");
    assertThat(nodeA.takeDue(shard, T0, 100, T0 + 100).due()).hasSize(1);

    assertThat(nodeA.requeueInflight(T0 + 99, 100)).isEmpty(); // not old enough yet
    List<WheelEntry> requeued = nodeA.requeueInflight(T0 + 100, 100);

    assertThat(requeued).containsExactly(new WheelEntry(shard, "rq:" + T0, T0));
    assertThat(fx.inflight("node-a")).isEmpty();
    assertThat(nodeA.takeDue(shard, T0, 100, T0 + 200).due())
        .extracting(DueTrigger::triggerId)
        .containsExactly("rq:" + T0);
  }

  @Test
  void loadWheelReadsTheNodesEntriesOfEveryShardUpToAHorizon() {
    claimed("l1", T0, "node-a");
    claimed("l2", T0 + 1_000, "node-a");
    claimed("l3", T0 + 9_000, "node-a");
    claimed("l4", T0, "node-b");

    assertThat(nodeA.loadWheel(T0 + 5_000, 1_000))
        .extracting(WheelEntry::triggerId)
        .containsExactlyInAnyOrder("l1:" + T0, "l2:" + (T0 + 1_000));
  }
}
