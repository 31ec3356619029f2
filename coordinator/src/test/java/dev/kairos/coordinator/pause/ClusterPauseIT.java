package dev.kairos.coordinator.pause;

import static dev.kairos.protocol.ClusterFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.coordinator.assign.ConsistentHashAssigner;
import dev.kairos.coordinator.assign.StaticLiveNodes;
import dev.kairos.coordinator.scan.DueFireScanner;
import dev.kairos.coordinator.scan.ScanConfig;
import dev.kairos.coordinator.scan.ScanLoop;
import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.model.MisfireStrategy;
import dev.kairos.core.schedule.FireWindow;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.protocol.ClusterFixture;
import dev.kairos.protocol.fence.ShardFence;
import dev.kairos.protocol.wheel.WheelNotifier;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The cluster-wide pause as the leader's scan loop sees it, on a real Redis Cluster. */
@RealInfra(redis = RedisMode.CLUSTER)
class ClusterPauseIT {

  private static final Duration WAIT = Duration.ofSeconds(20);

  private final EmbeddedRedisCluster cluster;
  private final SettableClock clock = new SettableClock(T0);
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private ClusterFixture fx;
  private ClusterPause pause;
  private ScanLoop loop;

  ClusterPauseIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeEach
  void connect() {
    fx = new ClusterFixture(cluster, 8);
    pause = new ClusterPause(fx.redis, clock);
  }

  @AfterEach
  void disconnect() {
    if (loop != null) {
      loop.close();
    }
    fx.close();
  }

  private static JobDefinition everySecond(String id, MisfireStrategy misfire) {
    return JobDefinition.builder(id)
        .app("app")
        .handler("h")
        .fixedRate(1_000)
        .misfire(misfire, 5_000)
        .createdMs(T0)
        .scheduleVersion(1)
        .build();
  }

  private ScanLoop startLoop() {
    DueFireScanner scanner =
        new DueFireScanner(
            fx.redis,
            fx.keys,
            ScanConfig.defaults(),
            clock,
            StaticLiveNodes.of("node-a"),
            new ConsistentHashAssigner(),
            WheelNotifier.NONE,
            new FireWindow(),
            meters);
    ScanLoop scan =
        new ScanLoop(
            1,
            new ShardFence(fx.redis, fx.keys, Duration.ofSeconds(5)),
            scanner,
            Duration.ofMillis(20),
            stale -> {},
            pause::isPaused,
            meters);
    scan.start();
    return scan;
  }

  private double count(String meter) {
    return meters.counter(meter).count();
  }

  private void awaitPasses(String meter, int more) {
    double target = count(meter) + more;
    ClusterFixture.await(WAIT, more + " more " + meter, () -> count(meter) >= target);
  }

  @Test
  void pauseIsIdempotentAndResumeClearsIt() {
    assertThat(pause.state()).isEqualTo(PauseState.RUNNING);
    PauseState first = pause.pause("alice");
    clock.advance(Duration.ofSeconds(3));
    PauseState again = pause.pause("bob");

    assertThat(first).isEqualTo(new PauseState(true, T0, "alice"));
    assertThat(again).isEqualTo(first);
    assertThat(pause.state()).isEqualTo(first);
    assertThat(pause.isPaused()).isTrue();

    assertThat(pause.resume("bob")).isEqualTo(PauseState.RUNNING);
    assertThat(pause.isPaused()).isFalse();
    assertThat(pause.resume("bob")).isEqualTo(PauseState.RUNNING);
  }

  @Test
  void nothingIsClaimedWhilePausedAndResumeAppliesTheMisfireStrategies() {
    fx.putJob(everySecond("skip", MisfireStrategy.DO_NOTHING), T0);
    fx.putJob(everySecond("once", MisfireStrategy.FIRE_ONCE_NOW), T0);
    // Due 4 s before the resume: within its 5 s threshold, so its fires are late, not missed.
    fx.putJob(everySecond("late", MisfireStrategy.DO_NOTHING), T0 + 16_000);
    pause.pause("test");

    loop = startLoop();
    awaitPasses("kairos.scan.paused.passes", 5);
    assertThat(fx.wheel("node-a")).isEmpty();
    assertThat(fx.dueScore("skip")).isEqualTo((double) T0);
    assertThat(count("kairos.scan.passes")).isZero();

    clock.advance(Duration.ofSeconds(20)); // paused for 20 s: beyond the 5 s threshold
    awaitPasses("kairos.scan.paused.passes", 2);
    assertThat(fx.wheel("node-a")).isEmpty();

    pause.resume("test");
    awaitPasses("kairos.scan.passes", 2);
    long now = T0 + 20_000;
    Map<String, Long> wheel = fx.wheel("node-a");
    // DO_NOTHING beyond the threshold: every missed fire skipped, continues after now.
    assertThat(firesOf(wheel, "skip"))
        .containsExactly(now + 1_000, now + 2_000, now + 3_000, now + 4_000, now + 5_000);
    // FIRE_ONCE_NOW: one fire at the resume instant, then the schedule again.
    assertThat(firesOf(wheel, "once"))
        .containsExactly(now, now + 1_000, now + 2_000, now + 3_000, now + 4_000, now + 5_000);
    // Within the threshold: every fire that came due while paused is claimed, late.
    assertThat(firesOf(wheel, "late")).first().isEqualTo(T0 + 16_000);
    assertThat(firesOf(wheel, "late")).hasSize(10).last().isEqualTo(now + 5_000);
    assertThat(count("kairos.scan.misfires")).isEqualTo(2);
  }

  private static List<Long> firesOf(Map<String, Long> wheel, String jobId) {
    return wheel.entrySet().stream()
        .filter(e -> e.getKey().startsWith(jobId + ":"))
        .map(Map.Entry::getValue)
        .sorted()
        .toList();
  }
}
