package dev.kairos.coordinator.scan;

import static dev.kairos.protocol.ClusterFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kairos.coordinator.assign.ConsistentHashAssigner;
import dev.kairos.coordinator.assign.LiveNodes;
import dev.kairos.coordinator.assign.StaticLiveNodes;
import dev.kairos.core.calendar.CalendarDefinition;
import dev.kairos.core.calendar.CalendarDefinition.LocalRange;
import dev.kairos.core.calendar.CalendarStore;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.MisfireStrategy;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.schedule.FireWindow;
import dev.kairos.core.store.JobStore;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.ClusterFixture;
import dev.kairos.protocol.fence.ShardFence;
import dev.kairos.protocol.fence.StaleTermException;
import dev.kairos.protocol.wheel.DueTrigger;
import dev.kairos.protocol.wheel.NodeWheelStore;
import dev.kairos.protocol.wheel.TakeResult;
import dev.kairos.protocol.wheel.WheelEntry;
import dev.kairos.protocol.wheel.WheelNotifier;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RealInfra(redis = RedisMode.CLUSTER)
class DueFireScannerIT {

  private static final int SHARDS = 8;

  private final EmbeddedRedisCluster cluster;
  private ClusterFixture fx;
  private final SettableClock clock = new SettableClock(T0);
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  DueFireScannerIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeEach
  void connect() {
    fx = new ClusterFixture(cluster, SHARDS);
  }

  @AfterEach
  void disconnect() {
    fx.close();
  }

  private DueFireScanner scanner(KairosRedis redis, ScanConfig config, String... nodes) {
    return scanner(redis, config, meters, (node, entries) -> {}, nodes);
  }

  private DueFireScanner scanner(
      KairosRedis redis,
      ScanConfig config,
      SimpleMeterRegistry registry,
      WheelNotifier notifier,
      String... nodes) {
    return scanner(redis, config, registry, notifier, StaticLiveNodes.of(nodes));
  }

  private DueFireScanner scanner(
      KairosRedis redis,
      ScanConfig config,
      SimpleMeterRegistry registry,
      WheelNotifier notifier,
      LiveNodes liveNodes) {
    return new DueFireScanner(
        redis,
        fx.keys,
        config,
        clock,
        liveNodes,
        new ConsistentHashAssigner(),
        notifier,
        new FireWindow(),
        registry);
  }

  private static JobDefinition everySecond(String id) {
    return JobDefinition.builder(id)
        .app("app")
        .handler("h")
        .fixedRate(1_000)
        .createdMs(T0)
        .scheduleVersion(1)
        .build();
  }

  @Test
  void twoScannersOfTheSameTermRacingClaimEachFireOnce() throws Exception {
    int jobs = 300;
    for (int i = 0; i < jobs; i++) {
      fx.putJob(everySecond("race-" + i), T0);
    }
    ScanConfig config = ScanConfig.builder().batchSize(20).build();
    // Each scanner assigns to its own node, so a fire claimed twice shows up in both wheels.
    DueFireScanner a = scanner(fx.newConnection(), config, "node-a");
    DueFireScanner b = scanner(fx.newConnection(), config, "node-b");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    int rounds = 15;
    int claimed = 0;
    int casSkips = 0;
    try {
      for (int round = 0; round < rounds; round++) {
        CountDownLatch go = new CountDownLatch(1);
        Future<ScanReport> ra = pool.submit(() -> awaitThen(go, () -> a.scan(1)));
        Future<ScanReport> rb = pool.submit(() -> awaitThen(go, () -> b.scan(1)));
        go.countDown();
        ScanReport x = ra.get(30, TimeUnit.SECONDS);
        ScanReport y = rb.get(30, TimeUnit.SECONDS);
        claimed += x.firesClaimed() + y.firesClaimed();
        casSkips += x.casSkips() + y.casSkips();
        clock.advance(Duration.ofMillis(1_000));
      }
    } finally {
      pool.shutdownNow();
    }

    Map<String, Long> wheelA = fx.wheel("node-a");
    Map<String, Long> wheelB = fx.wheel("node-b");
    Set<String> both = new HashSet<>(wheelA.keySet());
    both.retainAll(wheelB.keySet());
    assertThat(both).as("fires claimed by both scanners").isEmpty();

    // Horizon of the last round: T0 + 14 s + 5 s; every job fires at T0 + k s, k = 0..19.
    int firesPerJob = (rounds - 1) + 5 + 1;
    Set<String> expected = new HashSet<>();
    for (int i = 0; i < jobs; i++) {
      for (int k = 0; k < firesPerJob; k++) {
        expected.add("race-" + i + ":" + (T0 + k * 1_000L));
      }
    }
    Set<String> all = new HashSet<>(wheelA.keySet());
    all.addAll(wheelB.keySet());
    assertThat(all).isEqualTo(expected);
    assertThat(claimed).isEqualTo(expected.size());
    System.out.printf(
        "race: %d fires claimed once each by 2 scanners (%d on a, %d on b), %d CAS skips%n",
        claimed, wheelA.size(), wheelB.size(), casSkips);
  }

  private static <T> T awaitThen(CountDownLatch go, Callable<T> work) throws Exception {
    go.await();
    return work.call();
  }

  @Test
  void staleTermScannerIsRejectedAfterANewerTermWroteAndWritesNothingAfter() {
    for (int i = 0; i < 50; i++) {
      fx.putJob(everySecond("stale-" + i), T0);
    }
    SimpleMeterRegistry oldMeters = new SimpleMeterRegistry();
    DueFireScanner oldLeader =
        scanner(fx.newConnection(), ScanConfig.defaults(), oldMeters, (n, e) -> {}, "node-a");
    DueFireScanner newLeader = scanner(fx.newConnection(), ScanConfig.defaults(), "node-b");

    assertThat(oldLeader.scan(1).firesClaimed()).isEqualTo(50 * 6);
    new ShardFence(fx.redis, fx.keys, Duration.ofSeconds(5)).raiseAll(2);
    clock.advance(Duration.ofMillis(1_000));
    assertThat(newLeader.scan(2).firesClaimed()).isEqualTo(50);

    Map<String, Long> wheelA = fx.wheel("node-a");
    Map<String, Long> wheelB = fx.wheel("node-b");
    Map<String, Double> due = dueScores(50, "stale-");
    clock.advance(Duration.ofMillis(1_000));

    assertThatThrownBy(() -> oldLeader.scan(1))
        .isInstanceOfSatisfying(
            StaleTermException.class,
            e -> {
              assertThat(e.term()).isEqualTo(1);
              assertThat(e.fence()).isEqualTo(2);
            });
    assertThat(oldMeters.counter("kairos.fence.rejections", "op", "claim").count())
        .isGreaterThan(0);
    assertThat(fx.wheel("node-a")).isEqualTo(wheelA);
    assertThat(fx.wheel("node-b")).isEqualTo(wheelB);
    assertThat(dueScores(50, "stale-")).isEqualTo(due);
    ShardFence fence = new ShardFence(fx.redis, fx.keys, Duration.ofSeconds(5));
    assertThatThrownBy(() -> fence.raiseAll(1)).isInstanceOf(StaleTermException.class);
    assertThat(fence.highestFence()).isEqualTo(2);
  }

  private Map<String, Double> dueScores(int jobs, String prefix) {
    Map<String, Double> scores = new HashMap<>();
    for (int i = 0; i < jobs; i++) {
      scores.put(prefix + i, fx.dueScore(prefix + i));
    }
    return scores;
  }

  @Test
  void scanLoopStopsAtOnceWhenANewerTermFencesTheShards() {
    fx.putJob(everySecond("loop-job"), T0);
    ScanConfig config = ScanConfig.builder().interval(Duration.ofMillis(50)).build();
    DueFireScanner scanner = scanner(fx.newConnection(), config, "node-a");
    AtomicReference<StaleTermException> stale = new AtomicReference<>();
    ShardFence fence = new ShardFence(fx.redis, fx.keys, Duration.ofSeconds(5));
    try (ScanLoop loop =
        new ScanLoop(1, fence, scanner, config.interval(), stale::set, new SimpleMeterRegistry())) {
      loop.start();
      assertThatThrownBy(loop::start).isInstanceOf(IllegalStateException.class);
      ClusterFixture.await(
          Duration.ofSeconds(10), "the loop claims", () -> fx.wheel("node-a").size() >= 6);

      fence.raiseAll(2);
      ClusterFixture.await(
          Duration.ofSeconds(10),
          "the loop hits the fence",
          () -> {
            clock.advance(Duration.ofMillis(200)); // new fires come due, so the loop tries to claim
            return stale.get() != null;
          });
      assertThat(loop.isRunning()).isFalse();
      assertThat(stale.get().fence()).isEqualTo(2);
      Map<String, Long> frozen = fx.wheel("node-a");
      clock.advance(Duration.ofMillis(10_000));
      // The loop is closed: a direct pass proves the fence, and the wheel is as it was.
      assertThatThrownBy(() -> scanner.scan(1)).isInstanceOf(StaleTermException.class);
      assertThat(fx.wheel("node-a")).isEqualTo(frozen);
      loop.close(); // twice: a no-op
    }
  }

  @Test
  void scanLoopCountsAFailedPassAndKeepsRunning() {
    fx.putJob(everySecond("flaky"), T0);
    AtomicInteger membershipCalls = new AtomicInteger();
    LiveNodes flaky =
        () -> {
          if (membershipCalls.getAndIncrement() == 0) {
            throw new IllegalStateException("membership not ready yet");
          }
          return List.of("node-a");
        };
    ScanConfig config = ScanConfig.builder().interval(Duration.ofMillis(50)).build();
    SimpleMeterRegistry loopMeters = new SimpleMeterRegistry();
    DueFireScanner scanner = scanner(fx.redis, config, meters, WheelNotifier.NONE, flaky);
    ShardFence fence = new ShardFence(fx.redis, fx.keys, Duration.ofSeconds(5));
    try (ScanLoop loop = new ScanLoop(1, fence, scanner, config.interval(), e -> {}, loopMeters)) {
      loop.start();
      ClusterFixture.await(
          Duration.ofSeconds(10),
          "a pass after the failed one",
          () -> !fx.wheel("node-a").isEmpty());
      assertThat(loopMeters.counter("kairos.scan.errors").count()).isEqualTo(1);
      assertThat(loop.isRunning()).isTrue();
    }
  }

  @Test
  void aJobFiringEverySecondGetsEveryFireOfTheWindowClaimedOnce() {
    fx.putJob(everySecond("fast"), T0);
    Map<String, List<WheelEntry>> perNode = new ConcurrentHashMap<>();
    DueFireScanner scanner =
        scanner(
            fx.redis,
            ScanConfig.defaults(),
            meters,
            (node, entries) ->
                perNode.computeIfAbsent(node, n -> new ArrayList<>()).addAll(entries),
            "node-a");

    assertThat(scanner.scan(1).firesClaimed()).isEqualTo(6); // T0 .. T0 + 5 s
    for (int second = 1; second <= 5; second++) {
      clock.advance(Duration.ofMillis(1_000));
      assertThat(scanner.scan(1).firesClaimed()).as("second %d", second).isEqualTo(1);
    }
    Map<String, Long> wheel = fx.wheel("node-a");
    assertThat(wheel).hasSize(11);
    for (int k = 0; k <= 10; k++) {
      long fireMs = T0 + k * 1_000L;
      String id = "fast:" + fireMs;
      assertThat(wheel).containsEntry(id, fireMs);
      Map<String, String> record = fx.trigger(id);
      assertThat(record)
          .containsEntry("state", "CLAIMED")
          .containsEntry("jobId", "fast")
          .containsEntry("fireMs", Long.toString(fireMs))
          .containsEntry("scheduleVersion", "1")
          .containsEntry("node", "node-a")
          .containsEntry("term", "1")
          .containsEntry("attempt", "1");
    }
    assertThat(perNode.get("node-a"))
        .extracting(WheelEntry::triggerId)
        .containsExactlyInAnyOrderElementsOf(wheel.keySet());
    int shard = fx.keys.shardOf("fast");
    assertThat(fx.eventsOfJob("fast")).as("a claim writes no event").isEmpty();
    assertThat(fx.redis.sync().zrange(RedisKeys.jobTriggers(shard, "fast"), 0, -1))
        .containsExactlyInAnyOrderElementsOf(wheel.keySet());
    assertThat(fx.redis.sync().pttl(RedisKeys.trigger(shard, "fast:" + T0))).isPositive();
    assertThat(fx.dueScore("fast")).isEqualTo((double) (T0 + 11_000));
    assertThat(fx.redis.sync().hget(RedisKeys.job(shard, "fast"), "lastFireMs"))
        .isEqualTo(Long.toString(T0 + 10_000));
    assertThat(meters.counter("kairos.claims.fires").count()).isEqualTo(11);
  }

  @Test
  void aTermsFirstPassStartsEveryShardAtOnceAndItsLaterPassesSpreadThemOverTheSpread() {
    Duration spread = Duration.ofSeconds(4);
    ScanConfig config =
        ScanConfig.builder()
            .preRead(Duration.ofSeconds(10))
            .interval(Duration.ofSeconds(5))
            .spread(spread)
            .build();
    Set<Integer> covered = new HashSet<>();
    for (int i = 0; covered.size() < SHARDS; i++) {
      String id = "spread-" + i;
      if (covered.add(fx.keys.shardOf(id))) {
        fx.putJob(everySecond(id), T0);
      }
    }
    // When each shard's claim came back, by shard (the notifier runs once per claimed batch).
    Map<Integer, Long> claimedNanos = new ConcurrentHashMap<>();
    DueFireScanner scanner =
        scanner(
            fx.redis,
            config,
            meters,
            (node, entries) -> entries.forEach(e -> claimedNanos.put(e.shard(), System.nanoTime())),
            "node-a");

    long began = System.nanoTime();
    assertThat(scanner.scan(1).firesClaimed()).isEqualTo(SHARDS * 11); // T0 .. T0 + 10 s
    long firstPassNanos = System.nanoTime() - began;
    clock.advance(Duration.ofSeconds(1));
    claimedNanos.clear();
    long secondBegan = System.nanoTime();
    assertThat(scanner.scan(1).firesClaimed()).isEqualTo(SHARDS);

    // A lower bound only, from before the pass began: the last shard is not started before
    // (SHARDS - 1)/SHARDS of the spread has passed, so its claim cannot come back sooner.
    long lastStep = spread.toNanos() * (SHARDS - 1) / SHARDS;
    assertThat(claimedNanos).hasSize(SHARDS);
    assertThat(claimedNanos.get(SHARDS - 1) - secondBegan).isGreaterThanOrEqualTo(lastStep);
    // Catching up after a takeover is not slowed down: the first pass took far less than that.
    assertThat(firstPassNanos).isLessThan(lastStep);
  }

  @Test
  void aDueEntryWhoseJobHashIsGoneAndStaysDueIsStillAJobError() {
    fx.putJob(everySecond("healthy"), T0);
    fx.putJob(everySecond("orphan"), T0);
    int shard = fx.keys.shardOf("orphan");
    fx.redis.sync().del(RedisKeys.job(shard, "orphan")); // the hash alone: an inconsistency

    ScanReport report = scanner(fx.redis, ScanConfig.defaults(), "node-a").scan(1);

    // Re-read, its due entry is still there at the same score: not a delete racing the pass.
    assertThat(report.jobErrors()).isEqualTo(1);
    assertThat(meters.counter("kairos.scan.job.errors").count()).isEqualTo(1);
    assertThat(meters.counter("kairos.scan.jobs.changed.since.read").count()).isZero();
    assertThat(report.firesClaimed()).isEqualTo(6); // healthy: T0 .. T0 + 5 s
    assertThat(fx.dueScore("orphan")).isEqualTo((double) T0);
  }

  @Test
  void aJobFiringEvery100msGetsAllFiftyOneFiresOfTheWindow() {
    fx.putJob(everySecond("fast100").toBuilder().fixedRate(100).build(), T0);
    scanner(fx.redis, ScanConfig.defaults(), "node-a").scan(1);
    assertThat(fx.wheel("node-a")).hasSize(51); // T0, T0 + 100 ms, ..., T0 + 5 s
  }

  @Test
  void oneShotLeavesTheDueSetAndFixedDelayIsParkedAfterItsClaim() {
    fx.putJob(everySecond("once").toBuilder().oneShot(T0 + 2_000).build(), T0 + 2_000);
    fx.putJob(everySecond("delay").toBuilder().fixedDelay(1_000).build(), T0 + 1_000);
    scanner(fx.redis, ScanConfig.defaults(), "node-a").scan(1);
    assertThat(fx.wheel("node-a"))
        .containsOnlyKeys("once:" + (T0 + 2_000), "delay:" + (T0 + 1_000));
    assertThat(fx.dueScore("once")).isNull();
    assertThat(fx.dueScore("delay")).isEqualTo(Double.POSITIVE_INFINITY);
  }

  @Test
  void misfireDoNothingSkipsToTheNextFutureFire() {
    clock.set(T0 + 500);
    fx.putJob(
        everySecond("skip").toBuilder().misfire(MisfireStrategy.DO_NOTHING, 5_000).build(),
        T0 - 120_000); // later than threshold + the 60 s a term's first pass forgives
    ScanReport report = scanner(fx.redis, ScanConfig.defaults(), "node-a").scan(1);
    assertThat(report.misfires()).isEqualTo(1);
    assertThat(fx.wheel("node-a").values())
        .containsExactlyInAnyOrder(T0 + 1_000, T0 + 2_000, T0 + 3_000, T0 + 4_000, T0 + 5_000);
  }

  @Test
  void misfireFireOnceNowClaimsExactlyOneFireForTheMissedOnes() {
    clock.set(T0 + 500);
    fx.putJob(
        everySecond("once-now").toBuilder().misfire(MisfireStrategy.FIRE_ONCE_NOW, 5_000).build(),
        T0 - 120_000);
    scanner(fx.redis, ScanConfig.defaults(), "node-a").scan(1);
    Map<String, Long> wheel = fx.wheel("node-a");
    assertThat(wheel.values().stream().filter(ms -> ms <= T0 + 500)).containsExactly(T0 + 500);
    assertThat(wheel).containsKey("once-now:" + (T0 + 500)).hasSize(6);
  }

  @Test
  void aFireLateOnlyBecauseItsShardWentUnscannedRunsInsteadOfMisfiring() {
    // Pass 1 claims the job through T0 + 5 s; then 20 s pass without a complete pass (a Redis or
    // ZooKeeper outage): the next pass finds the job due 14.5 s ago, past its 5 s threshold, but
    // the scheduler's own gap is forgiven, so every fire of the gap is claimed.
    clock.set(T0 + 500);
    fx.putJob(
        everySecond("gap").toBuilder().misfire(MisfireStrategy.DO_NOTHING, 5_000).build(), T0);
    DueFireScanner scanner = scanner(fx.redis, ScanConfig.defaults(), "node-a");
    assertThat(scanner.scan(1).misfires()).isZero();
    clock.set(T0 + 20_500);
    ScanReport afterGap = scanner.scan(1);
    assertThat(afterGap.misfires()).isZero();
    assertThat(fx.wheel("node-a").values())
        .contains(T0 + 6_000, T0 + 14_000, T0 + 20_000, T0 + 25_000);
  }

  @Test
  void aGapLongerThanTheGraceStillMisfiresWhatIsOlderThanThresholdPlusGrace() {
    clock.set(T0 + 500);
    fx.putJob(
        everySecond("long-gap").toBuilder().misfire(MisfireStrategy.DO_NOTHING, 5_000).build(), T0);
    DueFireScanner scanner =
        scanner(
            fx.redis, ScanConfig.builder().misfireGrace(Duration.ofSeconds(10)).build(), "node-a");
    scanner.scan(1);
    clock.set(T0 + 60_500); // due T0 + 6 s: 54.5 s late, more than 5 s + 10 s
    ScanReport afterGap = scanner.scan(1);
    assertThat(afterGap.misfires()).isEqualTo(1);
    assertThat(fx.wheel("node-a").values()).doesNotContain(T0 + 6_000, T0 + 30_000);
  }

  @Test
  void disablingAndReEnablingAJobKeepsTheFiresDueAfterTheReEnable() {
    // Issue #15: a job disabled and enabled again within the pre-read window lost the fires due
    // after the re-enable: they had been claimed under the old schedule version, take_due dropped
    // them as stale, and the new claim skipped them as duplicates of the existing records.
    clock.set(T0 + 500);
    JobStore store = new JobStore(fx.redis, fx.keys, clock);
    store.create(
        JobDefinition.builder("toggled").app("app").handler("h").cron("* * * * * *").build());
    DueFireScanner scanner = scanner(fx.redis, ScanConfig.defaults(), "node-a");
    scanner.scan(1);
    assertThat(fx.wheel("node-a")).containsKey("toggled:" + (T0 + 3_000));
    NodeWheelStore wheel =
        new NodeWheelStore(
            fx.redis, fx.keys, "node-a", 10_000, Duration.ofSeconds(5), new SimpleMeterRegistry());
    int shard = fx.keys.shardOf("toggled");
    clock.set(T0 + 1_000);
    assertThat(wheel.takeDue(shard, T0 + 1_000, 100, T0 + 1_000).due()).hasSize(1);

    clock.set(T0 + 1_200);
    store.disable("toggled");
    clock.set(T0 + 1_400);
    store.enable("toggled");
    scanner.scan(1);

    clock.set(T0 + 4_000);
    TakeResult taken = wheel.takeDue(shard, T0 + 4_000, 100, T0 + 4_000);
    assertThat(taken.staleDropped()).as("fires dropped as stale").isZero();
    assertThat(taken.due())
        .extracting(DueTrigger::triggerId)
        .contains("toggled:" + (T0 + 2_000), "toggled:" + (T0 + 3_000), "toggled:" + (T0 + 4_000));
  }

  private static String utc(long ms) {
    return LocalDateTime.ofInstant(Instant.ofEpochMilli(ms), ZoneOffset.UTC).toString();
  }

  private void putWindow(String name, long fromMs, long toMs) {
    new CalendarStore(fx.redis, clock)
        .put(
            new CalendarDefinition(
                name,
                "",
                List.of(),
                List.of(),
                List.of(),
                List.of(new LocalRange(utc(fromMs), utc(toMs))),
                0,
                0),
            java.util.Optional.empty());
  }

  @Test
  void firesACalendarExcludesAreRecordedSkippedAndOnlyTheOthersReachAWheel() {
    putWindow("maint", T0 + 1_000, T0 + 3_000);
    fx.putJob(everySecond("cal").toBuilder().calendars(List.of("maint")).build(), T0);
    fx.putJob(everySecond("plain"), T0);
    ScanReport report = scanner(fx.redis, ScanConfig.defaults(), "n1").scan(1);
    assertThat(fx.wheel("n1").keySet())
        .filteredOn(id -> id.startsWith("cal:"))
        .containsExactlyInAnyOrder(
            "cal:" + T0, "cal:" + (T0 + 3_000), "cal:" + (T0 + 4_000), "cal:" + (T0 + 5_000));
    assertThat(fx.trigger("cal:" + (T0 + 1_000))).containsEntry("state", "SKIPPED");
    assertThat(fx.trigger("cal:" + (T0 + 2_000)))
        .containsEntry("state", "SKIPPED")
        .containsEntry("calendar", "maint");
    assertThat(fx.wheel("n1").keySet()).filteredOn(id -> id.startsWith("plain:")).hasSize(6);
    assertThat(report.firesClaimed()).isEqualTo(10);
    assertThat(meters.counter("kairos.claims.skipped").count()).isEqualTo(2);
    assertThat(fx.dueScore("cal")).isEqualTo((double) (T0 + 6_000));
  }

  @Test
  void aCalendarWrittenAfterAPassIsSeenByTheNextAndADeletedOneExcludesNothing() {
    fx.putJob(everySecond("later").toBuilder().calendars(List.of("window")).build(), T0);
    DueFireScanner scanner = scanner(fx.redis, ScanConfig.defaults(), "n1");
    scanner.scan(1); // claims T0..T0+5s; "window" does not exist yet: nothing is excluded
    assertThat(meters.counter("kairos.scan.calendars.unknown").count()).isEqualTo(1);
    assertThat(fx.wheel("n1")).hasSize(6);
    putWindow("window", T0 + 6_000, T0 + 7_000);
    clock.advance(Duration.ofSeconds(1));
    scanner.scan(1);
    assertThat(fx.trigger("later:" + (T0 + 6_000))).containsEntry("state", "SKIPPED");
    assertThat(fx.wheel("n1")).hasSize(6).doesNotContainKey("later:" + (T0 + 6_000));
    new CalendarStore(fx.redis, clock).delete("window");
    fx.redis.sync().del(RedisKeys.trigger(fx.keys.shardOf("later"), "later:" + (T0 + 6_000)));
    fx.redis.sync().zadd(RedisKeys.due(fx.keys.shardOf("later")), T0 + 6_000, "later");
    scanner.scan(1);
    assertThat(fx.wheel("n1")).containsKey("later:" + (T0 + 6_000));
  }

  @Test
  void jobsWithoutCalendarsCostNoCalendarReadAndJobsWithThemOneReadPerPass() {
    putWindow("few", T0 + 1_000, T0 + 2_000);
    for (int i = 0; i < 40; i++) {
      fx.putJob(everySecond("plain-" + i), T0);
    }
    DueFireScanner scanner = scanner(fx.redis, ScanConfig.builder().batchSize(10).build(), "n1");
    scanner.scan(1);
    assertThat(meters.counter("kairos.scan.calendars.reads").count()).isZero();
    for (int i = 0; i < 40; i++) {
      fx.putJob(everySecond("named-" + i).toBuilder().calendars(List.of("few")).build(), T0);
    }
    scanner.scan(1); // 40 jobs naming a calendar, over several shards and batches
    assertThat(meters.counter("kairos.scan.calendars.reads").count()).isEqualTo(1);
    assertThat(meters.counter("kairos.claims.skipped").count()).isEqualTo(40);
  }

  @Test
  void aFixedDelayJobWhoseFireIsSkippedMovesOnByItsDelayInsteadOfParking() {
    putWindow("pause", T0, T0 + 1);
    fx.putJob(
        JobDefinition.builder("delay")
            .app("app")
            .handler("h")
            .fixedDelay(2_000)
            .createdMs(T0)
            .scheduleVersion(1)
            .calendars(List.of("pause"))
            .build(),
        T0);
    scanner(fx.redis, ScanConfig.defaults(), "n1").scan(1);
    assertThat(fx.trigger("delay:" + T0)).containsEntry("state", "SKIPPED");
    assertThat(fx.dueScore("delay")).isEqualTo((double) (T0 + 2_000));
  }
}
