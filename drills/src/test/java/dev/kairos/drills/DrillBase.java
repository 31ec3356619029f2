package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedInfrastructure;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.devinfra.ZkMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A drill on a cluster of three scheduler nodes and two executors as child JVMs on the shared
 * embedded infrastructure (standalone Redis unless the drill class's own {@code @RealInfra} asks
 * for a cluster, a 3-server ZooKeeper ensemble, RocketMQ), and {@value #JOBS} jobs firing every
 * second. Drills of one {@link DrillFamily} share one cluster ({@link SharedDrillCluster}): the
 * first starts it on a flushed Redis with a ZooKeeper root and executor app of its own, every later
 * one gets it back whole and caught up. Each drill judges the fires of its own window, which opens
 * once it has the cluster, and reads the nodes' counters as differences over that window.
 */
@RealInfra(redis = RedisMode.STANDALONE, zookeeper = ZkMode.ENSEMBLE, rocketMq = true)
@ExtendWith(SharedDrillCluster.Resolver.class)
abstract class DrillBase {

  static final Logger log = LoggerFactory.getLogger("drill");

  static final int NODES = SharedDrillCluster.NODES;
  static final int EXECUTORS = SharedDrillCluster.EXECUTORS;
  static final int JOBS = SharedDrillCluster.JOBS;

  static final Duration START_DEADLINE = SharedDrillCluster.START_DEADLINE;
  static final Duration TAKEOVER_DEADLINE = Duration.ofSeconds(30);

  /**
   * Fires of the window before the fault: the window opens 2 s after the drill starts (so its first
   * second is whole), and the fault comes once a few seconds of steady firing are in it.
   */
  static final Duration BEFORE_FAULT = Duration.ofSeconds(4);

  /**
   * Fires of the window after the recovery: every one of them must start too, and on time again
   * (the lateness after is reported).
   */
  static final Duration AFTER_RECOVERY = Duration.ofSeconds(6);

  /** The ledger waits while starts of the window keep coming, up to the cap (see awaitStarts). */
  static final Duration STARTS_STALL = Duration.ofSeconds(20);

  static final Duration STARTS_CAP = Duration.ofMinutes(4);

  /** Where each outage drill writes its report, plot and points ({@link DrillReport}). */
  static final Path REPORTS = Path.of("target", "drill-reports");

  static EmbeddedInfrastructure infra;
  static DrillCluster cluster;
  static KairosRedis redis;
  static RedisKeys keys;
  static StartLedger ledger;
  static DrillJobs jobs;

  /** The family's cluster, started by the first drill of the family, then made whole for each. */
  @BeforeAll
  static void joinCluster(
      EmbeddedInfrastructure infrastructure, TestInfo info, SharedDrillCluster shared) {
    Class<?> drill = info.getTestClass().orElseThrow();
    shared.acquire(DrillFamily.of(drill), infrastructure, drill.getSimpleName());
    infra = shared.infra;
    cluster = shared.cluster;
    redis = shared.redis;
    keys = shared.keys;
    ledger = shared.ledger;
    jobs = shared.jobs;
  }

  /** The executors whose process runs (a shared cluster keeps the killed ones for their logs). */
  static List<DrillExecutor> liveExecutors() {
    return cluster.executors().stream().filter(e -> e.process().isAlive()).toList();
  }

  /** The current leader as every live node in {@code among} agrees. */
  static DrillNode leader(List<DrillNode> among) {
    return cluster.awaitLeader(among, TAKEOVER_DEADLINE);
  }

  static List<DrillNode> except(DrillNode excluded) {
    return cluster.nodes().stream().filter(n -> n != excluded).toList();
  }

  /** A node's persisted wheel and inflight entries (trigger ids), read from Redis. */
  record Held(List<String> wheel, List<String> inflight) {

    List<String> all() {
      List<String> all = new ArrayList<>(wheel);
      all.addAll(inflight);
      return all;
    }

    boolean isEmpty() {
      return wheel.isEmpty() && inflight.isEmpty();
    }

    @Override
    public String toString() {
      return wheel.size() + " on its wheel, " + inflight.size() + " inflight";
    }
  }

  /** What {@code node} holds in Redis right now, over every shard. */
  static Held held(String node) {
    List<String> wheel = new ArrayList<>();
    List<String> inflight = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      wheel.addAll(redis.sync().zrange(RedisKeys.wheel(shard, node), 0, -1));
      inflight.addAll(redis.sync().zrange(RedisKeys.inflight(shard, node), 0, -1));
    }
    return new Held(wheel, inflight);
  }

  /**
   * Kills {@code node} {@code offsetMs} after the next whole second: every job fires on the second,
   * so the node is then taking entries off its wheel and sending them (inflight).
   */
  static long killAfterFireBoundary(DrillNode node, long offsetMs) throws InterruptedException {
    long now = System.currentTimeMillis();
    Thread.sleep(1000 - Math.floorMod(now, 1000) + offsetMs);
    long killedAt = System.currentTimeMillis();
    node.process().kill();
    return killedAt;
  }

  /**
   * The nodes' share of the window's lateness: fire time to broker ack, as recorded in the trigger
   * records ({@code dispatchedMs}); the rest of the start lateness is the queue and the executor.
   */
  static void logDispatchLateness(String drill, long from, long to) {
    log.info(
        "DRILL {}: node dispatch (fire -> broker ack) {}",
        drill,
        ledger.dispatchLateness(jobs.expectedTriggerIds(from, to)));
  }

  /**
   * Sum of a Prometheus counter over {@code nodes}; a node that does not answer in time (starved,
   * not a fault of the drill) is asked again until {@link #TAKEOVER_DEADLINE}.
   */
  static double sum(List<DrillNode> nodes, String metric) {
    double sum = 0;
    for (DrillNode node : nodes) {
      sum +=
          Polling.value(
              TAKEOVER_DEADLINE,
              node.name() + " answers " + metric,
              () -> Optional.of(node.probe().metric(metric)));
    }
    return sum;
  }

  /**
   * Asserts no fire of {@code missed} is left; when some are, the failure says where they stand in
   * Redis (state, node, slot, attempt, message), so a miss names the stage that lost it.
   */
  static void assertNoneMissed(java.util.Collection<String> missed, String what) {
    if (!missed.isEmpty()) {
      List<String> sample = missed.stream().sorted().limit(5).toList();
      log.error(
          "DRILL missed {} {}: by record {}; first {}",
          missed.size(),
          what,
          ledger.describe(missed),
          sample);
    }
    assertThat(missed).as(what).isEmpty();
  }

  /**
   * The outage drill: the workload runs {@link #BEFORE_FAULT}, {@code stop} takes a component away
   * for {@code down}, {@code start} brings it back (always, since the infrastructure is shared by
   * every drill of the JVM), the workload runs {@link #AFTER_RECOVERY} more; then every fire of the
   * window must start, none twice, none claimed and left unrun. Logs one {@code DRILL <name>} line
   * with the lateness before and since.
   *
   * @return the trigger ids of the window's fires (all started)
   */
  static List<String> assertAnOutageCostsNoFire(
      String name, Runnable stop, Duration down, Runnable start) throws InterruptedException {
    long from = System.currentTimeMillis() + 2_000;
    letRun(BEFORE_FAULT);
    long stoppedAt = System.currentTimeMillis();
    stop.run();
    try {
      letRun(down);
    } finally {
      start.run();
    }
    long restartedAt = System.currentTimeMillis();
    letRun(AFTER_RECOVERY);
    long to = System.currentTimeMillis();

    StartLedger.Outcome outcome =
        ledger.awaitStarts(jobs, from, to, cluster.executors(), STARTS_STALL, STARTS_CAP);
    log.info(
        "DRILL {}: down {} ms; lateness before {} during and after {}; window {}",
        name,
        restartedAt - stoppedAt,
        outcome.latenessOf(jobs.expectedTriggerIds(from, stoppedAt)),
        outcome.latenessOf(jobs.expectedTriggerIds(stoppedAt, to)),
        outcome.summary());
    logDispatchLateness(name, from, to);
    report(name, from, stoppedAt, restartedAt, to, outcome);

    assertNoneMissed(outcome.missed(), "expected fires with no start");
    assertThat(outcome.duplicates()).as("trigger ids started twice").isEmpty();
    assertThat(outcome.claimedNotLogged()).as("start claims whose handler never ran").isEmpty();
    assertThat(outcome.early()).as("fires started before their time").isEmpty();
    return jobs.expectedTriggerIds(from, to);
  }

  /**
   * Writes the drill's report, plot and points under {@link #REPORTS} ({@link DrillReport}), before
   * the drill asserts, so a failed drill leaves them too; {@code faultFrom} = {@code faultTo} for
   * an instant fault (a kill).
   */
  static void report(
      String name, long from, long faultFrom, long faultTo, long to, StartLedger.Outcome outcome) {
    Path dir =
        new DrillReport(
                name,
                from,
                faultFrom,
                faultTo,
                to,
                outcome.firstStartMs(),
                outcome.expected(),
                outcome.missed().size(),
                outcome.early().size(),
                outcome.duplicates().size(),
                outcome.claimedNotLogged().size())
            .write(REPORTS);
    log.info("DRILL {}: report {}", name, dir.resolve("report.md").toAbsolutePath());
  }

  /** The observation window grows by {@code duration}: the workload runs by itself meanwhile. */
  static void letRun(Duration duration) throws InterruptedException {
    Thread.sleep(duration.toMillis());
  }
}
