package dev.kairos.drills;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.devinfra.EmbeddedZooKeeperEnsemble;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Issue #14's random mix: for {@code drill.mix.duration-s} (40 s in {@code verify}; {@code
 * -Ddrill.mix.duration-s=600} is the ten minutes) faults of the matrix follow each other in
 * a random order with random lengths and random quiet gaps, while 300 jobs fire every second: a
 * follower or the leader killed -9 and restarted, the leader paused, an executor killed -9 and
 * replaced, Redis, the broker or the NameServer restarted, ZooKeeper's quorum lost, the leader cut
 * off ZooKeeper or Redis. One fault at a time: the next starts once the cluster is whole again
 * (three members, one scanning leader, every live executor on a slot), so every fault meets a
 * cluster that has recovered from the last, as faults meet a deployment. Over the whole window
 * nothing may be missed, started twice or started early, under the jobs' default misfire threshold.
 *
 * <p>The seed is logged ({@code DRILL random-mix: seed ...}); {@code -Ddrill.mix.seed=<seed>}
 * replays the same sequence of faults and lengths (the timing of the cluster around them is the
 * machine's).
 */
@ProxiedNodeLinks
class RandomMixDrillIT extends DrillBase {

  private static final Duration MIX = Duration.ofSeconds(Long.getLong("drill.mix.duration-s", 40));
  private static final long SEED = Long.getLong("drill.mix.seed", System.nanoTime());
  private static final Duration WHOLE_DEADLINE = Duration.ofSeconds(180);

  private final Random random = new Random(SEED);
  private final List<DrillExecutor> running = new ArrayList<>();
  private boolean executorKilled;

  /** Injects a fault, lets it last {@code length}, heals it; says what happened. */
  @FunctionalInterface
  private interface FaultBody {
    String run(Duration length) throws InterruptedException;
  }

  /** One fault of the mix. */
  private record Fault(String name, FaultBody body) {}

  @Test
  void aRandomSequenceOfFaultsCostsNoFire() throws Exception {
    running.addAll(liveExecutors());
    List<Fault> faults = faults();
    log.info("DRILL random-mix: seed {} for {} s of faults", SEED, MIX.toSeconds());

    long from = System.currentTimeMillis() + 2_000;
    letRun(BEFORE_FAULT);
    long mixFrom = System.currentTimeMillis();
    List<String> happened = new ArrayList<>();
    while (System.currentTimeMillis() - mixFrom < MIX.toMillis()) {
      Fault fault = faults.get(random.nextInt(faults.size()));
      Duration length = Duration.ofMillis(2_000 + random.nextInt(10_000));
      long at = System.currentTimeMillis() - mixFrom;
      String what = fault.body().run(length);
      awaitWhole();
      happened.add(String.format("+%d s %s: %s", at / 1000, fault.name(), what));
      log.info("DRILL random-mix: {}", happened.get(happened.size() - 1));
      letRun(Duration.ofMillis(2_000 + random.nextInt(6_000)));
    }
    long mixTo = System.currentTimeMillis();
    letRun(AFTER_RECOVERY);
    long to = System.currentTimeMillis();

    StartLedger.Outcome outcome =
        ledger.awaitStarts(jobs, from, to, cluster.executors(), STARTS_STALL, STARTS_CAP);
    report("random-mix", from, mixFrom, mixTo, to, outcome);
    log.info(
        "DRILL random-mix: seed {}; {} faults in {} s: {}; window {}",
        SEED,
        happened.size(),
        (mixTo - mixFrom) / 1000,
        happened,
        outcome.summary());
    logDispatchLateness("random-mix", from, to);

    assertThat(happened).as("faults injected").isNotEmpty();
    assertNoneMissed(outcome.missed(), "expected fires with no start");
    assertThat(outcome.duplicates()).as("trigger ids started twice").isEmpty();
    assertThat(outcome.early()).as("fires started before their time").isEmpty();
    if (!executorKilled) {
      assertThat(outcome.claimedNotLogged())
          .as("start claims without a handler start: no executor was killed")
          .isEmpty();
    }
  }

  private List<Fault> faults() {
    EmbeddedZooKeeperEnsemble zk = infra.zookeeperEnsemble();
    return List.of(
        fault("follower-kill", this::killAndRestartFollower),
        fault("leader-kill", this::killAndRestartLeader),
        fault("leader-pause", this::pauseLeader),
        fault("executor-kill", length -> replaceAnExecutor()),
        outage("redis-restart", () -> infra.redis().stop(), () -> infra.redis().restart()),
        outage(
            "broker-restart",
            () -> infra.rocketMq().stopBroker(),
            () -> infra.rocketMq().startBroker()),
        outage(
            "nameserver-restart",
            () -> infra.rocketMq().stopNameServer(),
            () -> infra.rocketMq().startNameServer()),
        outage(
            "zookeeper-quorum-loss",
            () -> {
              zk.stopServer(0);
              zk.stopServer(1);
            },
            () ->
                CompletableFuture.allOf(
                        CompletableFuture.runAsync(() -> zk.restartServer(0)),
                        CompletableFuture.runAsync(() -> zk.restartServer(1)))
                    .join()),
        fault(
            "leader-zookeeper-partition",
            length -> {
              NodeLinks links = cluster.links(leader(cluster.nodes()));
              return cut(links::partitionZooKeeper, length, links::healZooKeeper);
            }),
        fault(
            "leader-redis-partition",
            length -> {
              NodeLinks links = cluster.links(leader(cluster.nodes()));
              return cut(links::partitionRedis, length, links::healRedis);
            }));
  }

  private String killAndRestartFollower(Duration length) throws InterruptedException {
    DrillNode victim = except(leader(cluster.nodes())).get(random.nextInt(NODES - 1));
    return killAndRestart(victim, length);
  }

  private String killAndRestartLeader(Duration length) throws InterruptedException {
    return killAndRestart(leader(cluster.nodes()), length);
  }

  private String killAndRestart(DrillNode victim, Duration down) throws InterruptedException {
    victim.process().kill();
    letRun(down);
    victim.process().start();
    return victim.name() + " killed, restarted after " + down.toMillis() + " ms";
  }

  private String pauseLeader(Duration length) throws InterruptedException {
    DrillNode victim = leader(cluster.nodes());
    victim.process().pause();
    try {
      letRun(length);
    } finally {
      victim.process().resume();
    }
    return victim.name() + " stopped (SIGSTOP) for " + length.toMillis() + " ms";
  }

  private String replaceAnExecutor() {
    DrillExecutor victim = running.remove(random.nextInt(running.size()));
    victim.process().kill();
    executorKilled = true;
    DrillExecutor replacement = cluster.startExecutor();
    running.add(replacement);
    return victim.instanceId() + " killed, " + replacement.instanceId() + " started";
  }

  private static String cut(Runnable partition, Duration length, Runnable heal)
      throws InterruptedException {
    partition.run();
    try {
      letRun(length);
    } finally {
      heal.run();
    }
    return "cut for " + length.toMillis() + " ms";
  }

  /** Three members agreeing on one scanning leader, and every live executor on a slot. */
  private void awaitWhole() {
    cluster.awaitMembers(cluster.nodes(), NODES, WHOLE_DEADLINE);
    cluster.awaitLeader(cluster.nodes(), WHOLE_DEADLINE);
    running.forEach(e -> cluster.awaitExecutorSlot(e, WHOLE_DEADLINE));
  }

  private static Fault fault(String name, FaultBody body) {
    return new Fault(name, body);
  }

  private static Fault outage(String name, Runnable stop, Runnable start) {
    return fault(name, length -> cut(stop, length, start) + " (" + name + ")");
  }
}
