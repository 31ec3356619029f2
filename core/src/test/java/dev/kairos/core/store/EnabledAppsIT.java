package dev.kairos.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.model.JobDefinition;
import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.core.time.SettableClock;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The per-shard enabled-job counts per app follow every job write, on a real Redis Cluster. */
@RealInfra(redis = RedisMode.CLUSTER)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EnabledAppsIT {

  private final EmbeddedRedisCluster cluster;
  private final RedisKeys keys = new RedisKeys(16);
  private final SettableClock clock = new SettableClock(1_750_000_000_000L);
  private KairosRedis redis;
  private JobStore store;
  private EnabledApps apps;

  EnabledAppsIT(EmbeddedRedisCluster cluster) {
    this.cluster = cluster;
  }

  @BeforeAll
  void connect() {
    redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5));
    store = new JobStore(redis, keys, clock, 1_000);
    apps = new EnabledApps(redis, keys, 5_000);
  }

  @AfterAll
  void disconnect() {
    redis.close();
  }

  /** Counts of the apps of this test only (the Redis is shared with other classes). */
  private Map<String, Long> counts(String prefix) {
    return apps.read().entrySet().stream()
        .filter(e -> e.getKey().startsWith(prefix))
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  private static JobDefinition job(String app, boolean enabled) {
    return JobDefinition.builder("job-" + UUID.randomUUID())
        .app(app)
        .handler("h")
        .fixedRate(60_000)
        .enabled(enabled)
        .build();
  }

  @Test
  void countsFollowCreateEnableDisableUpdateAndDelete() {
    String p = "app-" + UUID.randomUUID() + "-";
    String a = p + "a";
    String b = p + "b";

    JobDefinition one = store.create(job(a, true));
    JobDefinition two = store.create(job(a, false));
    assertThat(counts(p)).isEqualTo(Map.of(a, 1L));

    store.enable(two.id());
    store.enable(two.id()); // already enabled: no double count
    assertThat(counts(p)).isEqualTo(Map.of(a, 2L));

    one = store.update(one.toBuilder().app(b).build(), one.version());
    assertThat(counts(p)).as("moved to app b").isEqualTo(Map.of(a, 1L, b, 1L));

    one = store.update(one.toBuilder().params("{\"x\":1}").build(), one.version());
    assertThat(counts(p)).as("a params-only update").isEqualTo(Map.of(a, 1L, b, 1L));

    store.disable(two.id());
    store.disable(two.id());
    assertThat(counts(p)).as("app a has none left").isEqualTo(Map.of(b, 1L));

    JobDefinition disabledTwo = store.get(two.id()).orElseThrow();
    store.update(disabledTwo.toBuilder().app(b).build(), disabledTwo.version());
    assertThat(counts(p)).as("a disabled job counts nowhere").isEqualTo(Map.of(b, 1L));

    one = store.update(one.toBuilder().enabled(false).build(), one.version());
    assertThat(counts(p)).as("disabled by an update").isEmpty();
    one = store.update(one.toBuilder().enabled(true).build(), one.version());
    assertThat(counts(p)).as("re-enabled by an update").isEqualTo(Map.of(b, 1L));

    store.delete(one.id());
    store.delete(two.id());
    assertThat(counts(p)).isEmpty();
  }

  @Test
  void appsAreSummedOverShards() {
    String p = "app-" + UUID.randomUUID() + "-";
    String a = p + "a";
    for (int i = 0; i < 40; i++) {
      store.create(job(a, true));
    }

    assertThat(counts(p)).isEqualTo(Map.of(a, 40L));
  }
}
