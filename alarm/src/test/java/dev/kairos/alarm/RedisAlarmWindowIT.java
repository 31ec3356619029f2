package dev.kairos.alarm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.alarm.spring.AlarmAutoConfiguration;
import dev.kairos.core.alarm.Alarm;
import dev.kairos.core.alarm.AlarmKind;
import dev.kairos.core.alarm.AlarmSink;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.KairosClock;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Issue #8 across a cluster: two nodes, each with its own connection to one real Redis Cluster and
 * driven by one settable cluster clock, share every alarm key's window.
 */
@RealInfra(redis = RedisMode.CLUSTER)
class RedisAlarmWindowIT {

  private static final Duration WINDOW = Duration.ofMinutes(10);
  private static final Duration CARRY = Duration.ofHours(1);
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  /** Short, so the outage test waits for little; still far above a healthy round trip. */
  private static final Duration OUTAGE_TIMEOUT = Duration.ofMillis(300);

  private final EmbeddedRedisCluster cluster;
  private final SettableClock clock = new SettableClock(1_700_000_000_000L);
  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private KairosRedis redisA;
  private KairosRedis redisB;
  private AlarmMetrics metricsA;
  private AlarmMetrics metricsB;

  RedisAlarmWindowIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeEach
  void connect() {
    redisA = closing(KairosRedis.connect(cluster.uris(), true, TIMEOUT));
    redisB = closing(KairosRedis.connect(cluster.uris(), true, TIMEOUT));
    metricsA = new AlarmMetrics(new SimpleMeterRegistry());
    metricsB = new AlarmMetrics(new SimpleMeterRegistry());
  }

  @AfterEach
  void close() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
  }

  private <T extends AutoCloseable> T closing(T resource) {
    closeables.add(resource);
    return resource;
  }

  private RedisAlarmWindow node(KairosRedis redis, AlarmMetrics metrics, Duration timeout) {
    return new RedisAlarmWindow(
        redis,
        WINDOW,
        CARRY,
        timeout,
        clock,
        new AlarmDeduplicator(WINDOW, 100, CARRY, clock),
        metrics);
  }

  private Alarm alarm(AlarmKind kind, String subject) {
    return new Alarm(kind, subject + "-" + run, kind + " " + subject, Map.of(), clock.nowMs());
  }

  private Alarm failed(String jobId) {
    return alarm(AlarmKind.TRIGGER_FAILED, jobId);
  }

  private static double fallbacks(AlarmMetrics metrics) {
    return metrics.count("kairos.alarm.dedup.fallback", "reason", "timeout")
        + metrics.count("kairos.alarm.dedup.fallback", "reason", "error")
        + metrics.count("kairos.alarm.dedup.fallback", "reason", "interrupted");
  }

  @Test
  void twoNodesDeliverOneAlarmPerWindowBetweenThemAndCarryBothNodesSuppressedCounts() {
    RedisAlarmWindow a = node(redisA, metricsA, TIMEOUT);
    RedisAlarmWindow b = node(redisB, metricsB, TIMEOUT);
    Alarm job = failed("every-second");

    assertThat(a.admit(job))
        .as("the first alarm opens the window")
        .map(s -> s.suppressed())
        .contains(0L);
    for (int i = 0; i < 3; i++) {
      clock.advance(Duration.ofSeconds(1));
      assertThat(b.admit(job)).as("node B inside A's window, duplicate %d", i).isEmpty();
    }
    for (int i = 0; i < 2; i++) {
      clock.advance(Duration.ofSeconds(1));
      assertThat(a.admit(job)).as("node A inside its own window, duplicate %d", i).isEmpty();
    }
    clock.set(1_700_000_000_000L + WINDOW.toMillis() - 1);
    assertThat(b.admit(job)).as("one ms before the window ends").isEmpty();

    clock.advance(Duration.ofMillis(1));
    Optional<AlarmNotice> next = b.admit(job);
    assertThat(next)
        .as("the next window's alarm, on the other node, carries both nodes' duplicates")
        .map(AlarmNotice::suppressed)
        .contains(6L);
    assertThat(a.admit(job)).as("the window B opened holds for A").isEmpty();
    clock.advance(WINDOW);
    assertThat(a.admit(job)).map(AlarmNotice::suppressed).contains(1L);

    assertThat(fallbacks(metricsA) + fallbacks(metricsB)).as("Redis decided every one").isZero();
  }

  @Test
  void concurrentRaisesOnBothNodesDeliverExactlyOne() throws Exception {
    RedisAlarmWindow a = node(redisA, metricsA, TIMEOUT);
    RedisAlarmWindow b = node(redisB, metricsB, TIMEOUT);
    Alarm condition = alarm(AlarmKind.NO_LEADER, "cluster");
    int threadsPerNode = 4;
    int raisesPerThread = 25;
    List<AlarmNotice> admitted = new CopyOnWriteArrayList<>();
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (RedisAlarmWindow node : List.of(a, b)) {
      for (int t = 0; t < threadsPerNode; t++) {
        Thread thread =
            new Thread(
                () -> {
                  try {
                    go.await();
                    for (int i = 0; i < raisesPerThread; i++) {
                      node.admit(condition).ifPresent(admitted::add);
                    }
                  } catch (Throwable e) {
                    errors.add(e);
                  }
                },
                "alarm-window-it-" + threads.size());
        threads.add(thread);
        thread.start();
      }
    }
    go.countDown();
    for (Thread thread : threads) {
      thread.join(TimeUnit.SECONDS.toMillis(60));
      assertThat(thread.isAlive()).as("%s finished", thread.getName()).isFalse();
    }

    assertThat(errors).isEmpty();
    assertThat(admitted)
        .as("one alarm among %d raises on two nodes", threads.size() * 25)
        .hasSize(1);
    clock.advance(WINDOW);
    assertThat(b.admit(condition))
        .map(AlarmNotice::suppressed)
        .contains((long) threads.size() * raisesPerThread - 1);
    assertThat(fallbacks(metricsA) + fallbacks(metricsB)).isZero();
  }

  @Test
  void differentKeysHaveIndependentWindows() {
    RedisAlarmWindow a = node(redisA, metricsA, TIMEOUT);
    RedisAlarmWindow b = node(redisB, metricsB, TIMEOUT);

    assertThat(a.admit(failed("x"))).isPresent();
    assertThat(b.admit(failed("y"))).as("another job").isPresent();
    assertThat(b.admit(alarm(AlarmKind.APP_WITHOUT_EXECUTOR, "x")))
        .as("another kind about the same subject")
        .isPresent();
    assertThat(b.admit(failed("x"))).isEmpty();
    assertThat(a.admit(failed("y"))).isEmpty();
    assertThat(a.admit(failed("y"))).isEmpty();

    clock.advance(WINDOW);
    assertThat(b.admit(failed("x"))).map(AlarmNotice::suppressed).contains(1L);
    assertThat(b.admit(failed("y"))).map(AlarmNotice::suppressed).contains(2L);
    assertThat(a.admit(alarm(AlarmKind.APP_WITHOUT_EXECUTOR, "x")))
        .map(AlarmNotice::suppressed)
        .contains(0L);
  }

  @Test
  void aWindowKeyExpiresOnItsOwnAfterTheWindowAndTheCarryRetention() {
    RedisAlarmWindow a = node(redisA, metricsA, TIMEOUT);
    Alarm job = failed("ttl");

    a.admit(job);
    a.admit(job);

    String key = RedisKeys.alarmWindow(job.key());
    assertThat(key).startsWith("kairos:{alarm}:window:TRIGGER_FAILED:");
    assertThat(redisA.sync().hgetall(key))
        .containsEntry("openedMs", Long.toString(1_700_000_000_000L))
        .containsEntry("suppressed", "1");
    assertThat(redisA.sync().pttl(key))
        .as("TTL of window + carry retention, refreshed by the duplicate")
        .isGreaterThan(WINDOW.plus(CARRY).minusMinutes(1).toMillis())
        .isLessThanOrEqualTo(WINDOW.plus(CARRY).toMillis());
  }

  @Test
  void whileRedisIsDownEachNodeDecidesAloneAndCountsIt() {
    Alarm job = failed("outage");
    int owner = cluster.nodeOwning(RedisKeys.alarmWindow(job.key()));
    RedisAlarmWindow a = node(redisA, metricsA, OUTAGE_TIMEOUT);
    RedisAlarmWindow b = node(redisB, metricsB, OUTAGE_TIMEOUT);

    cluster.stopNode(owner);
    try {
      assertThat(a.admit(job)).as("node A delivers: no alarm is lost").isPresent();
      assertThat(a.admit(job)).as("node A's local window holds its duplicate").isEmpty();
      assertThat(b.admit(job))
          .as("node B cannot know of A's alarm: one duplicate, as documented")
          .isPresent();
      assertThat(fallbacks(metricsA)).isEqualTo(2);
      assertThat(fallbacks(metricsB)).isEqualTo(1);
    } finally {
      cluster.restartNode(owner);
    }

    // Once the master is back, Redis decides again: a new key gets its window there.
    Alarm after = failed("after-outage");
    Poll.until(
        Duration.ofSeconds(60),
        "node A's alarm window in Redis answering again",
        () -> {
          double before = fallbacks(metricsA);
          clock.advance(WINDOW);
          a.admit(after);
          return fallbacks(metricsA) == before;
        });
    assertThat(redisB.sync().exists(RedisKeys.alarmWindow(after.key()))).isEqualTo(1L);
  }

  @Test
  void autoConfigurationSharesTheWindowWhereTheApplicationHasRedisAndUsesItsClock() {
    KairosRedis appRedis = KairosRedis.connect(cluster.uris(), true, TIMEOUT);
    SettableClock appClock = new SettableClock(1_800_000_000_000L);
    Alarm job = failed("wired");
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(AlarmAutoConfiguration.class))
        // The context closes it (KairosRedis is AutoCloseable).
        .withBean(KairosRedis.class, () -> appRedis)
        .withBean(KairosClock.class, () -> appClock)
        .withPropertyValues("kairos.alarm.log.enabled=false")
        .run(
            context -> {
              assertThat(context).hasSingleBean(AlarmWindow.class);
              assertThat(context.getBean(AlarmWindow.class)).isInstanceOf(RedisAlarmWindow.class);
              AlarmSink sink = context.getBean(AlarmSink.class);

              assertThat(sink.raise(job)).isTrue();
              assertThat(redisA.sync().hget(RedisKeys.alarmWindow(job.key()), "openedMs"))
                  .as("the window was opened at the application's clock")
                  .isEqualTo(Long.toString(1_800_000_000_000L));
              // Another node of the same cluster, a second later: the same window's duplicate.
              clock.set(1_800_000_001_000L);
              assertThat(node(redisB, metricsB, TIMEOUT).admit(job)).isEmpty();
              assertThat(sink.raise(job)).isFalse();
              assertThat(redisA.sync().hget(RedisKeys.alarmWindow(job.key()), "suppressed"))
                  .isEqualTo("2");
            });
  }
}
