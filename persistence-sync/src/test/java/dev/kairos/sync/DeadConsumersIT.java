package dev.kairos.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedPostgreSql;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import dev.kairos.sync.worker.StreamSyncWorker;
import dev.kairos.sync.worker.SyncConfig;
import dev.kairos.sync.worker.SyncFaults;
import dev.kairos.sync.worker.SyncMetrics;
import io.lettuce.core.Consumer;
import io.lettuce.core.XReadArgs;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Consumers left behind by nodes that restarted under another name are removed, safely. */
@RealInfra(redis = RedisMode.CLUSTER, postgres = true)
class DeadConsumersIT {

  private static final String GROUP = SyncConfig.DEFAULT_GROUP;

  /** Long enough that a loaded machine cannot pause past it between two lines of this test. */
  private static final Duration EXPIRY = Duration.ofSeconds(3);

  private final EmbeddedRedisCluster cluster;
  private final EmbeddedPostgreSql pg;
  private SyncFixture fx;
  private ScriptedTraffic traffic;

  DeadConsumersIT(EmbeddedRedisCluster cluster, EmbeddedPostgreSql pg) {
    this.cluster = cluster;
    this.pg = pg;
  }

  @BeforeEach
  void setUp() {
    fx = new SyncFixture(cluster, pg);
    traffic = new ScriptedTraffic(fx.redis, fx.keys);
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.close();
  }

  /** Consumer name → pending count, for one shard's group. */
  private Map<String, Long> consumers(int shard) {
    Map<String, Long> out = new HashMap<>();
    for (Object c : fx.redis.sync().xinfoConsumers(RedisKeys.events(shard), GROUP)) {
      List<?> f = (List<?>) c;
      String name = null;
      long pending = 0;
      for (int i = 0; i + 1 < f.size(); i += 2) {
        if ("name".equals(String.valueOf(f.get(i)))) {
          name = String.valueOf(f.get(i + 1));
        } else if ("pending".equals(String.valueOf(f.get(i)))) {
          pending = Long.parseLong(String.valueOf(f.get(i + 1)));
        }
      }
      out.put(name, pending);
    }
    return out;
  }

  @Test
  void idleConsumersWithNothingPendingAreRemovedAndOnesHoldingEntriesStay() throws Exception {
    for (int i = 0; i < 20; i++) {
      traffic.createJob("dc" + i);
    }
    StreamSyncWorker old = fx.worker("node-old");
    old.start();
    SyncFixture.await(
        Duration.ofSeconds(60),
        "node-old synced and acknowledged everything",
        () -> {
          for (int s = 0; s < SyncFixture.SHARDS; s++) {
            if (fx.redis.sync().xpending(RedisKeys.events(s), GROUP).getCount() > 0
                || !consumers(s).containsKey("node-old")) {
              return false;
            }
          }
          return true;
        });
    old.close();

    // "holder" read an entry and died before acknowledging it: it must never be removed, or
    // DELCONSUMER would drop that entry from the pending list and it would never reach PostgreSQL.
    String jobOnHolderShard = "dc-held";
    traffic.createJob(jobOnHolderShard);
    int held = fx.keys.shardOf(jobOnHolderShard);
    var read =
        fx.redis
            .sync()
            .xreadgroup(
                Consumer.from(GROUP, "holder"),
                XReadArgs.StreamOffset.lastConsumed(RedisKeys.events(held)));
    assertThat(read).isNotEmpty();

    SyncMetrics metrics = new SyncMetrics(new SimpleMeterRegistry());
    StreamSyncWorker live =
        fx.worker(
            SyncFixture.fastConfig("node-b").toBuilder()
                .claimIdle(Duration.ofMinutes(10))
                .claimInterval(Duration.ofMillis(200))
                .consumerExpiry(EXPIRY)
                .build(),
            metrics,
            SyncFaults.NONE);
    live.start();
    SyncFixture.await(
        Duration.ofSeconds(30),
        "node-old gone from every shard's group",
        () -> {
          for (int s = 0; s < SyncFixture.SHARDS; s++) {
            if (consumers(s).containsKey("node-old")) {
              return false;
            }
          }
          return true;
        });
    assertThat(metrics.consumersRemovedCount()).isGreaterThanOrEqualTo(SyncFixture.SHARDS);
    // A probe consumer with nothing pending joins the holder's shard after the holder went idle.
    // Once a sweep has removed the probe, that sweep also saw the holder idle past the bound.
    fx.redis.sync().xgroupCreateconsumer(RedisKeys.events(held), Consumer.from(GROUP, "probe"));
    assertThat(consumers(held)).containsEntry("probe", 0L);
    SyncFixture.await(
        Duration.ofSeconds(30), "probe removed", () -> !consumers(held).containsKey("probe"));
    Map<String, Long> after = consumers(held);
    assertThat(after)
        .as("a consumer holding unacknowledged entries is never removed")
        .containsKey("holder");
    assertThat(after.get("holder")).isPositive();
    assertThat(after).containsKey("node-b");
  }
}
