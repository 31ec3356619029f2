package dev.kairos.devinfra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@RealInfra(redis = RedisMode.STANDALONE)
class RedisStandaloneIT {

  @Test
  void restartKeepsDataWrittenBeforeItThroughTheAof(EmbeddedRedis redis) {
    String key = "kairos:{standalone}:" + UUID.randomUUID();
    RedisClient client = RedisClient.create(redis.uri());
    try {
      try (StatefulRedisConnection<String, String> c = client.connect()) {
        c.sync().set(key, "survives");
        c.sync().zadd(key + ":due", 1_700_000_000_000.0, "job-1");
      }
      int port = redis.port();

      redis.restart();

      assertThat(redis.port()).isEqualTo(port);
      try (StatefulRedisConnection<String, String> c = client.connect()) {
        assertThat(c.sync().get(key)).isEqualTo("survives");
        assertThat(c.sync().zscore(key + ":due", "job-1")).isEqualTo(1_700_000_000_000.0);
      }
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  @Test
  void stoppedServerRefusesConnectionsUntilRestarted(EmbeddedRedis redis) {
    RedisClient client = RedisClient.create(redis.uri());
    try {
      redis.stop();
      try {
        assertThat(redis.isRunning()).isFalse();
        assertThatThrownBy(client::connect).isInstanceOf(RedisConnectionException.class);
      } finally {
        redis.restart();
      }
      try (StatefulRedisConnection<String, String> c = client.connect()) {
        assertThat(c.sync().ping()).isEqualTo("PONG");
      }
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  @Test
  void uriNamesTheLoopbackPort(EmbeddedRedis redis) {
    assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:" + redis.port());
    assertThat(redis.port()).isBetween(FreePorts.LOWEST, FreePorts.HIGHEST);
  }
}
