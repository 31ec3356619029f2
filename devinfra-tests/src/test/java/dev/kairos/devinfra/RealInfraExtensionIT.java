package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs small {@code @RealInfra} classes through a nested JUnit launcher, which is one complete
 * test-JVM run: its root context (and with it the shared components) closes when it ends.
 */
class RealInfraExtensionIT {

  static final List<Object> injected = new CopyOnWriteArrayList<>();

  @RealInfra(redis = RedisMode.STANDALONE)
  static class AsksForRedis {
    @Test
    void records(EmbeddedRedis redis, EmbeddedInfrastructure infra) {
      injected.add(redis);
      injected.add(infra);
    }
  }

  @RealInfra(redis = RedisMode.STANDALONE, zookeeper = ZkMode.STANDALONE)
  static class AsksForRedisAndZooKeeper {
    private final EmbeddedRedis redis;

    AsksForRedisAndZooKeeper(EmbeddedRedis redis) {
      this.redis = redis;
    }

    @Test
    void records(EmbeddedZooKeeper zookeeper, EmbeddedInfrastructure infra) {
      injected.add(redis);
      injected.add(zookeeper);
      injected.add(infra);
    }
  }

  @RealInfra(redis = RedisMode.STANDALONE)
  static class AsksForAParameterItDidNotRequest {
    @Test
    void wantsZooKeeper(EmbeddedZooKeeper zookeeper) {
      injected.add(zookeeper);
    }
  }

  @BeforeEach
  void clear() {
    injected.clear();
  }

  @Test
  void classesShareComponentsAndALaterClassGetsItsExtraOnesStarted() {
    TestExecutionSummary summary = run(AsksForRedis.class, AsksForRedisAndZooKeeper.class);

    assertThat(summary.getTestsSucceededCount()).isEqualTo(2);
    List<EmbeddedRedis> redises = ofType(EmbeddedRedis.class);
    assertThat(redises).hasSize(2);
    assertThat(redises.get(0)).isSameAs(redises.get(1));
    assertThat(ofType(EmbeddedZooKeeper.class)).hasSize(1);

    List<EmbeddedInfrastructure> views = ofType(EmbeddedInfrastructure.class);
    EmbeddedInfrastructure redisOnly =
        views.stream().filter(v -> v.zookeeper() == null).findFirst().orElseThrow();
    EmbeddedInfrastructure both =
        views.stream().filter(v -> v.zookeeper() != null).findFirst().orElseThrow();
    assertThat(redisOnly.springProperties())
        .containsEntry("kairos.redis.uris", redises.get(0).uri())
        .containsEntry("kairos.redis.cluster", "false")
        .doesNotContainKey("kairos.zookeeper.connect-string");
    assertThat(both.springProperties())
        .containsEntry(
            "kairos.zookeeper.connect-string",
            ofType(EmbeddedZooKeeper.class).get(0).connectString());

    // The run is over: the shared components were closed with its root context.
    assertThat(redises.get(0).isRunning()).isFalse();
  }

  @Test
  void parameterTheClassDidNotAskForFailsWithAClearMessage() {
    TestExecutionSummary summary = run(AsksForAParameterItDidNotRequest.class);

    assertThat(summary.getTestsFailedCount()).isEqualTo(1);
    assertThat(summary.getFailures().get(0).getException())
        .hasMessageContaining("cannot inject EmbeddedZooKeeper")
        .hasMessageContaining("does not ask for it");
    assertThat(injected).isEmpty();
  }

  private static TestExecutionSummary run(Class<?>... classes) {
    LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
    for (Class<?> c : classes) {
      request.selectors(selectClass(c));
    }
    LauncherDiscoveryRequest built = request.build();
    Launcher launcher = LauncherFactory.create();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    launcher.execute(built, listener);
    return listener.getSummary();
  }

  private static <T> List<T> ofType(Class<T> type) {
    return injected.stream().filter(type::isInstance).map(type::cast).toList();
  }
}
