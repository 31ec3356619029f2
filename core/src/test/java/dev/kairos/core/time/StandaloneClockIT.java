package dev.kairos.core.time;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kairos.core.redis.KairosRedis;
import dev.kairos.devinfra.EmbeddedRedis;
import dev.kairos.devinfra.RealInfra;
import dev.kairos.devinfra.RedisMode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

@RealInfra(redis = RedisMode.STANDALONE)
class StandaloneClockIT {

  @Test
  void standaloneRedisTimeIsTheReference(EmbeddedRedis server) {
    try (KairosRedis redis =
            KairosRedis.connect(List.of(server.uri()), false, Duration.ofSeconds(5));
        ClusterClock clock = new ClusterClock(new RedisTimeSource(redis))) {
      clock.start();
      assertThat(clock.reference()).isEqualTo("standalone");
      long before = clock.nowMs();
      List<String> time = redis.sync().time();
      long after = clock.nowMs();
      long redisMs = Long.parseLong(time.get(0)) * 1_000 + Long.parseLong(time.get(1)) / 1_000;
      assertThat(redisMs).isBetween(before - 5, after + 5);
    }
  }
}
