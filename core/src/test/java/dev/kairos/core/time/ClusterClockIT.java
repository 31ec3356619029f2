package dev.kairos.core.time;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.core.redis.RedisKeys;
import dev.kairos.devinfra.EmbeddedRedisCluster;
import dev.kairos.devinfra.Poll;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

@RealInfra(redis = RedisMode.CLUSTER)
class ClusterClockIT {

  private static final Logger log = LoggerFactory.getLogger(ClusterClockIT.class);

  @Test
  void readsTimeFromTheMasterOwningTheClockSlot(EmbeddedRedisCluster cluster) {
    try (KairosRedis redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5))) {
      ReferenceTimeSource.Reading reading = new RedisTimeSource(redis).read();
      int owner = cluster.nodeOwning(RedisKeys.CLOCK_REFERENCE);
      assertThat(reading.reference()).contains(":" + cluster.port(owner));
    }
  }

  @Test
  void agreesWithRedisTimeOfTheReferenceMasterWithinAFewMillis(EmbeddedRedisCluster cluster) {
    int owner = cluster.nodeOwning(RedisKeys.CLOCK_REFERENCE);
    RedisClient direct = RedisClient.create(RedisURI.create("127.0.0.1", cluster.port(owner)));
    try (KairosRedis redis = KairosRedis.connect(cluster.uris(), true, Duration.ofSeconds(5));
        ClusterClock clock =
            new ClusterClock(
                new RedisTimeSource(redis), MonotonicSource.SYSTEM, Duration.ofMillis(50), 8);
        StatefulRedisConnection<String, String> node = direct.connect()) {
      clock.start();
      // Let a few samples in so the smallest round trip is chosen.
      Poll.until(
          Duration.ofSeconds(10), Duration.ofMillis(10), "8 samples", () -> clock.samples() >= 8);

      long worst = 0;
      long previous = Long.MIN_VALUE;
      for (int i = 0; i < 50; i++) {
        long before = clock.nowMs();
        List<String> time = node.sync().time();
        long after = clock.nowMs();
        long redisMs = Long.parseLong(time.get(0)) * 1_000 + Long.parseLong(time.get(1)) / 1_000;
        // Redis answered between the two readings; allow a few ms for sampling error and load.
        long deviation = redisMs < before ? before - redisMs : Math.max(0, redisMs - after);
        worst = Math.max(worst, deviation);
        assertThat(before).isGreaterThanOrEqualTo(previous);
        previous = after;
      }
      log.info(
          "cluster clock vs Redis TIME: worst deviation {} ms, sample round trip {} us",
          worst,
          clock.roundTripNanos() / 1_000);
      assertThat(worst).as("ms outside the [before, after] bracket").isLessThanOrEqualTo(5);
      assertThat(clock.failures()).isZero();
    } finally {
      direct.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }
}
